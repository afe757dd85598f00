// NaN results as the GPU gives them. The PTX ISA leaves NaN payloads to the implementation; the
// H200 (validation/h200/results/nan_bits/, from kernels_cuda/specials/float_specials.cu):
// - every f32 arithmetic result that is NaN is 0x7fffffff, whatever the inputs' payloads and
//   signs: add, sub, mul, fma, the divisions, sqrt, rcp, the approximations, neg and abs;
// - an f64 result that is NaN is the first NaN operand, quieted (its sign and payload kept:
//   neg and abs of a NaN give it unchanged), or 0xfff8000000000000 when no operand is NaN
//   (inf - inf, 0 * inf, 0 / 0, sqrt(-1));
// - min and max give the number when one operand is NaN, and -0 is below +0; of two NaNs an
//   f32 min or max gives 0x7fffffff, an f64 one the second operand, quieted.
// Conversions between f32 and f64 keep the payload, as the host's do.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace warpsim::exec {

inline constexpr std::uint32_t kGpuNanF32 = 0x7fffffffu;
inline constexpr std::uint64_t kGpuNanF64 = 0xfff8000000000000ull;
// Packed half arithmetic's NaN result (HADD2, HFMA2, ...), in f16 and bf16 alike.
inline constexpr std::uint16_t kGpuNanHalf = 0x7fff;

inline double quieted(double v) {
  return std::bit_cast<double>(std::bit_cast<std::uint64_t>(v) | 0x0008000000000000ull);
}

// `r`, computed by the host from `operands` in PTX order, with a NaN replaced by the GPU's.
template <typename T, typename... Operands>
T gpu_nan(T r, Operands... operands) {
  if constexpr (!std::is_floating_point_v<T>) {
    return r;
  } else {
    if (!std::isnan(r)) return r;
    if constexpr (sizeof(T) == 4) {
      return std::bit_cast<float>(kGpuNanF32);
    } else {
      for (const double v : {static_cast<double>(operands)...}) {
        if (std::isnan(v)) return quieted(v);
      }
      return std::bit_cast<double>(kGpuNanF64);
    }
  }
}

// PTX's min and max on floats (see above).
template <typename T>
T gpu_min_max(T a, T b, bool min) {
  const bool a_nan = std::isnan(a), b_nan = std::isnan(b);
  if (a_nan && b_nan) {
    if constexpr (sizeof(T) == 4) {
      return std::bit_cast<float>(kGpuNanF32);
    } else {
      return quieted(b);
    }
  }
  if (a_nan) return b;
  if (b_nan) return a;
  if (a == b) return std::signbit(a) == min ? a : b;  // -0 below +0; equal numbers alike
  return (a < b) == min ? a : b;
}

}  // namespace warpsim::exec
