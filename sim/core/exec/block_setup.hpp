// Block life cycle shared by the functional executor and the timing model: preparing a block's
// warps (SIMT stacks, special registers, shared memory), releasing barriers every live thread
// has reached, and naming the barrier a deadlocked block waits at.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/exec/state.hpp"

namespace warpsim::exec {

// Makes `b` block `index` (rank `rank` in its cluster), every warp Ready at the first
// instruction. Reuses b's storage: running many blocks through one BlockState allocates once.
void prepare_block(const Program& program, const LaunchSpec& launch, BlockState& b,
                   const Dim3& index, std::uint32_t rank);

// Releases bar.sync in `b` when every live thread has arrived; true when warps resumed.
bool release_block_barrier(BlockState& b);
// Opens every named barrier (bar.sync ID, COUNT) whose phase has its COUNT: the warps released
// (bit = warp index; a phase bar.arrive alone completed releases none, and returns 0).
std::uint32_t release_named_barriers(BlockState& b);

// Releases cluster.sync when every live thread of the cluster has arrived.
bool release_cluster_barrier(std::vector<BlockState>& cluster);

// Both of the above over one cluster.
bool release_barriers(std::vector<BlockState>& cluster);

// Every warp of `cluster` waits and no barrier can open: throws the KernelFault naming the
// barrier and the threads it waits for.
[[noreturn]] void report_deadlock(ExecContext& ctx, std::vector<BlockState>& cluster);

}  // namespace warpsim::exec
