// The timing examples of seed 003 (the SIMT cheat sheet, section 10) hold in the model.
#include <doctest/doctest.h>

#include "tests/unit/timing_support.hpp"

namespace warpsim::test {
namespace {

std::uint64_t body_cycles(const std::string& launch) {
  cli::LaunchOverrides o;
  o.launch_name = launch;
  const auto k = load_kernel("../tests/timing/divergence_cycles.kir", o);
  return run_timed(k, h200()).timing.kernel_cycles;
}

TEST_CASE("seed 003 example 2: a warp split 16/16 over a 20- and a 12-cycle path takes both") {
  // The three launches differ only in the branch region, so differences of their cycles are
  // differences of that region. Uniform warps run one side: 20 cycles (five dependent fma at
  // the H200's 4-cycle FP32 latency) or 12 (three). The split warp runs 20 + 12 = 32: it takes
  // 12 cycles longer than the all-long warp and 20 longer than the all-short one.
  const std::uint64_t split = body_cycles("split_16_16");
  const std::uint64_t all_long = body_cycles("all_long");
  const std::uint64_t all_short = body_cycles("all_short");
  CHECK(all_long - all_short == 20 - 12);
  CHECK(split - all_long == 12);
  CHECK(split - all_short == 20);
}

// Issue rate of the latency-hiding kernel with `warps` warps on one scheduler.
double issue_rate(std::uint64_t warps, double* cycles_per_iteration = nullptr) {
  cli::LaunchOverrides o;
  o.block = std::to_string(warps * 32);
  const auto k = load_kernel("../tests/timing/latency_hiding.kir", o);
  const auto gpu = h200({"memory.l1_hit_latency=400", "sm.sub_partitions=1"});
  const auto r = run_timed(k, gpu);
  if (cycles_per_iteration != nullptr)
    *cycles_per_iteration = static_cast<double>(r.timing.kernel_cycles) / 64.0;
  return r.timing.ipc;
}

TEST_CASE("seed 003 example 4: about 400 / 20 = 20 warps hide a 400-cycle latency") {
  // A warp issues 21 instructions per iteration and waits 400 cycles for its load, so one
  // scheduler is busy a fraction min(1, N x 21 / (400 + 21)) of the time with N warps: about
  // 0.05 per warp until some 20 warps, then (nearly) 1. The sweep shows the knee there.
  std::vector<double> rate;
  for (std::uint64_t n = 1; n <= 32; ++n) rate.push_back(issue_rate(n));
  for (std::uint64_t n = 1; n <= 12; ++n) {
    CAPTURE(n);
    CHECK(rate[n - 1] == doctest::Approx(21.0 * static_cast<double>(n) / 421.0).epsilon(0.1));
  }
  CHECK(rate[19] > 0.85);  // 20 warps: the latency is (nearly) hidden
  CHECK(rate[31] > 0.95);
  CHECK(rate[31] - rate[23] < 0.05);  // beyond the knee more warps add little
  CHECK(rate[15] - rate[7] > 0.3);    // before it each warp adds about 0.05
  // Hiding does not shorten the load: even with 32 warps an iteration lasts over 400 cycles.
  double per_iteration = 0;
  issue_rate(32, &per_iteration);
  CHECK(per_iteration > 400);
}

}  // namespace
}  // namespace warpsim::test
