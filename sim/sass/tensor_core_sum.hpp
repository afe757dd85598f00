// How the H100's tensor core sums one element of an m16n8k16 product (HMMA.16816, PTX
// mma.sync): read off 98,304 elements the GPU computed from random f16 and bfloat16 tiles
// (validation/h200/mma_probe.cu, validation/h200/results/h100_2026_12_06/mma_probe/), all of
// which this reproduces bit for bit. The 16 products are exact; each product carries the sum of
// its operands' exponents (not renormalised), the accumulator its own exponent; every term is
// cut toward zero to a multiple of 2^(emax - 25), emax the largest of those exponents; the cut
// terms are summed exactly, and the sum rounded toward zero to f32 (an f32 accumulator) or to
// nearest to f16 (an f16 one); an f32 sum of 2^128 or more is an infinity (an H100's bfloat16
// tiles). Subnormal inputs and the sign of a zero sum are not measured.
#pragma once

#include <array>
#include <cstdint>

namespace warpsim::sass {

// One element: `a` a row of A, `b` a column of B (their 16 values, exact), `c` the accumulator.
// The f32 result's bits, or (`f16_result`) the f16 result's 16 bits.
std::uint32_t tensor_core_sum(const std::array<double, 16>& a, const std::array<double, 16>& b,
                              double c, bool f16_result);

}  // namespace warpsim::sass
