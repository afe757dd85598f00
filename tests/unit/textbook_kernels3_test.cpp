// Textbook CUDA kernels, continued: warp idioms with member masks (__activemask, a partial
// __ballot_sync), the warp reductions of __reduce_*_sync, uchar4 pixels, a bounded kernel with a
// rolled loop and a fast division, the math library at full precision, and block-wide votes; each
// output against a C++ reference (see textbook_kernels_test.cpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>

#include "tests/unit/textbook_support.hpp"

namespace warpsim::test {
namespace {

TEST_CASE("warp_aggregated_count ranks each positive value within its warp, one atomic a warp") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("warp_aggregated_count.cu");
  const auto in = r.initial<std::int32_t>("in");
  const auto rank = r.final<std::uint32_t>("rank");
  const auto base = r.final<std::uint32_t>("base_of");
  // Per warp (32 consecutive elements): its positive elements in order, all given the base
  // its leader got; the bases of the warps with any positive element tile 0 .. count.
  std::map<std::uint32_t, std::uint32_t> size_at_base;
  std::uint32_t positives = 0;
  for (std::size_t first = 0; first < in.size(); first += 32) {
    const std::size_t end = std::min(in.size(), first + 32);
    std::uint32_t in_warp = 0;
    std::optional<std::uint32_t> warp_base;
    for (std::size_t i = first; i < end; ++i) {
      CAPTURE(i);
      if (in[i] <= 0) {
        CHECK(rank[i] == 0xffffffffu);  // the launch's fill: never written
        continue;
      }
      CHECK(rank[i] == in_warp++);
      if (!warp_base) warp_base = base[i];
      CHECK(base[i] == *warp_base);
    }
    if (warp_base) size_at_base[*warp_base] = in_warp;
    positives += in_warp;
  }
  CHECK(r.final<std::uint32_t>("count")[0] == positives);
  std::uint32_t next = 0;
  for (const auto& [b, size] : size_at_base) {
    CHECK(b == next);
    next += size;
  }
  CHECK(next == positives);
}

TEST_CASE("ballot_low_lanes votes among lanes 0-19 of each warp only") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("ballot_low_lanes.cu");
  const auto x = r.initial<float>("x");
  const auto ballot = r.final<std::uint32_t>("ballot");
  const auto all = r.final<std::int32_t>("all_positive"),
             any = r.final<std::int32_t>("any_positive");
  for (std::size_t w = 0; w < x.size() / 32; ++w) {
    std::uint32_t want = 0;
    for (unsigned l = 0; l < 20; ++l) want |= (x[w * 32 + l] > 0.0f ? 1u : 0u) << l;
    for (unsigned l = 0; l < 32; ++l) {
      const std::size_t i = w * 32 + l;
      CAPTURE(i);
      if (l >= 20) {  // never voted: the launch's fills
        CHECK(ballot[i] == 0u);
        CHECK(all[i] == -1);
        CHECK(any[i] == -1);
        continue;
      }
      CHECK(ballot[i] == want);
      CHECK(all[i] == (want == 0xfffffu ? 1 : 0));
      CHECK(any[i] == (want != 0 ? 1 : 0));
    }
  }
}

TEST_CASE("harmonic_fast_divide sums x / (k + 1) with div.approx, as ptxas lowers it") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("harmonic_fast_divide.cu");
  const auto x = r.initial<float>("x");
  const auto y = r.final<float>("y");
  for (std::size_t i = 0; i < x.size(); ++i) {
    // div.approx as ptxas lowers it: MUFU.RCP, (k + 1)'s reciprocal rounded to float, whose
    // multiply by x fuses with the sum's add into one FFMA (rounded once); the sum in the
    // loop's order (24 terms, as the launch file gives).
    float sum = 0.0f;
    for (int k = 0; k < 24; ++k) sum = std::fma(static_cast<float>(1.0 / (k + 1.0)), x[i], sum);
    CHECK(y[i] == sum);
  }
  // The loop stays rolled (#pragma unroll 1) and the kernel keeps its bounds.
  const ir::Kernel& k = *r.kernel.spec.kernel;
  REQUIRE(k.launch_bounds.has_value());
  CHECK(k.launch_bounds->max_threads == 128);
  CHECK(k.launch_bounds->min_blocks == 4);
  CHECK(std::any_of(k.blocks.begin(), k.blocks.end(),
                    [](const ir::BasicBlock& b) { return b.no_unroll; }));
}

// |got - want| within `ulps` units in the last place of the float nearest `want`.
bool within_ulps(float got, double want, int ulps) {
  const auto nearest = static_cast<float>(want);
  const double ulp = std::nextafter(std::abs(nearest), INFINITY) - std::abs(nearest);
  return std::abs(static_cast<double>(got) - want) <= ulps * ulp;
}

TEST_CASE("wave_math: sinf, cosf, tanf, expf and powf within CUDA's stated ulps; exact integers") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("wave_math.cu");
  const auto x = r.initial<float>("x");
  const auto s = r.final<float>("s"), c = r.final<float>("c"), t = r.final<float>("t");
  const auto e = r.final<float>("e"), p = r.final<float>("p");
  const auto q = r.final<std::int64_t>("q");
  std::uint32_t positives = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double v = x[i];
    CAPTURE(i);
    CAPTURE(v);
    // The CUDA Programming Guide's maximum errors (single precision, full range): sinf and
    // cosf 2 ulp, tanf 4, expf 2, powf 4. The inputs reach |x| = 3e5, past 105615, where
    // the trigonometric functions reduce their argument with the table in global memory.
    CHECK(within_ulps(s[i], std::sin(v), 2));
    CHECK(within_ulps(c[i], std::cos(v), 2));
    CHECK(within_ulps(t[i], std::tan(v), 4));
    CHECK(within_ulps(e[i], std::exp(static_cast<double>(x[i] * 1e-5f)), 2));
    CHECK(within_ulps(p[i], std::pow(static_cast<double>(std::abs(x[i]) * 1e-5f), 1.5), 4));
    const auto n = static_cast<std::int64_t>(i);
    const std::int64_t scaled = static_cast<std::int64_t>(x[i] * 1000.0f);  // the kernel's float
    CHECK(q[i] == scaled / (n + 3) + (n * 1000003) / 7 - (n * 1000003) % 7);
    positives += x[i] > 0.0f ? 1u : 0u;
  }
  // The __device__ counter: one atomic add per positive input.
  CHECK(r.final<std::uint32_t>("positives") == std::vector<std::uint32_t>{positives});
}

TEST_CASE("warp_reduce_ops: each lane gets its warp's active lanes reduced") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("warp_reduce_ops.cu");
  const auto x = r.initial<std::uint32_t>("x");
  const auto y = r.initial<std::int32_t>("y");
  const auto sum = r.final<std::uint32_t>("sum"), high = r.final<std::uint32_t>("high");
  const auto low = r.final<std::int32_t>("low");
  const auto bits = r.final<std::uint32_t>("bits");
  // Blocks of 100 threads: warps of 32, 32, 32 and 4 lanes; threads from n = 190 on return
  // first, so the members of thread i are the threads of its warp below 190.
  const std::size_t n = 190;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t block = i / 100, first = block * 100 + (i % 100) / 32 * 32;
    const std::size_t last = std::min({first + 32, block * 100 + 100, n});
    std::uint32_t s = 0, hi = 0, all = ~0u, any = 0, odd = 0;
    std::int32_t lo = INT32_MAX;
    for (std::size_t j = first; j < last; ++j) {
      s += x[j];
      hi = std::max(hi, x[j]);
      lo = std::min(lo, y[j]);
      all &= x[j] | 0xff00ff00u;
      any |= x[j];
      odd ^= x[j];
    }
    CAPTURE(i);
    CHECK(sum[i] == s);
    CHECK(high[i] == hi);
    CHECK(low[i] == lo);
    CHECK(bits[i] == (any ^ all ^ (odd << 1)));
  }
}

TEST_CASE("rgba_gray: uchar4 pixels in, a byte of luminance and an inverted uchar4 out") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("rgba_gray.cu");
  const auto rgba = r.initial<std::uint32_t>("rgba");
  const auto gray = r.final<std::uint32_t>("gray");  // bytes, four to a word
  const auto inverted = r.final<std::uint32_t>("inverted");
  for (std::size_t i = 0; i < 1000; ++i) {
    const std::uint32_t p = rgba[i];
    const std::uint32_t x = p & 0xffu, y = (p >> 8) & 0xffu, z = (p >> 16) & 0xffu;
    CAPTURE(i);
    // The inverted pixel is exact: 255 minus each colour, alpha kept.
    CHECK(inverted[i] == ((255 - x) | (255 - y) << 8 | (255 - z) << 16 | (p & 0xff000000u)));
    // The luminance is a float sum truncated to a byte; nvcc's fused multiply-adds round it
    // otherwise than the exact sum, so it may land one below or above the exact value's floor.
    const double exact = 0.299 * x + 0.587 * y + 0.114 * z;
    const auto byte = static_cast<double>((gray[i / 4] >> (8 * (i % 4))) & 0xffu);
    CHECK(std::abs(byte - std::floor(exact)) <= 1.0);
  }
}

TEST_CASE("block_vote_rounds: __syncthreads_count, _and and _or over a block, and a loop on _or") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("block_vote_rounds.cu");
  const auto x = r.initial<std::int32_t>("x");
  const auto steps = r.final<std::int32_t>("steps");
  const auto count = r.final<std::int32_t>("block_count"), all = r.final<std::int32_t>("block_all"),
             any = r.final<std::int32_t>("block_any"), rounds = r.final<std::int32_t>("rounds");
  const std::int32_t threshold = 300;  // the launch file's
  const std::size_t block = 128, n = x.size();
  // The Collatz steps from |v| + 1 down to 1.
  auto collatz = [](std::uint32_t c) {
    std::int32_t k = 0;
    for (; c != 1; ++k) c = (c & 1u) != 0 ? 3 * c + 1 : c / 2;
    return k;
  };
  for (std::size_t b = 0; b < count.size(); ++b) {
    CAPTURE(b);
    std::int32_t passing = 0, longest = 0;
    for (std::size_t i = b * block; i < (b + 1) * block && i < n; ++i) {
      passing += x[i] > threshold ? 1 : 0;
      const std::int32_t want = collatz(static_cast<std::uint32_t>(std::abs(x[i])) + 1);
      CHECK(steps[i] == want);
      longest = std::max(longest, want);
    }
    // Threads past n take part in the votes with a false predicate: the last block is not all.
    CHECK(count[b] == passing);
    CHECK(all[b] == (passing == static_cast<std::int32_t>(block) ? 1 : 0));
    CHECK(any[b] == (passing != 0 ? 1 : 0));
    CHECK(rounds[b] == longest);  // the block loops until its longest sequence ends
  }
  // The launch reaches every outcome: blocks with none, some and all passing.
  CHECK(std::count(count.begin(), count.end(), 0) > 0);
  CHECK(std::count(all.begin(), all.end(), 1) > 0);
  CHECK(std::count_if(count.begin(), count.end(), [](std::int32_t c) { return c > 0 && c < 128; }) >
        0);
}

TEST_CASE("struct_params: an image, a window and a float2 passed by value, read field by field") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("struct_params.cu");
  // The launch file's fields: a 40 x 24 image, flipped, gain 2.5; the window at (-3, 5); the
  // ramp (0.25, -0.5); a 64 x 8 output.
  const int width = 40, height = 24, x0 = -3, y0 = 5, out_width = 64, rows = 8;
  const float gain = 2.5f, ramp_x = 0.25f, ramp_y = -0.5f;
  const auto pixels = r.initial<float>("image_0");
  const auto out = r.final<float>("out");
  REQUIRE(out.size() == static_cast<std::size_t>(out_width * rows));
  for (int y = 0; y < rows; ++y) {
    for (int x = 0; x < out_width; ++x) {
      CAPTURE(x);
      CAPTURE(y);
      const int sx = x0 + x, sy = height - 1 - (y0 + y);
      const bool inside = sx >= 0 && sx < width && sy >= 0 && sy < height;
      // nvcc's order: the pixel times the gain, then the ramp's two multiply-adds fused
      // (fma.rn, as -fmad=true contracts them), so the result is exact.
      const float v = inside ? pixels[static_cast<std::size_t>(sy * width + sx)] * gain : 0.0f;
      const float want =
          std::fma(ramp_y, static_cast<float>(y), std::fma(ramp_x, static_cast<float>(x), v));
      CHECK(out[static_cast<std::size_t>(y * out_width + x)] == want);
    }
  }
}

}  // namespace
}  // namespace warpsim::test
