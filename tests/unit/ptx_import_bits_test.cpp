// PTX forms nvcc emits for byte shuffles, sign copies and warp-aggregated code: `prmt` with a
// selector held in a register, `copysign`, and a register read on a path that never wrote it.
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

}  // namespace
}  // namespace warpsim::test
