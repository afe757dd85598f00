// Textbook CUDA kernels, continued: cooperative groups' tiled reductions, the integer intrinsics
// on bytes and shorts, a per-thread array in local memory, a __noinline__ function, double
// exp, log, sin, cos, tan, pow, atan2 and cbrt, producer and consumer warps on named barriers;
// each output against a C++ reference (see textbook_kernels_test.cpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "tests/unit/textbook_support.hpp"

namespace warpsim::test {
namespace {

TEST_CASE("tile_reduce_cg sums the grid through 32-thread tiles and takes 8-thread tiles' max") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("tile_reduce_cg.cu");
  const auto in = r.initial<std::int32_t>("in");
  const auto totals = r.final<std::int32_t>("totals");
  // n = 1000 of the 1024 threads read a value; the other 24 bring 0 to both reductions. The
  // totals start at -2000 (below every value), and integer sums do not depend on their order.
  constexpr std::size_t n = 1000;
  std::int32_t sum = 0, largest = 0;  // 0: the padding threads' value
  for (std::size_t i = 0; i < n; ++i) {
    sum += in[i];
    largest = std::max(largest, in[i]);
  }
  CHECK(totals[0] == -2000 + sum);
  CHECK(totals[1] == largest);
}

TEST_CASE("named_barrier_pipeline hands 16 tiles a block from producer to consumer warps") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("named_barrier_pipeline.cu");
  const auto in = r.initial<float>("in");
  const auto out = r.final<float>("out");
  // Block b's tile t holds in[(b * 16 + t) * 64 + j] * 2 (producers); the consumers write
  // element j of the tile from its element 63 - j, plus 1. Both steps are exact in float
  // (doubling, then one rounded add, as the kernel does).
  REQUIRE(out.size() == 8192);
  for (std::size_t tile = 0; tile < 8 * 16; ++tile) {
    for (std::size_t j = 0; j < 64; ++j) {
      CAPTURE(tile);
      CAPTURE(j);
      CHECK(out[tile * 64 + j] == in[tile * 64 + 63 - j] * 2.0f + 1.0f);
    }
  }
}

TEST_CASE("small_int_ops: a byte histogram, __mul24, __umulhi, a signed char wrap and __sad") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("small_int_ops.cu");
  const auto pixel_words = r.initial<std::uint32_t>("pixels");
  const auto value_words = r.initial<std::uint32_t>("values");
  const auto out = r.final<std::int32_t>("out");
  const auto hist = r.final<std::uint32_t>("hist");
  // The buffers are 32-bit words holding the bytes and shorts little-endian.
  auto pixel = [&](std::size_t i) {
    return static_cast<std::uint8_t>(pixel_words[i / 4] >> (8 * (i % 4)));
  };
  auto value = [&](std::size_t i) {
    return static_cast<std::int16_t>(
        static_cast<std::uint16_t>(value_words[i / 2] >> (16 * (i % 2))));
  };
  constexpr std::size_t n = 500;
  std::vector<std::uint32_t> want_hist(64, 0);
  for (std::size_t i = 0; i < n; ++i) {
    CAPTURE(i);
    const std::uint8_t p = pixel(i);
    const std::int16_t q = value(i);
    ++want_hist[p >> 2];
    // __mul24 of a short and a byte: both fit 24 bits, so it is their plain product.
    // __umulhi: the high word of the 64-bit product of the wrapped q * 77777 and 123456789.
    const auto wrapped = static_cast<std::uint32_t>(static_cast<std::int32_t>(q)) * 77777u;
    const auto high = static_cast<std::uint32_t>((std::uint64_t{wrapped} * 123456789u) >> 32);
    CHECK(out[2 * i] == static_cast<std::int32_t>(static_cast<std::uint32_t>(q * p) + high));
    // (signed char)(p + q): the sum's low byte, signed; __sad(q, p, 3) = |q - p| + 3.
    const auto low_byte = static_cast<std::int8_t>(static_cast<std::uint8_t>(p + q));
    CHECK(out[2 * i + 1] == low_byte + std::abs(q - p) + 3);
  }
  for (std::size_t i = n; i < out.size() / 2; ++i) CHECK(out[2 * i] == -1);  // never written
  CHECK(hist == want_hist);
}

TEST_CASE("decimal_digits_local counts each thread's last eight decimal digits in local memory") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("decimal_digits_local.cu");
  const auto in = r.initial<std::uint32_t>("in");
  const auto out = r.final<std::uint32_t>("out");
  constexpr std::size_t n = 500;
  for (std::size_t i = 0; i < in.size(); ++i) {
    CAPTURE(i);
    if (i >= n) {
      CHECK(out[i] == 0u);  // the launch's zero fill
      continue;
    }
    unsigned counts[10] = {};
    for (unsigned v = in[i], d = 0; d < 8; ++d, v /= 10) ++counts[v % 10];
    std::uint32_t packed = 0;
    for (const unsigned c : counts) packed = packed * 3 + c;
    CHECK(out[i] == packed);
  }
}

TEST_CASE("noinline_collatz calls a __noinline__ device function, inlined at import") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("noinline_collatz.cu");
  const auto in = r.initial<std::int32_t>("in");
  const auto out = r.final<std::int32_t>("out");
  for (std::size_t i = 0; i < in.size(); ++i) {
    CAPTURE(i);
    // The function's loop: halve an even x, take 3x + 1 of an odd one, at most 300 steps.
    std::int32_t x = in[i] % 1000 + 1, steps = 0;
    while (x != 1 && steps < 300) {
      x = (x & 1) != 0 ? 3 * x + 1 : x >> 1;
      ++steps;
    }
    CHECK(out[i] == steps);
  }
}

TEST_CASE("log_exp_f64: double exp and log within CUDA's 1 ulp, sqrt and division rounded") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("log_exp_f64.cu");
  const auto x = r.initial<double>("x");
  const auto y = r.final<double>("y");
  // The distance in units in the last place between two doubles of one sign.
  auto ulps = [](double a, double b) {
    return std::llabs(std::bit_cast<std::int64_t>(a) - std::bit_cast<std::int64_t>(b));
  };
  constexpr std::size_t n = 250;
  for (std::size_t i = 0; i < n; ++i) {
    CAPTURE(i);
    // CUDA's stated bounds are 1 ulp for exp and log; the host's libm adds up to 1 more.
    CHECK(ulps(y[3 * i], std::exp(x[i])) <= 2);
    CHECK(ulps(y[3 * i + 1], std::log(std::fabs(x[i]) + 1.0)) <= 2);
    // nvcc contracts 1.0 + v * v into one fma (its default -fmad=true).
    CHECK(y[3 * i + 2] == std::sqrt(std::fabs(x[i])) / std::fma(x[i], x[i], 1.0));
  }
  for (std::size_t i = 3 * n; i < y.size(); ++i) CHECK(y[i] == 0.0);  // never written
}

TEST_CASE("trig_f64: double sin, cos and tan within CUDA's 2 ulp, through the slow path too") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("trig_f64.cu");
  const auto x = r.initial<double>("x");
  const auto y = r.final<double>("y");
  auto ulps = [](double a, double b) {
    return std::llabs(std::bit_cast<std::int64_t>(a) - std::bit_cast<std::int64_t>(b));
  };
  std::size_t reduced_slowly = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    CAPTURE(i);
    // CUDA's stated bounds are 2 ulp; the host's libm adds up to 1 more.
    CHECK(ulps(y[3 * i], std::sin(x[i])) <= 3);
    CHECK(ulps(y[3 * i + 1], std::cos(x[i] * 1e-3)) <= 3);
    CHECK(ulps(y[3 * i + 2], std::tan(x[i] * 1e-6)) <= 3);
    if (std::fabs(x[i]) >= 0x1p31) ++reduced_slowly;
  }
  CHECK(reduced_slowly > 200);  // |x| up to 1e12: nearly every sine takes the slow path
}

TEST_CASE("pow_f64: double pow, atan2 and cbrt within CUDA's stated ulps") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("pow_f64.cu");
  const auto x = r.initial<double>("x");
  const auto y = r.final<double>("y");
  auto ulps = [](double a, double b) {
    return std::llabs(std::bit_cast<std::int64_t>(a) - std::bit_cast<std::int64_t>(b));
  };
  for (std::size_t i = 0; i < x.size(); ++i) {
    CAPTURE(i);
    // CUDA's bounds: pow and atan2 2 ulp, cbrt 1; the host's libm adds up to 1 more.
    CHECK(ulps(y[3 * i], std::pow(x[i], 1.7)) <= 3);
    CHECK(ulps(y[3 * i + 1], std::atan2(x[i] - 25.0, 3.0)) <= 3);
    CHECK(ulps(y[3 * i + 2], std::cbrt(x[i] - 25.0)) <= 2);
  }
}

TEST_CASE("async_copy_pipeline: cp.async double buffering sums each neighbour's float4 per tile") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("async_copy_pipeline.cu");
  const auto in = r.initial<float>("in");
  const auto out = r.final<float>("out");
  const std::size_t tiles = 8, threads = 128;  // the launch file's
  for (std::size_t b = 0; b < out.size() / threads; ++b) {
    for (std::size_t t = 0; t < threads; ++t) {
      // Thread t adds, tile by tile, the four floats of element (t + 1) % 128, in the kernel's
      // order (x + y + z + w, then into the sum): float additions, the same rounding.
      float sum = 0.0f;
      for (std::size_t k = 0; k < tiles; ++k) {
        const std::size_t e = ((b * tiles + k) * threads + (t + 1) % threads) * 4;
        sum += in[e] + in[e + 1] + in[e + 2] + in[e + 3];
      }
      CAPTURE(b);
      CAPTURE(t);
      CHECK(out[b * threads + t] == sum);
    }
  }
}

}  // namespace
}  // namespace warpsim::test
