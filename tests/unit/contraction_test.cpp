// Plain mul.f32 and add/sub.f32 pairs in PTX are fused as ptxas fuses them (FFMA), so an
// imported kernel rounds where the GPU does. The expected values are computed here with
// std::fma (one rounding) or plain float operations (two), by the rules in
// sim/import/translate_contract.cpp, which were read from ptxas's SASS for this same PTX.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "tests/unit/import_support.hpp"

namespace warpsim::test {

TEST_CASE("mul and add pairs are fused into fma where ptxas fuses them, and only there") {
  const exec::LaunchResult r = import_kernel(R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry contraction(.param .u64 in, .param .u64 out) {
  .reg .f32 %f<20>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd5, %r1, 16;
  add.s64 %rd6, %rd3, %rd5;
  ld.global.f32 %f1, [%rd6];
  ld.global.f32 %f2, [%rd6+4];
  ld.global.f32 %f3, [%rd6+8];
  ld.global.f32 %f4, [%rd6+12];
  mul.wide.u32 %rd5, %r1, 32;
  add.s64 %rd7, %rd4, %rd5;
  mul.f32 %f5, %f1, %f2;
  mul.f32 %f6, %f3, %f4;
  add.f32 %f7, %f5, %f6;
  st.global.f32 [%rd7], %f7;
  mul.f32 %f8, %f1, %f3;
  sub.f32 %f9, %f2, %f8;
  st.global.f32 [%rd7+4], %f9;
  mul.f32 %f10, %f2, %f4;
  add.f32 %f11, %f10, %f1;
  add.f32 %f12, %f10, %f3;
  st.global.f32 [%rd7+8], %f11;
  st.global.f32 [%rd7+12], %f12;
  mul.f32 %f13, %f4, %f1;
  sub.f32 %f14, %f13, %f2;
  st.global.f32 [%rd7+16], %f14;
  mul.f32 %f15, %f4, %f4;
  add.rn.f32 %f16, %f15, %f2;
  st.global.f32 [%rd7+20], %f16;
  mul.f32 %f17, %f3, %f3;
  st.global.f32 [%rd7+24], %f17;
  add.f32 %f18, %f17, %f1;
  st.global.f32 [%rd7+28], %f18;
  ret;
}
)",
                                             launch("1", "32",
                                                    {"p0=f32[128] random(seed = 9, min = -3.0, "
                                                     "max = 3.0)",
                                                     "p1=f32[256] zero"}))
                                   .run();
  const auto f = [&](const char* name, std::size_t i) {
    float v = 0;
    std::memcpy(&v, r.memory.find(name)->bytes.data() + 4 * i, 4);
    return v;
  };
  std::size_t fused_differs = 0;  // rows where one rounding and two differ: the test can fail
  for (std::size_t t = 0; t < 32; ++t) {
    const float a = f("p0", 4 * t), b = f("p0", 4 * t + 1), c = f("p0", 4 * t + 2),
                d = f("p0", 4 * t + 3);
    CAPTURE(t);
    // a*b + c*d: both products fusable, equally deep: the first is fused, c*d rounded apart.
    CHECK(f("p1", 8 * t) == std::fma(a, b, c * d));
    // b - a*c = fma(-a, c, b).
    CHECK(f("p1", 8 * t + 1) == std::fma(-a, c, b));
    // b*d feeds two adds: fused into each.
    CHECK(f("p1", 8 * t + 2) == std::fma(b, d, a));
    CHECK(f("p1", 8 * t + 3) == std::fma(b, d, c));
    // d*a - b = fma(d, a, -b).
    CHECK(f("p1", 8 * t + 4) == std::fma(d, a, -b));
    // add.rn is never fused: two roundings.
    const float dd = d * d;
    CHECK(f("p1", 8 * t + 5) == dd + b);
    // c*c is also stored: it stays a multiply, and the add rounds again.
    const float cc = c * c;
    CHECK(f("p1", 8 * t + 6) == cc);
    CHECK(f("p1", 8 * t + 7) == cc + a);
    if (std::fma(b, d, a) != b * d + a) ++fused_differs;
  }
  CHECK(fused_differs > 0);
}

TEST_CASE("div.approx's multiply by the reciprocal fuses with a subtraction as a mul does") {
  // __fdividef(a, b) - c is one FFMA of RCP(b), a and -c in ptxas's code: with a = 3, b = 3,
  // c = 1, RCP(3) is 1/3 rounded to f32, 11184811 * 2^-25, and 3 times it is 1 + 2^-25 exactly,
  // so the fused result is 2^-25 where a rounded product (1.0) would give 0. A quotient that is
  // also stored stays a multiply: 3 * RCP(3) rounds to 1.0 there.
  const exec::LaunchResult r = import_kernel(R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry fast_quotient(.param .u64 out) {
  .reg .f32 %f<8>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.f32 %f1, 0f40400000;
  mov.f32 %f2, 0f3F800000;
  div.approx.f32 %f3, %f1, %f1;
  sub.f32 %f4, %f3, %f2;
  st.global.f32 [%rd2], %f4;
  div.approx.f32 %f5, %f1, %f1;
  sub.f32 %f6, %f5, %f2;
  st.global.f32 [%rd2+4], %f6;
  st.global.f32 [%rd2+8], %f5;
  ret;
}
)",
                                             launch("1", "1", {"p0=f32[3] zero"}))
                                   .run();
  const auto f = [&](std::size_t i) {
    float v = 0;
    std::memcpy(&v, r.memory.find("p0")->bytes.data() + 4 * i, 4);
    return v;
  };
  CHECK(f(0) == 0x1p-25f);
  CHECK(f(1) == 0.0f);
  CHECK(f(2) == 1.0f);
}

}  // namespace warpsim::test
