// PTX into the IR: each translated form executes with the PTX ISA's semantics (expected values
// computed here from the ISA's definitions), memory is addressed by bytes, guarded instructions
// run only where their predicate holds, and every form the IR cannot express is a located error.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "tests/unit/import_support.hpp"

namespace warpsim::test {
namespace {

// Lane l compares a = l - 16 (lane 31: NaN) with b = 0.
float compare_input(unsigned lane) {
  return lane == 31 ? std::numeric_limits<float>::quiet_NaN() : static_cast<float>(lane) - 16.0f;
}

TEST_CASE("setp on floats: the ordered comparisons are false and the unordered true on NaN") {
  // PTX ISA, setp: eq ne lt le gt ge are false when either operand is NaN; equ neu ltu leu gtu geu
  // are true then; num is true when neither is NaN, nan when either is.
  const char* kCompares[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",  "equ",
                             "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
  for (const char* cmp : kCompares) {
    CAPTURE(cmp);
    const std::string body = R"(
  cvt.rn.f32.u32 %f1, %r1;
  sub.f32 %f2, %f1, 0f41800000;
  setp.eq.u32 %p1, %r1, 31;
  mov.b32 %r2, %f2;
  selp.b32 %r3, 2143289344, %r2, %p1;
  mov.b32 %f3, %r3;
  setp.)" + std::string(cmp) +
                             R"(.f32 %p2, %f3, 0f00000000;
  selp.u32 %r9, 1, 0, %p2;)";
    const auto out = run_one_warp(body);
    for (unsigned lane = 0; lane < 32; ++lane) {
      const float a = compare_input(lane), b = 0.0f;
      const bool nan = std::isnan(a);
      const std::string c = cmp;
      bool want = false;
      if (c == "eq") want = !nan && a == b;
      if (c == "ne") want = !nan && a != b;
      if (c == "lt") want = !nan && a < b;
      if (c == "le") want = !nan && a <= b;
      if (c == "gt") want = !nan && a > b;
      if (c == "ge") want = !nan && a >= b;
      if (c == "equ") want = nan || a == b;
      if (c == "neu") want = nan || a != b;
      if (c == "ltu") want = nan || a < b;
      if (c == "leu") want = nan || a <= b;
      if (c == "gtu") want = nan || a > b;
      if (c == "geu") want = nan || a >= b;
      if (c == "num") want = !nan;
      if (c == "nan") want = nan;
      CAPTURE(lane);
      CHECK(out[lane] == (want ? 1u : 0u));
    }
  }
}

TEST_CASE("mul.hi and mul.wide give the high word and the 64-bit product of 32-bit operands") {
  const std::string prologue = R"(
  mul.lo.u32 %r2, %r1, -1640531527;)";  // 0x9E3779B9 as a signed literal
  SUBCASE("mul.hi.s32") {
    const auto out = run_one_warp(prologue + "\n  mul.hi.s32 %r9, %r2, -7;");
    for (unsigned l = 0; l < 32; ++l) {
      const std::int64_t p = std::int64_t{static_cast<std::int32_t>(spread(l))} * -7;
      CHECK(out[l] == static_cast<std::uint32_t>(static_cast<std::uint64_t>(p) >> 32));
    }
  }
  SUBCASE("mul.hi.u32") {
    const auto out = run_one_warp(prologue + "\n  mul.hi.u32 %r9, %r2, %r2;");
    for (unsigned l = 0; l < 32; ++l) {
      const std::uint64_t p = std::uint64_t{spread(l)} * spread(l);
      CHECK(out[l] == static_cast<std::uint32_t>(p >> 32));
    }
  }
  SUBCASE("mul.wide.u32 by a literal written negative (its 32 bits, 0xAAAAAAAB)") {
    const auto out = run_one_warp(prologue + R"(
  mul.wide.u32 %rd8, %r2, -1431655765;
  shr.u64 %rd9, %rd8, 33;
  cvt.u32.u64 %r9, %rd9;)");
    for (unsigned l = 0; l < 32; ++l) {
      CHECK(out[l] == static_cast<std::uint32_t>((std::uint64_t{spread(l)} * 0xAAAAAAABull) >> 33));
    }
  }
  SUBCASE("mul.wide.s32, then its high word") {
    const auto out = run_one_warp(prologue + R"(
  mul.wide.s32 %rd8, %r2, 3;
  shr.u64 %rd9, %rd8, 32;
  cvt.u32.u64 %r9, %rd9;)");
    for (unsigned l = 0; l < 32; ++l) {
      const std::int64_t p = std::int64_t{static_cast<std::int32_t>(spread(l))} * 3;
      CHECK(out[l] == static_cast<std::uint32_t>(static_cast<std::uint64_t>(p) >> 32));
    }
  }
}

TEST_CASE("popc, clz and brev count and reverse bits; sqrt.rn and rcp.rn are IEEE") {
  const std::string prologue = "  mul.lo.u32 %r2, %r1, -1640531527;\n";
  const auto popc = run_one_warp(prologue + "  popc.b32 %r9, %r2;");
  const auto clz = run_one_warp(prologue + "  clz.b32 %r9, %r2;");
  const auto brev = run_one_warp(prologue + "  brev.b32 %r9, %r2;");
  const auto root = run_one_warp(R"(
  cvt.rn.f32.u32 %f1, %r1;
  sqrt.rn.f32 %f2, %f1;
  mov.b32 %r9, %f2;)");
  const auto inverse = run_one_warp(R"(
  cvt.rn.f32.u32 %f1, %r1;
  add.f32 %f2, %f1, 0f3F800000;
  rcp.rn.f32 %f3, %f2;
  mov.b32 %r9, %f3;)");
  for (unsigned l = 0; l < 32; ++l) {
    const std::uint32_t x = spread(l);
    std::uint32_t reversed = 0;
    for (unsigned b = 0; b < 32; ++b) reversed |= ((x >> b) & 1u) << (31 - b);
    CHECK(popc[l] == static_cast<std::uint32_t>(std::popcount(x)));
    CHECK(clz[l] == static_cast<std::uint32_t>(std::countl_zero(x)));
    CHECK(brev[l] == reversed);
    CHECK(root[l] == std::bit_cast<std::uint32_t>(std::sqrt(static_cast<float>(l))));
    CHECK(inverse[l] == std::bit_cast<std::uint32_t>(1.0f / (static_cast<float>(l) + 1.0f)));
  }
}

TEST_CASE("ex2.approx is 2^x rounded once from double precision, inside PTX's error bound") {
  // Lane l: x = (l - 16) / 4, so 2^x spans 2^-4 to 2^3.75.
  const auto out = run_one_warp(R"(
  cvt.rn.f32.u32 %f1, %r1;
  add.f32 %f2, %f1, 0fC1800000;
  mul.rn.f32 %f3, %f2, 0f3E800000;
  ex2.approx.f32 %f4, %f3;
  mov.b32 %r9, %f4;)");
  for (unsigned l = 0; l < 32; ++l) {
    const double x = (static_cast<double>(l) - 16.0) / 4.0;
    const float got = std::bit_cast<float>(out[l]);
    CHECK(got == static_cast<float>(std::exp2(x)));
    // The PTX ISA bounds ex2.approx.f32's error at 2 ulp (2^-22 relative) over this range.
    CHECK(std::fabs(got - std::exp2(x)) <= std::exp2(x) * std::exp2(-22.0));
  }
}

TEST_CASE("16-bit registers wrap at 16 bits and compare signed where the type says .s16") {
  // x = (l * 5000) mod 2^16; s = x as a signed 16-bit value; out = 2 s + (s > 0), as a 32-bit
  // integer (cvt.s32.s16 sign-extends).
  const auto out = run_one_warp(R"(
  cvt.u16.u32 %rs1, %r1;
  mul.lo.u16 %rs2, %rs1, 5000;
  setp.gt.s16 %p1, %rs2, 0;
  selp.u16 %rs3, 1, 0, %p1;
  cvt.s32.s16 %r2, %rs2;
  cvt.u32.u16 %r3, %rs3;
  mad.lo.s32 %r9, %r2, 2, %r3;)");
  for (unsigned l = 0; l < 32; ++l) {
    const auto s = static_cast<std::int16_t>(static_cast<std::uint16_t>(l * 5000u));
    CAPTURE(l);
    CHECK(static_cast<std::int32_t>(out[l]) == 2 * s + (s > 0 ? 1 : 0));
  }
}

TEST_CASE(
    "16-bit floats: cvt to f16 and bf16 rounds as asked, widening is exact, __half2 unpacks") {
  // Lane l: x = l + 1/3 (rounded to f32). Halves keep 11 significant bits: with 4.33 in [4, 8)
  // the f16 spacing is 2^-8, so rz gives floor(x * 256) / 256 and rp one spacing more; bf16 keeps
  // 8 bits (spacing 2^-5 in [4, 8)). The packed word holds rp's half high and rz's low (PTX's
  // cvt.rz.f16x2.f32 d, a, b puts a high), unpacked through a scoped `.reg .f16` as CUDA's
  // headers write it; out = bf16(x) widened, as f32 bits, when the unpacked halves check out.
  const auto out = run_one_warp(R"(
  cvt.rn.f32.u32 %f1, %r1;
  add.f32 %f2, %f1, 0f3EAAAAAB;
  cvt.rz.f16.f32 %rs1, %f2;
  cvt.rp.f16.f32 %rs2, %f2;
  cvt.rn.bf16.f32 %rs3, %f2;
  mov.b32 %r2, {%rs1, %rs2};
  { .reg .f16 low, high;
    mov.b32 {low, high}, %r2;
    cvt.f32.f16 %f3, low;
    cvt.f32.f16 %f4, high; }
  cvt.f32.bf16 %f5, %rs3;
  sub.f32 %f6, %f4, %f3;
  mul.f32 %f7, %f6, %f5;
  mov.b32 %r9, %f7;)");
  for (unsigned l = 0; l < 32; ++l) {
    CAPTURE(l);
    const float x = static_cast<float>(l) + 1.0f / 3.0f;
    int e = 0;
    (void)std::frexp(x, &e);  // x in [2^(e-1), 2^e)
    const double f16_step = std::ldexp(1.0, e - 11), bf16_step = std::ldexp(1.0, e - 8);
    const double rz = std::floor(x / f16_step) * f16_step;
    const double rp = std::ceil(x / f16_step) * f16_step;
    const double bf16 = std::nearbyint(x / bf16_step) * bf16_step;
    CHECK(std::bit_cast<float>(out[l]) == static_cast<float>((rp - rz) * bf16));
  }
}

TEST_CASE("8- and 16-bit loads and stores move their bytes, loads extending by signedness") {
  // Lane l stores the byte (9 l) mod 256 at byte l of the buffer, and the 16-bit value
  // 1000 l mod 2^16 at byte 32 + 2 l; then reads them back sign-extended (s8, s16), before the
  // kernel's own store overwrites the buffer.
  const auto out = run_one_warp(R"(
  cvt.u64.u32 %rd5, %r1;
  add.s64 %rd6, %rd3, %rd5;
  cvt.u16.u32 %rs1, %r1;
  mul.lo.u16 %rs2, %rs1, 9;
  st.global.u8 [%rd6], %rs2;
  mul.lo.u16 %rs3, %rs1, 1000;
  add.s64 %rd7, %rd6, %rd5;
  st.global.u16 [%rd7+32], %rs3;
  ld.global.s8 %r2, [%rd6];
  ld.global.s16 %r3, [%rd7+32];
  add.s32 %r9, %r2, %r3;)");
  for (unsigned l = 0; l < 32; ++l) {
    const auto b = static_cast<std::int8_t>(static_cast<std::uint8_t>(l * 9));
    const auto h = static_cast<std::int16_t>(static_cast<std::uint16_t>(l * 1000));
    CAPTURE(l);
    CHECK(static_cast<std::int32_t>(out[l]) == b + h);
  }
}

TEST_CASE("a generic access goes to the memory its address was made for") {
  // %rd4 is cvta.to.global of the parameter: a generic store and load reach global memory.
  const auto out = run_one_warp(R"(
  st.u32 [%rd4], %r1;
  ld.u32 %r2, [%rd4];
  add.s32 %r9, %r2, 1;)");
  for (unsigned l = 0; l < 32; ++l) CHECK(out[l] == l + 1);
}

TEST_CASE("cvt rounds as the instruction says: .rzi truncates toward zero, .rn to nearest") {
  // Lane l: x = (l - 16) * 0.75; cvt.rzi.s32.f32 truncates (-2.25 -> -2), and back to float
  // exactly.
  const auto out = run_one_warp(R"(
  cvt.rn.f32.u32 %f1, %r1;
  add.f32 %f2, %f1, 0fC1800000;
  mul.rn.f32 %f3, %f2, 0f3F400000;
  cvt.rzi.s32.f32 %r9, %f3;)");
  for (unsigned l = 0; l < 32; ++l) {
    const float x = (static_cast<float>(l) - 16.0f) * 0.75f;
    CHECK(static_cast<std::int32_t>(out[l]) == static_cast<std::int32_t>(std::trunc(x)));
  }
}

TEST_CASE("a guarded store writes only where its predicate holds, and @! where it does not") {
  const std::string ptx = one_warp_kernel(R"(
  setp.lt.u32 %p1, %r1, 10;
  mov.u32 %r9, 7;
  @%p1 st.global.u32 [%rd4], %r1;
  @!%p1 bra $L__done;
  mov.u32 %r9, 100;
$L__done:
  @%p1 ret;)");
  const KernelRun k = import_kernel(ptx, launch("1", "32", {"p0=u32[32] zero"}));
  const auto out = values_of<std::uint32_t>(k.run().memory, "p0");
  // Lanes 0-9 store their index, skip nothing and return before the last store; lanes 10-31
  // branch past the mov and store 7.
  for (unsigned l = 0; l < 32; ++l) CHECK(out[l] == (l < 10 ? l : 7u));
}

TEST_CASE("shfl.sync with its width and mask in registers, and vote.sync.ballot") {
  SUBCASE("a butterfly sum over the warp") {
    std::string body = "  mov.u32 %r2, %r1;\n  mov.u32 %r20, 31;\n  mov.u32 %r21, -1;\n";
    for (int offset = 16; offset >= 1; offset /= 2) {
      body += "  shfl.sync.bfly.b32 %r3|%p3, %r2, " + std::to_string(offset) +
              ", %r20, %r21;\n  add.s32 %r2, %r2, %r3;\n";
    }
    body += "  mov.u32 %r9, %r2;";
    const auto out = run_one_warp(body);
    for (unsigned l = 0; l < 32; ++l) CHECK(out[l] == 31u * 32u / 2u);  // 0 + 1 + ... + 31
  }
  SUBCASE("ballot of the odd lanes") {
    const auto out = run_one_warp(R"(
  and.b32 %r2, %r1, 1;
  setp.ne.u32 %p1, %r2, 0;
  vote.sync.ballot.b32 %r9, %p1, -1;)");
    for (unsigned l = 0; l < 32; ++l) CHECK(out[l] == 0xAAAAAAAAu);
  }
}

TEST_CASE("shuffles over segments of the warp follow the PTX ISA's pseudo-code") {
  // The ISA: segment mask s = c[12:8], minLane = lane & s, maxLane = minLane | (c[4:0] & ~s);
  // j from the mode; a j out of range reads the lane's own value. Values: lane l holds 10 l.
  auto shuffled = [](const std::string& mode, unsigned b, unsigned c, const char* result) {
    return run_one_warp("  mul.lo.u32 %r2, %r1, 10;\n  shfl.sync." + mode + ".b32 %r3|%p2, %r2, " +
                        std::to_string(b) + ", " + std::to_string(c) + ", -1;\n" + result);
  };
  const auto down = shuffled("down", 1, (24u << 8) | 31u, "  mov.u32 %r9, %r3;");  // width 8
  const auto idx = shuffled("idx", 3, (16u << 8) | 31u, "  mov.u32 %r9, %r3;");    // width 16
  const auto up = shuffled("up", 1, 28u << 8, "  mov.u32 %r9, %r3;");              // width 4
  const auto in_range = shuffled("down", 1, (24u << 8) | 31u, "  selp.u32 %r9, 1, 0, %p2;");
  for (unsigned l = 0; l < 32; ++l) {
    CAPTURE(l);
    CHECK(down[l] == (l % 8 != 7 ? (l + 1) * 10 : l * 10));
    CHECK(idx[l] == ((l & 16u) | 3u) * 10);
    CHECK(up[l] == (l % 4 != 0 ? (l - 1) * 10 : l * 10));
    CHECK(in_range[l] == (l % 8 != 7 ? 1u : 0u));
  }
}

TEST_CASE("shf funnel-shifts the 64-bit pair b:a; atom.inc wraps at its operand") {
  // shf.l.wrap: the high word of (b:a) << (n & 31); shf.r.clamp: the low word of
  // (b:a) >> min(n, 32). a = spread(l), b = ~a, n = l (and l + 20 for the clamp).
  const std::string pair = "  mul.lo.u32 %r2, %r1, -1640531527;\n  not.b32 %r3, %r2;\n";
  const auto left = run_one_warp(pair + "  shf.l.wrap.b32 %r9, %r2, %r3, %r1;");
  const auto right =
      run_one_warp(pair + "  add.s32 %r4, %r1, 20;\n  shf.r.clamp.b32 %r9, %r2, %r3, %r4;");
  // Lanes apply the atomic in lane order: lane l sees l increments, wrapped at 9.
  const auto inc = run_one_warp("  atom.global.inc.u32 %r9, [%rd3], 9;");
  for (unsigned l = 0; l < 32; ++l) {
    const std::uint64_t both = (std::uint64_t{~spread(l)} << 32) | spread(l);
    CHECK(left[l] == static_cast<std::uint32_t>((both << (l & 31)) >> 32));
    CHECK(right[l] == static_cast<std::uint32_t>(both >> std::min(l + 20, 32u)));
    CHECK(inc[l] == l % 10);
  }
}

TEST_CASE("%lanemask_lt and %lanemask_gt are the lanes below and above") {
  const auto lt = run_one_warp("  mov.u32 %r9, %lanemask_lt;");
  const auto gt = run_one_warp("  mov.u32 %r9, %lanemask_gt;");
  for (unsigned l = 0; l < 32; ++l) {
    const std::uint64_t below = (std::uint64_t{1} << l) - 1;
    CHECK(lt[l] == static_cast<std::uint32_t>(below));
    CHECK(gt[l] == static_cast<std::uint32_t>(~((std::uint64_t{2} << l) - 1)));
  }
}

TEST_CASE("an atomic whose old value is read returns it; one whose value is unread is a RED") {
  // Every lane adds 1 to out[0]: the old values are 0..31 in lane order (lanes apply in order).
  const std::string ptx = one_warp_kernel(R"(
  atom.global.add.u32 %r9, [%rd3], 1;
  atom.global.add.u32 %r10, [%rd3+4], 2;)");
  const KernelRun k = import_kernel(ptx, launch("1", "32", {"p0=u32[32] zero"}));
  const exec::LaunchResult r = k.run();
  const auto out = values_of<std::uint32_t>(r.memory, "p0");
  // out[1] got 32 lanes x 2 = 64 from the reduction, then lane 1's store of its old value (1)
  // came after; out[0] is lane 0's old value 0 stored over the sum.
  CHECK(out[0] == 0);
  CHECK(out[1] == 1);
  for (unsigned l = 2; l < 32; ++l) CHECK(out[l] == l);
  const auto& g = r.stats.memory.global;
  CHECK(g[static_cast<std::size_t>(exec::GlobalOp::Atomic)].requests == 1);
  CHECK(g[static_cast<std::size_t>(exec::GlobalOp::Reduction)].requests == 1);
}

TEST_CASE("shared memory by byte address: a symbol, a register base and a displacement") {
  const std::string ptx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 k_out)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b8 tile[256];
  ld.param.u64 %rd1, [k_out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, tile;
  shl.b32 %r3, %r1, 2;
  add.s32 %r4, %r2, %r3;
  st.shared.u32 [%r4], %r1;
  bar.sync 0;
  ld.shared.u32 %r5, [%r4+4];
  ld.shared.u32 %r6, [tile+8];
  add.s32 %r7, %r5, %r6;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r7;
  ret;
}
)";
  const KernelRun k = import_kernel(ptx, launch("1", "63", {"p0=u32[63] zero"}));
  const exec::LaunchResult r = k.run();
  const auto out = values_of<std::uint32_t>(r.memory, "p0");
  // Thread t reads word t + 1 (thread t + 1 wrote t + 1; word 63 was never written: 0) and word 2.
  for (unsigned t = 0; t < 63; ++t) CHECK(out[t] == (t + 1 < 63 ? t + 1 : 0u) + 2u);
}

TEST_CASE("an access by address outside every buffer is a fault naming the address") {
  const std::string ptx = one_warp_kernel("  mov.u32 %r9, 1;\n  st.global.u32 [%rd4+128], %r9;");
  const KernelRun k = import_kernel(ptx, launch("1", "32", {"p0=u32[32] zero"}));
  try {
    (void)k.run();
    FAIL("expected a fault");
  } catch (const exec::KernelFault& f) {
    CHECK(std::string(f.what()).find("is in no buffer") != std::string::npos);
    CHECK(f.site().thread == 0);  // lane 0's word 32 is the first past the 32-word buffer
  }
}

TEST_CASE("forms the IR cannot express are errors at their PTX line, never approximations") {
  struct Case {
    const char* body;
    const char* says;
  };
  const Case cases[] = {
      {"  mov.u32 %r9, 0;\n  div.f32 %f1, %f1, %f1;", "div.full.f32"},
      {"  ld.global.u64 %rd9, [%rd4];\n  ld.u32 %r9, [%rd9];", "generic address"},
      {"  mov.u32 %r9, 0;\n  shfl.sync.bfly.b32 %r9, %r1, 1, %r1, -1;", "run-time values"},
      {"  mov.u32 %r9, 0;\n  cvt.rmi.ftz.f32.f32 %f1, %f1;", "cvt.rmi.ftz.f32.f32"},
      {"  mov.u32 %r9, 0;\n  add.sat.s32 %r9, %r1, %r1;", ".sat"},
      {"  mov.u32 %r9, 0;\n  atom.global.cas.b16 %rs1, [%rd4], %rs1, %rs1;",
       "8- and 16-bit atomics"},
      {"  mov.u32 %r9, 0;\n  bfe.u32 %r9, %r1, %r1, 4;", "computed at run time"},
      {"  mov.u32 %r9, 0;\n  sin.approx.ftz.f32 %f1, %f1;", ".ftz"},
      {"  mov.u32 %r9, 0;\n  bar.sync 1;", "a barrier other than 0 without a thread count"},
      {"  mov.u32 %r9, 0;\n  cvt.rn.relu.f16.f32 %rs1, %f1;", "one of .rn, .rz, .rm, .rp"},
      {"  mov.u32 %r9, 0;\n  cvt.rn.f16.bf16 %rs1, %rs1;", "to and from f32 and f64 only"},
      {"  mov.u32 %r9, 0;\n  cvt.rni.ftz.s32.f16 %r9, %rs1;", "one of .rni, .rzi"},
      {"  mov.u32 %r9, 0;\n  cp.async.ca.shared.global [%r1], [%rd4], 16, %r1;",
       "a source size computed at run time"},
  };
  for (const Case& c : cases) {
    CAPTURE(std::string(c.body));
    const std::string text = one_warp_kernel(c.body);
    const std::string err = import_error(text);
    CHECK(err.find(c.says) != std::string::npos);
    // Line 16 of the kernel text is the body's second line, the refused instruction.
    CHECK(err.find("input.ptx:16:") != std::string::npos);
  }
}

TEST_CASE("an error names the CUDA line the refused instruction came from") {
  std::string text =
      one_warp_kernel("  .loc 1 12 3\n  mov.u32 %r9, 0;\n  bfe.u32 %r9, %r1, %r1, 4;");
  text += ".file 1 \"kernel.cu\"\n";
  const std::string err = import_error(text);
  CHECK(err.find("(CUDA source kernel.cu:12)") != std::string::npos);
}

TEST_CASE("parameters are named from the CUDA source and typed from the mangled name") {
  const std::string text = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry _Z5scalePfPKdfj(.param .u64 a, .param .u64 b, .param .f32 c, .param .u32 d)
{
  .loc 1 2 0
  ret;
}
.file 1 "scale.cu"
)";
  ptx::ImportOptions options;
  options.cuda_path = "scale.cu";
  options.cuda_source =
      "// scale\n__global__ void scale(float* out, const double* __restrict__ in,\n"
      "                      float factor, unsigned count) {}\n";
  const ptx::ImportResult r = import_text(text, options);
  REQUIRE(r.module.has_value());
  const ir::Kernel& k = r.module->kernels.at(0);
  CHECK(k.name == "scale");
  REQUIRE(k.params.size() == 4);
  CHECK((k.params[0].name == "out" && k.params[0].is_pointer &&
         k.params[0].type == ir::ScalarType::F32));
  CHECK((k.params[1].name == "in" && k.params[1].is_pointer &&
         k.params[1].type == ir::ScalarType::F64));
  CHECK((k.params[2].name == "factor" && !k.params[2].is_pointer &&
         k.params[2].type == ir::ScalarType::F32));
  CHECK((k.params[3].name == "count" && k.params[3].type == ir::ScalarType::U32));
}

TEST_CASE("imported IR prints and reads back to the same module (sources, locs, addresses)") {
  std::string text = one_warp_kernel("  .loc 1 7 1\n  add.s32 %r9, %r1, 1;");
  text += ".file 1 \"k.cu\"\n";
  const ptx::ImportResult r = import_text(text);
  REQUIRE(r.module.has_value());
  const std::string printed = ir::to_string(*r.module);
  const ir::LoadedModule back = ir::load_module_text("printed", printed);
  REQUIRE(back.ok());
  CHECK(back.module == *r.module);
  CHECK(printed.find("source 1 \"k.cu\"") != std::string::npos);
  CHECK(printed.find("st.global.u32 [%rd4], %r9") != std::string::npos);
}

}  // namespace
}  // namespace warpsim::test
