// Shared option handling for subcommands: --help and --verbose on each, positional files,
// errors reported as "warpsim <cmd>: error: ..." with exit code 2.
#pragma once

#include <boost/program_options.hpp>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace warpsim::cli {

struct CommandLine {
  boost::program_options::variables_map vars;
  bool help = false;
};

// Parses `args` against `desc` (to which --help and --verbose are added). Returns nothing after
// printing the error to `err`.
std::optional<CommandLine> parse_command_line(
    const std::string& command, boost::program_options::options_description desc,
    const boost::program_options::positional_options_description& positional,
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace warpsim::cli
