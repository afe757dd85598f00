// Counters of one launch that do not depend on timing. Plain data; reports are printed elsewhere.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace warpsim::exec {

struct BranchStats {
  std::uint64_t executions = 0;     // warp-level
  std::uint64_t divergent = 0;      // executions that split the warp
  std::uint64_t threads_taken = 0;  // threads that went to the first target
  std::uint64_t threads_not_taken = 0;
};

// Per memory instruction of the IR (Nsight Compute's source-view columns).
struct MemoryLineStats {
  std::uint64_t executions = 0;        // warp-level
  std::uint64_t requests = 0;          // global: one per execution
  std::uint64_t sectors = 0;           // global: distinct 32-byte sectors
  std::uint64_t ideal_sectors = 0;     // global: bytes asked for / 32, per request
  std::uint64_t wavefronts = 0;        // shared and dsmem
  std::uint64_t ideal_wavefronts = 0;  // shared and dsmem
};

// Global memory, by operation: loads, stores, atomics whose result is used, reductions.
enum class GlobalOp : std::uint8_t { Load, Store, Atomic, Reduction };
struct GlobalOpStats {
  std::uint64_t requests = 0;
  std::uint64_t sectors = 0;
  std::uint64_t ideal_sectors = 0;
  std::uint64_t lines = 0;  // distinct 128-byte lines per request, summed
};

// Shared memory (this block's, or another's in the cluster), by operation.
enum class SharedOp : std::uint8_t { Load, Store, Atomic };
struct SharedOpStats {
  std::uint64_t instructions = 0;  // warp-level
  std::uint64_t wavefronts = 0;
  std::uint64_t ideal_wavefronts = 0;
  std::uint64_t conflicts() const { return wavefronts - ideal_wavefronts; }
};

struct MemoryStats {
  std::array<GlobalOpStats, 4> global{};
  std::array<SharedOpStats, 3> shared{};
  std::array<SharedOpStats, 3> dsmem{};
};

struct LaunchStats {
  std::uint64_t warp_instructions = 0;    // each instruction a warp issued with >= 1 active lane
  std::uint64_t thread_instructions = 0;  // summed over active lanes
  std::uint64_t branch_instructions = 0;  // br and jmp, warp-level
  std::uint64_t divergent_branches = 0;   // br executions whose lanes went both ways
  std::uint64_t barriers = 0;             // bar.sync executions, warp-level
  MemoryStats memory;
  std::vector<BranchStats> per_branch;      // per decoded instruction (br only)
  std::vector<MemoryLineStats> per_memory;  // per decoded instruction (ld, st, atom only)
};

}  // namespace warpsim::exec
