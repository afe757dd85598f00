#include <spdlog/spdlog.h>

#include <ostream>

#include "sim/config/config_keys.hpp"
#include "sim/core/ir/frontend.hpp"
#include "sim/core/ir/loop_unroll.hpp"
#include "sim/core/ir/printer.hpp"
#include "tools/warpsim/cfg_report.hpp"
#include "tools/warpsim/cli.hpp"
#include "tools/warpsim/commands.hpp"
#include "tools/warpsim/options.hpp"

namespace warpsim::cli {
namespace {

namespace po = boost::program_options;

std::vector<std::string> files_of(const CommandLine& cl) {
  if (cl.vars.count("file") == 0) return {};
  return cl.vars["file"].as<std::vector<std::string>>();
}

// Loads one file, printing its diagnostics; returns nothing when it has errors.
std::optional<ir::LoadedModule> load(const std::string& path, std::ostream& err) {
  ir::LoadedModule loaded = ir::load_module_file(path);
  loaded.diags.render(err);
  spdlog::debug("{}: {} kernels, {} launches, {} errors, {} warnings", path,
                loaded.module.kernels.size(), loaded.module.launches.size(),
                loaded.diags.error_count(), loaded.diags.warning_count());
  if (!loaded.ok()) return std::nullopt;
  return loaded;
}

int check(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  po::options_description desc("options");
  desc.add_options()("file", po::value<std::vector<std::string>>(), "a .kir file");
  po::positional_options_description pos;
  pos.add("file", -1);
  auto cl = parse_command_line("ir check FILE...", desc, pos, args, out, err);
  if (!cl) return kExitBadInput;
  if (cl->help) return kExitOk;
  const auto files = files_of(*cl);
  if (files.empty()) {
    err << "warpsim ir check: error: no input files\n";
    return kExitBadInput;
  }
  int status = kExitOk;
  for (const std::string& path : files) {
    auto loaded = load(path, err);
    if (!loaded) {
      status = kExitBadInput;
      continue;
    }
    out << path << ": ok (" << loaded->module.kernels.size() << " kernel"
        << (loaded->module.kernels.size() == 1 ? "" : "s") << ", " << loaded->module.launches.size()
        << " launch" << (loaded->module.launches.size() == 1 ? "" : "es") << ", "
        << loaded->diags.warning_count() << " warning"
        << (loaded->diags.warning_count() == 1 ? "" : "s") << ")\n";
  }
  return status;
}

// `print` and `cfg` take exactly one file.
std::optional<ir::LoadedModule> single_file(const std::string& command,
                                            po::options_description desc,
                                            const std::vector<std::string>& args, std::ostream& out,
                                            std::ostream& err, CommandLine& cl_out) {
  desc.add_options()("file", po::value<std::vector<std::string>>(), "a .kir file");
  po::positional_options_description pos;
  pos.add("file", -1);
  auto cl = parse_command_line(command, desc, pos, args, out, err);
  if (!cl || cl->help) {
    if (cl) cl_out = *cl;
    return std::nullopt;
  }
  cl_out = *cl;
  const auto files = files_of(*cl);
  if (files.size() != 1) {
    err << "warpsim " << command << ": error: expected exactly one input file\n";
    return std::nullopt;
  }
  return load(files[0], err);
}

// The bounds of the timing.unroll_factor key, so `ir print --unroll` shows what timing can run.
std::uint64_t max_unroll_factor() {
  for (const config::KeySpec& k : config::config_keys()) {
    if (k.key == "timing.unroll_factor") return k.max;
  }
  return 1;
}

int print(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  po::options_description desc("options");
  desc.add_options()("unroll", count_value(1, max_unroll_factor()),
                     "unroll counted loops N times, as the timing model runs them "
                     "(timing.unroll_factor; see docs/timing.md)");
  CommandLine cl;
  auto loaded = single_file("ir print FILE", desc, args, out, err, cl);
  if (!loaded) return cl.help ? kExitOk : kExitBadInput;
  if (cl.vars.count("unroll")) {
    const auto factor = static_cast<std::uint32_t>(cl.vars["unroll"].as<std::uint64_t>());
    for (ir::Kernel& k : loaded->module.kernels) {
      const std::size_t loops = ir::unroll_loops(k, factor);
      if (loops > 0)
        out << "# " << k.name << ": " << loops << " loop" << (loops == 1 ? "" : "s") << " unrolled "
            << factor << "x\n";
    }
  }
  ir::print(out, loaded->module);
  return kExitOk;
}

int cfg(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  po::options_description desc("options");
  desc.add_options()("dot", "write Graphviz dot instead of text")(
      "kernel", po::value<std::string>(), "only this kernel");
  CommandLine cl;
  auto loaded = single_file("ir cfg FILE", desc, args, out, err, cl);
  if (!loaded) return cl.help ? kExitOk : kExitBadInput;
  const bool dot = cl.vars.count("dot") != 0;
  const std::string only = cl.vars.count("kernel") ? cl.vars["kernel"].as<std::string>() : "";
  if (!only.empty() && loaded->module.find_kernel(only) == nullptr) {
    err << "warpsim ir cfg: error: no kernel '" << only << "' in the file\n";
    return kExitBadInput;
  }
  for (const ir::Kernel& k : loaded->module.kernels) {
    if (!only.empty() && k.name != only) continue;
    if (dot) {
      write_cfg_dot(out, k);
    } else {
      write_cfg_text(out, k);
    }
  }
  return kExitOk;
}

}  // namespace

int run_ir(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const std::string sub = args.empty() ? "" : args[0];
  const std::vector<std::string> rest(args.begin() + (args.empty() ? 0 : 1), args.end());
  if (sub == "check") return check(rest, out, err);
  if (sub == "print") return print(rest, out, err);
  if (sub == "cfg") return cfg(rest, out, err);
  err << "warpsim ir: error: "
      << (sub.empty() ? "missing subcommand" : "unknown subcommand '" + sub + "'")
      << " (check, print, cfg)\n";
  return kExitBadInput;
}

}  // namespace warpsim::cli
