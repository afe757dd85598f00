#include "sim/import/ptx_tokens.hpp"

namespace warpsim::ptx {
namespace {

bool is_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%' ||
         c == '.';
}
bool is_name_char(char c) {
  return is_name_start(c) || (c >= '0' && c <= '9');
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

}  // namespace

std::vector<Token> tokenize_ptx(std::string_view text) {
  std::vector<Token> tokens;
  std::uint32_t line = 1;
  std::size_t line_start = 0;
  std::size_t p = 0;
  auto push = [&](TokenKind kind, std::size_t begin, std::size_t end) {
    tokens.push_back({kind, text.substr(begin, end - begin), line,
                      static_cast<std::uint32_t>(begin - line_start + 1)});
    p = end;
  };
  while (p < text.size()) {
    const char c = text[p];
    if (c == '\n') {
      ++line;
      line_start = ++p;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      ++p;
    } else if (text.substr(p, 2) == "//") {
      while (p < text.size() && text[p] != '\n') ++p;
    } else if (text.substr(p, 2) == "/*") {
      p += 2;
      while (p < text.size() && text.substr(p, 2) != "*/") {
        if (text[p] == '\n') {
          ++line;
          line_start = p + 1;
        }
        ++p;
      }
      p = p < text.size() ? p + 2 : p;
    } else if (c == '"') {
      std::size_t end = p + 1;
      while (end < text.size() && text[end] != '"' && text[end] != '\n') ++end;
      push(TokenKind::String, p, end < text.size() && text[end] == '"' ? end + 1 : end);
    } else if (is_digit(c)) {
      // 12, 0x1F, 0f3F800000, 0d3FF0000000000000, 1.5, 2e-3: letters and digits glued on
      // belong to the number, so a bad one is reported once.
      std::size_t end = p;
      while (end < text.size() &&
             (is_name_char(text[end]) && text[end] != '%' && text[end] != '$')) {
        const bool exponent_sign = (text[end] == 'e' || text[end] == 'E') &&
                                   end + 1 < text.size() &&
                                   (text[end + 1] == '-' || text[end + 1] == '+') &&
                                   !(text.substr(p, 2) == "0x" || text.substr(p, 2) == "0X");
        end += exponent_sign ? 2 : 1;
      }
      push(TokenKind::Number, p, end);
    } else if (is_name_start(c)) {
      // Qualifiers such as .shared::cluster and .L1::no_allocate are part of the name.
      std::size_t end = p + 1;
      for (;;) {
        while (end < text.size() && is_name_char(text[end])) ++end;
        if (end + 2 < text.size() && text.substr(end, 2) == "::" && is_name_char(text[end + 2])) {
          end += 2;
          continue;
        }
        break;
      }
      push(TokenKind::Name, p, end);
    } else {
      push(TokenKind::Punct, p, p + 1);
    }
  }
  tokens.push_back({TokenKind::End, {}, line, 1});
  return tokens;
}

}  // namespace warpsim::ptx
