#include "tools/warpsim/index_expression.hpp"

#include <cctype>
#include <limits>
#include <string>

namespace warpsim::cli {

struct IndexExpression::Node {
  // '+', '-', '*', '/', '%', comparisons ('e' ==, 'N' !=, 'l' <=, 'g' >=, '<', '>'),
  // 'n' (negate), 'c' (constant), 'v' (variable)
  char op = 0;
  std::int64_t value = 0;
  std::int64_t LaneCoordinates::*variable = nullptr;
  std::shared_ptr<const Node> left, right;
};

namespace {

using NodePtr = std::shared_ptr<const IndexExpression::Node>;
using Node = IndexExpression::Node;

class Parser {
 public:
  explicit Parser(const std::string& text) : s_(text) {}

  std::optional<std::vector<NodePtr>> run(std::string& error) {
    std::vector<NodePtr> roots;
    skip();
    while (pos_ < s_.size()) {
      if (!eat('[')) return fail(error, "expected '['");
      auto e = comparison();
      if (!e || !eat(']')) return fail(error, e ? "expected ']'" : what_);
      roots.push_back(e);
    }
    if (roots.empty()) return fail(error, "expected at least one [index]");
    return roots;
  }

 private:
  std::optional<std::vector<NodePtr>> fail(std::string& error, const std::string& message) {
    error = message + " at column " + std::to_string(pos_ + 1);
    return std::nullopt;
  }

  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skip();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      skip();
      return true;
    }
    return false;
  }

  static NodePtr binary(char op, NodePtr l, NodePtr r) {
    return std::make_shared<Node>(Node{op, 0, nullptr, std::move(l), std::move(r)});
  }

  // a == b, a != b, a < b, a <= b, a > b, a >= b: 1 or 0.
  NodePtr comparison() {
    NodePtr left = sum();
    if (!left) return nullptr;
    static const std::pair<const char*, char> kOps[] = {{"==", 'e'}, {"!=", 'N'}, {"<=", 'l'},
                                                        {">=", 'g'}, {"<", '<'},  {">", '>'}};
    skip();
    for (const auto& [text, op] : kOps) {
      if (s_.compare(pos_, std::char_traits<char>::length(text), text) == 0) {
        pos_ += std::char_traits<char>::length(text);
        NodePtr right = sum();
        return right ? binary(op, left, right) : nullptr;
      }
    }
    return left;
  }

  NodePtr sum() {
    NodePtr left = product();
    while (left) {
      if (eat('+')) {
        left = binary('+', left, product());
      } else if (eat('-')) {
        left = binary('-', left, product());
      } else {
        break;
      }
      if (!left->right) return nullptr;
    }
    return left;
  }

  NodePtr product() {
    NodePtr left = unary();
    while (left) {
      char op = 0;
      for (char c : {'*', '/', '%'}) {
        if (op == 0 && eat(c)) op = c;
      }
      if (op == 0) break;
      left = binary(op, left, unary());
      if (!left->right) return nullptr;
    }
    return left;
  }

  NodePtr unary() {
    if (eat('-')) {
      NodePtr inner = unary();
      return inner ? binary('n', inner, nullptr) : nullptr;
    }
    if (eat('(')) {
      NodePtr inner = comparison();
      if (!inner || !eat(')')) {
        if (inner) what_ = "expected ')'";
        return nullptr;
      }
      return inner;
    }
    return atom();
  }

  NodePtr atom() {
    skip();
    const std::size_t start = pos_;
    if (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      std::int64_t v = 0;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
        if (v > (std::numeric_limits<std::int64_t>::max() - 9) / 10) {
          what_ = "number too large";
          return nullptr;
        }
        v = v * 10 + (s_[pos_++] - '0');
      }
      skip();
      return std::make_shared<Node>(Node{'c', v, nullptr, nullptr, nullptr});
    }
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) ||
                                s_[pos_] == '.' || s_[pos_] == '_')) {
      ++pos_;
    }
    const std::string word = s_.substr(start, pos_ - start);
    skip();
    static const std::pair<const char*, std::int64_t LaneCoordinates::*> kVariables[] = {
        {"lane", &LaneCoordinates::lane},         {"warp", &LaneCoordinates::warp},
        {"tid.x", &LaneCoordinates::tid_x},       {"tid.y", &LaneCoordinates::tid_y},
        {"tid.z", &LaneCoordinates::tid_z},       {"threadIdx.x", &LaneCoordinates::tid_x},
        {"threadIdx.y", &LaneCoordinates::tid_y}, {"threadIdx.z", &LaneCoordinates::tid_z}};
    for (const auto& [name, member] : kVariables) {
      if (word == name) return std::make_shared<Node>(Node{'v', 0, member, nullptr, nullptr});
    }
    pos_ = start;
    what_ = word.empty() ? "expected a number, a variable or '('"
                         : "unknown variable '" + word + "' (lane, warp, tid.x, tid.y, tid.z)";
    return nullptr;
  }

  const std::string& s_;
  std::size_t pos_ = 0;
  std::string what_ = "expected an expression";
};

std::optional<std::int64_t> eval(const Node& n, const LaneCoordinates& at, std::string& error) {
  switch (n.op) {
    case 'c':
      return n.value;
    case 'v':
      return at.*(n.variable);
    case 'n': {
      auto v = eval(*n.left, at, error);
      return v ? std::optional(-*v) : std::nullopt;
    }
    default:
      break;
  }
  const auto l = eval(*n.left, at, error);
  const auto r = eval(*n.right, at, error);
  if (!l || !r) return std::nullopt;
  std::int64_t v = 0;
  bool overflow = false;
  switch (n.op) {
    case 'e':
      return std::int64_t{*l == *r};
    case 'N':
      return std::int64_t{*l != *r};
    case 'l':
      return std::int64_t{*l <= *r};
    case 'g':
      return std::int64_t{*l >= *r};
    case '<':
      return std::int64_t{*l < *r};
    case '>':
      return std::int64_t{*l > *r};
    case '+':
      overflow = __builtin_add_overflow(*l, *r, &v);
      break;
    case '-':
      overflow = __builtin_sub_overflow(*l, *r, &v);
      break;
    case '*':
      overflow = __builtin_mul_overflow(*l, *r, &v);
      break;
    default:
      if (*r == 0) {
        error = "division by zero";
        return std::nullopt;
      }
      if (*l == std::numeric_limits<std::int64_t>::min() && *r == -1) {
        overflow = true;
        break;
      }
      return n.op == '/' ? *l / *r : *l % *r;
  }
  if (overflow) {
    error = "the index overflows 64 bits";
    return std::nullopt;
  }
  return v;
}

}  // namespace

std::optional<IndexExpression> IndexExpression::parse(const std::string& text, std::string& error) {
  auto roots = Parser(text).run(error);
  if (!roots) return std::nullopt;
  IndexExpression e;
  e.roots_ = std::move(*roots);
  return e;
}

std::optional<std::vector<std::int64_t>> IndexExpression::evaluate(const LaneCoordinates& at,
                                                                   std::string& error) const {
  std::vector<std::int64_t> out;
  for (const auto& r : roots_) {
    auto v = eval(*r, at, error);
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

}  // namespace warpsim::cli
