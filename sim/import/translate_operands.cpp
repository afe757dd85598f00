// Operands of the translation: PTX registers, literals and symbols as IR values (with casts
// where a register holds another type), destinations, addresses, and the values PTX computes
// from the lane (%lanemask_*) or narrow types (sign extension, masks).
#include <bit>
#include <cmath>

#include "sim/import/entry_translator.hpp"

namespace warpsim::ptx {

const Operand& EntryTranslator::operand(std::size_t i) const {
  if (i >= current_->operands.size()) {
    throw Unsupported{"'" + current_->opcode + "' has too few operands"};
  }
  return current_->operands[i];
}

void EntryTranslator::expect_operands(std::size_t n) const {
  if (current_->operands.size() != n) {
    throw Unsupported{"'" + current_->opcode + "' takes " + std::to_string(n) + " operands here"};
  }
}

std::string EntryTranslator::ir_register(const std::string& ptx_name) const {
  // PTX registers are %NAME, but inline assembly may declare one without the '%' (`low`).
  const std::string_view name(ptx_name);
  return ir_word(name.starts_with('%') ? name.substr(1) : name);
}

ir::ScalarType EntryTranslator::storage_of(const Register& r) {
  if (auto it = storage_.find(r.name); it != storage_.end()) return it->second;
  if (auto it = odd_storage_.find(r.name); it != odd_storage_.end()) {
    throw Unsupported{"register " + r.name + " is " + it->second +
                      ", a type the IR does not have (pred, s32, u32, s64, u64, f32, f64)"};
  }
  throw Unsupported{"register " + r.name + " is not declared"};
}

std::optional<std::uint64_t> EntryTranslator::known_constant(const Operand& op) const {
  if (const auto* imm = std::get_if<Immediate>(&op); imm && imm->kind == Immediate::Kind::Int) {
    return imm->negative ? ~imm->bits + 1 : imm->bits;
  }
  if (const auto* r = std::get_if<Register>(&op)) {
    if (auto it = constants_.find(r->name); it != constants_.end()) return it->second;
  }
  return std::nullopt;
}

bool EntryTranslator::is_read(const Register& r) const {
  return reads_.contains(r.name);
}

// A NaN literal keeps its bits (nvcc's 0f7FFFFFFF is the GPU's NaN, which the IR's `nan`, the
// host's quiet NaN 0x7fc00000, is not): the integer bits cast to the float type.
ir::ValueOperand EntryTranslator::nan_literal(std::uint64_t bits, ir::ScalarType want) {
  const ir::ScalarType as_int =
      want == ir::ScalarType::F64 ? ir::ScalarType::U64 : ir::ScalarType::U32;
  const std::string t = fresh_temp();
  ir::Instruction& cast =
      emit(ir::Opcode::Bitcast, want, {t},
           {ir::Operand{ir::ValueOperand{ir::IntLiteral{bits, false}, {}}, {}}});
  cast.source_type = as_int;
  return {ir::RegRef{t}, {}};
}

ir::ValueOperand EntryTranslator::literal(const Immediate& imm, ir::ScalarType want) {
  switch (imm.kind) {
    case Immediate::Kind::Int: {
      if (ir::is_float(want)) {
        const double v = static_cast<double>(imm.bits);
        return {ir::FloatLiteral{imm.negative ? -v : v}, {}};
      }
      if (want == ir::ScalarType::Pred) return {ir::IntLiteral{imm.bits != 0 ? 1u : 0u, false}, {}};
      // The bits the literal gives a value of `want`, then the IR's spelling of them.
      const unsigned width = ir::size_bytes(want) * 8;
      const std::uint64_t mask = width == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
      const std::uint64_t bits = (imm.negative ? ~imm.bits + 1 : imm.bits) & mask;
      if (ir::is_signed_int(want) && (bits >> (width - 1)) != 0) {
        return {ir::IntLiteral{((~bits) & mask) + 1, true}, {}};
      }
      return {ir::IntLiteral{bits, false}, {}};
    }
    case Immediate::Kind::F32Bits:
      if (want == ir::ScalarType::F32) {
        const float v = std::bit_cast<float>(static_cast<std::uint32_t>(imm.bits));
        if (std::isnan(v)) return nan_literal(imm.bits, want);
        return {ir::FloatLiteral{v}, {}};
      }
      if (ir::is_int(want) && ir::size_bytes(want) == 4)
        return {ir::IntLiteral{imm.bits, false}, {}};
      break;
    case Immediate::Kind::F64Bits:
      if (want == ir::ScalarType::F64) {
        if (std::isnan(std::bit_cast<double>(imm.bits))) return nan_literal(imm.bits, want);
        return {ir::FloatLiteral{std::bit_cast<double>(imm.bits)}, {}};
      }
      if (ir::is_int(want) && ir::size_bytes(want) == 8)
        return {ir::IntLiteral{imm.bits, false}, {}};
      break;
    case Immediate::Kind::Float:
      if (ir::is_float(want)) return {ir::FloatLiteral{imm.value}, {}};
      break;
  }
  throw Unsupported{"a float literal where " + std::string(ir::name(want)) + " is expected"};
}

ir::ValueOperand EntryTranslator::value(const Operand& op, ir::ScalarType want) {
  if (const auto* r = std::get_if<Register>(&op)) {
    if (auto special = special_register(r->name)) {
      if (want != ir::ScalarType::U32 && want != ir::ScalarType::S32) {
        throw Unsupported{"special register " + r->name + " read as ." +
                          std::string(ir::name(want)) + " (it is 32 bits)"};
      }
      return {*special, {}};
    }
    if (r->name.starts_with("%lanemask_") && !storage_.contains(r->name)) {
      return lane_mask(r->name, want);
    }
    if (r->name.starts_with("%") && r->name.find('.') != std::string::npos) {
      throw Unsupported{"special register " + r->name + " is not imported"};
    }
    const ir::ScalarType have = storage_of(*r);
    if (narrow_ != 0 && ir::is_int(want) && ir::size_bytes(want) == 4 &&
        ir::operand_compatible(want, have)) {
      return extend({ir::RegRef{ir_register(r->name)}, {}}, narrow_,
                    narrow_signed_ && ir::is_signed_int(want));
    }
    if (ir::operand_compatible(want, have)) return {ir::RegRef{ir_register(r->name)}, {}};
    if (have != ir::ScalarType::Pred && want != ir::ScalarType::Pred &&
        ir::size_bytes(have) == ir::size_bytes(want)) {
      // The same bits read as another type (an f32 register read by an integer operation).
      const std::string t = fresh_temp();
      ir::Instruction& cast =
          emit(ir::Opcode::Bitcast, want, {t},
               {ir::Operand{ir::ValueOperand{ir::RegRef{ir_register(r->name)}, {}}, {}}});
      cast.source_type = have;
      return {ir::RegRef{t}, {}};
    }
    if (ir::is_int(want) && ir::is_int(have) && ir::size_bytes(have) > ir::size_bytes(want)) {
      // A register wider than the instruction's type is read by its low bits (the PTX ISA's
      // rule for operands wider than the type; nvcc's cvt.s64.s16 of a .b64 register).
      const std::string low = fresh_temp();
      ir::Instruction& chop =
          emit(ir::Opcode::Cvt, want, {low},
               {ir::Operand{ir::ValueOperand{ir::RegRef{ir_register(r->name)}, {}}, {}}});
      chop.source_type = have;
      if (narrow_ != 0) {
        return extend({ir::RegRef{low}, {}}, narrow_, narrow_signed_ && ir::is_signed_int(want));
      }
      return {ir::RegRef{low}, {}};
    }
    throw Unsupported{"register " + r->name + " holds ." + std::string(ir::name(have)) +
                      " but is read as ." + std::string(ir::name(want))};
  }
  if (const auto* imm = std::get_if<Immediate>(&op)) {
    if (narrow_ != 0 && imm->kind == Immediate::Kind::Int && ir::is_int(want)) {
      // The literal's bits in the narrow width, then extended as the instruction reads it.
      const std::uint64_t mask = (std::uint64_t{1} << narrow_) - 1;
      std::uint64_t bits = (imm->negative ? ~imm->bits + 1 : imm->bits) & mask;
      const bool negative = narrow_signed_ && (bits >> (narrow_ - 1)) != 0;
      if (negative) bits = ((~bits) & mask) + 1;
      Immediate narrowed;
      narrowed.bits = bits;
      narrowed.negative = negative;
      return literal(narrowed, want);
    }
    return literal(*imm, want);
  }
  if (const auto* sym = std::get_if<Symbol>(&op)) {
    auto it = symbols_.find(sym->name);
    if (it == symbols_.end())
      throw Unsupported{"'" + sym->name +
                        "' is not a kernel parameter or "
                        "an array this kernel declares"};
    return {ir::ParamRef{it->second}, {}};
  }
  throw Unsupported{"this operand form is not a value"};
}

Dest EntryTranslator::dest(const Operand& op, ir::ScalarType written) {
  const auto* r = std::get_if<Register>(&op);
  if (r == nullptr) throw Unsupported{"expected a destination register"};
  Dest d;
  d.written = written;
  if (r->name == "_") {  // a sink
    d.name = fresh_temp();
    d.storage = written;
    return d;
  }
  if (special_register(r->name)) throw Unsupported{"a special register cannot be written"};
  d.storage = storage_of(*r);
  if (ir::operand_compatible(d.storage, written)) {
    d.name = ir_register(r->name);
    return d;
  }
  if (d.storage != ir::ScalarType::Pred && written != ir::ScalarType::Pred &&
      ir::size_bytes(d.storage) == ir::size_bytes(written)) {
    d.name = fresh_temp();
    d.cast_into = ir_register(r->name);
    return d;
  }
  if (narrow_ == 0 && ir::is_int(d.storage) && ir::is_int(written) &&
      ir::size_bytes(d.storage) > ir::size_bytes(written)) {
    // A register wider than the instruction's type takes the result extended by the type's
    // signedness (the PTX ISA's rule for operands wider than the type).
    d.name = fresh_temp();
    d.cast_into = ir_register(r->name);
    d.widen = true;
    return d;
  }
  throw Unsupported{"register " + r->name + " holds ." + std::string(ir::name(d.storage)) +
                    " but is written as ." + std::string(ir::name(written))};
}

// %lanemask_eq/lt/le/gt/ge from %laneid: 1 << lane, the lanes below it, and so on.
ir::ValueOperand EntryTranslator::lane_mask(const std::string& name, ir::ScalarType want) {
  using ir::Opcode;
  if (!ir::is_int(want) || ir::size_bytes(want) != 4) {
    throw Unsupported{"special register " + name + " read as ." + std::string(ir::name(want))};
  }
  auto operand_of = [](const std::string& n) {
    return ir::Operand{ir::ValueOperand{ir::RegRef{n}, {}}, {}};
  };
  const ir::Operand one{ir::ValueOperand{ir::IntLiteral{1, false}, {}}, {}};
  const std::string eq = fresh_temp(), lt = fresh_temp();
  emit(Opcode::Shl, ir::ScalarType::U32, {eq},
       {one, ir::Operand{ir::ValueOperand{ir::SpecialReg::LaneId, {}}, {}}});
  if (name == "%lanemask_eq") return {ir::RegRef{eq}, {}};
  emit(Opcode::Sub, ir::ScalarType::U32, {lt}, {operand_of(eq), one});
  if (name == "%lanemask_lt") return {ir::RegRef{lt}, {}};
  const std::string out = fresh_temp();
  if (name == "%lanemask_ge") {
    emit(Opcode::Not, ir::ScalarType::U32, {out}, {operand_of(lt)});
    return {ir::RegRef{out}, {}};
  }
  const std::string le = fresh_temp();
  emit(Opcode::Or, ir::ScalarType::U32, {le}, {operand_of(lt), operand_of(eq)});
  if (name == "%lanemask_le") return {ir::RegRef{le}, {}};
  if (name == "%lanemask_gt") {
    emit(Opcode::Not, ir::ScalarType::U32, {out}, {operand_of(le)});
    return {ir::RegRef{out}, {}};
  }
  throw Unsupported{"special register " + name + " is not imported"};
}

ir::ValueOperand EntryTranslator::extend(const ir::ValueOperand& v, unsigned bits, bool is_signed) {
  if (!is_signed) return v;  // held zero-extended already
  const std::string up = fresh_temp(), down = fresh_temp();
  const ir::ValueOperand shift{ir::IntLiteral{32 - bits, false}, {}};
  emit(ir::Opcode::Shl, ir::ScalarType::U32, {up}, {ir::Operand{v, {}}, ir::Operand{shift, {}}});
  emit(ir::Opcode::Shr, ir::ScalarType::S32, {down},
       {ir::Operand{ir::ValueOperand{ir::RegRef{up}, {}}, {}}, ir::Operand{shift, {}}});
  return {ir::RegRef{down}, {}};
}

void EntryTranslator::mask_into(const std::string& reg, unsigned bits) {
  const ir::ValueOperand r{ir::RegRef{reg}, {}};
  const ir::ValueOperand mask{ir::IntLiteral{(std::uint64_t{1} << bits) - 1, false}, {}};
  emit(ir::Opcode::And, ir::ScalarType::U32, {reg}, {ir::Operand{r, {}}, ir::Operand{mask, {}}});
}

void EntryTranslator::finish(const Dest& d) {
  // A narrow result goes back to its width, zero-extended (unless the operation cannot leave
  // it: logic, moves and selects of zero-extended values, unsigned shifts right, min and max).
  if (narrow_ != 0 && ir::is_int(d.written) && d.cast_into.empty()) {
    const std::string& b = current_base_;
    const bool stays = !narrow_signed_ && (b == "and" || b == "or" || b == "xor" || b == "mov" ||
                                           b == "selp" || b == "shr" || b == "min" || b == "max");
    if (!stays) mask_into(d.name, narrow_);
  }
  if (d.cast_into.empty()) return;
  ir::Instruction& cast =
      emit(d.widen ? ir::Opcode::Cvt : ir::Opcode::Bitcast, d.storage, {d.cast_into},
           {ir::Operand{ir::ValueOperand{ir::RegRef{d.name}, {}}, {}}});
  cast.source_type = d.written;
}

ir::MemRef EntryTranslator::address(const Operand& op, ir::Space space) {
  const auto* a = std::get_if<Address>(&op);
  if (a == nullptr) throw Unsupported{"expected an address [...]"};
  ir::MemRef ref;
  ref.displacement = a->displacement;
  if (!a->base) {
    ref.indices.push_back({ir::IntLiteral{0, false}, {}});
    return ref;
  }
  if (const auto* r = std::get_if<Register>(&*a->base)) {
    const ir::ScalarType have = storage_of(*r);
    if (!ir::is_int(have))
      throw Unsupported{"an address in a ." + std::string(ir::name(have)) + " register"};
    if (space == ir::Space::Global && ir::size_bytes(have) != 8) {
      throw Unsupported{"a global address in a 32-bit register"};
    }
    ref.indices.push_back({ir::RegRef{ir_register(r->name)}, {}});
    return ref;
  }
  const auto& sym = std::get<Symbol>(*a->base);
  ref.indices.push_back(value(sym, ir::ScalarType::U64));
  return ref;
}

}  // namespace warpsim::ptx
