// CUDA kernels the IR does not import (recursion, clock64, packed halves, dp4a), run
// on their SASS alone:
// the importer keeps their parameters for the launch (ptx::ImportOptions::bodies_optional) and the
// SASS executor runs ptxas's code. Outputs checked against C++ references.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "sim/core/exec/half_float.hpp"
#include "tests/unit/run_support.hpp"
#include "tests/unit/sass_only_run.hpp"
#include "tests/unit/sass_support.hpp"
#include "tests/unit/textbook_support.hpp"
#include "tools/warpsim/sass_frontend.hpp"

namespace warpsim::test {
namespace {

int fib(int k) {
  return k < 2 ? k : fib(k - 1) + fib(k - 2);
}

TEST_CASE("a recursive device function runs on its SASS, with its stack") {
  if (!have_nvcc() || !have_sass_tools("the SASS-only kernels are not run")) return;
  const SassOnlyRun r = run_sass_only("sass_only", "recursive_fib.cu");
  const auto in = values_of<std::int32_t>(r.kernel.initial, "in");
  const auto out = values_of<std::int32_t>(r.result.memory, "out");
  const auto n = static_cast<int>(in.size());
  for (int i = 0; i < n; ++i) {
    int window[16];
    for (int k = 0; k < 16; ++k) window[k] = in[static_cast<std::size_t>((i + k) % n)];
    const int v = window[in[static_cast<std::size_t>(i)] & 15];
    // fib(v & 7) + in[i] (the __ldg) + in[i] (the __ldcs), then the __stcs adds 1; in 32 bits.
    const std::uint32_t want = static_cast<std::uint32_t>(fib(v & 7)) +
                               2u * static_cast<std::uint32_t>(in[static_cast<std::size_t>(i)]) +
                               1u;
    CHECK(static_cast<std::uint32_t>(out[static_cast<std::size_t>(i)]) == want);
  }
}

TEST_CASE("match, reduce, 64-bit and width-16 shuffles and clock64 run on their SASS") {
  if (!have_nvcc() || !have_sass_tools("the SASS-only kernels are not run")) return;
  const SassOnlyRun r = run_sass_only("sass_only", "warp_match_reduce.cu");
  const auto in = values_of<std::int32_t>(r.kernel.initial, "in");
  const auto out = values_of<std::int32_t>(r.result.memory, "out");
  const auto dout = values_of<double>(r.result.memory, "dout");
  for (std::size_t warp = 0; warp < in.size() / 32; ++warp) {
    const std::int32_t* v = &in[warp * 32];
    std::uint32_t sum = 0, positive = 0;
    std::int32_t most = v[0];
    for (unsigned l = 0; l < 32; ++l) {
      sum += static_cast<std::uint32_t>(v[l] & 0xff);
      most = std::max(most, v[l]);
      if (v[l] > 0) positive |= 1u << l;
    }
    for (unsigned l = 0; l < 32; ++l) {
      std::uint32_t same = 0;  // the lanes whose value has the same low two bits
      for (unsigned o = 0; o < 32; ++o) {
        if ((v[o] & 3) == (v[l] & 3)) same |= 1u << o;
      }
      // Lane l ^ 4 stays in l's 16-lane segment; the 64-bit product's low word.
      const auto xored = static_cast<std::uint32_t>(static_cast<std::int64_t>(v[l ^ 4u]) * 3);
      const std::uint32_t want = same ^ sum ^ static_cast<std::uint32_t>(most) ^ xored ^
                                 static_cast<std::uint32_t>(std::popcount(positive));
      CHECK(static_cast<std::uint32_t>(out[warp * 32 + l]) == want);
      // __shfl_down by 1: the next lane's value; the last lane keeps its own.
      const double below = static_cast<double>(v[l < 31 ? l + 1 : l]);
      CHECK(dout[warp * 32 + l] == static_cast<double>(v[l]) + below);
    }
  }
  CHECK(values_of<std::int64_t>(r.result.memory, "elapsed")[0] == 1);
}

TEST_CASE("a 16-bit compare-and-swap runs as ptxas's word loop; past a buffer's end, says why") {
  if (!have_nvcc() || !have_sass_tools("the SASS-only kernels are not run")) return;
  const SassOnlyRun r = run_sass_only("sass_only", "short_cas.cu");
  // Warps run in order, lanes in order within a warp: thread k < 8 claims slot k with k + 1 and
  // found 0; every later thread t finds slot t % 8 claimed, holding t % 8 + 1.
  const auto slots = values_of<std::uint16_t>(r.result.memory, "slots");
  const auto found = values_of<std::uint16_t>(r.result.memory, "found");
  for (unsigned k = 0; k < 8; ++k) CHECK(slots[k] == k + 1);
  for (unsigned t = 0; t < 128; ++t) {
    CAPTURE(t);
    CHECK(found[t] == (t < 8 ? 0u : t % 8 + 1));
  }
  // Seven slots take 14 bytes: slot 6's word runs 2 bytes past the buffer, which a GPU's
  // allocation would hold; the fault says so and what to do.
  const std::string file = (source_dir() / "kernels_cuda/sass_only/short_cas.cu").string();
  const auto short_buffer =
      run_cli({"run", file, "--launch-file",
               (source_dir() / "kernels_cuda/sass_only/short_cas.launch").string(), "--frontend",
               "sass", "--arg", "slots=u16[7] zero"});
  CHECK(short_buffer.exit_code == 3);
  CHECK(short_buffer.err.find("2 past the end of buffer 'slots' (14 bytes)") != std::string::npos);
  CHECK(short_buffer.err.find("a multiple of 4 bytes") != std::string::npos);
}

TEST_CASE("__dp4a and __dp2a run on their SASS, and __trap() is a located fault") {
  if (!have_nvcc() || !have_sass_tools("the SASS-only kernels are not run")) return;
  const SassOnlyRun r = run_sass_only("sass_only", "dot_product_bytes.cu");
  const auto a = values_of<std::uint32_t>(r.kernel.initial, "a");
  const auto b = values_of<std::uint32_t>(r.kernel.initial, "b");
  const auto out = values_of<std::int32_t>(r.result.memory, "out");
  // Byte k and half k, unsigned and sign-extended.
  auto u8 = [](std::uint32_t v, unsigned k) { return std::int64_t{(v >> (8 * k)) & 0xffu}; };
  auto s8 = [](std::uint32_t v, unsigned k) {
    return std::int64_t{static_cast<std::int8_t>((v >> (8 * k)) & 0xffu)};
  };
  auto u16 = [](std::uint32_t v, unsigned k) { return std::int64_t{(v >> (16 * k)) & 0xffffu}; };
  auto s16 = [](std::uint32_t v, unsigned k) {
    return std::int64_t{static_cast<std::int16_t>((v >> (16 * k)) & 0xffffu)};
  };
  auto wrap = [](std::int64_t v) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
  };
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::uint32_t x = a[i], y = b[i];
    std::int64_t unsigned4 = 7, signed4 = -3;
    for (unsigned k = 0; k < 4; ++k) {
      unsigned4 += u8(x, k) * u8(y, k);
      signed4 += s8(x, k) * s8(y, k);
    }
    // __dp2a_lo: x's halves times y's bytes 0 and 1; __dp2a_hi: times bytes 2 and 3.
    const std::int64_t low2 = 11 + u16(x, 0) * u8(y, 0) + u16(x, 1) * u8(y, 1);
    const std::int64_t high2 = -5 + s16(x, 0) * s8(y, 2) + s16(x, 1) * s8(y, 3);
    CHECK(out[4 * i] == wrap(unsigned4));
    CHECK(out[4 * i + 1] == wrap(signed4));
    CHECK(out[4 * i + 2] == wrap(low2));
    CHECK(out[4 * i + 3] == wrap(high2));
  }
  // Thread 70 (block 1, thread 6) traps: exit 3, at the CUDA line of the __trap().
  const std::string file = (source_dir() / "kernels_cuda/sass_only/dot_product_bytes.cu").string();
  const auto trapped =
      run_cli({"run", file, "--launch-file",
               (source_dir() / "kernels_cuda/sass_only/dot_product_bytes.launch").string(),
               "--frontend", "sass", "--arg", "trapflag=s32[1] constant(70)"});
  CHECK(trapped.exit_code == 3);
  CHECK(trapped.err.find("dot_product_bytes.cu:13: kernel fault") != std::string::npos);
  CHECK(trapped.err.find("the kernel trapped") != std::string::npos);
  CHECK(trapped.err.find("block (1, 0, 0), thread (6, 0, 0)") != std::string::npos);
}

// A packed word's half as a double.
struct HalfMathWords {
  ir::HalfFormat format;
  double value(std::uint32_t word, unsigned half) const {
    const auto bits = static_cast<std::uint16_t>(word >> (16 * half));
    return double{std::bit_cast<float>(exec::half_to_f32_bits(bits, format))};
  }
};

TEST_CASE("packed-half atomics add on their SASS") {
  if (!have_nvcc() || !have_sass_tools("the SASS-only kernels are not run")) return;
  const SassOnlyRun r = run_sass_only("sass_only", "half2_atomics.cu");
  // 64 threads: each of the 4 sums gets 16 adds of (2.0, 1.0), each of the 2 bfloat16 sums 32
  // of (1.0, 1.0); exact in either format, whatever the order.
  const HalfMathWords f16{ir::HalfFormat::F16}, bf16{ir::HalfFormat::BF16};
  for (const std::uint32_t word : values_of<std::uint32_t>(r.result.memory, "sum")) {
    CHECK(f16.value(word, 1) == 32.0);
    CHECK(f16.value(word, 0) == 16.0);
  }
  for (const std::uint32_t word : values_of<std::uint32_t>(r.result.memory, "bsum")) {
    CHECK(bf16.value(word, 1) == 32.0);
    CHECK(bf16.value(word, 0) == 32.0);
  }
}

TEST_CASE("packed-half compares and byte differences run on their SASS") {
  if (!have_nvcc() || !have_sass_tools("the SASS-only kernels are not run")) return;
  const SassOnlyRun r = run_sass_only("sass_only", "half_compare.cu");
  const auto a = values_of<std::uint32_t>(r.kernel.initial, "a");
  const auto b = values_of<std::uint32_t>(r.kernel.initial, "b");
  const auto u = values_of<std::uint32_t>(r.kernel.initial, "u");
  const auto v = values_of<std::uint32_t>(r.kernel.initial, "v");
  const auto less = values_of<std::uint32_t>(r.result.memory, "less");
  const auto flags = values_of<std::uint32_t>(r.result.memory, "flags");
  const auto bytes = values_of<std::uint32_t>(r.result.memory, "bytes");
  const HalfMathWords f16{ir::HalfFormat::F16};
  const std::size_t n = a.size();
  for (std::size_t i = 0; i < n; ++i) {
    // A comparison with a NaN is false, except the unordered ones (__hbgeu2), where it is true.
    const double x0 = f16.value(a[i], 0), x1 = f16.value(a[i], 1);
    const double y0 = f16.value(b[i], 0), y1 = f16.value(b[i], 1);
    const std::uint32_t want_less = (x0 < y0 ? 0x3c00u : 0u) | (x1 < y1 ? 0x3c00u : 0u) << 16;
    const auto geu = [](double p, double q) { return std::isnan(p) || std::isnan(q) || p >= q; };
    const std::uint32_t want_flags = (x0 < y0 && x1 < y1 ? 1u : 0u) | (x0 > y1 ? 2u : 0u) |
                                     (std::isnan(x0) ? 4u : 0u) |
                                     (geu(x0, y0) && geu(x1, y1) ? 8u : 0u);
    std::uint32_t want_unsigned = 0, want_signed = 0;
    for (unsigned k = 0; k < 4; ++k) {
      const auto ub = static_cast<int>((u[i] >> (8 * k)) & 0xffu);
      const auto vb = static_cast<int>((v[i] >> (8 * k)) & 0xffu);
      const int sb = static_cast<std::int8_t>(ub), tb = static_cast<std::int8_t>(vb);
      want_unsigned |= static_cast<std::uint32_t>(std::abs(ub - vb)) << (8 * k);
      want_signed |= (static_cast<std::uint32_t>(std::abs(sb - tb)) & 0xffu) << (8 * k);
    }
    CAPTURE(i);
    CHECK(less[i] == want_less);
    CHECK(flags[i] == want_flags);
    CHECK(bytes[i] == want_unsigned);
    CHECK(bytes[n + i] == want_signed);
  }
}

TEST_CASE("wmma tile products run on their SASS (LDSM and HMMA.16816)") {
  if (!have_nvcc() || !have_sass_tools("the SASS-only kernels are not run")) return;
  const SassOnlyRun r = run_sass_only("sass_only", "wmma_tiles.cu");
  const auto ai = values_of<std::uint32_t>(r.kernel.initial, "ai");
  const auto bi = values_of<std::uint32_t>(r.kernel.initial, "bi");
  const auto af = values_of<float>(r.kernel.initial, "af");
  const auto bf = values_of<float>(r.kernel.initial, "bf");
  const auto c32 = values_of<float>(r.result.memory, "c32");
  const auto c16 = values_of<std::uint32_t>(r.result.memory, "c16");
  const auto cb = values_of<float>(r.result.memory, "cb");
  const auto creal = values_of<float>(r.result.memory, "creal");
  // The kernel's small integers: (word & 7) - 3, A row-major, B row-major (and column-major
  // for the bfloat16 product: its element (k, n) at n * 16 + k).
  auto small = [](std::uint32_t w) { return static_cast<int>(w & 7u) - 3; };
  const HalfMathWords f16{ir::HalfFormat::F16};
  for (unsigned i = 0; i < 16; ++i) {
    for (unsigned j = 0; j < 16; ++j) {
      int sum = 0, sum_b = 0;
      double real = 0;
      for (unsigned k = 0; k < 16; ++k) {
        sum += small(ai[i * 16 + k]) * small(bi[k * 16 + j]);
        sum_b += small(ai[i * 16 + k]) * small(bi[j * 16 + k]);
        // Each float rounded to a half first (__float2half_rn), the products then exact.
        real +=
            f16.value(exec::encode_half(af[i * 16 + k], ir::HalfFormat::F16, ir::Rounding::Nearest),
                      0) *
            f16.value(exec::encode_half(bf[k * 16 + j], ir::HalfFormat::F16, ir::Rounding::Nearest),
                      0);
      }
      CAPTURE(i);
      CAPTURE(j);
      CHECK(c32[i * 16 + j] == static_cast<float>(sum + 1));  // the accumulator filled with 1
      const std::uint32_t packed = c16[(i * 16 + j) / 2];
      CHECK(f16.value(packed, j % 2) == sum - 2);  // filled with -2, f16 (packed two a word)
      CHECK(cb[j * 16 + i] == static_cast<float>(sum_b) + 0.5f);  // stored column-major
      CHECK(creal[i * 16 + j] == doctest::Approx(real).epsilon(1e-6));
    }
  }
}

// The packed-half reference: each half as a double (exact), results rounded once to nearest.
struct HalfMath {
  ir::HalfFormat format;
  double value(std::uint32_t word, unsigned half) const {
    const auto bits = static_cast<std::uint16_t>(word >> (16 * half));
    return double{std::bit_cast<float>(exec::half_to_f32_bits(bits, format))};
  }
  // x rounded to the format; a NaN is the GPU's canonical 0x7fff. `exact`: the caller's double
  // x is the exact result, or it lies off a midpoint of two halves (then rounding the double is
  // rounding the exact value); checked, so the reference never double-rounds silently.
  std::uint16_t round(double x, bool exact) const {
    if (std::isnan(x)) return 0x7fff;
    if (!exact) {
      const auto down = exec::encode_half(x, format, ir::Rounding::Down);
      const auto up = exec::encode_half(x, format, ir::Rounding::Up);
      CHECK((down == up || value(down, 0) + value(up, 0) != 2 * x));
    }
    return exec::encode_half(x, format, ir::Rounding::Nearest);
  }
  // a + b and whether the double holds it exactly (Knuth's TwoSum error is zero).
  std::pair<double, bool> sum(double a, double b) const {
    const double s = a + b, bb = s - a;
    return {s, !std::isfinite(s) || (a - (s - bb)) + (b - bb) == 0.0};
  }
  std::uint16_t add(double a, double b) const {
    const auto [s, exact] = sum(a, b);
    return round(s, exact);
  }
  std::uint16_t fma(double a, double b, double c) const {
    const auto [s, exact] = sum(a * b, c);  // the product of two halves is exact
    return round(s, exact);
  }
  // HMNMX2: the other operand of one NaN; -0 below +0.
  std::uint16_t pick(double a, double b, bool minimum) const {
    if (std::isnan(a) && std::isnan(b)) return 0x7fff;
    const bool take_a =
        std::isnan(b) || (!std::isnan(a) && (minimum ? (a < b || (a == b && std::signbit(a)))
                                                     : (a > b || (a == b && !std::signbit(a)))));
    return round(take_a ? a : b, true);
  }
};

TEST_CASE("packed half and bfloat16 arithmetic runs on its SASS, rounded as the GPU rounds") {
  if (!have_nvcc() || !have_sass_tools("the SASS-only kernels are not run")) return;
  const SassOnlyRun r = run_sass_only("coverage", "half2_arith.cu", true);
  const auto a = values_of<std::uint32_t>(r.kernel.initial, "a");
  const auto b = values_of<std::uint32_t>(r.kernel.initial, "b");
  const auto e = values_of<std::uint32_t>(r.kernel.initial, "e");
  const auto c = values_of<std::uint32_t>(r.result.memory, "c");
  const auto d = values_of<std::uint32_t>(r.result.memory, "d");
  const HalfMath f16{ir::HalfFormat::F16}, bf16{ir::HalfFormat::BF16};
  const std::size_t n = a.size();
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t want_c = 0, want_d = 0;
    for (unsigned h = 0; h < 2; ++h) {
      // c = max(((x * y + (x + y)) * (x - y)), min(x, y)), each step rounded to a half.
      const double x = f16.value(a[i], h), y = f16.value(b[i], h);
      const double s = f16.value(f16.add(x, y), 0);
      const double fused = f16.value(f16.fma(x, y, s), 0);
      const double diff = f16.value(f16.add(x, -y), 0);
      const double product = f16.value(f16.fma(fused, diff, -0.0), 0);
      const double low = f16.value(f16.pick(x, y, true), 0);
      want_c |= std::uint32_t{f16.pick(product, low, false)} << (16 * h);
      // d = min(u * v + (u + v), u * u) in bfloat16, v the next element's.
      const double u = bf16.value(e[i], h), v = bf16.value(e[(i + 1) % n], h);
      const double t = bf16.value(bf16.add(u, v), 0);
      const double fused_b = bf16.value(bf16.fma(u, v, t), 0);
      const double square = bf16.value(bf16.fma(u, u, -0.0), 0);
      want_d |= std::uint32_t{bf16.pick(fused_b, square, true)} << (16 * h);
    }
    CAPTURE(i);
    CHECK(c[i] == want_c);
    CHECK(d[i] == want_d);
  }
}

TEST_CASE("calls through function pointers go to each lane's own target and return") {
  if (!have_nvcc() || !have_sass_tools("the SASS-only kernels are not run")) return;
  const SassOnlyRun r = run_sass_only("sass_only", "function_pointers.cu");
  const auto x = values_of<float>(r.kernel.initial, "x");
  const auto y = values_of<float>(r.result.memory, "y");
  const auto z = values_of<std::int32_t>(r.result.memory, "z");
  for (std::size_t i = 0; i < 192; ++i) {
    CAPTURE(i);
    if (i >= 190) {  // past n: left as the launch made them
      CHECK(y[i] == 0.0f);
      CHECK(z[i] == 0);
      continue;
    }
    // i % 3 picks twice, square or negate; each one rounding at most, as the host's float.
    const float want = i % 3 == 0 ? 2.0f * x[i] : i % 3 == 1 ? x[i] * x[i] : -x[i];
    CHECK(std::bit_cast<std::uint32_t>(y[i]) == std::bit_cast<std::uint32_t>(want));
    CHECK(z[i] == fib(static_cast<int>(i & 7)));
  }
}

TEST_CASE("a kernel the IR cannot import is an error on the IR, a note on the SASS") {
  if (!have_nvcc()) return;
  const std::string file = (source_dir() / "kernels_cuda/sass_only/recursive_fib.cu").string();
  const std::string launch =
      (source_dir() / "kernels_cuda/sass_only/recursive_fib.launch").string();
  const auto on_ir = run_cli({"run", file, "--launch-file", launch, "--frontend", "ir"});
  CHECK(on_ir.exit_code == 2);
  CHECK(on_ir.err.find("recursion is not imported") != std::string::npos);
  if (!have_sass_tools("the SASS run is not checked")) return;
  const auto on_sass = run_cli({"run", file, "--launch-file", launch, "--frontend", "sass"});
  CHECK(on_sass.exit_code == 0);
  CHECK(on_sass.err.find("runs on its SASS alone") != std::string::npos);
  CHECK(on_sass.err.find("recursion is not imported") != std::string::npos);
}

}  // namespace
}  // namespace warpsim::test
