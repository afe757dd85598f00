// Between intervals, the SMs' L2 requests of the interval resolved in the shared L2 and DRAM,
// in (cycle, SM, sequence) order: all on one thread, or each memory side on a thread of its own
// (the sides share no state, so the outcome is the serial one).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sim/core/exec/global_memory.hpp"
#include "sim/memory/memory_system.hpp"
#include "sim/scheduler/engine/request_order.hpp"
#include "sim/scheduler/sm/sm_model.hpp"

namespace warpsim::scheduler {

class L2Resolver {
 public:
  L2Resolver(memory::MemorySystem& system, std::vector<std::unique_ptr<SmModel>>& sms,
             std::uint32_t threads);

  // The launch's buffers put in the L2, as the host's copies leave them.
  void preload(const exec::GlobalMemory& memory);
  // Whether this interval's `requests` are worth resolving side by side: more than one thread
  // and side, enough requests to pay for the threads' meeting, and no atomics (an atomic is
  // applied at a slice that may be on another side than its line).
  bool in_parallel(std::size_t requests) const;
  // Every request of the interval, on this thread.
  void resolve_all(std::uint64_t boundary);
  // Share `k` of `threads` of the memory sides.
  void resolve_share(std::uint32_t k, std::uint32_t threads, std::uint64_t boundary);

 private:
  bool parallel_sides() const { return threads_ > 1 && system_.sides() > 1; }
  void resolve_side(std::uint32_t side, std::uint64_t boundary);

  // Below this many requests in an interval, the threads' meeting costs more than it saves.
  static constexpr std::size_t kParallelResolveRequests = 512;

  memory::MemorySystem& system_;
  std::vector<std::unique_ptr<SmModel>>& sms_;
  std::uint32_t threads_;
  // By memory side (the serial path uses the first): an interval's requests and their sorting.
  std::vector<std::vector<memory::L2Request*>> side_requests_;
  std::vector<RequestOrder> side_order_;
};

}  // namespace warpsim::scheduler
