// The kernels of kernels_cuda/coverage/, written to reach SASS forms no other kernel runs (the
// integer and double tensor-core shapes, fp8, the SIMD video intrinsics, CUDA's bit intrinsics,
// double functions dividing by literals, CUB's block algorithms, sm_90's vector atomics), run
// on their SASS and checked against C++ references written from the CUDA Math API's and the PTX
// ISA's definitions.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "sim/core/exec/half_float.hpp"
#include "tests/unit/sass_only_run.hpp"
#include "tests/unit/sass_support.hpp"
#include "tests/unit/textbook_support.hpp"

namespace warpsim::test {
namespace {

__extension__ using Int128 = __int128;
__extension__ using UInt128 = unsigned __int128;

SassOnlyRun run_coverage(const std::string& file) {
  return run_sass_only("coverage", file);
}

double bfloat16_value(std::uint16_t bits) {
  return std::bit_cast<float>(std::uint32_t{bits} << 16);
}

// f32 rounded to tf32 as wmma::__float_to_tf32 does (PTX cvt.rna.tf32.f32): to 10 mantissa bits,
// ties away from zero.
double tf32(float v) {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(v) + 0x1000u;
  return std::bit_cast<float>(bits & 0xffffe000u);
}

TEST_CASE("tensor-core products of 8-bit integers, doubles, tf32 and bfloat16 (IMMA, DMMA, HMMA)") {
  if (!have_nvcc() || !have_sass_tools("the coverage kernels are not run")) return;
  const SassOnlyRun r = run_coverage("mma_variants.cu");
  // 8-bit integers, A row-major and B column-major (ib[j * 16 + k] is B[k][j]): exact sums.
  const auto ia = values_of<std::int8_t>(r.kernel.initial, "ia");
  const auto ib = values_of<std::int8_t>(r.kernel.initial, "ib");
  const auto ic = values_of<std::int32_t>(r.result.memory, "ic");
  for (std::size_t i = 0; i < 16; ++i) {
    for (std::size_t j = 0; j < 16; ++j) {
      std::int32_t sum = 0;
      for (std::size_t k = 0; k < 16; ++k) sum += ia[i * 16 + k] * ib[j * 16 + k];
      CHECK(ic[i * 16 + j] == sum);
    }
  }
  // Doubles (m8n8k4, both row-major): IEEE arithmetic, so within a few units in the last place
  // of the largest product.
  const auto da = values_of<double>(r.kernel.initial, "da");
  const auto db = values_of<double>(r.kernel.initial, "db");
  const auto dc = values_of<double>(r.result.memory, "dc");
  for (std::size_t i = 0; i < 8; ++i) {
    for (std::size_t j = 0; j < 8; ++j) {
      long double exact = 0;
      double largest = 0;
      for (std::size_t k = 0; k < 4; ++k) {
        exact += static_cast<long double>(da[i * 4 + k]) * db[k * 8 + j];
        largest = std::max(largest, std::fabs(da[i * 4 + k] * db[k * 8 + j]));
      }
      CHECK(std::fabs(dc[i * 8 + j] - static_cast<double>(exact)) <= 4 * DBL_EPSILON * largest);
    }
  }
  // tf32 (m16n16k8, both row-major), the inputs rounded to tf32 by the kernel: products of
  // 11-bit mantissas are exact, and the tensor core keeps 25 bits below the largest term.
  const auto ta = values_of<float>(r.kernel.initial, "ta");
  const auto tb = values_of<float>(r.kernel.initial, "tb");
  const auto tc = values_of<float>(r.result.memory, "tc");
  for (std::size_t i = 0; i < 16; ++i) {
    for (std::size_t j = 0; j < 16; ++j) {
      double exact = 0, largest = 0;
      for (std::size_t k = 0; k < 8; ++k) {
        const double term = tf32(ta[i * 8 + k]) * tf32(tb[k * 16 + j]);
        exact += term;
        largest = std::max(largest, std::fabs(term));
      }
      CHECK(std::fabs(tc[i * 16 + j] - exact) <= std::ldexp(largest, -21));
    }
  }
  // bfloat16 of random bits (half of them zero: each u32 holds one bfloat16 and a zero): sums
  // from 2^128 on are infinities, as the H100 gave them; smaller ones within 2^-21 of the largest
  // term.
  const auto a = values_of<std::uint16_t>(r.kernel.initial, "a");
  const auto b = values_of<std::uint16_t>(r.kernel.initial, "b");
  const auto c = values_of<float>(r.result.memory, "c");
  int overflowing = 0;
  for (std::size_t i = 0; i < 16; ++i) {
    for (std::size_t j = 0; j < 16; ++j) {
      long double exact = 0;
      double largest = 0;
      for (std::size_t k = 0; k < 16; ++k) {
        const long double term =
            static_cast<long double>(bfloat16_value(a[i * 16 + k])) * bfloat16_value(b[j * 16 + k]);
        exact += term;
        largest = std::max(largest, static_cast<double>(std::fabs(term)));
      }
      const float got = c[i * 16 + j];
      if (std::fabs(exact) >= 0x1.0001p128L) {
        ++overflowing;
        CHECK(std::isinf(got));
        CHECK((got < 0) == (exact < 0));
      } else if (std::fabs(exact) < FLT_MAX / 2) {
        CHECK(std::fabs(got - static_cast<double>(exact)) <= std::ldexp(largest, -21));
      }
    }
  }
  CHECK(overflowing > 0);  // the random bits reach the overflow rule
}

// An 8-bit float by its definition: the nearest finite value (ties to the even code), at most the
// largest; found by trying every code, not by the simulator's arithmetic.
struct Fp8 {
  int mantissa_bits, bias;
  bool infinity;
  double value(unsigned code) const {
    const unsigned e = (code & 0x7fu) >> mantissa_bits, m = code & ((1u << mantissa_bits) - 1);
    const double v = e == 0 ? std::ldexp(m, 1 - bias - mantissa_bits)
                            : std::ldexp(m + (1u << mantissa_bits), int(e) - bias - mantissa_bits);
    return (code & 0x80u) != 0 ? -v : v;
  }
  bool finite(unsigned code) const {
    const unsigned top = 0x7fu >> mantissa_bits;
    if (infinity) return ((code & 0x7fu) >> mantissa_bits) != top;
    return (code & 0x7fu) != 0x7fu;
  }
  unsigned encode(double v) const {
    if (std::isnan(v)) return 0x7f;
    unsigned best = 0;
    double best_distance = INFINITY;
    for (unsigned code = 0; code < 256; ++code) {
      if (!finite(code) || std::signbit(value(code)) != std::signbit(v)) continue;
      const double d = std::fabs(value(code) - v);
      if (d < best_distance || (d == best_distance && (code & 1u) == 0)) {
        best = code;
        best_distance = d;
      }
    }
    return best;
  }
};
constexpr Fp8 kE4M3{3, 7, false};
constexpr Fp8 kE5M2{2, 15, true};

std::uint32_t per_part(std::uint32_t a, std::uint32_t b, unsigned bits,
                       std::uint32_t (*f)(std::uint32_t, std::uint32_t, unsigned)) {
  std::uint32_t out = 0;
  const std::uint32_t mask = bits == 8 ? 0xffu : 0xffffu;
  for (unsigned at = 0; at < 32; at += bits)
    out |= (f((a >> at) & mask, (b >> at) & mask, bits) & mask) << at;
  return out;
}

std::int32_t as_signed(std::uint32_t v, unsigned bits) {
  return static_cast<std::int32_t>(v << (32 - bits)) >> (32 - bits);
}

TEST_CASE("the SIMD video intrinsics and fp8 conversions run on their SASS") {
  if (!have_nvcc() || !have_sass_tools("the coverage kernels are not run")) return;
  const SassOnlyRun r = run_coverage("simd_fp8.cu");
  const auto u = values_of<std::uint32_t>(r.kernel.initial, "u");
  const auto v = values_of<std::uint32_t>(r.kernel.initial, "v");
  const auto f = values_of<float>(r.kernel.initial, "f");
  const auto out = values_of<std::uint32_t>(r.result.memory, "out");
  const auto e4 = values_of<std::uint8_t>(r.result.memory, "e4");
  const auto e5 = values_of<std::uint8_t>(r.result.memory, "e5");
  const auto back = values_of<float>(r.result.memory, "back");
  using P = std::uint32_t (*)(std::uint32_t, std::uint32_t, unsigned);
  const P add = [](std::uint32_t x, std::uint32_t y, unsigned) { return x + y; };
  const P sub = [](std::uint32_t x, std::uint32_t y, unsigned) { return x - y; };
  const P equal = [](std::uint32_t x, std::uint32_t y, unsigned) { return x == y ? ~0u : 0u; };
  const P greater = [](std::uint32_t x, std::uint32_t y, unsigned) { return x > y ? ~0u : 0u; };
  const P max = [](std::uint32_t x, std::uint32_t y, unsigned) { return std::max(x, y); };
  const P min_signed = [](std::uint32_t x, std::uint32_t y, unsigned bits) {
    return as_signed(x, bits) < as_signed(y, bits) ? x : y;
  };
  const P rounded_average = [](std::uint32_t x, std::uint32_t y, unsigned) {
    return (x + y + 1) >> 1;
  };
  const P halving_add = [](std::uint32_t x, std::uint32_t y, unsigned) { return (x + y) >> 1; };
  const P less = [](std::uint32_t x, std::uint32_t y, unsigned) { return x < y ? 1u : 0u; };
  const P saturated_add = [](std::uint32_t x, std::uint32_t y, unsigned bits) {
    const std::int32_t limit = (1 << (bits - 1)) - 1;
    return static_cast<std::uint32_t>(
        std::clamp(as_signed(x, bits) + as_signed(y, bits), -limit - 1, limit));
  };
  const P saturated_sub = [](std::uint32_t x, std::uint32_t y, unsigned) {
    return x > y ? x - y : 0u;
  };
  for (std::size_t i = 0; i < u.size(); ++i) {
    const std::uint32_t a = u[i], b = v[i];
    CAPTURE(i);
    CHECK(out[8 * i] == (per_part(a, b, 8, add) ^ per_part(a, b, 16, sub)));
    CHECK(out[8 * i + 1] == (per_part(a, b, 8, equal) | per_part(a, b, 16, greater)));
    CHECK(out[8 * i + 2] == per_part(a, b, 8, max) + per_part(a, b, 16, min_signed));
    CHECK(out[8 * i + 3] == (per_part(a, b, 8, rounded_average) ^ per_part(a, b, 16, halving_add)));
    std::uint32_t absolute = 0, negated = 0, absolute_differences = 0;
    for (unsigned k = 0; k < 4; ++k) {
      const std::int32_t byte = as_signed((a >> (8 * k)) & 0xffu, 8);
      absolute |= static_cast<std::uint32_t>(std::min(std::abs(byte), 127)) << (8 * k);
    }
    for (unsigned k = 0; k < 2; ++k) {
      negated |= ((0x10000u - ((b >> (16 * k)) & 0xffffu)) & 0xffffu) << (16 * k);
      absolute_differences += static_cast<std::uint32_t>(std::abs(
          as_signed((a >> (16 * k)) & 0xffffu, 16) - as_signed((b >> (16 * k)) & 0xffffu, 16)));
    }
    CHECK(out[8 * i + 4] == absolute + negated);
    CHECK(out[8 * i + 5] == per_part(a, b, 8, less) + absolute_differences);
    // __dp2a_lo: a's unsigned halves times b's two low unsigned bytes, plus 7; __dp2a_hi: a's
    // signed halves times b's two high signed bytes, less 3.
    const std::uint32_t low = (a & 0xffffu) * (b & 0xffu) + (a >> 16) * ((b >> 8) & 0xffu) + 7u;
    const std::int32_t high = as_signed(a & 0xffffu, 16) * as_signed((b >> 16) & 0xffu, 8) +
                              as_signed(a >> 16, 16) * as_signed(b >> 24, 8) - 3;
    CHECK(out[8 * i + 6] == low + static_cast<std::uint32_t>(high));
    CHECK(out[8 * i + 7] == (per_part(a, b, 16, saturated_add) ^ per_part(a, b, 8, saturated_sub)));
    // fp8: e4m3 of f, e5m2 of f * 100 (rounded to f32 first), both saturating; back to floats.
    const float scaled = f[i] * 100.0f;
    CHECK(e4[i] == kE4M3.encode(f[i]));
    CHECK(e5[i] == kE5M2.encode(scaled));
    const float x4 = static_cast<float>(kE4M3.value(kE4M3.encode(f[i])));
    CHECK(back[2 * i] == x4 + static_cast<float>(kE5M2.value(kE5M2.encode(scaled))));
    CHECK(back[2 * i + 1] == x4);
  }
}

TEST_CASE("double functions dividing by literals run on their SASS (MUFU.RCP64H of an immediate)") {
  if (!have_nvcc() || !have_sass_tools("the coverage kernels are not run")) return;
  const SassOnlyRun r = run_coverage("math_f64.cu");
  const auto x = values_of<double>(r.kernel.initial, "x");
  const auto y = values_of<double>(r.kernel.initial, "y");
  const auto out = values_of<double>(r.result.memory, "out");
  // CUDA's double functions are within 2 units in the last place (the CUDA Math API's table);
  // each output is a sum of a few, compared relative to the sum of their magnitudes.
  auto close = [](double got, std::initializer_list<double> terms) {
    double sum = 0, magnitude = 0;
    for (double t : terms) {
      sum += t;
      magnitude += std::fabs(t);
    }
    return std::fabs(got - sum) <= 1e-14 * magnitude;
  };
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double a = x[i], b = y[i];
    CAPTURE(i);
    CHECK(close(out[8 * i], {a / b, std::sqrt(std::fabs(a)), 1 / std::sqrt(std::fabs(b) + 1.0)}));
    CHECK(close(out[8 * i + 1], {std::fmod(a, b), std::remainder(a, b)}));
    CHECK(close(out[8 * i + 4], {std::tanh(a / 5.0), std::atan2(a, b), std::erf(b / 10.0)}));
    CHECK(close(out[8 * i + 5],
                {std::cbrt(a), std::hypot(a, b), std::expm1(a / 10.0), std::log1p(std::fabs(b))}));
  }
}

TEST_CASE("CUB's block reduce, scan and radix sort run on their SASS (and import: bmsk)") {
  if (!have_nvcc() || !have_sass_tools("the SASS-only kernels are not run")) return;
  const SassOnlyRun r = run_sass_only("coverage", "cub_block.cu", true);
  const auto in = values_of<std::int32_t>(r.kernel.initial, "in");
  const auto out = values_of<std::int32_t>(r.result.memory, "out");
  const auto sums = values_of<std::int32_t>(r.result.memory, "sums");
  auto wrap = [](std::int64_t v) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
  };
  for (std::size_t block = 0; block < 2; ++block) {
    const std::int32_t* v = &in[block * 128];
    std::int64_t total = 0;
    std::vector<std::int32_t> keys;
    for (std::size_t t = 0; t < 128; ++t) {
      total += v[t];
      keys.insert(keys.end(),
                  {v[t], v[t] ^ 0x55, wrap(std::int64_t{v[t]} * 3), wrap(-std::int64_t{v[t]})});
    }
    std::sort(keys.begin(), keys.end());  // the blocked arrangement: thread t's four in order
    CHECK(sums[block] == wrap(total));
    std::int64_t prefix = 0;  // the exclusive sum of the threads before
    for (std::size_t t = 0; t < 128; ++t) {
      CHECK(out[block * 128 + t] == wrap(prefix + keys[4 * t] + keys[4 * t + 3]));
      prefix += v[t];
    }
  }
}

TEST_CASE("a kernel that spills registers runs on its SASS (nvdisasm marks the spills)") {
  if (!have_nvcc() || !have_sass_tools("the coverage kernels are not run")) return;
  const SassOnlyRun r = run_sass_only("coverage", "register_spills.cu", true);
  // ptxas spilled: the SASS stores to local memory (its listing's STL, marked SpillRefill).
  CHECK(r.result.stats.sass.op(exec::SassOpClass::LocalSt) > 0);
  // Each thread's sum of r[k] * r[7k mod 40], fused in k's order as fmaf gives it.
  const auto in = values_of<float>(r.kernel.initial, "in");
  const auto out = values_of<float>(r.result.memory, "out");
  for (std::size_t i = 0; i < 1024; ++i) {
    float v[40];
    for (std::size_t k = 0; k < 40; ++k) v[k] = in[(i * 7 + k * 13) % 1024];
    float s = 0;
    for (std::size_t k = 0; k < 40; ++k) s = std::fma(v[k], v[(k * 7) % 40], s);
    CAPTURE(i);
    CHECK(out[i] == s);
  }
}

// Each 32-bit word of a vector atomic adds as its element type; the values vector_atomics.cu
// adds are small multiples of powers of two, so every sum is exact in any order (at most 16
// significant bits for f32; integers below 2048 for f16, 256 for bfloat16), and the old values
// returned are each thread's place in some order: k times the added vector, every k once.
TEST_CASE("sm_90's vector atomics add word by word on their SASS, old values returned") {
  if (!have_nvcc() || !have_sass_tools("the coverage kernels are not run")) return;
  const SassOnlyRun r = run_coverage("vector_atomics.cu");
  const auto in = values_of<std::int32_t>(r.kernel.initial, "in");
  const auto acc = values_of<float>(r.result.memory, "acc");
  const auto old4 = values_of<float>(r.result.memory, "old4");
  const auto old2 = values_of<float>(r.result.memory, "old2");
  const auto halves = values_of<std::uint32_t>(r.result.memory, "halves");
  double sum[4]{};
  double half_low = 0, half_high = 0, bf_low = 0;
  for (const std::int32_t v : in) {
    sum[0] += (v & 255) * 0.25;
    sum[1] += ((v >> 8) & 255) * 0.25;
    sum[2] += ((v >> 16) & 255) * 0.5;
    sum[3] += (v >> 24) & 127;
    half_low += v & 7;
    half_high += (v >> 3) & 7;
    bf_low += (v >> 6) & 1;
  }
  const double n = static_cast<double>(in.size());
  for (int c = 0; c < 4; ++c) CHECK(acc[static_cast<std::size_t>(c)] == sum[c]);
  CHECK(acc[4] == sum[2]);
  CHECK(acc[5] == sum[3]);
  for (int c = 0; c < 4; ++c) CHECK(acc[static_cast<std::size_t>(8 + c)] == (c + 1) * n);
  CHECK(acc[12] == 0.5 * n);
  CHECK(acc[13] == 8 * n);
  CHECK(acc[14] == 0.0f);  // the subnormal flushed (atom.add.f32 is .ftz)
  CHECK(std::signbit(acc[14]) == false);
  std::vector<float> firsts, halves_first;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const float k = old4[4 * i];
    CHECK(old4[4 * i + 1] == 2 * k);
    CHECK(old4[4 * i + 2] == 3 * k);
    CHECK(old4[4 * i + 3] == 4 * k);
    firsts.push_back(k);
    CHECK(old2[2 * i + 1] == 16 * old2[2 * i]);
    halves_first.push_back(old2[2 * i] * 2);
  }
  std::sort(firsts.begin(), firsts.end());
  std::sort(halves_first.begin(), halves_first.end());
  for (std::size_t k = 0; k < in.size(); ++k) {
    CHECK(firsts[k] == static_cast<float>(k));
    CHECK(halves_first[k] == static_cast<float>(k));
  }
  using ir::HalfFormat;
  auto pair = [](double low, double high, HalfFormat f) {
    return std::uint32_t{exec::encode_half(low, f, ir::Rounding::Nearest)} |
           std::uint32_t{exec::encode_half(high, f, ir::Rounding::Nearest)} << 16;
  };
  for (std::size_t w = 0; w < 4; ++w)
    CHECK(halves[w] == pair(half_low, half_high, HalfFormat::F16));
  for (std::size_t w = 4; w < 6; ++w) CHECK(halves[w] == pair(bf_low, 0.5 * n, HalfFormat::BF16));
  CHECK(halves[6] == 0u);
  CHECK(halves[7] == 0u);
}

TEST_CASE("CUDA's bit intrinsics run on their SASS (SGXT among them)") {
  if (!have_nvcc() || !have_sass_tools("the coverage kernels are not run")) return;
  const SassOnlyRun r = run_coverage("intrinsics_bits.cu");
  const auto av = values_of<std::uint32_t>(r.kernel.initial, "a");
  const auto bv = values_of<std::uint32_t>(r.kernel.initial, "b");
  const auto cv = values_of<std::uint64_t>(r.kernel.initial, "c");
  const auto out = values_of<std::uint32_t>(r.result.memory, "out");
  const auto out64 = values_of<std::uint64_t>(r.result.memory, "out64");
  auto brev32 = [](std::uint32_t v) {
    std::uint32_t reversed = 0;
    for (int k = 0; k < 32; ++k) reversed |= ((v >> k) & 1u) << (31 - k);
    return reversed;
  };
  auto ffs = [](std::uint64_t v) { return v == 0 ? 0u : unsigned(std::countr_zero(v)) + 1u; };
  for (std::size_t i = 0; i < av.size(); ++i) {
    const std::uint32_t x = av[i], y = bv[i];
    const std::uint64_t z = cv[i];
    CAPTURE(i);
    // __funnelshift_l(lo, hi, s): hi:lo shifted left by s & 31, the high word;
    // __funnelshift_rc: shifted right by min(s, 32), the low word.
    const std::uint64_t joined = std::uint64_t{y} << 32 | x;
    CHECK(out[8 * i] == static_cast<std::uint32_t>((joined << ((y & 63) & 31)) >> 32));
    CHECK(out[8 * i + 1] == static_cast<std::uint32_t>(joined >> std::min(y, 32u)));
    // __byte_perm(x, y, s): result byte n is byte (s >> 4n) & 7 of y:x.
    std::uint32_t permuted = 0;
    for (unsigned n = 0; n < 4; ++n)
      permuted |=
          static_cast<std::uint32_t>((joined >> (8 * (((y & 0x7777u) >> (4 * n)) & 7u))) & 0xffu)
          << (8 * n);
    CHECK(out[8 * i + 2] == permuted);
    CHECK(out[8 * i + 3] == (brev32(x) ^ ffs(y) ^ (unsigned(std::countl_zero(z)) << 8) ^
                             (unsigned(std::popcount(z)) << 16)));
    const auto sx = static_cast<std::int32_t>(x), sy = static_cast<std::int32_t>(y);
    const auto sad = static_cast<std::uint32_t>(std::llabs(std::int64_t{sx} - sy)) + 7u;
    const std::uint32_t usad = (x > y ? x - y : y - x) + 3u;
    CHECK(out[8 * i + 4] == static_cast<std::uint32_t>((std::uint64_t{x} * y) >> 32) + sad + usad);
    const auto halving = static_cast<std::uint32_t>((std::int64_t{sx} + sy) >> 1);
    CHECK(out[8 * i + 5] ==
          (static_cast<std::uint32_t>((std::uint64_t{x} + y) >> 1) ^
           static_cast<std::uint32_t>((std::uint64_t{x} + y + 1) >> 1) ^ halving));
    std::uint64_t reversed = 0;
    for (int k = 0; k < 64; ++k) reversed |= ((z >> k) & 1u) << (63 - k);
    CHECK(out[8 * i + 7] == static_cast<std::uint32_t>(ffs(z) + reversed % 1000));
    const auto product = static_cast<std::uint64_t>(x) * y;
    const auto high = static_cast<std::uint64_t>((static_cast<UInt128>(z) * product) >> 64);
    CHECK(out64[2 * i] == (high ^ (z / (y | 1u)) ^ (z % (x | 1u))));
    const auto sz = static_cast<std::int64_t>(z);
    const auto signed_high =
        static_cast<std::int64_t>((static_cast<Int128>(sz) * static_cast<std::int64_t>(x)) >> 64);
    CHECK(out64[2 * i + 1] ==
          static_cast<std::uint64_t>(sz / (sy | 1)) + static_cast<std::uint64_t>(signed_high));
  }
}

}  // namespace
}  // namespace warpsim::test
