// The .ftz forms of the approximations nvcc's math library uses (expf's ex2.approx.ftz, double
// pow's lg2.approx.ftz, coshf's div.approx.ftz, asinf's and acosf's rsqrt.approx.ftz, fast sqrtf's
// sqrt.approx.ftz): the IR's approximation with the flush to zero written out around it.
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

// `x`, or a zero of its sign where x is subnormal (a NaN passes), into `out` (a new temporary
// where empty); its name.
std::string EntryTranslator::flushed(const ir::ValueOperand& x, std::string out) {
  using ir::Opcode;
  const std::string magnitude = fresh_temp(), tiny = fresh_temp(), zero = fresh_temp();
  if (out.empty()) out = fresh_temp();
  const ir::ValueOperand smallest_normal{ir::FloatLiteral{0x1p-126}, {}};
  emit(Opcode::Abs, ir::ScalarType::F32, {magnitude}, {op(x)});
  emit(Opcode::Lt, ir::ScalarType::F32, {tiny}, {op(reg(magnitude)), op(smallest_normal)});
  // x * 0 is a zero of x's sign for a finite x.
  emit(Opcode::Mul, ir::ScalarType::F32, {zero}, {op(x), op({ir::FloatLiteral{0.0}, {}})});
  emit(Opcode::Select, ir::ScalarType::F32, {out}, {op(reg(tiny)), op(reg(zero)), op(x)});
  return out;
}

bool EntryTranslator::flushed_unit_function(const OpcodeParts& parts, ir::Opcode function) {
  // rsqrt.approx.ftz.f32 and sqrt.approx.ftz.f32 are the unit's RSQ and SQRT alone (ptxas's
  // code for asinf and acosf, and for sqrtf under -use_fast_math): a subnormal input is a zero of
  // its sign, whose reciprocal square root is an infinity of that sign and whose square root is
  // itself; the IR's rsqrt.approx and sqrt.approx give those for a zero, and the unit's result
  // for a normal input, which is never subnormal.
  refuse_modifiers(parts, {"approx", "ftz"});
  expect_operands(2);
  const ir::ValueOperand a = value(operand(1), ir::ScalarType::F32);
  const std::string input = flushed(a);
  const Dest d = dest(operand(0), ir::ScalarType::F32);
  emit(function, ir::ScalarType::F32, {d.name}, {op(reg(input))});
  finish(d);
  return true;
}

bool EntryTranslator::flushed_divide(const OpcodeParts& parts) {
  // div.approx.ftz.f32 a, b (coshf's): MUFU.RCP of b, then FMUL.FTZ by a, with no scaling of a
  // small divisor as the non-.ftz form has: the unit's reciprocal (the IR's rcp.approx,
  // subnormals flushed), times a flushed, the product flushed.
  refuse_modifiers(parts, {"approx", "ftz"});
  expect_operands(3);
  const ir::ValueOperand a = value(operand(1), ir::ScalarType::F32);
  const ir::ValueOperand b = value(operand(2), ir::ScalarType::F32);
  const std::string reciprocal = fresh_temp(), product = fresh_temp();
  emit(ir::Opcode::RcpApprox, ir::ScalarType::F32, {reciprocal}, {op(b)});
  const std::string dividend = flushed(a);
  emit(ir::Opcode::Mul, ir::ScalarType::F32, {product}, {op(reg(reciprocal)), op(reg(dividend))});
  const Dest d = dest(operand(0), ir::ScalarType::F32);
  flushed(reg(product), d.name);
  finish(d);
  return true;
}

}  // namespace warpsim::ptx
