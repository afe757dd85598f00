// The tensor core's sum against the H100's own results: every element of the 256 random tiles
// of each form that validation/h200/mma_probe.cu ran (f16 into f32, bfloat16 into f32, f16 into
// f16; 32,768 elements each), reproduced bit for bit from the tiles' inputs.
#include "sim/sass/tensor_core_sum.hpp"

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "sim/core/exec/half_float.hpp"
#include "tests/unit/test_support.hpp"

namespace warpsim::test {
namespace {

struct ProbeFile {
  std::uint32_t tiles = 0;
  std::vector<std::uint16_t> a, b;  // per tile: A 16x16 row-major, B 16x8 (k, n) row-major
  std::vector<std::uint32_t> c, d;  // per tile: 16x8 row-major
};

ProbeFile read_probe(const std::string& name) {
  const auto path = source_dir() / "validation/h200/results/h100_2026_12_06/mma_probe" / name;
  std::ifstream in(path, std::ios::binary);
  const std::vector<char> bytes{std::istreambuf_iterator<char>(in), {}};
  ProbeFile f;
  REQUIRE(bytes.size() >= 4);
  std::memcpy(&f.tiles, bytes.data(), 4);
  const std::size_t t = f.tiles;
  REQUIRE(bytes.size() == 4 + t * (256 * 2 + 128 * 2 + 128 * 4 + 128 * 4));
  auto take = [&, at = std::size_t{4}](auto& v, std::size_t count) mutable {
    v.resize(count);
    std::memcpy(v.data(), bytes.data() + at, count * sizeof(v[0]));
    at += count * sizeof(v[0]);
  };
  take(f.a, t * 256);
  take(f.b, t * 128);
  take(f.c, t * 128);
  take(f.d, t * 128);
  return f;
}

// How many of the file's elements tensor_core_sum reproduces.
std::size_t reproduced(const ProbeFile& f, ir::HalfFormat inputs, bool f16_result) {
  std::size_t same = 0;
  for (std::size_t t = 0; t < f.tiles; ++t) {
    for (std::size_t i = 0; i < 16; ++i) {
      for (std::size_t j = 0; j < 8; ++j) {
        std::array<double, 16> row{}, column{};
        for (std::size_t k = 0; k < 16; ++k) {
          row[k] = exec::decode_half(f.a[t * 256 + i * 16 + k], inputs);
          column[k] = exec::decode_half(f.b[t * 128 + k * 8 + j], inputs);
        }
        const std::uint32_t c_bits = f.c[t * 128 + i * 8 + j];
        float c32 = 0;
        std::memcpy(&c32, &c_bits, 4);
        const double c =
            f16_result ? exec::decode_half(static_cast<std::uint16_t>(c_bits), ir::HalfFormat::F16)
                       : double{c32};
        same += sass::tensor_core_sum(row, column, c, f16_result) == f.d[t * 128 + i * 8 + j];
      }
    }
  }
  return same;
}

TEST_CASE("the tensor core's sum reproduces every element the H100 computed") {
  const ProbeFile f16 = read_probe("mma_f16_f32.bin");
  CHECK(reproduced(f16, ir::HalfFormat::F16, false) == 32768);
  const ProbeFile bf16 = read_probe("mma_bf16_f32.bin");
  CHECK(reproduced(bf16, ir::HalfFormat::BF16, false) == 32768);
  const ProbeFile f16_into_f16 = read_probe("mma_f16_f16.bin");
  CHECK(reproduced(f16_into_f16, ir::HalfFormat::F16, true) == 32768);
}

TEST_CASE("the tensor core's sum: exact where its terms fit, cut toward zero where they do not") {
  std::array<double, 16> a{}, b{};
  a.fill(1.0);
  b.fill(0.0);
  // Products 1 * 3 and the accumulator 2: all exact, 5.
  b[0] = 3.0;
  CHECK(sass::tensor_core_sum(a, b, 2.0, false) == 0x40a00000u);  // 5.0f
  // 1 * 1 + 1.5 * 2^-24: kept (3 units of 2^-25), but the sum is cut toward zero to 24 bits:
  // 1.0f, where rounding to nearest would give 1 + 2^-23.
  b[0] = 1.0;
  CHECK(sass::tensor_core_sum(a, b, 0x1.8p-24, false) == 0x3f800000u);
  // 1 * 1 - 2^-26: the accumulator lies below the 25 bits kept under the product's exponent and
  // is cut to 0: 1.0f, where the exact sum cut toward zero would give 1 - 2^-24.
  CHECK(sass::tensor_core_sum(a, b, -0x1p-26, false) == 0x3f800000u);
}

}  // namespace
}  // namespace warpsim::test
