// The per-lane operations of the arithmetic and logic instructions, one functor each
// (`apply` on one lane's operands), as docs/ir.md defines them: integers wrap, floats are IEEE
// with round-to-nearest-even, the approximations are computed in double and rounded once, and
// a NaN result is the GPU's (gpu_nan.hpp).
// Internal to exec_alu.cpp, which instantiates them per type.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "sim/core/exec/approx_lowered.hpp"
#include "sim/core/exec/gpu_nan.hpp"

namespace warpsim::exec::alu {

template <typename T>
constexpr bool kIsInt = std::is_integral_v<T> && !std::is_same_v<T, bool>;

template <typename T>
using Unsigned = std::make_unsigned_t<T>;

// Wrapping integer arithmetic without signed overflow.
template <typename T>
T wrap_add(T a, T b) {
  return static_cast<T>(static_cast<Unsigned<T>>(a) + static_cast<Unsigned<T>>(b));
}
template <typename T>
T wrap_sub(T a, T b) {
  return static_cast<T>(static_cast<Unsigned<T>>(a) - static_cast<Unsigned<T>>(b));
}
template <typename T>
T wrap_mul(T a, T b) {
  // Promote to at least unsigned int so uint16-like promotion to int cannot overflow.
  using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, Unsigned<T>>;
  return static_cast<T>(static_cast<U>(static_cast<Unsigned<T>>(a)) *
                        static_cast<U>(static_cast<Unsigned<T>>(b)));
}

struct Add {
  template <typename T>
  static T apply(T a, T b) {
    if constexpr (kIsInt<T>)
      return wrap_add(a, b);
    else if constexpr (std::is_floating_point_v<T>)
      return gpu_nan(a + b, a, b);
    else
      return T{};
  }
};
struct Sub {
  template <typename T>
  static T apply(T a, T b) {
    if constexpr (kIsInt<T>)
      return wrap_sub(a, b);
    else if constexpr (std::is_floating_point_v<T>)
      return gpu_nan(a - b, a, b);
    else
      return T{};
  }
};
struct Mul {
  template <typename T>
  static T apply(T a, T b) {
    if constexpr (kIsInt<T>)
      return wrap_mul(a, b);
    else if constexpr (std::is_floating_point_v<T>)
      return gpu_nan(a * b, a, b);
    else
      return T{};
  }
};
// The high half of the double-width product, as PTX's mul.hi (signedness from T).
struct MulHigh {
  template <typename T>
  static T apply(T a, T b) {
    if constexpr (kIsInt<T> && sizeof(T) == 8) {
      __extension__ using Signed = __int128;
      __extension__ using Unsigned = unsigned __int128;
      using Wide = std::conditional_t<std::is_signed_v<T>, Signed, Unsigned>;
      return static_cast<T>((static_cast<Wide>(a) * static_cast<Wide>(b)) >> 64);
    } else if constexpr (kIsInt<T>) {
      using Wide = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
      return static_cast<T>((static_cast<Wide>(a) * static_cast<Wide>(b)) >> (8 * sizeof(T)));
    } else {
      return T{};
    }
  }
};
struct Min {
  template <typename T>
  static T apply(T a, T b) {
    if constexpr (std::is_floating_point_v<T>)
      return gpu_min_max(a, b, true);
    else
      return b < a ? b : a;
  }
};
struct Max {
  template <typename T>
  static T apply(T a, T b) {
    if constexpr (std::is_floating_point_v<T>)
      return gpu_min_max(a, b, false);
    else
      return a < b ? b : a;
  }
};
struct And {
  template <typename T>
  static T apply(T a, T b) {
    if constexpr (std::is_same_v<T, bool>)
      return a && b;
    else if constexpr (kIsInt<T>)
      return static_cast<T>(a & b);
    else
      return T{};
  }
};
struct Or {
  template <typename T>
  static T apply(T a, T b) {
    if constexpr (std::is_same_v<T, bool>)
      return a || b;
    else if constexpr (kIsInt<T>)
      return static_cast<T>(a | b);
    else
      return T{};
  }
};
struct Xor {
  template <typename T>
  static T apply(T a, T b) {
    if constexpr (std::is_same_v<T, bool>)
      return a != b;
    else if constexpr (kIsInt<T>)
      return static_cast<T>(a ^ b);
    else
      return T{};
  }
};
struct Eq {
  template <typename T>
  static bool apply(T a, T b) {
    return a == b;
  }
};
struct Ne {
  template <typename T>
  static bool apply(T a, T b) {
    return a != b;
  }
};
struct Lt {
  template <typename T>
  static bool apply(T a, T b) {
    return a < b;
  }
};
struct Le {
  template <typename T>
  static bool apply(T a, T b) {
    return a <= b;
  }
};
struct Gt {
  template <typename T>
  static bool apply(T a, T b) {
    return a > b;
  }
};
struct Ge {
  template <typename T>
  static bool apply(T a, T b) {
    return a >= b;
  }
};

struct Neg {
  template <typename T>
  static T apply(T a) {
    if constexpr (kIsInt<T>)
      return wrap_sub(T{0}, a);
    else if constexpr (std::is_floating_point_v<T>)
      return gpu_nan(-a, a);
    else
      return T{};
  }
};
struct Abs {
  template <typename T>
  static T apply(T a) {
    if constexpr (kIsInt<T>)
      return a < T{0} ? wrap_sub(T{0}, a) : a;
    else if constexpr (std::is_floating_point_v<T>)
      return gpu_nan(std::fabs(a), a);
    else
      return T{};
  }
};
struct Not {
  template <typename T>
  static T apply(T a) {
    if constexpr (std::is_same_v<T, bool>)
      return !a;
    else if constexpr (kIsInt<T>)
      return static_cast<T>(~a);
    else
      return T{};
  }
};
struct Popc {
  template <typename T>
  static T apply(T a) {
    if constexpr (kIsInt<T>)
      return static_cast<T>(std::popcount(static_cast<Unsigned<T>>(a)));
    else
      return T{};
  }
};
struct Clz {
  template <typename T>
  static T apply(T a) {
    if constexpr (kIsInt<T>)
      return static_cast<T>(std::countl_zero(static_cast<Unsigned<T>>(a)));
    else
      return T{};
  }
};
struct Brev {
  template <typename T>
  static T apply(T a) {
    if constexpr (kIsInt<T>) {
      Unsigned<T> x = static_cast<Unsigned<T>>(a), r = 0;
      for (unsigned i = 0; i < sizeof(T) * 8; ++i, x >>= 1)
        r = static_cast<Unsigned<T>>((r << 1) | (x & 1u));
      return static_cast<T>(r);
    } else {
      return T{};
    }
  }
};
// IEEE square root and reciprocal, correctly rounded in the type's own precision.
struct Sqrt {
  template <typename T>
  static T apply(T a) {
    if constexpr (std::is_floating_point_v<T>)
      return gpu_nan(std::sqrt(a), a);
    else
      return T{};
  }
};
struct Rcp {
  template <typename T>
  static T apply(T a) {
    if constexpr (std::is_floating_point_v<T>)
      return gpu_nan(T{1} / a, a);
    else
      return T{};
  }
};
// The f32 approximations, as ptxas lowers them (approx_lowered.hpp); the verifier allows no
// other type.
template <float (*kLowered)(float)>
struct Approx {
  template <typename T>
  static T apply(T a) {
    if constexpr (std::is_same_v<T, float>) {
      return gpu_nan(kLowered(a), a);
    } else {
      return T{};
    }
  }
};
// rsqrt.approx on f32 and f64, each as ptxas lowers it.
struct ReciprocalSqrtApprox {
  template <typename T>
  static T apply(T a) {
    if constexpr (std::is_floating_point_v<T>) {
      return gpu_nan(reciprocal_sqrt_lowered(a), a);
    } else {
      return T{};
    }
  }
};
// PTX's rcp.approx.ftz.f32: subnormal inputs and results flushed to zero, signs kept. And
// rcp.approx.ftz.f64, as the PTX ISA defines it: the reciprocal of the value the operand's high
// word holds (1.11.20 format, the low word ignored), flushed as above, its high word kept (the
// ISA's "approximate" 20-bit mantissa, here truncated) and its low word zero; a NaN gives
// 0x7fffffff00000000.
inline double reciprocal_of_high_word(double a) {
  const std::uint64_t high = std::bit_cast<std::uint64_t>(a) & 0xffffffff00000000ull;
  double x = std::bit_cast<double>(high);  // a NaN or an infinity by its high word alone
  if (std::isnan(x)) return std::bit_cast<double>(std::uint64_t{0x7fffffff00000000ull});
  if (std::fpclassify(x) == FP_SUBNORMAL) x = std::copysign(0.0, x);
  double r = 1.0 / x;
  if (std::fpclassify(r) == FP_SUBNORMAL) r = std::copysign(0.0, r);
  return std::bit_cast<double>(std::bit_cast<std::uint64_t>(r) & 0xffffffff00000000ull);
}
struct ReciprocalFlushed {
  template <typename T>
  static T apply(T a) {
    if constexpr (std::is_same_v<T, double>) {
      return reciprocal_of_high_word(a);
    } else if constexpr (std::is_floating_point_v<T>) {
      const T x = std::fpclassify(a) == FP_SUBNORMAL ? std::copysign(T{0}, a) : a;
      const T r = gpu_nan(static_cast<T>(1.0 / static_cast<double>(x)), a);
      return std::fpclassify(r) == FP_SUBNORMAL ? std::copysign(T{0}, r) : r;
    } else {
      return T{};
    }
  }
};
// The approximate divisions: `kFast` is div.approx, on f32 as ptxas lowers it (a reciprocal
// flushed to 0 for a divisor beyond 2^126, then a product; approx_lowered.hpp), div.full (and
// div.approx.f64) in double precision and rounded once.
template <bool kFast>
struct ApproxDivide {
  template <typename T>
  static T apply(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
      if constexpr (kFast && std::is_same_v<T, float>) {
        return gpu_nan(divide_approx_lowered(a, b), a, b);
      } else {
        return gpu_nan(static_cast<T>(static_cast<double>(a) / static_cast<double>(b)), a, b);
      }
    } else {
      return T{};
    }
  }
};
struct Mov {
  template <typename T>
  static T apply(T a) {
    return a;
  }
};

}  // namespace warpsim::exec::alu
