#include "sim/core/exec/half_float.hpp"

#include <bit>
#include <cmath>

#include "sim/core/exec/gpu_nan.hpp"

namespace warpsim::exec {
namespace {

struct Layout {
  int exponent_bits;
  int fraction_bits;
  std::uint16_t nan;
  int bias() const { return (1 << (exponent_bits - 1)) - 1; }
  std::uint32_t infinity() const {
    return ((std::uint32_t{1} << exponent_bits) - 1) << fraction_bits;
  }
};

Layout layout(ir::HalfFormat format) {
  return format == ir::HalfFormat::BF16 ? Layout{8, 7, kGpuNanBf16} : Layout{5, 10, kGpuNanF16};
}

// Whether the magnitude `q` + `remainder` (0 <= remainder < 1, in units of the last place) of a
// value of sign `negative` rounds away from zero to q + 1.
bool rounds_up(double q, double remainder, bool negative, ir::Rounding r) {
  if (remainder == 0.0) return false;
  switch (r) {
    case ir::Rounding::Nearest:
      return remainder > 0.5 || (remainder == 0.5 && std::fmod(q, 2.0) != 0.0);
    case ir::Rounding::Zero:
      return false;
    case ir::Rounding::Down:
      return negative;
    case ir::Rounding::Up:
      return !negative;
  }
  return false;
}

}  // namespace

std::uint16_t encode_half(double v, ir::HalfFormat format, ir::Rounding r) {
  const Layout f = layout(format);
  if (std::isnan(v)) return f.nan;
  const bool negative = std::signbit(v);
  const std::uint32_t sign = negative ? 0x8000u : 0u;
  const double magnitude = std::fabs(v);
  // Past the largest finite value: infinity, unless the rounding goes toward zero.
  const std::uint32_t largest_finite = f.infinity() - 1;
  const bool to_infinity = r == ir::Rounding::Nearest || (r == ir::Rounding::Up && !negative) ||
                           (r == ir::Rounding::Down && negative);
  const auto overflow = [&] {
    return static_cast<std::uint16_t>(sign | (to_infinity ? f.infinity() : largest_finite));
  };
  if (std::isinf(magnitude)) return static_cast<std::uint16_t>(sign | f.infinity());
  if (magnitude == 0.0) return static_cast<std::uint16_t>(sign);
  int exponent = 0;
  (void)std::frexp(magnitude, &exponent);  // magnitude = m * 2^exponent, m in [0.5, 1)
  const int unbiased = exponent - 1;
  const int min_normal = 1 - f.bias();
  if (unbiased > f.bias()) return overflow();
  // The last place: 2^(e - fraction_bits) for a normal result, fixed below the normal range.
  const int last_place = (unbiased < min_normal ? min_normal : unbiased) - f.fraction_bits;
  const double scaled = std::ldexp(magnitude, -last_place);  // exact: a power-of-two scaling
  double q = std::floor(scaled);
  if (rounds_up(q, scaled - q, negative, r)) q += 1.0;
  // A subnormal's bits are q itself (q = 2^fraction_bits is the smallest normal); a normal's are
  // its biased exponent above the fraction, where a carry out of the fraction (q = 2^(f+1))
  // moves into the exponent by the addition.
  std::uint32_t bits = static_cast<std::uint32_t>(q);
  if (unbiased >= min_normal) {
    bits = (static_cast<std::uint32_t>(unbiased + f.bias()) << f.fraction_bits) +
           (bits - (std::uint32_t{1} << f.fraction_bits));
  }
  if (bits >= f.infinity()) return overflow();
  return static_cast<std::uint16_t>(sign | bits);
}

std::uint16_t encode_half_from_f64(double v, ir::HalfFormat format, ir::Rounding r) {
  if (!std::isnan(v)) return encode_half(v, format, r);
  const Layout f = layout(format);
  const auto bits = std::bit_cast<std::uint64_t>(v);
  const auto sign = static_cast<std::uint32_t>(bits >> 63) << 15;
  const std::uint32_t quiet = std::uint32_t{1} << (f.fraction_bits - 1);
  const auto payload = static_cast<std::uint32_t>((bits >> (52 - f.fraction_bits)) &
                                                  ((std::uint32_t{1} << f.fraction_bits) - 1));
  return static_cast<std::uint16_t>(sign | f.infinity() | quiet | payload);
}

double decode_half(std::uint16_t bits, ir::HalfFormat format) {
  const Layout f = layout(format);
  const bool negative = (bits & 0x8000u) != 0;
  const std::uint32_t exponent_field = (bits & 0x7fffu) >> f.fraction_bits;
  const std::uint32_t fraction = bits & ((1u << f.fraction_bits) - 1);
  const std::uint32_t all_ones = (1u << f.exponent_bits) - 1;
  double magnitude = 0.0;
  if (exponent_field == all_ones) {
    magnitude = fraction != 0 ? std::nan("") : INFINITY;
  } else if (exponent_field == 0) {
    magnitude = std::ldexp(static_cast<double>(fraction), 1 - f.bias() - f.fraction_bits);
  } else {
    magnitude = std::ldexp(static_cast<double>(fraction | (1u << f.fraction_bits)),
                           static_cast<int>(exponent_field) - f.bias() - f.fraction_bits);
  }
  return negative ? -magnitude : magnitude;
}

std::uint32_t half_to_f32_bits(std::uint16_t bits, ir::HalfFormat format) {
  if (format == ir::HalfFormat::BF16) return std::uint32_t{bits} << 16;
  const double v = decode_half(bits, format);
  if (std::isnan(v)) return kGpuNanF32;
  return std::bit_cast<std::uint32_t>(static_cast<float>(v));
}

}  // namespace warpsim::exec
