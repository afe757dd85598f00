// Cursor over the token list shared by the parser's parts, with the literal and integer
// readers they all use. Internal to the parser.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/core/ir/lexer.hpp"

namespace warpsim::ir {

class TokenStream {
 public:
  TokenStream(std::vector<Token> tokens, Diagnostics& diags)
      : tokens_(std::move(tokens)), diags_(diags) {}

  const Token& peek(std::size_t ahead = 0) const;
  const Token& next();
  bool at(TokenKind kind) const { return peek().kind == kind; }
  bool at_word(std::string_view word) const {
    return peek().kind == TokenKind::Word && peek().text == word;
  }
  bool accept(TokenKind kind);
  bool accept_word(std::string_view word);

  // Consume a token of `kind` or report "expected <what>" at the current token.
  std::optional<Token> expect(TokenKind kind, std::string_view what);
  bool expect_word(std::string_view word);
  bool expect_end_of_line();

  // Skip the rest of the current line, including its newline.
  void skip_line();
  void skip_blank_lines();

  std::optional<Literal> literal();
  // An unsigned integer literal; `what` names it in errors.
  std::optional<std::uint64_t> integer(std::string_view what);
  // An integer expression: literals with + - * / % and parentheses (N + 31) / 32.
  std::optional<std::uint64_t> int_expression(std::string_view what);

  void error_here(std::string message) { diags_.error(peek().loc, std::move(message)); }
  Diagnostics& diags() { return diags_; }

 private:
  std::optional<std::uint64_t> int_sum(std::string_view what, SourceLoc loc, unsigned depth);
  std::optional<std::uint64_t> int_term(std::string_view what, SourceLoc loc, unsigned depth);
  std::optional<std::uint64_t> int_factor(std::string_view what, SourceLoc loc, unsigned depth);

  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  Diagnostics& diags_;
};

std::string quoted(std::string_view text);
// How a token is named in "found ..." messages.
std::string found_text(const Token& t);

}  // namespace warpsim::ir
