// The SM's global-memory path: the load/store unit's tag stage, the L1's sectors (hits,
// misses, sectors already on their way), the miss queue, every miss, store and atomic sent
// toward the L2, and, between intervals, the L2's answers delivered through the SM's fill port
// to the waiting loads. Local memory shares the tag stage.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "sim/config/gpu_config.hpp"
#include "sim/memory/fetch_table.hpp"
#include "sim/memory/fill_port.hpp"
#include "sim/memory/memory_system.hpp"
#include "sim/memory/sector_cache.hpp"
#include "sim/scheduler/inst_timing.hpp"

namespace warpsim::scheduler {

// One warp's global-memory instruction at issue.
struct GlobalAccess {
  std::uint32_t warp = 0;
  MemoryOp op = MemoryOp::Load;
  const std::uint32_t* writes = nullptr;  // registers its result goes to
  std::uint32_t nwrites = 0;
  unsigned access_bytes = 4;                 // per lane
  std::uint32_t mask = 0;                    // active lanes
  const std::uint64_t* addresses = nullptr;  // per lane
  unsigned lines = 0;                        // distinct 128-byte lines
  std::int32_t atomic = -1;   // atomics: its index among the interval's deferred atomics
  bool local = false;         // local memory: a store also allocates its whole sectors in the L1
  bool float_atomic = false;  // atomics: the update is a floating-point add
};

// What the warp waits for after issuing it.
struct GlobalIssue {
  // Its result registers, or its exit when it has none, wait for the answer.
  bool waits = false;
  bool pending = false;          // the answer comes between intervals
  std::uint64_t ready = 0;       // otherwise: when its registers are ready
  std::uint64_t exit_after = 0;  // when it does not wait: the warp exits no sooner
};

// A pending access answered: its registers (or, with none, the warp's exit) ready at `ready`.
struct AnsweredAccess {
  std::uint32_t warp = 0;
  std::uint32_t writes[4]{};
  std::uint32_t nwrites = 0;
  std::uint64_t ready = 0;
};

class L1Unit {
 public:
  L1Unit(const config::TimingConfig& timing, std::uint64_t l1_bytes, std::uint32_t sm);

  // When a global or local access issued at `at` can enter the tag stage (its queue has room)
  // and the miss queue has room at `now`, if later than `at`; else 0.
  // The scheduler asks this of every global or local instruction it considers: kept inline.
  std::uint64_t throttled_until(std::uint64_t at, std::uint64_t now) {
    if (lsu_free_ > at + timing_.lg_queue_cycles) return lsu_free_ - timing_.lg_queue_cycles;
    if (outstanding_misses(now) >= timing_.l1_max_outstanding_lines)
      return in_flight_.empty() ? memory::kNever : in_flight_.top();
    return 0;
  }
  GlobalIssue issue(const GlobalAccess& a, std::uint64_t now);

  // Between intervals: this interval's L2 requests; then their answers, at `now`.
  std::vector<memory::L2Request>& requests() { return requests_; }
  const std::vector<AnsweredAccess>& complete(std::uint64_t now);

  // No request waits to go to the L2 or for its answer: complete() would answer nothing.
  bool quiet() const { return requests_.empty() && unresolved_ == 0 && waiters_.empty(); }
  std::uint64_t sector_lookups() const { return sector_lookups_; }
  std::uint64_t sector_hits() const { return sector_hits_; }
  // When the last request answered so far was done (a kernel ends when its writes reach the L2).
  std::uint64_t last_done() const { return last_done_; }

 private:
  struct PendingAccess {
    AnsweredAccess answer;
    std::uint32_t outstanding = 0;
    bool until_arrival = false;  // a store that holds the exit only until it reaches the L2
  };
  // A request toward the L2, by the lines of issue(): kept inline there.
  std::uint32_t send(std::uint64_t tagged, std::uint64_t line, std::uint8_t sectors,
                     memory::RequestKind kind, std::int32_t atomic) {
    memory::L2Request r;
    r.cycle = tagged;
    r.sm = sm_;
    r.seq = seq_++;
    r.line = line;
    r.sectors = sectors;
    r.kind = kind;
    r.atomic = atomic;
    requests_.push_back(r);
    ++unresolved_;  // stores too: the L1's queue toward the L2 is bounded
    return static_cast<std::uint32_t>(requests_.size() - 1);
  }
  // A line the warp's previous store wrote in part, and its 4-byte words written so far.
  struct PartlyWritten {
    std::uint64_t line = 0;
    std::uint32_t words = 0;
  };
  // What a warp's previous store left for the next to merge into.
  struct PreviousStore {
    std::vector<PartlyWritten> lines;
    std::uint32_t mask = 0;            // its lanes
    std::uint64_t chunk[kWarpSize]{};  // each lane's 16-byte chunk
  };
  // A local store's line: its sectors written whole (`written`: each sector's words) become valid.
  void allocate_written(std::uint64_t line, const std::uint32_t* written, std::uint64_t tagged);
  // Marks a store's write requests [first, first + count) (one per line, `words` their written
  // words) merged where they add to what the warp's previous store left partly written.
  void merge_writes(const GlobalAccess& a, std::uint32_t first, unsigned count,
                    const std::uint32_t* words);
  std::uint64_t outstanding_misses(std::uint64_t now) {
    while (!in_flight_.empty() && in_flight_.top() <= now) in_flight_.pop();
    return unresolved_ + in_flight_.size();
  }

  // What the scheduler reads for every global instruction it considers comes first.
  const config::TimingConfig& timing_;
  std::uint64_t lsu_free_ = 0;
  std::uint64_t unresolved_ = 0;
  std::priority_queue<std::uint64_t, std::vector<std::uint64_t>, std::greater<>> in_flight_;
  std::uint32_t sm_;
  std::uint32_t seq_ = 0;
  memory::SectorCache l1_;
  memory::FillPort fill_port_;  // answers from the L2 into this SM
  // The global pages (2 MiB, as the driver maps large allocations) this SM has translated.
  static constexpr std::uint64_t kLinesPerPage = (std::uint64_t{2} << 20) / 128;
  memory::FetchTable<1024> pages_;
  std::vector<memory::L2Request> requests_;
  std::vector<PendingAccess> pending_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> waiters_;  // (request, pending access)
  std::vector<AnsweredAccess> answered_;
  std::vector<PreviousStore> previous_store_;      // by warp
  std::vector<PartlyWritten> partly_written_now_;  // merge_writes' scratch, kept to reuse
  std::uint64_t sector_lookups_ = 0, sector_hits_ = 0, last_done_ = 0;
};

}  // namespace warpsim::scheduler
