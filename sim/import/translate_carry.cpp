// PTX's carry chains, in the extended-precision arithmetic of libdevice's argument reductions
// (double sin, cos and tan past 2^31): add.cc, addc, sub.cc, subc, mad.lo.cc, mad.hi.cc and
// madc.lo/.hi, with or without .cc, on 32-bit integers. The carry flag (PTX's CC.CF) is an IR
// register of its own holding 0 or 1. Each sum is formed exactly in 64 bits: its low word is
// the result and its bit 32 the carry out. A subtraction's carry out is its borrow (1 where
// it wrapped below zero, when every bit from 32 up is set), which subc subtracts.
#include "sim/import/entry_translator.hpp"
#include "sim/import/ir_build.hpp"

namespace warpsim::ptx {
namespace {

const std::string kCarry = "_carry_flag";  // an IR name no PTX register turns into

}  // namespace

bool EntryTranslator::carry_chain(const OpcodeParts& parts) {
  using ir::Opcode;
  using ir::ScalarType;
  const std::string& b = parts.base;
  const bool uses = b == "addc" || b == "subc" || b == "madc";
  const bool sets = parts.has("cc");
  if (!uses && !(sets && (b == "add" || b == "sub" || b == "mad"))) return false;
  const ScalarType t = parts.type();
  if (!ir::is_int(t) || ir::size_bytes(t) != 4 || parts.narrow() != 0) {
    throw Unsupported{"'" + current_->opcode +
                      "': carry chains on other than 32-bit integers are not imported"};
  }
  const bool multiply = b == "mad" || b == "madc";
  if (multiply) {
    refuse_modifiers(parts, {"lo", "hi", "cc"});
    if (parts.has("lo") == parts.has("hi")) throw Unsupported{"a mad with .cc needs .lo or .hi"};
  } else {
    refuse_modifiers(parts, {"cc"});
  }
  expect_operands(multiply ? 4 : 3);
  auto widened = [&](const ir::ValueOperand& v) {
    const std::string w = fresh_temp();
    emit(Opcode::Cvt, ScalarType::U64, {w}, {op(v)}).source_type = ScalarType::U32;
    return reg(w);
  };
  const ir::ValueOperand a = value(operand(1), t);
  const ir::ValueOperand second = value(operand(2), t);
  ir::ValueOperand x = a, y = second;
  if (multiply) {
    // The product's low or high word (signed for .s32), then the addend.
    const std::string product = fresh_temp();
    emit(parts.has("hi") ? Opcode::MulHi : Opcode::Mul, t, {product}, {op(a), op(second)});
    x = reg(product);
    y = value(operand(3), t);
  }
  const bool subtract = b == "sub" || b == "subc";
  const Opcode combine = subtract ? Opcode::Sub : Opcode::Add;
  std::string sum = fresh_temp();
  emit(combine, ScalarType::U64, {sum}, {op(widened(x)), op(widened(y))});
  if (uses) {
    const std::string with_carry = fresh_temp();
    emit(combine, ScalarType::U64, {with_carry}, {op(reg(sum)), op(widened(reg(kCarry)))});
    sum = with_carry;
  }
  const Dest d = dest(operand(0), ScalarType::U32);
  emit(Opcode::Cvt, ScalarType::U32, {d.name}, {op(reg(sum))}).source_type = ScalarType::U64;
  if (sets) {
    const std::string high = fresh_temp(), bit = fresh_temp();
    emit(Opcode::Shr, ScalarType::U64, {high}, {op(reg(sum)), op(number(32))});
    emit(Opcode::And, ScalarType::U64, {bit}, {op(reg(high)), op(number(1))});
    emit(Opcode::Cvt, ScalarType::U32, {kCarry}, {op(reg(bit))}).source_type = ScalarType::U64;
  }
  finish(d);
  return true;
}

}  // namespace warpsim::ptx
