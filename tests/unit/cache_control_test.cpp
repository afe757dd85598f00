// The L2 a launch starts from (--cache-control): as the host's copies leave it (the buffers in
// the L2) or flushed (the buffers, the code and the constant lines in DRAM).
#include <doctest/doctest.h>

#include "tests/unit/timing_support.hpp"

namespace warpsim::test {
namespace {

scheduler::TimingResult run(const KernelRun& k, bool flush_l2,
                            const std::vector<std::string>& sets = {}) {
  const auto gpu = h200(sets);
  const cli::LaunchOccupancy o = cli::launch_occupancy(gpu, k.spec);
  scheduler::TimingOptions options;
  options.flush_l2 = flush_l2;
  return scheduler::simulate_timing(k.loaded.module, k.spec, gpu, o.occupancy, options);
}

scheduler::TimingStats timed(const KernelRun& k, bool flush_l2,
                             const std::vector<std::string>& sets = {}) {
  return run(k, flush_l2, sets).timing;
}

TEST_CASE("from a flushed L2 every byte vecAdd reads comes from DRAM once; else none does") {
  // vecAdd reads a[i] and b[i] once each for i < 1,000,000 (4-byte floats): 8,000,000 bytes in
  // whole 32-byte sectors, far less than the H200's L2 holds, so a flushed L2 reads each sector
  // from DRAM exactly once. As the host's copies leave it, both inputs are in the L2 already.
  const auto k = load_kernel("vecAdd.kir");
  const auto flushed = timed(k, true);
  CHECK(flushed.l2_flushed);
  CHECK(flushed.dram_read_bytes == 2 * 1'000'000 * 4);
  const auto copied = timed(k, false);
  CHECK_FALSE(copied.l2_flushed);
  CHECK(copied.dram_read_bytes == 0);
  // Only the timing changes, never a result or a deterministic counter.
  const auto a = run(k, true), b = run(k, false);
  check_same_counters(a.functional.stats, b.functional.stats);
  CHECK(a.functional.memory.buffers[2].bytes == b.functional.memory.buffers[2].bytes);
}

TEST_CASE("from a flushed L2 an SM's first instructions wait timing.cold_code_cycles") {
  // warp_divergence is one warp on one SM that reads nothing from memory: raising the cold
  // code fetch by 1,000 cycles delays it, and so the launch, by 1,000 (within one
  // synchronisation interval, where the final store's completion is settled); as the host's
  // copies leave the L2 (the code with them) it changes nothing.
  const auto k = load_kernel("warp_divergence.kir");
  const auto l2_latency = h200().timing.l2_latency;
  const auto base = timed(k, true, {"timing.cold_code_cycles=0"}).elapsed_cycles;
  const auto slow = timed(k, true, {"timing.cold_code_cycles=1000"}).elapsed_cycles;
  CHECK(slow - base >= 1'000 - l2_latency);
  CHECK(slow - base <= 1'000 + l2_latency);
  CHECK(timed(k, false, {"timing.cold_code_cycles=0"}).elapsed_cycles ==
        timed(k, false, {"timing.cold_code_cycles=1000"}).elapsed_cycles);
}

TEST_CASE("an SM's first constant miss costs its own latency, and more from a flushed L2") {
  // compute's one warp loads coeffs[0] and coeffs[1], one line: one miss, the SM's first.
  // Raising the first-miss latency by 1,000 delays the launch by 1,000; the cost of further
  // misses does not apply. From a flushed L2 the first miss adds cold_const_first_cycles.
  const auto k = load_kernel("compute.kir");
  const auto l2_latency = h200().timing.l2_latency;
  const auto cycles = [&](bool flush, const std::vector<std::string>& sets) {
    return static_cast<std::int64_t>(timed(k, flush, sets).elapsed_cycles);
  };
  const auto base = cycles(false, {"timing.const_first_miss_latency=0"});
  CHECK(cycles(false, {"timing.const_first_miss_latency=1000"}) - base ==
        doctest::Approx(1'000).epsilon(static_cast<double>(l2_latency) / 1'000));
  CHECK(cycles(false, {"timing.const_first_miss_latency=0", "timing.const_miss_latency=5000"}) ==
        base);
  const auto cold = cycles(true, {"timing.cold_code_cycles=0", "timing.cold_const_first_cycles=0"});
  CHECK(cycles(true, {"timing.cold_code_cycles=0", "timing.cold_const_first_cycles=1000"}) - cold ==
        doctest::Approx(1'000).epsilon(static_cast<double>(l2_latency) / 1'000));
}

TEST_CASE("a constant load whose lanes read different words is served one word at a time") {
  // One warp: a constant load of table[tid.x % n], n distinct addresses, then a store of the
  // value. Each address after the first costs timing.const_serial_cycles: with it at 1,000
  // cycles, 32 addresses take 31,000 cycles more than one, 4 addresses 3,000 more.
  const auto cycles = [](unsigned distinct, std::uint64_t serial) {
    const auto k = load_kernel_text("serial.kir", R"(
const table: u32[32] = {0}
kernel k(n: u32, out: ptr global u32) {
entry:
  %i = rem.u32 %tid.x, n
  %v = ld.const.u32 table[%i]
  st.global.u32 out[%tid.x], %v
  ret
}
launch k grid(1) block(32) {
  n = )" + std::to_string(distinct) +
                                                      R"(
  out = u32[32] zero
}
)");
    return static_cast<double>(
        timed(k, false, {"timing.const_serial_cycles=" + std::to_string(serial)}).elapsed_cycles);
  };
  const double slack = static_cast<double>(h200().timing.l2_latency);
  CHECK(std::abs(cycles(32, 1000) - cycles(1, 1000) - 31'000) <= slack);
  CHECK(std::abs(cycles(4, 1000) - cycles(1, 1000) - 3'000) <= slack);
  CHECK(cycles(32, 0) == cycles(1, 0));
}

}  // namespace
}  // namespace warpsim::test
