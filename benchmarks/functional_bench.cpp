// Google Benchmark: functional simulation of the `warpsim bench` workloads, reporting simulated
// warp instructions per second as the counter "warp_insts/s".
#include <benchmark/benchmark.h>

#include "sim/core/exec/executor.hpp"
#include "tools/warpsim/bench_workloads.hpp"

namespace {

void simulate(benchmark::State& state, std::size_t which) {
  const auto workloads = warpsim::cli::bench_workloads("sm_90");  // the default config, the H200
  const auto& w = workloads.at(which);
  std::uint64_t warp_insts = 0;
  for (auto _ : state) {
    const auto result = warpsim::exec::execute(w.loaded->module, w.spec, {});
    // Only the simulation counts, not filling the buffers.
    state.SetIterationTime(result.timing.simulate_seconds);
    warp_insts += result.stats.warp_instructions;
  }
  state.counters["warp_insts/s"] =
      benchmark::Counter(static_cast<double>(warp_insts), benchmark::Counter::kIsRate);
  state.SetLabel(w.name);
}

BENCHMARK_CAPTURE(simulate, smem_transpose_2048, 0)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(simulate, vecAdd_2pow24, 1)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
