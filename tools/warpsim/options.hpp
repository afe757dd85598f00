// Shared option handling for subcommands: --help and --verbose on each, positional files,
// counts that refuse what is not one, errors reported as "warpsim <cmd>: error: ..." with exit
// code 2 and, for a mistyped option, the nearest one.
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <iosfwd>
#include <limits>
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

// A count or size option: a decimal integer from `min` to `max`. A sign, a fraction, other text
// or a value out of range is an error naming the option and the range, never a wrapped number
// (Boost's own conversion reads "-1" as 2^64 - 1).
boost::program_options::typed_value<std::uint64_t>* count_value(
    std::uint64_t min = 0, std::uint64_t max = std::numeric_limits<std::uint64_t>::max());

// A file option whose kind follows its extension: `path` must end in one of `extensions`
// (".svg", ".html", ...). Nothing, after an error naming `option` and the choices, otherwise.
std::optional<std::string> extension_of(const std::string& path,
                                        const std::vector<std::string>& extensions,
                                        const std::string& command, const std::string& option,
                                        std::ostream& err);

// The long option of `desc` nearest to `typed` (one or two edits, or a prefix), or "".
std::string nearest_option(const boost::program_options::options_description& desc,
                           const std::string& typed);

}  // namespace warpsim::cli
