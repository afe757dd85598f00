// Conversions between 16-bit floats and integers, imported: the cases where converting in two
// steps could go wrong, with expected values derived in the comments.
#include <doctest/doctest.h>

#include <cstdint>

#include "tests/unit/import_support.hpp"

namespace warpsim::test {
namespace {

TEST_CASE("a 64-bit integer rounds to a bfloat16 once, not through a double's rounding") {
  // x = 2^62 + 2^54 lies halfway between the bfloat16s 2^62 (bits 0x5e80: exponent 62 + 127 =
  // 0xbd, mantissa 0) and 2^62 (1 + 2^-7) (0x5e81); a tie goes to the even mantissa, 0x5e80.
  // x + 1 is past the midpoint and rounds up to 0x5e81, but a double holds it as the midpoint
  // (its unit there is 2^10), so rounding through a double would give 0x5e80. Lanes from 16 on
  // negate x: the same magnitudes with the sign bit, 0xde80 and 0xde81.
  const auto out = run_one_warp(R"(
  and.b32 %r2, %r1, 1;
  cvt.u64.u32 %rd5, %r2;
  add.s64 %rd6, %rd5, 4629700416936869888;
  setp.ge.u32 %p1, %r1, 16;
  neg.s64 %rd7, %rd6;
  selp.b64 %rd8, %rd7, %rd6, %p1;
  cvt.rn.bf16.s64 %rs1, %rd8;
  cvt.u32.u16 %r9, %rs1;)");
  for (unsigned l = 0; l < 32; ++l) {
    CAPTURE(l);
    const std::uint32_t magnitude = l % 2 == 0 ? 0x5e80u : 0x5e81u;
    CHECK(out[l] == (l >= 16 ? magnitude | 0x8000u : magnitude));
  }
}

TEST_CASE("a half to a 16-bit integer saturates at that integer's range") {
  // -60000 is the f16 0xfb53 (-1.8310546875 * 2^15: exponent 15 + 15 = 30, mantissa 851):
  // to s16 it saturates to -32768 (0x8000), to u16 to 0; +60000 (0x7b53) to 32767 and 60000.
  // The 16-bit results are sign- (s16) or zero-extended (u16) into the word: s16 in the high
  // half-word, u16 in the low.
  const auto out = run_one_warp(R"(
  setp.ge.u32 %p1, %r1, 16;
  selp.b32 %r2, 64339, 31571, %p1;
  cvt.u16.u32 %rs1, %r2;
  cvt.rni.s16.f16 %rs2, %rs1;
  cvt.rni.u16.f16 %rs3, %rs1;
  cvt.u32.u16 %r3, %rs2;
  cvt.u32.u16 %r4, %rs3;
  shl.b32 %r5, %r3, 16;
  or.b32 %r9, %r5, %r4;)");
  for (unsigned l = 0; l < 32; ++l) {
    CAPTURE(l);
    CHECK(out[l] == (l >= 16 ? 0x80000000u : 0x7fffea60u));  // 60000 = 0xea60
  }
}

}  // namespace
}  // namespace warpsim::test
