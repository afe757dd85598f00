// The PTX reader's token cursor: peeking, accepting and expecting tokens, each failure a
// located ReadError (thrown as CursorFailure, which read_ptx turns into its result).
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/import/ptx_reader.hpp"
#include "sim/import/ptx_tokens.hpp"

namespace warpsim::ptx {

// Thrown inside the reader only; read_ptx turns it into its result.
struct CursorFailure {
  ReadError error;
};

inline std::optional<std::uint64_t> parse_unsigned(std::string_view text) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (!text.empty() && (text.back() == 'U' || text.back() == 'u')) text.remove_suffix(1);
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

class TokenCursor {
 protected:
  explicit TokenCursor(std::string_view text) : tokens_(tokenize_ptx(text)) {}

  const Token& peek(std::size_t ahead = 0) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  const Token& next() {
    const Token& t = peek();
    if (pos_ < tokens_.size() - 1) ++pos_;
    return t;
  }
  bool at_end() const { return peek().kind == TokenKind::End; }
  bool at(std::string_view text) const {
    return peek().kind != TokenKind::End && peek().text == text;
  }
  bool accept(std::string_view text) {
    if (!at(text)) return false;
    next();
    return true;
  }
  [[noreturn]] void fail(const Token& t, std::string message) const {
    throw CursorFailure{{t.line, t.column, std::move(message)}};
  }
  std::string found(const Token& t) const {
    return t.kind == TokenKind::End ? "the end of the file" : "'" + std::string(t.text) + "'";
  }
  const Token& expect(std::string_view text) {
    if (!at(text)) fail(peek(), "expected '" + std::string(text) + "', found " + found(peek()));
    return next();
  }
  const Token& expect_name(const char* what) {
    if (peek().kind != TokenKind::Name)
      fail(peek(), std::string("expected ") + what + ", found " + found(peek()));
    return next();
  }
  std::uint64_t expect_unsigned(const char* what) {
    const Token& t = peek();
    if (t.kind != TokenKind::Number)
      fail(t, std::string("expected ") + what + ", found " + found(t));
    const auto v = parse_unsigned(t.text);
    if (!v) fail(t, "'" + std::string(t.text) + "' is not an integer");
    next();
    return *v;
  }
  // Skips the rest of a directive that ends with its line (.version, .target, ...).
  void skip_line_of(const Token& start) {
    while (!at_end() && peek().line == start.line) next();
  }
  void skip_statement() {
    while (!at_end() && !at(";")) next();
    accept(";");
  }
  void skip_braced() {
    expect("{");
    int depth = 1;
    while (depth > 0) {
      if (at_end()) fail(peek(), "a '{' is never closed");
      const Token& t = next();
      if (t.text == "{") ++depth;
      if (t.text == "}") --depth;
    }
  }

 protected:
  // Where reading is, to come back to (a function body read again to skip it).
  std::size_t position() const { return pos_; }
  void rewind(std::size_t position) { pos_ = position; }

 private:
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
};

}  // namespace warpsim::ptx
