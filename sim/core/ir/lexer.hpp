// Splits .kir text into tokens. Newlines are tokens (the IR is line-oriented); '#' starts a
// comment to the end of the line. Words may contain dots (`ld.global.f32`, `bar.sync`);
// registers are '%' followed by a word (`%v`, `%tid.x`).
// Contract: never fails; an unexpected byte becomes one error and the rest of its line is
// skipped, so junk input costs at most one error per line.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/core/ir/diagnostics.hpp"

namespace warpsim::ir {

enum class TokenKind : std::uint8_t {
  Word,
  Register,
  Number,
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Colon,
  Equals,
  At,
  Star,
  Minus,
  Plus,
  Slash,
  Percent,  // '%' not followed by a name (a register's '%' is part of its token)
  String,   // "text" on one line; the token's text keeps the quotes
  Newline,
  End
};

struct Token {
  TokenKind kind = TokenKind::End;
  std::string_view text;  // a view into the source
  SourceLoc loc;
};

std::vector<Token> tokenize(std::string_view source, Diagnostics& diags);

std::string_view describe(TokenKind kind);

}  // namespace warpsim::ir
