// `warpsim bench`: functional simulation speed on fixed workloads, one thread.
#include <fmt/format.h>

#include <algorithm>
#include <ostream>
#include <sstream>

#include "sim/core/exec/executor.hpp"
#include "tools/warpsim/bench_workloads.hpp"
#include "tools/warpsim/cli.hpp"
#include "tools/warpsim/commands.hpp"
#include "tools/warpsim/embedded_kernels.hpp"
#include "tools/warpsim/launch_options.hpp"
#include "tools/warpsim/options.hpp"

namespace warpsim::cli {
namespace {

BenchWorkload workload(const std::string& name, const std::string& kernel,
                       const LaunchOverrides& overrides) {
  BenchWorkload w;
  w.name = name;
  w.loaded = std::make_unique<ir::LoadedModule>(
      ir::load_module_text(kernel + ".kir", std::string(*embedded_kernel(kernel))));
  std::ostringstream err;
  auto spec = resolve_launch(*w.loaded, overrides, err);
  if (!spec) throw std::logic_error("embedded benchmark kernel does not resolve: " + err.str());
  w.spec = *spec;
  return w;
}

}  // namespace

std::vector<BenchWorkload> bench_workloads() {
  std::vector<BenchWorkload> all;
  all.push_back(workload("smem_transpose 2048x2048", "smem_transpose", {}));
  LaunchOverrides big;
  big.grid = "65536";  // 2^24 / 256 threads per block
  big.args = {"vectorLength=16777216", "A=f32[16777216] random(seed = 1)",
              "B=f32[16777216] random(seed = 2)", "C=f32[16777216] zero"};
  all.push_back(workload("vecAdd 2^24", "vecAdd", big));
  return all;
}

int run_bench(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  namespace po = boost::program_options;
  po::options_description desc("options");
  desc.add_options()("repeat", po::value<unsigned>()->default_value(3),
                     "runs per workload; the fastest counts")(
      "mode", po::value<std::string>()->default_value("functional"), "functional");
  auto cl = parse_command_line("bench", desc, {}, args, out, err);
  if (!cl) return kExitBadInput;
  if (cl->help) return kExitOk;
  const unsigned repeat = std::max(1u, cl->vars["repeat"].as<unsigned>());
  if (cl->vars["mode"].as<std::string>() != "functional") {
    err << "warpsim bench: error: --mode must be functional\n";
    return kExitBadInput;
  }
  out << fmt::format("{:<26} {:>14} {:>16} {:>10} {:>14} {:>16}\n", "workload", "warp insts",
                     "thread insts", "best s", "M warp-inst/s", "M thread-inst/s");
  for (const BenchWorkload& w : bench_workloads()) {
    double best = 1e300;
    exec::LaunchStats stats;
    for (unsigned r = 0; r < repeat; ++r) {
      exec::LaunchResult result = exec::execute(w.loaded->module, w.spec, {});
      best = std::min(best, result.timing.simulate_seconds);
      stats = std::move(result.stats);
    }
    const double seconds = std::max(best, 1e-9);
    out << fmt::format("{:<26} {:>14} {:>16} {:>10.3f} {:>14.2f} {:>16.2f}\n", w.name,
                       stats.warp_instructions, stats.thread_instructions, best,
                       static_cast<double>(stats.warp_instructions) / seconds / 1e6,
                       static_cast<double>(stats.thread_instructions) / seconds / 1e6);
  }
  out << "one thread; simulation only (buffers are filled before the clock starts)\n";
  return kExitOk;
}

}  // namespace warpsim::cli
