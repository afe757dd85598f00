// The .ftz approximations nvcc's math library reaches for besides ex2 and lg2: coshf's
// div.approx.ftz.f32 and asinf's and acosf's rsqrt.approx.ftz.f32. Expected values from the PTX
// ISA's definitions (subnormal inputs and results flushed to a zero of their sign) and the
// unit's functions as warpsim models them (exec::unit_function: the function rounded once).
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstdint>

#include "tests/unit/import_support.hpp"

namespace warpsim::test {

TEST_CASE("rsqrt.approx.ftz.f32 takes a subnormal input as a zero of its sign") {
  // Lane 0: 2^-149 (subnormal) counts as +0, giving +inf; lane 1: -2^-149 as -0, giving -inf;
  // lane 2: 2^-126, the smallest normal, gives 2^63 exactly; lane l >= 3: 1/sqrt(l), rounded.
  const auto r = run_one_warp(R"(
  cvt.rn.f32.u32 %f1, %r1;
  setp.eq.u32 %p1, %r1, 0;
  selp.f32 %f2, 0f00000001, %f1, %p1;
  setp.eq.u32 %p2, %r1, 1;
  selp.f32 %f3, 0f80000001, %f2, %p2;
  setp.eq.u32 %p3, %r1, 2;
  selp.f32 %f4, 0f00800000, %f3, %p3;
  rsqrt.approx.ftz.f32 %f5, %f4;
  mov.b32 %r9, %f5;)");
  CHECK(r[0] == std::bit_cast<std::uint32_t>(INFINITY));
  CHECK(r[1] == std::bit_cast<std::uint32_t>(-INFINITY));
  CHECK(r[2] == std::bit_cast<std::uint32_t>(0x1p63f));
  for (unsigned l = 3; l < 32; ++l) {
    CAPTURE(l);
    CHECK(r[l] == std::bit_cast<std::uint32_t>(static_cast<float>(1.0 / std::sqrt(l * 1.0))));
  }
}

TEST_CASE("sqrt.approx.f32 scales a subnormal input; sqrt.approx.ftz.f32 takes it as zero") {
  // Lane 0: 2^-148 (subnormal). Without .ftz ptxas scales it by 2^24 before the unit's SQRT and
  // the result by 2^-12 after: sqrt(2^-124) * 2^-12 = 2^-74, exact. With .ftz it counts as +0.
  // Lane 1: -2^-148: a negative number (NaN, the GPU's 0x7fffffff) without .ftz, -0 with it.
  // Lanes l >= 2: sqrt(l) rounded once, on both.
  const char* body = R"(
  cvt.rn.f32.u32 %f1, %r1;
  setp.eq.u32 %p1, %r1, 0;
  selp.f32 %f2, 0f00000002, %f1, %p1;
  setp.eq.u32 %p2, %r1, 1;
  selp.f32 %f3, 0f80000002, %f2, %p2;
  sqrt.approx{}.f32 %f5, %f3;
  mov.b32 %r9, %f5;)";
  const auto scaled = run_one_warp(fmt::format(fmt::runtime(body), ""));
  const auto flushed = run_one_warp(fmt::format(fmt::runtime(body), ".ftz"));
  CHECK(scaled[0] == std::bit_cast<std::uint32_t>(0x1p-74f));
  CHECK(flushed[0] == 0u);
  CHECK(scaled[1] == 0x7fffffffu);
  CHECK(flushed[1] == 0x80000000u);
  for (unsigned l = 2; l < 32; ++l) {
    CAPTURE(l);
    const auto root = std::bit_cast<std::uint32_t>(static_cast<float>(std::sqrt(l * 1.0)));
    CHECK(scaled[l] == root);
    CHECK(flushed[l] == root);
  }
}

TEST_CASE("div.approx.ftz.f32 multiplies by the unit's reciprocal, flushing without scaling") {
  // a / b with a = 3: lane 0 divides by 2^-140 (subnormal: a zero, so +inf); lane 1 by 2^127
  // (the reciprocal 2^-127 is subnormal: +0, where div.approx.f32 scales and gives 3 * 2^-127);
  // lane 2 divides 2^-140 (flushed to +0) by 1: +0; lane 3 divides 2^-100 by 2^26: the product
  // 2^-126 is the smallest normal and stays; lane 4 divides 2^-100 by 2^27: 2^-127, flushed to +0;
  // lanes l >= 5: 3 times 1/l rounded, rounded again.
  const auto r = run_one_warp(R"(
  cvt.rn.f32.u32 %f1, %r1;
  mov.f32 %f2, 0f40400000;
  setp.eq.u32 %p1, %r1, 0;
  selp.f32 %f3, 0f00000200, %f1, %p1;
  setp.eq.u32 %p2, %r1, 1;
  selp.f32 %f4, 0f7F000000, %f3, %p2;
  setp.eq.u32 %p3, %r1, 2;
  selp.f32 %f5, 0f3F800000, %f4, %p3;
  selp.f32 %f6, 0f00000200, %f2, %p3;
  setp.eq.u32 %p4, %r1, 3;
  selp.f32 %f7, 0f4C800000, %f5, %p4;
  setp.eq.u32 %p5, %r1, 4;
  selp.f32 %f8, 0f4D000000, %f7, %p5;
  sub.u32 %r3, %r1, 3;
  setp.lt.u32 %p6, %r3, 2;
  selp.f32 %f9, 0f0D800000, %f6, %p6;
  div.approx.ftz.f32 %f10, %f9, %f8;
  mov.b32 %r9, %f10;)");
  CHECK(r[0] == std::bit_cast<std::uint32_t>(INFINITY));
  CHECK(r[1] == 0u);
  CHECK(r[2] == 0u);
  CHECK(r[3] == std::bit_cast<std::uint32_t>(0x1p-126f));
  CHECK(r[4] == 0u);
  for (unsigned l = 5; l < 32; ++l) {
    CAPTURE(l);
    CHECK(r[l] == std::bit_cast<std::uint32_t>(3.0f * (1.0f / static_cast<float>(l))));
  }
}

}  // namespace warpsim::test
