// The timing model's parts on their own: scheduler policies, the sectored cache, the L2/DRAM
// servers.
#include <doctest/doctest.h>

#include <cmath>
#include <set>

#include "sim/memory/address_hash.hpp"
#include "sim/memory/bandwidth_server.hpp"
#include "sim/memory/memory_system.hpp"
#include "sim/memory/sector_cache.hpp"
#include "sim/scheduler/warp_scheduler.hpp"
#include "tests/unit/timing_support.hpp"

namespace warpsim::test {
namespace {

using config::SchedulerPolicy;

// Picks `rounds` times with every warp always ready; returns the sequence.
std::vector<std::uint32_t> picks(scheduler::WarpScheduler& s, int rounds,
                                 const std::set<std::uint32_t>& blocked = {}) {
  std::vector<std::uint32_t> out;
  for (int r = 0; r < rounds; ++r) {
    out.push_back(s.pick([&](std::uint32_t w) { return blocked.count(w) == 0; },
                         [&](std::uint32_t w) { return blocked.count(w) != 0; }));
  }
  return out;
}

TEST_CASE("LRR takes the warps in turn; GTO stays with one until it stalls") {
  scheduler::WarpScheduler lrr(SchedulerPolicy::LooseRoundRobin, 4);
  scheduler::WarpScheduler gto(SchedulerPolicy::GreedyThenOldest, 4);
  for (std::uint32_t w = 0; w < 3; ++w) {
    lrr.add(w);
    gto.add(w);
  }
  CHECK(picks(lrr, 6) == std::vector<std::uint32_t>{1, 2, 0, 1, 2, 0});
  CHECK(picks(gto, 3) == std::vector<std::uint32_t>{0, 0, 0});
  // Warp 0 stalls: the oldest ready one, warp 1, takes over and keeps going.
  CHECK(picks(gto, 2, {0}) == std::vector<std::uint32_t>{1, 1});
  gto.remove(1);
  CHECK(picks(gto, 1, {0}) == std::vector<std::uint32_t>{2});
  CHECK(picks(gto, 1, {0, 2}) == std::vector<std::uint32_t>{UINT32_MAX});
}

TEST_CASE("two-level scheduling rotates in its active set and swaps long waiters out") {
  scheduler::WarpScheduler s(SchedulerPolicy::TwoLevel, 2);
  for (std::uint32_t w = 0; w < 4; ++w) s.add(w);
  // Active set {0, 1}: only they issue while they can.
  CHECK(picks(s, 4) == std::vector<std::uint32_t>{1, 0, 1, 0});
  // Warp 0 waits for memory: demoted, warp 2 joins the active set.
  const auto next = picks(s, 4, {0});
  CHECK(std::set<std::uint32_t>(next.begin(), next.end()) == std::set<std::uint32_t>{1, 2});
}

TEST_CASE("the sectored cache allocates lines, fills sectors and evicts the least recent") {
  // 2 sets x 2 ways of 128-byte lines.
  memory::SectorCache c(512, 2);
  memory::Eviction ev;
  CHECK(c.find(7) == nullptr);
  memory::CacheLine* l = c.touch(7, ev);
  REQUIRE(l != nullptr);
  CHECK(ev.line == memory::kNever);
  l->valid = 0b0101;
  c.mark_dirty(*l, 0b0001);
  CHECK(c.find(7)->valid == 0b0101);
  // Fill the set that line 7 maps to until 7, the least recently used, is evicted.
  std::uint64_t evicted = memory::kNever, other = 8;
  for (; evicted == memory::kNever && other < 1000; ++other) {
    c.touch(other, ev);
    evicted = ev.line;
  }
  CHECK(evicted == 7);
  CHECK(ev.dirty == 0b0001);
  CHECK(c.find(7) == nullptr);
  memory::SectorCache none(0, 4);
  CHECK_FALSE(none.enabled());
  CHECK(none.touch(1, ev) == nullptr);
}

TEST_CASE("address hashing: every power-of-two stride of lines uses every unit") {
  // The hash XORs the address's groups of log2(units) bits. With a stride of 2^j lines, bit i
  // of the step count k lands at bit (i + j) mod width of one group, a different bit for each
  // i < width, so k -> hash is one-to-one over `units` consecutive steps from a base with no
  // bits where the steps are (no carries): a matrix column walk (the naive transpose's stores,
  // 8 KB apart) touches every L2 slice, not one.
  for (std::uint64_t units : {32u, 64u}) {
    for (unsigned j = 0; j <= 14; ++j) {
      std::set<std::uint64_t> used;
      for (std::uint64_t k = 0; k < units; ++k)
        used.insert(memory::fold_hash((0x5A5A5ull << 24) + (k << j), units));
      CHECK_MESSAGE(used.size() == units, "units " << units << ", stride 2^" << j);
    }
  }
  // Any unit count: the result stays below it.
  for (std::uint64_t a = 0; a < 5000; a += 7) CHECK(memory::fold_hash(a * 977, 448) < 448);
}

TEST_CASE("the remainder by multiplication equals the remainder, for every 32-bit operand") {
  // Divisors of every size the caches use and the extremes; numerators spread over [0, 2^32)
  // by a multiplicative step, plus the ends of the range and multiples of the divisor.
  for (std::uint64_t d : {1ull, 2ull, 3ull, 7ull, 96ull, 320ull, 448ull, 65535ull, 4294967295ull}) {
    const std::uint64_t magic = memory::remainder_magic(d);
    auto agrees = [&](std::uint64_t x) { return memory::fast_remainder(x, d, magic) == x % d; };
    bool all = agrees(0) && agrees(4294967295ull) && agrees(d - 1) && agrees(d % 4294967295ull);
    for (std::uint64_t i = 0; i < 100000; ++i) all = all && agrees((i * 2654435761ull) >> 32);
    for (std::uint64_t i = 0; i < 1000 && i * d + d / 2 < 4294967296ull; ++i)
      all = all && agrees(i * d) && agrees(i * d + d / 2);
    CHECK_MESSAGE(all, "divisor " << d);
  }
}

TEST_CASE("an L1 of 224 KB holds 512 lines 2 MB apart (pointer chasing over 512 pages)") {
  // 224 KB / 128 B / 4 ways = 448 sets. Lines k * 16384 (2 MB apart): folded in 9-bit groups,
  // bits 0-3 of k land at bits 5-8 of the second group and bits 4-8 at bits 0-4 of the third,
  // so the hash before the remainder is 32 (k mod 16) + k / 16, all 512 values distinct; mod 448
  // at most two share a set. All 512 fit in 4 ways: a second lap finds every line. (The H200
  // chases this at 61 cycles a step, its L1 latency.) A multiplicative set index leaves 15 of
  // them without a way.
  memory::SectorCache l1(224 * 1024, 4, memory::SetIndex::Folded);
  memory::Eviction ev;
  for (std::uint64_t k = 0; k < 512; ++k) l1.touch(k * 16384, ev);
  for (std::uint64_t k = 0; k < 512; ++k) CHECK(l1.find(k * 16384) != nullptr);
}

TEST_CASE("a bandwidth server books its work back to back and hands out whole cycles") {
  memory::BandwidthServer server;
  // 32 bytes at 0.75 cycles each booking (a slice of 48 moving 2048 bytes a cycle would take
  // 48 / 2048 cycles a byte): from cycle 10, the bookings end at 10.75, 11.5 and 12.25, read as
  // the cycles 11, 12 and 13; the fractions add up rather than rounding each booking to 1.
  CHECK(server.book(10, {0.75}) == 11);
  CHECK(server.book(10, {0.75}) == 12);
  CHECK(server.book(10, {0.75}) == 13);
  // A booking after the server went idle starts at its own time.
  CHECK(server.book(100, {0.5}) == 101);
  CHECK(server.book(100, {0}) == 101);  // 100.5 still: nothing new was booked
}

TEST_CASE("a decaying count forgets one e-fold a window and ignores slightly late requests") {
  memory::DecayingCount recent;
  recent.add(0, 100);
  recent.add(0, 100);
  CHECK(recent.weight() == doctest::Approx(2.0));
  recent.add(100, 100);  // 2 e^-1 + 1
  CHECK(recent.weight() == doctest::Approx(2.0 * std::exp(-1.0) + 1.0));
  recent.add(50, 100);  // earlier than the last: counts as of cycle 100
  CHECK(recent.weight() == doctest::Approx(2.0 * std::exp(-1.0) + 2.0));
}

TEST_CASE("the L2's memory sides share no state: resolved apart, in any order, they agree") {
  // 4,000 reads and writes (partial ones too) from 132 SMs to lines of 8 MB, enough to miss,
  // evict dirty lines and queue at slices and channels. Resolved serially, and side by side
  // with the last side first: if the sides shared a slice, a channel or a counter, the second
  // order would see the other side's traffic first and some `done` would differ.
  auto gpu = h200({"memory.l2_bytes_per_cycle=512"});
  gpu.l2_bytes = 256 * 1024;  // small, so the 8 MB of lines evict each other
  std::vector<std::uint32_t> partition_of_sm(132);
  for (std::uint32_t s = 0; s < 132; ++s) partition_of_sm[s] = s % 2;
  memory::MemorySystem serial(gpu, partition_of_sm), apart(gpu, partition_of_sm);
  REQUIRE(serial.sides() == 2);
  std::vector<memory::L2Request> a, b;
  std::uint64_t x = 88172645463325252ull;
  for (std::uint32_t i = 0; i < 4000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    memory::L2Request r;
    r.cycle = i / 8;
    r.sm = static_cast<std::uint32_t>(x % 132);
    r.seq = i;
    r.line = (x >> 8) % 65536;
    r.sectors = static_cast<std::uint8_t>(1 + (x >> 32) % 15);
    r.kind = (x >> 40) % 3 == 0 ? memory::RequestKind::Write : memory::RequestKind::Read;
    if (r.kind == memory::RequestKind::Write && (x >> 44) % 2 == 0) r.partial = r.sectors;
    a.push_back(r);
  }
  b = a;
  std::vector<memory::L2Request*> all;
  for (auto& r : a) all.push_back(&r);
  serial.resolve(all, 0, [](const memory::L2Request&) {});
  std::vector<std::vector<memory::L2Request*>> by_side(2);
  for (auto& r : b) by_side[apart.side_of(r.line)].push_back(&r);
  CHECK(!by_side[0].empty());
  CHECK(!by_side[1].empty());
  apart.resolve_side(by_side[1], 0);
  apart.resolve_side(by_side[0], 0);
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i].done == b[i].done);
  CHECK(serial.counters().dram_read_bytes == apart.counters().dram_read_bytes);
  CHECK(serial.counters().dram_write_bytes == apart.counters().dram_write_bytes);
  CHECK(serial.counters().l2_sector_hits == apart.counters().l2_sector_hits);
  CHECK(serial.counters().dram_write_bytes > 0);
}

TEST_CASE("L2 and DRAM serve requests at their bandwidth, misses after the DRAM latency") {
  // No load-dependent latency here (dram_load_test.cpp covers it).
  auto gpu = h200({"memory.l2_slices=1", "memory.dram_channels=1", "memory.l2_bytes_per_cycle=32",
                   "memory.dram_bytes_per_cycle=32", "memory.dram_loaded_latency=0"});
  memory::MemorySystem m(gpu);
  const std::uint64_t half = gpu.timing.l2_latency / 2;
  // Two 4-sector reads of new lines at cycle 0: each takes 128 / 32 = 4 cycles of the slice and
  // of the channel; the second waits for the first at both.
  memory::L2Request a{0, 0, 0, 100, 0xf}, b{0, 0, 1, 101, 0xf};
  std::vector<memory::L2Request*> batch = {&a, &b};
  m.resolve(batch, 0, [](const memory::L2Request&) {});
  CHECK(a.done == half + 4 + 4 + gpu.timing.dram_latency + half);
  CHECK(b.done == half + 8 + 4 + gpu.timing.dram_latency + half);
  CHECK(m.counters().dram_read_bytes == 256);
  // Read again: hits, no DRAM.
  memory::L2Request c{1000, 0, 2, 100, 0xf};
  batch = {&c};
  m.resolve(batch, 0, [](const memory::L2Request&) {});
  CHECK(c.done == 1000 + half + 4 + half);
  CHECK(m.counters().l2_sector_hits == 4);
  // Preloaded lines (the host's copies) hit at once.
  m.preload(200 * 128, 128);
  memory::L2Request d{2000, 0, 3, 200, 0x1};
  batch = {&d};
  m.resolve(batch, 0, [](const memory::L2Request&) {});
  CHECK(d.done == 2000 + half + 1 + half);
}

TEST_CASE("a line lives in its home partition; the other partition fetches it from there once") {
  // Two SMs, one in each partition, read 64 lines the host copied in. Each read reaches its
  // slice `half` after leaving the L1 and takes ceil(32 B x 64 slices / 4,629 B per cycle) = 1
  // cycle there (one sector); a line homed in the reader's partition is back `half` later, one
  // homed in the other partition l2_far_latency after that. So per line exactly one of the two
  // reads pays l2_far_latency more, about half the lines are homed in each partition (a hash
  // picks), nothing comes from DRAM, and a second read from either partition hits at once.
  const auto gpu = h200();
  memory::MemorySystem m(gpu, {0, 1});
  const std::uint64_t half = gpu.timing.l2_latency / 2, far = gpu.timing.l2_far_latency;
  REQUIRE(far > 0);
  m.preload(0, 64 * 128);
  unsigned homed_in_first = 0;
  for (std::uint32_t line = 0; line < 64; ++line) {
    const std::uint64_t at = 10'000ull * line;  // apart: nothing queues
    memory::L2Request first{at, 0, 0, line, 0x1}, second{at, 1, 1, line, 0x1};
    memory::L2Request again0{at + 5'000, 0, 2, line, 0x1}, again1{at + 5'000, 1, 3, line, 0x1};
    std::vector<memory::L2Request*> batch = {&first, &second, &again0, &again1};
    m.resolve(batch, 0, [](const memory::L2Request&) {});
    const std::uint64_t near = at + half + 1 + half;
    CAPTURE(line);
    CHECK(std::min(first.done, second.done) == near);
    CHECK(std::max(first.done, second.done) == near + far);
    CHECK(again0.done == at + 5'000 + half + 1 + half);
    CHECK(again1.done == at + 5'000 + half + 1 + half);
    homed_in_first += first.done == near ? 1 : 0;
  }
  CHECK(homed_in_first >= 16);
  CHECK(homed_in_first <= 48);
  CHECK(m.counters().dram_read_bytes == 0);
}

TEST_CASE("a write lands in the line's home partition, whichever SM sends it") {
  // Lines never copied in are written by an SM of one partition, then read by an SM of each.
  // The home partition holds the written sectors: its reader hits, the other fetches them from
  // the home one (l2_far_latency more), and nothing is read from DRAM.
  const auto gpu = h200();
  memory::MemorySystem m(gpu, {0, 1});
  const std::uint64_t half = gpu.timing.l2_latency / 2, far = gpu.timing.l2_far_latency;
  for (std::uint32_t line = 0; line < 16; ++line) {
    const std::uint64_t at = 10'000ull * line;
    memory::L2Request write{at, 0, 0, 1000 + line, 0xf};
    write.kind = memory::RequestKind::Write;
    memory::L2Request read0{at + 1'000, 0, 1, 1000 + line, 0x1},
        read1{at + 1'000, 1, 2, 1000 + line, 0x1};
    std::vector<memory::L2Request*> batch = {&write, &read0, &read1};
    m.resolve(batch, 0, [](const memory::L2Request&) {});
    const std::uint64_t near = at + 1'000 + half + 1 + half;
    CAPTURE(line);
    CHECK(std::min(read0.done, read1.done) == near);
    CHECK(std::max(read0.done, read1.done) == near + far);
  }
  CHECK(m.counters().dram_read_bytes == 0);
}

}  // namespace
}  // namespace warpsim::test
