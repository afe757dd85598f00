#include "sim/core/ir/token_stream.hpp"

#include <charconv>
#include <cmath>
#include <limits>

namespace warpsim::ir {

std::string quoted(std::string_view text) {
  constexpr std::size_t kMax = 40;
  std::string out = "'";
  for (char c : text.substr(0, kMax)) {
    const auto u = static_cast<unsigned char>(c);
    out += (u >= 0x20 && u < 0x7f) ? c : '?';
  }
  if (text.size() > kMax) out += "...";
  return out + "'";
}

std::string found_text(const Token& t) {
  if (t.kind == TokenKind::Newline || t.kind == TokenKind::End)
    return std::string(describe(t.kind));
  return quoted(t.text);
}

const Token& TokenStream::peek(std::size_t ahead) const {
  const std::size_t i = pos_ + ahead;
  return i < tokens_.size() ? tokens_[i] : tokens_.back();
}

const Token& TokenStream::next() {
  const Token& t = peek();
  if (pos_ + 1 < tokens_.size()) ++pos_;
  return t;
}

bool TokenStream::accept(TokenKind kind) {
  if (!at(kind)) return false;
  next();
  return true;
}

bool TokenStream::accept_word(std::string_view word) {
  if (!at_word(word)) return false;
  next();
  return true;
}

std::optional<Token> TokenStream::expect(TokenKind kind, std::string_view what) {
  if (at(kind)) return next();
  diags_.error(peek().loc, "expected " + std::string(what) + ", found " + found_text(peek()));
  return std::nullopt;
}

bool TokenStream::expect_word(std::string_view word) {
  if (accept_word(word)) return true;
  diags_.error(peek().loc, "expected '" + std::string(word) + "', found " + found_text(peek()));
  return false;
}

bool TokenStream::expect_end_of_line() {
  if (accept(TokenKind::Newline) || at(TokenKind::End)) return true;
  expect(TokenKind::Newline, "end of line");
  skip_line();
  return false;
}

void TokenStream::skip_line() {
  while (!at(TokenKind::Newline) && !at(TokenKind::End)) next();
  accept(TokenKind::Newline);
}

void TokenStream::skip_blank_lines() {
  while (accept(TokenKind::Newline)) {
  }
}

namespace {

std::optional<std::uint64_t> parse_unsigned(std::string_view text) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

bool looks_like_float(std::string_view text) {
  if (text.size() > 1 && (text[1] == 'x' || text[1] == 'X')) return false;
  return text.find_first_of(".eE") != std::string_view::npos;
}

}  // namespace

std::optional<Literal> TokenStream::literal() {
  const bool negative = accept(TokenKind::Minus);
  const Token t = peek();
  if (t.kind == TokenKind::Word && (t.text == "inf" || t.text == "nan")) {
    next();
    double v = t.text == "inf" ? std::numeric_limits<double>::infinity()
                               : std::numeric_limits<double>::quiet_NaN();
    return FloatLiteral{negative ? -v : v};
  }
  if (t.kind != TokenKind::Number) {
    expect(TokenKind::Number, "a number");
    return std::nullopt;
  }
  next();
  if (looks_like_float(t.text)) {
    double v = 0;
    const auto [end, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
    if (ec != std::errc() || end != t.text.data() + t.text.size() || !std::isfinite(v)) {
      diags_.error(t.loc, "invalid floating-point number " + quoted(t.text));
      return std::nullopt;
    }
    return FloatLiteral{negative ? -v : v};
  }
  const auto v = parse_unsigned(t.text);
  if (!v) {
    diags_.error(t.loc, "invalid integer " + quoted(t.text) + " (does it fit in 64 bits?)");
    return std::nullopt;
  }
  if (negative && *v > (std::uint64_t{1} << 63)) {
    diags_.error(t.loc, "integer -" + std::string(t.text) + " does not fit in 64 bits");
    return std::nullopt;
  }
  return IntLiteral{*v, negative && *v != 0};
}

std::optional<std::uint64_t> TokenStream::integer(std::string_view what) {
  const Token t = peek();
  if (t.kind != TokenKind::Number) {
    expect(TokenKind::Number, what);
    return std::nullopt;
  }
  next();
  const auto v = looks_like_float(t.text) ? std::nullopt : parse_unsigned(t.text);
  if (!v) diags_.error(t.loc, "expected " + std::string(what) + ", found " + quoted(t.text));
  return v;
}

// expr ::= term { ("+" | "-") term };  term ::= factor { ("*" | "/" | "%") factor };
// factor ::= INT | "(" expr ")". Unsigned 64-bit arithmetic; a negative intermediate, an
// overflow or a division by zero is an error at the expression.
std::optional<std::uint64_t> TokenStream::int_expression(std::string_view what) {
  const SourceLoc loc = peek().loc;
  return int_sum(what, loc, 0);
}

std::optional<std::uint64_t> TokenStream::int_sum(std::string_view what, SourceLoc loc,
                                                  unsigned depth) {
  auto value = int_term(what, loc, depth);
  while (value && (at(TokenKind::Plus) || at(TokenKind::Minus))) {
    const bool plus = next().kind == TokenKind::Plus;
    const auto rhs = int_term(what, loc, depth);
    if (!rhs) return std::nullopt;
    if (plus ? *value > std::numeric_limits<std::uint64_t>::max() - *rhs : *rhs > *value) {
      diags_.error(loc, std::string(what) + (plus ? " overflows 64 bits" : " is negative"));
      return std::nullopt;
    }
    *value = plus ? *value + *rhs : *value - *rhs;
  }
  return value;
}

std::optional<std::uint64_t> TokenStream::int_term(std::string_view what, SourceLoc loc,
                                                   unsigned depth) {
  auto value = int_factor(what, loc, depth);
  while (value && (at(TokenKind::Star) || at(TokenKind::Slash) || at(TokenKind::Percent))) {
    const TokenKind op = next().kind;
    const auto rhs = int_factor(what, loc, depth);
    if (!rhs) return std::nullopt;
    if (op == TokenKind::Star) {
      if (*rhs != 0 && *value > std::numeric_limits<std::uint64_t>::max() / *rhs) {
        diags_.error(loc, std::string(what) + " overflows 64 bits");
        return std::nullopt;
      }
      *value *= *rhs;
    } else if (*rhs == 0) {
      diags_.error(loc, std::string(what) + " divides by zero");
      return std::nullopt;
    } else {
      *value = op == TokenKind::Slash ? *value / *rhs : *value % *rhs;
    }
  }
  return value;
}

std::optional<std::uint64_t> TokenStream::int_factor(std::string_view what, SourceLoc loc,
                                                     unsigned depth) {
  if (!at(TokenKind::LParen)) return integer(what);
  constexpr unsigned kMaxDepth = 64;  // bounded recursion, whatever the input
  if (depth >= kMaxDepth) {
    diags_.error(loc, std::string(what) + " nests parentheses too deeply");
    return std::nullopt;
  }
  next();
  auto value = int_sum(what, loc, depth + 1);
  if (!value || !expect(TokenKind::RParen, "')'")) return std::nullopt;
  return value;
}

}  // namespace warpsim::ir
