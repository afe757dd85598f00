// How a SASS warp's lanes move on: shared by the executor's instruction and barrier code.
#pragma once

#include <bit>
#include <cstdint>

#include "sim/core/gpu_constants.hpp"
#include "sim/sass/sass_machine.hpp"

namespace warpsim::sass {

inline void advance(SassWarp& w, std::uint32_t lanes) {
  if (lanes == kFullWarpMask) {  // the common case, as vector adds
    for (std::uint32_t& pc : w.pc) ++pc;
    return;
  }
  for (std::uint32_t m = lanes; m != 0; m &= m - 1)
    ++w.pc[static_cast<unsigned>(std::countr_zero(m))];
}

// `lanes` leave their groups and run together from now on.
inline void regroup(SassWarp& w, std::uint32_t lanes) {
  const std::uint32_t id = ++w.groups;
  for (std::uint32_t m = lanes; m != 0; m &= m - 1)
    w.group[static_cast<unsigned>(std::countr_zero(m))] = id;
}

// `lanes` go on as one group per program counter they stand at.
inline void regroup_by_address(SassWarp& w, std::uint32_t lanes) {
  for (std::uint32_t left = lanes; left != 0;) {
    const std::uint32_t at = w.pc[static_cast<unsigned>(std::countr_zero(left))];
    std::uint32_t together = 0;
    for (std::uint32_t m = left; m != 0; m &= m - 1) {
      const auto lane = static_cast<unsigned>(std::countr_zero(m));
      if (w.pc[lane] == at) together |= 1u << lane;
    }
    regroup(w, together);
    left &= ~together;
  }
}

}  // namespace warpsim::sass
