// Reads one instruction: destinations, the dotted opcode with its modifiers, and operands.
#include <limits>
#include <string>
#include <vector>

#include "sim/core/ir/parse_parts.hpp"

namespace warpsim::ir {
namespace {

std::vector<std::string_view> split_dots(std::string_view text) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = text.find('.', start);
    parts.push_back(text.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) return parts;
    start = dot + 1;
  }
}

class InstructionParser {
 public:
  explicit InstructionParser(TokenStream& ts) : ts_(ts) {}

  std::optional<Instruction> run() {
    inst_.loc = ts_.peek().loc;
    if (!dests()) return std::nullopt;
    const Token op = ts_.peek();
    if (op.kind != TokenKind::Word) {
      ts_.expect(TokenKind::Word, "an opcode");
      return std::nullopt;
    }
    ts_.next();
    if (!opcode(op)) return std::nullopt;
    if (!operands()) return std::nullopt;
    // bar.sync ID, COUNT: a named barrier, a row of its own in the opcode table.
    if (inst_.opcode == Opcode::BarSync && !inst_.operands.empty()) inst_.opcode = Opcode::BarNamed;
    return std::move(inst_);
  }

 private:
  // '%d =' or '{%a, %b} =', or nothing when the line starts with the opcode.
  bool dests() {
    if (ts_.at(TokenKind::Register) && ts_.peek(1).kind == TokenKind::Equals) {
      if (!reg_def()) return false;
      ts_.next();
      return true;
    }
    if (!ts_.accept(TokenKind::LBrace)) return true;
    do {
      if (!reg_def()) return false;
    } while (ts_.accept(TokenKind::Comma));
    return ts_.expect(TokenKind::RBrace, "',' or '}'") && ts_.expect(TokenKind::Equals, "'='");
  }

  bool reg_def() {
    auto reg = ts_.expect(TokenKind::Register, "a destination register");
    if (!reg) return false;
    const std::string_view name = reg->text.substr(1);
    if (parse_special_reg(name) || name.find('.') != std::string_view::npos) {
      ts_.diags().error(reg->loc, "cannot assign to special register " + quoted(reg->text));
      return false;
    }
    inst_.dests.push_back(RegDef{std::string(name), reg->loc});
    return true;
  }

  bool opcode(const Token& tok) {
    const auto parts = split_dots(tok.text);
    std::size_t used = 1;
    std::optional<Opcode> op;
    if (parts.size() >= 2) op = find_opcode(std::string(parts[0]) + "." + std::string(parts[1]));
    if (op) {
      used = 2;
    } else {
      op = find_opcode(parts[0]);
    }
    if (!op) {
      ts_.diags().error(tok.loc, "unknown opcode " + quoted(parts[0]));
      return false;
    }
    inst_.opcode = *op;
    mods_ = std::vector<std::string_view>(parts.begin() + static_cast<std::ptrdiff_t>(used),
                                          parts.end());
    op_loc_ = tok.loc;
    op_text_ = tok.text;
    return modifiers();
  }

  bool modifiers() {
    switch (opcode_info(inst_.opcode).modifiers) {
      case ModifierPattern::None:
        return count(0, "takes no suffix");
      case ModifierPattern::Type:
        // A rounding before the type: fma.rm.f32 (the verifier says which instructions take one).
        if (mods_.size() == 2 && parse_rounding(mods_[0])) {
          inst_.rounding = *parse_rounding(mods_[0]);
          return type(mods_[1], inst_.type);
        }
        return count(1, "needs one type suffix, e.g. add.s32") && type(mods_[0], inst_.type);
      case ModifierPattern::TypePair:
        return type_pair();
      case ModifierPattern::SpaceType:
        return space_type();
      case ModifierPattern::AtomicType:
        return count(3, "needs a space, an operation and a type, e.g. atom.global.add.s32") &&
               space(mods_[0]) &&
               pick(parse_atomic_op(mods_[1]), inst_.atomic_op, "atomic operation", mods_[1]) &&
               type(mods_[2], inst_.type);
      case ModifierPattern::ShuffleType:
        return count(2, "needs a mode and a type, e.g. shfl.xor.s32") &&
               pick(parse_shuffle_mode(mods_[0]), inst_.shuffle_mode, "shuffle mode", mods_[0]) &&
               type(mods_[1], inst_.type);
      case ModifierPattern::ReduceType:
        return count(2, "needs an operation and a type, e.g. redux.sync.add.u32") &&
               pick(parse_atomic_op(mods_[0]), inst_.atomic_op, "reduction", mods_[0]) &&
               type(mods_[1], inst_.type);
      case ModifierPattern::BarrierReduction:
        return count(1, "needs an operation: bar.red.popc, bar.red.and or bar.red.or") &&
               pick(parse_barrier_reduction(mods_[0]), inst_.vote_mode, "barrier reduction",
                    mods_[0]);
      case ModifierPattern::Vote:
        return count(1, "needs a mode: vote.ballot, vote.any or vote.all") &&
               pick(parse_vote_mode(mods_[0]), inst_.vote_mode, "vote mode", mods_[0]);
    }
    return false;
  }

  // cvt: [.rounding].dst.src, either type may be a 16-bit float (f16, bf16) held in a u32.
  bool type_pair() {
    if (mods_.size() == 3 && parse_rounding(mods_[0])) {
      inst_.rounding = *parse_rounding(mods_[0]);
      mods_.erase(mods_.begin());
    }
    if (!count(2, "needs a destination and a source type, e.g. cvt.f32.s32")) return false;
    return half_or_type(mods_[0], inst_.type) && half_or_type(mods_[1], inst_.source_type);
  }

  bool half_or_type(std::string_view text, ScalarType& out) {
    if (const auto half = parse_half_format(text)) {
      if (inst_.half != HalfFormat::None) {
        ts_.diags().error(op_loc_, quoted(op_text_) + ": only one side of a cvt is a 16-bit float");
        return false;
      }
      inst_.half = *half;
      out = ScalarType::U32;
      return true;
    }
    return type(text, out);
  }

  // ld/st: .space[.v2|.v4].type
  bool space_type() {
    if (mods_.size() != 2 && mods_.size() != 3) {
      return count(2, "needs a space and a type, e.g. ld.global.f32 or ld.shared.v4.f32");
    }
    if (!space(mods_[0])) return false;
    if (mods_.size() == 3) {
      if (mods_[1] == "v2") {
        inst_.vector_width = 2;
      } else if (mods_[1] == "v4") {
        inst_.vector_width = 4;
      } else {
        return bad("vector width", mods_[1], " (v2 or v4)");
      }
    }
    if (const auto narrow = parse_narrow_type(mods_.back())) {
      inst_.type = narrow->type;
      inst_.narrow_bytes = narrow->bytes;
      return true;
    }
    return type(mods_.back(), inst_.type);
  }

  bool count(std::size_t n, const char* what) {
    if (mods_.size() == n) return true;
    ts_.diags().error(op_loc_,
                      quoted(op_text_) + ": '" + std::string(spelling(inst_.opcode)) + "' " + what);
    return false;
  }

  bool type(std::string_view text, ScalarType& out) {
    return pick(parse_scalar_type(text), out, "type", text);
  }
  bool space(std::string_view text) {
    return pick(parse_space(text), inst_.space, "memory space", text);
  }

  template <typename T>
  bool pick(std::optional<T> parsed, T& out, const char* what, std::string_view text) {
    if (!parsed) return bad(what, text, "");
    out = *parsed;
    return true;
  }

  bool bad(const char* what, std::string_view text, const char* hint) {
    ts_.diags().error(op_loc_, "unknown " + std::string(what) + " " + quoted(text) + " in " +
                                   quoted(op_text_) + hint);
    return false;
  }

  bool operands() {
    if (ts_.at(TokenKind::Newline) || ts_.at(TokenKind::End)) return true;
    const std::string_view sig = opcode_info(inst_.opcode).signature;
    do {
      const std::size_t index = inst_.operands.size();
      const bool label_expected = index < sig.size() && sig[index] == 'L';
      auto operand = parse_operand(label_expected);
      if (!operand) return false;
      inst_.operands.push_back(std::move(*operand));
    } while (ts_.accept(TokenKind::Comma));
    return true;
  }

  std::optional<Operand> parse_operand(bool label_expected) {
    const Token t = ts_.peek();
    if (ts_.accept(TokenKind::LBrace)) {
      RegList list;
      do {
        auto v = value();
        if (!v) return std::nullopt;
        list.elements.push_back(std::move(*v));
      } while (ts_.accept(TokenKind::Comma));
      if (!ts_.expect(TokenKind::RBrace, "',' or '}'")) return std::nullopt;
      return Operand{std::move(list), t.loc};
    }
    if (t.kind == TokenKind::LBracket) return address_ref();
    const bool is_name = t.kind == TokenKind::Word && t.text != "inf" && t.text != "nan";
    if (is_name) {
      const TokenKind after = ts_.peek(1).kind;
      if (after == TokenKind::LBracket || after == TokenKind::At) return memref();
      ts_.next();
      if (label_expected) return Operand{LabelRef{std::string(t.text)}, t.loc};
      return Operand{ValueOperand{ParamRef{std::string(t.text)}, t.loc}, t.loc};
    }
    auto v = value();
    if (!v) return std::nullopt;
    return Operand{std::move(*v), t.loc};
  }

  std::optional<Operand> memref() {
    const Token name = ts_.next();
    MemRef ref;
    ref.array = std::string(name.text);
    if (ts_.accept(TokenKind::At)) {
      auto rank = value();
      if (!rank) return std::nullopt;
      ref.rank = std::move(*rank);
    }
    if (!ts_.at(TokenKind::LBracket)) {
      ts_.expect(TokenKind::LBracket, "'[' and an index");
      return std::nullopt;
    }
    while (ts_.accept(TokenKind::LBracket)) {
      auto index = value();
      if (!index || !ts_.expect(TokenKind::RBracket, "']'")) return std::nullopt;
      ref.indices.push_back(std::move(*index));
    }
    return Operand{std::move(ref), name.loc};
  }

  // [base], [base+N] or [base-N]: a byte address, as PTX writes one.
  std::optional<Operand> address_ref() {
    const Token open = ts_.next();
    MemRef ref;
    auto base = value();
    if (!base) return std::nullopt;
    ref.indices.push_back(std::move(*base));
    const bool plus = ts_.at(TokenKind::Plus);
    if (plus || ts_.at(TokenKind::Minus)) {
      ts_.next();
      auto n = ts_.integer("a byte displacement");
      if (!n) return std::nullopt;
      if (*n > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        ts_.diags().error(open.loc, "displacement " + std::to_string(*n) + " is too large");
        return std::nullopt;
      }
      ref.displacement = plus ? static_cast<std::int64_t>(*n) : -static_cast<std::int64_t>(*n);
    }
    if (!ts_.expect(TokenKind::RBracket, "']'")) return std::nullopt;
    return Operand{std::move(ref), open.loc};
  }

  // A register, special register, scalar parameter or literal.
  std::optional<ValueOperand> value() {
    const Token t = ts_.peek();
    if (t.kind == TokenKind::Register) {
      ts_.next();
      const std::string_view name = t.text.substr(1);
      if (auto special = parse_special_reg(name)) return ValueOperand{*special, t.loc};
      if (name.find('.') != std::string_view::npos) {
        ts_.diags().error(t.loc, "unknown special register " + quoted(t.text));
        return std::nullopt;
      }
      return ValueOperand{RegRef{std::string(name)}, t.loc};
    }
    if (t.kind == TokenKind::Word && t.text != "inf" && t.text != "nan") {
      ts_.next();
      return ValueOperand{ParamRef{std::string(t.text)}, t.loc};
    }
    if (t.kind == TokenKind::Number || t.kind == TokenKind::Minus || t.kind == TokenKind::Word) {
      auto lit = ts_.literal();
      if (!lit) return std::nullopt;
      if (auto* i = std::get_if<IntLiteral>(&*lit)) return ValueOperand{*i, t.loc};
      return ValueOperand{std::get<FloatLiteral>(*lit), t.loc};
    }
    ts_.expect(TokenKind::Register, "an operand");
    return std::nullopt;
  }

  TokenStream& ts_;
  Instruction inst_;
  std::vector<std::string_view> mods_;
  SourceLoc op_loc_;
  std::string_view op_text_;
};

}  // namespace

std::optional<Instruction> parse_instruction(TokenStream& ts) {
  return InstructionParser(ts).run();
}

}  // namespace warpsim::ir
