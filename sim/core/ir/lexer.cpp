#include "sim/core/ir/lexer.hpp"

#include <cstdio>
#include <string>

namespace warpsim::ir {
namespace {

bool is_word_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_word_char(char c) {
  return is_word_start(c) || is_digit(c);
}

class Lexer {
 public:
  Lexer(std::string_view source, Diagnostics& diags) : src_(source), diags_(diags) {}

  std::vector<Token> run() {
    // A UTF-8 byte-order mark, as some editors write, is no part of the text.
    if (src_.starts_with("\xEF\xBB\xBF")) pos_ = line_start_ = 3;
    while (pos_ < src_.size()) step();
    push(TokenKind::End, pos_, pos_);
    return std::move(tokens_);
  }

 private:
  void step() {
    const char c = src_[pos_];
    if (c == '\n') {
      push(TokenKind::Newline, pos_, pos_ + 1);
      ++line_;
      line_start_ = pos_;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      ++pos_;
    } else if (c == '#') {
      skip_line();
    } else if (is_word_start(c)) {
      push(TokenKind::Word, pos_, scan_dotted_word(pos_));
    } else if (c == '%') {
      if (pos_ + 1 < src_.size() && is_word_start(src_[pos_ + 1])) {
        push(TokenKind::Register, pos_, scan_dotted_word(pos_ + 1));
      } else {
        push(TokenKind::Percent, pos_, pos_ + 1);  // a remainder in a size expression
      }
    } else if (is_digit(c)) {
      push(TokenKind::Number, pos_, scan_number(pos_));
    } else {
      punct(c);
    }
  }

  void punct(char c) {
    TokenKind kind;
    switch (c) {
      case '(':
        kind = TokenKind::LParen;
        break;
      case ')':
        kind = TokenKind::RParen;
        break;
      case '[':
        kind = TokenKind::LBracket;
        break;
      case ']':
        kind = TokenKind::RBracket;
        break;
      case '{':
        kind = TokenKind::LBrace;
        break;
      case '}':
        kind = TokenKind::RBrace;
        break;
      case ',':
        kind = TokenKind::Comma;
        break;
      case ':':
        kind = TokenKind::Colon;
        break;
      case '=':
        kind = TokenKind::Equals;
        break;
      case '@':
        kind = TokenKind::At;
        break;
      case '*':
        kind = TokenKind::Star;
        break;
      case '-':
        kind = TokenKind::Minus;
        break;
      case '+':
        kind = TokenKind::Plus;
        break;
      case '/':
        kind = TokenKind::Slash;
        break;
      case '"':
        string_literal();
        return;
      case '<':
      case '>':
        // A template kernel's C++ name in a launch file must be quoted.
        bad_byte("unexpected character",
                 " (a C++ kernel name such as reduce<256> is written in quotes: "
                 "launch \"reduce<256>\")");
        return;
      default:
        bad_byte("unexpected character");
        return;
    }
    push(kind, pos_, pos_ + 1);
  }

  // A file name in `source N "path"`: no escapes, and it ends on its line.
  void string_literal() {
    std::size_t end = pos_ + 1;
    while (end < src_.size() && src_[end] != '"' && src_[end] != '\n') ++end;
    if (end == src_.size() || src_[end] != '"') {
      bad_byte("unterminated string starting with");
      return;
    }
    push(TokenKind::String, pos_, end + 1);
  }

  std::size_t scan_dotted_word(std::size_t p) const {
    while (p < src_.size() && is_word_char(src_[p])) ++p;
    while (p + 1 < src_.size() && src_[p] == '.' && is_word_start(src_[p + 1])) {
      ++p;
      while (p < src_.size() && is_word_char(src_[p])) ++p;
    }
    return p;
  }

  // Decimal integers and floats (1, 2.5, 1e-3, 6.02E+23) and hexadecimal integers (0x1F).
  // Validity of the value is the parser's business; this only finds where the number ends.
  std::size_t scan_number(std::size_t p) const {
    if (src_[p] == '0' && p + 1 < src_.size() && (src_[p + 1] == 'x' || src_[p + 1] == 'X')) {
      p += 2;
      while (p < src_.size() && is_word_char(src_[p])) ++p;
      return p;
    }
    while (p < src_.size() && is_digit(src_[p])) ++p;
    if (p + 1 < src_.size() && src_[p] == '.' && is_digit(src_[p + 1])) {
      ++p;
      while (p < src_.size() && is_digit(src_[p])) ++p;
    }
    if (p < src_.size() && (src_[p] == 'e' || src_[p] == 'E')) {
      std::size_t q = p + 1;
      if (q < src_.size() && (src_[q] == '+' || src_[q] == '-')) ++q;
      if (q < src_.size() && is_digit(src_[q])) {
        while (q < src_.size() && is_digit(src_[q])) ++q;
        p = q;
      }
    }
    // Letters glued to a number (`12abc`) belong to it, so the parser reports one bad number.
    while (p < src_.size() && is_word_char(src_[p])) ++p;
    return p;
  }

  void bad_byte(const char* what, const char* hint = "") {
    const auto byte = static_cast<unsigned char>(src_[pos_]);
    std::string shown;
    if (byte >= 0x20 && byte < 0x7f) {
      shown = std::string("'") + src_[pos_] + "'";
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "0x%02x", byte);
      shown = std::string("byte ") + buf;
    }
    diags_.error(loc_at(pos_), std::string(what) + " " + shown + hint);
    skip_line();
  }

  void skip_line() {
    while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
  }

  SourceLoc loc_at(std::size_t p) const {
    return SourceLoc{line_, static_cast<std::uint32_t>(p - line_start_ + 1)};
  }

  // Records the token [begin, end) and continues after it.
  void push(TokenKind kind, std::size_t begin, std::size_t end) {
    tokens_.push_back(Token{kind, src_.substr(begin, end - begin), loc_at(begin)});
    pos_ = end;
  }

  std::string_view src_;
  Diagnostics& diags_;
  std::size_t pos_ = 0;
  std::size_t line_start_ = 0;
  std::uint32_t line_ = 1;
  std::vector<Token> tokens_;
};

}  // namespace

std::vector<Token> tokenize(std::string_view source, Diagnostics& diags) {
  return Lexer(source, diags).run();
}

std::string_view describe(TokenKind kind) {
  switch (kind) {
    case TokenKind::Word:
      return "a word";
    case TokenKind::Register:
      return "a register";
    case TokenKind::Number:
      return "a number";
    case TokenKind::LParen:
      return "'('";
    case TokenKind::RParen:
      return "')'";
    case TokenKind::LBracket:
      return "'['";
    case TokenKind::RBracket:
      return "']'";
    case TokenKind::LBrace:
      return "'{'";
    case TokenKind::RBrace:
      return "'}'";
    case TokenKind::Comma:
      return "','";
    case TokenKind::Colon:
      return "':'";
    case TokenKind::Equals:
      return "'='";
    case TokenKind::At:
      return "'@'";
    case TokenKind::Star:
      return "'*'";
    case TokenKind::Minus:
      return "'-'";
    case TokenKind::Plus:
      return "'+'";
    case TokenKind::Slash:
      return "'/'";
    case TokenKind::Percent:
      return "'%'";
    case TokenKind::String:
      return "a quoted string";
    case TokenKind::Newline:
      return "end of line";
    case TokenKind::End:
      return "end of file";
  }
  return "a token";
}

}  // namespace warpsim::ir
