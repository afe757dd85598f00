// Textbook CUDA kernels, continued: warp idioms with member masks (__activemask, a partial
// __ballot_sync) and a bounded kernel with a rolled loop and a fast division; each output
// against a C++ reference (see textbook_kernels_test.cpp).
#include <doctest/doctest.h>

#include <algorithm>
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

TEST_CASE("harmonic_fast_divide sums x / (k + 1) with div.approx, each quotient rounded once") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("harmonic_fast_divide.cu");
  const auto x = r.initial<float>("x");
  const auto y = r.final<float>("y");
  for (std::size_t i = 0; i < x.size(); ++i) {
    // The IR's div.approx: the quotient in double, rounded once to float; the sum in float,
    // in the loop's order (24 terms, as the launch file gives).
    float sum = 0.0f;
    for (int k = 0; k < 24; ++k) sum += static_cast<float>(static_cast<double>(x[i]) / (k + 1.0));
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

}  // namespace
}  // namespace warpsim::test
