// What L2 requests share beyond their slice: the link between the two partitions, and an
// atomic unit's wait for an update of the same word.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "sim/memory/memory_system.hpp"
#include "tests/unit/timing_support.hpp"

namespace warpsim::test {
namespace {

// The done cycles of `requests`, resolved in one batch.
void resolve_all(memory::MemorySystem& m, std::vector<memory::L2Request>& requests) {
  std::vector<memory::L2Request*> batch;
  batch.reserve(requests.size());
  for (auto& r : requests) batch.push_back(&r);
  m.resolve(batch, 0, [](const memory::L2Request&) {});
}

// The requests done at least `slow` cycles after the fastest are those whose data crossed the
// link (far lines). Checks that on each memory side they were done at least `apart` cycles
// after one another (one link a side carries them one at a time); returns how many there are.
std::size_t crossed_apart(const memory::MemorySystem& m,
                          const std::vector<memory::L2Request>& requests, std::uint64_t slow,
                          std::uint64_t apart) {
  std::uint64_t fastest = UINT64_MAX;
  for (const auto& r : requests) fastest = std::min(fastest, r.done);
  std::map<std::uint32_t, std::vector<std::uint64_t>> by_side;
  for (const auto& r : requests) {
    if (r.done >= fastest + slow) by_side[m.side_of(r.line)].push_back(r.done);
  }
  std::size_t crossed = 0;
  for (auto& [side, done] : by_side) {
    std::sort(done.begin(), done.end());
    for (std::size_t i = 1; i < done.size(); ++i) CHECK(done[i] - done[i - 1] >= apart);
    crossed += done.size();
  }
  return crossed;
}

TEST_CASE("lines fetched from the other partition share the link between them") {
  // l2_crossing_bytes_per_cycle 4 over 2 sides x 2 directions: 1 byte a cycle each link. An SM
  // of partition 1 reads one sector (32 bytes) of each of 64 lines the host copied in, all at
  // cycle 0. About half are homed in partition 0: their sectors cross one after another on
  // their side's link, 32 cycles apart; the lines homed near do not wait for them.
  const auto gpu = h200({"memory.l2_crossing_bytes_per_cycle=4"});
  memory::MemorySystem m(gpu, {0, 1});
  m.preload(0, std::uint64_t{64} * kLineBytes);
  std::vector<memory::L2Request> reads;
  reads.reserve(64);
  for (std::uint32_t line = 0; line < 64; ++line) reads.push_back({0, 0, line, line, 0x1});
  for (auto& r : reads) r.sm = 1;
  resolve_all(m, reads);
  const std::size_t far_lines = crossed_apart(m, reads, gpu.timing.l2_far_latency, 32);
  CHECK(far_lines >= 16);
  CHECK(far_lines <= 48);
}

TEST_CASE("a store from the other partition crosses the link to the line's home") {
  // The same link at 1 byte a cycle: an SM of partition 1 writes all four sectors (128 bytes, all
  // 32 words) of 64 new lines at cycle 0. Those homed in partition 0 reach their slice one after
  // another, 128 cycles apart on their side's link; those homed in partition 1 are written at once.
  const auto gpu = h200({"memory.l2_crossing_bytes_per_cycle=4"});
  memory::MemorySystem m(gpu, {0, 1});
  std::vector<memory::L2Request> writes;
  writes.reserve(64);
  for (std::uint32_t line = 0; line < 64; ++line) {
    writes.push_back({0, 1, line, 1000 + line, 0xf});
    writes.back().kind = memory::RequestKind::Write;
    writes.back().words = 0xffffffffu;
  }
  resolve_all(m, writes);
  const std::size_t far_lines = crossed_apart(m, writes, 100, 128);
  CHECK(far_lines >= 16);
  CHECK(far_lines <= 48);
}

// One L2 slice and one atomic unit, with no stage before it (l2_atomic_lanes_per_cycle 0).
config::GpuConfig one_atomic_unit() {
  return h200({"memory.l2_slices=1", "memory.dram_channels=1", "memory.l2_atomic_units=1",
               "memory.l2_atomic_lanes_per_cycle=0"});
}

// Ten atomics at cycle 0 on one atomic unit, the i-th on line i (sector 0) as `set_up(r, i)`
// changes it; when the last is done.
template <typename SetUp>
std::uint64_t last_of_ten_atomics(SetUp set_up) {
  memory::MemorySystem m(one_atomic_unit());
  m.preload(0, std::uint64_t{16} * kLineBytes);
  std::vector<memory::L2Request> atomics;
  atomics.reserve(10);
  for (std::uint32_t i = 0; i < 10; ++i) {
    memory::L2Request r{0, 0, i, i, 0x1};
    r.kind = memory::RequestKind::Atomic;
    set_up(r, i);
    atomics.push_back(r);
  }
  resolve_all(m, atomics);
  return atomics.back().done;
}

// A 32-lane atomic on every word of each of `lines`, all at cycle 0; their done cycles.
std::vector<std::uint64_t> full_line_atomics(const config::GpuConfig& gpu,
                                             const std::vector<std::uint32_t>& lines) {
  memory::MemorySystem m(gpu);
  m.preload(0, std::uint64_t{8192} * kLineBytes);
  std::vector<memory::L2Request> atomics;
  atomics.reserve(lines.size());
  for (std::uint32_t i = 0; i < lines.size(); ++i) {
    memory::L2Request r{0, 0, i, lines[i], 0xf};
    r.kind = memory::RequestKind::Atomic;
    r.lanes = 32;
    r.words = 0xffffffffu;
    atomics.push_back(r);
  }
  resolve_all(m, atomics);
  std::vector<std::uint64_t> done;
  done.reserve(atomics.size());
  for (const auto& r : atomics) done.push_back(r.done);
  return done;
}

TEST_CASE("lines that differ only in bits 0 and 2 of their index share an atomic unit") {
  // l2_atomic_unit_shared_line_bits 5, as an H100's pairs of lines show. A 32-lane atomic takes
  // its unit l2_atomic_cycles_per_request (5) cycles: two on one unit, both at cycle 0, are done
  // at half + 5 + half and half + 10 + half; on two units both at half + 5 + half.
  const auto gpu = h200({"memory.l2_atomic_lanes_per_cycle=0"});
  const std::uint64_t half = gpu.timing.l2_latency / 2;
  for (const std::uint32_t other : {1u, 4u, 5u, 1025u, 1028u}) {
    CAPTURE(other);
    const std::uint32_t first = other >= 1024 ? 1024 : 0;
    CHECK(full_line_atomics(gpu, {first, other})[1] == half + 10 + half);
  }
  for (const std::uint32_t other : {2u, 3u, 6u, 7u, 8u, 9u}) {
    CAPTURE(other);
    CHECK(full_line_atomics(gpu, {0, other})[1] == half + 5 + half);
  }
}

TEST_CASE("256 consecutive lines reach 64 atomic units, each with 4 lines") {
  // 256 lines from 0 are 64 groups of 4 that share a unit (bits 0 and 2): if the 64 groups have
  // 64 of the 96 units, each unit applies 4 of the 32-lane atomics, the last done at half + 20 +
  // half; two groups on one unit would make it half + 40 + half. The same from line 4,096 on.
  const auto gpu = h200({"memory.l2_atomic_lanes_per_cycle=0"});
  const std::uint64_t half = gpu.timing.l2_latency / 2;
  for (const std::uint32_t start : {0u, 4096u}) {
    std::vector<std::uint32_t> lines(256);
    for (std::uint32_t i = 0; i < 256; ++i) lines[i] = start + i;
    const auto done = full_line_atomics(gpu, lines);
    CHECK(*std::max_element(done.begin(), done.end()) == half + 20 + half);
  }
}

TEST_CASE("every atomic passes one stage of l2_atomic_lanes_per_cycle before its unit") {
  // 32 lanes a cycle: a 32-lane atomic holds the stage 1 cycle. Ten of them on lines of ten
  // units (0, 2, 8, 10, ...: other groups), all at cycle 0, leave it at half + 1, ..., half + 10,
  // and each takes its own unit 5 cycles: the last done at half + 15 + half. A one-lane atomic
  // counts as l2_atomic_request_min_lanes (6) there.
  const auto gpu = h200({"memory.l2_atomic_lanes_per_cycle=32"});
  const std::uint64_t half = gpu.timing.l2_latency / 2;
  std::vector<std::uint32_t> lines;
  for (std::uint32_t i = 0; i < 10; ++i) lines.push_back(i / 2 * 8 + i % 2 * 2);
  CHECK(full_line_atomics(gpu, lines).back() == half + 15 + half);
}

TEST_CASE("a 64-bit atomic lane takes two 32-bit lanes' time at its unit") {
  // One unit. Ten atomics of 16 lanes, each on its own line (none waits for another's update):
  // with 32-bit lanes each takes l2_atomic_group_min_lanes (16) lanes' time, 5 x 16 / 32 = 2.5
  // cycles, the last done at half + 25 + half; with 64-bit lanes 32 lanes' time, 5 cycles, the
  // last at half + 50 + half.
  const auto gpu = one_atomic_unit();
  const std::uint64_t half = gpu.timing.l2_latency / 2;
  auto last_done = [](std::uint8_t lane_words) {
    return last_of_ten_atomics([&](memory::L2Request& r, std::uint32_t) {
      r.lanes = 16;
      r.lane_words = lane_words;
      r.words = lane_words == 1 ? 0xFFFFu : 0xFFFFFFFFu;
    });
  };
  CHECK(last_done(1) == half + 25 + half);
  CHECK(last_done(2) == half + 50 + half);
}

TEST_CASE("a one-lane atomic waits for the update of its word, not of another word") {
  // One unit. Ten one-lane float adds on line 5 at cycle 0: on one word each waits for the one
  // before, taking l2_atomic_min_lanes (22) lanes' time, 5 x 22 / 32 = 3.4375 cycles, but for
  // the first (nothing before it): 5 x 10 / 32 = 1.5625 + 9 x 3.4375 = 32.5, so the last is done
  // at half + 33 + half. An integer update waits l2_atomic_integer_min_lanes (7): 1.5625 + 9 x
  // 5 x 7 / 32 = 11.4, done at half + 12 + half. On ten different words each takes
  // l2_atomic_spread_min_lanes (10), float or not: 10 x 1.5625 = 15.6, done at half + 16 + half.
  const auto gpu = one_atomic_unit();
  const std::uint64_t half = gpu.timing.l2_latency / 2;
  auto last_done = [](bool same_word, bool float_add) {
    return last_of_ten_atomics([&](memory::L2Request& r, std::uint32_t i) {
      r.line = 5;
      r.lanes = 1;
      r.float_update = float_add;
      r.words = same_word ? 1u : 1u << i;
      r.sectors = static_cast<std::uint8_t>(1u << ((same_word ? 0 : i) / 8));
    });
  };
  CHECK(last_done(true, true) == half + 33 + half);
  CHECK(last_done(true, false) == half + 12 + half);
  CHECK(last_done(false, true) == half + 16 + half);
  CHECK(last_done(false, false) == half + 16 + half);
}

TEST_CASE("lanes of one atomic on one word are applied one after another") {
  // One unit. Ten atomics of four lanes on lines 0-9 at cycle 0 (no two on one line, so none
  // waits for another's update). On four words each takes l2_atomic_group_min_lanes (16) lanes'
  // time: 10 x 5 x 16 / 32 = 25, the last done at half + 25 + half. With the four lanes on one
  // word it is four one-lane atomics, 4 x l2_atomic_spread_min_lanes (10) lanes: 10 x 5 x 40 /
  // 32 = 62.5, done at half + 63 + half.
  const auto gpu = one_atomic_unit();
  const std::uint64_t half = gpu.timing.l2_latency / 2;
  auto last_done = [](std::uint8_t lanes_on_one_word) {
    return last_of_ten_atomics([&](memory::L2Request& r, std::uint32_t) {
      r.lanes = 4;
      r.words = lanes_on_one_word == 1 ? 0xFu : 0x1u;
      r.lanes_on_one_word = lanes_on_one_word;
    });
  };
  CHECK(last_done(1) == half + 25 + half);
  CHECK(last_done(4) == half + 63 + half);
}

TEST_CASE("a store's slice time follows its sectors, those written in part, and merges") {
  // One slice, one partition, a read sector's time 1 cycle (l2_bytes_per_cycle 32). Ten write
  // requests for lines 0-9 at cycle 0, each taking the slice in turn; the last is done at half +
  // the ten requests' time, rounded up, + half. A whole sector: 1 each, 10. One sector written
  // in part: l2_partial_sector_cost_pct 2.13 + l2_partial_write_cost_pct 2.2 = 4.33, 43.3 in
  // all. Four sectors in part: 4 x 2.13 + 2.2 = 10.72, 107.2. Merged into the warp's previous
  // store: l2_merged_write_cost_pct 1.15, 11.5; with half its lanes merged, half of each:
  // (1.15 + 4.33) / 2 = 2.74, 27.4.
  const auto gpu =
      h200({"memory.l2_slices=1", "memory.l2_partitions=1", "memory.l2_bytes_per_cycle=32",
            "memory.l2_partial_sector_cost_pct=213", "memory.l2_partial_write_cost_pct=220",
            "memory.l2_merged_write_cost_pct=115"});
  const std::uint64_t half = gpu.timing.l2_latency / 2;
  auto last_done = [&](std::uint8_t sectors, std::uint8_t partial, std::uint8_t merged_lanes) {
    memory::MemorySystem m(gpu);
    std::vector<memory::L2Request> writes;
    writes.reserve(10);
    for (std::uint32_t i = 0; i < 10; ++i) {
      memory::L2Request r{0, 0, i, i, sectors};
      r.kind = memory::RequestKind::Write;
      r.partial = partial;
      r.words = 0x1;
      r.lanes = 8;
      r.merged_lanes = merged_lanes;
      writes.push_back(r);
    }
    resolve_all(m, writes);
    return writes.back().done;
  };
  CHECK(last_done(0x1, 0x0, 0) == half + 10 + half);
  CHECK(last_done(0x1, 0x1, 0) == half + 44 + half);
  CHECK(last_done(0xf, 0xf, 0) == half + 108 + half);
  CHECK(last_done(0x1, 0x1, 8) == half + 12 + half);
  CHECK(last_done(0x1, 0x1, 4) == half + 28 + half);
}

}  // namespace
}  // namespace warpsim::test
