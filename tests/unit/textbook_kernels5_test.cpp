// Textbook CUDA kernels, continued: a switch compiled to jump tables (BRX), and cooperative
// groups' tile reductions compiled to REDUX under WARPSYNC.EXCLUSIVE; each output against a C++
// reference (see textbook_kernels_test.cpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>

#include "tests/unit/textbook_support.hpp"

namespace warpsim::test {
namespace {

TEST_CASE("switch_jump_table: each thread takes the case of its key modulo 9") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("switch_jump_table.cu");
  const auto key = r.initial<std::int32_t>("key");
  const auto out = r.final<float>("out");
  REQUIRE(out.size() == 2000);
  // table[j] = j * k (exact in float: below 2^24); each case's value as the source states it.
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::int32_t k = key[i];
    auto table = [&](std::int32_t j) { return static_cast<float>(j * k); };
    float want = 0.0f;
    switch (k % 9) {
      case 0:
        want = table(k & 15);
        break;
      case 1:
        want = 2.0f;
        break;
      case 2:
        want = table(3) * 3.0f;
        break;
      case 3:
        want = -1.0f;
        break;
      case 4:
        want = table((k >> 2) & 15) + 4.0f;
        break;
      case 5:
        want = 5.5f;
        break;
      case 6:
        want = table(7) - 6.0f;
        break;
      case 7:
        want = 7.25f;
        break;
      default:
        want = 0.0f;
    }
    CAPTURE(i);
    CHECK(out[i] == want);
  }
}

TEST_CASE("tile_sum_redux: 16-thread tile sums, the warp's max and its lanes of equal v & 3") {
  if (!have_nvcc()) return;
  const auto r = run_textbook("tile_sum_redux.cu");
  const auto in = r.initial<std::int32_t>("in");
  const auto tile_sum = r.final<std::int32_t>("tile_sum");
  const auto warp_max = r.final<std::int32_t>("warp_max");
  const auto peers = r.final<std::uint32_t>("peers");
  constexpr std::size_t n = 1000;
  // Threads n..1023 hold 0; tiles are 16 consecutive threads, warps 32.
  auto value = [&](std::size_t t) { return t < n ? in[t] : 0; };
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t tile = i / 16 * 16, warp = i / 32 * 32;
    std::int32_t sum = 0, largest = 0;
    std::uint32_t same = 0;
    for (std::size_t t = tile; t < tile + 16; ++t) sum += value(t);
    for (std::size_t t = warp; t < warp + 32; ++t) {
      largest = std::max(largest, value(t));
      if ((value(t) & 3) == (value(i) & 3)) same |= 1u << (t - warp);
    }
    CAPTURE(i);
    CHECK(tile_sum[i] == sum);
    CHECK(warp_max[i] == largest);
    CHECK(peers[i] == same);
  }
}

}  // namespace
}  // namespace warpsim::test
