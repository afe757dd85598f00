// The instruction functions, grouped by kind; internal to the executor. Each select_* picks the
// function for a decoded instruction whose opcode belongs to its group.
#pragma once

#include <bit>
#include <cstdint>
#include <string>

#include "sim/core/exec/state.hpp"
#include "sim/core/gpu_constants.hpp"

namespace warpsim::exec {

ExecFn select_alu(const DecodedInst& inst);
ExecFn select_memory(const DecodedInst& inst);  // ld, st; atom through select_atomic
ExecFn select_atomic(const DecodedInst& inst);
ExecFn select_warp_wide(const DecodedInst& inst);
ExecFn select_rounded(const DecodedInst& inst);  // float add, sub, mul, fma with .rz/.rm/.rp

// Throws the KernelFault for `lane` of `warp` executing `inst`.
[[noreturn]] void fault(const ExecContext& ctx, const WarpState& warp, const DecodedInst& inst,
                        unsigned lane, const std::string& what);

// Calls f(lane) for every lane in `mask`; the full-warp case is a plain loop the compiler can
// vectorise.
template <typename F>
inline void for_lanes(std::uint32_t mask, F&& f) {
  if (mask == kFullWarpMask) {
    for (unsigned lane = 0; lane < kWarpSize; ++lane) f(lane);
  } else {
    while (mask != 0) {
      f(static_cast<unsigned>(std::countr_zero(mask)));
      mask &= mask - 1;
    }
  }
}

}  // namespace warpsim::exec
