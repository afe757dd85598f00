// Moves, cvta and conversions, 8- and 16-bit integers among them.
#include "sim/import/entry_translator.hpp"
#include "sim/import/ir_build.hpp"

namespace warpsim::ptx {

bool EntryTranslator::conversion(const OpcodeParts& parts) {
  using ir::Opcode;
  if (parts.base == "mov") {
    refuse_modifiers(parts, {});
    expect_operands(2);
    if (std::holds_alternative<VectorOperand>(operand(0)) ||
        std::holds_alternative<VectorOperand>(operand(1))) {
      return pack_or_unpack(parts);
    }
    const ir::ScalarType t = parts.type();
    const auto* src = std::get_if<Register>(&operand(1));
    const auto* dst = std::get_if<Register>(&operand(0));
    // A special register the IR lacks (%cluster_nctaid.x, ...) read into a register nothing
    // reads: cooperative groups' objects read them whether or not the kernel uses them.
    if (src != nullptr && dst != nullptr && src->name.find('.') != std::string::npos &&
        !special_register(src->name) && !storage_.contains(src->name) && !is_read(*dst)) {
      return true;
    }
    if (src && dst && !special_register(src->name) && storage_.contains(src->name) &&
        t != ir::ScalarType::Pred) {
      const ir::ScalarType from = storage_of(*src), to = storage_of(*dst);
      if (!ir::operand_compatible(from, to) && ir::size_bytes(from) == ir::size_bytes(to) &&
          ir::size_bytes(t) == ir::size_bytes(to)) {
        // mov.b32 %f1, %r1: the bits of one register as another type.
        ir::Instruction& c =
            emit(Opcode::Bitcast, to, {ir_register(dst->name)}, {op(reg(ir_register(src->name)))});
        c.source_type = from;
        return true;
      }
    }
    unary(Opcode::Mov, t);
    return true;
  }
  if (parts.base == "cvta") {
    // cvta.to.global and cvta.global: a global address is its generic address.
    const bool global = parts.has("global");
    if (!global) {
      throw Unsupported{"'" + current_->opcode +
                        "': generic addresses of shared, local or constant memory are not "
                        "imported"};
    }
    refuse_modifiers(parts, {"to", "global"});
    unary(Opcode::Mov, parts.type());
    return true;
  }
  if (parts.base != "cvt") return false;
  if (parts.mods.size() < 2) throw Unsupported{"cvt needs two types"};
  const std::string& dname = parts.mods[parts.mods.size() - 2];
  const std::string& sname = parts.mods.back();
  if (ir::parse_half_format(dname) || ir::parse_half_format(sname) || dname == "f16x2" ||
      dname == "bf16x2") {
    return half_conversion(parts);
  }
  if (narrow_width(dname) != 0 || narrow_width(sname) != 0) {
    if (parts.mods.size() == 2 ||
        (parts.mods.size() == 3 && parts.mods[0] == "rn" &&
         ir::is_float(ir_type_of("." + dname).value_or(ir::ScalarType::U32)))) {
      return narrow_conversion(dname, sname);
    }
    throw Unsupported{"'" + current_->opcode + "' is not imported"};
  }
  const auto to = ir_type_of("." + dname), from = ir_type_of("." + sname);
  if (!to || !from || *to == ir::ScalarType::Pred || *from == ir::ScalarType::Pred) {
    throw Unsupported{"cvt." + dname + "." + sname +
                      " is not imported (8- and 16-bit integers and halves are not IR types)"};
  }
  std::string rounding;
  bool sat = false, ftz = false;
  for (std::size_t i = 0; i + 2 < parts.mods.size(); ++i) {
    const std::string& m = parts.mods[i];
    if (m == "sat") {
      sat = true;
    } else if (m == "ftz") {
      ftz = true;
    } else {
      rounding = m;
    }
  }
  std::string want;  // the one rounding the IR's cvt performs for this pair
  bool sat_ok = false, ftz_ok = false;
  if (ir::is_int(*to) && ir::is_float(*from)) {
    want = "rzi";
    sat_ok = ftz_ok = true;  // the IR's cvt saturates; a subnormal truncates to 0 either way
  } else if ((ir::is_float(*to) && ir::is_int(*from)) ||
             (*to == ir::ScalarType::F32 && *from == ir::ScalarType::F64)) {
    want = "rn";
  }
  // An integer rounding the IR's cvt lacks, from a float: rounded first, then converted exactly.
  // With .ftz a subnormal is flushed first, which rmi and rpi would round differently: refused.
  const bool integral = rounding == "rni" || rounding == "rmi" || rounding == "rpi" ||
                        (rounding == "rzi" && *to == *from);
  if (integral && ir::is_float(*from) && (*to == *from || ir::is_int(*to)) &&
      !(ftz && rounding != "rni") && !(sat && *to == *from)) {
    expect_operands(2);
    const ir::ValueOperand a = value(operand(1), *from);
    const std::string rounded = round_to_integral(a, *from, rounding);
    const Dest d = dest(operand(0), *to);
    if (*to == *from) {
      emit(Opcode::Mov, *to, {d.name}, {op(reg(rounded))});
    } else {
      emit(Opcode::Cvt, *to, {d.name}, {op(reg(rounded))}).source_type = *from;
    }
    finish(d);
    return true;
  }
  // cvt.sat.f32.f32 (nvcc's powf and expf clamp so): a clamped to [0, 1], NaN and -0 to +0 (the
  // PTX ISA flushes a saturated NaN to +0; saturation's lower bound is +0.0). Two ordered
  // comparisons, false on NaN: a > 0 ? a : 0, then that < 1 ? it : 1.
  if (sat && !ftz && rounding.empty() && *to == *from && ir::is_float(*to)) {
    expect_operands(2);
    const ir::ValueOperand a = value(operand(1), *from);
    const std::string positive = fresh_temp(), low = fresh_temp(), below_one = fresh_temp();
    const ir::ValueOperand zero{ir::FloatLiteral{0.0}, {}}, one{ir::FloatLiteral{1.0}, {}};
    emit(Opcode::Gt, *to, {positive}, {op(a), op(zero)});
    emit(Opcode::Select, *to, {low}, {op(reg(positive)), op(a), op(zero)});
    emit(Opcode::Lt, *to, {below_one}, {op(reg(low)), op(one)});
    const Dest d = dest(operand(0), *to);
    emit(Opcode::Select, *to, {d.name}, {op(reg(below_one)), op(reg(low)), op(one)});
    finish(d);
    return true;
  }
  // To a float from an integer, or f64 to f32, in a directed rounding: the IR's cvt rounds so.
  const auto directed = ir::parse_rounding(rounding);
  if (directed && *directed != ir::Rounding::Nearest && want == "rn" && !sat && !ftz) {
    expect_operands(2);
    const ir::ValueOperand a = value(operand(1), *from);
    const Dest d = dest(operand(0), *to);
    ir::Instruction& c = emit(Opcode::Cvt, *to, {d.name}, {op(a)});
    c.source_type = *from;
    c.rounding = *directed;
    finish(d);
    return true;
  }
  if (rounding != want || (sat && !sat_ok) || (ftz && !ftz_ok)) {
    throw Unsupported{"'" + current_->opcode + "' is not imported: the IR's cvt." + dname + "." +
                      sname + " rounds " + (want.empty() ? "exactly" : "as ." + want) +
                      (sat_ok ? " and saturates" : "")};
  }
  expect_operands(2);
  const ir::ValueOperand a = value(operand(1), *from);
  const Dest d = dest(operand(0), *to);
  if (*to == *from) {
    emit(Opcode::Mov, *to, {d.name}, {op(a)});
  } else {
    ir::Instruction& c = emit(Opcode::Cvt, *to, {d.name}, {op(a)});
    c.source_type = *from;
  }
  finish(d);
  return true;
}

// mov.b64 {lo, hi}, d and mov.b64 d, {lo, hi}: a 64-bit register as two 32-bit halves, low
// first (libdevice's double functions split and join doubles so). Other widths are refused.
bool EntryTranslator::pack_or_unpack(const OpcodeParts& parts) {
  using ir::Opcode;
  using ir::ScalarType;
  const auto* unpack = std::get_if<VectorOperand>(&operand(0));
  const auto* pack = std::get_if<VectorOperand>(&operand(1));
  const VectorOperand& halves = unpack != nullptr ? *unpack : *pack;
  if (ir::size_bytes(parts.type()) == 4 && !ir::is_float(parts.type())) {
    return pack_or_unpack_16(halves, unpack != nullptr);
  }
  if (parts.type() != ScalarType::U64 && parts.type() != ScalarType::S64 &&
      parts.type() != ScalarType::F64) {
    throw Unsupported{
        "packing registers with mov {..} is imported for two 32-bit halves of a "
        "64-bit register only"};
  }
  if (halves.elements.size() != 2 || (unpack != nullptr && pack != nullptr)) {
    throw Unsupported{"mov {..} with other than two halves is not imported"};
  }
  if (!halves.constants.empty()) {
    throw Unsupported{"mov {..} with a constant half of a 64-bit register is not imported"};
  }
  for (const Register& h : halves.elements) {
    if (h.name != "_" && ir::size_bytes(storage_of(h)) != 4) {
      throw Unsupported{"mov {..}: register " + h.name + " is not 32 bits"};
    }
  }
  if (unpack != nullptr) {
    const ir::ValueOperand whole = value(operand(1), ScalarType::U64);
    for (std::size_t k = 0; k < 2; ++k) {
      if (halves.elements[k].name == "_") continue;
      ir::ValueOperand part = whole;
      if (k == 1) {
        const std::string shifted = fresh_temp();
        emit(Opcode::Shr, ScalarType::U64, {shifted}, {op(whole), op(number(32))});
        part = reg(shifted);
      }
      const Dest d = dest(Operand{halves.elements[k]}, ScalarType::U32);
      emit(Opcode::Cvt, ScalarType::U32, {d.name}, {op(part)}).source_type = ScalarType::U64;
      finish(d);
    }
    return true;
  }
  std::string wide[2];
  for (std::size_t k = 0; k < 2; ++k) {
    wide[k] = fresh_temp();
    emit(Opcode::Cvt, ScalarType::U64, {wide[k]},
         {op(value(Operand{halves.elements[k]}, ScalarType::U32))})
        .source_type = ScalarType::U32;
  }
  const std::string high = fresh_temp();
  emit(Opcode::Shl, ScalarType::U64, {high}, {op(reg(wide[1])), op(number(32))});
  const Dest d = dest(operand(0), ScalarType::U64);
  emit(Opcode::Or, ScalarType::U64, {d.name}, {op(reg(high)), op(reg(wide[0]))});
  finish(d);
  return true;
}

// mov.b32 {lo, hi}, r and mov.b32 r, {lo, hi}: a 32-bit register as two 16-bit registers, low
// first (a __half2's or short2's halves). 16-bit registers hold their bits zero-extended.
bool EntryTranslator::pack_or_unpack_16(const VectorOperand& halves, bool unpack) {
  using ir::Opcode;
  using ir::ScalarType;
  if (halves.elements.size() != 2) {
    throw Unsupported{"mov.b32 {..} with other than two halves is not imported"};
  }
  for (std::size_t k = 0; k < 2; ++k) {
    const std::string& name = halves.elements[k].name;
    const bool constant = k < halves.constants.size() && halves.constants[k];
    if (constant && unpack) throw Unsupported{"mov.b32 {..}: the constant " + name + " is written"};
    if (!constant && name != "_" && !narrow_regs_.contains(name)) {
      throw Unsupported{"mov.b32 {..}: register " + name + " is not 16 bits"};
    }
  }
  if (unpack) {
    const ir::ValueOperand whole = value(operand(1), ScalarType::U32);
    for (std::size_t k = 0; k < 2; ++k) {
      if (halves.elements[k].name == "_") continue;
      const Dest d = dest(Operand{halves.elements[k]}, ScalarType::U32);
      if (k == 0) {
        emit(Opcode::And, ScalarType::U32, {d.name}, {op(whole), op(number(0xffff))});
      } else {
        emit(Opcode::Shr, ScalarType::U32, {d.name}, {op(whole), op(number(16))});
      }
      finish(d);
    }
    return true;
  }
  // A constant half (`{0, h}`) is read as its 16 bits.
  auto half = [&](std::size_t k) -> ir::ValueOperand {
    if (k < halves.constants.size() && halves.constants[k]) {
      const Immediate& c = *halves.constants[k];
      if (c.kind != Immediate::Kind::Int || c.negative || c.bits > 0xffff) {
        throw Unsupported{"mov.b32 {..}: the constant " + halves.elements[k].name +
                          " is not a 16-bit integer"};
      }
      return number(c.bits);
    }
    return value(Operand{halves.elements[k]}, ScalarType::U32);
  };
  const std::string high = fresh_temp();
  emit(Opcode::Shl, ScalarType::U32, {high}, {op(half(1)), op(number(16))});
  const Dest d = dest(operand(0), ScalarType::U32);
  emit(Opcode::Or, ScalarType::U32, {d.name}, {op(reg(high)), op(half(0))});
  finish(d);
  return true;
}

// cvt to or from an 8- or 16-bit integer: the source read at its width (sign- or zero-extended
// to 32 bits), converted as a 32-bit integer, and a narrow destination masked to its width.
bool EntryTranslator::narrow_conversion(const std::string& dname, const std::string& sname) {
  using ir::Opcode;
  expect_operands(2);
  bool from_signed = false, to_signed = false;
  const unsigned from_bits = narrow_width(sname, &from_signed);
  const unsigned to_bits = narrow_width(dname, &to_signed);
  const auto from_wide = ir_type_of("." + sname), to_wide = ir_type_of("." + dname);
  if ((from_bits == 0 && (!from_wide || !ir::is_int(*from_wide))) ||
      (to_bits == 0 && (!to_wide || *to_wide == ir::ScalarType::Pred))) {
    throw Unsupported{"cvt." + dname + "." + sname +
                      " is not imported (8- and 16-bit integers "
                      "convert to and from integers, and to floats)"};
  }
  // The source as a 32-bit (or 64-bit) integer value.
  ir::ScalarType mid = from_signed ? ir::ScalarType::S32 : ir::ScalarType::U32;
  ir::ValueOperand v;
  if (from_bits != 0) {
    v = value(operand(1), ir::ScalarType::U32);
    const std::string low = fresh_temp();
    emit(Opcode::And, ir::ScalarType::U32, {low},
         {op(v), op({ir::IntLiteral{(std::uint64_t{1} << from_bits) - 1, false}, {}})});
    v = extend(reg(low), from_bits, from_signed);
  } else {
    mid = *from_wide;
    v = value(operand(1), mid);
  }
  if (to_bits != 0) {
    if (ir::size_bytes(mid) == 8) {
      const std::string low = fresh_temp();
      ir::Instruction& c = emit(Opcode::Cvt, ir::ScalarType::U32, {low}, {op(v)});
      c.source_type = mid;
      v = reg(low);
    }
    const Dest d = dest(operand(0), ir::ScalarType::U32);
    emit(Opcode::And, ir::ScalarType::U32, {d.name},
         {op(v), op({ir::IntLiteral{(std::uint64_t{1} << to_bits) - 1, false}, {}})});
    finish(d);
    return true;
  }
  const Dest d = dest(operand(0), *to_wide);
  if (ir::operand_compatible(*to_wide, mid)) {
    emit(Opcode::Mov, *to_wide, {d.name}, {op(v)});
  } else {
    ir::Instruction& c = emit(Opcode::Cvt, *to_wide, {d.name}, {op(v)});
    c.source_type = mid;
  }
  finish(d);
  return true;
}

// cvt.rn.f16.f32 d, a (and .rz, .rm, .rp; .bf16; from f64) and cvt.f32.f16 d, h (to f32 or
// f64): the IR's cvt with the half's side a u32 register holding its bits, as PTX's 16-bit
// registers are held. .ftz, .sat, .relu, .satfinite and conversions between two halves are
// refused; those between a half and an integer are half_integer_conversion's.
bool EntryTranslator::half_conversion(const OpcodeParts& parts) {
  const std::string& dname = parts.mods[parts.mods.size() - 2];
  const std::string& sname = parts.mods.back();
  const bool pair = dname.ends_with("x2");  // cvt.rn.f16x2.f32 d, a, b: a's half high, b's low
  const auto to_half = ir::parse_half_format(pair ? dname.substr(0, dname.size() - 2) : dname);
  const auto from_half = ir::parse_half_format(sname);
  const auto other = ir_type_of("." + (to_half ? sname : dname));
  if (!pair && (to_half || from_half) && !(to_half && from_half) &&
      (narrow_width(to_half ? sname : dname) != 0 || (other && ir::is_int(*other)))) {
    return half_integer_conversion(parts);
  }
  if ((to_half && from_half) || !other || !ir::is_float(*other)) {
    throw Unsupported{"'" + current_->opcode +
                      "' is not imported (16-bit floats convert to and from f32 and f64 only)"};
  }
  ir::Rounding rounding = ir::Rounding::Nearest;
  const std::size_t modifiers = parts.mods.size() - 2;
  if (to_half) {
    const auto r = modifiers == 1 ? ir::parse_rounding(parts.mods[0]) : std::nullopt;
    if (!r) {
      throw Unsupported{"'" + current_->opcode +
                        "' is not imported (to a 16-bit float: one of .rn, .rz, .rm, .rp and "
                        "nothing else)"};
    }
    rounding = *r;
  } else if (modifiers != 0) {
    throw Unsupported{"'" + current_->opcode +
                      "' is not imported (widening a 16-bit float takes no modifier)"};
  }
  if (pair) {
    if (*other != ir::ScalarType::F32) throw Unsupported{"'" + current_->opcode + "' is not PTX"};
    expect_operands(3);
    std::string halves[2];
    for (std::size_t k = 0; k < 2; ++k) {
      halves[k] = fresh_temp();
      ir::Instruction& c = emit(ir::Opcode::Cvt, ir::ScalarType::U32, {halves[k]},
                                {op(value(operand(1 + k), ir::ScalarType::F32))});
      c.source_type = ir::ScalarType::F32;
      c.half = *to_half;
      c.rounding = rounding;
    }
    const std::string high = fresh_temp();
    emit(ir::Opcode::Shl, ir::ScalarType::U32, {high}, {op(reg(halves[0])), op(number(16))});
    const Dest d = dest(operand(0), ir::ScalarType::U32);
    emit(ir::Opcode::Or, ir::ScalarType::U32, {d.name}, {op(reg(high)), op(reg(halves[1]))});
    finish(d);
    return true;
  }
  expect_operands(2);
  const ir::ScalarType source = to_half ? *other : ir::ScalarType::U32;
  const ir::ScalarType result = to_half ? ir::ScalarType::U32 : *other;
  const ir::ValueOperand a = value(operand(1), source);
  const Dest d = dest(operand(0), result);
  ir::Instruction& c = emit(ir::Opcode::Cvt, result, {d.name}, {op(a)});
  c.source_type = source;
  c.half = to_half ? *to_half : *from_half;
  c.rounding = rounding;
  finish(d);
  return true;
}

}  // namespace warpsim::ptx
