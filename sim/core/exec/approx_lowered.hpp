// The GPU's multi-function unit (MUFU) as both executors model it, and PTX's approximations as
// ptxas lowers them onto it, so that the IR gives the bits the SASS executor gives for the same
// kernel.
//
// The unit on f32 computes each function in double and rounds once; the GPU's own
// approximations differ from that by an ulp or so on some inputs (results/h100_2026_12_06d/
// lists where, for math_forms.cu). Every function but TANH takes a subnormal input as zero and
// gives a subnormal result as zero, sign kept: ptxas scales operands around RCP, RSQ, SQRT, EX2
// and LG2 wherever PTX's non-.ftz forms need subnormals (read off its code for rcp/rsqrt/sqrt/
// lg2/ex2.approx.f32 and div.approx.f32, sm_90), the H200 gives __fdividef by a divisor beyond
// 2^126 as 0 (the reciprocal's subnormal flushed), and an H100 gives __sinf and __tanf of
// subnormals as 0. SIN and COS take the angle in turns. RSQ64H gives a double's reciprocal
// square root seed from its high word.
//
// The lowerings (ptxas's code for __sinf, __cosf, __log2f, exp2f, __fdividef, rsqrtf and rsqrt):
// - sin.approx / cos.approx: the angle in turns by FMUL.RZ by 1/(2 pi), then SIN or COS;
// - lg2.approx: an input below 2^-126 in magnitude scaled by 2^24, 24 subtracted after;
// - ex2.approx: an input below -126 halved, the result squared after;
// - rsqrt.approx.f32: an input below 2^-126 scaled by 2^24, the result by 2^12 after;
// - sqrt.approx.f32: an input below 2^-126 scaled by 2^24, the result by 2^-12 after;
// - div.approx.f32: a divisor below 2^-126 and the dividend scaled by 2^24, then RCP and FMUL;
// - rsqrt.approx.f64: RSQ64H's seed, one Newton step with a cubic term (DMUL, DFMA); a slow
//   path scales positive subnormals by 2^54 (the result by 2^27) and gives zero, infinity,
//   negative numbers and NaN their IEEE results.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <numbers>

#include "sim/core/exec/float_flush.hpp"

namespace warpsim::exec {

enum class UnitFunction : std::uint8_t { Rcp, Rsq, Sqrt, Ex2, Lg2, Sin, Cos, Tanh };

inline float unit_function(UnitFunction fn, float a) {
  const bool flushes = fn != UnitFunction::Tanh;
  if (flushes) a = flush_f32(a);
  const double d = a;
  float r = 0.0f;
  switch (fn) {
    case UnitFunction::Rcp:
      r = 1.0f / a;
      break;
    case UnitFunction::Rsq:
      r = static_cast<float>(1.0 / std::sqrt(d));
      break;
    case UnitFunction::Sqrt:
      r = std::sqrt(a);
      break;
    case UnitFunction::Ex2:
      r = static_cast<float>(std::exp2(d));
      break;
    case UnitFunction::Lg2:
      r = static_cast<float>(std::log2(d));
      break;
    case UnitFunction::Sin:
      r = static_cast<float>(std::sin(2.0 * std::numbers::pi * d));
      break;
    case UnitFunction::Cos:
      r = static_cast<float>(std::cos(2.0 * std::numbers::pi * d));
      break;
    case UnitFunction::Tanh:
      r = static_cast<float>(std::tanh(d));
      break;
  }
  return flushes ? flush_f32(r) : r;
}

// RSQ64H: the high word of 1/sqrt of the double whose high word is `high` (its low word zero).
inline std::uint32_t reciprocal_sqrt_seed(std::uint32_t high) {
  const double d = std::bit_cast<double>(std::uint64_t{high} << 32);
  return static_cast<std::uint32_t>(std::bit_cast<std::uint64_t>(1.0 / std::sqrt(d)) >> 32);
}

// a * b rounded toward zero in f32: the product of two floats is exact in double, then
// rounded to nearest and stepped toward zero where that rounded away.
inline float multiply_toward_zero(float a, float b) {
  const double p = static_cast<double>(a) * static_cast<double>(b);
  float f = static_cast<float>(p);
  if (std::isfinite(p) && std::fabs(static_cast<double>(f)) > std::fabs(p))
    f = std::nextafter(f, 0.0f);
  return f;
}

inline float turns_of(float x) {
  return multiply_toward_zero(x, 0.15915493667125701904f);  // 0x3e22f983, FMUL.RZ's operand
}

inline float sine_lowered(float x) {
  return unit_function(UnitFunction::Sin, turns_of(x));
}

inline float cosine_lowered(float x) {
  return unit_function(UnitFunction::Cos, turns_of(x));
}

inline float log2_lowered(float x) {
  const bool tiny = std::fabs(x) < 0x1p-126f;  // false for a NaN, as FSETP.GEU leaves it
  const float r = unit_function(UnitFunction::Lg2, tiny ? x * 16777216.0f : x);
  return tiny ? r + -24.0f : r;
}

inline float exp2_lowered(float x) {
  const bool deep = x < -126.0f;  // false for a NaN
  const float r = unit_function(UnitFunction::Ex2, deep ? x * 0.5f : x);
  return deep ? r * r : r;
}

inline float reciprocal_sqrt_lowered(float x) {
  const bool tiny = std::fabs(x) < 0x1p-126f;
  const float r = unit_function(UnitFunction::Rsq, tiny ? x * 16777216.0f : x);
  return tiny ? r * 4096.0f : r;
}

inline float sqrt_lowered(float x) {
  const bool tiny = std::fabs(x) < 0x1p-126f;
  const float r = unit_function(UnitFunction::Sqrt, tiny ? x * 16777216.0f : x);
  return tiny ? r * 0x1p-12f : r;
}

inline float divide_approx_lowered(float a, float b) {
  const bool tiny = std::fabs(b) < 0x1p-126f;
  const float r = unit_function(UnitFunction::Rcp, tiny ? b * 16777216.0f : b);
  return r * (tiny ? a * 16777216.0f : a);
}

// The fast path's Newton step from RSQ64H's seed, for a positive normal x.
inline double reciprocal_sqrt_step(double x) {
  const auto high = static_cast<std::uint32_t>(std::bit_cast<std::uint64_t>(x) >> 32);
  const double y = std::bit_cast<double>(std::uint64_t{reciprocal_sqrt_seed(high)} << 32);
  const double error = std::fma(x, -(y * y), 1.0);
  const double cubic = std::fma(error, 0.375, 0.5);
  return std::fma(cubic, y * error, y);
}

inline double reciprocal_sqrt_lowered(double x) {
  const auto high = static_cast<std::uint32_t>(std::bit_cast<std::uint64_t>(x) >> 32);
  if (high - 0x00100000u < 0x7fe00000u) return reciprocal_sqrt_step(x);
  // The slow path: a positive subnormal scaled by 2^54, the step, the result by 2^27; zero,
  // infinity, negative numbers and NaN as 1/sqrt gives them (the GPU's NaN applied after).
  if (x > 0 && std::isfinite(x)) return reciprocal_sqrt_step(x * 0x1p54) * 0x1p27;
  return 1.0 / std::sqrt(x);
}

}  // namespace warpsim::exec
