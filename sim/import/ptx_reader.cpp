#include "sim/import/ptx_reader.hpp"

#include <charconv>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/import/ptx_cursor.hpp"

namespace warpsim::ptx {
namespace {

class Reader : TokenCursor {
 public:
  explicit Reader(std::string_view text) : TokenCursor(text) {}

  Module run() {
    while (!at_end()) top_level();
    return std::move(module_);
  }

 private:
  // --- module level -------------------------------------------------------------------------
  void top_level() {
    const Token& t = peek();
    if (t.text == ".version" || t.text == ".address_size") return skip_line_of(next());
    if (t.text == ".target") {
      next();
      module_.target = std::string(expect_name("a target such as sm_90").text);
      return skip_line_of(t);
    }
    if (t.text == ".file") return file_directive();
    if (t.text == ".section") {
      next();
      expect_name("a section name");
      return skip_braced();
    }
    bool is_extern = false;
    while (at(".visible") || at(".weak") || at(".extern") || at(".common")) {
      is_extern = is_extern || at(".extern");
      next();
    }
    if (at(".entry")) return entry();
    if (at(".func")) return function(is_extern);
    if (at(".global") || at(".const") || at(".shared")) {
      module_.variables.push_back(variable(is_extern));
      return;
    }
    fail(t, "expected a PTX directive (.entry, .func, .global, ...), found " + found(t));
  }

  void file_directive() {
    const Token& start = next();
    const auto index = static_cast<std::uint32_t>(expect_unsigned("a file number"));
    if (peek().kind != TokenKind::String) fail(peek(), "expected the file's name in quotes");
    const std::string_view quoted = next().text;
    module_.files.emplace_back(index, std::string(quoted.substr(1, quoted.size() - 2)));
    skip_line_of(start);  // an optional timestamp and size
  }

  // .func [(return params)] name [(params)] [.noreturn] { body } or ;. A body that cannot be
  // read is skipped, and the function refused only where a kernel calls it.
  void function(bool is_extern) {
    next();  // .func
    Function f;
    if (accept("(")) f.returns = parameter_list();
    const Token& name = expect_name("a function name");
    f.definition.name = std::string(name.text);
    f.definition.line = name.line;
    if (accept("(")) f.definition.params = parameter_list();
    while (peek().kind == TokenKind::Name && peek().text.starts_with(".")) next();
    if (accept(";") || is_extern) {
      module_.functions.push_back(std::move(f));
      return;
    }
    if (const auto error = braced_body(f.definition)) {
      f.unreadable = "line " + std::to_string(error->line) + ": " + error->message;
    } else {
      f.has_body = true;
    }
    module_.functions.push_back(std::move(f));
  }

  // `{ body }` into `e`; where it cannot be read, why, with the body left empty and the cursor
  // past its closing brace, so that the rest of the module is still read.
  std::optional<ReadError> braced_body(Entry& e) {
    const std::size_t start = position();
    try {
      expect("{");
      body(e);
      return std::nullopt;
    } catch (const CursorFailure& failure) {
      e.body.clear();
      e.call_params.clear();
      scopes_.clear();
      rewind(start);
      skip_braced();
      return failure.error;
    }
  }

  // `.param ... a, .param ... b )`, the '(' read already.
  std::vector<Param> parameter_list() {
    std::vector<Param> params;
    while (!accept(")")) {
      if (!params.empty()) expect(",");
      params.push_back(param());
    }
    return params;
  }

  void skip_parenthesised() {
    expect("(");
    int depth = 1;
    while (depth > 0) {
      if (at_end()) fail(peek(), "a '(' is never closed");
      const Token& t = next();
      if (t.text == "(") ++depth;
      if (t.text == ")") --depth;
    }
  }

  // .shared .align 4 .b8 name[4096];  .const .align 4 .f32 c[4] = {...};  .global .u32 x;
  VariableDecl variable(bool is_extern) {
    VariableDecl v;
    v.is_extern = is_extern;
    v.line = peek().line;
    v.space = std::string(next().text);
    for (;;) {
      if (accept(".align")) {
        v.align = expect_unsigned("an alignment");
      } else if (peek().kind == TokenKind::Name && peek().text.starts_with(".") &&
                 peek(1).kind == TokenKind::Name) {
        v.type = std::string(next().text);
      } else {
        break;
      }
    }
    if (v.type.empty()) fail(peek(), "expected the variable's type, such as .b8 or .f32");
    v.name = std::string(expect_name("a variable name").text);
    while (accept("[")) {
      if (accept("]")) {
        v.elements = 0;
        continue;
      }
      v.elements *= expect_unsigned("an array size");
      expect("]");
    }
    if (accept("=")) {
      v.has_initializer = true;
      initializer(v);
    }
    expect(";");
    return v;
  }

  void initializer(VariableDecl& v) {
    const bool braced = accept("{");
    do {
      if (at("{")) fail(peek(), "nested initialisers are not imported");
      const bool negative = accept("-");
      const Token& t = peek();
      if (t.kind == TokenKind::Name && !negative) {
        fail(t, "an address as an initial value (" + found(t) +
                    ": a table of function or variable pointers) is not imported");
      }
      if (t.kind != TokenKind::Number) fail(t, "expected an initial value, found " + found(t));
      const Immediate imm = number(next(), negative);
      v.initializer.push_back(imm.bits);
    } while (braced && accept(","));
    if (braced) expect("}");
  }

  void entry() {
    next();  // .entry
    Entry e;
    const Token& name = expect_name("a kernel name");
    e.name = std::string(name.text);
    e.line = name.line;
    if (accept("(")) e.params = parameter_list();
    // Performance directives before the body.
    while (peek().kind == TokenKind::Name && peek().text.starts_with(".")) {
      const Token& d = next();
      if (d.text == ".maxnreg") {
        e.maxnreg = bounded_count(d, "a register count");
      } else if (d.text == ".maxntid") {
        // Up to three dimensions; the bound is their product.
        std::uint64_t threads = bounded_count(d, "a thread count");
        while (accept(",")) threads *= bounded_count(d, "a thread count");
        if (threads > 1024) fail(d, ".maxntid allows more than 1024 threads a block");
        e.maxntid = static_cast<std::uint32_t>(threads);
      } else if (d.text == ".reqnctapercluster") {
        std::array<std::uint32_t, 3> dims = {1, 1, 1};
        dims[0] = bounded_count(d, "a cluster dimension");
        for (std::size_t i = 1; i < 3 && accept(","); ++i)
          dims[i] = bounded_count(d, "a cluster dimension");
        e.reqnctapercluster = dims;
      } else if (d.text == ".explicitcluster") {
        // Says only that the cluster shape is the kernel's own (.reqnctapercluster gives it).
      } else if (d.text == ".minnctapersm") {
        e.minnctapersm = bounded_count(d, "a block count");
      } else if (d.text == ".pragma") {
        skip_statement();
      } else {
        // .reqntid, .maxnctapersm, .explicitcluster, .reqnctapercluster, .maxclusterrank, ...
        e.unsupported_directives.push_back({std::string(d.text), d.line, d.column});
        while (peek().kind == TokenKind::Number || at(",")) next();
      }
    }
    if (const auto error = braced_body(e))
      e.unreadable = Directive{error->message, error->line, error->column};
    module_.entries.push_back(std::move(e));
  }

  Param param() {
    expect(".param");
    Param p;
    p.line = peek().line;
    for (;;) {
      if (accept(".align")) {
        p.align = expect_unsigned("an alignment");
      } else if (accept(".ptr") || accept(".global") || accept(".shared") || accept(".const") ||
                 accept(".local")) {
        if (peek().kind == TokenKind::Number) next();
      } else {
        break;
      }
    }
    p.type = std::string(expect_name("a parameter type").text);
    p.name = std::string(expect_name("a parameter name").text);
    if (accept("[")) {
      p.is_array = true;
      p.elements = expect_unsigned("an array size");
      expect("]");
    }
    return p;
  }

  // A directive's count, 1 to 65535.
  std::uint32_t bounded_count(const Token& directive, const char* what) {
    const Token& at = peek();
    const std::uint64_t v = expect_unsigned(what);
    if (v == 0 || v > 0xffff) {
      fail(at, std::string(directive.text) + " " + std::to_string(v) + " is not " + what);
    }
    return static_cast<std::uint32_t>(v);
  }

  // `.pragma "nounroll";` right after a label marks that block; other pragmas change nothing
  // the IR models (ptxas's own options), so they are read past.
  void pragma(Entry& e) {
    const Token& start = next();
    if (peek().kind == TokenKind::String && peek().text == "\"nounroll\"") {
      auto* label = e.body.empty() ? nullptr : std::get_if<Label>(&e.body.back());
      if (label == nullptr) fail(start, "a nounroll pragma is imported right after a label only");
      label->no_unroll = true;
    }
    skip_statement();
  }

  // --- kernel body --------------------------------------------------------------------------
  void body(Entry& e) {
    int depth = 1;
    while (depth > 0) {
      const Token& t = peek();
      if (t.kind == TokenKind::End) fail(t, "kernel '" + e.name + "' is never closed");
      if (accept("{")) {
        ++depth;
        scopes_.push_back(Scope{++scope_serial_, {}});
      } else if (accept("}")) {
        --depth;
        if (!scopes_.empty()) scopes_.pop_back();
      } else if (t.text == ".loc") {
        loc(e);
      } else if (t.text == ".reg" || t.text.starts_with(".reg.")) {
        registers(e);
      } else if (t.text == ".shared" || t.text == ".local" || t.text == ".const") {
        e.variables.push_back(variable(false));
      } else if (t.text == ".pragma") {
        pragma(e);
      } else if (t.kind == TokenKind::Name && peek(1).text == ":") {
        e.body.emplace_back(Label{std::string(next().text), t.line});
        next();
      } else if (t.text == ".param") {
        if (scopes_.empty()) fail(t, "a '.param' outside a call sequence's { } is not imported");
        e.call_params.push_back(param());
        expect(";");
      } else if (t.text.starts_with("call")) {
        e.body.emplace_back(call_instruction());
      } else if (t.kind == TokenKind::Name && t.text.starts_with(".")) {
        fail(t, "the directive " + found(t) + " inside a kernel is not imported");
      } else {
        e.body.emplace_back(instruction());
      }
    }
  }

  // call[.uni] [(r, ...),] f [, (a, ...)]; as an Instruction "call" with operands: the callee
  // (a Symbol), then the return and the argument parameters' names (VectorOperands).
  Instruction call_instruction() {
    Instruction inst;
    inst.line = peek().line;
    inst.column = peek().column;
    inst.origin = origin_;
    next();  // call, call.uni
    inst.opcode = "call";
    VectorOperand returns, arguments;
    if (accept("(")) {
      do {
        returns.elements.push_back(Register{std::string(expect_name("a return parameter").text)});
      } while (accept(","));
      expect(")");
      expect(",");
    }
    const Token& callee = expect_name("the called function");
    if (callee.text.starts_with("%"))
      fail(callee, "a call through a function pointer is not imported");
    if (accept(",")) {
      expect("(");
      if (!accept(")")) {
        do {
          arguments.elements.push_back(Register{std::string(expect_name("an argument").text)});
        } while (accept(","));
        expect(")");
      }
    }
    if (!at(";")) fail(peek(), "a call with a prototype or a list of targets is not imported");
    expect(";");
    inst.operands = {Symbol{std::string(callee.text)}, returns, arguments};
    return inst;
  }

  // .loc FILE LINE COLUMN [, function_name NAME, inlined_at FILE LINE COLUMN]: code inlined
  // from a function. The line is the innermost in the kernel's own file (as Nsight Compute's
  // Source page places it): a __device__ function of that file keeps its own lines; code
  // inlined from a header counts at the line it was inlined at.
  void loc(Entry& e) {
    const Token& start = next();
    Origin o;
    o.file = static_cast<std::uint32_t>(expect_unsigned("a file number"));
    o.line = static_cast<std::uint32_t>(expect_unsigned("a line"));
    std::optional<Origin> at;
    while (!at_end() && peek().line == start.line) {
      if (accept("inlined_at")) {
        at.emplace();
        at->file = static_cast<std::uint32_t>(expect_unsigned("a file number"));
        at->line = static_cast<std::uint32_t>(expect_unsigned("a line"));
      } else {
        next();
      }
    }
    // The kernel's file: its first line's (the call site's, should that be inlined code).
    if (e.origin.line == 0 && e.body.empty()) e.origin = at ? *at : o;
    const Origin chosen = at && o.file != e.origin.file ? *at : o;
    // Code inlined from a header inside a header function (cooperative groups' helpers) names
    // a header even at its inlined_at; the kernel's own file's last line is the user's line.
    if (e.origin.file != 0 && chosen.file != e.origin.file && origin_.file == e.origin.file) return;
    origin_ = chosen;
  }

  // .reg .b32 %r<6>;  .reg .pred %p;  .reg .f32 %a, %b;
  // `.reg .b16 a, b;`, or as CUDA's half headers write it in inline assembly, `.reg.b16 a, b;`.
  void registers(Entry& e) {
    const std::string_view directive = next().text;
    const std::string type(directive == ".reg" ? expect_name("a register type").text
                                               : directive.substr(std::string_view(".reg").size()));
    do {
      RegisterDecl r{type, std::string(expect_name("a register name").text), 0};
      if (accept("<")) {
        r.count = static_cast<std::uint32_t>(expect_unsigned("a register count"));
        expect(">");
      }
      if (!scopes_.empty()) shadow(r);
      e.registers.push_back(std::move(r));
    } while (accept(","));
    expect(";");
  }

  // A register declared in a nested `{ }` scope (the inline assembly of CUDA's headers:
  // `{ .reg .pred %p1; setp.ne.u32 %p1, %r15, 0; bar.red.popc.u32 %r6, 0, %p1; }`) hides any
  // outer register of its name until the scope closes: it gets a name of its own, NAME$SCOPE
  // (`$` is legal in PTX names; the IR's names turn it into `_`, and two names that then agree
  // are refused).
  void shadow(RegisterDecl& r) {
    Scope& scope = scopes_.back();
    const std::string renamed = r.name + "$" + std::to_string(scope.serial);
    if (r.count == 0) {
      scope.renamed[r.name] = renamed;
    } else {
      for (std::uint32_t k = 0; k < r.count; ++k) {
        scope.renamed[r.name + std::to_string(k)] = renamed + "_" + std::to_string(k);
      }
    }
    r.name = r.count == 0 ? renamed : renamed + "_";
  }

  bool scoped(std::string_view name) const {
    const std::string key(name);
    for (const Scope& s : scopes_) {
      if (s.renamed.contains(key)) return true;
    }
    return false;
  }

  // The register a name means here: the innermost scope's declaration of it, else its own.
  Register resolve(std::string_view name) const {
    const std::string key(name);
    for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s) {
      if (auto it = s->renamed.find(key); it != s->renamed.end()) return Register{it->second};
    }
    return Register{key};
  }

  Instruction instruction() {
    Instruction inst;
    inst.line = peek().line;
    inst.column = peek().column;
    inst.origin = origin_;
    if (accept("@")) {
      inst.guard_negated = accept("!");
      inst.guard = resolve(expect_name("a guard predicate").text);
    }
    const Token& op = expect_name("an instruction");
    inst.opcode = std::string(op.text);
    while (!accept(";")) {
      if (!inst.operands.empty()) expect(",");
      inst.operands.push_back(operand());
    }
    return inst;
  }

  Operand operand() {
    const Token& t = peek();
    if (accept("[")) return address();
    if (accept("{")) {
      VectorOperand v;
      do {
        if (peek().kind == TokenKind::Number) {
          v.constants.resize(v.elements.size());
          v.elements.push_back(Register{std::string(peek().text)});
          v.constants.emplace_back(number(next(), false));
        } else {
          v.elements.push_back(resolve(expect_name("a register").text));
        }
      } while (accept(","));
      if (!v.constants.empty()) v.constants.resize(v.elements.size());
      expect("}");
      return v;
    }
    if (t.text == "-" || t.text == "+" || t.kind == TokenKind::Number) {
      const bool negative = accept("-");
      accept("+");
      if (peek().kind != TokenKind::Number) fail(peek(), "expected a number after the sign");
      return number(next(), negative);
    }
    if (t.text == "!") fail(t, "a negated predicate operand ('!%p') is not imported");
    const Token& name = expect_name("an operand");
    // A register name needs no '%': CUDA's headers declare `.reg .f16 low, high;` in inline
    // assembly. A name is a register where a scope declares it, a symbol otherwise.
    if (name.text.starts_with("%") || scoped(name.text)) {
      if (accept("|")) {
        return PairOperand{resolve(name.text), resolve(expect_name("a predicate").text)};
      }
      return resolve(name.text);
    }
    if (at("+") || at("-")) fail(peek(), "an address expression outside [...] is not imported");
    return Symbol{std::string(name.text)};
  }

  Address address() {
    Address a;
    if (peek().kind == TokenKind::Name) {
      const std::string name(next().text);
      if (name.starts_with("%") || scoped(name)) {
        a.base = resolve(name);
      } else {
        a.base = Symbol{name};
      }
      if (at("+") || at("-")) {
        const bool minus = next().text == "-";
        const bool negative = accept("-");
        const auto n = static_cast<std::int64_t>(expect_unsigned("a byte offset"));
        a.displacement = (minus != negative) ? -n : n;
      }
    } else {
      const bool negative = accept("-");
      const auto n = static_cast<std::int64_t>(expect_unsigned("an address"));
      a.displacement = negative ? -n : n;
    }
    expect("]");
    return a;
  }

  Immediate number(const Token& t, bool negative) const {
    Immediate imm;
    const std::string_view s = t.text;
    auto hex_bits = [&](std::string_view digits, Immediate::Kind kind, std::size_t width) {
      const auto v = parse_unsigned("0x" + std::string(digits));
      if (!v || digits.size() != width) fail(t, "'" + std::string(s) + "' is not a float literal");
      imm.kind = kind;
      imm.bits = *v;
      if (negative) imm.bits ^= std::uint64_t{1} << (width * 4 - 1);
    };
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F')) {
      hex_bits(s.substr(2), Immediate::Kind::F32Bits, 8);
      return imm;
    }
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) {
      hex_bits(s.substr(2), Immediate::Kind::F64Bits, 16);
      return imm;
    }
    if (const auto v = parse_unsigned(s)) {
      imm.bits = *v;
      imm.negative = negative && *v != 0;
      return imm;
    }
    double d = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
    if (ec != std::errc() || end != s.data() + s.size()) {
      fail(t, "'" + std::string(s) + "' is not a number");
    }
    imm.kind = Immediate::Kind::Float;
    imm.value = negative ? -d : d;
    return imm;
  }

  Module module_;
  Origin origin_;
  // The nested `{ }` scopes open in the kernel body, innermost last, with the registers each
  // declares under their own names.
  struct Scope {
    unsigned serial = 0;
    std::map<std::string, std::string> renamed;
  };
  std::vector<Scope> scopes_;
  unsigned scope_serial_ = 0;
};

}  // namespace

std::variant<Module, ReadError> read_ptx(std::string_view text) {
  try {
    return Reader(text).run();
  } catch (const CursorFailure& f) {
    return f.error;
  }
}

}  // namespace warpsim::ptx
