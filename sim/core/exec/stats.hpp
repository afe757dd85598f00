// Counters of one launch that do not depend on timing. Plain data; reports are printed elsewhere.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/exec/counter_fields.hpp"
#include "sim/core/exec/device_printf.hpp"

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

// Shared memory (this block's, or another's in the cluster), by operation. CopyIn: the shared
// writes of an asynchronous copy (SASS LDGSTS), whose wavefronts the GPU counts among all
// shared wavefronts but whose instructions are not smsp__sass_inst_executed_op_shared_st's.
enum class SharedOp : std::uint8_t { Load, Store, Atomic, CopyIn };
struct SharedOpStats {
  std::uint64_t instructions = 0;  // warp-level
  std::uint64_t wavefronts = 0;
  std::uint64_t ideal_wavefronts = 0;
  std::uint64_t conflicts() const { return wavefronts - ideal_wavefronts; }
};

struct MemoryStats {
  std::array<GlobalOpStats, 4> global{};
  std::array<SharedOpStats, 4> shared{};
  std::array<SharedOpStats, 4> dsmem{};
};

// SASS instructions by the classes the GPU's counters use, counted where the SASS executor ran
// (all zero under the IR executor, whose instructions are not the GPU's):
// smsp__sass_inst_executed_op_* by kind of memory access, smsp__inst_executed_pipe_*
// by the pipeline that executes them, and each mnemonic's count (indexed as sim/sass's
// decode table lists them).
enum class SassOpClass : std::uint8_t {
  GlobalLd,
  GlobalSt,
  GlobalAtom,
  GlobalRed,
  LocalLd,
  LocalSt,
  Count
};
enum class SassPipe : std::uint8_t {
  Alu,
  Fma,
  Fp16,
  Fp64,
  Xu,
  Lsu,
  Adu,
  Cbu,
  Uniform,
  None,
  Count
};
struct SassClassStats {
  std::uint64_t instructions = 0;  // warp-level SASS instructions: nonzero iff SASS ran
  std::array<std::uint64_t, static_cast<std::size_t>(SassOpClass::Count)> ops{};
  std::array<std::uint64_t, static_cast<std::size_t>(SassPipe::Count)> pipes{};
  std::vector<std::uint64_t> per_mnemonic;  // by the decode table's index
  // Warp-level executions by instruction index (address / 16), predicated off or not, as
  // Nsight Compute's Source page counts them.
  std::vector<std::uint64_t> per_instruction;
  std::uint64_t op(SassOpClass c) const { return ops[static_cast<std::size_t>(c)]; }
  std::uint64_t pipe(SassPipe p) const { return pipes[static_cast<std::size_t>(p)]; }
};

// A SASS memory instruction's counts, for a kernel whose IR has no body (it runs on its SASS
// alone): the per-line table lists these under the CUDA line ptxas's line information gives.
struct SassMemoryLine {
  std::uint32_t address = 0;  // byte offset in the kernel's SASS
  std::string instruction;    // as listed: "LDG.E R2, desc[UR4][R2.64]"
  std::string source_file;    // "" where the listing has no line information
  std::uint32_t source_line = 0;
  bool shared = false;  // shared (or distributed shared) memory: wavefronts, not sectors
  MemoryLineStats counts;
};

struct LaunchStats {
  std::uint64_t warp_instructions = 0;    // each instruction a warp issued with >= 1 active lane
  std::uint64_t thread_instructions = 0;  // summed over active lanes
  std::uint64_t branch_instructions = 0;  // br and jmp, warp-level
  std::uint64_t divergent_branches = 0;   // br executions whose lanes went both ways
  std::uint64_t barriers = 0;             // bar.sync executions, warp-level
  std::uint64_t printed_bytes = 0;        // the text of `printed`
  MemoryStats memory;
  std::vector<BranchStats> per_branch;      // per decoded instruction (br only)
  std::vector<MemoryLineStats> per_memory;  // per decoded instruction (ld, st, atom only)
  SassClassStats sass;
  std::vector<PrintedLine> printed;               // the kernel's printf output (device_printf.hpp)
  std::vector<SassMemoryLine> sass_memory_lines;  // only for a kernel run on its SASS alone
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
inline constexpr auto kCounterFields<LaunchStats> = std::array{&LaunchStats::warp_instructions,
                                                               &LaunchStats::thread_instructions,
                                                               &LaunchStats::branch_instructions,
                                                               &LaunchStats::divergent_branches,
                                                               &LaunchStats::barriers,
                                                               &LaunchStats::printed_bytes};
static_assert(all_counters_listed<BranchStats>() && all_counters_listed<MemoryLineStats>() &&
              all_counters_listed<GlobalOpStats>() && all_counters_listed<SharedOpStats>());
// LaunchStats: its listed counters, the memory statistics, the two per-instruction vectors, and
// the SASS rows (not merged: filled from the merged per_memory once the launch is done).
static_assert(sizeof(MemoryStats) == 4 * sizeof(GlobalOpStats) + 8 * sizeof(SharedOpStats));
static_assert(sizeof(LaunchStats) == kCounterFields<LaunchStats>.size() * sizeof(std::uint64_t) +
                                         sizeof(MemoryStats) + sizeof(std::vector<BranchStats>) +
                                         sizeof(std::vector<MemoryLineStats>) +
                                         sizeof(SassClassStats) + sizeof(std::vector<PrintedLine>) +
                                         sizeof(std::vector<SassMemoryLine>));
// SassClassStats: its count, its two arrays, the mnemonic and the instruction vectors (all
// added below).
static_assert(sizeof(SassClassStats) ==
              sizeof(std::uint64_t) * (1 + static_cast<std::size_t>(SassOpClass::Count) +
                                       static_cast<std::size_t>(SassPipe::Count)) +
                  2 * sizeof(std::vector<std::uint64_t>));

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
  total.sass.instructions += part.sass.instructions;
  for (std::size_t k = 0; k < total.sass.ops.size(); ++k) total.sass.ops[k] += part.sass.ops[k];
  for (std::size_t k = 0; k < total.sass.pipes.size(); ++k)
    total.sass.pipes[k] += part.sass.pipes[k];
  if (total.sass.per_mnemonic.size() < part.sass.per_mnemonic.size())
    total.sass.per_mnemonic.resize(part.sass.per_mnemonic.size());
  for (std::size_t i = 0; i < part.sass.per_mnemonic.size(); ++i)
    total.sass.per_mnemonic[i] += part.sass.per_mnemonic[i];
  if (total.sass.per_instruction.size() < part.sass.per_instruction.size())
    total.sass.per_instruction.resize(part.sass.per_instruction.size());
  for (std::size_t i = 0; i < part.sass.per_instruction.size(); ++i)
    total.sass.per_instruction[i] += part.sass.per_instruction[i];
  total.printed.insert(total.printed.end(), part.printed.begin(), part.printed.end());
  sort_printed(total.printed);
}

}  // namespace warpsim::exec
