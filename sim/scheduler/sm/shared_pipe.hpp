// The SM's shared-memory pipe (MIO): one pipe serves every sub-partition, each through a slower
// path of its own, with a queue in front. Shared-memory accesses take a time per wavefront;
// another block's shared memory (a cluster's distributed shared memory) is reached through the
// cluster's network: each 128-byte segment at the network's rate, whatever the bank conflicts,
// and at least a fixed time per access.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "sim/core/gpu_constants.hpp"

namespace warpsim::scheduler {

struct SharedPipeTiming {
  std::uint64_t queue_cycles = 0;  // how far ahead of the pipe an access may be queued
  std::uint64_t cycles_per_wavefront = 0;
  std::uint64_t partition_cycles_per_wavefront = 0;
  std::uint64_t dsmem_cycles_per_request = 0, dsmem_bytes_per_cycle = 1, dsmem_latency = 0;
};

class SharedPipe {
 public:
  // At most kMaxPartitions sub-partitions (sm.sub_partitions allows no more).
  static constexpr std::uint32_t kMaxPartitions = 64;
  explicit SharedPipe(const SharedPipeTiming& timing) : timing_(timing) {}

  // When the queue in front of the pipe has room for sub-partition `p`, if later than `at`
  // (else 0). The scheduler asks this of throttled warps every cycle: kept inline.
  std::uint64_t queue_full_until(std::uint32_t p, std::uint64_t at) const {
    const std::uint64_t busy_until = std::max(free_, partition_free_[p]);
    return busy_until > at + timing_.queue_cycles ? busy_until - timing_.queue_cycles : 0;
  }

  // Serves an access issued by sub-partition `p` at `now`: `wavefronts` of this block's shared
  // memory, or, when `remote`, `remote_segments` 128-byte segments of other blocks'. Returns
  // when the pipe is done with it (the instruction's latency follows).
  std::uint64_t serve(std::uint32_t p, std::uint64_t now, unsigned wavefronts, bool remote,
                      unsigned remote_segments) {
    std::uint64_t& mine = partition_free_[p];
    const std::uint64_t start = std::max({now, free_, mine});
    const std::uint64_t busy =
        remote ? std::max<std::uint64_t>(timing_.dsmem_cycles_per_request,
                                         (std::uint64_t{remote_segments} * kLineBytes +
                                          timing_.dsmem_bytes_per_cycle - 1) /
                                             timing_.dsmem_bytes_per_cycle)
               : wavefronts * timing_.cycles_per_wavefront;
    free_ = start + busy;
    mine = start + std::max(busy, wavefronts * timing_.partition_cycles_per_wavefront);
    return std::max(free_, mine) + (remote ? timing_.dsmem_latency : 0);
  }

 private:
  // In the object, not behind a pointer: the scheduler reads them for every throttled warp.
  std::uint64_t free_ = 0;  // when the SM's pipe is free
  SharedPipeTiming timing_;
  std::array<std::uint64_t, kMaxPartitions> partition_free_{};  // each partition's path to it
};

}  // namespace warpsim::scheduler
