// Half precision (IEEE binary16, PTX .f16) and bfloat16 (.bf16) values, as the 16 low bits of a
// 32-bit register, converted to and from f32 and f64 the way the GPU's cvt does. Both the IR's
// functional model and the SASS executor use these, so the two frontends agree bit for bit.
// What must hold: every finite half and bfloat16 is exactly a double, so decoding is exact, and
// encoding rounds a double once (an f32 source widens to double exactly first), which is the
// correctly rounded result the PTX ISA specifies for cvt.rn/.rz/.rm/.rp.f16/.bf16.
#pragma once

#include <cstdint>

#include "sim/core/ir/types.hpp"

namespace warpsim::exec {

// The GPU's NaN of each format (cvt.rn.f16.f32 and cvt.rn.bf16.f32 of any NaN).
inline constexpr std::uint16_t kGpuNanF16 = 0x7fffu;
inline constexpr std::uint16_t kGpuNanBf16 = 0x7fffu;

// `v` rounded once to the format (`r`: nearest even, toward zero, down or up), as its 16 bits.
// Beyond the largest finite value: infinity, or the largest finite value where the rounding goes
// toward zero (IEEE 754's overflow rule).
std::uint16_t encode_half(double v, ir::HalfFormat format, ir::Rounding r);

// cvt.f16.f64 and cvt.bf16.f64: encode_half, except that a NaN keeps its sign and the top bits
// of its payload, quieted (where an f32 NaN becomes the canonical one). Read off every NaN the
// H100 converted (validation/h200/half_probe.cu, results/h100_2026_12_05b/: 172,961 of each).
std::uint16_t encode_half_from_f64(double v, ir::HalfFormat format, ir::Rounding r);

// The value of 16 bits of the format, exactly.
double decode_half(std::uint16_t bits, ir::HalfFormat format);

// cvt.f32.f16 and cvt.f32.bf16 as the GPU computes them: bf16 widens by a shift (its NaNs keep
// their payloads); an f16 NaN becomes the canonical f32 NaN (the GPU converts with an add).
std::uint32_t half_to_f32_bits(std::uint16_t bits, ir::HalfFormat format);

}  // namespace warpsim::exec
