// Every seed kernel's output against a reference computed here, independently, in plain C++
// (the same float operations in the same order, so float results are exact too).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "tests/unit/run_support.hpp"

namespace warpsim::test {
namespace {

TEST_CASE("vecAdd adds the first vectorLength elements and leaves C's tail alone") {
  const auto k = load_kernel("vecAdd.kir");
  const auto result = k.run();
  const auto a = values_of<float>(k.initial, "A");
  const auto b = values_of<float>(k.initial, "B");
  const auto c = values_of<float>(result.memory, "C");
  REQUIRE(c.size() == 1000000);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < c.size(); ++i) wrong += c[i] != a[i] + b[i];
  CHECK(wrong == 0);
}

TEST_CASE("saxpy computes fma(a, x, y) for every element") {
  const auto k = load_kernel("saxpy.kir");
  const auto result = k.run();
  const auto x = values_of<float>(k.initial, "x");
  const auto y0 = values_of<float>(k.initial, "y");
  const auto y = values_of<float>(result.memory, "y");
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < y.size(); ++i) wrong += y[i] != std::fma(2.0f, x[i], y0[i]);
  CHECK(wrong == 0);
}

// c is the transpose of a: c[col * m + row] == a[row * m + col] (the same under both index
// conventions, since both kernels transpose the whole matrix).
void check_transpose(const char* file) {
  CAPTURE(file);
  const auto k = load_kernel(file);
  const auto result = k.run();
  const auto a = values_of<float>(k.initial, "a");
  const auto c = values_of<float>(result.memory, "c");
  const std::size_t m = 2048;
  REQUIRE(c.size() == m * m);
  std::size_t wrong = 0;
  for (std::size_t row = 0; row < m; ++row) {
    for (std::size_t col = 0; col < m; ++col) wrong += c[col * m + row] != a[row * m + col];
  }
  CHECK(wrong == 0);
}

TEST_CASE("the three transposes each produce the transpose of a") {
  check_transpose("cuda_transpose.kir");
  check_transpose("smem_transpose.kir");
  check_transpose("smem_transpose_padded.kir");
}

TEST_CASE("example_syncthreads: each block's thread 0 sums its 128 inputs as floats") {
  const auto k = load_kernel("example_syncthreads.kir");
  const auto result = k.run();
  const auto in = values_of<std::int32_t>(k.initial, "input_data");
  const auto out = values_of<std::int32_t>(result.memory, "output_data");
  REQUIRE(out.size() == 1024);
  for (std::size_t b = 0; b < out.size(); ++b) {
    float sum = 0;
    for (std::size_t i = 0; i < 128; ++i) sum += static_cast<float>(in[b * 128 + i]);
    CHECK(out[b] == static_cast<std::int32_t>(sum));
  }
}

TEST_CASE("sum_reduce totals 2^18 ones to exactly 262144") {
  // Each block adds 256 ones (exact in f64, then f32), and 1024 partial sums of 256 add up
  // exactly in f32 since every partial total is an integer below 2^24.
  const auto k = load_kernel("sum_reduce.kir");
  const auto s = values_of<float>(k.run().memory, "s");
  CHECK(s.at(0) == 262144.0f);
}

TEST_CASE("compute: out[i] = coeffs[0] * i + coeffs[1] from constant memory") {
  const auto k = load_kernel("compute.kir");
  const auto out = values_of<float>(k.run().memory, "out");
  REQUIRE(out.size() == 10);
  for (std::size_t i = 0; i < 10; ++i) CHECK(out[i] == std::fma(1.0f, static_cast<float>(i), 2.0f));
}

TEST_CASE(
    "clusterHist_kernel's bins equal a CPU histogram with clamping and sum to the input size") {
  const auto k = load_kernel("clusterHist_kernel.kir");
  const auto input = values_of<std::int32_t>(k.initial, "input");
  const auto bins = values_of<std::int32_t>(k.run().memory, "bins");
  const std::int32_t nbins = 2048;
  std::vector<std::int32_t> expected(nbins, 0);
  for (std::int32_t v : input) ++expected[static_cast<std::size_t>(std::clamp(v, 0, nbins - 1))];
  CHECK(bins == expected);
  std::int64_t total = 0;
  for (std::int32_t b : bins) total += b;
  CHECK(total == 262144);
  CHECK(expected.front() > 0);  // the input reaches below 0 and above nbins - 1,
  CHECK(expected.back() > 0);   // so both clamps were exercised
}

TEST_CASE("warp_divergence: lanes 0-15 run the 5-fma chain, lanes 16-31 the 3-fma chain") {
  const auto k = load_kernel("warp_divergence.kir");
  const auto out = values_of<float>(k.run().memory, "out");
  REQUIRE(out.size() == 32);
  for (std::uint32_t i = 0; i < 32; ++i) {
    float v = static_cast<float>(i);
    const int steps = i < 16 ? 5 : 3;
    for (int s = 0; s < steps; ++s) v = i < 16 ? std::fma(v, 1.5f, 1.0f) : std::fma(v, 0.5f, 2.0f);
    CHECK(out[i] == v);
  }
}

TEST_CASE("testKernel writes every thread's global index, in both launches") {
  for (const char* launch : {"testKernel", "testKernel_32"}) {
    CAPTURE(launch);
    cli::LaunchOverrides o;
    o.launch_name = launch;
    const auto k = load_kernel("testKernel.kir", o);
    const auto out = values_of<std::uint32_t>(k.run().memory, "out");
    REQUIRE(out.size() == k.spec.blocks() * k.spec.threads_per_block());
    for (std::uint32_t i = 0; i < out.size(); ++i) REQUIRE(out[i] == i);
  }
}

}  // namespace
}  // namespace warpsim::test
