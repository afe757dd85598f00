// The SM's timing components alone, each fed by hand: the shared pipe, the constant cache, the
// block launcher, residency, the L1 unit (the L2 answered by the test), and the worker team.
// Every expected cycle is worked out in a comment from the component's rule.
#include <doctest/doctest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "sim/memory/constant_cache.hpp"
#include "sim/scheduler/engine/worker_team.hpp"
#include "sim/scheduler/sm/block_launcher.hpp"
#include "sim/scheduler/sm/l1_unit.hpp"
#include "sim/scheduler/sm/residency.hpp"
#include "sim/scheduler/sm/shared_pipe.hpp"

namespace warpsim::scheduler {
namespace {

TEST_CASE("the shared pipe serves wavefronts in turn, each partition's path at its own rate") {
  // 2 cycles per wavefront on the SM's pipe, 4 on a partition's path; a queue of 4 cycles.
  SharedPipe pipe({4, 2, 4, 10, 32, 100});
  // Partition 0, one wavefront at 0: the pipe is busy 0-2, the path 0-4; done at 4.
  CHECK(pipe.serve(0, 0, 1, false, 0) == 4);
  // Partition 1, two wavefronts at 0: starts when the pipe frees (2), busy 4 (to 6), its path
  // max(4, 2 x 4) = 8 (to 10); done at 10.
  CHECK(pipe.serve(1, 0, 2, false, 0) == 10);
  // At 3, partition 1's path is busy until 10, beyond the 4-cycle queue: room from 10 - 4 = 6.
  CHECK(pipe.queue_full_until(1, 3) == 6);
  // Partition 0's is busy until max(6, 4) = 6, within the queue: room now.
  CHECK(pipe.queue_full_until(0, 3) == 0);
  // Another block's memory at 20: 3 segments of 128 bytes at 32 bytes/cycle take 12 cycles,
  // more than the 10 of a request; done at 32, plus the network's 100.
  CHECK(pipe.serve(0, 20, 1, true, 3) == 132);
}

TEST_CASE(
    "the constant cache charges a line's first read, a wait for one on its way, and each further "
    "distinct address") {
  // miss 100, the SM's first miss 300, 5 per further address; from DRAM 1,000 / 50 more.
  const memory::ConstantTiming timing{100, 300, 5, 1000, 50};
  memory::ConstantCache warm(timing, false);
  const std::uint64_t same[2] = {0, 0}, two[2] = {0, 4}, next_line[1] = {64};
  CHECK(warm.read(0b11, same, 0) == 300);         // line 0: the first miss, one address
  CHECK(warm.read(0b11, two, 1000) == 5);         // line 0 again (cached), two addresses
  CHECK(warm.read(0b1, next_line, 1000) == 100);  // line 1 (64 bytes on): a later miss
  // Line 1 arrives at 1,100: a read at 1,040 waits the 60 cycles left, not a miss of its own.
  CHECK(warm.read(0b1, next_line, 1040) == 60);
  CHECK(warm.read(0b1, next_line, 1100) == 0);
  memory::ConstantCache cold(timing, true);
  CHECK(cold.read(0b1, same, 0) == 1300);
  CHECK(cold.read(0b1, next_line, 2000) == 150);
}

TEST_CASE("the immediate-constant cache fetches a line once and makes later askers wait for it") {
  memory::ImmediateConstants imc(100);
  // c[0x0][0x210] and c[0x0][0x218] share the 64-byte line 0x200-0x23f; c[0x3][0x210] is another
  // bank's.
  const std::uint32_t params = memory::ImmediateConstants::key(0, 0x210);
  CHECK(memory::ImmediateConstants::key(0, 0x218) == params);
  CHECK(memory::ImmediateConstants::key(3, 0x210) != params);
  CHECK(imc.ready(params, 10) == 110);   // missed at 10: there 100 cycles later
  CHECK(imc.ready(params, 50) == 110);   // asked on its way: the same arrival, no second fetch
  CHECK(imc.ready(params, 200) == 200);  // there
  CHECK(imc.ready(memory::ImmediateConstants::key(3, 0x210), 200) == 300);
}

TEST_CASE("the block launcher spaces blocks and holds one beyond those starting at once") {
  config::TimingConfig t;
  t.blocks_starting = 2;
  t.block_launch_cycles = 10;
  t.first_wave_block_cycles = 3;
  t.first_wave_warp_cycles = 1;
  t.cluster_block_launch_cycles = 7;
  t.block_launch_latency = 50;
  BlockLauncher launcher(t, 4);  // blocks of 4 warps
  // First wave: max(3, 1 x 4 warps) = 4 cycles apart; each issues 50 after it starts.
  CHECK(launcher.assign({0, 0, 0}, 0, 0, false, 0).start == 50);
  CHECK(launcher.assign({1, 0, 0}, 1, 0, false, 0).start == 54);
  // Two are starting: the third waits until the first's warps issue (50), then 50 more.
  CHECK(launcher.assign({2, 0, 0}, 2, 0, false, 0).start == 100);
  // After a regular block (10 cycles, from 50): a cluster's block starts at 60.
  CHECK(launcher.assign({3, 0, 0}, 3, 0, true, 0).start == 110);
  CHECK(launcher.next_start() == 50);
  CHECK(launcher.pop().index.x == 0);
  CHECK(launcher.next_start() == 54);
}

TEST_CASE("residency counts warps in flight per cycle, events in any order") {
  Residency r;
  r.change(10, 4);
  r.change(30, -1);
  r.change(20, 2);
  r.settle(40);
  // 4 warps over 10-20, 6 over 20-30, 5 over 30-40: 40 + 60 + 50 warp cycles, 30 active.
  CHECK(r.warp_cycles() == 150);
  CHECK(r.active_cycles() == 30);
  r.change(50, -5);
  r.settle(45);  // the event at 50 is kept: 5 warps over 40-45
  CHECK(r.warp_cycles() == 175);
  r.settle(60);  // 5 more over 45-50, then none
  CHECK(r.warp_cycles() == 200);
  CHECK(r.active_cycles() == 40);
}

config::TimingConfig l1_timing() {
  config::TimingConfig t;
  t.l1_ways = 4;
  t.lsu_cycles_per_line = 1;
  t.lsu_store_cycles_per_line = 2;
  t.lg_queue_cycles = 64;
  t.l1_max_outstanding_lines = 512;
  t.l1_hit_latency = 30;
  t.l2_latency = 200;
  t.store_exit = config::StoreExit::Arrived;
  return t;
}

// A warp's 32 lanes reading (or writing) consecutive 4-byte words from `base`.
std::vector<std::uint64_t> consecutive(std::uint64_t base) {
  std::vector<std::uint64_t> a(kWarpSize);
  for (unsigned l = 0; l < kWarpSize; ++l) a[l] = base + 4 * l;
  return a;
}

TEST_CASE("the L1 unit misses, waits for the L2's answer, then hits; a store waits to arrive") {
  const config::TimingConfig t = l1_timing();
  L1Unit l1(t, 4 * 4 * kLineBytes, 0);  // 4 sets of 4 ways
  const std::uint32_t dst[1] = {7};
  const auto line0 = consecutive(0);
  GlobalAccess load{3, MemoryOp::Load, dst, 1, 4, kFullWarpMask, line0.data(), 1, -1};
  // At 0 the tag stage takes the line (1 cycle): tagged at 1; all 4 sectors miss.
  const GlobalIssue miss = l1.issue(load, 0);
  CHECK(miss.waits);
  CHECK(miss.pending);
  REQUIRE(l1.requests().size() == 1);
  CHECK(l1.requests()[0].sectors == 0xF);
  CHECK(l1.requests()[0].cycle == 1);
  CHECK(l1.throttled_until(1, 1) == 0);  // one miss of 512 outstanding, the queue empty
  // The L2 answers at 500: the registers are ready half the hit latency later, 515.
  l1.requests()[0].done = 500;
  const std::vector<AnsweredAccess>& answered = l1.complete(600);
  REQUIRE(answered.size() == 1);
  CHECK(answered[0].warp == 3);
  CHECK(answered[0].writes[0] == 7);
  CHECK(answered[0].ready == 515);
  // Again at 10: tagged at 11, every sector hits, filled at 500: ready at max(11 + 29, 500).
  const GlobalIssue hit = l1.issue(load, 10);
  CHECK(!hit.pending);
  CHECK(hit.ready == 500);
  CHECK(l1.requests().empty());
  CHECK(l1.sector_lookups() == 8);
  CHECK(l1.sector_hits() == 4);
  // A store of the next line at 20: 2 tag cycles (tagged at 22), every word written (no
  // partial sector); it holds the warp's exit until it reaches the L2, half the L2 latency
  // after leaving: 22 + 100.
  const auto line1 = consecutive(kLineBytes);
  GlobalAccess store{3, MemoryOp::Store, nullptr, 0, 4, kFullWarpMask, line1.data(), 1, -1};
  const GlobalIssue stored = l1.issue(store, 20);
  CHECK(stored.waits);
  CHECK(stored.pending);
  REQUIRE(l1.requests().size() == 1);
  CHECK(l1.requests()[0].kind == memory::RequestKind::Write);
  CHECK(l1.requests()[0].partial == 0);
  l1.requests()[0].done = 300;
  const std::vector<AnsweredAccess>& arrived = l1.complete(400);
  REQUIRE(arrived.size() == 1);
  CHECK(arrived[0].nwrites == 0);
  CHECK(arrived[0].ready == 122);
  CHECK(l1.last_done() == 500);
}

TEST_CASE("a store of every other word leaves its sectors partial") {
  const config::TimingConfig t = l1_timing();
  L1Unit l1(t, 4 * 4 * kLineBytes, 0);
  std::vector<std::uint64_t> every_other(kWarpSize);
  for (unsigned l = 0; l < kWarpSize; ++l) every_other[l] = 8 * l;  // 2 lines, half the words
  GlobalAccess store{0, MemoryOp::Store, nullptr, 0, 4, kFullWarpMask, every_other.data(), 2, -1};
  l1.issue(store, 0);
  REQUIRE(l1.requests().size() == 2);
  CHECK(l1.requests()[0].partial == 0xF);
  CHECK(l1.requests()[1].partial == 0xF);
}

TEST_CASE("a local store writes through and keeps its whole sectors in the L1; a global one not") {
  // A warp's 32 lanes store a word each into one line (all 4 sectors whole): one write request
  // either way. Loading the line again at 100 hits after the local store (no request, ready at
  // tagged 101 + local_hit_latency 20 - 1 = 120) and misses after the global one.
  config::TimingConfig t = l1_timing();
  t.local_hit_latency = 20;
  const std::uint32_t dst[1] = {5};
  const auto line = consecutive(0);
  for (const bool local : {true, false}) {
    L1Unit l1(t, 4 * 4 * kLineBytes, 0);
    GlobalAccess store{0, MemoryOp::Store, nullptr, 0, 4, kFullWarpMask, line.data(), 1, -1};
    store.local = local;
    l1.issue(store, 0);
    REQUIRE(l1.requests().size() == 1);
    CHECK(l1.requests()[0].kind == memory::RequestKind::Write);
    l1.requests()[0].done = 50;
    l1.complete(60);
    GlobalAccess load{0, MemoryOp::Load, dst, 1, 4, kFullWarpMask, line.data(), 1, -1};
    load.local = local;
    const GlobalIssue again = l1.issue(load, 100);
    CHECK(again.pending == !local);
    CHECK(l1.requests().size() == (local ? 0u : 1u));
    if (local) CHECK(again.ready == 120);
  }
}

TEST_CASE("a store merges into the same warp's previous one where it fills the words left") {
  // l2_write_merge_lines 4. Lanes 16 bytes apart write word k of each 16-byte chunk of lines 0-3
  // (4 lines, 8 lanes each). The first store merges into nothing; the second (k = 1) fills other
  // words of the same chunks, all its lanes merged; the same words again (k = 1) are not merged.
  config::TimingConfig t = l1_timing();
  t.l2_write_merge_lines = 4;
  L1Unit l1(t, 4 * 4 * kLineBytes, 0);
  auto store_at = [&](unsigned warp, unsigned stride, unsigned word, unsigned lines) {
    std::vector<std::uint64_t> address(kWarpSize);
    for (unsigned l = 0; l < kWarpSize; ++l) address[l] = stride * l + 4 * word;
    l1.requests().clear();
    GlobalAccess store{warp,          MemoryOp::Store, nullptr, 0, 4,
                       kFullWarpMask, address.data(),  lines,   -1};
    l1.issue(store, 0);
    std::vector<unsigned> merged;
    for (const auto& r : l1.requests()) merged.push_back(r.merged_lanes);
    return merged;
  };
  CHECK(store_at(0, 16, 0, 4) == std::vector<unsigned>{0, 0, 0, 0});
  CHECK(store_at(0, 16, 1, 4) == std::vector<unsigned>{8, 8, 8, 8});
  CHECK(store_at(0, 16, 1, 4) == std::vector<unsigned>{0, 0, 0, 0});
  // Another warp's store does not merge into warp 0's.
  CHECK(store_at(1, 16, 2, 4) == std::vector<unsigned>{0, 0, 0, 0});
  // Lanes 32 bytes apart span 8 lines: more than 4, nothing merges.
  CHECK(store_at(2, 32, 0, 8) == std::vector<unsigned>(8, 0));
  CHECK(store_at(2, 32, 1, 8) == std::vector<unsigned>(8, 0));
  // Lanes 12 bytes apart, words 0 then 1 of each lane's 12 bytes (3 lines): lane t's second word,
  // at 12t + 4, starts a new 16-byte chunk where 12t + 4 is a multiple of 16 (t = 1, 5, 9, ...).
  // Line 0 holds lanes 0-10 (12 x 10 + 4 = 124), of which 1, 5 and 9 move: 8 of 11 merge. Line 1
  // (bytes 128-255) holds lanes 11-20 (t = 13, 17 move: 8 of 10); line 2 lanes 21-31 (t = 21,
  // 25, 29 move: 8 of 11).
  CHECK(store_at(3, 12, 0, 3) == std::vector<unsigned>{0, 0, 0});
  CHECK(store_at(3, 12, 1, 3) == std::vector<unsigned>{8, 8, 8});
}

TEST_CASE("a load takes the tag stage a line a cycle, but no less than its least a request") {
  // lsu_min_cycles_per_request 2: a request of one line (32 consecutive words) holds the stage
  // 2 cycles, one of four lines (lanes 16 bytes apart) 4, as the H200's l1_hits.kir shows.
  config::TimingConfig t = l1_timing();
  t.lsu_min_cycles_per_request = 2;
  L1Unit l1(t, 4 * 4 * kLineBytes, 0);
  const std::uint32_t dst[1] = {7};
  const auto one_line = consecutive(0);
  std::vector<std::uint64_t> four_lines(kWarpSize);
  for (unsigned l = 0; l < kWarpSize; ++l) four_lines[l] = 16 * kLineBytes + 16 * l;
  GlobalAccess one{0, MemoryOp::Load, dst, 1, 4, kFullWarpMask, one_line.data(), 1, -1};
  GlobalAccess four{0, MemoryOp::Load, dst, 1, 4, kFullWarpMask, four_lines.data(), 4, -1};
  l1.issue(one, 0);  // tagged at 2
  REQUIRE(l1.requests().size() == 1);
  CHECK(l1.requests()[0].cycle == 2);
  l1.issue(four, 0);  // behind it: tagged at 2 + 4
  REQUIRE(l1.requests().size() == 5);
  CHECK(l1.requests()[1].cycle == 6);
}

TEST_CASE("an atomic's request names the words its lanes update, and the most on one") {
  // Lanes 0-3 add to words 0-3 of line 0, lanes 4-31 to word 5 of line 1: two requests.
  const config::TimingConfig t = l1_timing();
  L1Unit l1(t, 4 * 4 * kLineBytes, 0);
  std::vector<std::uint64_t> a(kWarpSize, kLineBytes + 20);
  for (unsigned l = 0; l < 4; ++l) a[l] = 4 * l;
  GlobalAccess atomic{0, MemoryOp::Atomic, nullptr, 0, 4, kFullWarpMask, a.data(), 2, -1};
  l1.issue(atomic, 0);
  REQUIRE(l1.requests().size() == 2);
  CHECK(l1.requests()[0].lanes == 4);
  CHECK(l1.requests()[0].words == 0xFu);
  CHECK(l1.requests()[0].lanes_on_one_word == 1);
  CHECK(l1.requests()[1].lanes == 28);
  CHECK(l1.requests()[1].words == 1u << 5);
  CHECK(l1.requests()[1].lanes_on_one_word == 28);
}

TEST_CASE("the worker team runs every share at once and passes a share's exception on") {
  WorkerTeam team(3);
  std::vector<std::atomic<int>> ran(3);
  const std::function<void(std::uint32_t)> mark = [&](std::uint32_t k) { ran[k] += 1; };
  team.run(mark);
  team.run(mark);
  for (const auto& r : ran) CHECK(r.load() == 2);
  const std::function<void(std::uint32_t)> fail = [](std::uint32_t k) {
    if (k == 2) throw std::runtime_error("share 2 failed");
  };
  CHECK_THROWS_WITH(team.run(fail), "share 2 failed");
  team.run(mark);  // the team still works
  for (const auto& r : ran) CHECK(r.load() == 3);
}

}  // namespace
}  // namespace warpsim::scheduler
