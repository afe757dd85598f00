// The tokens of PTX text: names (directives, opcodes with their dotted modifiers, registers,
// labels), numbers, quoted strings and single punctuation characters, each with its line.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace warpsim::ptx {

enum class TokenKind : std::uint8_t { Name, Number, String, Punct, End };

struct Token {
  TokenKind kind = TokenKind::End;
  std::string_view text;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

// Comments (// and /* */) are dropped. A byte PTX does not use becomes a Punct token, which
// the reader reports where it finds it.
std::vector<Token> tokenize_ptx(std::string_view text);

}  // namespace warpsim::ptx
