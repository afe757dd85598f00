#include "sim/core/ir/parser.hpp"

#include "sim/core/ir/parse_parts.hpp"

namespace warpsim::ir {

std::optional<ScalarType> parse_type_word(TokenStream& ts) {
  const Token t = ts.peek();
  if (t.kind == TokenKind::Word) {
    if (auto type = parse_scalar_type(t.text)) {
      ts.next();
      return type;
    }
    ts.diags().error(
        t.loc, "unknown type " + quoted(t.text) + " (types: pred, s32, u32, s64, u64, f32, f64)");
    return std::nullopt;
  }
  ts.expect(TokenKind::Word, "a type");
  return std::nullopt;
}

namespace {

bool is_top_level_keyword(const Token& t) {
  return t.kind == TokenKind::Word &&
         (t.text == "kernel" || t.text == "launch" || t.text == "const");
}

class ModuleParser {
 public:
  ModuleParser(std::string_view source, Diagnostics& diags) : ts_(tokenize(source, diags), diags) {}

  Module run() {
    for (;;) {
      ts_.skip_blank_lines();
      if (ts_.at(TokenKind::End) || ts_.diags().error_limit_reached()) break;
      top_level();
    }
    return std::move(module_);
  }

 private:
  void top_level() {
    const Token t = ts_.peek();
    if (ts_.accept_word("kernel")) {
      kernel(t.loc);
    } else if (ts_.accept_word("launch")) {
      if (auto l = parse_launch(ts_, t.loc)) module_.launches.push_back(std::move(*l));
    } else if (ts_.accept_word("const")) {
      if (auto c = array_decl(Space::Const, t.loc)) module_.constants.push_back(std::move(*c));
    } else {
      ts_.error_here("expected 'kernel', 'launch' or 'const', found " + found_text(t));
      // Resynchronise at the next line that starts a top-level construct.
      do {
        ts_.skip_line();
      } while (!ts_.at(TokenKind::End) && !is_top_level_keyword(ts_.peek()));
    }
  }

  // NAME ':' TYPE SHAPE [= {literals}] for const; NAME ':' TYPE SHAPE for shared and local.
  std::optional<ArrayDecl> array_decl(Space space, SourceLoc loc) {
    ArrayDecl decl;
    decl.space = space;
    decl.loc = loc;
    auto name = ts_.expect(TokenKind::Word, "an array name");
    if (!name || !ts_.expect(TokenKind::Colon, "':'")) return recover();
    decl.name = std::string(name->text);
    auto type = parse_type_word(ts_);
    if (!type) return recover();
    decl.element = *type;
    if (!ts_.at(TokenKind::LBracket)) {
      ts_.expect(TokenKind::LBracket, "'[' starting the array's shape");
      return recover();
    }
    while (ts_.accept(TokenKind::LBracket)) {
      if (ts_.at(TokenKind::RBracket)) {
        decl.is_dynamic = true;
      } else {
        auto dim = ts_.int_product("an array dimension");
        if (!dim) return recover();
        decl.dims.push_back(*dim);
      }
      if (!ts_.expect(TokenKind::RBracket, "']'")) return recover();
    }
    if (space == Space::Const && ts_.accept(TokenKind::Equals)) {
      if (!initializer(decl)) return recover();
    }
    if (!ts_.expect_end_of_line()) return std::nullopt;
    return decl;
  }

  bool initializer(ArrayDecl& decl) {
    if (!ts_.expect(TokenKind::LBrace, "'{'")) return false;
    do {
      ts_.skip_blank_lines();
      auto lit = ts_.literal();
      if (!lit) return false;
      decl.init.push_back(*lit);
      ts_.skip_blank_lines();
    } while (ts_.accept(TokenKind::Comma));
    return ts_.expect(TokenKind::RBrace, "',' or '}'").has_value();
  }

  std::optional<ArrayDecl> recover() {
    ts_.skip_line();
    return std::nullopt;
  }

  void kernel(SourceLoc loc) {
    Kernel k;
    k.loc = loc;
    if (!kernel_header(k)) {
      // Without a header there is no body to find reliably; skip to the next construct.
      while (!ts_.at(TokenKind::End) && !is_top_level_keyword(ts_.peek())) ts_.skip_line();
      return;
    }
    kernel_body(k);
    module_.kernels.push_back(std::move(k));
  }

  bool kernel_header(Kernel& k) {
    auto name = ts_.expect(TokenKind::Word, "a kernel name");
    if (!name) return false;
    k.name = std::string(name->text);
    if (!ts_.expect(TokenKind::LParen, "'('")) return false;
    // A long parameter list may continue on the next line after '(' or ','.
    ts_.skip_blank_lines();
    if (!ts_.at(TokenKind::RParen)) {
      do {
        ts_.skip_blank_lines();
        auto p = param();
        if (!p) return false;
        k.params.push_back(std::move(*p));
      } while (ts_.accept(TokenKind::Comma));
    }
    if (!ts_.expect(TokenKind::RParen, "',' or ')'")) return false;
    if (ts_.accept_word("regs")) {
      if (!ts_.expect(TokenKind::LParen, "'('")) return false;
      auto regs = ts_.integer("a register count");
      if (!regs) return false;
      if (*regs > 0xffff) {
        ts_.error_here("register count " + std::to_string(*regs) + " is implausibly large");
        return false;
      }
      k.regs = static_cast<std::uint32_t>(*regs);
      if (!ts_.expect(TokenKind::RParen, "')'")) return false;
    }
    if (!ts_.expect(TokenKind::LBrace, "'{' opening the kernel body")) return false;
    return ts_.expect_end_of_line();
  }

  std::optional<KernelParam> param() {
    KernelParam p;
    auto name = ts_.expect(TokenKind::Word, "a parameter name");
    if (!name || !ts_.expect(TokenKind::Colon, "':'")) return std::nullopt;
    p.name = std::string(name->text);
    p.loc = name->loc;
    if (ts_.accept_word("ptr")) {
      if (!ts_.expect_word("global")) return std::nullopt;
      p.is_pointer = true;
    }
    auto type = parse_type_word(ts_);
    if (!type) return std::nullopt;
    p.type = *type;
    return p;
  }

  // Declarations, then labelled blocks, up to a '}' alone on its line.
  void kernel_body(Kernel& k) {
    for (;;) {
      ts_.skip_blank_lines();
      const Token t = ts_.peek();
      if (ts_.diags().error_limit_reached()) return;
      if (t.kind == TokenKind::End || is_top_level_keyword(t)) {
        ts_.diags().error(
            t.loc, "kernel '" + k.name + "' is not closed: expected '}' before " + found_text(t));
        ts_.diags().note(k.loc, "kernel '" + k.name + "' starts here");
        return;
      }
      if (ts_.accept(TokenKind::RBrace)) {
        ts_.expect_end_of_line();
        return;
      }
      body_line(k);
    }
  }

  void body_line(Kernel& k) {
    const Token t = ts_.peek();
    const bool is_decl = t.kind == TokenKind::Word && (t.text == "shared" || t.text == "local") &&
                         ts_.peek(1).kind == TokenKind::Word;
    if (is_decl) {
      ts_.next();
      if (!k.blocks.empty()) {
        ts_.diags().error(t.loc, "array declarations must come before the first block");
      }
      auto decl = array_decl(t.text == "shared" ? Space::Shared : Space::Local, t.loc);
      if (decl) k.arrays.push_back(std::move(*decl));
      return;
    }
    if (t.kind == TokenKind::Word && ts_.peek(1).kind == TokenKind::Colon) {
      ts_.next();
      ts_.next();
      k.blocks.push_back(BasicBlock{std::string(t.text), {}, t.loc});
      ts_.expect_end_of_line();
      return;
    }
    auto inst = parse_instruction(ts_);
    if (!inst) {
      ts_.skip_line();
      return;
    }
    if (k.blocks.empty()) {
      ts_.diags().error(inst->loc, "instruction before the first label (start with e.g. 'entry:')");
    } else {
      k.blocks.back().instructions.push_back(std::move(*inst));
    }
    ts_.expect_end_of_line();
  }

  TokenStream ts_;
  Module module_;
};

}  // namespace

Module parse(std::string_view source, Diagnostics& diags) {
  return ModuleParser(source, diags).run();
}

}  // namespace warpsim::ir
