// The .ftz forms of the approximations nvcc's math library uses (expf's ex2.approx.ftz, double
// pow's lg2.approx.ftz): the IR's approximation with the flush to zero written out around it.
#include "sim/import/entry_translator.hpp"
#include "sim/import/ir_build.hpp"

namespace warpsim::ptx {

bool EntryTranslator::flushed_exp2(const OpcodeParts& parts) {
  using ir::Opcode;
  // nvcc's expf: ex2.approx.ftz. A subnormal input changes nothing (2^x rounds to 1.0 either
  // way); a subnormal result (2^x is never negative) is flushed to +0.
  refuse_modifiers(parts, {"approx", "ftz"});
  expect_operands(2);
  const ir::ValueOperand a = value(operand(1), ir::ScalarType::F32);
  const std::string power = fresh_temp(), tiny = fresh_temp();
  const ir::ValueOperand smallest_normal{ir::FloatLiteral{0x1p-126}, {}};
  emit(Opcode::Ex2Approx, ir::ScalarType::F32, {power}, {op(a)});
  emit(Opcode::Lt, ir::ScalarType::F32, {tiny}, {op(reg(power)), op(smallest_normal)});
  const Dest d = dest(operand(0), ir::ScalarType::F32);
  emit(Opcode::Select, ir::ScalarType::F32, {d.name},
       {op(reg(tiny)), op({ir::FloatLiteral{0.0}, {}}), op(reg(power))});
  finish(d);
  return true;
}

bool EntryTranslator::flushed_log2(const OpcodeParts& parts) {
  using ir::Opcode;
  // lg2.approx.ftz (in nvcc's double pow): a subnormal input counts as a zero of its sign, whose
  // logarithm is -inf; no result is subnormal (|log2 x| >= 2^-24 wherever it is not 0).
  refuse_modifiers(parts, {"approx", "ftz"});
  expect_operands(2);
  const ir::ValueOperand a = value(operand(1), ir::ScalarType::F32);
  const std::string magnitude = fresh_temp(), tiny = fresh_temp(), flushed = fresh_temp();
  const ir::ValueOperand smallest_normal{ir::FloatLiteral{0x1p-126}, {}};
  emit(Opcode::Abs, ir::ScalarType::F32, {magnitude}, {op(a)});
  emit(Opcode::Lt, ir::ScalarType::F32, {tiny}, {op(reg(magnitude)), op(smallest_normal)});
  emit(Opcode::Select, ir::ScalarType::F32, {flushed},
       {op(reg(tiny)), op({ir::FloatLiteral{0.0}, {}}), op(a)});
  const Dest d = dest(operand(0), ir::ScalarType::F32);
  emit(Opcode::Lg2Approx, ir::ScalarType::F32, {d.name}, {op(reg(flushed))});
  finish(d);
  return true;
}

}  // namespace warpsim::ptx
