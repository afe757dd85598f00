// Arithmetic on 16-bit floats (.f16, .bf16) and on pairs of them in one 32-bit register
// (.f16x2, .bf16x2), as CUDA's __hadd, __hmul2, __hfma2, __hneg, __habs, __hmin and their
// bfloat16 forms compile. The IR has no 16-bit float type: each half is widened to f64
// (exactly), the operation done there, and the result rounded once to the 16-bit format, which
// is the correctly rounded result the PTX ISA defines. An f64 holds any sum, difference or
// product of two halves exactly; for fma the one rounding in f64 can only move a result whose
// product lies more than 32 bits below the sum, too far below any rounding midpoint of the
// 16-bit format to change which way it rounds. Negation and absolute value are on the sign bits.
#include <set>

#include "sim/import/entry_translator.hpp"
#include "sim/import/ir_build.hpp"

namespace warpsim::ptx {

namespace {

// The 16-bit format of a type name (f16, bf16, f16x2, bf16x2), and whether it is a pair.
std::optional<ir::HalfFormat> half_format(const std::string& name, bool& pair) {
  pair = name.ends_with("x2");
  return ir::parse_half_format(pair ? name.substr(0, name.size() - 2) : name);
}

}  // namespace

bool EntryTranslator::half_arithmetic(const OpcodeParts& parts) {
  static const std::set<std::string, std::less<>> kForms = {"add", "sub", "mul", "fma",
                                                            "neg", "abs", "min", "max"};
  if (parts.mods.empty() || !kForms.contains(parts.base)) return false;
  bool pair = false;
  const auto format = half_format(parts.mods.back(), pair);
  if (!format) return false;
  // .rn is the only rounding of these forms; .ftz, .sat, .relu, .NaN and .xorsign change the
  // result and are refused by name.
  refuse_modifiers(parts, {"rn"});
  const std::string& b = parts.base;
  const std::size_t sources = b == "fma" ? 3 : (b == "neg" || b == "abs") ? 1 : 2;
  expect_operands(1 + sources);
  std::vector<ir::ValueOperand> words;
  for (std::size_t k = 0; k < sources; ++k)
    words.push_back(value(operand(1 + k), ir::ScalarType::U32));
  std::string results[2];
  for (unsigned half = 0; half < (pair ? 2u : 1u); ++half) {
    // The half's 16 bits, at the bottom of a word.
    std::vector<std::string> bits;
    for (const ir::ValueOperand& w : words) {
      bits.push_back(fresh_temp());
      if (half == 0) {
        emit(ir::Opcode::And, ir::ScalarType::U32, {bits.back()}, {op(w), op(number(0xffff))});
      } else {
        emit(ir::Opcode::Shr, ir::ScalarType::U32, {bits.back()}, {op(w), op(number(16))});
      }
    }
    results[half] = fresh_temp();
    // A NaN result is the canonical one, 0x7fff, in both formats (as the GPU's HADD2, HMUL2,
    // HFMA2 and HMNMX2 give it, and ptxas's negations and absolute values, which are HADD2s).
    const std::string value = fresh_temp(), is_nan = fresh_temp();
    if (b == "neg" || b == "abs") {
      const std::string magnitude = fresh_temp();
      emit(ir::Opcode::And, ir::ScalarType::U32, {magnitude},
           {op(reg(bits[0])), op(number(0x7fff))});
      const std::uint64_t infinity = *format == ir::HalfFormat::F16 ? 0x7c00 : 0x7f80;
      emit(ir::Opcode::Gt, ir::ScalarType::U32, {is_nan},
           {op(reg(magnitude)), op(number(infinity))});
      emit(b == "neg" ? ir::Opcode::Xor : ir::Opcode::And, ir::ScalarType::U32, {value},
           {op(reg(bits[0])), op(number(b == "neg" ? 0x8000 : 0x7fff))});
      emit(ir::Opcode::Select, ir::ScalarType::U32, {results[half]},
           {op(reg(is_nan)), op(number(0x7fff)), op(reg(value))});
      continue;
    }
    std::vector<ir::Operand> wide;
    wide.reserve(bits.size());
    for (const std::string& x : bits) wide.push_back(op(reg(half_to_f64(reg(x), 0, *format))));
    static const std::map<std::string, ir::Opcode, std::less<>> kOpcodes = {
        {"add", ir::Opcode::Add}, {"sub", ir::Opcode::Sub}, {"mul", ir::Opcode::Mul},
        {"fma", ir::Opcode::Fma}, {"min", ir::Opcode::Min}, {"max", ir::Opcode::Max}};
    const std::string exact = fresh_temp();
    emit(kOpcodes.at(b), ir::ScalarType::F64, {exact}, std::move(wide));
    ir::Instruction& c = emit(ir::Opcode::Cvt, ir::ScalarType::U32, {value}, {op(reg(exact))});
    c.source_type = ir::ScalarType::F64;
    c.half = *format;
    c.rounding = ir::Rounding::Nearest;
    // The IR's ne is true where a side is NaN.
    emit(ir::Opcode::Ne, ir::ScalarType::F64, {is_nan}, {op(reg(exact)), op(reg(exact))});
    emit(ir::Opcode::Select, ir::ScalarType::U32, {results[half]},
         {op(reg(is_nan)), op(number(0x7fff)), op(reg(value))});
  }
  write_halves(results, pair);
  return true;
}

void EntryTranslator::write_halves(const std::string (&results)[2], bool pair) {
  const Dest d = dest(operand(0), ir::ScalarType::U32);
  if (pair) {
    const std::string high = fresh_temp();
    emit(ir::Opcode::Shl, ir::ScalarType::U32, {high}, {op(reg(results[1])), op(number(16))});
    emit(ir::Opcode::Or, ir::ScalarType::U32, {d.name}, {op(reg(high)), op(reg(results[0]))});
  } else {
    emit(ir::Opcode::Mov, ir::ScalarType::U32, {d.name}, {op(reg(results[0]))});
  }
  finish(d);
}

std::string EntryTranslator::half_to_f64(const ir::ValueOperand& word, unsigned half,
                                         ir::HalfFormat format) {
  const std::string bits = fresh_temp();
  if (half == 0) {
    emit(ir::Opcode::And, ir::ScalarType::U32, {bits}, {op(word), op(number(0xffff))});
  } else {
    emit(ir::Opcode::Shr, ir::ScalarType::U32, {bits}, {op(word), op(number(16))});
  }
  std::string wide = fresh_temp();
  ir::Instruction& c = emit(ir::Opcode::Cvt, ir::ScalarType::F64, {wide}, {op(reg(bits))});
  c.source_type = ir::ScalarType::U32;
  c.half = format;
  return wide;
}

// set.CMP.dtype.stype d, a, b with stype a 16-bit float or a pair of them: per half, the
// comparison (PTX's ordered and unordered forms, on the halves widened exactly), true being
// all ones in an integer dtype (0xffff per half of a pair) and 1.0 in a float one.
bool EntryTranslator::half_set(const OpcodeParts& parts) {
  if (parts.base != "set" || parts.mods.size() != 3) return false;
  bool pair = false;
  const auto format = half_format(parts.mods[2], pair);
  if (!format) return false;
  const std::string& dtype = parts.mods[1];
  bool dest_pair = false;
  const auto dest_format = half_format(dtype, dest_pair);
  const bool integer =
      dtype == "u32" || dtype == "s32" || (!pair && (dtype == "u16" || dtype == "s16"));
  if (!integer && (!dest_format || dest_pair != pair)) {
    throw Unsupported{"'" + current_->opcode + "' is not imported"};
  }
  const std::uint64_t one = integer ? (pair || dtype.ends_with("16") ? 0xffff : 0xffffffff)
                            : *dest_format == ir::HalfFormat::F16 ? 0x3c00
                                                                  : 0x3f80;
  expect_operands(3);
  const ir::ValueOperand a = value(operand(1), ir::ScalarType::U32);
  const ir::ValueOperand b = value(operand(2), ir::ScalarType::U32);
  std::string results[2];
  for (unsigned half = 0; half < (pair ? 2u : 1u); ++half) {
    const std::string x = half_to_f64(a, half, *format), y = half_to_f64(b, half, *format);
    const std::string holds = float_compare(parts.mods[0], ir::ScalarType::F64, reg(x), reg(y));
    results[half] = fresh_temp();
    emit(ir::Opcode::Select, ir::ScalarType::U32, {results[half]},
         {op(reg(holds)), op(number(one)), op(number(0))});
  }
  write_halves(results, pair);
  return true;
}

// A 64-bit integer as an f64, its magnitude rounded to odd at 53 bits (half_integer_conversion).
std::string EntryTranslator::widen_to_odd(const ir::ValueOperand& v, bool is_signed) {
  using ir::Opcode;
  using ir::ScalarType;
  const ScalarType u = ScalarType::U64, f = ScalarType::F64;
  ir::ValueOperand magnitude = v;
  std::string negative;
  if (is_signed) {
    negative = fresh_temp();
    const std::string m = fresh_temp();
    emit(Opcode::Lt, ScalarType::S64, {negative}, {op(v), op(number(0))});
    emit(Opcode::Abs, ScalarType::S64, {m}, {op(v)});  // -2^63 stays 2^63's bits
    magnitude = reg(m);
  }
  const std::string big = fresh_temp(), kept = fresh_temp(), below = fresh_temp(),
                    inexact = fresh_temp(), sticky = fresh_temp(), odd = fresh_temp(),
                    odd_value = fresh_temp(), scaled = fresh_temp(), exact = fresh_temp();
  std::string widened = fresh_temp();
  emit(Opcode::Ge, u, {big}, {op(magnitude), op(number(std::uint64_t{1} << 53))});
  emit(Opcode::Shr, u, {kept}, {op(magnitude), op(number(11))});
  emit(Opcode::And, u, {below}, {op(magnitude), op(number(0x7ff))});
  emit(Opcode::Ne, u, {inexact}, {op(reg(below)), op(number(0))});
  emit(Opcode::Select, u, {sticky}, {op(reg(inexact)), op(number(1)), op(number(0))});
  emit(Opcode::Or, u, {odd}, {op(reg(kept)), op(reg(sticky))});
  emit(Opcode::Cvt, f, {odd_value}, {op(reg(odd))}).source_type = u;
  emit(Opcode::Mul, f, {scaled}, {op(reg(odd_value)), op({ir::FloatLiteral{2048.0}, {}})});
  emit(Opcode::Cvt, f, {exact}, {op(magnitude)}).source_type = u;
  emit(Opcode::Select, f, {widened}, {op(reg(big)), op(reg(scaled)), op(reg(exact))});
  if (!is_signed) return widened;
  const std::string flipped = fresh_temp();
  std::string result = fresh_temp();
  emit(Opcode::Neg, f, {flipped}, {op(reg(widened))});
  emit(Opcode::Select, f, {result}, {op(reg(negative)), op(reg(flipped)), op(reg(widened))});
  return result;
}

// Between a 16-bit float and an integer, through a wider float, each step exact or rounding
// once. Half to integer (cvt.rni.s32.f16, CUDA's __half2int_rn, ...): the half widened to f32
// exactly, rounded to an integral value as the modifier says, converted as a float to that
// integer is (saturating; NaN to 0), a 16- or 8-bit destination clamped to its range.
// Integer to half (cvt.rn.f16.s32, __int2half_rn, ...): the integer widened to f64, exactly,
// then rounded once to the half. A 64-bit magnitude of 2^53 or more keeps its top 53 bits, the
// lowest of them set if any bit below was (rounding to odd): exact in f64, and rounding that to
// the 8 or 11 bits of a half, in any mode, gives what rounding the integer would (the kept
// bits are more than two beyond the half's).
bool EntryTranslator::half_integer_conversion(const OpcodeParts& parts) {
  using ir::Opcode;
  using ir::ScalarType;
  const std::string& dname = parts.mods[parts.mods.size() - 2];
  const std::string& sname = parts.mods.back();
  const auto to_half = ir::parse_half_format(dname);
  const std::string& int_name = to_half ? sname : dname;
  bool is_signed = false;
  const unsigned narrow = narrow_width(int_name, &is_signed);
  const ScalarType wide =
      narrow != 0 ? (is_signed ? ScalarType::S32 : ScalarType::U32) : *ir_type_of("." + int_name);
  const std::size_t modifiers = parts.mods.size() - 2;
  const std::string rounding = modifiers >= 1 ? parts.mods[0] : "";
  expect_operands(2);
  if (to_half) {
    const auto r = modifiers == 1 ? ir::parse_rounding(rounding) : std::nullopt;
    if (!r) {
      throw Unsupported{"'" + current_->opcode +
                        "' is not imported (to a 16-bit float: one of .rn, .rz, .rm, .rp and "
                        "nothing else)"};
    }
    ir::ValueOperand v = value(operand(1), narrow != 0 ? ScalarType::U32 : wide);
    if (narrow != 0) v = extend(v, narrow, is_signed);
    std::string widened = fresh_temp();
    if (ir::size_bytes(wide) == 8) {
      widened = widen_to_odd(v, wide == ScalarType::S64);
    } else {
      emit(Opcode::Cvt, ScalarType::F64, {widened}, {op(v)}).source_type = wide;
    }
    const Dest d = dest(operand(0), ScalarType::U32);
    ir::Instruction& c = emit(Opcode::Cvt, ScalarType::U32, {d.name}, {op(reg(widened))});
    c.source_type = ScalarType::F64;
    c.half = *to_half;
    c.rounding = *r;
    finish(d);
    return true;
  }
  // .sat is what a float-to-integer conversion does anyway.
  const bool known =
      rounding == "rni" || rounding == "rzi" || rounding == "rmi" || rounding == "rpi";
  if (!known || modifiers > 2 || (modifiers == 2 && parts.mods[1] != "sat")) {
    throw Unsupported{"'" + current_->opcode +
                      "' is not imported (from a 16-bit float to an integer: one of .rni, .rzi, "
                      ".rmi, .rpi, and .sat)"};
  }
  const std::string widened = fresh_temp();
  ir::Instruction& w =
      emit(Opcode::Cvt, ScalarType::F32, {widened}, {op(value(operand(1), ScalarType::U32))});
  w.source_type = ScalarType::U32;
  w.half = *ir::parse_half_format(sname);
  const std::string integral =
      rounding == "rzi" ? widened : round_to_integral(reg(widened), ScalarType::F32, rounding);
  if (narrow == 0) {
    const Dest d = dest(operand(0), wide);
    emit(Opcode::Cvt, wide, {d.name}, {op(reg(integral))}).source_type = ScalarType::F32;
    finish(d);
    return true;
  }
  // To 8 or 16 bits: converted to 32 (saturating there), clamped to the narrow range, masked.
  const std::string whole = fresh_temp(), low = fresh_temp(), clamped = fresh_temp();
  emit(Opcode::Cvt, wide, {whole}, {op(reg(integral))}).source_type = ScalarType::F32;
  const std::int64_t top = (std::int64_t{1} << (is_signed ? narrow - 1 : narrow)) - 1;
  const std::int64_t bottom = is_signed ? -top - 1 : 0;
  auto literal = [](std::int64_t v) {
    return ir::ValueOperand{ir::IntLiteral{static_cast<std::uint64_t>(v < 0 ? -v : v), v < 0}, {}};
  };
  emit(Opcode::Min, wide, {low}, {op(reg(whole)), op(literal(top))});
  emit(Opcode::Max, wide, {clamped}, {op(reg(low)), op(literal(bottom))});
  const Dest d = dest(operand(0), ScalarType::U32);
  emit(Opcode::And, ScalarType::U32, {d.name},
       {op(reg(clamped)), op(number((std::uint64_t{1} << narrow) - 1))});
  finish(d);
  return true;
}

}  // namespace warpsim::ptx
