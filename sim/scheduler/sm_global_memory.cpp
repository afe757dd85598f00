// The SM's global-memory path: a request's lines through the L1's tag stage, hits and misses
// per sector, the misses (and every store and atomic) sent toward the L2, and, between
// intervals, the L2's answers delivered to the waiting registers and the L1's pending sectors.
#include <algorithm>
#include <bit>

#include "sim/scheduler/sm_model.hpp"

namespace warpsim::scheduler {

using memory::kNever;

void SmModel::issue_global(std::uint32_t warp, const exec::DecodedInst& d, const InstTiming& it) {
  WarpTiming& t = timing_warp(warp);
  const config::TimingConfig& c = *s_.timing;
  const std::uint64_t start = std::max(now_, lsu_free_);
  lsu_free_ = start + std::max(1u, access_.lines) * (d.opcode == ir::Opcode::St
                                                         ? c.lsu_store_cycles_per_line
                                                         : c.lsu_cycles_per_line);
  const std::uint64_t tagged = lsu_free_;
  const bool is_load = d.opcode == ir::Opcode::Ld;
  const bool is_atomic = d.opcode == ir::Opcode::Atom;
  const bool is_store = d.opcode == ir::Opcode::St;
  // The request's lines, each with the sectors it needs, in first-touch order.
  std::uint64_t lines[32];
  std::uint8_t sectors[32];
  std::uint32_t written[32][4];  // stores: which 4-byte words of each sector are written
  unsigned nlines = 0;
  const unsigned bytes = ir::size_bytes(d.type) * d.vector_width;
  for (std::uint32_t m = access_.mask; m != 0; m &= m - 1) {
    const std::uint64_t a = access_.addresses[std::countr_zero(m)];
    const std::uint64_t line = a / 128;
    const auto s = static_cast<unsigned>((a / 32) % 4);
    unsigned k = 0;
    while (k < nlines && lines[k] != line) ++k;
    if (k == nlines) {
      lines[nlines] = line;
      sectors[nlines] = 0;
      std::fill_n(written[nlines++], 4, 0u);
    }
    sectors[k] = static_cast<std::uint8_t>(sectors[k] | (1u << s));
    if (is_load) continue;  // only stores ask which words they write
    const auto first_word = static_cast<unsigned>((a % 32) / 4);
    for (unsigned w = first_word; w < std::min(8u, first_word + std::max(1u, bytes / 4)); ++w)
      written[k][s] |= 1u << w;
  }
  // Loads and atomics wait for their data. Stores, and atomics whose old value nobody reads
  // (reductions: PTX red), hold the warp's exit until the L2 has acknowledged them, until they
  // have reached it, or until the L1 has taken them (store_exit): on the H200 a warp of
  // atom_lines16 leaves while its reductions queue at their slice (38 % occupancy, where
  // waiting for them would give 67 %).
  const bool posted = is_store || (is_atomic && it.nwrites == 0);
  const bool waits = !posted || c.store_exit != config::StoreExit::Accepted;
  if (!waits) t.drain_until = std::max(t.drain_until, tagged);
  const auto load_index = static_cast<std::uint32_t>(loads_.size());
  PendingLoad load;
  load.warp = warp;
  load.ndst = it.nwrites;
  std::copy(it.writes, it.writes + it.nwrites, load.dst);
  load.ready = tagged + c.l1_hit_latency - 1;
  load.until_arrival = posted && c.store_exit == config::StoreExit::Arrived;
  const std::int32_t atomic = is_atomic ? static_cast<std::int32_t>(atomics_.size()) - 1 : -1;
  bool atomic_attached = false;
  auto send = [&](std::uint64_t line, std::uint8_t mask, memory::RequestKind kind) {
    memory::L2Request r;
    r.cycle = tagged;
    r.sm = index_;
    r.seq = seq_++;
    r.line = line;
    r.sectors = mask;
    r.kind = kind;
    if (kind == memory::RequestKind::Atomic && !atomic_attached) {
      r.atomic = atomic;
      atomic_attached = true;
    }
    requests_.push_back(r);
    ++unresolved_;  // stores too: the L1's queue toward the L2 is bounded
    return static_cast<std::uint32_t>(requests_.size() - 1);
  };
  for (unsigned k = 0; k < nlines; ++k) {
    if (!is_load) {
      const auto kind = is_atomic ? memory::RequestKind::Atomic : memory::RequestKind::Write;
      const std::uint32_t r = send(lines[k], sectors[k], kind);
      if (is_atomic) {
        unsigned lanes = 0;
        for (std::uint32_t m = access_.mask; m != 0; m &= m - 1)
          lanes += access_.addresses[std::countr_zero(m)] / 128 == lines[k] ? 1u : 0u;
        requests_[r].lanes = static_cast<std::uint8_t>(lanes);
      } else {
        for (unsigned s = 0; s < 4; ++s) {
          if (memory::has_sector(sectors[k], s) && written[k][s] != 0xffu)
            requests_[r].partial = static_cast<std::uint8_t>(requests_[r].partial | (1u << s));
        }
      }
      if (waits) {
        waiters_.emplace_back(r, load_index);
        ++load.outstanding;
      }
      // Write-through: a cached copy is updated, nothing is allocated.
      if (memory::CacheLine* l = l1_.find(lines[k]); l != nullptr && !is_atomic) {
        for (unsigned s = 0; s < 4; ++s) {
          if (memory::has_sector(sectors[k], s) && l->pending[s] < 0) l->fill_cycle[s] = tagged;
        }
      }
      continue;
    }
    const auto want = static_cast<unsigned>(std::popcount(unsigned{sectors[k]}));
    counters_.l1_sector_lookups += want;
    memory::Eviction evicted;
    memory::CacheLine* l = l1_.touch(lines[k], evicted);
    if (l == nullptr) {  // no L1 (all of it given to shared memory)
      waiters_.emplace_back(send(lines[k], sectors[k], memory::RequestKind::Read), load_index);
      ++load.outstanding;
      continue;
    }
    std::uint8_t missing = 0;
    for (unsigned s = 0; s < 4; ++s) {
      if (!memory::has_sector(sectors[k], s)) continue;
      if (!memory::has_sector(l->valid, s)) {
        missing = static_cast<std::uint8_t>(missing | (1u << s));
      } else if (l->pending[s] >= 0) {
        ++counters_.l1_sector_hits;
        waiters_.emplace_back(static_cast<std::uint32_t>(l->pending[s]), load_index);
        ++load.outstanding;
      } else {
        ++counters_.l1_sector_hits;
        load.ready = std::max(load.ready, l->fill_cycle[s]);
      }
    }
    if (missing != 0) {
      const std::uint32_t r = send(lines[k], missing, memory::RequestKind::Read);
      waiters_.emplace_back(r, load_index);
      ++load.outstanding;
      for (unsigned s = 0; s < 4; ++s) {
        if (memory::has_sector(missing, s)) l->pending[s] = static_cast<std::int32_t>(r);
      }
      l->valid |= missing;
    }
  }
  if (!waits) return;
  if (load.outstanding == 0) {
    for (unsigned i = 0; i < load.ndst; ++i) {
      t.ready[load.dst[i]] = load.ready;
      t.producer[load.dst[i]] = WarpState::LongScoreboard;
    }
    return;
  }
  for (unsigned i = 0; i < load.ndst; ++i) {
    t.ready[load.dst[i]] = kNever;
    t.producer[load.dst[i]] = WarpState::LongScoreboard;
  }
  t.pending += load.ndst == 0 ? 1 : load.ndst;
  loads_.push_back(load);
}

void SmModel::complete_requests() {
  const config::TimingConfig& c = *s_.timing;
  // Read answers come in through the SM's path from the L2, in the order they arrive.
  std::vector<std::uint32_t> answers;
  for (std::uint32_t i = 0; i < requests_.size(); ++i)
    if (requests_[i].kind == memory::RequestKind::Read) answers.push_back(i);
  std::sort(answers.begin(), answers.end(), [&](std::uint32_t a, std::uint32_t b) {
    return requests_[a].done != requests_[b].done ? requests_[a].done < requests_[b].done : a < b;
  });
  for (std::uint32_t i : answers) {
    memory::L2Request& r = requests_[i];
    r.done = fill_port_.deliver(r.done, std::uint64_t{32} * static_cast<unsigned>(
                                                                std::popcount(unsigned{r.sectors})));
  }
  fill_port_.forget_before(now_);
  for (std::size_t i = 0; i < requests_.size(); ++i) {
    const memory::L2Request& r = requests_[i];
    --unresolved_;
    in_flight_.push(r.done);
    // The kernel is complete when its last write has reached the L2.
    counters_.last_retire = std::max(counters_.last_retire, r.done);
    if (r.kind != memory::RequestKind::Read) continue;
    if (memory::CacheLine* l = l1_.find(r.line)) {
      for (unsigned s = 0; s < 4; ++s) {
        if (l->pending[s] == static_cast<std::int32_t>(i)) {
          l->pending[s] = -1;
          l->fill_cycle[s] = r.done;
        }
      }
    }
  }
  for (const auto& [request, load_index] : waiters_) {
    PendingLoad& load = loads_[load_index];
    // A store reaches the L2 half its latency after leaving the L1; the slice's queue does not
    // hold the warp (the naive transpose's occupancy: 55.3 % on the GPU, 54.6 % so, 67.2 % were
    // the warps held while the slices merge its partial writes).
    const memory::L2Request& r = requests_[request];
    load.ready = std::max(load.ready, load.until_arrival ? r.cycle + c.l2_latency / 2
                                                         : r.done + c.l1_hit_latency / 2);
    if (--load.outstanding != 0) continue;
    WarpTiming& t = timing_warp(load.warp);
    if (load.ndst == 0) t.drain_until = std::max(t.drain_until, load.ready);
    t.operands_known = false;
    for (unsigned i = 0; i < load.ndst; ++i) t.ready[load.dst[i]] = load.ready;
    t.pending -= load.ndst == 0 ? 1 : load.ndst;
    set_earliest(t, 0);
  }
  settle_residency(now_);
  // Warps throttled on a full miss queue may go now.
  std::fill(earliest_.begin(), earliest_.end(), 0);
  for (SubPartition& p : partitions_) p.wake = 0;
  requests_.clear();
  waiters_.clear();
  loads_.clear();
  atomics_.clear();
  seq_ = 0;
}

}  // namespace warpsim::scheduler
