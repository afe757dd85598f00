// The PTX forms nvcc's math library and 64-bit integer code reach for (sinf, expf, powf, tanf,
// a long long divided by a constant, bit fields, __device__ variables): each imported with the
// PTX ISA's semantics, the expected values computed here from the ISA's definitions.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "tests/unit/import_support.hpp"

namespace warpsim::test {
namespace {

const std::string kSpread = "  mul.lo.u32 %r2, %r1, -1640531527;\n";  // 0x9E3779B9

TEST_CASE("mul.hi.u64 and mul.hi.s64 give the high half of the 128-bit product") {
  const std::string prologue = kSpread;
  // 64-bit operands: lane l's is its 32-bit spread in both halves, times a constant whose high
  // bit is set (as nvcc's 64-bit division by 7 uses); the 128-bit product's high half.
  const std::string wide_prologue = prologue + R"(
  cvt.u64.u32 %rd10, %r2;
  shl.b64 %rd11, %rd10, 32;
  or.b64 %rd12, %rd11, %rd10;)";
  __extension__ using U128 = unsigned __int128;
  __extension__ using S128 = __int128;
  auto spread64 = [](unsigned l) { return (std::uint64_t{spread(l)} << 32) | spread(l); };
  SUBCASE("mul.hi.u64") {
    const auto out = run_one_warp(wide_prologue + R"(
  mul.hi.u64 %rd13, %rd12, -7378697629483820647;
  shr.u64 %rd14, %rd13, 17;
  xor.b64 %rd15, %rd13, %rd14;
  cvt.u32.u64 %r9, %rd15;)");
    for (unsigned l = 0; l < 32; ++l) {
      const U128 p = static_cast<U128>(spread64(l)) * 0x9999999999999999ull;  // the literal's bits
      const auto hi = static_cast<std::uint64_t>(p >> 64);
      CHECK(out[l] == static_cast<std::uint32_t>(hi ^ (hi >> 17)));
    }
  }
  SUBCASE("mul.hi.s64") {
    const auto out = run_one_warp(wide_prologue + R"(
  mul.hi.s64 %rd13, %rd12, 5270498306774157605;
  shr.u64 %rd14, %rd13, 17;
  xor.b64 %rd15, %rd13, %rd14;
  cvt.u32.u64 %r9, %rd15;)");
    for (unsigned l = 0; l < 32; ++l) {
      const S128 p =
          static_cast<S128>(static_cast<std::int64_t>(spread64(l))) * 5270498306774157605ll;
      const auto hi = static_cast<std::uint64_t>(p >> 64);
      CHECK(out[l] == static_cast<std::uint32_t>(hi ^ (hi >> 17)));
    }
  }
}

// The PTX ISA's pseudo-code for bfe and bfi on 32 bits, bit by bit.
std::uint32_t bfe_reference(std::uint32_t a, unsigned pos, unsigned len, bool is_signed) {
  const unsigned msb = 31;
  const unsigned last = std::min(pos + len - 1, msb);
  const bool sbit = is_signed && len != 0 && ((a >> last) & 1u) != 0;
  std::uint32_t d = 0;
  for (unsigned i = 0; i <= msb; ++i) {
    const bool bit = (i < len && pos + i <= msb) ? ((a >> (pos + i)) & 1u) != 0 : sbit;
    d |= static_cast<std::uint32_t>(bit) << i;
  }
  return d;
}
std::uint32_t bfi_reference(std::uint32_t a, std::uint32_t b, unsigned pos, unsigned len) {
  std::uint32_t f = b;
  for (unsigned i = 0; i < len && pos + i <= 31; ++i) {
    f = (f & ~(1u << (pos + i))) | (((a >> i) & 1u) << (pos + i));
  }
  return f;
}

TEST_CASE("bfe and bfi with constant positions follow the ISA's bit-by-bit definition") {
  struct Field {
    unsigned pos, len;
  };
  // Inside the word, reaching past bit 31, empty, and starting past it.
  const Field fields[] = {{5, 9}, {20, 12}, {4, 8}, {28, 10}, {0, 32}, {7, 0}, {40, 3}};
  for (const Field f : fields) {
    CAPTURE(f.pos);
    CAPTURE(f.len);
    const std::string args = std::to_string(f.pos) + ", " + std::to_string(f.len) + ";";
    const auto u = run_one_warp(kSpread + "  bfe.u32 %r9, %r2, " + args);
    const auto s = run_one_warp(kSpread + "  bfe.s32 %r9, %r2, " + args);
    const auto i = run_one_warp(kSpread + "  not.b32 %r3, %r1;\n  bfi.b32 %r9, %r2, %r3, " + args);
    for (unsigned l = 0; l < 32; ++l) {
      CHECK(u[l] == bfe_reference(spread(l), f.pos, f.len, false));
      CHECK(s[l] == bfe_reference(spread(l), f.pos, f.len, true));
      CHECK(i[l] == bfi_reference(spread(l), ~l, f.pos, f.len));
    }
  }
}

// The PTX ISA's pseudo-code for bmsk, in 64 bits where it shifts by up to 62.
std::uint32_t bmsk_reference(std::uint32_t a, std::uint32_t b, bool clamp) {
  const std::uint64_t ones = 0xffffffffu;
  const std::uint32_t a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
  std::uint64_t mask0 = (ones << a1) & ones;
  std::uint64_t mask1 = (ones << sum) & ones;
  const bool position_overflow = clamp && a >= 32, width_overflow = clamp && b >= 32;
  if (position_overflow) mask0 = 0;
  if (sum >= 32 || position_overflow || width_overflow) {
    mask1 = 0;
  } else if (b1 == 0) {
    mask1 = ones;
  }
  return static_cast<std::uint32_t>(mask0 & ~mask1);
}

TEST_CASE("bmsk.clamp and bmsk.wrap follow the ISA's definition for positions and widths past 31") {
  // Lane l: position (7 l) mod 40, width (13 l) mod 37, both in registers (cub's radix digit
  // masks): positions and widths of 0, inside the word, summing past 31, and 32 or more.
  const std::string operands = R"(
  mul.lo.u32 %r3, %r1, 7;
  rem.u32 %r4, %r3, 40;
  mul.lo.u32 %r5, %r1, 13;
  rem.u32 %r6, %r5, 37;
)";
  const auto clamped = run_one_warp(operands + "  bmsk.clamp.b32 %r9, %r4, %r6;");
  const auto wrapped = run_one_warp(operands + "  bmsk.wrap.b32 %r9, %r4, %r6;");
  for (unsigned l = 0; l < 32; ++l) {
    CAPTURE(l);
    CHECK(clamped[l] == bmsk_reference(7 * l % 40, 13 * l % 37, true));
    CHECK(wrapped[l] == bmsk_reference(7 * l % 40, 13 * l % 37, false));
  }
  // The ISA's example: bmsk.wrap.b32 rd, 1, 2 creates 0x00000006.
  CHECK(bmsk_reference(1, 2, false) == 0x6u);
}

TEST_CASE("lop3 applies its truth table bit by bit; dp4a and dp2a sum byte products") {
  // Operands: a = spread(l), b = ~a rotated, c = lane * 0x01010101.
  const std::string operands = kSpread + R"(
  shf.l.wrap.b32 %r3, %r2, %r2, 7;
  not.b32 %r4, %r3;
  mul.lo.u32 %r5, %r1, 16843009;
)";
  auto b_of = [](unsigned l) { return ~std::rotl(spread(l), 7); };
  auto c_of = [](unsigned l) { return l * 0x01010101u; };
  // The ISA's definition: bit i of d is bit (a_i << 2 | b_i << 1 | c_i) of the table.
  auto lop3 = [](std::uint32_t a, std::uint32_t b, std::uint32_t c, unsigned lut) {
    std::uint32_t d = 0;
    for (unsigned i = 0; i < 32; ++i) {
      const unsigned index = ((a >> i) & 1u) << 2 | ((b >> i) & 1u) << 1 | ((c >> i) & 1u);
      d |= ((lut >> index) & 1u) << i;
    }
    return d;
  };
  for (const unsigned lut : {0x00u, 0xffu, 0x96u, 0xe8u, 0x80u, 0x01u, 0xcau, 0x3cu}) {
    CAPTURE(lut);
    const auto out =
        run_one_warp(operands + "  lop3.b32 %r9, %r2, %r4, %r5, " + std::to_string(lut) + ";");
    for (unsigned l = 0; l < 32; ++l) CHECK(out[l] == lop3(spread(l), b_of(l), c_of(l), lut));
  }
  // dp4a: c + the products of the bytes, each signed or not by its operand's type.
  auto byte = [](std::uint32_t w, unsigned i, bool is_signed) {
    const std::uint32_t v = (w >> (8 * i)) & 0xffu;
    return is_signed ? static_cast<std::int64_t>(static_cast<std::int8_t>(v))
                     : static_cast<std::int64_t>(v);
  };
  auto half = [](std::uint32_t w, unsigned i, bool is_signed) {
    const std::uint32_t v = (w >> (16 * i)) & 0xffffu;
    return is_signed ? static_cast<std::int64_t>(static_cast<std::int16_t>(v))
                     : static_cast<std::int64_t>(v);
  };
  const auto s4 = run_one_warp(operands + "  dp4a.s32.u32 %r9, %r2, %r4, %r5;");
  const auto u4 = run_one_warp(operands + "  dp4a.u32.u32 %r9, %r2, %r4, %r5;");
  const auto lo2 = run_one_warp(operands + "  dp2a.lo.s32.s32 %r9, %r2, %r4, %r5;");
  const auto hi2 = run_one_warp(operands + "  dp2a.hi.u32.s32 %r9, %r2, %r4, %r5;");
  for (unsigned l = 0; l < 32; ++l) {
    const std::uint32_t a = spread(l), b = b_of(l);
    std::int64_t signed_sum = c_of(l), unsigned_sum = c_of(l);
    for (unsigned i = 0; i < 4; ++i) {
      signed_sum += byte(a, i, true) * byte(b, i, false);
      unsigned_sum += byte(a, i, false) * byte(b, i, false);
    }
    std::int64_t low = c_of(l), high = c_of(l);
    for (unsigned i = 0; i < 2; ++i) {
      low += half(a, i, true) * byte(b, i, true);
      high += half(a, i, false) * byte(b, i + 2, true);
    }
    CHECK(s4[l] == static_cast<std::uint32_t>(signed_sum));
    CHECK(u4[l] == static_cast<std::uint32_t>(unsigned_sum));
    CHECK(lo2[l] == static_cast<std::uint32_t>(low));
    CHECK(hi2[l] == static_cast<std::uint32_t>(high));
  }
}

TEST_CASE("a NaN literal keeps its bits (nvcc's 0f7FFFFFFF is the GPU's NaN)") {
  // tgammaf's poles return the literal 0f7FFFFFFF; a float literal NaN would be the host's
  // 0x7fc00000. Other payloads and the f64 one keep theirs too.
  const auto f = run_one_warp("  mov.f32 %f1, 0f7FFFFFFF;\n  mov.b32 %r9, %f1;");
  const auto g = run_one_warp("  mov.f32 %f1, 0fFF800001;\n  mov.b32 %r9, %f1;");
  const auto d = run_one_warp(
      "  mov.f64 %fd1, 0d7FF0000000000123;\n  mov.b64 %rd1, %fd1;\n  cvt.u32.u64 %r9, %rd1;");
  for (unsigned l = 0; l < 32; ++l) {
    CHECK(f[l] == 0x7fffffffu);
    CHECK(g[l] == 0xff800001u);
    CHECK(d[l] == 0x123u);  // the low word of the payload
  }
}

// Lane l's float: (l - 16) / 8, lane 31 NaN, lane 30 -0.
const std::string kFloats = R"(
  cvt.rn.f32.u32 %f1, %r1;
  sub.f32 %f2, %f1, 0f41800000;
  mul.f32 %f3, %f2, 0f3E000000;
  setp.eq.u32 %p1, %r1, 31;
  selp.f32 %f4, 0f7FFFFFFF, %f3, %p1;
  setp.eq.u32 %p2, %r1, 30;
  selp.f32 %f5, 0f80000000, %f4, %p2;
)";
float lane_float(unsigned l) {
  if (l == 31) return std::numeric_limits<float>::quiet_NaN();
  if (l == 30) return -0.0f;
  return (static_cast<float>(l) - 16.0f) / 8.0f;
}

TEST_CASE("cvt.sat.f32.f32 clamps to [0, 1], a NaN and -0 to +0") {
  const auto out = run_one_warp(kFloats + "  cvt.sat.f32.f32 %f6, %f5;\n  mov.b32 %r9, %f6;");
  for (unsigned l = 0; l < 32; ++l) {
    const float x = lane_float(l);
    const float want = std::isnan(x) ? 0.0f : x <= 0.0f ? 0.0f : x >= 1.0f ? 1.0f : x;
    CAPTURE(l);
    CHECK(out[l] == std::bit_cast<std::uint32_t>(want));
  }
}

// `exact` rounded to float in `mode` (-1 toward -inf, 0 toward zero, 1 toward +inf): the nearest
// float, moved one step when it lies on the wrong side of the exact value.
float directed(double exact, int mode) {
  float f = static_cast<float>(exact);
  const bool down = mode < 0 || (mode == 0 && exact > 0);
  if (down && static_cast<double>(f) > exact) f = std::nextafter(f, -INFINITY);
  if (!down && static_cast<double>(f) < exact) f = std::nextafter(f, INFINITY);
  return f;
}

TEST_CASE("add, mul and fma with .rz, .rm and .rp round in their direction") {
  // a = 1 + l * 2^-20 and b = 1/3 (rounded): products and sums whose exact values a double
  // holds (24 + 24 bits, exponents close), so the reference rounds them once, as the ISA says.
  const std::string prologue = R"(
  cvt.rn.f32.u32 %f1, %r1;
  fma.rn.f32 %f2, %f1, 0f35800000, 0f3F800000;
  mov.f32 %f3, 0f3EAAAAAB;
)";
  const float third = std::bit_cast<float>(0x3EAAAAABu);
  struct Mode {
    const char* name;
    int direction;
  };
  for (const Mode m : {Mode{"rz", 0}, Mode{"rm", -1}, Mode{"rp", 1}}) {
    CAPTURE(m.name);
    const std::string r = m.name;
    const auto mul =
        run_one_warp(prologue + "  mul." + r + ".f32 %f4, %f2, %f3;\n  mov.b32 %r9, %f4;");
    const auto add =
        run_one_warp(prologue + "  sub." + r + ".f32 %f4, %f3, %f2;\n  mov.b32 %r9, %f4;");
    const auto fma =
        run_one_warp(prologue + "  fma." + r + ".f32 %f4, %f2, %f3, %f3;\n  mov.b32 %r9, %f4;");
    for (unsigned l = 0; l < 32; ++l) {
      const double a = 1.0 + l * 0x1p-20;
      CAPTURE(l);
      CHECK(mul[l] == std::bit_cast<std::uint32_t>(directed(a * third, m.direction)));
      CHECK(add[l] == std::bit_cast<std::uint32_t>(directed(third - a, m.direction)));
      CHECK(fma[l] == std::bit_cast<std::uint32_t>(directed(a * third + third, m.direction)));
    }
  }
}

TEST_CASE("lg2.approx.ftz takes a subnormal input as zero, giving -inf") {
  // Lane 0: the smallest subnormal, lane 1 its negative: both flushed, -inf. Lane l >= 2: 2^(l-20),
  // whose logarithm l - 20 is exact in any rounding.
  const auto lg2 = run_one_warp(R"(
  add.u32 %r3, %r1, 107;
  shl.b32 %r4, %r3, 23;
  mov.b32 %f1, %r4;
  setp.eq.u32 %p1, %r1, 0;
  selp.f32 %f2, 0f00000001, %f1, %p1;
  setp.eq.u32 %p2, %r1, 1;
  selp.f32 %f3, 0f80000001, %f2, %p2;
  lg2.approx.ftz.f32 %f4, %f3;
  mov.b32 %r9, %f4;)");
  CHECK(lg2[0] == std::bit_cast<std::uint32_t>(-INFINITY));
  CHECK(lg2[1] == std::bit_cast<std::uint32_t>(-INFINITY));
  for (unsigned l = 2; l < 32; ++l) {
    CAPTURE(l);
    // Exponent field l + 107 is 2^(l + 107 - 127).
    CHECK(std::bit_cast<float>(lg2[l]) == static_cast<float>(static_cast<int>(l) - 20));
  }
}

TEST_CASE("rcp.approx.ftz and ex2.approx.ftz flush subnormal inputs and results to zero") {
  // rcp: lane 0 a subnormal (1 = 2^-149) gives +inf; lane 1 2^127 gives 2^-127, a subnormal
  // result, so +0; lane 2 -2^127 gives -0; the others 1/(l + 1), within the ISA's 1 ulp.
  const auto rcp = run_one_warp(R"(
  add.u32 %r3, %r1, 1;
  cvt.rn.f32.u32 %f1, %r3;
  setp.eq.u32 %p1, %r1, 0;
  selp.f32 %f2, 0f00000001, %f1, %p1;
  setp.eq.u32 %p2, %r1, 1;
  selp.f32 %f3, 0f7F000000, %f2, %p2;
  setp.eq.u32 %p3, %r1, 2;
  selp.f32 %f4, 0fFF000000, %f3, %p3;
  rcp.approx.ftz.f32 %f5, %f4;
  mov.b32 %r9, %f5;)");
  CHECK(rcp[0] == std::bit_cast<std::uint32_t>(INFINITY));
  CHECK(rcp[1] == 0u);
  CHECK(rcp[2] == 0x80000000u);
  for (unsigned l = 3; l < 32; ++l) {
    const double exact = 1.0 / (l + 1.0);
    const float got = std::bit_cast<float>(rcp[l]);
    CHECK(std::abs(got - exact) <=
          std::nextafter(static_cast<float>(exact), INFINITY) - static_cast<float>(exact));
  }
  // ex2: lane l raises 2 to -(l * 5): 2^-130 and below are subnormal (or smaller) and flush to
  // +0; 2^-125 and above are powers of two, exact.
  const auto ex2 = run_one_warp(R"(
  mul.lo.u32 %r3, %r1, 5;
  cvt.rn.f32.u32 %f1, %r3;
  neg.f32 %f2, %f1;
  ex2.approx.ftz.f32 %f3, %f2;
  mov.b32 %r9, %f3;)");
  for (unsigned l = 0; l < 32; ++l) {
    const int e = -static_cast<int>(l * 5);
    CAPTURE(l);
    CHECK(ex2[l] == (e < -126 ? 0u : std::bit_cast<std::uint32_t>(std::ldexp(1.0f, e))));
  }
}

TEST_CASE("an integer store of a wider register stores its low bytes (PTX's relaxed types)") {
  // nvcc's sinf stores 64-bit registers with st.local.u32.
  const auto out = run_one_warp(R"(
  cvt.u64.u32 %rd5, %r1;
  or.b64 %rd6, %rd5, 81985529216486895;
  st.global.u32 [%rd4], %rd6;
  ld.global.u32 %r9, [%rd4];)");
  for (unsigned l = 0; l < 32; ++l) {
    CHECK(out[l] == static_cast<std::uint32_t>(0x0123456789ABCDEFull | l));  // the low half
  }
}

TEST_CASE("module .global variables: initialised tables read and counters updated") {
  // A table of two words {7, 9} (bytes, little-endian, as nvcc writes sinf's table) and a
  // __device__ counter: each lane reads tbl[lane & 1] and adds 1 to the counter, so the
  // counter ends at 32 and out[l] is 7 or 9 (the unnamed parameter is p0).
  const std::string ptx = R"(.version 8.0
.target sm_90
.address_size 64
.global .align 4 .b8 tbl[8] = {7, 0, 0, 0, 9, 0, 0, 0};
.global .align 4 .u32 counter;
.visible .entry k(.param .u64 k_out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [k_out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  mul.wide.u32 %rd3, %r2, 4;
  mov.u64 %rd4, tbl;
  add.s64 %rd5, %rd4, %rd3;
  ld.global.nc.u32 %r3, [%rd5];
  mov.u64 %rd6, counter;
  atom.global.add.u32 %r4, [%rd6], 1;
  mul.wide.u32 %rd7, %r1, 4;
  add.s64 %rd8, %rd2, %rd7;
  st.global.u32 [%rd8], %r3;
  ret;
}
)";
  const KernelRun k = import_kernel(ptx, launch("1", "32", {"p0=u32[32] zero"}));
  const exec::LaunchResult r = k.run();
  const auto out = values_of<std::uint32_t>(r.memory, "p0");
  for (unsigned l = 0; l < 32; ++l) CHECK(out[l] == ((l & 1u) != 0 ? 9u : 7u));
  CHECK(values_of<std::uint32_t>(r.memory, "counter") == std::vector<std::uint32_t>{32});
  CHECK(values_of<std::uint32_t>(r.memory, "tbl") == std::vector<std::uint32_t>{7, 9});
}

TEST_CASE("rcp.approx.ftz.f64 is the reciprocal of the operand's high word, its low word zero") {
  // The PTX ISA: tmp = a[63:32] (1.11.20 format), d[63:32] = 1.0 / tmp, d[31:0] = 0; subnormal
  // inputs and results flushed to signed zero; a NaN gives 0x7fffffff00000000. Lane l's high
  // word is its spread value, lanes 0-6 set to +0, -0, +inf, a NaN, a subnormal, 2.0 and the
  // largest exponent (whose reciprocal is subnormal); the low word is never zero. out[l] is the
  // result's high word plus its low word, which must add nothing.
  std::string body = kSpread +
                     "  mov.u32 %r3, %r2;\n"
                     "  xor.b32 %r4, %r2, -1;\n";
  const std::uint32_t specials[] = {0x00000000u, 0x80000000u, 0x7ff00000u, 0x7ff80001u,
                                    0x00012345u, 0x40000000u, 0x7fe12345u};
  for (unsigned l = 0; l < 7; ++l) {
    body += "  setp.eq.u32 %p1, %r1, " + std::to_string(l) + ";\n  selp.b32 %r3, " +
            std::to_string(specials[l]) + ", %r3, %p1;\n";
  }
  body += R"(  or.b32 %r4, %r4, 1;
  mov.b64 %fd1, {%r4, %r3};
  rcp.approx.ftz.f64 %fd2, %fd1;
  mov.b64 {%r5, %r6}, %fd2;
  add.s32 %r9, %r6, %r5;)";
  const auto out = run_one_warp(body);
  for (unsigned l = 0; l < 32; ++l) {
    CAPTURE(l);
    const std::uint32_t high = l < 7 ? specials[l] : spread(l);
    const std::uint32_t sign = high & 0x80000000u, exponent = (high >> 20) & 0x7ffu;
    if (exponent == 0x7ff && (high & 0xfffffu) != 0) {
      CHECK(out[l] == 0x7fffffffu);  // NaN
    } else if (exponent == 0) {
      CHECK(out[l] == (sign | 0x7ff00000u));  // +-0 and subnormals: +-infinity
    } else if (exponent == 0x7ff) {
      CHECK(out[l] == sign);  // +-infinity: +-0
    } else {
      const double x = std::bit_cast<double>(std::uint64_t{high} << 32);
      const double got = std::bit_cast<double>(std::uint64_t{out[l]} << 32);
      if (std::fabs(1.0 / x) < std::numeric_limits<double>::min()) {
        CHECK(out[l] == sign);  // a subnormal reciprocal, flushed
      } else {
        // Within the 20-bit mantissa the ISA names: under 2^-20 relative to the exact value.
        CHECK(std::fabs(got * x - 1.0) < 0x1p-20);
      }
    }
  }
}

TEST_CASE("half arithmetic rounds once to the 16-bit format; a NaN result is 0x7fff") {
  SUBCASE("add.f16x2: each half rounded to nearest, ties to even") {
    // Low halves: 1 + 2^-10 (0x1400 is 2^-10) is a half, 0x3c01. High halves: 1 + 2^-11 lies
    // half-way between 1.0 and 1 + 2^-10 and goes to the even one, 1.0 (0x3c00).
    const auto out = run_one_warp(R"(
  mov.b32 %r4, 0x3c003c00;
  mov.b32 %r5, 0x10001400;
  add.f16x2 %r9, %r4, %r5;)");
    CHECK(out[0] == 0x3c003c01u);
  }
  SUBCASE("fma.rn.f16: one rounding, into the subnormals") {
    // (1 + 2^-10)^2 - (1 + 2^-9) is exactly 2^-20, a subnormal half: 16 units of 2^-24 (0x0010).
    // Rounding the product first (to 1 + 2^-9) would give 0.
    const auto out = run_one_warp(R"(
  mov.b16 %rs1, 0x3c01;
  mov.b16 %rs2, 0xbc02;
  fma.rn.f16 %rs3, %rs1, %rs1, %rs2;
  cvt.u32.u16 %r9, %rs3;)");
    CHECK(out[0] == 0x0010u);
  }
  SUBCASE("mul.rn.bf16x2 and a NaN") {
    // Low: 1.5 (0x3fc0) * 1.5 = 2.25 (0x4010). High: a NaN with a payload (0x7fc1) times 1.5 is
    // the canonical NaN, 0x7fff.
    const auto out = run_one_warp(R"(
  mov.b32 %r4, 0x7fc13fc0;
  mov.b32 %r5, 0x3fc03fc0;
  mul.rn.bf16x2 %r9, %r4, %r5;)");
    CHECK(out[0] == 0x7fff4010u);
  }
  SUBCASE("neg.f16x2 flips signs; of a NaN it is 0x7fff") {
    const auto out = run_one_warp(R"(
  mov.b32 %r4, 0x7e013c00;
  neg.f16x2 %r9, %r4;)");
    CHECK(out[0] == 0x7fffbc00u);
  }
}

}  // namespace
}  // namespace warpsim::test
