// Reads a launch block: the default configuration and arguments of one kernel.
#include <filesystem>
#include <string>

#include "sim/core/ir/parse_parts.hpp"

namespace warpsim::ir {
namespace {

class LaunchParser {
 public:
  LaunchParser(TokenStream& ts, SourceLoc loc) : ts_(ts) { launch_.loc = loc; }

  std::optional<Launch> run() {
    if (!header() || !body()) {
      skip_block();
      return std::nullopt;
    }
    return std::move(launch_);
  }

 private:
  bool header() {
    // A kernel's C++ name, quoted, where it is not a word: launch "reduce6<256>" (a launch file
    // of a .cu file; the importer finds the kernel by it).
    if (ts_.at(TokenKind::String)) {
      const Token quoted = ts_.next();
      launch_.kernel = std::string(quoted.text.substr(1, quoted.text.size() - 2));
    } else {
      auto kernel = ts_.expect(TokenKind::Word, "the name of the kernel to launch");
      if (!kernel) return false;
      launch_.kernel = std::string(kernel->text);
      if (ts_.at(TokenKind::Colon)) {
        ts_.error_here("a C++ kernel name with its namespace is written in quotes: launch \"" +
                       launch_.kernel + "::...\"");
        return false;
      }
    }
    launch_.name = launch_.kernel;
    if (ts_.accept_word("as")) {
      auto name = ts_.expect(TokenKind::Word, "a name for this launch");
      if (!name) return false;
      launch_.name = std::string(name->text);
    }
    bool has_grid = false, has_block = false;
    while (ts_.at(TokenKind::Word)) {
      const Token attr = ts_.next();
      bool ok = true;
      if (attr.text == "grid") {
        ok = dims(launch_.grid, has_grid, attr);
      } else if (attr.text == "block") {
        ok = dims(launch_.block, has_block, attr);
      } else if (attr.text == "cluster") {
        bool seen = false;
        ok = dims(launch_.cluster, seen, attr);
      } else if (attr.text == "dynamic_smem") {
        auto bytes = ts_.expect(TokenKind::LParen, "'('") ? ts_.int_expression("a byte count")
                                                          : std::nullopt;
        ok = bytes && ts_.expect(TokenKind::RParen, "')'");
        if (ok) launch_.dynamic_smem = *bytes;
      } else {
        ts_.diags().error(attr.loc, "unknown launch attribute " + quoted(attr.text) +
                                        " (grid, block, cluster, dynamic_smem)");
        return false;
      }
      if (!ok) return false;
    }
    if (!ts_.expect(TokenKind::LBrace, "'{' opening the launch arguments")) return false;
    if (!has_grid || !has_block) {
      ts_.diags().error(launch_.loc, "launch of '" + launch_.kernel + "' needs " +
                                         (has_grid ? "block(...)" : "grid(...)"));
      return false;
    }
    return ts_.expect_end_of_line();
  }

  // '(' x [',' y [',' z]] ')'; each a positive integer product.
  bool dims(Dim3& out, bool& seen, const Token& attr) {
    if (seen) {
      ts_.diags().error(attr.loc, "duplicate " + quoted(attr.text) + " in launch");
      return false;
    }
    seen = true;
    if (!ts_.expect(TokenKind::LParen, "'('")) return false;
    std::uint64_t* slots[3] = {&out.x, &out.y, &out.z};
    std::size_t n = 0;
    do {
      if (n == 3) {
        ts_.error_here("at most three dimensions (x, y, z)");
        return false;
      }
      auto v = ts_.int_expression("a dimension");
      if (!v) return false;
      *slots[n++] = *v;
    } while (ts_.accept(TokenKind::Comma));
    return ts_.expect(TokenKind::RParen, "',' or ')'").has_value();
  }

  bool body() {
    for (;;) {
      ts_.skip_blank_lines();
      if (ts_.accept(TokenKind::RBrace)) return ts_.expect_end_of_line();
      if (ts_.at(TokenKind::End) || ts_.at_word("kernel") || ts_.at_word("launch")) {
        ts_.error_here("launch of '" + launch_.kernel + "' is not closed: expected '}'");
        return false;
      }
      if (!arg()) ts_.skip_line();
    }
  }

  bool arg() {
    auto name = ts_.expect(TokenKind::Word, "an argument name");
    if (!name || !ts_.expect(TokenKind::Equals, "'='")) return false;
    LaunchArg a;
    a.name = std::string(name->text);
    a.loc = name->loc;
    const bool is_buffer = ts_.at(TokenKind::Word) && ts_.peek(1).kind == TokenKind::LBracket;
    if (is_buffer) {
      auto buffer = buffer_spec();
      if (!buffer) return false;
      a.value = *buffer;
    } else {
      auto lit = ts_.literal();
      if (!lit) return false;
      a.value = *lit;
    }
    launch_.args.push_back(std::move(a));
    return ts_.expect_end_of_line();
  }

  // A buffer's element type: the IR's scalar types, and the narrower ones memory may hold.
  std::optional<BufferType> buffer_type_word() {
    const Token t = ts_.peek();
    if (t.kind != TokenKind::Word) {
      ts_.expect(TokenKind::Word, "a type");
      return std::nullopt;
    }
    const auto type = parse_buffer_type(t.text);
    if (!type) {
      ts_.diags().error(t.loc, "unknown type " + quoted(t.text) +
                                   " (buffer types: s32, u32, s64, u64, f32, f64, and the "
                                   "narrower u8, s8, u16, s16, f16, bf16)");
      return std::nullopt;
    }
    ts_.next();
    return type;
  }

  // TYPE '[' count ']' ( zero | uninit | iota | constant(v) | random(seed = N [, min = a, max = b])
  // )
  std::optional<BufferSpec> buffer_spec() {
    BufferSpec spec;
    auto type = buffer_type_word();
    if (!type || !ts_.expect(TokenKind::LBracket, "'['")) return std::nullopt;
    spec.element = type->element;
    spec.storage = type->storage;
    auto count = ts_.int_expression("an element count");
    if (!count || !ts_.expect(TokenKind::RBracket, "']'")) return std::nullopt;
    spec.count = *count;
    const Token init = ts_.peek();
    if (ts_.accept_word("zero")) {
      spec.init = BufferInit::Zero;
    } else if (ts_.accept_word("uninit")) {
      spec.init = BufferInit::Uninitialised;
    } else if (ts_.accept_word("iota")) {
      spec.init = BufferInit::Iota;
    } else if (ts_.accept_word("constant")) {
      spec.init = BufferInit::Constant;
      if (!ts_.expect(TokenKind::LParen, "'('")) return std::nullopt;
      auto v = ts_.literal();
      if (!v || !ts_.expect(TokenKind::RParen, "')'")) return std::nullopt;
      spec.value = *v;
    } else if (ts_.accept_word("random")) {
      spec.init = BufferInit::Random;
      if (!random_args(spec)) return std::nullopt;
    } else if (ts_.accept_word("sorted")) {
      spec.init = BufferInit::Sorted;
      if (!random_args(spec)) return std::nullopt;
    } else if (ts_.accept_word("permutation")) {
      spec.init = BufferInit::Permutation;
      if (!random_args(spec)) return std::nullopt;
      if (spec.min || spec.max) {
        ts_.diags().error(init.loc, "a permutation takes a seed only (it holds 0 to count - 1)");
      }
    } else if (ts_.accept_word("file")) {
      spec.init = BufferInit::File;
      if (!file_args(spec)) return std::nullopt;
    } else if (ts_.accept_word("result")) {
      // result(LAUNCH, BUFFER): what an earlier launch block left in its buffer.
      spec.init = BufferInit::Result;
      if (!ts_.expect(TokenKind::LParen, "'('")) return std::nullopt;
      auto from = ts_.expect(TokenKind::Word, "the name of an earlier launch");
      if (!from || !ts_.expect(TokenKind::Comma, "','")) return std::nullopt;
      auto buffer = ts_.expect(TokenKind::Word, "the name of its buffer");
      if (!buffer || !ts_.expect(TokenKind::RParen, "')'")) return std::nullopt;
      spec.launch = std::string(from->text);
      spec.buffer = std::string(buffer->text);
    } else {
      ts_.diags().error(init.loc,
                        "expected a buffer initialiser (zero, uninit, iota, constant(v), "
                        "random(seed = n), sorted(seed = n), permutation(seed = n), "
                        "file(\"path\"), result(launch, buffer)), found " +
                            found_text(init));
      return std::nullopt;
    }
    return spec;
  }

  // file("path"): a relative path is relative to the file holding the launch block.
  bool file_args(BufferSpec& spec) {
    if (!ts_.expect(TokenKind::LParen, "'('")) return false;
    auto path = ts_.expect(TokenKind::String, "the file's path in quotes");
    if (!path || !ts_.expect(TokenKind::RParen, "')'")) return false;
    const std::filesystem::path written(std::string(path->text.substr(1, path->text.size() - 2)));
    spec.file = written.is_absolute()
                    ? written.string()
                    : (std::filesystem::path(ts_.diags().file()).parent_path() / written).string();
    return true;
  }

  // '(' seed = N [, min = a] [, max = b] ')': either bound may be left out (its default is the
  // type's: 0 and 1 for floats, 0 and 100 for integers).
  bool random_args(BufferSpec& spec) {
    if (!ts_.expect(TokenKind::LParen, "'('") || !ts_.expect_word("seed") ||
        !ts_.expect(TokenKind::Equals, "'='")) {
      return false;
    }
    auto seed = ts_.integer("a seed");
    if (!seed) return false;
    spec.seed = *seed;
    while (ts_.accept(TokenKind::Comma)) {
      const Token bound = ts_.peek();
      std::optional<Literal>* slot = bound.kind != TokenKind::Word ? nullptr
                                     : bound.text == "min"         ? &spec.min
                                     : bound.text == "max"         ? &spec.max
                                                                   : nullptr;
      if (slot == nullptr) {
        ts_.error_here("expected 'min = VALUE' or 'max = VALUE'");
        return false;
      }
      if (slot->has_value()) {
        ts_.diags().error(bound.loc, "duplicate " + quoted(bound.text) + " in the random range");
        return false;
      }
      ts_.next();
      if (!ts_.expect(TokenKind::Equals, "'='")) return false;
      *slot = ts_.literal();
      if (!slot->has_value()) return false;
    }
    return ts_.expect(TokenKind::RParen, "',' or ')'").has_value();
  }

  // After an error, skip to the line holding the block's closing '}'.
  void skip_block() {
    while (!ts_.at(TokenKind::End) && !ts_.at_word("kernel") && !ts_.at_word("launch")) {
      const bool closing = ts_.at(TokenKind::RBrace);
      ts_.skip_line();
      if (closing) return;
    }
  }

  TokenStream& ts_;
  Launch launch_;
};

}  // namespace

std::optional<Launch> parse_launch(TokenStream& ts, SourceLoc loc) {
  return LaunchParser(ts, loc).run();
}

}  // namespace warpsim::ir
