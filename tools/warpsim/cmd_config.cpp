// `warpsim config show [NAME|FILE] [--set k=v]...`: the effective config, every key with its
// value, unit, description and where the value came from.
#include <fmt/format.h>

#include <ostream>

#include "tools/warpsim/cli.hpp"
#include "tools/warpsim/commands.hpp"
#include "tools/warpsim/config_options.hpp"
#include "tools/warpsim/options.hpp"

namespace warpsim::cli {

int run_config(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  namespace po = boost::program_options;
  if (args.empty() || (args[0] != "show" && args[0] != "list")) {
    err << "warpsim config: error: expected 'show [NAME|FILE]' or 'list'\n";
    return kExitBadInput;
  }
  if (args[0] == "list") {
    for (const EmbeddedConfig& c : embedded_configs()) out << c.name << '\n';
    return kExitOk;
  }
  po::options_description desc("options");
  desc.add_options()("config", po::value<std::string>()->default_value(kDefaultConfig),
                     "a built-in config name or an INI file")(
      "set", po::value<std::vector<std::string>>(), "section.key=value (repeatable)");
  po::positional_options_description pos;
  pos.add("config", 1);
  auto cl = parse_command_line("config show [NAME|FILE]", desc, pos,
                               std::vector<std::string>(args.begin() + 1, args.end()), out, err);
  if (!cl) return kExitBadInput;
  if (cl->help) return kExitOk;
  const auto sets = cl->vars.count("set") ? cl->vars["set"].as<std::vector<std::string>>()
                                          : std::vector<std::string>{};
  const auto gpu = load_gpu_config(cl->vars["config"].as<std::string>(), sets, err);
  if (!gpu) return kExitBadInput;
  out << "# " << gpu->name << " (" << gpu->source << ")\n";
  std::string section;
  for (const auto& e : gpu->entries) {
    const std::string s = e.key.substr(0, e.key.find('.'));
    if (s != section) {
      out << (section.empty() ? "" : "\n") << '[' << s << "]\n";
      section = s;
    }
    out << fmt::format("{:<40} # {}{}{} [{}]\n",
                       e.key.substr(e.key.find('.') + 1) + " = " + e.value, e.description,
                       e.unit.empty() ? "" : ", in ", e.unit, e.origin);
  }
  return kExitOk;
}

}  // namespace warpsim::cli
