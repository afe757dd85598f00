// The 16-bit float kernels (kernels_cuda/textbook/half_conversions.cu, haxpy_mixed.cu) against a
// reference built from the formats' definitions alone: every finite value of a format listed in
// order, a number rounded by finding its two neighbours in that list (IEEE 754's definition of
// rounding), not by the bit arithmetic the simulator uses.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "tests/unit/textbook_support.hpp"

namespace warpsim::test {
namespace {

enum class Direction { Nearest, Zero, Down, Up };

// A 16-bit float format: 1 sign bit, `exponent_bits`, the rest fraction (f16: 5, bf16: 8).
struct Format {
  int exponent_bits;
  int fraction_bits() const { return 15 - exponent_bits; }
  int bias() const { return (1 << (exponent_bits - 1)) - 1; }
  std::uint16_t infinity() const {
    return static_cast<std::uint16_t>(((1u << exponent_bits) - 1) << fraction_bits());
  }
  // The value of a non-negative pattern below infinity, by the definition: subnormals
  // fraction * 2^(1 - bias - f), normals (2^f + fraction) * 2^(e - bias - f).
  double value(std::uint16_t bits) const {
    const int e = bits >> fraction_bits();
    const int fraction = bits & ((1 << fraction_bits()) - 1);
    if (e == 0) return std::ldexp(fraction, 1 - bias() - fraction_bits());
    return std::ldexp((1 << fraction_bits()) + fraction, e - bias() - fraction_bits());
  }
};
constexpr Format kF16{5};
constexpr Format kBf16{8};

// `v` rounded to the format: its neighbours among the ordered finite magnitudes, then IEEE's
// choice. Past the largest finite value the next "value" is infinity, placed one unit in the
// last place beyond it, so that round-to-nearest overflows exactly from the halfway point.
std::uint16_t round_to(const Format& f, double v, Direction dir) {
  if (std::isnan(v)) return 0x7fff;  // the GPU's NaN of both formats (checked on the H200)
  const std::uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  const double m = std::fabs(v);
  const std::uint16_t inf = f.infinity();
  if (std::isinf(m)) return sign | inf;
  const double largest = f.value(inf - 1);
  const double beyond = largest + (largest - f.value(inf - 2));
  // The largest pattern whose value is <= m (patterns are ordered as their values).
  std::uint16_t lo = 0, hi = inf;  // value(lo) <= m < value(hi), with value(inf) = beyond
  auto at = [&](std::uint16_t b) { return b == inf ? beyond : f.value(b); };
  if (m >= beyond) {
    lo = inf;
  } else {
    while (hi - lo > 1) {
      const auto mid = static_cast<std::uint16_t>((lo + hi) / 2);
      (at(mid) <= m ? lo : hi) = mid;
    }
  }
  std::uint16_t pick = lo;
  if (lo != inf && at(lo) != m) {
    const bool away =
        dir == Direction::Nearest
            ? (m - at(lo) > at(hi) - m || (m - at(lo) == at(hi) - m && (lo & 1) != 0))
            : (dir == Direction::Up && sign == 0) || (dir == Direction::Down && sign != 0);
    pick = away ? hi : lo;
  }
  // Directed roundings toward zero never reach infinity.
  if (pick == inf && !(dir == Direction::Nearest || (dir == Direction::Up && sign == 0) ||
                       (dir == Direction::Down && sign != 0))) {
    pick = inf - 1;
  }
  return sign | pick;
}

// A double narrowed to nearest. A NaN propagates as IEEE 754 (6.2.3) recommends: its sign, and
// its payload's most significant bits that fit the format's fraction, quieted (the quiet bit is
// the fraction's top bit); the H100 gave exactly this for every NaN double
// (validation/h200/results/h100_2026_12_05b/half_probe.txt).
std::uint16_t narrow_double(const Format& f, double d) {
  if (!std::isnan(d)) return round_to(f, d, Direction::Nearest);
  const auto bits = std::bit_cast<std::uint64_t>(d);
  const int fraction = f.fraction_bits();
  const auto sign = static_cast<std::uint16_t>((bits >> 63) << 15);
  const auto top = static_cast<std::uint16_t>((bits >> (52 - fraction)) & ((1u << fraction) - 1));
  return static_cast<std::uint16_t>(sign | f.infinity() | (1u << (fraction - 1)) | top);
}

double widen(const Format& f, std::uint16_t bits) {
  const double m = (bits & 0x7fff) >= f.infinity() ? INFINITY : f.value(bits & 0x7fff);
  return (bits & 0x8000) != 0 ? -m : m;
}

TEST_CASE("half_conversions: f32 and f64 to f16 and bf16 in every rounding, every pattern back") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("half_conversions.cu");
  const auto x = r.initial<std::uint32_t>("x");
  const auto narrow = r.final<std::uint32_t>("narrow");  // two 16-bit results a word
  const auto wide = r.final<std::uint32_t>("wide");
  const auto wide64 = r.final<std::uint64_t>("wide64");
  auto result = [&](std::size_t k) {
    return static_cast<std::uint16_t>(narrow[k / 2] >> (16 * (k % 2)));
  };
  const Direction dirs[4] = {Direction::Nearest, Direction::Zero, Direction::Down, Direction::Up};
  std::size_t subnormal_or_overflow = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    CAPTURE(i);
    const float v = std::bit_cast<float>(x[i]);
    for (std::size_t k = 0; k < 4; ++k) {
      CHECK(result(10 * i + k) == round_to(kF16, v, dirs[k]));
      CHECK(result(10 * i + 4 + k) == round_to(kBf16, v, dirs[k]));
    }
    // The double carries bits below f32's last place: rounded once from it, not through f32.
    const double d = static_cast<double>(v) * (1.0 + 0x1p-30);
    CHECK(result(10 * i + 8) == narrow_double(kF16, d));
    CHECK(result(10 * i + 9) == narrow_double(kBf16, d));
    const double m = std::fabs(v);
    if ((m > 0 && m < 0x1p-14) || (m > 65504 && std::isfinite(m))) ++subnormal_or_overflow;
  }
  CHECK(subnormal_or_overflow > 1000);  // the random bits reach both ends of f16's range
  // Widening: every pattern i, exact; an f16 NaN becomes the canonical f32 NaN, a bf16 NaN keeps
  // its bits (bf16 is f32's high half).
  for (std::uint32_t p = 0; p < 65536; ++p) {
    CAPTURE(p);
    const auto bits = static_cast<std::uint16_t>(p);
    const bool f16_nan = (bits & 0x7fff) > kF16.infinity();
    const std::uint32_t f16_wide =
        f16_nan ? 0x7fffffffu : std::bit_cast<std::uint32_t>(static_cast<float>(widen(kF16, bits)));
    CHECK(wide[2 * p] == f16_wide);
    CHECK(wide[2 * p + 1] == p << 16);
    const double as_double = static_cast<double>(std::bit_cast<float>(f16_wide));
    CHECK(wide64[p] == std::bit_cast<std::uint64_t>(as_double));
    if (!f16_nan) CHECK(std::bit_cast<float>(p << 16) == static_cast<float>(widen(kBf16, bits)));
  }
}

TEST_CASE("haxpy_mixed: __half2 pairs through f32 arithmetic to halves, bfloat16s and sums") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("haxpy_mixed.cu");
  const auto x = r.initial<std::uint32_t>("x");
  const auto y0 = r.initial<std::uint32_t>("y");
  const auto y = r.final<std::uint32_t>("y");
  const auto y_bf16 = r.final<std::uint32_t>("y_bf16");
  const auto sum = r.final<float>("pair_sum");
  const float a = 1.5f;  // the launch file's
  auto half = [](std::uint32_t word, int k) {
    const auto bits = static_cast<std::uint16_t>(word >> (16 * k));
    return (bits & 0x7fff) > kF16.infinity() ? NAN : static_cast<float>(widen(kF16, bits));
  };
  for (std::size_t i = 0; i < x.size(); ++i) {
    CAPTURE(i);
    float lanes[2];
    for (int k = 0; k < 2; ++k) {
      // a * x + y in f32: nvcc fuses it, so one rounding of the exact value (the product of a
      // half and 1.5 and the sum with a half are exact in double).
      lanes[k] = static_cast<float>(static_cast<double>(a) * half(x[i], k) + half(y0[i], k));
      const auto got = static_cast<std::uint16_t>(y[i] >> (16 * k));
      CHECK(got == round_to(kF16, lanes[k], Direction::Nearest));
      const auto got_bf16 = static_cast<std::uint16_t>(y_bf16[i] >> (16 * k));
      CHECK(got_bf16 == round_to(kBf16, lanes[k], Direction::Nearest));
    }
    const float s = lanes[0] + lanes[1];
    CHECK((std::isnan(s) ? std::isnan(sum[i]) : sum[i] == s));
  }
}

}  // namespace
}  // namespace warpsim::test
