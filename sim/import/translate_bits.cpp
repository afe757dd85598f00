// Bit-level PTX instructions built from IR arithmetic: bfind (CUDA's __ffs), prmt with a constant
// selector (__byte_perm), sad (__sad, __usad), bfe / bfi with a constant position and
// length (nvcc's bit-field extracts and inserts), and bmsk (cub's radix digits).
#include <algorithm>

#include "sim/import/entry_translator.hpp"
#include "sim/import/ir_build.hpp"

namespace warpsim::ptx {

// The bit-level instructions this file and translate_logic.cpp translate; false for another.
bool EntryTranslator::bit_operation(const OpcodeParts& parts) {
  const std::string& b = parts.base;
  if (b == "bfind") {
    find_leading_bit(parts);
    return true;
  }
  if (b == "prmt") {
    permute_bytes(parts);
    return true;
  }
  if (b == "copysign") {
    copy_sign(parts);
    return true;
  }
  if (b == "bfe") {
    extract_bit_field(parts);
    return true;
  }
  if (b == "bfi") {
    insert_bit_field(parts);
    return true;
  }
  if (b == "bmsk") {
    bit_mask(parts);
    return true;
  }
  if (b == "lop3") {
    three_input_logic(parts);
    return true;
  }
  if (b == "dp4a" || b == "dp2a") {
    dot_product(parts, b == "dp4a");
    return true;
  }
  if (b == "sad") {
    absolute_difference_sum(parts);
    return true;
  }
  return false;
}

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
    permute_bytes_at_run_time();
    return;
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

// prmt.b32 d, a, b, c with c in a register: for result byte k, nibble n = c >> 4k & 15 picks
// byte n & 7 of the 64-bit value b:a, or with n & 8 that byte's top bit copied into all 8 bits.
void EntryTranslator::permute_bytes_at_run_time() {
  using ir::Opcode;
  using ir::ScalarType;
  auto widened = [&](std::size_t i) {
    const ir::ValueOperand v = value(operand(i), ScalarType::U32);
    std::string w = fresh_temp();
    emit(Opcode::Cvt, ScalarType::U64, {w}, {op(v)}).source_type = ScalarType::U32;
    return w;
  };
  const std::string low = widened(1), high = widened(2), high_up = fresh_temp(),
                    both = fresh_temp();
  emit(Opcode::Shl, ScalarType::U64, {high_up}, {op(reg(high)), op(number(32))});
  emit(Opcode::Or, ScalarType::U64, {both}, {op(reg(high_up)), op(reg(low))});
  const ir::ValueOperand c = value(operand(3), ScalarType::U32);
  std::string result;
  for (std::uint64_t k = 0; k < 4; ++k) {
    auto t = [&] { return fresh_temp(); };
    const std::string shifted_c = t(), nibble = t(), source = t(), bit_shift = t(), moved = t(),
                      narrow = t(), byte = t(), top = t(), spread = t(), copied = t(),
                      copy_flag = t(), copies = t(), chosen = t(), placed = t();
    emit(Opcode::Shr, ScalarType::U32, {shifted_c}, {op(c), op(number(4 * k))});
    emit(Opcode::And, ScalarType::U32, {nibble}, {op(reg(shifted_c)), op(number(0xf))});
    emit(Opcode::And, ScalarType::U32, {source}, {op(reg(nibble)), op(number(7))});
    emit(Opcode::Shl, ScalarType::U32, {bit_shift}, {op(reg(source)), op(number(3))});
    emit(Opcode::Shr, ScalarType::U64, {moved}, {op(reg(both)), op(reg(bit_shift))});
    emit(Opcode::Cvt, ScalarType::U32, {narrow}, {op(reg(moved))}).source_type = ScalarType::U64;
    emit(Opcode::And, ScalarType::U32, {byte}, {op(reg(narrow)), op(number(0xff))});
    // The top bit: to bit 31, then an arithmetic shift spreads it over the word.
    emit(Opcode::Shl, ScalarType::U32, {top}, {op(reg(byte)), op(number(24))});
    emit(Opcode::Shr, ScalarType::S32, {spread}, {op(reg(top)), op(number(31))});
    emit(Opcode::And, ScalarType::U32, {copied}, {op(reg(spread)), op(number(0xff))});
    emit(Opcode::And, ScalarType::U32, {copy_flag}, {op(reg(nibble)), op(number(8))});
    emit(Opcode::Ne, ScalarType::U32, {copies}, {op(reg(copy_flag)), op(number(0))});
    emit(Opcode::Select, ScalarType::U32, {chosen},
         {op(reg(copies)), op(reg(copied)), op(reg(byte))});
    emit(Opcode::Shl, ScalarType::U32, {placed}, {op(reg(chosen)), op(number(8 * k))});
    if (result.empty()) {
      result = placed;
    } else {
      const std::string joined = fresh_temp();
      emit(Opcode::Or, ScalarType::U32, {joined}, {op(reg(result)), op(reg(placed))});
      result = joined;
    }
  }
  const Dest d = dest(operand(0), ScalarType::U32);
  emit(Opcode::Mov, ScalarType::U32, {d.name}, {op(reg(result))});
  finish(d);
}

// copysign.{f32,f64} d, a, b: b's magnitude with a's sign, on the raw bits (NaNs keep their
// payload, as the ISA says copysign does no arithmetic).
void EntryTranslator::copy_sign(const OpcodeParts& parts) {
  using ir::Opcode;
  refuse_modifiers(parts, {});
  expect_operands(3);
  const bool wide = parts.type() == ir::ScalarType::F64;
  if (!wide && parts.type() != ir::ScalarType::F32) throw Unsupported{"a malformed copysign"};
  const ir::ScalarType bits = wide ? ir::ScalarType::U64 : ir::ScalarType::U32;
  const std::uint64_t sign_bit = wide ? std::uint64_t{1} << 63 : std::uint64_t{1} << 31;
  const ir::ValueOperand a = value(operand(1), bits);
  const ir::ValueOperand b = value(operand(2), bits);
  const std::string sign = fresh_temp(), magnitude = fresh_temp();
  emit(Opcode::And, bits, {sign}, {op(a), op(number(sign_bit))});
  emit(Opcode::And, bits, {magnitude}, {op(b), op(number(sign_bit - 1))});
  const Dest d = dest(operand(0), bits);
  emit(Opcode::Or, bits, {d.name}, {op(reg(sign)), op(reg(magnitude))});
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

namespace {

// A constant bit position or length of bfe / bfi: PTX uses its low 8 bits.
unsigned field_operand(const std::optional<std::uint64_t>& v, const std::string& opcode) {
  if (!v) throw Unsupported{"'" + opcode + "' with a position or length computed at run time"};
  return static_cast<unsigned>(*v & 0xffu);
}

std::uint64_t low_bits(unsigned n) {
  return n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
}

}  // namespace

// bfe.T d, a, pos, len (PTX ISA): bits pos .. pos+len-1 of a, zero-extended for .u32/.u64 and
// sign-extended from the field's last bit inside the word (bit min(pos+len-1, msb)) for .s32/
// .s64; 0 when len is 0. With s that last bit: a shifted left by msb - s puts it at the top,
// then right by msb - s + min(pos, msb) (arithmetically when signed) brings bit pos to bit 0.
void EntryTranslator::extract_bit_field(const OpcodeParts& parts) {
  using ir::Opcode;
  refuse_modifiers(parts, {});
  const ir::ScalarType t = parts.type();
  if (!ir::is_int(t)) throw Unsupported{"'" + current_->opcode + "' is not imported"};
  expect_operands(4);
  const unsigned pos = field_operand(known_constant(operand(2)), current_->opcode);
  const unsigned len = field_operand(known_constant(operand(3)), current_->opcode);
  const unsigned msb = 8 * ir::size_bytes(t) - 1;
  const ir::ValueOperand a = value(operand(1), t);
  const Dest d = dest(operand(0), t);
  if (len == 0 || (pos > msb && !ir::is_signed_int(t))) {
    emit(Opcode::Mov, t, {d.name}, {op(number(0))});
  } else {
    const unsigned last = std::min(pos + len - 1, msb);
    const unsigned left = msb - last;
    const std::string shifted = fresh_temp();
    emit(Opcode::Shl, t, {shifted}, {op(a), op(number(left))});
    emit(Opcode::Shr, t, {d.name}, {op(reg(shifted)), op(number(left + std::min(pos, msb)))});
  }
  finish(d);
}

// bfi.T d, a, b, pos, len (PTX ISA): b with its bits pos .. pos+len-1 (those inside the word)
// replaced by a's low bits: (b & ~field) | ((a << pos) & field), field = the len' ones at pos
// where len' = min(len, msb + 1 - pos); b itself when len is 0 or pos is past msb.
void EntryTranslator::insert_bit_field(const OpcodeParts& parts) {
  using ir::Opcode;
  refuse_modifiers(parts, {});
  const ir::ScalarType t = parts.type();
  if (!ir::is_int(t)) throw Unsupported{"'" + current_->opcode + "' is not imported"};
  expect_operands(5);
  const unsigned pos = field_operand(known_constant(operand(3)), current_->opcode);
  const unsigned len = field_operand(known_constant(operand(4)), current_->opcode);
  const unsigned bits = 8 * ir::size_bytes(t);
  const ir::ValueOperand a = value(operand(1), t);
  const ir::ValueOperand b = value(operand(2), t);
  const Dest d = dest(operand(0), t);
  if (len == 0 || pos >= bits) {
    emit(Opcode::Mov, t, {d.name}, {op(b)});
  } else {
    const std::uint64_t field = (low_bits(std::min(len, bits - pos)) << pos) & low_bits(bits);
    const std::string kept = fresh_temp(), moved = fresh_temp(), placed = fresh_temp();
    emit(Opcode::And, t, {kept}, {op(b), op(number(~field & low_bits(bits)))});
    emit(Opcode::Shl, t, {moved}, {op(a), op(number(pos))});
    emit(Opcode::And, t, {placed}, {op(reg(moved)), op(number(field))});
    emit(Opcode::Or, t, {d.name}, {op(reg(kept)), op(reg(placed))});
  }
  finish(d);
}

// bmsk.mode.b32 d, a, b (PTX ISA): b ones from bit a, d = mask0 & ~mask1 with mask0 = ~0 << a
// and mask1 = ~0 << (a + b) (all ones when the width is 0; none when a + b passes bit 31).
// .wrap takes a and b modulo 32. .clamp makes mask0 0 from a = 32 (the IR's shl gives 0 for a
// shift of 32 or more, so a is shifted as it is) and mask1 none from b = 32, which a width of
// min(b, 32) does, since a & 31 plus 32 is past bit 31.
void EntryTranslator::bit_mask(const OpcodeParts& parts) {
  using ir::Opcode;
  using ir::ScalarType;
  refuse_modifiers(parts, {"clamp", "wrap"});
  const bool wrap = parts.has("wrap");
  if (wrap == parts.has("clamp") || parts.mods.empty() || parts.mods.back() != "b32") {
    throw Unsupported{"'" + current_->opcode +
                      "' is not imported (bmsk.clamp.b32 and bmsk.wrap.b32 are)"};
  }
  expect_operands(3);
  const ir::ValueOperand a = value(operand(1), ScalarType::U32);
  const ir::ValueOperand b = value(operand(2), ScalarType::U32);
  const std::string position = fresh_temp(), width = fresh_temp(), low = fresh_temp();
  const std::string end = fresh_temp(), above = fresh_temp(), empty = fresh_temp();
  const std::string upper = fresh_temp(), outside = fresh_temp();
  emit(Opcode::And, ScalarType::U32, {position}, {op(a), op(number(31))});
  emit(wrap ? Opcode::And : Opcode::Min, ScalarType::U32, {width},
       {op(b), op(number(wrap ? 31 : 32))});
  emit(Opcode::Shl, ScalarType::U32, {low},
       {op(number(0xffffffffu)), wrap ? op(reg(position)) : op(a)});
  emit(Opcode::Add, ScalarType::U32, {end}, {op(reg(position)), op(reg(width))});
  emit(Opcode::Shl, ScalarType::U32, {above}, {op(number(0xffffffffu)), op(reg(end))});
  emit(Opcode::Eq, ScalarType::U32, {empty}, {op(reg(width)), op(number(0))});
  emit(Opcode::Select, ScalarType::U32, {upper},
       {op(reg(empty)), op(number(0xffffffffu)), op(reg(above))});
  emit(Opcode::Not, ScalarType::U32, {outside}, {op(reg(upper))});
  const Dest d = dest(operand(0), ScalarType::U32);
  emit(Opcode::And, ScalarType::U32, {d.name}, {op(reg(low)), op(reg(outside))});
  finish(d);
}

}  // namespace warpsim::ptx
