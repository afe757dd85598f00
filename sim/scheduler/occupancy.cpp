#include "sim/scheduler/occupancy.hpp"

#include <algorithm>
#include <limits>

namespace warpsim::scheduler {
namespace {

constexpr std::uint64_t kWarpSize = 32;
constexpr std::uint64_t kUnlimited = std::numeric_limits<std::uint64_t>::max();

std::uint64_t round_up(std::uint64_t v, std::uint64_t unit) {
  return (v + unit - 1) / unit * unit;
}

// The smallest carveout the hardware supports that holds `bytes`; `bytes` itself when none
// does or the config lists none.
std::uint64_t carveout_holding(const config::GpuConfig& gpu, std::uint64_t bytes) {
  for (std::uint64_t size : gpu.shared_memory_carveouts) {
    if (bytes <= size) return size;
  }
  return bytes;
}

// The SM's shared memory: the configured size rounded up to a carveout the hardware supports.
std::uint64_t shared_per_sm(const config::GpuConfig& gpu) {
  return carveout_holding(gpu, gpu.shared_memory_per_sm);
}

void register_limit(const config::GpuConfig& gpu, const KernelResources& k, Occupancy& o) {
  const std::uint64_t per_warp =
      round_up(k.registers_per_thread * kWarpSize, gpu.register_allocation_unit);
  o.registers_per_block = per_warp * o.warps_per_block;
  // A block's warps spread over the sub-partitions, so hardware assumes a whole number of
  // warps per partition when checking the per-block limit.
  const std::uint64_t assumed = per_warp * round_up(o.warps_per_block, gpu.sub_partitions);
  if (k.registers_per_thread > gpu.max_registers_per_thread) {
    o.reason = "a thread uses more registers than the " +
               std::to_string(gpu.max_registers_per_thread) + " allowed";
    o.limit_registers = 0;
  } else if (assumed > gpu.max_registers_per_block ||
             o.registers_per_block > gpu.max_registers_per_block) {
    o.reason = "a block needs more registers than the " +
               std::to_string(gpu.max_registers_per_block) + " a block may use";
    o.limit_registers = 0;
  } else if (per_warp == 0) {
    o.limit_registers = kUnlimited;
  } else {
    const std::uint64_t warps_per_partition =
        (gpu.registers_per_sm / gpu.sub_partitions) / per_warp;
    o.limit_registers = warps_per_partition * gpu.sub_partitions / o.warps_per_block;
  }
}

void shared_limit(const config::GpuConfig& gpu, const KernelResources& k, Occupancy& o) {
  const std::uint64_t used =
      k.static_shared_bytes + k.dynamic_shared_bytes + gpu.reserved_shared_memory_per_block;
  o.shared_bytes_per_block = round_up(used, gpu.shared_memory_allocation_unit);
  o.shared_bytes_per_sm = shared_per_sm(gpu);
  // A kernel that needs more than the default per-block amount opts in to the larger one
  // (cudaFuncAttributeMaxDynamicSharedMemorySize); the reserved bytes count toward the need,
  // as in the toolkit's calculator.
  const std::uint64_t allowed =
      (used > gpu.shared_memory_per_block ? gpu.shared_memory_per_block_optin
                                          : gpu.shared_memory_per_block) +
      gpu.reserved_shared_memory_per_block;
  if (o.shared_bytes_per_block > allowed) {
    o.reason = "a block needs " + std::to_string(o.shared_bytes_per_block) +
               " bytes of shared memory; at most " + std::to_string(allowed) + " are allowed";
    o.limit_shared = 0;
  } else if (o.shared_bytes_per_block == 0) {
    o.limit_shared = kUnlimited;
  } else {
    o.limit_shared = o.shared_bytes_per_sm / o.shared_bytes_per_block;
  }
}

// The limit a block exceeds when none fits though each per-block limit holds: the SM itself is
// too small for one block (a config with fewer resident threads, say, than a block has).
std::string why_no_block_fits(const config::GpuConfig& gpu, const KernelResources& k,
                              const Occupancy& o) {
  if (o.limit_warps == 0) {
    return "a block has " + std::to_string(o.warps_per_block) + " warps (" +
           std::to_string(k.block_threads) + " threads); an SM holds at most " +
           std::to_string(o.max_warps_per_sm) +
           " (sm.max_threads = " + std::to_string(gpu.max_threads_per_sm) + "), " +
           std::to_string(o.warps_per_block - o.max_warps_per_sm) + " too many";
  }
  if (o.limit_blocks == 0) return "the SM holds no blocks (sm.max_blocks = 0)";
  if (o.limit_registers == 0) {
    const std::uint64_t per_partition = gpu.registers_per_sm / gpu.sub_partitions;
    return "a block needs " + std::to_string(o.registers_per_block) +
           " registers, spread over the SM's " + std::to_string(gpu.sub_partitions) +
           " sub-partitions of " + std::to_string(per_partition) +
           " registers each (sm.registers = " + std::to_string(gpu.registers_per_sm) +
           "): the block's warps do not fit";
  }
  return "a block needs " + std::to_string(o.shared_bytes_per_block) +
         " bytes of shared memory; the SM has " + std::to_string(o.shared_bytes_per_sm) + ", " +
         std::to_string(o.shared_bytes_per_block - o.shared_bytes_per_sm) + " too few";
}

}  // namespace

Occupancy compute_occupancy(const config::GpuConfig& gpu, const KernelResources& k) {
  Occupancy o;
  o.max_warps_per_sm = gpu.max_warps_per_sm();
  o.warps_per_block = (k.block_threads + kWarpSize - 1) / kWarpSize;
  if (k.block_threads == 0 || k.block_threads > gpu.max_threads_per_block) {
    o.reason = "a block has " + std::to_string(k.block_threads) + " threads; 1 to " +
               std::to_string(gpu.max_threads_per_block) + " are allowed";
    return o;
  }
  o.limit_warps = o.max_warps_per_sm / o.warps_per_block;
  o.limit_blocks = gpu.max_blocks_per_sm;
  register_limit(gpu, k, o);
  shared_limit(gpu, k, o);
  o.blocks_per_sm = std::min({o.limit_warps, o.limit_blocks, o.limit_registers, o.limit_shared});
  if (o.blocks_per_sm == 0 && o.reason.empty()) o.reason = why_no_block_fits(gpu, k, o);
  const std::pair<std::uint64_t, Limiter> order[] = {{o.limit_warps, Limiter::Warps},
                                                     {o.limit_blocks, Limiter::Blocks},
                                                     {o.limit_registers, Limiter::Registers},
                                                     {o.limit_shared, Limiter::SharedMemory}};
  for (const auto& [limit, which] : order) {
    if (limit == o.blocks_per_sm) {
      o.binding = which;
      break;
    }
  }
  o.warps_per_sm = o.blocks_per_sm * o.warps_per_block;
  return o;
}

const char* limiter_name(Limiter l) {
  switch (l) {
    case Limiter::Warps:
      return "warps (threads)";
    case Limiter::Blocks:
      return "blocks";
    case Limiter::Registers:
      return "registers";
    case Limiter::SharedMemory:
      return "shared memory";
  }
  return "";
}

std::uint64_t launch_shared_carveout(const config::GpuConfig& gpu, const Occupancy& o) {
  const std::uint64_t needed = o.blocks_per_sm * o.shared_bytes_per_block;
  const std::vector<std::uint64_t>& sizes = gpu.shared_memory_carveouts;  // ascending
  if (sizes.empty() || needed > sizes.back()) return std::max(needed, o.shared_bytes_per_sm);
  return carveout_holding(gpu, needed);
}

}  // namespace warpsim::scheduler
