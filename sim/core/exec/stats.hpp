// Counters of one launch that do not depend on timing. Plain data; reports are printed elsewhere.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sim/core/exec/counter_fields.hpp"

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

// Every counter of each struct, for merging (counter_fields.hpp): a counter added to a struct
// but not listed here changes the struct's size and fails to compile.
template <>
inline constexpr auto kCounterFields<BranchStats> =
    std::array{&BranchStats::executions, &BranchStats::divergent, &BranchStats::threads_taken,
               &BranchStats::threads_not_taken};
template <>
inline constexpr auto kCounterFields<MemoryLineStats> =
    std::array{&MemoryLineStats::executions, &MemoryLineStats::requests,
               &MemoryLineStats::sectors,    &MemoryLineStats::ideal_sectors,
               &MemoryLineStats::wavefronts, &MemoryLineStats::ideal_wavefronts};
template <>
inline constexpr auto kCounterFields<GlobalOpStats> =
    std::array{&GlobalOpStats::requests, &GlobalOpStats::sectors, &GlobalOpStats::ideal_sectors,
               &GlobalOpStats::lines};
template <>
inline constexpr auto kCounterFields<SharedOpStats> = std::array{
    &SharedOpStats::instructions, &SharedOpStats::wavefronts, &SharedOpStats::ideal_wavefronts};
template <>
inline constexpr auto kCounterFields<LaunchStats> = std::array{
    &LaunchStats::warp_instructions, &LaunchStats::thread_instructions,
    &LaunchStats::branch_instructions, &LaunchStats::divergent_branches, &LaunchStats::barriers};
static_assert(all_counters_listed<BranchStats>() && all_counters_listed<MemoryLineStats>() &&
              all_counters_listed<GlobalOpStats>() && all_counters_listed<SharedOpStats>());
// LaunchStats: its listed counters, the memory statistics and the two per-instruction vectors.
static_assert(sizeof(MemoryStats) == 4 * sizeof(GlobalOpStats) + 6 * sizeof(SharedOpStats));
static_assert(sizeof(LaunchStats) == kCounterFields<LaunchStats>.size() * sizeof(std::uint64_t) +
                                         sizeof(MemoryStats) + sizeof(std::vector<BranchStats>) +
                                         sizeof(std::vector<MemoryLineStats>));

// Adds every counter of `part` to `total`; both have per-instruction vectors of the same size.
inline void add_launch_stats(LaunchStats& total, const LaunchStats& part) {
  add_counters(total, part);
  for (std::size_t k = 0; k < total.memory.global.size(); ++k)
    add_counters(total.memory.global[k], part.memory.global[k]);
  for (std::size_t k = 0; k < total.memory.shared.size(); ++k) {
    add_counters(total.memory.shared[k], part.memory.shared[k]);
    add_counters(total.memory.dsmem[k], part.memory.dsmem[k]);
  }
  for (std::size_t i = 0; i < total.per_branch.size(); ++i)
    add_counters(total.per_branch[i], part.per_branch[i]);
  for (std::size_t i = 0; i < total.per_memory.size(); ++i)
    add_counters(total.per_memory[i], part.per_memory[i]);
}

}  // namespace warpsim::exec
