#include "sim/scheduler/sm/l1_unit.hpp"

#include <algorithm>
#include <bit>

#include "sim/core/gpu_constants.hpp"
#include "sim/memory/coalescing.hpp"

namespace warpsim::scheduler {
namespace {

// An atomic's request for `line`: how many lanes update it, which of its words, how many words
// each lane updates, and the most lanes on one element (the L2 applies those one after another).
void count_atomic_lanes(const GlobalAccess& a, std::uint64_t line, memory::L2Request& r) {
  const unsigned lane_words = std::clamp(a.access_bytes / 4, 1u, 4u);
  unsigned lanes = 0;
  std::uint32_t updated = 0;
  std::uint8_t on_word[memory::kLineBytes / 4] = {};  // lanes on each of the line's words
  std::uint8_t most = 0;
  for (std::uint32_t m = a.mask; m != 0; m &= m - 1) {
    const std::uint64_t address = a.addresses[std::countr_zero(m)];
    if (address / memory::kLineBytes != line) continue;
    ++lanes;
    const auto word = static_cast<unsigned>(address % memory::kLineBytes / 4);
    updated |= ((1u << lane_words) - 1) << word;
    most = std::max(most, ++on_word[word]);
  }
  r.lanes = static_cast<std::uint8_t>(lanes);
  r.lane_words = static_cast<std::uint8_t>(lane_words);
  r.words = updated;
  r.lanes_on_one_word = most;
  r.float_update = a.float_atomic;
}

}  // namespace

L1Unit::L1Unit(const config::TimingConfig& timing, std::uint64_t l1_bytes, std::uint32_t sm)
    : timing_(timing),
      sm_(sm),
      l1_(l1_bytes, timing.l1_ways),
      fill_port_(timing.sm_l2_bytes_per_cycle),
      pages_(timing.translation_miss_latency) {}

GlobalIssue L1Unit::issue(const GlobalAccess& a, std::uint64_t now) {
  const config::TimingConfig& c = timing_;
  const bool is_load = a.op == MemoryOp::Load;
  const bool is_atomic = a.op == MemoryOp::Atomic;
  const std::uint64_t start = std::max(now, lsu_free_);
  // A load or atomic holds the tag stage a line at a time, but no less than
  // lsu_min_cycles_per_request (l1_hits.kir: a request of one or two lines takes 2.2 cycles, of
  // four 4.1, of 32 32.2).
  lsu_free_ =
      start + (a.op == MemoryOp::Store ? std::max(1u, a.lines) * c.lsu_store_cycles_per_line
                                       : std::max(std::uint64_t{a.lines} * c.lsu_cycles_per_line,
                                                  c.lsu_min_cycles_per_request));
  std::uint64_t tagged = lsu_free_;
  // The request's lines, each with the sectors it needs, in first-touch order.
  memory::LinesTouched touched;
  std::uint32_t written[kWarpSize][kSectorsPerLine];  // stores: each sector's 4-byte words
  const unsigned words = std::max(1u, a.access_bytes / 4);
  if (is_load) {
    memory::group_by_line(a.addresses, a.mask, touched);
  } else {
    std::uint32_t started = 0;  // lines whose rows of `written` are cleared
    memory::group_by_line(a.addresses, a.mask, touched, [&](unsigned lane, unsigned k, unsigned s) {
      if ((started >> k & 1u) == 0) {
        std::fill_n(written[k], kSectorsPerLine, 0u);
        started |= 1u << k;
      }
      const auto first_word = static_cast<unsigned>((a.addresses[lane] % kSectorBytes) / 4);
      for (unsigned w = first_word; w < std::min(8u, first_word + words); ++w)
        written[k][s] |= 1u << w;
    });
  }
  const unsigned nlines = touched.count;
  const std::uint64_t* lines = touched.line;
  const std::uint8_t* sectors = touched.sectors;
  // A global page the SM has not translated in this launch holds the access after the tag
  // stage until its translation arrives (local memory's frames are the model's own addresses).
  if (timing_.translation_miss_latency != 0 && !a.local) {
    std::uint64_t translated = tagged;
    for (unsigned k = 0; k < nlines; ++k) {
      if (k > 0 && lines[k] / kLinesPerPage == lines[k - 1] / kLinesPerPage) continue;
      translated = std::max(translated, pages_.ready(lines[k] / kLinesPerPage, tagged));
    }
    tagged = translated;
  }
  // Loads and atomics wait for their data. Stores, and atomics whose old value nobody reads
  // (reductions: PTX red), hold the warp's exit until the L2 has acknowledged them, until they
  // have reached it, or until the L1 has taken them (store_exit): on the H200 a warp of
  // atom_lines16 leaves while its reductions queue at their slice (38 % occupancy, where
  // waiting for them would give 67 %).
  const bool posted = a.op == MemoryOp::Store || (is_atomic && a.nwrites == 0);
  GlobalIssue out;
  out.waits = !posted || c.store_exit != config::StoreExit::Accepted;
  if (!out.waits) out.exit_after = tagged;
  const auto pending_index = static_cast<std::uint32_t>(pending_.size());
  PendingAccess p;
  p.answer.warp = a.warp;
  p.answer.nwrites = a.nwrites;
  std::copy(a.writes, a.writes + a.nwrites, p.answer.writes);
  p.answer.ready = tagged + (a.local ? c.local_hit_latency : c.l1_hit_latency) - 1;
  p.until_arrival = posted && c.store_exit == config::StoreExit::Arrived;
  bool atomic_attached = false;
  auto wait_for = [&](std::uint32_t request) {
    waiters_.emplace_back(request, pending_index);
    ++p.outstanding;
  };
  std::uint32_t line_words[kWarpSize];  // stores: each line's written words
  const auto first_request = static_cast<std::uint32_t>(requests_.size());
  for (unsigned k = 0; k < nlines; ++k) {
    if (!is_load) {
      const auto kind = is_atomic ? memory::RequestKind::Atomic : memory::RequestKind::Write;
      // A warp's atomic is applied once, with the first of its lines' requests.
      const std::uint32_t r =
          send(tagged, lines[k], sectors[k], kind, is_atomic && !atomic_attached ? a.atomic : -1);
      atomic_attached = atomic_attached || is_atomic;
      if (is_atomic) {
        count_atomic_lanes(a, lines[k], requests_[r]);
      } else {
        line_words[k] = 0;
        for (unsigned s = 0; s < memory::kSectorsPerLine; ++s) {
          if (!memory::has_sector(sectors[k], s)) continue;
          line_words[k] |= written[k][s] << (8 * s);
          if (written[k][s] != 0xffu)
            requests_[r].partial = static_cast<std::uint8_t>(requests_[r].partial | (1u << s));
        }
        requests_[r].words = line_words[k];
      }
      if (out.waits) wait_for(r);
      if (a.local && !is_atomic) {
        allocate_written(lines[k], written[k], tagged);
        continue;
      }
      // Write-through: a cached copy is updated, nothing is allocated.
      if (memory::CacheLine* l = l1_.find(lines[k]); l != nullptr && !is_atomic) {
        for (unsigned s = 0; s < memory::kSectorsPerLine; ++s) {
          if (memory::has_sector(sectors[k], s) && l->pending[s] < 0) l->fill_cycle[s] = tagged;
        }
      }
      continue;
    }
    sector_lookups_ += static_cast<unsigned>(std::popcount(unsigned{sectors[k]}));
    memory::Eviction evicted;
    memory::CacheLine* l = l1_.touch(lines[k], evicted);
    if (l == nullptr) {  // no L1 (all of it given to shared memory)
      wait_for(send(tagged, lines[k], sectors[k], memory::RequestKind::Read, -1));
      continue;
    }
    std::uint8_t missing = 0;
    for (unsigned s = 0; s < memory::kSectorsPerLine; ++s) {
      if (!memory::has_sector(sectors[k], s)) continue;
      if (!memory::has_sector(l->valid, s)) {
        missing = static_cast<std::uint8_t>(missing | (1u << s));
      } else if (l->pending[s] >= 0) {
        ++sector_hits_;
        wait_for(static_cast<std::uint32_t>(l->pending[s]));
      } else {
        ++sector_hits_;
        p.answer.ready = std::max(p.answer.ready, l->fill_cycle[s]);
      }
    }
    if (missing != 0) {
      const std::uint32_t r = send(tagged, lines[k], missing, memory::RequestKind::Read, -1);
      wait_for(r);
      for (unsigned s = 0; s < memory::kSectorsPerLine; ++s) {
        if (memory::has_sector(missing, s)) l->pending[s] = static_cast<std::int32_t>(r);
      }
      l->valid |= missing;
    }
  }
  if (a.op == MemoryOp::Store) merge_writes(a, first_request, nlines, line_words);
  if (!out.waits) return out;
  if (p.outstanding == 0) {
    out.ready = p.answer.ready;
    return out;
  }
  out.pending = true;
  pending_.push_back(p);
  return out;
}

void L1Unit::allocate_written(std::uint64_t line, const std::uint32_t* written,
                              std::uint64_t tagged) {
  // Local stores write through to the L2 like global ones, but keep their data in the L1: on
  // the H200 a local load after local stores to the same words hits (local_memory.kir, Nsight
  // Compute: every sector of local_chase's and local_rmw's loads a hit at one warp an SM, and
  // every local store's sectors written to the L2). Sectors written whole become valid.
  memory::Eviction evicted;
  memory::CacheLine* l = l1_.touch(line, evicted);
  if (l == nullptr) return;  // no L1 (all of it given to shared memory)
  for (unsigned s = 0; s < memory::kSectorsPerLine; ++s) {
    if (written[s] != 0xffu) continue;
    l->valid = static_cast<std::uint8_t>(l->valid | (1u << s));
    l->pending[s] = -1;
    l->fill_cycle[s] = tagged;
  }
}

void L1Unit::merge_writes(const GlobalAccess& a, std::uint32_t first, unsigned count,
                          const std::uint32_t* words) {
  // The L2 merges a store's partly written lines into what the same warp's previous store left
  // partly written there, while that store wrote at most l2_write_merge_lines lines, the two
  // write different words, and in the share of its lanes that write in the 16-byte chunk they
  // wrote before
  // (strided_store_rounds.kir: instructions 16 bytes a lane apart, each writing one word of
  // every 16, cost little more than a whole-sector store when the next instructions fill the
  // other words, s4w2 and s4w4; as much as unmerged ones when each store spans 8 lines, s8w4 and
  // d4w4, or when the next store writes the same words again, s4w1; lanes 12 bytes apart, a
  // quarter of which move on to the next chunk each store, between, s3w3). A line whose sectors
  // are all written in full leaves them.
  if (previous_store_.size() <= a.warp) previous_store_.resize(a.warp + 1);
  PreviousStore& previous = previous_store_[a.warp];
  std::vector<PartlyWritten>& now = partly_written_now_;
  now.clear();
  for (unsigned k = 0; count <= timing_.l2_write_merge_lines && k < count; ++k) {
    memory::L2Request& r = requests_[first + k];
    std::uint32_t so_far = words[k];
    for (const PartlyWritten& w : previous.lines) {
      if (w.line != r.line || (w.words & words[k]) != 0) continue;
      unsigned lanes = 0, staying = 0;  // lanes writing this line; those in their last chunk
      for (std::uint32_t m = a.mask; m != 0; m &= m - 1) {
        const auto lane = static_cast<unsigned>(std::countr_zero(m));
        if (a.addresses[lane] / memory::kLineBytes != r.line) continue;
        ++lanes;
        if ((previous.mask >> lane & 1u) != 0 && previous.chunk[lane] == a.addresses[lane] / 16)
          ++staying;
      }
      if (staying == 0) continue;
      r.lanes = static_cast<std::uint8_t>(lanes);
      r.merged_lanes = static_cast<std::uint8_t>(staying);
      so_far |= w.words;
    }
    std::uint32_t sector_words = 0;  // every word of the sectors the request touches
    for (unsigned s = 0; s < memory::kSectorsPerLine; ++s)
      if (memory::has_sector(r.sectors, s)) sector_words |= 0xffu << (8 * s);
    if ((so_far & sector_words) != sector_words) now.push_back({r.line, so_far});
  }
  std::swap(previous.lines, now);
  // The lanes' chunks matter only to a store that can merge: one after partly written lines.
  if (previous.lines.empty()) return;
  previous.mask = a.mask;
  for (std::uint32_t m = a.mask; m != 0; m &= m - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(m));
    previous.chunk[lane] = a.addresses[lane] / 16;
  }
}

const std::vector<AnsweredAccess>& L1Unit::complete(std::uint64_t now) {
  const config::TimingConfig& c = timing_;
  // Read answers come in through the SM's path from the L2, in the order they arrive.
  std::vector<std::uint32_t> answers;
  for (std::uint32_t i = 0; i < requests_.size(); ++i)
    if (requests_[i].kind == memory::RequestKind::Read) answers.push_back(i);
  std::sort(answers.begin(), answers.end(), [&](std::uint32_t a, std::uint32_t b) {
    return requests_[a].done != requests_[b].done ? requests_[a].done < requests_[b].done : a < b;
  });
  for (std::uint32_t i : answers) {
    memory::L2Request& r = requests_[i];
    r.done =
        fill_port_.deliver(r.done, std::uint64_t{memory::kSectorBytes} *
                                       static_cast<unsigned>(std::popcount(unsigned{r.sectors})));
  }
  fill_port_.forget_before(now);
  for (std::size_t i = 0; i < requests_.size(); ++i) {
    const memory::L2Request& r = requests_[i];
    --unresolved_;
    in_flight_.push(r.done);
    last_done_ = std::max(last_done_, r.done);
    if (r.kind != memory::RequestKind::Read) continue;
    if (memory::CacheLine* l = l1_.find(r.line)) {
      for (unsigned s = 0; s < memory::kSectorsPerLine; ++s) {
        if (l->pending[s] == static_cast<std::int32_t>(i)) {
          l->pending[s] = -1;
          l->fill_cycle[s] = r.done;
        }
      }
    }
  }
  answered_.clear();
  for (const auto& [request, index] : waiters_) {
    PendingAccess& p = pending_[index];
    // A store reaches the L2 half its latency after leaving the L1; the slice's queue does not
    // hold the warp (the naive transpose's occupancy: 55.3 % on the GPU, 54.6 % so, 67.2 % were
    // the warps held while the slices merge its partial writes).
    const memory::L2Request& r = requests_[request];
    p.answer.ready = std::max(p.answer.ready, p.until_arrival ? r.cycle + c.l2_latency / 2
                                                              : r.done + c.l1_hit_latency / 2);
    if (--p.outstanding == 0) answered_.push_back(p.answer);
  }
  requests_.clear();
  waiters_.clear();
  pending_.clear();
  seq_ = 0;
  return answered_;
}

}  // namespace warpsim::scheduler
