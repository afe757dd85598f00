// The SM's global and local accesses: each issued into the L1 unit (local memory's addresses
// placed in the SM's own window first), the registers it writes waiting for its answer, and the
// answers of the requests resolved between intervals.
#include <algorithm>
#include <bit>

#include "sim/memory/coalescing.hpp"
#include "sim/scheduler/sm/sm_model.hpp"

namespace warpsim::scheduler {

GlobalAccess SmModel::access_of(std::uint32_t warp, const InstTiming& it,
                                const std::uint64_t* addresses, unsigned lines) const {
  GlobalAccess a;
  a.warp = warp;
  a.op = it.memory_op;
  a.writes = it.writes;
  a.nwrites = it.nwrites;
  a.access_bytes = it.access_bytes;
  a.float_atomic = it.float_atomic;
  a.mask = access_.mask;
  a.addresses = addresses;
  a.lines = lines;
  return a;
}

void SmModel::issue_global(std::uint32_t warp, const InstTiming& it) {
  GlobalAccess a = access_of(warp, it, access_.addresses, access_.lines);
  a.atomic = it.memory_op == MemoryOp::Atomic ? queued_atomic_ : -1;
  issue_access(warp, it, a);
}

void SmModel::issue_local(std::uint32_t warp, const InstTiming& it) {
  // Local memory lives in global memory, each warp's frame interleaved by 4-byte word: word w of
  // lane l at w x 128 + l x 4, so a warp's access to one offset is one 128-byte line (the H200's
  // local loads and stores take 4 sectors a request, local_memory.kir). Its lines go through the
  // L1 and the L2 as global ones do (stores written through, local_rmw's every sector an L2
  // write), each warp slot of each SM its own window of addresses. An access wider than a word
  // touches one line per word: it is issued a word at a time, the last carrying its registers.
  const unsigned bytes = std::max(1u, unsigned{it.access_bytes});
  const unsigned words = std::max(1u, bytes / 4);
  const std::uint64_t frame = kLocalWindow + (std::uint64_t{index_} << kLocalSmShift) +
                              (std::uint64_t{warp} << kLocalWarpShift);
  std::uint64_t addresses[kWarpSize];
  InstTiming part = it;
  part.access_bytes = static_cast<std::uint8_t>(std::min(bytes, 4u));
  for (unsigned w = 0; w < words; ++w) {
    for (std::uint32_t m = access_.mask; m != 0; m &= m - 1) {
      const auto lane = static_cast<unsigned>(std::countr_zero(m));
      const std::uint64_t offset = access_.addresses[lane] + std::uint64_t{4} * w;
      addresses[lane] = frame + offset / 4 * (std::uint64_t{4} * kWarpSize) +
                        std::uint64_t{4} * lane + offset % 4;
    }
    part.nwrites = w + 1 == words ? it.nwrites : 0;
    GlobalAccess a =
        access_of(warp, part, addresses, memory::coalesce(addresses, access_.mask).lines);
    a.local = true;
    issue_access(warp, part, a);
  }
}

void SmModel::issue_access(std::uint32_t warp, const InstTiming& it, const GlobalAccess& a) {
  WarpTiming& t = timing_warp(warp);
  const GlobalIssue issued = l1_.issue(a, now_);
  if (!issued.waits) {
    t.drain_until = std::max(t.drain_until, issued.exit_after);
    memory_in_flight(now_, issued.exit_after);
    return;
  }
  if (!issued.pending) memory_in_flight(now_, issued.ready);
  if (issued.pending && activity_.on()) activity_.memory_change(now_, 1);
  for (unsigned i = 0; i < it.nwrites; ++i) {
    RegisterSlot& r = t.slots[it.writes[i]];
    if (issued.pending)
      ++r.unanswered;
    else
      r.ready = std::max(r.ready, issued.ready);
    r.producer = WarpState::LongScoreboard;
  }
  if (issued.pending) t.pending += it.nwrites == 0 ? 1 : it.nwrites;
}

void SmModel::complete_requests() {
  for (const AnsweredAccess& answer : l1_.complete(now_)) {
    WarpTiming& t = timing_warp(answer.warp);
    if (answer.nwrites == 0) t.drain_until = std::max(t.drain_until, answer.ready);
    t.operands_known = false;
    for (unsigned i = 0; i < answer.nwrites; ++i) {
      RegisterSlot& r = t.slots[answer.writes[i]];
      --r.unanswered;
      r.ready = std::max(r.ready, answer.ready);
    }
    t.pending -= answer.nwrites == 0 ? 1 : answer.nwrites;
    if (activity_.on()) activity_.memory_change(answer.ready, -1);
    set_earliest(t, 0);
  }
  // The kernel is complete when its last write has reached the L2.
  counters_.last_retire = std::max(counters_.last_retire, l1_.last_done());
  residency_.settle(now_);
  // Warps throttled on a full miss queue may go now.
  std::fill(earliest_.begin(), earliest_.end(), 0);
  for (SubPartition& p : partitions_) p.wake = 0;
  atomics_.clear();
}

}  // namespace warpsim::scheduler
