// Hopper's 8-bit floats (CUDA's __nv_fp8_e4m3 and __nv_fp8_e5m2, PTX cvt ... .e4m3x2/.e5m2x2):
//   F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C d, a, b, c  two f32 to two fp8 bytes, a's high;
//   F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C d, a, c     a's two halves to two bytes, low first;
//   F2FP.F16.E4M3.UNPACK_B d, a                          the two bytes in a's low 16 bits to
//   halves.
// (E5M2 alike.) Narrowing rounds to nearest, ties to even, and saturates as PTX's .satfinite says:
// beyond the largest finite value, infinities included, the result is that value; a NaN gives
// the format's NaN, 0x7f. The bytes fill d's low 16 bits; MERGE_C with other than RZ (c's bits
// kept above them) is refused rather than guessed. Widening is exact; an fp8 NaN gives the
// canonical half NaN.
#include <cmath>

#include "sim/core/exec/gpu_nan.hpp"
#include "sim/core/exec/half_float.hpp"
#include "sim/sass/sass_lanes.hpp"

namespace warpsim::sass {
namespace {

struct Fp8Format {
  int mantissa_bits, bias;
  double largest;  // the largest finite value
  bool has_infinity;
};
constexpr Fp8Format kE4M3{3, 7, 448.0, false};
constexpr Fp8Format kE5M2{2, 15, 57344.0, true};
constexpr std::uint32_t kFp8Nan = 0x7f;

std::uint32_t narrow(double v, const Fp8Format& f) {
  if (std::isnan(v)) return kFp8Nan;
  const std::uint32_t sign = std::signbit(v) ? 0x80u : 0u;
  double a = std::fabs(v);
  const int min_exponent = 1 - f.bias;  // of the normal numbers
  if (a != 0.0 && std::isfinite(a)) {
    const int e = std::max(std::ilogb(a), min_exponent);
    const double quantum = std::ldexp(1.0, e - f.mantissa_bits);
    a = std::nearbyint(a / quantum) * quantum;  // the host rounds to nearest even
  }
  a = std::min(a, f.largest);
  if (a == 0.0) return sign;
  const int e = std::ilogb(a);
  if (e < min_exponent) {  // subnormal: the mantissa alone
    return sign | static_cast<std::uint32_t>(std::ldexp(a, f.mantissa_bits - min_exponent));
  }
  const auto mantissa =
      static_cast<std::uint32_t>(std::ldexp(a, f.mantissa_bits - e)) - (1u << f.mantissa_bits);
  return sign | static_cast<std::uint32_t>(e + f.bias) << f.mantissa_bits | mantissa;
}

double widen(std::uint32_t byte, const Fp8Format& f) {
  const bool negative = (byte & 0x80u) != 0;
  const std::uint32_t exponent = (byte & 0x7fu) >> f.mantissa_bits;
  const std::uint32_t mantissa = byte & ((1u << f.mantissa_bits) - 1);
  const std::uint32_t top = (0x7fu >> f.mantissa_bits);
  double v = 0.0;
  if (exponent == top && (f.has_infinity || mantissa == (1u << f.mantissa_bits) - 1)) {
    v = f.has_infinity && mantissa == 0 ? INFINITY : NAN;
  } else if (exponent == 0) {
    v = std::ldexp(static_cast<double>(mantissa), 1 - f.bias - f.mantissa_bits);
  } else {
    v = std::ldexp(static_cast<double>(mantissa + (1u << f.mantissa_bits)),
                   static_cast<int>(exponent) - f.bias - f.mantissa_bits);
  }
  return negative ? -v : v;
}

}  // namespace

void convert_fp8(const Lanes& x) {
  const Modifiers& m = x.inst.mods;
  const Fp8Format& f = (m.sub & kFp8E5M2) != 0 ? kE5M2 : kE4M3;
  const bool unpack = (m.sub & kFp8Unpack) != 0;
  if ((m.sub & kFp8Merge) == 0) {  // widening: F2FP.F16.E4M3.UNPACK_B d, a
    if (!unpack || m.dest != DataType::F16)
      x.fault(0, "F2FP from fp8 other than .F16 ... .UNPACK_B is not modelled");
    x.each([&](unsigned lane) {
      const std::uint32_t a = x.u32(x.op(1), lane);
      std::uint32_t out = 0;
      for (unsigned k = 0; k < 2; ++k) {
        const double v = widen((a >> (8 * k)) & 0xffu, f);
        const std::uint32_t half =
            std::isnan(v) ? exec::kGpuNanHalf
                          : exec::encode_half(v, ir::HalfFormat::F16, ir::Rounding::Nearest);
        out |= half << (16 * k);
      }
      x.set(x.op(0), lane, out);
    });
    return;
  }
  if (!m.saturate) x.fault(0, "F2FP to fp8 without .SATFINITE is not modelled");
  const Operand& merged = x.op(x.count() - 1);
  if (merged.kind != OperandKind::Reg || merged.index != kZeroReg)
    x.fault(0, "F2FP ... _MERGE_C with a register other than RZ is not modelled");
  // The decoder reads the one type as the destination's: here it is the source's.
  if (unpack && m.dest != DataType::F16)
    x.fault(0, "F2FP to fp8 from other than .F16 ... .UNPACK_B_MERGE_C is not modelled");
  if (!unpack && m.dest != DataType::F32)
    x.fault(0, "F2FP to fp8 from other than .F32 ... .PACK_AB_MERGE_C is not modelled");
  x.each([&](unsigned lane) {
    std::uint32_t bytes = 0;
    if (unpack) {
      const std::uint32_t a = x.u32(x.op(1), lane);
      for (unsigned k = 0; k < 2; ++k) {
        const double v =
            exec::decode_half(static_cast<std::uint16_t>(a >> (16 * k)), ir::HalfFormat::F16);
        bytes |= narrow(v, f) << (8 * k);
      }
    } else {
      bytes =
          narrow(double{x.f32(x.op(1), lane)}, f) << 8 | narrow(double{x.f32(x.op(2), lane)}, f);
    }
    x.set(x.op(0), lane, bytes);
  });
}

}  // namespace warpsim::sass
