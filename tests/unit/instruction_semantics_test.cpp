// Instruction semantics (docs/ir.md), one small kernel per group, each expected value derived
// in a comment. Kernels run one warp of 32 threads; lane i is thread i.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <limits>

#include "tests/unit/run_support.hpp"

namespace warpsim::test {
namespace {

// Runs `body` (blocks of a kernel with parameter `out: ptr global T`) over one warp and returns
// `out`, which has `n` elements.
template <typename T>
std::vector<T> run_body(const std::string& type, const std::string& body, std::size_t n = 32,
                        const std::string& extra_params = "", const std::string& extra_args = "") {
  const std::string text = "kernel k(out: ptr global " + type + extra_params + ") {\n" + body +
                           "}\nlaunch k grid(1) block(32) {\n  out = " + type + "[" +
                           std::to_string(n) + "] zero\n" + extra_args + "}\n";
  const auto loaded = ir::load_module_text("semantics", text);
  std::ostringstream diags;
  loaded.diags.render(diags);
  INFO(diags.str());
  REQUIRE(loaded.ok());
  std::ostringstream err;
  const auto spec = cli::resolve_launch(loaded, {}, err);
  REQUIRE(spec.has_value());
  return values_of<T>(exec::execute(loaded.module, *spec, {}).memory, "out");
}

TEST_CASE("integer arithmetic wraps, divides toward zero and shifts with clamped amounts") {
  const auto out = run_body<std::int32_t>("s32",
                                          "entry:\n"
                                          "  %max = mov.s32 2147483647\n"
                                          "  %a = add.s32 %max, 1\n"  // wraps to INT_MIN
                                          "  st.global.s32 out[0], %a\n"
                                          "  %b = div.s32 -7, 2\n"  // -3 (toward zero)
                                          "  st.global.s32 out[1], %b\n"
                                          "  %c = rem.s32 -7, 2\n"  // -1 (sign of dividend)
                                          "  st.global.s32 out[2], %c\n"
                                          "  %d = shr.s32 -16, 2\n"  // -4 (arithmetic)
                                          "  st.global.s32 out[3], %d\n"
                                          "  %e = shr.s32 -16, 40\n"  // -1 (all sign bits)
                                          "  st.global.s32 out[4], %e\n"
                                          "  %f = shl.s32 1, 32\n"  // 0
                                          "  st.global.s32 out[5], %f\n"
                                          "  %g = mul.s32 65536, 65536\n"  // 2^32 wraps to 0
                                          "  st.global.s32 out[6], %g\n"
                                          "  %min = mov.s32 -2147483648\n"
                                          "  %h = div.s32 %min, -1\n"  // wraps to INT_MIN
                                          "  st.global.s32 out[7], %h\n"
                                          "  %i = abs.s32 %min\n"  // INT_MIN
                                          "  st.global.s32 out[8], %i\n"
                                          "  %j = mad.s32 3, 4, 5\n"  // 17
                                          "  st.global.s32 out[9], %j\n"
                                          "  %k = max.s32 -3, 2\n"  // 2
                                          "  st.global.s32 out[10], %k\n"
                                          "  ret\n");
  const std::int32_t kMin = std::numeric_limits<std::int32_t>::min();
  CHECK(out[0] == kMin);
  CHECK(out[1] == -3);
  CHECK(out[2] == -1);
  CHECK(out[3] == -4);
  CHECK(out[4] == -1);
  CHECK(out[5] == 0);
  CHECK(out[6] == 0);
  CHECK(out[7] == kMin);
  CHECK(out[8] == kMin);
  CHECK(out[9] == 17);
  CHECK(out[10] == 2);
}

TEST_CASE("unsigned comparisons and shifts differ from signed ones") {
  const auto out = run_body<std::uint32_t>("u32",
                                           "entry:\n"
                                           "  %p = lt.u32 4294967295, 1\n"  // false: 2^32-1 > 1
                                           "  %q = lt.s32 -1, 1\n"          // true
                                           "  %a = select.u32 %p, 1, 0\n"
                                           "  %b = select.u32 %q, 1, 0\n"
                                           "  st.global.u32 out[0], %a\n"
                                           "  st.global.u32 out[1], %b\n"
                                           "  %c = shr.u32 4294967295, 28\n"  // 15 (logical)
                                           "  st.global.u32 out[2], %c\n"
                                           "  %d = div.u32 4294967295, 2\n"  // 2147483647
                                           "  st.global.u32 out[3], %d\n"
                                           "  ret\n");
  CHECK(out[0] == 0);
  CHECK(out[1] == 1);
  CHECK(out[2] == 15);
  CHECK(out[3] == 2147483647u);
}

TEST_CASE("cvt: float to int truncates and saturates, NaN gives 0; int to float rounds") {
  const auto out = run_body<std::int32_t>("s32",
                                          "entry:\n"
                                          "  %a = cvt.s32.f32 -2.75\n"  // -2
                                          "  st.global.s32 out[0], %a\n"
                                          "  %b = cvt.s32.f32 3e9\n"  // saturates: INT_MAX
                                          "  st.global.s32 out[1], %b\n"
                                          "  %c = cvt.s32.f32 -3e9\n"  // INT_MIN
                                          "  st.global.s32 out[2], %c\n"
                                          "  %d = cvt.s32.f32 nan\n"  // 0
                                          "  st.global.s32 out[3], %d\n"
                                          "  %e = cvt.s32.s64 4294967297\n"  // 2^32 + 1 -> 1
                                          "  st.global.s32 out[4], %e\n"
                                          "  %f = cvt.f32.s32 16777217\n"  // 2^24 + 1 -> 2^24
                                          "  %g = cvt.s32.f32 %f\n"
                                          "  st.global.s32 out[5], %g\n"
                                          "  ret\n");
  CHECK(out[0] == -2);
  CHECK(out[1] == std::numeric_limits<std::int32_t>::max());
  CHECK(out[2] == std::numeric_limits<std::int32_t>::min());
  CHECK(out[3] == 0);
  CHECK(out[4] == 1);
  CHECK(out[5] == 16777216);
}

TEST_CASE("cvt to f16 and bf16 rounds once in the mode asked; widening is exact") {
  // Values as u32 words: a 16-bit float's bits, or an f32's.
  const auto out = run_body<std::uint32_t>(
      "u32",
      "entry:\n"
      // 1 + 2^-11 is halfway between the f16s 1 and 1 + 2^-10: to even, 1 (0x3c00).
      "  %a = cvt.rn.f16.f32 1.00048828125\n"
      "  st.global.u32 out[0], %a\n"
      // Just above halfway (+2^-20): up to 1 + 2^-10 (0x3c01); toward zero it stays 0x3c00.
      "  %b = cvt.rn.f16.f32 1.0004892349243164\n"
      "  st.global.u32 out[1], %b\n"
      "  %c = cvt.rz.f16.f32 1.0004892349243164\n"
      "  st.global.u32 out[2], %c\n"
      // 65520 is halfway between the largest f16, 65504, and 65536: nearest overflows to
      // infinity (0x7c00); toward zero gives 65504 (0x7bff); -65520 down gives -inf (0xfc00).
      "  %d = cvt.rn.f16.f32 65520.0\n"
      "  st.global.u32 out[3], %d\n"
      "  %e = cvt.rz.f16.f32 65520.0\n"
      "  st.global.u32 out[4], %e\n"
      "  %f = cvt.rm.f16.f32 -65520.0\n"
      "  st.global.u32 out[5], %f\n"
      // 2^-25 is half the smallest f16 subnormal 2^-24: to even, +0; up, 2^-24 (0x0001).
      "  %g = cvt.rn.f16.f64 2.98023223876953125e-08\n"
      "  st.global.u32 out[6], %g\n"
      "  %h = cvt.rp.f16.f64 2.98023223876953125e-08\n"
      "  st.global.u32 out[7], %h\n"
      // bf16 keeps f32's exponent and 7 fraction bits: 1 + 2^-8 is halfway, to even 1 (0x3f80);
      // -3.0 is 0xc040; a NaN is 0x7fff.
      "  %i = cvt.rn.bf16.f32 1.00390625\n"
      "  st.global.u32 out[8], %i\n"
      "  %j = cvt.rn.bf16.f32 -3.0\n"
      "  st.global.u32 out[9], %j\n"
      "  %k = cvt.rn.bf16.f32 nan\n"
      "  st.global.u32 out[10], %k\n"
      // Widening: f16 0x3555 is (1024 + 341) * 2^-12 = 0.333251953125, exactly an f32;
      // bf16 0xc040 is -3.0; the smallest f16 subnormal 0x0001 is 2^-24 as an f64.
      "  %l = cvt.f32.f16 13653\n"
      "  %lb = bitcast.u32.f32 %l\n"
      "  st.global.u32 out[11], %lb\n"
      "  %m = cvt.f32.bf16 %j\n"
      "  %mb = bitcast.u32.f32 %m\n"
      "  st.global.u32 out[12], %mb\n"
      "  %n = cvt.f64.f16 1\n"
      "  %nf = cvt.f32.f64 %n\n"
      "  %nb = bitcast.u32.f32 %nf\n"
      "  st.global.u32 out[13], %nb\n"
      "  ret\n");
  CHECK(out[0] == 0x3c00u);
  CHECK(out[1] == 0x3c01u);
  CHECK(out[2] == 0x3c00u);
  CHECK(out[3] == 0x7c00u);
  CHECK(out[4] == 0x7bffu);
  CHECK(out[5] == 0xfc00u);
  CHECK(out[6] == 0x0000u);
  CHECK(out[7] == 0x0001u);
  CHECK(out[8] == 0x3f80u);
  CHECK(out[9] == 0xc040u);
  CHECK(out[10] == 0x7fffu);
  CHECK(std::bit_cast<float>(out[11]) == 0.333251953125f);
  CHECK(std::bit_cast<float>(out[12]) == -3.0f);
  CHECK(std::bit_cast<float>(out[13]) == 0x1p-24f);
}

TEST_CASE("fma rounds once, mul then add rounds twice") {
  // x = 1 + 2^-23 (the float after 1). x * x = 1 + 2^-22 + 2^-46; minus (1 + 2^-22) leaves 2^-46
  // when fused, but 0 when the product is rounded first.
  const auto out = run_body<float>("f32",
                                   "entry:\n"
                                   "  %x = mov.f32 1.00000011920928955078125\n"
                                   "  %neg = mov.f32 -1.0000002384185791015625\n"
                                   "  %fused = fma.f32 %x, %x, %neg\n"
                                   "  st.global.f32 out[0], %fused\n"
                                   "  %p = mul.f32 %x, %x\n"
                                   "  %split = add.f32 %p, %neg\n"
                                   "  st.global.f32 out[1], %split\n"
                                   "  ret\n");
  CHECK(out[0] == std::ldexp(1.0f, -46));
  CHECK(out[1] == 0.0f);
}

TEST_CASE("shuffles read other lanes; a source outside the warp gives the reader's own value") {
  // out[lane * 4 + k]: k = 0 idx from lane 3, 1 up by 1, 2 down by 1, 3 xor 1.
  const auto out = run_body<std::uint32_t>("u32",
                                           "entry:\n"
                                           "  %v = mul.u32 %laneid, 10\n"
                                           "  %base = mul.u32 %laneid, 4\n"
                                           "  %a = shfl.idx.u32 %v, 3\n"
                                           "  st.global.u32 out[%base], %a\n"
                                           "  %i1 = add.u32 %base, 1\n"
                                           "  %b = shfl.up.u32 %v, 1\n"
                                           "  st.global.u32 out[%i1], %b\n"
                                           "  %i2 = add.u32 %base, 2\n"
                                           "  %c = shfl.down.u32 %v, 1\n"
                                           "  st.global.u32 out[%i2], %c\n"
                                           "  %i3 = add.u32 %base, 3\n"
                                           "  %d = shfl.xor.u32 %v, 1\n"
                                           "  st.global.u32 out[%i3], %d\n"
                                           "  ret\n",
                                           128);
  for (std::uint32_t lane = 0; lane < 32; ++lane) {
    CAPTURE(lane);
    CHECK(out[lane * 4 + 0] == 30);
    CHECK(out[lane * 4 + 1] == (lane == 0 ? 0 : (lane - 1) * 10));
    CHECK(out[lane * 4 + 2] == (lane == 31 ? 310 : (lane + 1) * 10));
    CHECK(out[lane * 4 + 3] == (lane ^ 1u) * 10);
  }
}

TEST_CASE("votes see only the active lanes") {
  // Inside the branch only lanes 0-7 are active; %p is true for even lanes.
  const auto out = run_body<std::uint32_t>("u32",
                                           "entry:\n"
                                           "  %low = lt.u32 %laneid, 8\n"
                                           "  br %low, inside, done\n"
                                           "inside:\n"
                                           "  %bit = and.u32 %laneid, 1\n"
                                           "  %p = eq.u32 %bit, 0\n"
                                           "  %ballot = vote.ballot %p\n"
                                           "  %any = vote.any %p\n"
                                           "  %all = vote.all %p\n"
                                           "  %t = vote.all %low\n"
                                           "  st.global.u32 out[0], %ballot\n"
                                           "  %a = select.u32 %any, 1, 0\n"
                                           "  st.global.u32 out[1], %a\n"
                                           "  %b = select.u32 %all, 1, 0\n"
                                           "  st.global.u32 out[2], %b\n"
                                           "  %c = select.u32 %t, 1, 0\n"
                                           "  st.global.u32 out[3], %c\n"
                                           "  jmp done\n"
                                           "done:\n"
                                           "  ret\n");
  CHECK(out[0] == 0x55u);  // lanes 0, 2, 4, 6
  CHECK(out[1] == 1);
  CHECK(out[2] == 0);
  CHECK(out[3] == 1);  // every active lane has %low
}

TEST_CASE("atomics: add returns old values in lane order; min, max, exch and cas") {
  const auto out = run_body<std::int32_t>(
      "s32",
      "entry:\n"
      "  %old = atom.global.add.s32 out[0], 1\n"  // lanes in order: lane i sees i
      "  %slot = add.s32 %laneid, 8\n"
      "  st.global.s32 out[%slot], %old\n"
      "  %neg = neg.s32 %laneid\n"
      "  atom.global.min.s32 out[1], %neg\n"           // min over -lane: -31
      "  atom.global.max.s32 out[2], %laneid\n"        // 31
      "  atom.global.exch.s32 out[3], %laneid\n"       // the last lane's: 31
      "  %first = atom.global.cas.s32 out[4], 0, 7\n"  // lane 0 swaps 0 -> 7; the rest fail
      "  %won = eq.s32 %first, 0\n"
      "  %w = select.s32 %won, 1, 0\n"
      "  atom.global.add.s32 out[5], %w\n"  // exactly one winner
      "  ret\n",
      40);
  CHECK(out[0] == 32);
  CHECK(out[1] == -31);
  CHECK(out[2] == 31);
  CHECK(out[3] == 31);
  CHECK(out[4] == 7);
  CHECK(out[5] == 1);
  for (int lane = 0; lane < 32; ++lane) CHECK(out[static_cast<std::size_t>(lane) + 8] == lane);
}

TEST_CASE("atom.add.f32 flushes subnormal inputs to zero, as PTX's does; f64 keeps them") {
  // 32 lanes each add 1e-40 (subnormal in f32: below 2^-126, about 1.18e-38): flushed, the sum
  // stays 0; unflushed it would be 3.2e-39. 1e-310 is subnormal in f64 too, where atom.add.f64
  // does not flush: 32 of them add up to about 3.2e-309.
  const auto f = run_body<float>("f32",
                                 "entry:\n"
                                 "  atom.global.add.f32 out[0], 1e-40\n"
                                 "  ret\n",
                                 1);
  CHECK(f[0] == 0.0f);
  const auto d = run_body<double>("f64",
                                  "entry:\n"
                                  "  atom.global.add.f64 out[0], 1e-310\n"
                                  "  ret\n",
                                  1);
  CHECK(d[0] > 3.1e-309);
  CHECK(d[0] < 3.3e-309);
}

TEST_CASE("vector loads and stores move consecutive elements") {
  const auto out = run_body<float>("f32",
                                   "entry:\n"
                                   "  %base = mul.u32 %laneid, 4\n"
                                   "  %x = cvt.f32.u32 %base\n"
                                   "  %y = add.f32 %x, 1.0\n"
                                   "  %z = add.f32 %x, 2.0\n"
                                   "  %w = add.f32 %x, 3.0\n"
                                   "  st.global.v4.f32 out[%base], {%x, %y, %z, %w}\n"
                                   "  {%a, %b, %c, %d} = ld.global.v4.f32 out[%base]\n"
                                   "  %s = add.f32 %a, %d\n"
                                   "  st.global.f32 out[%base], %s\n"
                                   "  ret\n",
                                   128);
  for (std::size_t i = 0; i < 128; ++i) {
    // element 4l holds 4l + (4l + 3); the others i.
    CHECK(out[i] == (i % 4 == 0 ? static_cast<float>(2 * i + 3) : static_cast<float>(i)));
  }
}

TEST_CASE("a partial warp's missing lanes never run") {
  // 40 threads: warp 1 has lanes 0-7 only. Every thread adds 1; the count must be 40.
  const std::string text =
      "kernel k(out: ptr global u32) {\nentry:\n  atom.global.add.u32 out[0], 1\n  ret\n}\n"
      "launch k grid(1) block(40) {\n  out = u32[1] zero\n}\n";
  const auto loaded = ir::load_module_text("partial", text);
  REQUIRE(loaded.ok());
  std::ostringstream err;
  const auto spec = cli::resolve_launch(loaded, {}, err);
  REQUIRE(spec.has_value());
  const auto r = exec::execute(loaded.module, *spec, {});
  CHECK(values_of<std::uint32_t>(r.memory, "out")[0] == 40);
  CHECK(r.stats.thread_instructions == 2 * 40);  // atom and ret, once per thread
  CHECK(r.stats.warp_instructions == 2 * 2);
}

}  // namespace
}  // namespace warpsim::test
