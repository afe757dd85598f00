#include "tools/warpsim/options.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <ostream>
#include <sstream>

#include "sim/core/edit_distance.hpp"

namespace warpsim::cli {
namespace po = boost::program_options;

namespace {

// Boost fills in %canonical_option% when the error leaves the option's parser.
class BadCount : public po::error_with_option_name {
 public:
  explicit BadCount(const std::string& why)
      : po::error_with_option_name("option '%canonical_option%': " + why) {}
};

class CountValue : public po::typed_value<std::uint64_t> {
 public:
  CountValue(std::uint64_t min, std::uint64_t max)
      : po::typed_value<std::uint64_t>(nullptr), min_(min), max_(max) {}

  void xparse(boost::any& store, const std::vector<std::string>& tokens) const override {
    const std::string text = tokens.empty() ? "" : tokens.back();
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    const std::string range = "from " + std::to_string(min_) + " to " + std::to_string(max_);
    if (text.empty() || end != text.data() + text.size() ||
        (ec != std::errc() && ec != std::errc::result_out_of_range)) {
      const bool negative = !text.empty() && text.front() == '-';
      throw BadCount("'" + text + "' is not " +
                     (negative ? "allowed: it must not be negative" : "a whole number") +
                     " (expected " + range + ")");
    }
    if (ec == std::errc::result_out_of_range || v < min_ || v > max_) {
      throw BadCount("'" + text + "' is out of range (expected " + range + ")");
    }
    store = v;
  }

 private:
  std::uint64_t min_, max_;
};

// "run FILE" -> "run", "occupancy --block N" -> "occupancy": the command's words before its
// usage's placeholders and options.
std::string command_name(const std::string& usage) {
  std::string name;
  std::istringstream words(usage);
  for (std::string w; words >> w;) {
    if (w.empty() || w[0] == '-' || w[0] == '[' || std::isupper(static_cast<unsigned char>(w[0])))
      break;
    name += (name.empty() ? "" : " ") + w;
  }
  return name;
}

}  // namespace

po::typed_value<std::uint64_t>* count_value(std::uint64_t min, std::uint64_t max) {
  return new CountValue(min, max);  // owned by the options_description, as po::value's
}

std::string nearest_option(const po::options_description& desc, const std::string& typed) {
  std::string word = typed;
  word.erase(0, word.find_first_not_of('-'));
  if (const auto eq = word.find('='); eq != std::string::npos) word.resize(eq);
  std::string best;
  std::size_t best_distance = 3;
  for (const auto& option : desc.options()) {
    const std::string& name = option->long_name();
    if (name.empty() || name == "file") continue;
    const std::size_t d = edit_distance(word, name);
    if (d < best_distance) {
      best = name;
      best_distance = d;
    }
  }
  return best;
}

std::optional<std::string> extension_of(const std::string& path,
                                        const std::vector<std::string>& extensions,
                                        const std::string& command, const std::string& option,
                                        std::ostream& err) {
  for (const std::string& e : extensions) {
    if (path.size() > e.size() && path.ends_with(e)) return e;
  }
  std::string list;
  for (const std::string& e : extensions) list += (list.empty() ? "" : " or ") + e;
  err << "warpsim " << command << ": error: " << option << " '" << path
      << "': the file name must end in " << list << " (the format follows the extension)\n";
  return std::nullopt;
}

std::optional<CommandLine> parse_command_line(const std::string& command,
                                              po::options_description desc,
                                              const po::positional_options_description& positional,
                                              const std::vector<std::string>& args,
                                              std::ostream& out, std::ostream& err) {
  desc.add_options()("help,h", "show this help")("verbose,v", "log what the command does");
  CommandLine cl;
  try {
    // No guessing from prefixes: `--thread` is a typo to report, not a silent `--threads`.
    const int style =
        po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
    po::store(po::command_line_parser(args).options(desc).positional(positional).style(style).run(),
              cl.vars);
    po::notify(cl.vars);
  } catch (const po::error& e) {
    err << "warpsim " << command_name(command) << ": error: " << e.what();
    if (const auto* unknown = dynamic_cast<const po::unknown_option*>(&e)) {
      const std::string near = nearest_option(desc, unknown->get_option_name());
      if (!near.empty()) err << " (did you mean '--" << near << "'?)";
    }
    err << "\n(see warpsim " << command_name(command) << " --help)\n";
    return std::nullopt;
  }
  // A positional argument given as '' would otherwise read as "no file".
  for (const auto& [name, value] : cl.vars) {
    const auto* text = boost::any_cast<std::string>(&value.value());
    const bool takes_value = desc.find(name, false).semantic()->max_tokens() > 0;
    if (text != nullptr && text->empty() && takes_value && !value.defaulted()) {
      err << "warpsim " << command_name(command)
          << ": error: " << (name == "file" ? std::string("the file name") : "--" + name)
          << " is empty; give a value or leave the option out\n";
      return std::nullopt;
    }
  }
  if (cl.vars.count("help") != 0) {
    out << "usage: warpsim " << command << " [options]\n" << desc;
    cl.help = true;
  }
  spdlog::set_level(cl.vars.count("verbose") != 0 ? spdlog::level::debug : spdlog::level::warn);
  return cl;
}

}  // namespace warpsim::cli
