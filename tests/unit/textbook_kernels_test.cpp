// Textbook CUDA kernels, imported from kernels_cuda/textbook/ and run, against references
// computed here. Integer results and results of one float operation are exact; float sums
// are compared within a relative 1e-5 of their terms' magnitude (nvcc may fuse a multiply and
// an add, and the reference adds in its own order).
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>

#include "tests/unit/textbook_support.hpp"

namespace warpsim::test {
namespace {

TEST_CASE("scan_blelloch: each block's 256 elements become their exclusive prefix sums") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("scan_blelloch.cu");
  const auto in = r.initial<std::int32_t>("in");
  const auto out = r.final<std::int32_t>("out");
  for (std::size_t chunk = 0; chunk < 1000; chunk += 256) {
    std::int32_t sum = 0;
    for (std::size_t i = chunk; i < std::min<std::size_t>(chunk + 256, 1000); ++i) {
      CHECK(out[i] == sum);
      sum += in[i];
    }
  }
}

TEST_CASE("scan_warp: each warp's 32 elements become their inclusive prefix sums") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("scan_warp.cu");
  const auto in = r.initial<float>("in");
  const auto out = r.final<float>("out");
  for (std::size_t i = 0; i < 1000; ++i) {
    double sum = 0;
    for (std::size_t j = i / 32 * 32; j <= i; ++j) sum += in[j];
    CHECK(close(out[i], sum, sum));
  }
}

TEST_CASE("reduce_shared and reduce_warp_shuffle sum their inputs") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("reduce_shared.cu");
  const auto in = r.initial<float>("in");
  const auto partial = r.final<float>("partial");
  for (std::size_t b = 0; b < 8; ++b) {
    const auto first = in.begin() + static_cast<std::ptrdiff_t>(b * 256);
    const double sum = std::accumulate(first, first + 256, 0.0);
    CHECK(close(partial[b], sum, sum));
  }
  const auto w = run_textbook("reduce_warp_shuffle.cu");
  const auto ints = w.initial<std::int32_t>("in");
  CHECK(w.final<std::int32_t>("total")[0] == std::accumulate(ints.begin(), ints.end(), 0));
}

TEST_CASE("matvec, matmul_naive and matmul_tiled multiply as their references do") {
  if (!have_nvcc()) return;
  const auto mv = run_textbook("matvec.cu");
  const auto a = mv.initial<float>("A"), x = mv.initial<float>("x");
  const auto y = mv.final<float>("y");
  for (std::size_t r = 0; r < 64; ++r) {
    double sum = 0;
    for (std::size_t c = 0; c < 48; ++c) sum += double{a[r * 48 + c]} * x[c];
    CHECK(close(y[r], sum, sum));
  }
  for (const char* file : {"matmul_naive.cu", "matmul_tiled.cu"}) {
    CAPTURE(file);
    const auto mm = run_textbook(file);
    const auto ma = mm.initial<float>("A"), mb = mm.initial<float>("B");
    const auto mc = mm.final<float>("C");
    for (std::size_t i = 0; i < 32; ++i) {
      for (std::size_t j = 0; j < 32; ++j) {
        double sum = 0;
        for (std::size_t k = 0; k < 32; ++k) sum += double{ma[i * 32 + k]} * mb[k * 32 + j];
        CHECK(close(mc[i * 32 + j], sum, sum));
      }
    }
  }
}

TEST_CASE("conv1d and conv2d weigh their neighbourhoods by the mask and filter") {
  if (!have_nvcc()) return;
  const auto c1 = run_textbook("conv1d.cu");
  const auto in = c1.initial<float>("in");
  const auto out = c1.final<float>("out");
  const double mask[7] = {1, 2, 3, 4, 3, 2, 1};  // conv1d.cu's __constant__ initialiser
  for (int i = 0; i < 1000; ++i) {
    double sum = 0;
    for (int j = 0; j < 7; ++j) {
      const int k = i + j - 3;
      if (k >= 0 && k < 1000) sum += in[static_cast<std::size_t>(k)] * mask[j];
    }
    CHECK(close(out[static_cast<std::size_t>(i)], sum, sum));
  }
  const auto c2 = run_textbook("conv2d.cu");
  const auto img = c2.initial<float>("img"), f = c2.initial<float>("filter");
  const auto o2 = c2.final<float>("out");
  for (int y = 0; y < 30; ++y) {
    for (int x = 0; x < 40; ++x) {
      double sum = 0;
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          const int xx = std::clamp(x + dx, 0, 39), yy = std::clamp(y + dy, 0, 29);
          sum += double{img[static_cast<std::size_t>(yy * 40 + xx)]} *
                 f[static_cast<std::size_t>((dy + 1) * 3 + dx + 1)];
        }
      }
      CHECK(close(o2[static_cast<std::size_t>(y * 40 + x)], sum, sum));
    }
  }
}

TEST_CASE("stencil_jacobi averages four neighbours inside and copies the border") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("stencil_jacobi.cu");
  const auto u = r.initial<float>("u");
  const auto v = r.final<float>("v");
  for (std::size_t y = 0; y < 32; ++y) {
    for (std::size_t x = 0; x < 32; ++x) {
      const std::size_t i = y * 32 + x;
      const bool border = x == 0 || y == 0 || x == 31 || y == 31;
      // The kernel's own operations in its order: three adds, then one multiply.
      const float want = border ? u[i] : 0.25f * (((u[i - 1] + u[i + 1]) + u[i - 32]) + u[i + 32]);
      CHECK(v[i] == want);
    }
  }
}

}  // namespace
}  // namespace warpsim::test
