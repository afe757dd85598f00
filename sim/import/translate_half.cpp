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

}  // namespace warpsim::ptx
