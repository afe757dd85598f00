// Textbook CUDA kernels, continued: shared-memory stencils, histograms, sorting, sparse
// matrices, n-body, softmax and warp-level idioms (see textbook_kernels_test.cpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "tests/unit/textbook_support.hpp"

namespace warpsim::test {
namespace {

TEST_CASE("stencil_1d_shared sums each element's radius-3 neighbourhood (0 outside)") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("stencil_1d_shared.cu");
  const auto in = r.initial<std::int32_t>("in");
  const auto out = r.final<std::int32_t>("out");
  for (int i = 0; i < 1000; ++i) {
    std::int32_t sum = 0;
    for (int o = -3; o <= 3; ++o) {
      if (i + o >= 0 && i + o < 1000) sum += in[static_cast<std::size_t>(i + o)];
    }
    CHECK(out[static_cast<std::size_t>(i)] == sum);
  }
}

TEST_CASE("histogram_shared counts every value into its bin") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("histogram_shared.cu");
  const auto data = r.initial<std::int32_t>("data");
  std::vector<std::uint32_t> want(256, 0);
  for (std::int32_t d : data) ++want[static_cast<std::size_t>(d)];
  CHECK(r.final<std::uint32_t>("bins") == want);
}

TEST_CASE("bitonic_sort sorts 1024 integers") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("bitonic_sort.cu");
  auto want = r.initial<std::int32_t>("data");
  std::sort(want.begin(), want.end());
  CHECK(r.final<std::int32_t>("data") == want);
}

TEST_CASE("spmv_csr and spmv_csr_vector multiply a CSR matrix by a vector") {
  if (!have_nvcc()) return;
  // The launch files give row_ptr = iota: row r holds one element, at column cols[r].
  for (const char* file : {"spmv_csr.cu", "spmv_csr_vector.cu"}) {
    CAPTURE(file);
    const auto r = run_textbook(file);
    const auto cols = r.initial<std::int32_t>("cols");
    const auto vals = r.initial<float>("vals"), x = r.initial<float>("x");
    const auto y = r.final<float>("y");
    for (std::size_t row = 0; row < 8; ++row) {
      CHECK(y[row] == vals[row] * x[static_cast<std::size_t>(cols[row])]);
    }
  }
}

TEST_CASE("nbody_tile sums the softened inverse-cube attractions of every body") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("nbody_tile.cu");
  const auto px = r.initial<float>("px"), py = r.initial<float>("py"), pz = r.initial<float>("pz"),
             pm = r.initial<float>("pm");
  const auto ax = r.final<float>("ax");
  for (std::size_t i = 0; i < 128; ++i) {
    double fx = 0, scale = 0;
    for (std::size_t k = 0; k < 128; ++k) {
      const double dx = double{px[k]} - px[i], dy = double{py[k]} - py[i],
                   dz = double{pz[k]} - pz[i];
      const double d2 = dx * dx + dy * dy + dz * dz + 0.01;
      const double term = dx * pm[k] / (d2 * std::sqrt(d2));
      fx += term;
      scale += std::fabs(term);
    }
    CHECK(close(ax[i], fx, scale, 1e-4));
  }
}

TEST_CASE("softmax makes each row positive and summing to 1, in the ratios of exp") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("softmax.cu");
  const auto in = r.initial<float>("in");
  const auto out = r.final<float>("out");
  for (std::size_t row = 0; row < 8; ++row) {
    const auto first = in.begin() + static_cast<std::ptrdiff_t>(row * 100);
    const double m = *std::max_element(first, first + 100);
    double total = 0;
    for (std::size_t c = 0; c < 100; ++c) total += std::exp(in[row * 100 + c] - m);
    for (std::size_t c = 0; c < 100; ++c) {
      CHECK(close(out[row * 100 + c], std::exp(in[row * 100 + c] - m) / total, 1.0, 1e-6));
    }
  }
}

TEST_CASE("saxpy_grid_stride, relu and vec4_copy, element by element") {
  if (!have_nvcc()) return;
  const auto s = run_textbook("saxpy_grid_stride.cu");
  const auto x = s.initial<float>("x"), y0 = s.initial<float>("y");
  const auto y = s.final<float>("y");
  // nvcc contracts a * x[i] + y[i] into one fused multiply-add.
  for (std::size_t i = 0; i < 5000; ++i) CHECK(y[i] == std::fma(2.0f, x[i], y0[i]));
  const auto rl = run_textbook("relu.cu");
  const auto rx = rl.initial<float>("x");
  const auto ry = rl.final<float>("y");
  for (std::size_t i = 0; i < 1000; ++i) CHECK(ry[i] == (rx[i] > 0.0f ? rx[i] : 0.01f * rx[i]));
  const auto v = run_textbook("vec4_copy.cu");
  CHECK(v.final<float>("out") == v.initial<float>("in"));
}

TEST_CASE("dot_product sums the products; stream_compact keeps the positive multiples of 3") {
  if (!have_nvcc()) return;
  const auto d = run_textbook("dot_product.cu");
  const auto a = d.initial<float>("a"), b = d.initial<float>("b");
  double dot = 0;
  for (std::size_t i = 0; i < 3000; ++i) dot += double{a[i]} * b[i];
  CHECK(close(d.final<float>("result")[0], dot, dot));
  const auto c = run_textbook("stream_compact.cu");
  std::vector<std::int32_t> kept;
  for (std::int32_t v : c.initial<std::int32_t>("in")) {
    if (v > 0 && v % 3 == 0) kept.push_back(v);
  }
  const auto count = c.final<std::int32_t>("count")[0];
  REQUIRE(count == static_cast<std::int32_t>(kept.size()));
  auto out = c.final<std::int32_t>("out");
  out.resize(kept.size());
  std::sort(out.begin(), out.end());
  std::sort(kept.begin(), kept.end());
  CHECK(out == kept);  // each warp's elements land at its reserved base, in lane order
}

TEST_CASE("matrix_transpose_coalesced transposes through its padded tile") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("matrix_transpose_coalesced.cu");
  const auto in = r.initial<float>("idata");
  const auto out = r.final<float>("odata");
  std::size_t wrong = 0;
  for (std::size_t y = 0; y < 64; ++y) {
    for (std::size_t x = 0; x < 64; ++x) wrong += out[x * 64 + y] != in[y * 64 + x];
  }
  CHECK(wrong == 0);
}

}  // namespace
}  // namespace warpsim::test
