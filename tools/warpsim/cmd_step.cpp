// `warpsim step FILE --block B --warp W`: one warp's divergent execution, lane by lane.
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <ostream>

#include "sim/check/hazard_checker.hpp"
#include "sim/core/exec/executor.hpp"
#include "tools/warpsim/check_report.hpp"
#include "tools/warpsim/cli.hpp"
#include "tools/warpsim/commands.hpp"
#include "tools/warpsim/config_options.hpp"
#include "tools/warpsim/fault_report.hpp"
#include "tools/warpsim/kernel_input.hpp"
#include "tools/warpsim/launch_checks.hpp"
#include "tools/warpsim/launch_options.hpp"
#include "tools/warpsim/options.hpp"
#include "tools/warpsim/sass_frontend.hpp"
#include "tools/warpsim/sass_step_session.hpp"
#include "tools/warpsim/step_session.hpp"

namespace warpsim::cli {
namespace {

namespace po = boost::program_options;

// --block-index as a linear index ("5") or block coordinates ("1,2" or "1,2,0"); nothing after
// an error that says what is wrong with it.
std::optional<std::uint64_t> block_index(const std::string& text, const exec::LaunchSpec& spec,
                                         std::ostream& err) {
  const auto d = parse_dim3(text);
  const std::string shape = fmt::format("the launch has {} blocks (grid {},{},{})", spec.blocks(),
                                        spec.grid.x, spec.grid.y, spec.grid.z);
  if (!d) {
    err << "warpsim step: error: --block-index '" << text
        << "' is not a number: give a linear index or x,y[,z]; " << shape << '\n';
    return std::nullopt;
  }
  const bool linear = text.find(',') == std::string::npos;
  const std::uint64_t index = linear ? d->x : exec::flatten(*d, spec.grid);
  if (linear ? index >= spec.blocks()
             : (d->x >= spec.grid.x || d->y >= spec.grid.y || d->z >= spec.grid.z)) {
    err << "warpsim step: error: --block-index " << text << " is outside the grid: " << shape
        << '\n';
    return std::nullopt;
  }
  return index;
}

// Block glyphs need a UTF-8 terminal; elsewhere (a pipe, a file) the bytes are the same anyway.
bool terminal_wants_ascii() {
  if (isatty(STDOUT_FILENO) == 0) return false;
  for (const char* name : {"LC_ALL", "LC_CTYPE", "LANG"}) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') continue;
    const std::string v = value;
    return v.find("UTF-8") == std::string::npos && v.find("utf8") == std::string::npos &&
           v.find("UTF8") == std::string::npos && v.find("utf-8") == std::string::npos;
  }
  return true;  // the C locale
}

// The watched warp on the kernel's SASS (step --frontend sass).
int step_on_sass(const ir::Module& module, const exec::LaunchSpec& spec, const std::string& arch,
                 std::uint64_t max_warp_instructions, SassStepSession& session, std::uint64_t block,
                 std::uint32_t warp, const std::string& file, std::ostream& out,
                 std::ostream& err) {
  exec::ExecOptions options;
  options.max_warp_instructions = max_warp_instructions;
  const sass::SassTrace trace{&session, block, warp};
  out << "kernel " << spec.kernel->name << " on its SASS, block " << block << ", warp " << warp
      << "; lanes: " << session.legend() << '\n';
  try {
    std::string error;
    if (!run_on_sass(module, spec, arch, options, error, trace)) {
      err << "warpsim step: error: " << error << '\n';
      return kExitBadInput;
    }
  } catch (const StepStopped&) {
    return kExitOk;
  } catch (const exec::KernelFault& f) {
    write_fault(err, file, module, f);
    return kExitKernelFault;
  }
  return kExitOk;
}

}  // namespace

int run_step(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
             std::ostream& err) {
  po::options_description desc("options");
  desc.add_options()("file", po::value<std::string>(), "the .kir, .cu or .ptx file")(
      "block-index", po::value<std::string>()->default_value("0"),
      "which block to watch: a linear index, or x,y[,z]")(
      "warp", count_value(0, 31)->default_value(0), "which warp of that block")(
      "script", po::value<std::string>(), "read commands from this file instead of the terminal")(
      "ascii", "draw the lane bar with ASCII characters (# active, : waiting, . exited)")(
      "config", po::value<std::string>()->default_value(kDefaultConfig),
      "the GPU the launch must fit: a built-in config name or an INI file")(
      "max-warp-insts", count_value(1)->default_value(1'000'000'000),
      "fault when the kernel executes more warp instructions than this")(
      "frontend", po::value<std::string>()->default_value("ir"),
      "ir (the IR and its SIMT stack) or sass (the SASS ptxas makes of it, and its convergence "
      "barriers; needs ptxas and nvdisasm)")(
      "check", po::value<std::string>(),
      "run the hazard checks (race, sync, init, memory, a list, or all): each hazard is shown "
      "as it is found, and the command hazard runs to the next");
  add_launch_shape_options(desc);
  add_input_options(desc);
  po::positional_options_description pos;
  pos.add("file", 1);
  auto cl = parse_command_line("step FILE --block-index B --warp W", desc, pos, args, out, err);
  if (!cl) return kExitBadInput;
  if (cl->help) return kExitOk;
  if (cl->vars.count("file") == 0) {
    err << "warpsim step: error: no input file\n";
    return kExitBadInput;
  }
  const std::string file = cl->vars["file"].as<std::string>();
  const auto gpu = load_gpu_config(cl->vars["config"].as<std::string>(), {}, err);
  if (!gpu) return kExitBadInput;
  InputOptions input = input_options(*cl);
  input.arch = sm_arch(gpu->cc_major, gpu->cc_minor);
  // Without --frontend, a kernel the IR does not import is stepped on its SASS (below).
  const bool frontend_chosen = !cl->vars["frontend"].defaulted();
  input.sass_frontend = cl->vars["frontend"].as<std::string>() == "sass" ||
                        (!frontend_chosen && cl->vars.count("check") == 0 && sass_tools_found());
  const ir::LoadedModule loaded = load_kernel_file(file, input);
  loaded.diags.render(err);
  if (!loaded.ok()) return kExitBadInput;
  const auto spec = resolve_launch(loaded, launch_overrides(*cl, "step"), err);
  if (!spec) return kExitBadInput;
  note_sass_only(*spec->kernel, "step", err);
  // (With --frontend ir such a kernel was refused by the import.)
  if (!spec->kernel->sass_only.empty() && cl->vars["frontend"].as<std::string>() == "ir") {
    cl->vars.at("frontend").value() = std::string("sass");
    err << "warpsim step: stepping the kernel's SASS, as ptxas compiled it\n";
  }
  if (!launch_can_run(*gpu, *spec, launch_occupancy(*gpu, *spec), "step", err)) {
    return kExitBadInput;
  }
  const auto block = block_index(cl->vars["block-index"].as<std::string>(), *spec, err);
  if (!block) return kExitBadInput;
  const auto warp = static_cast<std::uint32_t>(cl->vars["warp"].as<std::uint64_t>());
  if (warp >= spec->warps_per_block()) {
    err << "warpsim step: error: --warp " << warp << " is outside the block: it has "
        << spec->warps_per_block() << " warp" << (spec->warps_per_block() == 1 ? "" : "s") << " ("
        << spec->threads_per_block() << " threads)\n";
    return kExitBadInput;
  }
  std::ifstream script;
  if (cl->vars.count("script")) {
    const std::string path = cl->vars["script"].as<std::string>();
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) script.open(path);
    if (!script.is_open()) {
      err << "warpsim step: error: --script '" << path << "': "
          << (std::filesystem::is_directory(path, ec) ? "is a directory" : "cannot read the file")
          << '\n';
      return kExitBadInput;
    }
  }
  std::istream& commands = script.is_open() ? script : in;
  const bool terminal = !script.is_open() && &in == &std::cin && isatty(STDIN_FILENO) != 0;
  spdlog::debug("step: {} launch {}: watching block {} warp {}; commands from {}", file, spec->name,
                *block, warp,
                script.is_open() ? "the script" : (terminal ? "the terminal" : "standard input"));
  const bool ascii = cl->vars.count("ascii") != 0 || terminal_wants_ascii();
  if (!resolve_frontend(cl->vars, "step", err, sm_arch(gpu->cc_major, gpu->cc_minor))) {
    return kExitBadInput;
  }
  const std::string frontend = cl->vars["frontend"].as<std::string>();
  if (frontend == "sass") {
    if (cl->vars.count("check")) {
      err << "warpsim step: error: the checks run on the IR: drop --frontend sass\n";
      return kExitBadInput;
    }
    SassStepSession session(commands, out, terminal, ascii);
    return step_on_sass(loaded.module, *spec, sm_arch(gpu->cc_major, gpu->cc_minor),
                        cl->vars["max-warp-insts"].as<std::uint64_t>(), session, *block, warp, file,
                        out, err);
  }
  StepSession session(commands, out, terminal, ascii);
  session.show_sources(loaded.module);
  exec::ExecOptions options;
  std::optional<check::HazardChecker> checker;
  if (cl->vars.count("check")) {
    const auto checks = check_request(*cl, false, false, "ir", err);
    if (!checks) return kExitBadInput;
    options.check = &checker.emplace(*spec, checks->set);
    session.watch_hazards(*checker);
  }
  options.max_warp_instructions = cl->vars["max-warp-insts"].as<std::uint64_t>();
  options.trace = &session;
  options.trace_block = *block;
  options.trace_warp = warp;
  out << "kernel " << spec->kernel->name << ", block " << *block << ", warp " << warp
      << " (threads " << warp * 32 << "-"
      << std::min<std::uint64_t>(spec->threads_per_block(), warp * 32 + 32) - 1
      << "); lanes: " << session.legend() << '\n';
  try {
    exec::execute(loaded.module, *spec, options);
  } catch (const StepStopped&) {
    return kExitOk;
  } catch (const exec::KernelFault& f) {
    write_fault(err, file, loaded.module, f);
    return kExitKernelFault;
  }
  return kExitOk;
}

}  // namespace warpsim::cli
