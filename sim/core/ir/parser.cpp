#include "sim/core/ir/parser.hpp"

#include <algorithm>

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
         (t.text == "kernel" || t.text == "launch" || t.text == "const" || t.text == "global" ||
          t.text == "source");
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
    } else if (ts_.accept_word("global")) {
      if (auto g = array_decl(Space::Global, t.loc)) module_.globals.push_back(std::move(*g));
    } else if (ts_.accept_word("source")) {
      source_file();
    } else {
      ts_.error_here("expected 'kernel', 'launch', 'const', 'global' or 'source', found " +
                     found_text(t));
      // Resynchronise at the next line that starts a top-level construct.
      do {
        ts_.skip_line();
      } while (!ts_.at(TokenKind::End) && !is_top_level_keyword(ts_.peek()));
    }
  }

  // source N "path": the N-th CUDA source file that imported instructions name (N counts from 1,
  // in order).
  void source_file() {
    const Token at = ts_.peek();
    auto n = ts_.integer("the source file's number");
    if (!n) return void(recover());
    auto path = ts_.expect(TokenKind::String, "the file's path in quotes");
    if (!path) return void(recover());
    if (*n != module_.source_files.size() + 1) {
      ts_.diags().error(at.loc, "source files are numbered 1, 2, ... in order; expected " +
                                    std::to_string(module_.source_files.size() + 1) + ", found " +
                                    std::to_string(*n));
    }
    const std::string_view quoted_path = path->text;
    module_.source_files.emplace_back(quoted_path.substr(1, quoted_path.size() - 2));
    ts_.expect_end_of_line();
  }

  // NAME ':' TYPE SHAPE [= {literals}] for const and global; NAME ':' TYPE SHAPE for shared and
  // local.
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
        auto dim = ts_.int_expression("an array dimension");
        if (!dim) return recover();
        decl.dims.push_back(*dim);
      }
      if (!ts_.expect(TokenKind::RBracket, "']'")) return recover();
    }
    if (space == Space::Shared && ts_.at_word("align")) {
      const Token word = ts_.next();
      auto align = ts_.integer("an alignment in bytes");
      if (!align) return recover();
      if (*align == 0 || *align > kMaxArrayAlignment || (*align & (*align - 1)) != 0) {
        ts_.diags().error(word.loc, "an array's alignment is a power of two from 1 to " +
                                        std::to_string(kMaxArrayAlignment) + " bytes, not " +
                                        std::to_string(*align));
        return recover();
      }
      decl.align = static_cast<std::uint32_t>(*align);
    }
    if ((space == Space::Const || space == Space::Global) && ts_.accept(TokenKind::Equals)) {
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
    origin_ = {};
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
    while (!ts_.at(TokenKind::LBrace)) {
      if (!kernel_attribute(k)) return false;
    }
    ts_.next();
    return ts_.expect_end_of_line();
  }

  // regs(N), max_regs(N), launch_bounds(T[, B]) or cluster_dims(x[, y[, z]]) after the
  // parameter list, in any order.
  bool kernel_attribute(Kernel& k) {
    const Token t = ts_.peek();
    const std::string_view word = t.kind == TokenKind::Word ? t.text : std::string_view{};
    if (word != "regs" && word != "max_regs" && word != "launch_bounds" && word != "cluster_dims") {
      ts_.error_here(
          "expected '{' opening the kernel body, or regs(N), max_regs(N), launch_bounds(T[, B]) "
          "or cluster_dims(x[, y[, z]]), but found " +
          found_text(t));
      return false;
    }
    ts_.next();
    if (!ts_.expect(TokenKind::LParen, "'('")) return false;
    const std::size_t most = word == "launch_bounds" ? 2 : word == "cluster_dims" ? 3 : 1;
    std::vector<std::uint32_t> values;
    do {
      auto v = ts_.integer(word == "launch_bounds"  ? "a thread or block count"
                           : word == "cluster_dims" ? "a cluster dimension"
                                                    : "a register count");
      if (!v) return false;
      if (*v > 0xffff) {
        ts_.error_here(std::string(word) + ": " + std::to_string(*v) + " is implausibly large");
        return false;
      }
      values.push_back(static_cast<std::uint32_t>(*v));
    } while (values.size() < most && ts_.accept(TokenKind::Comma));
    if (!ts_.expect(TokenKind::RParen, "')'")) return false;
    const bool repeated = word == "regs"            ? k.regs.has_value()
                          : word == "max_regs"      ? k.max_regs.has_value()
                          : word == "launch_bounds" ? k.launch_bounds.has_value()
                                                    : k.cluster_dims.has_value();
    if (repeated) ts_.diags().error(t.loc, std::string(word) + " is given twice");
    if (word == "regs") k.regs = values[0];
    if (word == "max_regs") k.max_regs = values[0];
    if (word == "cluster_dims") {
      values.resize(3, 1);
      k.cluster_dims = Dim3{values[0], values[1], values[2]};
    }
    if (word == "launch_bounds") {
      k.launch_bounds = Kernel::LaunchBounds{values[0], values.size() > 1 ? values[1] : 0};
    }
    return true;
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
    if (t.kind == TokenKind::Word && t.text == "loc" && ts_.peek(1).kind == TokenKind::Number) {
      ts_.next();
      origin_statement();
      return;
    }
    if (t.kind == TokenKind::Word && t.text == "nounroll" &&
        ts_.peek(1).kind == TokenKind::Newline) {
      ts_.next();
      if (k.blocks.empty() || !k.blocks.back().instructions.empty()) {
        ts_.diags().error(t.loc, "nounroll belongs right after a block's label");
      } else {
        k.blocks.back().no_unroll = true;
      }
      ts_.expect_end_of_line();
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
    inst->origin = origin_;
    if (k.blocks.empty()) {
      ts_.diags().error(inst->loc, "instruction before the first label (start with e.g. 'entry:')");
    } else {
      k.blocks.back().instructions.push_back(std::move(*inst));
    }
    ts_.expect_end_of_line();
  }

  // loc FILE LINE [ptx LINE]: the CUDA source line (and PTX line) of the instructions that
  // follow, up to the next loc; `loc 0 0` says they have none.
  void origin_statement() {
    const Token at = ts_.peek();
    auto file = ts_.integer("a source file number");
    if (!file) return void(recover());
    auto line = ts_.integer("a source line");
    if (!line) return void(recover());
    std::uint64_t ptx_line = 0;
    if (ts_.accept_word("ptx")) {
      auto p = ts_.integer("a PTX line");
      if (!p) return void(recover());
      ptx_line = *p;
    }
    constexpr std::uint64_t kMax = 0xffffffffu;
    if (*file > module_.source_files.size()) {
      ts_.diags().error(at.loc, "no source file " + std::to_string(*file) + " (declare it first: " +
                                    "source " + std::to_string(*file) + " \"path\")");
    } else if (*line > kMax || ptx_line > kMax || (*file == 0) != (*line == 0)) {
      ts_.diags().error(at.loc, "a loc names a source file and a line (or 0 0 for none)");
    }
    origin_ = SourceOrigin{static_cast<std::uint32_t>(std::min(*file, kMax)),
                           static_cast<std::uint32_t>(std::min(*line, kMax)),
                           static_cast<std::uint32_t>(std::min(ptx_line, kMax))};
    ts_.expect_end_of_line();
  }

  TokenStream ts_;
  Module module_;
  SourceOrigin origin_;
};

}  // namespace

Module parse(std::string_view source, Diagnostics& diags) {
  return ModuleParser(source, diags).run();
}

}  // namespace warpsim::ir
