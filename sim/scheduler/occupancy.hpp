// Theoretical occupancy: how many blocks of a kernel fit on one SM at once, and which resource
// runs out first. The same rules as the CUDA toolkit's occupancy calculator (cuda_occupancy.h):
//   - warps: floor(max warps per SM / warps per block);
//   - blocks: the SM's block limit;
//   - registers: allocated per warp in units of sm.register_allocation_unit; the register file
//     is split evenly over the SM's sub-partitions and a warp lives in one of them, so the
//     limit is floor(per-partition registers / per-warp registers) * partitions / warps per
//     block; zero when a thread needs more than allowed or a block more than regsPerBlock;
//   - shared memory: (static + dynamic + the reserved 1 KB) rounded up to the allocation
//     unit, against the SM's shared memory (its carveout rounded up to a supported size);
//     zero when a block needs more than it may use (the opt-in maximum when over the default).
// Contract: pure function of its inputs; a launch that cannot run gives 0 blocks and a reason.
#pragma once

#include <cstdint>
#include <string>

#include "sim/config/gpu_config.hpp"

namespace warpsim::scheduler {

struct KernelResources {
  std::uint64_t block_threads = 0;
  std::uint64_t registers_per_thread = 0;
  std::uint64_t static_shared_bytes = 0;
  std::uint64_t dynamic_shared_bytes = 0;
};

enum class Limiter : std::uint8_t { Warps, Blocks, Registers, SharedMemory };

struct Occupancy {
  std::uint64_t limit_warps = 0;  // blocks per SM allowed by each resource
  std::uint64_t limit_blocks = 0;
  std::uint64_t limit_registers = 0;
  std::uint64_t limit_shared = 0;
  std::uint64_t blocks_per_sm = 0;   // the smallest of the four
  Limiter binding = Limiter::Warps;  // which one it is (the first in this order on ties)
  std::uint64_t warps_per_block = 0;
  std::uint64_t warps_per_sm = 0;
  std::uint64_t max_warps_per_sm = 0;
  std::uint64_t registers_per_block = 0;     // as allocated
  std::uint64_t shared_bytes_per_block = 0;  // as allocated (reserved and rounding included)
  std::uint64_t shared_bytes_per_sm = 0;     // the SM's shared memory for this kernel
  std::string reason;                        // why no block fits, when blocks_per_sm == 0
  double occupancy() const {
    return max_warps_per_sm == 0
               ? 0.0
               : static_cast<double>(warps_per_sm) / static_cast<double>(max_warps_per_sm);
  }
};

Occupancy compute_occupancy(const config::GpuConfig& gpu, const KernelResources& kernel);

// The shared memory an SM is configured with when the kernel runs: the smallest supported
// carveout that holds its resident blocks' shared memory (the driver's choice when the kernel
// states no preference); the rest of the SM's L1/shared storage is L1 cache.
std::uint64_t launch_shared_carveout(const config::GpuConfig& gpu, const Occupancy& o);

const char* limiter_name(Limiter l);

}  // namespace warpsim::scheduler
