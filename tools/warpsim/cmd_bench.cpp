// `warpsim bench`: simulation speed on fixed workloads: the functional model on one thread, or
// the timing model on a chosen number of threads.
#include <fmt/format.h>

#include <algorithm>
#include <ostream>
#include <sstream>

#include "sim/check/hazard_checker.hpp"
#include "sim/core/exec/executor.hpp"
#include "sim/scheduler/timing_engine.hpp"
#include "tools/warpsim/bench_workloads.hpp"
#include "tools/warpsim/cli.hpp"
#include "tools/warpsim/commands.hpp"
#include "tools/warpsim/config_options.hpp"
#include "tools/warpsim/embedded_kernels.hpp"
#include "tools/warpsim/kernel_input.hpp"
#include "tools/warpsim/launch_options.hpp"
#include "tools/warpsim/occupancy_section.hpp"
#include "tools/warpsim/options.hpp"
#include "tools/warpsim/sass_frontend.hpp"

namespace warpsim::cli {
namespace {

BenchWorkload workload(const std::string& name, const std::string& kernel,
                       const LaunchOverrides& overrides, const std::string& arch) {
  BenchWorkload w;
  w.name = name;
  w.loaded = std::make_unique<ir::LoadedModule>(
      load_embedded_text(kernel + ".kir", std::string(*embedded_kernel(kernel)), arch));
  std::ostringstream err;
  auto spec = resolve_launch(*w.loaded, overrides, err);
  if (!spec) throw std::logic_error("embedded benchmark kernel does not resolve: " + err.str());
  w.spec = *spec;
  return w;
}

}  // namespace

std::vector<BenchWorkload> bench_workloads(const std::string& arch) {
  std::vector<BenchWorkload> all;
  all.push_back(workload("smem_transpose 2048x2048", "smem_transpose", {}, arch));
  LaunchOverrides big;
  big.grid = "65536";  // 2^24 / 256 threads per block
  big.args = {"vectorLength=16777216", "A=f32[16777216] random(seed = 1)",
              "B=f32[16777216] random(seed = 2)", "C=f32[16777216] zero"};
  all.push_back(workload("vecAdd 2^24", "vecAdd", big, arch));
  return all;
}

int run_bench(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  namespace po = boost::program_options;
  po::options_description desc("options");
  desc.add_options()("repeat", count_value(1, 1000)->default_value(3),
                     "runs per workload; the fastest counts")(
      "mode", po::value<std::string>()->default_value("functional"), "functional or timing")(
      "threads", count_value(0, 1024)->default_value(1),
      "timing: simulation threads (0: one per core)")(
      "frontend", po::value<std::string>()->default_value("auto"), kFrontendHelp)(
      "check", "functional: with every hazard check on (warpsim check's cost)")(
      "config", po::value<std::string>()->default_value(kDefaultConfig),
      "timing: the GPU, a built-in config name or an INI file")(
      "workload", po::value<std::string>()->default_value(""),
      "only the workloads whose name contains this text (e.g. vecAdd)");
  auto cl = parse_command_line("bench", desc, {}, args, out, err);
  if (!cl) return kExitBadInput;
  if (cl->help) return kExitOk;
  const std::uint64_t repeat = cl->vars["repeat"].as<std::uint64_t>();
  const std::string mode = cl->vars["mode"].as<std::string>();
  if (mode != "functional" && mode != "timing") {
    err << "warpsim bench: error: --mode must be functional or timing\n";
    return kExitBadInput;
  }
  const auto threads = static_cast<unsigned>(cl->vars["threads"].as<std::uint64_t>());
  const bool timing = mode == "timing";
  const bool checked = cl->vars.count("check") != 0;
  const auto gpu = load_gpu_config(cl->vars["config"].as<std::string>(), {}, err);
  if (!gpu || (timing && !timing_config_ok(*gpu, "bench", err))) return kExitBadInput;
  if (!resolve_frontend(cl->vars, "bench", err, sm_arch(gpu->cc_major, gpu->cc_minor),
                        checked ? "--check runs on the IR" : nullptr)) {
    return kExitBadInput;
  }
  const bool sass = cl->vars["frontend"].as<std::string>() == "sass";
  if (checked && (timing || sass)) {
    err << "warpsim bench: error: --check runs the functional model on the IR\n";
    return kExitBadInput;
  }
  const std::string only = cl->vars["workload"].as<std::string>();
  std::vector<BenchWorkload> workloads = bench_workloads(sm_arch(gpu->cc_major, gpu->cc_minor));
  std::erase_if(workloads,
                [&](const BenchWorkload& w) { return w.name.find(only) == std::string::npos; });
  if (workloads.empty()) {
    err << "warpsim bench: error: no workload's name contains '" << only << "'\n";
    return kExitBadInput;
  }
  out << fmt::format("{:<26} {:>14} {:>16} {:>10} {:>14} {:>16}\n", "workload", "warp insts",
                     "thread insts", "best s", "M warp-inst/s", "M thread-inst/s");
  for (const BenchWorkload& w : workloads) {
    double best = 1e300;
    exec::LaunchStats stats;
    for (std::uint64_t r = 0; r < repeat; ++r) {
      exec::LaunchResult result;
      std::string error;
      if (timing) {
        scheduler::TimingOptions options;
        options.threads = simulation_threads(threads);
        const LaunchOccupancy o = launch_occupancy(*gpu, w.spec);
        std::optional<scheduler::TimingResult> timed;
        if (sass)
          timed = time_on_sass(w.loaded->module, w.spec, *gpu, o.occupancy, options, error);
        else
          timed = scheduler::simulate_timing(w.loaded->module, w.spec, *gpu, o.occupancy, options);
        if (timed) result = std::move(timed->functional);
      } else if (sass) {
        auto run =
            run_on_sass(w.loaded->module, w.spec, sm_arch(gpu->cc_major, gpu->cc_minor), {}, error);
        if (run) result = std::move(*run);
      } else {
        exec::ExecOptions options;
        check::CheckSet all;
        all.on.fill(true);
        std::optional<check::HazardChecker> checker;
        if (checked) options.check = &checker.emplace(w.spec, all);
        result = exec::execute(w.loaded->module, w.spec, options);
      }
      if (!error.empty()) {
        err << "warpsim bench: error: " << w.name << ": " << error << '\n';
        return kExitBadInput;
      }
      best = std::min(best, result.timing.simulate_seconds);
      stats = std::move(result.stats);
    }
    const double seconds = std::max(best, 1e-9);
    out << fmt::format("{:<26} {:>14} {:>16} {:>10.3f} {:>14.2f} {:>16.2f}\n", w.name,
                       stats.warp_instructions, stats.thread_instructions, best,
                       static_cast<double>(stats.warp_instructions) / seconds / 1e6,
                       static_cast<double>(stats.thread_instructions) / seconds / 1e6);
  }
  if (timing) {
    out << fmt::format(
        "timing model on {}, {} simulation thread{}, {}; simulation only (buffers are "
        "filled and the SASS built before the clock starts)\n",
        gpu->name, simulation_threads(threads), simulation_threads(threads) == 1 ? "" : "s",
        sass ? "SASS frontend (SASS warp instructions)" : "IR frontend (IR warp instructions)");
  } else {
    out << fmt::format(
        "functional model, one thread, {}{}; simulation only (buffers are filled and the SASS "
        "built before the clock starts)\n",
        sass ? "on the SASS (SASS warp instructions)" : "on the IR (IR warp instructions)",
        checked ? ", every hazard check on" : "");
  }
  return kExitOk;
}

}  // namespace warpsim::cli
