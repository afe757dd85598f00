#include "tools/warpsim/cli.hpp"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <iostream>
#include <ostream>

#include "tools/warpsim/commands.hpp"
#include "tools/warpsim/options.hpp"

namespace warpsim::cli {
namespace {

constexpr const char* kUsage =
    "warpsim - a cycle-approximate SIMT GPU simulator\n"
    "\n"
    "usage: warpsim <command> [options]\n"
    "\n"
    "commands:\n"
    "  ir check FILE...       parse and verify kernels; report every error found\n"
    "  ir print FILE          print a module in canonical form\n"
    "  ir cfg FILE [--dot]    blocks, edges and reconvergence points of each kernel\n"
    "  import FILE.cu|.ptx    a CUDA kernel in the IR, each instruction under its CUDA line\n"
    "  run [FILE]             execute a kernel (default: the built-in vecAdd); report\n"
    "                         instructions, branches, divergence\n"
    "  check FILE             races, barrier misuse, uninitialised reads and invalid accesses,\n"
    "                         each at its lines and threads (exit 1 when any is found)\n"
    "  step FILE --block-index B --warp W\n"
    "                         one warp's execution, instruction by instruction\n"
    "  banks --array T[..] --index '[..]'\n"
    "                         bank map of one warp's shared-memory access\n"
    "  occupancy --config F --block N --regs R --smem BYTES [--sweep]\n"
    "                         theoretical occupancy and what limits it\n"
    "  config show [NAME|FILE] the effective GPU config; config list: the built-in ones\n"
    "  ptx FILE               the kernels lowered to PTX (one PTX memory instruction per IR one)\n"
    "  sass FILE              the kernels as ptxas compiles them, with their scheduling controls\n"
    "  validate FILE...|--all the simulator and a real GPU side by side (needs a GPU)\n"
    "  counters               every counter reported: unit, what counts it, validate's rule\n"
    "  bench                  functional simulation speed on fixed workloads\n"
    "  sweep SPEC             kernels x configs x config keys, here or on Slurm: one CSV, plots\n"
    "\n"
    "Each command takes --help. Exit codes: 0 ok, 1 validate disagrees or check found hazards,\n"
    "2 bad input, 3 kernel\n"
    "fault, 4 out of memory, 70 internal error.\n";

}  // namespace

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  static const auto logger = [] {
    auto l = spdlog::stderr_logger_st("warpsim");
    l->set_pattern("warpsim: %l: %v");
    spdlog::set_default_logger(l);
    return l;
  }();
  (void)logger;
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    (args.empty() ? err : out) << kUsage;
    return args.empty() ? kExitBadInput : kExitOk;
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (args[0] == "ir") return run_ir(rest, out, err);
  if (args[0] == "run") return run_kernel(rest, out, err);
  if (args[0] == "check") return run_check(rest, out, err);
  if (args[0] == "bench") return run_bench(rest, out, err);
  if (args[0] == "sweep") return run_sweep(rest, out, err);
  if (args[0] == "banks") return run_banks(rest, out, err);
  if (args[0] == "counters") return run_counters(rest, out, err);
  if (args[0] == "occupancy") return run_occupancy(rest, out, err);
  if (args[0] == "config") return run_config(rest, out, err);
  if (args[0] == "ptx") return run_ptx(rest, out, err);
  if (args[0] == "sass") return run_sass(rest, out, err);
  if (args[0] == "import") return run_import(rest, out, err);
  if (args[0] == "validate") return run_validate(rest, out, err);
  if (args[0] == "step") return run_step(rest, std::cin, out, err);
  err << "warpsim: error: unknown command '" << args[0] << "'\n\n" << kUsage;
  return kExitBadInput;
}

}  // namespace warpsim::cli
