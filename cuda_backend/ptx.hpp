// IR to PTX. Each IR memory instruction becomes exactly one PTX memory instruction of the same
// space and width (address arithmetic is added around it, never merged into or split from it),
// so the GPU's request, sector and wavefront counters belong to the instructions as written.
// Float arithmetic carries explicit rounding (add.rn, mul.rn, fma.rn), which keeps ptxas from
// contracting a separate mul and add into an fma: results match the simulator bit for bit.
// Contract: requires a verified module; the output assembles with ptxas for `target`.
#pragma once

#include <string>

#include "sim/core/ir/module.hpp"

namespace warpsim::cuda {

// The name the lowered PTX's line information gives the IR (its `.file 1`): `.loc 1 N` before
// an IR instruction's PTX says it came from line N of the module's text.
inline constexpr const char* kIrSourceFile = "warpsim.kir";

std::string lower_to_ptx(const ir::Module& module, const std::string& target = "sm_90");

}  // namespace warpsim::cuda
