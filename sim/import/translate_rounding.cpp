// cvt with an integer rounding the IR's cvt does not perform: .rni (to nearest, ties to even),
// .rmi (down), .rpi (up) and, between floats, .rzi (toward zero). CUDA's rintf, floorf, ceilf,
// truncf and __float2int_rn come to these. Each is built from exact IR arithmetic:
//   rni(x) = (x + s) - s with s = copysign(2^23, x) (2^52 for f64), which rounds x to an
//            integer in the float's own round-to-nearest-even addition, for |x| < 2^23; larger
//            |x| and infinities are integral already and pass unchanged; the sign of x is put
//            back so that rint(-0.3) is -0.0 as on the GPU; a NaN becomes the GPU's canonical
//            NaN;
//   rmi(x) = rni(x) - 1 where rni(x) > x;   rpi(x) = rni(x) + 1 where rni(x) < x, with x's
//            sign (ceil(-0.7) = -1 + 1 is -0.0);
//   rzi(x) = rmi(x) for x >= 0, rpi(x) otherwise.
// A float-to-integer cvt rounds so, then converts the integral value (exact; the IR's cvt
// saturates as PTX's does, and takes NaN to 0).
// Also the directed roundings of float add, sub, mul and fma (.rz, .rm, .rp), which the IR
// keeps as a modifier of the instruction.
#include "sim/import/entry_translator.hpp"
#include "sim/import/ir_build.hpp"

namespace warpsim::ptx {
namespace {

// The NaN an H200 writes for cvt.rn?.f64.f64 of a NaN (kernels_cuda/textbook/rounding.cu,
// validated on the GPU); for f32 it is 0x7fffffff.
constexpr std::uint64_t kCanonicalNan64 = 0xfff8000000000000ull;

}  // namespace

std::string EntryTranslator::round_to_integral(const ir::ValueOperand& x, ir::ScalarType t,
                                               const std::string& mode) {
  using ir::Opcode;
  using ir::ScalarType;
  const bool f64 = t == ScalarType::F64;
  const ScalarType bits = f64 ? ScalarType::U64 : ScalarType::U32;
  const std::uint64_t sign_bit = f64 ? std::uint64_t{1} << 63 : std::uint64_t{1} << 31;
  const ir::ValueOperand big{ir::FloatLiteral{f64 ? 4503599627370496.0 : 8388608.0}, {}};
  const ir::ValueOperand one{ir::FloatLiteral{1.0}, {}};
  const ir::ValueOperand zero{ir::FloatLiteral{0.0}, {}};
  // Not const: `nearest` is returned (and moved).
  std::string negative = fresh_temp(), s = fresh_temp(), minus = fresh_temp(), sum = fresh_temp(),
              r = fresh_temp(), magnitude = fresh_temp(), small = fresh_temp(),
              picked = fresh_temp(), xbits = fresh_temp(), sign = fresh_temp(),
              nearest = fresh_temp();
  emit(Opcode::Lt, t, {negative}, {op(x), op(zero)});
  emit(Opcode::Neg, t, {minus}, {op(big)});
  emit(Opcode::Select, t, {s}, {op(reg(negative)), op(reg(minus)), op(big)});
  emit(Opcode::Add, t, {sum}, {op(x), op(reg(s))});
  emit(Opcode::Sub, t, {r}, {op(reg(sum)), op(reg(s))});
  emit(Opcode::Abs, t, {magnitude}, {op(x)});
  emit(Opcode::Lt, t, {small}, {op(reg(magnitude)), op(big)});
  emit(Opcode::Select, t, {picked}, {op(reg(small)), op(reg(r)), op(x)});
  // copysign(picked, x)
  emit(Opcode::Bitcast, bits, {xbits}, {op(x)}).source_type = t;
  emit(Opcode::And, bits, {sign}, {op(reg(xbits)), op(number(sign_bit))});
  const auto with_sign_of_x = [&](const std::string& value) {
    std::string pbits = fresh_temp(), body = fresh_temp(), joined = fresh_temp(),
                out = fresh_temp();
    emit(Opcode::Bitcast, bits, {pbits}, {op(reg(value))}).source_type = t;
    emit(Opcode::And, bits, {body}, {op(reg(pbits)), op(number(sign_bit - 1))});
    emit(Opcode::Or, bits, {joined}, {op(reg(body)), op(reg(sign))});
    emit(Opcode::Bitcast, t, {out}, {op(reg(joined))}).source_type = bits;
    return out;
  };
  const std::string signed_result = with_sign_of_x(picked);
  // A NaN comes out as the GPU's canonical NaN, whatever its payload and sign going in.
  const std::string is_nan = fresh_temp(), canonical = fresh_temp();
  emit(Opcode::Ne, t, {is_nan}, {op(x), op(x)});
  emit(Opcode::Bitcast, t, {canonical}, {op(number(f64 ? kCanonicalNan64 : 0x7fffffffu))})
      .source_type = bits;
  emit(Opcode::Select, t, {nearest}, {op(reg(is_nan)), op(reg(canonical)), op(reg(signed_result))});
  if (mode == "rni") return nearest;
  // A step up from -1 is +0, where the rounding of a negative x is -0 (ceil(-0.7) and
  // trunc(-0.7) are -0.0 in IEEE and on the GPU): the step keeps x's sign. (A step down from
  // +1, for x in (0.5, 1), is +0 already; a NaN never steps.)
  const auto step = [&](bool down) {
    std::string past = fresh_temp(), moved = fresh_temp(), out = fresh_temp();
    emit(down ? Opcode::Gt : Opcode::Lt, t, {past}, {op(reg(nearest)), op(x)});
    emit(down ? Opcode::Sub : Opcode::Add, t, {moved}, {op(reg(nearest)), op(one)});
    const std::string signed_step = down ? moved : with_sign_of_x(moved);
    emit(Opcode::Select, t, {out}, {op(reg(past)), op(reg(signed_step)), op(reg(nearest))});
    return out;
  };
  if (mode == "rmi") return step(true);
  if (mode == "rpi") return step(false);
  std::string down = step(true), up = step(false), out = fresh_temp();
  emit(Opcode::Select, t, {out}, {op(reg(negative)), op(reg(up)), op(reg(down))});
  return out;
}

// The directed rounding a float add, sub, mul or fma names (.rz, .rm, .rp); to nearest otherwise.
ir::Rounding EntryTranslator::float_rounding(const OpcodeParts& parts) {
  for (const char* m : {"rz", "rm", "rp"}) {
    if (parts.has(m)) return *ir::parse_rounding(m);
  }
  return ir::Rounding::Nearest;
}

// A float add, sub, mul or div in its rounding (without one: to nearest, as .rn).
void EntryTranslator::rounded_binary(ir::Opcode code, const OpcodeParts& parts) {
  expect_operands(3);
  const ir::ScalarType t = parts.type();
  const ir::ValueOperand a = value(operand(1), t);
  const ir::ValueOperand b = value(operand(2), t);
  const Dest d = dest(operand(0), t);
  emit(code, t, {d.name}, {op(a), op(b)}).rounding = float_rounding(parts);
  finish(d);
}

}  // namespace warpsim::ptx
