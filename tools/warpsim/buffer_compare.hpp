// How validate compares an output buffer with the GPU's: bit for bit, except that a float
// buffer of a kernel using .approx instructions may differ within a small relative tolerance
// (warpsim rounds an approximation once from double precision; the GPU's hardware unit gives
// other bits inside the same PTX bound), and the row then names the instructions.
#pragma once

#include <string>

#include "sim/core/exec/global_memory.hpp"
#include "sim/core/ir/module.hpp"

namespace warpsim::cli {

// The .approx instructions a kernel uses, as PTX spells them ("ex2.approx.f32"), or "".
std::string approximations(const ir::Kernel& k);

// Relative difference allowed per element of such a buffer: about 170 times the 2-ulp bound of
// one ex2.approx.f32, room for the arithmetic that follows it.
inline constexpr double kApproximationTolerance = 1e-5;

// The verdict: "identical", a difference the approximations explain, or "MISMATCH: ..." (and
// `mismatch` set).
std::string compare_buffer(const exec::GlobalBuffer& sim, const exec::GlobalBuffer& gpu,
                           const std::string& approximated, bool& mismatch);

// The kernel's printf output against the GPU's, as sorted lines (the GPU prints a launch's lines
// in no fixed order): "identical (N lines)" or "MISMATCH: ..." naming the first line only one
// side printed (and `mismatch` set).
std::string compare_printed(const std::string& sim, const std::string& gpu, bool& mismatch);

}  // namespace warpsim::cli
