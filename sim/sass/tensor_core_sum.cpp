#include "sim/sass/tensor_core_sum.hpp"

#include <bit>
#include <cmath>
#include <limits>

#include "sim/core/exec/gpu_nan.hpp"
#include "sim/core/exec/half_float.hpp"

namespace warpsim::sass {
namespace {

// The bits kept below the largest term's exponent (the fit's 23 + 2).
constexpr int kAlignedBits = 25;

// `v` rounded toward zero to f32; from 2^128 on, an infinity: the H100 gave +-inf for all 163
// such elements of kernels_cuda/coverage/mma_variants.cu's bfloat16 tile, and +-FLT_MAX for none
// (validation/h200/results/h100_2026_12_06b/), where IEEE's rule for this rounding would give
// the largest finite value.
float toward_zero(double v) {
  constexpr float kInfinity = std::numeric_limits<float>::infinity();
  if (std::fabs(v) >= 0x1p128) return v < 0 ? -kInfinity : kInfinity;
  const float nearest = static_cast<float>(v);
  if (std::fabs(static_cast<double>(nearest)) > std::fabs(v)) return std::nextafter(nearest, 0.0f);
  return nearest;
}

}  // namespace

std::uint32_t tensor_core_sum(const std::array<double, 16>& a, const std::array<double, 16>& b,
                              double c, bool f16_result) {
  // NaNs and infinities: the IEEE sum (a NaN result canonical).
  bool special = !std::isfinite(c);
  for (std::size_t k = 0; k < a.size(); ++k)
    special |= !std::isfinite(a[k]) || !std::isfinite(b[k]);
  if (special) {
    double sum = c;
    for (std::size_t k = 0; k < a.size(); ++k) sum += a[k] * b[k];
    if (std::isnan(sum)) return f16_result ? exec::kGpuNanHalf : exec::kGpuNanF32;
    return f16_result ? exec::encode_half(sum, ir::HalfFormat::F16, ir::Rounding::Nearest)
                      : std::bit_cast<std::uint32_t>(static_cast<float>(sum));
  }
  int emax = std::numeric_limits<int>::min();
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (a[k] != 0.0 && b[k] != 0.0) emax = std::max(emax, std::ilogb(a[k]) + std::ilogb(b[k]));
  }
  if (c != 0.0) emax = std::max(emax, std::ilogb(c));
  if (emax == std::numeric_limits<int>::min()) return 0;  // every term zero
  // Each term below 2^(emax + 2): in units of 2^(emax - 25) below 2^27, and 17 of them sum
  // exactly in 64 bits.
  auto units = [&](double v) {
    return static_cast<std::int64_t>(std::trunc(std::ldexp(v, kAlignedBits - emax)));
  };
  std::int64_t total = units(c);
  for (std::size_t k = 0; k < a.size(); ++k) total += units(a[k] * b[k]);
  const double sum = std::ldexp(static_cast<double>(total), emax - kAlignedBits);  // exact
  if (f16_result) return exec::encode_half(sum, ir::HalfFormat::F16, ir::Rounding::Nearest);
  return std::bit_cast<std::uint32_t>(toward_zero(sum));
}

}  // namespace warpsim::sass
