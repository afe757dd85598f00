// Arithmetic, logic, comparisons, selects, moves and conversions. The IR's float operations
// round to nearest even and do not flush subnormals, so only those PTX forms are taken; a
// rounding mode, .ftz, .sat or an approximation is refused by name.
#include <algorithm>

#include "sim/import/entry_translator.hpp"
#include "sim/import/ir_build.hpp"

namespace warpsim::ptx {
namespace {

ir::ScalarType wide_of(ir::ScalarType t) {
  return ir::is_signed_int(t) ? ir::ScalarType::S64 : ir::ScalarType::U64;
}
ir::ScalarType unsigned_of(ir::ScalarType t) {
  return ir::size_bytes(t) == 8 ? ir::ScalarType::U64 : ir::ScalarType::U32;
}

}  // namespace

void EntryTranslator::binary(ir::Opcode code, ir::ScalarType t) {
  expect_operands(3);
  const ir::ScalarType second =
      code == ir::Opcode::Shl || code == ir::Opcode::Shr ? ir::ScalarType::U32 : t;
  const ir::ValueOperand a = value(operand(1), t);
  const ir::ValueOperand b = value(operand(2), second);
  const Dest d = dest(operand(0), t);
  emit(code, t, {d.name}, {op(a), op(b)});
  finish(d);
}

void EntryTranslator::unary(ir::Opcode code, ir::ScalarType t) {
  expect_operands(2);
  const ir::ValueOperand a = value(operand(1), t);
  const Dest d = dest(operand(0), t);
  emit(code, t, {d.name}, {op(a)});
  finish(d);
}

// mul.wide / mad.wide: 32-bit operands, a 64-bit product; or 16-bit operands (held extended
// in 32-bit IR registers), whose product a 32-bit multiply gives exactly: |product| <= 2^30 for
// .s16 and < 2^32 for .u16. nvcc divides a 16-bit value by a constant with mul.wide.u16.
void EntryTranslator::widening(const OpcodeParts& parts, bool add) {
  expect_operands(add ? 4 : 3);
  const ir::ScalarType t = parts.type();
  if (parts.narrow() == 16) {
    const ir::ValueOperand a = value(operand(1), t);
    const ir::ValueOperand b = value(operand(2), t);
    narrow_ = 0;  // the addend and the product are 32-bit values, read and written whole
    const Dest d = dest(operand(0), t);
    if (add) {
      const ir::ValueOperand c = value(operand(3), t);
      emit(ir::Opcode::Mad, t, {d.name}, {op(a), op(b), op(c)});
    } else {
      emit(ir::Opcode::Mul, t, {d.name}, {op(a), op(b)});
    }
    finish(d);
    return;
  }
  if (!ir::is_int(t) || ir::size_bytes(t) != 4) {
    throw Unsupported{"'" + current_->opcode + "': only 32-bit operands widen in the IR"};
  }
  const ir::ScalarType wide = wide_of(t);
  auto widened = [&](std::size_t i) {
    // A literal keeps its 32-bit value (-1 in mul.wide.u32 is 0xffffffff, not 2^64 - 1).
    if (std::holds_alternative<Immediate>(operand(i))) return value(operand(i), t);
    const ir::ValueOperand v = value(operand(i), t);
    std::string w = fresh_temp();
    ir::Instruction& c = emit(ir::Opcode::Cvt, wide, {w}, {op(v)});
    c.source_type = t;
    return reg(w);
  };
  const ir::ValueOperand a = widened(1);
  const ir::ValueOperand b = widened(2);
  if (add) {
    const ir::ValueOperand c = value(operand(3), wide);
    const Dest d = dest(operand(0), wide);
    emit(ir::Opcode::Mad, wide, {d.name}, {op(a), op(b), op(c)});
    finish(d);
    return;
  }
  const Dest d = dest(operand(0), wide);
  emit(ir::Opcode::Mul, wide, {d.name}, {op(a), op(b)});
  finish(d);
}

// mul.hi: the IR's mul.hi, the high half of the double-width product, for 32- and 64-bit
// integers (nvcc divides a 64-bit integer by a constant with mul.hi.s64 / .u64). For 16-bit
// operands (held extended in 32-bit IR registers; nvcc divides a short by a constant with
// mul.hi.s16) the 32-bit product is exact (as for mul.wide.s16), and its bits 16-31 are the
// high half: an arithmetic shift for .s16, a logical one for .u16.
void EntryTranslator::multiply_high(const OpcodeParts& parts) {
  expect_operands(3);
  const ir::ScalarType t = parts.type();
  if (!ir::is_int(t)) {
    throw Unsupported{"'" + current_->opcode +
                      "': mul.hi is imported for 16-, 32- and 64-bit integers"};
  }
  const ir::ValueOperand a = value(operand(1), t);
  const ir::ValueOperand b = value(operand(2), t);
  const Dest d = dest(operand(0), t);
  if (parts.narrow() == 16) {
    const std::string product = fresh_temp();
    emit(ir::Opcode::Mul, t, {product}, {op(a), op(b)});
    emit(ir::Opcode::Shr, t, {d.name}, {op(reg(product)), op(number(16))});
  } else {
    emit(ir::Opcode::MulHi, t, {d.name}, {op(a), op(b)});
  }
  finish(d);
}

// ex2.approx.ftz.f32 (nvcc's expf): the IR's ex2.approx, then a subnormal result flushed.
// mul: .wide (widening), .hi, a float's rounding, or the integer low half.
bool EntryTranslator::multiply(const OpcodeParts& parts) {
  using ir::Opcode;
  if (parts.has("wide")) {
    refuse_modifiers(parts, {"wide"});
    widening(parts, false);
  } else if (parts.has("hi")) {
    refuse_modifiers(parts, {"hi"});
    multiply_high(parts);
  } else if (ir::is_float(parts.type())) {
    refuse_modifiers(parts, {"rn", "rz", "rm", "rp"});
    rounded_binary(Opcode::Mul, parts);
  } else {
    refuse_modifiers(parts, {"lo"});
    binary(Opcode::Mul, parts.type());
  }
  return true;
}

// mad / fma: .wide (widening), a float's fused multiply-add in its rounding, the integer low
// half.
bool EntryTranslator::multiply_add(const OpcodeParts& parts) {
  using ir::Opcode;
  if (parts.has("wide")) {
    refuse_modifiers(parts, {"wide"});
    widening(parts, true);
    return true;
  }
  const ir::ScalarType t = parts.type();
  const ir::Rounding rounding = float_rounding(parts);
  if (ir::is_float(t) && rounding == ir::Rounding::Nearest && !parts.has("rn")) {
    throw Unsupported{"'" + current_->opcode +
                      "': a fused multiply-add needs its rounding "
                      "(.rn, .rz, .rm or .rp)"};
  }
  if (ir::is_float(t)) {
    refuse_modifiers(parts, {"rn", "rz", "rm", "rp"});
  } else {
    refuse_modifiers(parts, {"lo"});
  }
  expect_operands(4);
  const ir::ValueOperand x = value(operand(1), t), y = value(operand(2), t),
                         z = value(operand(3), t);
  const Dest d = dest(operand(0), t);
  emit(ir::is_float(t) ? Opcode::Fma : Opcode::Mad, t, {d.name}, {op(x), op(y), op(z)}).rounding =
      rounding;
  finish(d);
  return true;
}

bool EntryTranslator::arithmetic(const OpcodeParts& parts) {
  using ir::Opcode;
  const std::string& b = parts.base;
  static const std::map<std::string, Opcode, std::less<>> kBinary = {
      {"add", Opcode::Add}, {"sub", Opcode::Sub}, {"min", Opcode::Min}, {"max", Opcode::Max},
      {"and", Opcode::And}, {"or", Opcode::Or},   {"xor", Opcode::Xor}, {"shl", Opcode::Shl},
      {"shr", Opcode::Shr}, {"rem", Opcode::Rem}};
  static const std::map<std::string, Opcode, std::less<>> kUnary = {
      {"neg", Opcode::Neg}, {"abs", Opcode::Abs}, {"not", Opcode::Not}};
  if (carry_chain(parts)) return true;
  if (half_arithmetic(parts)) return true;
  if (contracted(parts)) return true;
  if (auto it = kBinary.find(b); it != kBinary.end()) {
    if ((b == "add" || b == "sub") && ir::is_float(parts.type())) {
      refuse_modifiers(parts, {"rn", "rz", "rm", "rp"});
      rounded_binary(it->second, parts);
      return true;
    }
    refuse_modifiers(parts, {"rn"});
    binary(it->second, parts.type());
    return true;
  }
  if (auto it = kUnary.find(b); it != kUnary.end()) {
    refuse_modifiers(parts, {});
    unary(it->second, parts.type());
    return true;
  }
  if (b == "cnot") {
    // cnot d, a: 1 where a is zero, else 0 (C's logical not).
    refuse_modifiers(parts, {});
    expect_operands(2);
    const ir::ScalarType t = parts.type();
    const ir::ValueOperand a = value(operand(1), t);
    const std::string zero = fresh_temp();
    emit(Opcode::Eq, t, {zero}, {op(a), op(number(0))});
    const Dest d = dest(operand(0), t);
    emit(Opcode::Select, t, {d.name}, {op(reg(zero)), op(number(1)), op(number(0))});
    finish(d);
    return true;
  }
  if (b == "popc" || b == "clz" || b == "brev") {
    refuse_modifiers(parts, {});
    const Opcode code = b == "popc" ? Opcode::Popc : b == "clz" ? Opcode::Clz : Opcode::Brev;
    const ir::ScalarType t = parts.type();
    if (code == Opcode::Brev || ir::size_bytes(t) == 4) {
      unary(code, t);
      return true;
    }
    // popc.b64 and clz.b64 count into a 32-bit register.
    expect_operands(2);
    const ir::ValueOperand a = value(operand(1), t);
    const std::string wide = fresh_temp();
    emit(code, t, {wide}, {op(a)});
    const Dest d = dest(operand(0), ir::ScalarType::U32);
    ir::Instruction& c = emit(Opcode::Cvt, ir::ScalarType::U32, {d.name}, {op(reg(wide))});
    c.source_type = t;
    finish(d);
    return true;
  }
  if (bit_operation(parts)) return true;
  if (b == "shf") {
    funnel_shift(parts);
    return true;
  }
  if (b == "rcp" && parts.has("approx") && parts.has("ftz") &&
      (parts.type() == ir::ScalarType::F32 || parts.type() == ir::ScalarType::F64)) {
    refuse_modifiers(parts, {"approx", "ftz"});
    unary(Opcode::RcpApprox, parts.type());
    return true;
  }
  if (b == "sqrt" && parts.has("approx")) {
    // sqrtf under -use_fast_math and hsqrt: the unit's SQRT, subnormal inputs scaled (.ftz: the
    // unit's alone, which flushes them).
    if (parts.type() != ir::ScalarType::F32)
      throw Unsupported{"'" + current_->opcode + "' is not imported (sqrt.approx.f32 is)"};
    if (parts.has("ftz")) return flushed_unit_function(parts, Opcode::SqrtApprox);
    refuse_modifiers(parts, {"approx"});
    unary(Opcode::SqrtApprox, parts.type());
    return true;
  }
  if (b == "sqrt" || b == "rcp") {
    // IEEE, correctly rounded in the rounding named (sqrtf and 1.0f / x compile to .rn,
    // __fsqrt_rz and __frcp_ru to the others); .approx and .ftz are other functions.
    if (!parts.has("rn") && float_rounding(parts) == ir::Rounding::Nearest) {
      throw Unsupported{"'" + current_->opcode + "' is not imported (" + b +
                        ".rn, .rz, .rm and .rp, the IEEE ones, are)"};
    }
    refuse_modifiers(parts, {"rn", "rz", "rm", "rp"});
    expect_operands(2);
    const ir::ScalarType t = parts.type();
    const ir::ValueOperand a = value(operand(1), t);
    const Dest d = dest(operand(0), t);
    emit(b == "sqrt" ? Opcode::Sqrt : Opcode::Rcp, t, {d.name}, {op(a)}).rounding =
        float_rounding(parts);
    finish(d);
    return true;
  }
  static const std::map<std::string, Opcode, std::less<>> kApprox = {{"rsqrt", Opcode::RsqrtApprox},
                                                                     {"ex2", Opcode::Ex2Approx},
                                                                     {"lg2", Opcode::Lg2Approx},
                                                                     {"sin", Opcode::SinApprox},
                                                                     {"cos", Opcode::CosApprox}};
  if (auto it = kApprox.find(b); it != kApprox.end()) {
    // rsqrt.approx.f64 (CUDA's rsqrt of a double) exists too; the others are f32 only.
    const bool f64_too = b == "rsqrt" && parts.type() == ir::ScalarType::F64;
    if (!parts.has("approx") || (parts.type() != ir::ScalarType::F32 && !f64_too)) {
      throw Unsupported{"'" + current_->opcode + "' is not imported (" + b + ".approx.f32 is)"};
    }
    if (b == "ex2" && parts.has("ftz")) return flushed_exp2(parts);
    if (b == "rsqrt" && parts.has("ftz") && parts.type() == ir::ScalarType::F32)
      return flushed_unit_function(parts, Opcode::RsqrtApprox);
    if (b == "lg2" && parts.has("ftz")) return flushed_log2(parts);
    refuse_modifiers(parts, {"approx"});
    unary(it->second, parts.type());
    return true;
  }
  if (b == "mul") return multiply(parts);
  if (b == "mad" || b == "fma") return multiply_add(parts);
  if (b == "div") {
    const ir::ScalarType t = parts.type();
    if (t == ir::ScalarType::F32 && parts.has("approx") && parts.has("ftz"))
      return flushed_divide(parts);
    if (t == ir::ScalarType::F32 && (parts.has("approx") || parts.has("full"))) {
      const bool fast = parts.has("approx");
      refuse_modifiers(parts, {fast ? "approx" : "full"});
      binary(fast ? Opcode::DivApprox : Opcode::DivFull, t);
      return true;
    }
    if (ir::is_float(t)) {
      if (!parts.has("rn") && float_rounding(parts) == ir::Rounding::Nearest) {
        throw Unsupported{"'" + current_->opcode +
                          "': the IR divides floats as div.rn, .rz, .rm or .rp (IEEE, "
                          "correctly rounded), div.approx.f32 or div.full.f32"};
      }
      refuse_modifiers(parts, {"rn", "rz", "rm", "rp"});
      rounded_binary(Opcode::Div, parts);
      return true;
    }
    refuse_modifiers(parts, {});
    binary(Opcode::Div, t);
    return true;
  }
  return false;
}

// shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: the 64-bit value b:a (b the high word) shifted left
// (d its high word) or right (d its low word) by c & 31 (wrap) or min(c, 32) (clamp).
void EntryTranslator::funnel_shift(const OpcodeParts& parts) {
  using ir::Opcode;
  using ir::ScalarType;
  const bool left = parts.has("l"), wrap = parts.has("wrap");
  if (left == parts.has("r") || wrap == parts.has("clamp") || parts.type() != ScalarType::U32) {
    throw Unsupported{"a malformed shf"};
  }
  expect_operands(4);
  auto widened = [&](std::size_t i) {
    const ir::ValueOperand v = value(operand(i), ScalarType::U32);
    std::string w = fresh_temp();
    ir::Instruction& c = emit(Opcode::Cvt, ScalarType::U64, {w}, {op(v)});
    c.source_type = ScalarType::U32;
    return w;
  };
  const std::string low = widened(1), high = widened(2);
  const std::string high_up = fresh_temp(), both = fresh_temp(), n = fresh_temp(),
                    shifted = fresh_temp();
  emit(Opcode::Shl, ScalarType::U64, {high_up},
       {op(reg(high)), op({ir::IntLiteral{32, false}, {}})});
  emit(Opcode::Or, ScalarType::U64, {both}, {op(reg(high_up)), op(reg(low))});
  const ir::ValueOperand amount = value(operand(3), ScalarType::U32);
  emit(wrap ? Opcode::And : Opcode::Min, ScalarType::U32, {n},
       {op(amount), op({ir::IntLiteral{wrap ? 31u : 32u, false}, {}})});
  emit(left ? Opcode::Shl : Opcode::Shr, ScalarType::U64, {shifted}, {op(reg(both)), op(reg(n))});
  std::string word = shifted;
  if (left) {
    word = fresh_temp();
    emit(Opcode::Shr, ScalarType::U64, {word},
         {op(reg(shifted)), op({ir::IntLiteral{32, false}, {}})});
  }
  const Dest d = dest(operand(0), ScalarType::U32);
  ir::Instruction& c = emit(Opcode::Cvt, ScalarType::U32, {d.name}, {op(reg(word))});
  c.source_type = ScalarType::U64;
  finish(d);
}

// Writes cmp(a, b) for a float comparison into a new predicate, with PTX's ordered (eq, ne, lt,
// ...) and unordered (equ, neu, ltu, ...) forms built from the IR's: its eq, lt, le, gt and ge
// are false when either side is NaN, and its ne is true then (C++'s operators).
std::string EntryTranslator::float_compare(const std::string& cmp, ir::ScalarType t,
                                           const ir::ValueOperand& a, const ir::ValueOperand& b) {
  using ir::Opcode;
  auto basic = [&](Opcode code, const ir::ValueOperand& x, const ir::ValueOperand& y) {
    std::string r = fresh_temp();
    emit(code, t, {r}, {op(x), op(y)});
    return r;
  };
  auto logic = [&](Opcode code, const std::string& x, const std::string& y) {
    std::string r = fresh_temp();
    emit(code, ir::ScalarType::Pred, {r}, {op(reg(x)), op(reg(y))});
    return r;
  };
  auto negate = [&](const std::string& x) {
    std::string r = fresh_temp();
    emit(Opcode::Not, ir::ScalarType::Pred, {r}, {op(reg(x))});
    return r;
  };
  static const std::map<std::string, Opcode, std::less<>> kOrdered = {
      {"eq", Opcode::Eq}, {"lt", Opcode::Lt}, {"le", Opcode::Le},
      {"gt", Opcode::Gt}, {"ge", Opcode::Ge}, {"neu", Opcode::Ne}};
  if (auto it = kOrdered.find(cmp); it != kOrdered.end()) return basic(it->second, a, b);
  static const std::map<std::string, Opcode, std::less<>> kUnorderedAsNot = {
      {"ltu", Opcode::Ge}, {"leu", Opcode::Gt}, {"gtu", Opcode::Le}, {"geu", Opcode::Lt}};
  if (auto it = kUnorderedAsNot.find(cmp); it != kUnorderedAsNot.end()) {
    return negate(basic(it->second, a, b));
  }
  if (cmp == "ne" || cmp == "equ") {
    const std::string ne = logic(Opcode::Or, basic(Opcode::Lt, a, b), basic(Opcode::Gt, a, b));
    return cmp == "ne" ? ne : negate(ne);
  }
  if (cmp == "num" || cmp == "nan") {
    const std::string num = logic(Opcode::And, basic(Opcode::Eq, a, a), basic(Opcode::Eq, b, b));
    return cmp == "num" ? num : negate(num);
  }
  throw Unsupported{"the comparison ." + cmp + " is not PTX's"};
}

std::string EntryTranslator::predicate_result(ir::Opcode cmp, ir::ScalarType t,
                                              const ir::ValueOperand& a,
                                              const ir::ValueOperand& b) {
  std::string r = fresh_temp();
  emit(cmp, t, {r}, {op(a), op(b)});
  return r;
}

bool EntryTranslator::compare(const OpcodeParts& parts) {
  using ir::Opcode;
  if (parts.base == "selp") {
    refuse_modifiers(parts, {});
    expect_operands(4);
    const ir::ScalarType t = parts.type();
    const ir::ValueOperand a = value(operand(1), t), b = value(operand(2), t),
                           c = value(operand(3), ir::ScalarType::Pred);
    const Dest d = dest(operand(0), t);
    emit(Opcode::Select, t, {d.name}, {op(c), op(a), op(b)});
    finish(d);
    return true;
  }
  if (half_set(parts)) return true;
  if (parts.base != "setp") return false;
  if (parts.mods.size() < 2 || parts.mods.size() > 4) throw Unsupported{"a malformed setp"};
  const std::string& cmp = parts.mods[0];
  std::string combine;
  if (parts.mods.size() >= 3) combine = parts.mods[1];
  if (parts.mods.size() == 4 ||
      (!combine.empty() && combine != "and" && combine != "or" && combine != "xor")) {
    throw Unsupported{"'" + current_->opcode + "': .ftz or this combination is not imported"};
  }
  expect_operands(combine.empty() ? 3 : 4);
  std::string result;
  // A 16-bit float (not a pair, whose p|q are its two halves): compared widened to f64, exactly.
  if (const auto half = ir::parse_half_format(parts.mods.back())) {
    const std::string x = half_to_f64(value(operand(1), ir::ScalarType::U32), 0, *half);
    const std::string y = half_to_f64(value(operand(2), ir::ScalarType::U32), 0, *half);
    result = float_compare(cmp, ir::ScalarType::F64, reg(x), reg(y));
  } else if (ir::is_float(parts.type())) {
    const ir::ScalarType t = parts.type();
    const ir::ValueOperand a = value(operand(1), t), b = value(operand(2), t);
    result = float_compare(cmp, t, a, b);
  } else {
    ir::ScalarType t = parts.type();
    static const std::map<std::string, Opcode, std::less<>> kInt = {
        {"eq", Opcode::Eq}, {"ne", Opcode::Ne}, {"lt", Opcode::Lt}, {"le", Opcode::Le},
        {"gt", Opcode::Gt}, {"ge", Opcode::Ge}, {"lo", Opcode::Lt}, {"ls", Opcode::Le},
        {"hi", Opcode::Gt}, {"hs", Opcode::Ge}};
    auto it = kInt.find(cmp);
    if (it == kInt.end()) throw Unsupported{"setp." + cmp + " on integers is not PTX"};
    if (cmp == "lo" || cmp == "ls" || cmp == "hi" || cmp == "hs") t = unsigned_of(t);
    const ir::ValueOperand a = value(operand(1), t), b = value(operand(2), t);
    result = predicate_result(it->second, t, a, b);
  }
  const Operand& target = operand(0);
  const auto* pair = std::get_if<PairOperand>(&target);
  const auto* single = std::get_if<Register>(&target);
  if (pair == nullptr && single == nullptr) throw Unsupported{"setp writes a predicate register"};
  const Register& first = pair ? pair->first : *single;
  ir::Instruction& last = kernel_.blocks.back().instructions.back();
  if (combine.empty() && pair == nullptr && last.dests.size() == 1 &&
      last.dests[0].name == result) {
    last.dests[0].name = dest(first, ir::ScalarType::Pred).name;  // no copy through a temporary
    return true;
  }
  std::string inverse;
  if (pair) {
    inverse = fresh_temp();
    emit(Opcode::Not, ir::ScalarType::Pred, {inverse}, {op(reg(result))});
  }
  auto write = [&](const Register& r, const std::string& value_reg) {
    const Dest d = dest(r, ir::ScalarType::Pred);
    if (combine.empty()) {
      emit(Opcode::Mov, ir::ScalarType::Pred, {d.name}, {op(reg(value_reg))});
      return;
    }
    const Opcode code = combine == "and" ? Opcode::And : combine == "or" ? Opcode::Or : Opcode::Xor;
    const ir::ValueOperand c = value(operand(3), ir::ScalarType::Pred);
    emit(code, ir::ScalarType::Pred, {d.name}, {op(reg(value_reg)), op(c)});
  };
  write(first, result);
  if (pair) write(pair->second, inverse);
  return true;
}

}  // namespace warpsim::ptx
