// The named barriers (PTX's bar.sync ID, COUNT and bar.arrive ID, COUNT; SASS's BAR.SYNC and
// BAR.ARV with a count) as both executors keep them: a phase per barrier, and the rules a
// warp's arrival must keep (opcodes.def).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace warpsim::exec {

inline constexpr unsigned kNamedBarriers = 16;  // a block's barriers, PTX's 0-15

// The phase under way at one barrier: threads counted (32 a warp) and the COUNT that opens it
// (0: none under way).
struct NamedBarrierPhase {
  std::uint64_t arrived = 0;
  std::uint64_t expected = 0;
};
using NamedBarriers = std::array<NamedBarrierPhase, kNamedBarriers>;

// Why a warp may not arrive at barrier `id` counting `count` threads, or nothing: the id is
// 0-15, the count a multiple of 32 no larger than the block's `block_threads` (in whole warps),
// barrier 0's phase is not also waited at without a count (`uncounted_waiting` threads), and
// the phase's warps all give the same count.
std::optional<std::string> named_arrival_error(const NamedBarriers& named, std::uint64_t id,
                                               std::uint64_t count, std::uint64_t block_threads,
                                               std::uint64_t uncounted_waiting);

// Counts a warp's arrival in `phase` (its checks passed).
inline void arrive(NamedBarrierPhase& phase, std::uint64_t count) {
  phase.expected = count;
  phase.arrived += 32;
}

}  // namespace warpsim::exec
