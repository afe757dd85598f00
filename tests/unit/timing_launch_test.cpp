// How blocks start and warps end in the timing model: the first blocks of a launch start
// quickly and only so many at once, warps count as in flight for the end of their launch
// latency, and a warp that stored exits when store_exit says.
#include <doctest/doctest.h>

#include "tests/unit/timing_support.hpp"

namespace warpsim::test {
namespace {

scheduler::TimingResult timed(const std::string& file, const std::string& launch,
                              const std::vector<std::string>& sets) {
  cli::LaunchOverrides o;
  o.launch_name = launch;
  return run_timed(load_kernel(file, o), h200(sets));
}

// The active cycles of all SMs together.
double active_cycles(const scheduler::TimingResult& r, const config::GpuConfig& gpu) {
  return r.timing.sm_active_cycles_avg * static_cast<double>(gpu.sm_count);
}

TEST_CASE("warps count as in flight for the last launch_latency_in_flight cycles of their launch") {
  // empty_1: one block of one warp. Counting it in flight 100 cycles earlier adds exactly 100
  // active cycles to its SM, and nothing to the launch's cycles (only the count changes).
  const auto gpu = h200();
  const auto none =
      timed("calibration/launch_overhead.kir", "empty_1", {"timing.launch_latency_in_flight=0"});
  const auto some =
      timed("calibration/launch_overhead.kir", "empty_1", {"timing.launch_latency_in_flight=100"});
  CHECK(active_cycles(some, gpu) - active_cycles(none, gpu) == doctest::Approx(100));
  CHECK(some.timing.elapsed_cycles == none.timing.elapsed_cycles);
}

TEST_CASE("a warp that stored exits when its stores are acknowledged, arrive, or are taken") {
  // empty_1's one warp stores one line and exits. Acknowledged, it waits for the answer: the
  // slice's time to write the sector (a few cycles, nothing else is queued), half the L2
  // latency back to the SM and half the L1 hit latency to take it in, more than when it only
  // waits for the store to reach the L2 (arrived). Accepted, it waits only for its L1 to take
  // the store: the way to the L2 (half the L2 latency) is not waited for either.
  const auto gpu = h200();
  auto active = [&](const char* exit) {
    return active_cycles(timed("calibration/launch_overhead.kir", "empty_1",
                               {std::string("timing.store_exit=") + exit}),
                         gpu);
  };
  const double acknowledged = active("acknowledged"), arrived = active("arrived"),
               accepted = active("accepted");
  const auto answer =
      static_cast<double>(gpu.timing.l2_latency / 2 + gpu.timing.l1_hit_latency / 2);
  CHECK(acknowledged - arrived >= answer);
  CHECK(acknowledged - arrived <= answer + 4);
  CHECK(arrived - accepted >=
        static_cast<double>(gpu.timing.l2_latency / 2 - gpu.timing.global_address_issue));
}

TEST_CASE("an SM starts the first blocks of a launch first_wave_block_cycles apart") {
  // testKernel_32: 512 blocks of one warp on 132 SMs, so some SMs get four, all placed when the
  // launch starts. Such an SM starts its fourth block 3 x first_wave_block_cycles after its
  // first; every block does the same work, so raising the spacing by 100 ends the launch 300
  // cycles later.
  const auto base = timed("testKernel.kir", "testKernel_32", {});
  const auto slower = timed("testKernel.kir", "testKernel_32",
                            {"timing.first_wave_block_cycles=" +
                             std::to_string(h200().timing.first_wave_block_cycles + 100)});
  CHECK(slower.timing.elapsed_cycles - base.timing.elapsed_cycles == 300);
}

TEST_CASE("an SM starts at most blocks_starting blocks at once") {
  // With no spacing at all, an SM's four blocks of testKernel_32 start together; allowed one at
  // a time, each waits until the one before has finished its launch latency, so the fourth
  // starts 3 x block_launch_latency later. (Started together, the four warps' stores queue
  // behind each other a little: the difference is up to 32 cycles short of that.)
  const std::vector<std::string> together = {"timing.first_wave_block_cycles=0",
                                             "timing.first_wave_warp_cycles=0"};
  std::vector<std::string> one_at_a_time = together;
  one_at_a_time.push_back("timing.blocks_starting=1");
  const auto base = timed("testKernel.kir", "testKernel_32", together);
  const auto serial = timed("testKernel.kir", "testKernel_32", one_at_a_time);
  const auto expected = 3 * h200().timing.block_launch_latency;
  CHECK(serial.timing.elapsed_cycles - base.timing.elapsed_cycles <= expected);
  CHECK(serial.timing.elapsed_cycles - base.timing.elapsed_cycles >= expected - 32);
}

}  // namespace
}  // namespace warpsim::test
