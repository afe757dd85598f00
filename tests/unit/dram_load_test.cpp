// DRAM as the H200 shows it: reads move pairs of sectors, and a miss waits longer the more
// requests the DRAM has had lately; and reductions, which nobody waits for.
#include <doctest/doctest.h>

#include "sim/memory/memory_system.hpp"
#include "tests/unit/timing_support.hpp"

namespace warpsim::test {
namespace {

// One slice and one channel (so one memory side), DRAM at 64 B a cycle: a 64-byte access takes
// the channel for one cycle.
config::GpuConfig one_channel(const std::vector<std::string>& more = {}) {
  std::vector<std::string> sets = {"memory.l2_slices=1", "memory.dram_channels=1",
                                   "memory.dram_bytes_per_cycle=64"};
  sets.insert(sets.end(), more.begin(), more.end());
  return h200(sets);
}

std::uint64_t resolve_one(memory::MemorySystem& m, memory::L2Request r) {
  std::vector<memory::L2Request*> batch = {&r};
  m.resolve(batch, 0, [](const memory::L2Request&) {});
  return r.done;
}

TEST_CASE("a DRAM read moves an aligned pair of sectors, and the L2 keeps both") {
  memory::MemorySystem pairs(one_channel());
  // Sector 0 of a new line: sectors 0 and 1 come from DRAM, 64 bytes.
  resolve_one(pairs, {0, 0, 0, 100, 0x1});
  CHECK(pairs.counters().dram_read_bytes == 64);
  // Sector 1 then hits; sector 2 is the other pair: 64 bytes more.
  resolve_one(pairs, {10000, 0, 1, 100, 0x2});
  CHECK(pairs.counters().l2_sector_hits == 1);
  CHECK(pairs.counters().dram_read_bytes == 64);
  resolve_one(pairs, {20000, 0, 2, 100, 0x4});
  CHECK(pairs.counters().dram_read_bytes == 128);
  // Sectors 1 and 2 of a new line straddle both pairs: all four sectors, 128 bytes.
  resolve_one(pairs, {30000, 0, 3, 200, 0x6});
  CHECK(pairs.counters().dram_read_bytes == 256);
  // One sector at a time, as a GPU of 32-byte DRAM accesses would.
  memory::MemorySystem single(one_channel({"memory.dram_access_sectors=1"}));
  resolve_one(single, {0, 0, 0, 100, 0x1});
  CHECK(single.counters().dram_read_bytes == 32);
}

TEST_CASE("a DRAM miss waits longer the more requests the DRAM has had lately") {
  // dram_loaded_latency 1000 at full load; the load is the requests of about the last 1000
  // cycles, each counted as a 64-byte access, against 64 B a cycle: k requests at once are a
  // load of k / 1000, so the k-th waits k cycles more than with no load term.
  const std::vector<std::string> loaded = {"memory.dram_loaded_latency=1000",
                                           "memory.dram_load_window=1000"};
  memory::MemorySystem with_load(one_channel(loaded));
  memory::MemorySystem without(one_channel({"memory.dram_loaded_latency=0"}));
  auto extra = [&](memory::L2Request r) {
    return static_cast<std::int64_t>(resolve_one(with_load, r)) -
           static_cast<std::int64_t>(resolve_one(without, r));
  };
  for (std::uint32_t k = 1; k <= 10; ++k) {
    CAPTURE(k);
    CHECK(extra({0, 0, k, 1000 + k, 0x1}) == k);
  }
  // Long after, the ten have faded (weight e^-100): a new request sees only itself.
  CHECK(extra({100000, 0, 11, 2000, 0x1}) == 1);
  // Past the bandwidth the load counts as full: 2,000 requests at once, the last 1000 more.
  std::int64_t last = 0;
  for (std::uint32_t k = 0; k < 2000; ++k) last = extra({200000, 0, 12 + k, 3000 + k, 0x1});
  CHECK(last == 1000);
  // A hit never waits for DRAM, loaded or not.
  CHECK(extra({300000, 0, 5000, 3000, 0x1}) == 0);
}

// One warp's lanes add 1 to 32 words of one line and exit; `keep` makes the kernel read the old
// values (an atom), otherwise nobody does (a reduction, PTX red).
std::string one_warp_adds(bool keep) {
  return std::string(R"(
kernel adds(words: ptr global s32, old: ptr global s32) {
entry:
)") +
         (keep ? "  %was = atom.global.add.s32 words[%tid.x], 1\n"
                 "  st.global.s32 old[%tid.x], %was\n"
               : "  atom.global.add.s32 words[%tid.x], 1\n") +
         R"(  ret
}

launch adds grid(1) block(32) {
  words = s32[32] zero
  old = s32[32] zero
}
)";
}

TEST_CASE("a warp does not wait for its reductions, only for them to reach the L2") {
  const auto gpu = h200();
  auto drain = [&](bool keep) {
    const auto r = run_timed(load_kernel_text("adds", one_warp_adds(keep)), gpu);
    return r.timing.warp_state_cycles[static_cast<std::size_t>(scheduler::WarpState::Drain)];
  };
  const std::uint64_t half = gpu.timing.l2_latency / 2;
  // A reduction holds the exit until it is half the L2 latency past the L1, which it leaves
  // within the exit's own issue latency but for the tag stage's cycles beyond the first (a
  // request holds it lsu_min_cycles_per_request); the atomic's answer would take the other half
  // too.
  const std::uint64_t posted = drain(false);
  CHECK(posted >= half - gpu.timing.global_address_issue - 4);
  CHECK(posted <= half + gpu.timing.lsu_min_cycles_per_request - 1);
  // The kept value's store is posted too, but only once the atomic has answered: the warp
  // waits for the answer on a register (long scoreboard), then for the store to arrive.
  const auto kept = run_timed(load_kernel_text("adds", one_warp_adds(true)), gpu);
  const auto waited =
      kept.timing.warp_state_cycles[static_cast<std::size_t>(scheduler::WarpState::LongScoreboard)];
  CHECK(waited >= 2 * half);
}

}  // namespace
}  // namespace warpsim::test
