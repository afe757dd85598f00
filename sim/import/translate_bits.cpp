// Bit-level PTX instructions built from IR arithmetic: bfind (CUDA's __ffs), prmt with a constant
// selector (__byte_perm) and sad (__sad, __usad).
#include "sim/import/entry_translator.hpp"
#include "sim/import/ir_build.hpp"

namespace warpsim::ptx {

// bfind.u32/.s32 [.shiftamt] d, a (CUDA's __ffs comes to brev then bfind.shiftamt): the
// position of the most significant bit that differs from the sign (for .u32, the highest set
// bit), or with .shiftamt 31 minus it; 0xffffffff when there is none. For a negative .s32 that
// is ~a's highest set bit. The IR: clz of a (or of ~a), then 31 - clz or clz itself.
void EntryTranslator::find_leading_bit(const OpcodeParts& parts) {
  using ir::Opcode;
  using ir::ScalarType;
  refuse_modifiers(parts, {"shiftamt"});
  const ScalarType t = parts.type();
  if (t != ScalarType::U32 && t != ScalarType::S32) {
    throw Unsupported{"'" + current_->opcode + "' is not imported (bfind.u32 and .s32 are)"};
  }
  expect_operands(2);
  const ir::ValueOperand a = value(operand(1), t);
  std::string v = fresh_temp();
  if (t == ScalarType::S32) {
    const std::string negative = fresh_temp(), inverted = fresh_temp();
    emit(Opcode::Lt, ScalarType::S32, {negative}, {op(a), op(number(0))});
    emit(Opcode::Not, ScalarType::U32, {inverted}, {op(a)});
    emit(Opcode::Select, ScalarType::U32, {v}, {op(reg(negative)), op(reg(inverted)), op(a)});
  } else {
    emit(Opcode::Mov, ScalarType::U32, {v}, {op(a)});
  }
  const std::string leading = fresh_temp(), found = fresh_temp();
  emit(Opcode::Clz, ScalarType::U32, {leading}, {op(reg(v))});
  emit(Opcode::Ne, ScalarType::U32, {found}, {op(reg(v)), op(number(0))});
  std::string position = leading;
  if (!parts.has("shiftamt")) {
    position = fresh_temp();
    emit(Opcode::Sub, ScalarType::U32, {position}, {op(number(31)), op(reg(leading))});
  }
  const Dest d = dest(operand(0), ScalarType::U32);
  emit(Opcode::Select, ScalarType::U32, {d.name},
       {op(reg(found)), op(reg(position)), op(number(0xffffffffu))});
  finish(d);
}

// prmt.b32 d, a, b, c with a constant selector c, in the default mode (CUDA's __byte_perm):
// result byte k is byte (c >> 4k) & 7 of the 8 bytes {b, a} (a's bytes 0-3, b's 4-7), or, when
// bit 3 of that nibble is set, that byte's top bit copied into all eight. Each is a shift and a
// mask (and for a sign copy, an arithmetic shift of the byte moved to the top) ORed together.
void EntryTranslator::permute_bytes(const OpcodeParts& parts) {
  using ir::Opcode;
  using ir::ScalarType;
  refuse_modifiers(parts, {});
  expect_operands(4);
  const auto selector = known_constant(operand(3));
  if (!selector) {
    throw Unsupported{"prmt with a selector computed at run time is not imported"};
  }
  const ir::ValueOperand a = value(operand(1), ScalarType::U32);
  const ir::ValueOperand b = value(operand(2), ScalarType::U32);
  std::string result;
  for (unsigned k = 0; k < 4; ++k) {
    const unsigned nibble = static_cast<unsigned>(*selector >> (4 * k)) & 0xfu;
    const unsigned source = nibble & 7u;
    const ir::ValueOperand& word = source < 4 ? a : b;
    const unsigned shift = 8 * (source % 4);
    std::string byte = fresh_temp();
    if ((nibble & 8u) != 0) {
      // The byte's top bit, copied: move the byte to bits 24-31, shift right arithmetically by
      // 31 (all ones or zeros), keep 8 bits.
      const std::string top = fresh_temp(), spread = fresh_temp();
      emit(Opcode::Shl, ScalarType::U32, {top}, {op(word), op(number(24 - shift))});
      emit(Opcode::Shr, ScalarType::S32, {spread}, {op(reg(top)), op(number(31))});
      emit(Opcode::And, ScalarType::U32, {byte}, {op(reg(spread)), op(number(0xffu))});
    } else {
      const std::string shifted = fresh_temp();
      emit(Opcode::Shr, ScalarType::U32, {shifted}, {op(word), op(number(shift))});
      emit(Opcode::And, ScalarType::U32, {byte}, {op(reg(shifted)), op(number(0xffu))});
    }
    if (k != 0) {
      const std::string placed = fresh_temp();
      emit(Opcode::Shl, ScalarType::U32, {placed},
           {op(reg(byte)), op(number(std::uint64_t{8} * k))});
      byte = placed;
    }
    if (result.empty()) {
      result = byte;
    } else {
      const std::string joined = fresh_temp();
      emit(Opcode::Or, ScalarType::U32, {joined}, {op(reg(result)), op(reg(byte))});
      result = joined;
    }
  }
  const Dest d = dest(operand(0), ScalarType::U32);
  emit(Opcode::Mov, ScalarType::U32, {d.name}, {op(reg(result))});
  finish(d);
}

void EntryTranslator::absolute_difference_sum(const OpcodeParts& parts) {
  using ir::Opcode;
  // sad.T d, a, b, c (CUDA's __sad, __usad): |a - b| + c, the difference taken in T's
  // signedness without overflow (the larger minus the smaller), the sum wrapping.
  refuse_modifiers(parts, {});
  const ir::ScalarType t = parts.type();
  if (ir::size_bytes(t) != 4 || !ir::is_int(t)) {
    throw Unsupported{"'" + current_->opcode + "' is not imported (sad.u32 and .s32 are)"};
  }
  expect_operands(4);
  const ir::ValueOperand x = value(operand(1), t), y = value(operand(2), t),
                         z = value(operand(3), t);
  const std::string greater = fresh_temp(), forward = fresh_temp(), backward = fresh_temp(),
                    difference = fresh_temp();
  emit(Opcode::Gt, t, {greater}, {op(x), op(y)});
  emit(Opcode::Sub, ir::ScalarType::U32, {forward}, {op(x), op(y)});
  emit(Opcode::Sub, ir::ScalarType::U32, {backward}, {op(y), op(x)});
  emit(Opcode::Select, ir::ScalarType::U32, {difference},
       {op(reg(greater)), op(reg(forward)), op(reg(backward))});
  const Dest d = dest(operand(0), ir::ScalarType::U32);
  emit(Opcode::Add, ir::ScalarType::U32, {d.name}, {op(reg(difference)), op(z)});
  finish(d);
}

}  // namespace warpsim::ptx
