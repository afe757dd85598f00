// lop3 (any function of three words, by its truth table: CUDA's SIMD compare intrinsics and
// hand-written PTX) and the integer dot products dp4a and dp2a (CUDA's __dp4a and __dp2a_lo/hi,
// the core of 8-bit quantised kernels), built from IR arithmetic as the PTX ISA defines them.
#include "sim/import/entry_translator.hpp"
#include "sim/import/ir_build.hpp"

namespace warpsim::ptx {

// lop3.b32 d, a, b, c, lut: bit i of d is bit (a_i << 2 | b_i << 1 | c_i) of lut (the ISA's
// table: a = 0xF0, b = 0xCC, c = 0xAA). The IR ORs together, for each set bit m of the table,
// the minterm of a, b and c (or their complements) that m names.
void EntryTranslator::three_input_logic(const OpcodeParts& parts) {
  using ir::Opcode;
  using ir::ScalarType;
  refuse_modifiers(parts, {});
  expect_operands(5);
  const auto lut = known_constant(operand(4));
  if (!lut) throw Unsupported{"'" + current_->opcode + "' with a table computed at run time"};
  const ir::ValueOperand inputs[3] = {value(operand(1), ScalarType::U32),
                                      value(operand(2), ScalarType::U32),
                                      value(operand(3), ScalarType::U32)};
  std::string inverted[3];
  for (int k = 0; k < 3; ++k) {
    inverted[k] = fresh_temp();
    emit(Opcode::Not, ScalarType::U32, {inverted[k]}, {op(inputs[k])});
  }
  const Dest d = dest(operand(0), ScalarType::U32);
  std::string sum;
  for (unsigned m = 0; m < 8; ++m) {
    if (((*lut >> m) & 1u) == 0) continue;
    // Minterm m: a if bit 2 of m is set, else ~a; b by bit 1; c by bit 0.
    auto factor = [&](int k) { return ((m >> (2 - k)) & 1u) != 0 ? inputs[k] : reg(inverted[k]); };
    const std::string ab = fresh_temp(), term = fresh_temp();
    emit(Opcode::And, ScalarType::U32, {ab}, {op(factor(0)), op(factor(1))});
    emit(Opcode::And, ScalarType::U32, {term}, {op(reg(ab)), op(factor(2))});
    if (sum.empty()) {
      sum = term;
    } else {
      const std::string next = fresh_temp();
      emit(Opcode::Or, ScalarType::U32, {next}, {op(reg(sum)), op(reg(term))});
      sum = next;
    }
  }
  if (sum.empty()) {
    emit(Opcode::Mov, ScalarType::U32, {d.name}, {op(number(0))});
  } else {
    emit(Opcode::Mov, ScalarType::U32, {d.name}, {op(reg(sum))});
  }
  finish(d);
}

namespace {

bool signed_type(const std::string& t) {
  return t == "s32";
}

}  // namespace

// Field `index` (of `bits` bits) of `word`, extended by its signedness into a 32-bit value:
// shifted to the top, then back down (arithmetically when signed).
ir::ValueOperand EntryTranslator::packed_field(const ir::ValueOperand& word, unsigned bits,
                                               unsigned index, bool is_signed) {
  using ir::Opcode;
  const ir::ScalarType t = is_signed ? ir::ScalarType::S32 : ir::ScalarType::U32;
  const std::string top = fresh_temp(), field = fresh_temp();
  emit(Opcode::Shl, t, {top}, {op(word), op(number(32 - bits * (index + 1)))});
  emit(Opcode::Shr, t, {field}, {op(reg(top)), op(number(32 - bits))});
  return reg(field);
}

// dp4a.atype.btype d, a, b, c: c plus the four products of a's and b's bytes, each byte signed
// or unsigned by its operand's type; dp2a.mode.atype.btype: c plus a's two 16-bit halves times
// b's bytes 0 and 1 (.lo) or 2 and 3 (.hi). All in 32 bits, wrapping (PTX ISA).
void EntryTranslator::dot_product(const OpcodeParts& parts, bool four_bytes) {
  using ir::Opcode;
  using ir::ScalarType;
  if (parts.mods.size() != (four_bytes ? 2u : 3u)) {
    throw Unsupported{"'" + current_->opcode + "' is not imported"};
  }
  const std::string& a_type = parts.mods[parts.mods.size() - 2];
  const std::string& b_type = parts.mods.back();
  const bool high = !four_bytes && parts.mods[0] == "hi";
  if ((!four_bytes && parts.mods[0] != "lo" && !high) || (a_type != "s32" && a_type != "u32") ||
      (b_type != "s32" && b_type != "u32")) {
    throw Unsupported{"'" + current_->opcode + "' is not imported"};
  }
  expect_operands(4);
  const bool result_signed = signed_type(a_type) || signed_type(b_type);
  const ScalarType t = result_signed ? ScalarType::S32 : ScalarType::U32;
  const ir::ValueOperand a = value(operand(1), ScalarType::U32);
  const ir::ValueOperand b = value(operand(2), ScalarType::U32);
  std::string sum = fresh_temp();
  emit(Opcode::Mov, ScalarType::U32, {sum}, {op(value(operand(3), ScalarType::U32))});
  const unsigned terms = four_bytes ? 4 : 2;
  for (unsigned i = 0; i < terms; ++i) {
    const ir::ValueOperand x = packed_field(a, four_bytes ? 8 : 16, i, signed_type(a_type));
    const ir::ValueOperand y = packed_field(b, 8, high ? i + 2 : i, signed_type(b_type));
    const std::string next = fresh_temp();
    emit(Opcode::Mad, ScalarType::U32, {next}, {op(x), op(y), op(reg(sum))});
    sum = next;
  }
  const Dest d = dest(operand(0), t);
  emit(Opcode::Mov, t, {d.name}, {op(reg(sum))});
  finish(d);
}

}  // namespace warpsim::ptx
