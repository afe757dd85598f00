#include "sim/core/exec/named_barrier.hpp"

#include <fmt/format.h>

namespace warpsim::exec {

std::optional<std::string> named_arrival_error(const NamedBarriers& named, std::uint64_t id,
                                               std::uint64_t count, std::uint64_t block_threads,
                                               std::uint64_t uncounted_waiting) {
  const std::uint64_t whole_warps = (block_threads + 31) / 32 * 32;
  if (id >= kNamedBarriers) return fmt::format("barrier id {} is outside 0-15", id);
  if (count == 0 || count % 32 != 0 || count > whole_warps) {
    return fmt::format(
        "barrier thread count {} is not a multiple of 32 between 32 and the block's {} threads",
        count, whole_warps);
  }
  if (id == 0 && uncounted_waiting != 0) {
    return fmt::format(
        "this barrier meets {} threads waiting at bar.sync without a count: one phase of "
        "barrier 0 is one kind",
        uncounted_waiting);
  }
  const NamedBarrierPhase& phase = named[id];
  if (phase.arrived != 0 && phase.expected != count) {
    return fmt::format("barrier {} counts to {} here, to {} for the warps already arrived", id,
                       count, phase.expected);
  }
  return std::nullopt;
}

}  // namespace warpsim::exec
