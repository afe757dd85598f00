// PTX forms nvcc emits for byte shuffles, sign copies, warp-aggregated code and libdevice's
// extended-precision arithmetic: `prmt` with a selector held in a register, `copysign`, a
// register read on a path that never wrote it, and carry chains.
// Each is imported with the PTX ISA's semantics; the expected values are computed here from the
// ISA's definitions.
#include <doctest/doctest.h>

#include <cstdint>

#include "tests/unit/import_support.hpp"

namespace warpsim::test {
namespace {

// Lane l's operands, spread over the whole 32-bit range by two odd multipliers.
std::uint32_t first_operand(unsigned lane) {
  return static_cast<std::uint32_t>(lane * 0x9E3779B9ull);
}
std::uint32_t second_operand(unsigned lane) {
  return static_cast<std::uint32_t>(lane * 0x85EBCA6Bull) ^ 0x80808080u;
}
const std::string kOperands =
    "  mul.lo.u32 %r2, %r1, -1640531527;\n"  // 0x9E3779B9
    "  mul.lo.u32 %r3, %r1, -2048144789;\n"  // 0x85EBCA6B
    "  xor.b32 %r3, %r3, -2139062144;\n";    // 0x80808080: every byte's top bit flipped

// The ISA's prmt in its default mode: result byte k is chosen by nibble k of the selector; its
// low three bits pick a byte of the 64-bit value {b, a}, and its top bit asks for that byte's
// sign bit copied into all eight bits. Only the selector's low 16 bits matter.
std::uint32_t permute(std::uint32_t a, std::uint32_t b, std::uint32_t selector) {
  const std::uint64_t bytes = a | std::uint64_t{b} << 32;
  std::uint32_t v = 0;
  for (unsigned k = 0; k < 4; ++k) {
    const unsigned n = (selector >> (4 * k)) & 0xfu;
    std::uint32_t byte = static_cast<std::uint32_t>(bytes >> (8 * (n & 7u))) & 0xffu;
    if ((n & 8u) != 0) byte = (byte & 0x80u) != 0 ? 0xffu : 0u;
    v |= byte << (8 * k);
  }
  return v;
}

TEST_CASE("prmt with a selector held in a register picks and sign-copies bytes as PTX says") {
  // Each lane's selector is its own (lane * 0x2545F491), so the 32 lanes cover nibbles with and
  // without the sign-copy bit, and bits above the low 16 that must be ignored.
  const auto out = run_one_warp(kOperands + R"(
  mul.lo.u32 %r4, %r1, 625341585;
  prmt.b32 %r9, %r2, %r3, %r4;)");
  for (unsigned l = 0; l < 32; ++l) {
    CAPTURE(l);
    const auto selector = static_cast<std::uint32_t>(l * 0x2545F491ull);
    CHECK(out[l] == permute(first_operand(l), second_operand(l), selector));
  }
}

TEST_CASE("cnot gives 1 for a zero operand and 0 otherwise, in 16, 32 and 64 bits") {
  // Lane l's value is l & 3, so every fourth lane holds zero. The three results land in bits 0
  // (b32), 1 (b64) and 2 (b16): 7 in lanes 0, 4, 8, ..., 0 elsewhere.
  const auto out = run_one_warp(R"(
  and.b32 %r2, %r1, 3;
  cnot.b32 %r3, %r2;
  cvt.u64.u32 %rd5, %r2;
  cnot.b64 %rd6, %rd5;
  cvt.u32.u64 %r4, %rd6;
  cvt.u16.u32 %rs1, %r2;
  cnot.b16 %rs2, %rs1;
  cvt.u32.u16 %r5, %rs2;
  shl.b32 %r6, %r4, 1;
  shl.b32 %r7, %r5, 2;
  or.b32 %r8, %r3, %r6;
  or.b32 %r9, %r8, %r7;)");
  for (unsigned l = 0; l < 32; ++l) {
    CAPTURE(l);
    CHECK(out[l] == (l % 4 == 0 ? 7u : 0u));
  }
}

TEST_CASE("copysign gives b's magnitude with a's sign, on the raw bits") {
  // PTX's `copysign.f32 d, a, b` copies a's sign into b. The operands' bit patterns include
  // NaNs and infinities' neighbours; copysign does no arithmetic, so a NaN keeps its payload.
  const auto out = run_one_warp(kOperands + R"(
  mov.b32 %f1, %r2;
  mov.b32 %f2, %r3;
  copysign.f32 %f3, %f1, %f2;
  mov.b32 %r9, %f3;)");
  for (unsigned l = 0; l < 32; ++l) {
    CAPTURE(l);
    CHECK(out[l] == ((first_operand(l) & 0x80000000u) | (second_operand(l) & 0x7fffffffu)));
  }
}

TEST_CASE("copysign.f64 copies the sign bit of a 64-bit float") {
  // 64-bit operands: a's high word is the first operand, b's the second, the low words the other
  // way round; the result's high word lands in out[lane] and must carry a's sign.
  const auto out = run_one_warp(kOperands + R"(
  mov.b64 %rd10, {%r3, %r2};
  mov.b64 %rd11, {%r2, %r3};
  mov.b64 %fd1, %rd10;
  mov.b64 %fd2, %rd11;
  copysign.f64 %fd3, %fd1, %fd2;
  mov.b64 %rd12, %fd3;
  mov.b64 {%r8, %r9}, %rd12;)");
  for (unsigned l = 0; l < 32; ++l) {
    CAPTURE(l);
    CHECK(out[l] == ((first_operand(l) & 0x80000000u) | (second_operand(l) & 0x7fffffffu)));
  }
}

TEST_CASE("a register only the leader lane writes, read by all and shuffled from the leader") {
  // CUDA's warp-aggregated atomic: `unsigned base; if (lane == leader) base = atomicAdd(...);
  // base = __shfl_sync(mask, base, leader);`. The other lanes read `base` on a path that never
  // wrote it, which PTX allows (the value is undefined and here unused): every lane ends with
  // the leader's value, 1000 + 7.
  const auto out = run_one_warp(R"(
  setp.ne.s32 %p1, %r1, 7;
  @%p1 bra $L__skip;
  add.s32 %r5, %r1, 1000;
$L__skip:
  shfl.sync.idx.b32 %r9, %r5, 7, 31, -1;)");
  for (unsigned l = 0; l < 32; ++l) {
    CAPTURE(l);
    CHECK(out[l] == 1007u);
  }
}

// Lane l's 64-bit operands: {second, first} and {first, second} of its spread words.
std::uint64_t wide_a(unsigned l) {
  return std::uint64_t{second_operand(l)} << 32 | first_operand(l);
}
std::uint64_t wide_b(unsigned l) {
  return std::uint64_t{first_operand(l)} << 32 | second_operand(l);
}
const std::string kWideOperands = kOperands + R"(
  mov.b64 %rd10, {%r2, %r3};
  mov.b64 %rd11, {%r3, %r2};
  mov.b64 {%r10, %r11}, %rd10;
  mov.b64 {%r12, %r13}, %rd11;)";

TEST_CASE("carry chains: libdevice's 64 x 64 + 64-bit multiply-add and a 64-bit subtraction") {
  SUBCASE("mad.lo.cc, madc.hi.cc, madc.lo.cc and addc give the 128-bit a * b + c") {
    // The sequence of double sin's argument reduction, with c = b: {r17:r16:r15:r14}.
    const auto out = run_one_warp(kWideOperands + R"(
  mad.lo.cc.u32 %r14, %r10, %r12, %r12;
  madc.hi.cc.u32 %r15, %r10, %r12, %r13;
  madc.hi.u32 %r16, %r10, %r13, 0;
  mad.lo.cc.u32 %r15, %r10, %r13, %r15;
  madc.hi.cc.u32 %r16, %r11, %r12, %r16;
  madc.hi.u32 %r17, %r11, %r13, 0;
  mad.lo.cc.u32 %r15, %r11, %r12, %r15;
  madc.lo.cc.u32 %r16, %r11, %r13, %r16;
  addc.u32 %r17, %r17, 0;
  mad.lo.u32 %r18, %r15, 3, %r14;
  mad.lo.u32 %r19, %r16, 5, %r18;
  mad.lo.u32 %r9, %r17, 7, %r19;)");
    __extension__ using U128 = unsigned __int128;
    for (unsigned l = 0; l < 32; ++l) {
      CAPTURE(l);
      const U128 exact = static_cast<U128>(wide_a(l)) * wide_b(l) + wide_b(l);
      std::uint32_t w[4];
      for (unsigned k = 0; k < 4; ++k) w[k] = static_cast<std::uint32_t>(exact >> (32 * k));
      CHECK(out[l] == w[0] + 3 * w[1] + 5 * w[2] + 7 * w[3]);  // each word weighed apart
    }
  }
  SUBCASE("sub.cc and subc borrow across the words of a 64-bit subtraction") {
    const auto out = run_one_warp(kWideOperands + R"(
  sub.cc.u32 %r14, %r10, %r12;
  subc.u32 %r15, %r11, %r13;
  mad.lo.u32 %r9, %r15, 3, %r14;)");
    for (unsigned l = 0; l < 32; ++l) {
      CAPTURE(l);
      const std::uint64_t difference = wide_a(l) - wide_b(l);
      const auto low = static_cast<std::uint32_t>(difference);
      const auto high = static_cast<std::uint32_t>(difference >> 32);
      CHECK(out[l] == low + 3 * high);
    }
  }
}

}  // namespace
}  // namespace warpsim::test
