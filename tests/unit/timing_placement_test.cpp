// Where the timing model puts work: which sub-partition a block's warps run on, and how long
// an atomic of few lanes holds its L2 slice.
#include <doctest/doctest.h>

#include "tests/unit/timing_support.hpp"

namespace warpsim::test {
namespace {

// Only warp 0 of each block works: 64 times 32 add.f64 in 8 independent chains, so it issues an
// add every fp64_interval (2) cycles, its pipe's pace (4,096 cycles in all), rather than waiting
// on a chain's latency (8) or on issuing (35 instructions in the 64 cycles an iteration's adds
// hold the pipe); only while its loop's branch resolves is the pipe idle.
std::string only_warp0_works(int blocks, int block_threads) {
  std::string adds;
  for (int round = 0; round < 4; ++round) {
    for (char chain = 'a'; chain <= 'h'; ++chain)
      adds.append("  %").append(1, chain).append(" = add.f64 %").append(1, chain).append(", 1.0\n");
  }
  return R"(
kernel only_warp0(out: ptr global f64) {
entry:
  %warp = shr.u32 %tid.x, 5
  %worker = eq.u32 %warp, 0
  br %worker, init, done
init:
  %a = mov.f64 0.0
  %b = mov.f64 0.0
  %c = mov.f64 0.0
  %d = mov.f64 0.0
  %e = mov.f64 0.0
  %f = mov.f64 0.0
  %g = mov.f64 0.0
  %h = mov.f64 0.0
  %i = mov.u32 0
  jmp body
body:
)" + adds +
         R"(  %i = add.u32 %i, 1
  %more = lt.u32 %i, 64
  br %more, body, store
store:
  %ab = add.f64 %a, %b
  st.global.f64 out[%ctaid.x], %ab
  jmp done
done:
  ret
}

launch only_warp0 grid()" +
         std::to_string(blocks) + ") block(" + std::to_string(block_threads) + R"() {
  out = f64[528] zero
}
)";
}

TEST_CASE("blocks of four warps put their first warps on different sub-partitions") {
  // A block's warps take consecutive warp slots, slot i on sub-partition i mod 4; blocks of 4
  // warps are rotated by one sub-partition per block on the SM, as the H200 does
  // (validation/h200/timing/probes/warp_slots.cu). 132 blocks put one on each SM, 528 four.
  auto cycles = [](int blocks, int threads) {
    const auto text = only_warp0_works(blocks, threads);
    return static_cast<std::int64_t>(
        run_timed(load_kernel_text("only_warp0", text), h200()).timing.elapsed_cycles);
  };
  const auto first_wave = static_cast<std::int64_t>(h200().timing.first_wave_block_cycles);
  // Four blocks of 4 warps: the working warps get a sub-partition each, so the SM takes as long
  // as with one block, but for the fourth block starting 3 x first_wave_block_cycles later.
  const auto rotated = cycles(528, 128) - cycles(132, 128);
  CHECK(rotated >= 0);
  CHECK(rotated <= 3 * first_wave);
  // Four blocks of 2 warps keep their slots' sub-partitions (0, 2, 0, 2): two working warps
  // share a pipe, whose 2 x 4,096 cycles of adds then run back to back. One warp alone takes
  // 4,096 and the cycles its branches leave the pipe idle, at most branch_latency + 3 (its
  // loop's other instructions) in each of 64 iterations.
  const auto shared = cycles(528, 64) - cycles(132, 64);
  const auto branch = static_cast<std::int64_t>(h200().timing.branch_latency);
  CHECK(shared >= 4096 - 64 * (branch + 3));
  CHECK(shared <= 4096 + 2 * first_wave);
}

TEST_CASE("an atomic of one lane holds its L2 slice as long as l2_atomic_min_lanes lanes") {
  // atom_one_lane: 33,792 one-lane atomics on one word, one after another in its slice, each
  // 5 x 22 / 32 = 3.44 cycles (l2_atomic_cycles_per_request x l2_atomic_min_lanes / 32).
  // Counted as 32 lanes they take 5 each: the launch is 33,792 x (5 - 3.4375) = 52,800 cycles
  // longer (within 1 %: the first and last requests' way to the slice is the same).
  cli::LaunchOverrides o;
  o.launch_name = "atom_one_lane";
  const auto k = load_kernel("calibration/atomics.kir", o);
  const auto base = run_timed(k, h200());
  const auto whole = run_timed(k, h200({"memory.l2_atomic_min_lanes=32"}));
  CHECK(static_cast<double>(whole.timing.elapsed_cycles - base.timing.elapsed_cycles) ==
        doctest::Approx(52800).epsilon(0.01));
}

TEST_CASE("an integer atomic of one lane waits for its word's previous update less than a float") {
  // atom_one_lane with u32 adds: 33,792 one-lane integer atomics on one word take 5 x 7 / 32 =
  // 1.09375 cycles each (l2_atomic_integer_min_lanes), where f32 adds take 5 x 22 / 32 = 3.4375
  // (the test above). Given the float's 22 lanes, the launch is 33,792 x (3.4375 - 1.09375) =
  // 79,200 cycles longer (within 1 %); l2_atomic_min_lanes does not change it.
  const auto k = load_kernel_text(
      "one_word_u32.kir", R"(kernel atom_one_lane_u32(total: ptr global u32, iterations: u32) {
entry:
  %first = eq.u32 %laneid, 0
  %i = mov.u32 0
  br %first, loop, done
loop:
  atom.global.add.u32 total[0], 1
  %i = add.u32 %i, 1
  %more = lt.u32 %i, iterations
  br %more, loop, done
done:
  ret
}

launch atom_one_lane_u32 grid(264) block(1024) {
  total = u32[1] zero
  iterations = 4
}
)");
  const auto base = run_timed(k, h200());
  const auto as_float = run_timed(k, h200({"memory.l2_atomic_integer_min_lanes=22"}));
  CHECK(static_cast<double>(as_float.timing.elapsed_cycles - base.timing.elapsed_cycles) ==
        doctest::Approx(79200).epsilon(0.01));
  const auto float_lanes = run_timed(k, h200({"memory.l2_atomic_min_lanes=32"}));
  CHECK(float_lanes.timing.elapsed_cycles == base.timing.elapsed_cycles);
}

}  // namespace
}  // namespace warpsim::test
