#include "tools/warpsim/index_expression.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <string>

namespace warpsim::cli {

enum class IndexOp : std::uint8_t {
  Constant,
  Variable,
  Negate,
  Complement,
  Mul,
  Div,
  Rem,
  Add,
  Sub,
  Shl,
  Shr,
  Lt,
  Le,
  Gt,
  Ge,
  Eq,
  Ne,
  And,
  Xor,
  Or,
};

struct IndexExpression::Node {
  IndexOp op = IndexOp::Constant;
  std::int64_t value = 0;
  std::int64_t LaneCoordinates::*variable = nullptr;
  std::shared_ptr<const Node> left, right;
  unsigned depth = 1;  // of the tree below and including this node
};

namespace {

using NodePtr = std::shared_ptr<const IndexExpression::Node>;
using Node = IndexExpression::Node;

struct BinaryOperator {
  const char* text;
  IndexOp op;
  int precedence;  // higher binds tighter, as in C
};
// Two-character spellings first, so '<<' is not read as '<'.
constexpr BinaryOperator kBinary[] = {
    {"<<", IndexOp::Shl, 8}, {">>", IndexOp::Shr, 8}, {"<=", IndexOp::Le, 7},
    {">=", IndexOp::Ge, 7},  {"==", IndexOp::Eq, 6},  {"!=", IndexOp::Ne, 6},
    {"*", IndexOp::Mul, 10}, {"/", IndexOp::Div, 10}, {"%", IndexOp::Rem, 10},
    {"+", IndexOp::Add, 9},  {"-", IndexOp::Sub, 9},  {"<", IndexOp::Lt, 7},
    {">", IndexOp::Gt, 7},   {"&", IndexOp::And, 5},  {"^", IndexOp::Xor, 4},
    {"|", IndexOp::Or, 3},
};

class Parser {
 public:
  explicit Parser(const std::string& text) : s_(text) {}

  std::optional<std::vector<NodePtr>> run(std::string& error) {
    std::vector<NodePtr> roots;
    skip();
    while (pos_ < s_.size()) {
      if (!eat('[')) return fail(error, "expected '['");
      NodePtr e = expression(0, 1);
      if (e && !eat(']')) {
        what_ = at_operator_like() ? unknown_operator() : "expected ']'";
        e = nullptr;
      }
      if (!e) return fail(error, what_);
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
  bool at_operator_like() const {
    return pos_ < s_.size() && std::ispunct(static_cast<unsigned char>(s_[pos_])) &&
           s_[pos_] != ']' && s_[pos_] != '[';
  }
  std::string unknown_operator() const {
    return fmt::format("unknown operator '{}' (known: {})", s_[pos_], kIndexOperators);
  }

  NodePtr make(Node n) {
    n.depth = 1 + std::max(n.left ? n.left->depth : 0u, n.right ? n.right->depth : 0u);
    if (n.depth > kMaxIndexDepth) {
      what_ = fmt::format("expression nested deeper than {} levels", kMaxIndexDepth);
      return nullptr;
    }
    return std::make_shared<Node>(std::move(n));
  }

  const BinaryOperator* peek_binary() {
    skip();
    for (const BinaryOperator& b : kBinary) {
      if (s_.compare(pos_, std::char_traits<char>::length(b.text), b.text) == 0) return &b;
    }
    return nullptr;
  }

  // Precedence climbing: operators binding at least `min_precedence`. `depth` counts the
  // nesting of parentheses and unary operators, which is what the call stack grows with.
  NodePtr expression(int min_precedence, unsigned depth) {
    NodePtr left = unary(depth);
    while (left) {
      const BinaryOperator* b = peek_binary();
      if (b == nullptr || b->precedence < min_precedence) break;
      pos_ += std::char_traits<char>::length(b->text);
      NodePtr right = expression(b->precedence + 1, depth);
      if (!right) return nullptr;
      left = make(Node{b->op, 0, nullptr, left, right});
    }
    return left;
  }

  NodePtr unary(unsigned depth) {
    if (depth > kMaxIndexDepth) {
      what_ = fmt::format("expression nested deeper than {} levels", kMaxIndexDepth);
      return nullptr;
    }
    for (const auto& [c, op] : {std::pair{'-', IndexOp::Negate}, {'~', IndexOp::Complement}}) {
      if (eat(c)) {
        NodePtr inner = unary(depth + 1);
        return inner ? make(Node{op, 0, nullptr, inner, nullptr}) : nullptr;
      }
    }
    if (eat('(')) {
      NodePtr inner = expression(0, depth + 1);
      if (inner && !eat(')')) {
        what_ = at_operator_like() ? unknown_operator() : "expected ')'";
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
      return make(Node{IndexOp::Constant, v, nullptr, nullptr, nullptr});
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
      if (word == name) return make(Node{IndexOp::Variable, 0, member, nullptr, nullptr});
    }
    pos_ = start;
    if (!word.empty()) {
      what_ = fmt::format("unknown variable '{}' ({})", word, kIndexVariables);
    } else if (at_operator_like()) {
      what_ = fmt::format("expected a number, a variable or '(', not '{}' (operators: {})",
                          s_[pos_], kIndexOperators);
    } else {
      what_ = "expected a number, a variable or '('";
    }
    return nullptr;
  }

  const std::string& s_;
  std::size_t pos_ = 0;
  std::string what_ = "expected an expression";
};

std::optional<std::int64_t> arithmetic(IndexOp op, std::int64_t l, std::int64_t r,
                                       std::string& error) {
  std::int64_t v = 0;
  bool overflow = false;
  switch (op) {
    case IndexOp::Add:
      overflow = __builtin_add_overflow(l, r, &v);
      break;
    case IndexOp::Sub:
      overflow = __builtin_sub_overflow(l, r, &v);
      break;
    case IndexOp::Mul:
      overflow = __builtin_mul_overflow(l, r, &v);
      break;
    case IndexOp::Div:
    case IndexOp::Rem:
      if (r == 0) {
        error = "division by zero";
        return std::nullopt;
      }
      overflow = l == std::numeric_limits<std::int64_t>::min() && r == -1;
      if (!overflow) v = op == IndexOp::Div ? l / r : l % r;
      break;
    case IndexOp::Shl:
    case IndexOp::Shr:
      if (r < 0 || r > 63) {
        error = fmt::format("shift by {} is outside 0-63", r);
        return std::nullopt;
      }
      if (op == IndexOp::Shr) return l >> r;
      overflow = l > (std::numeric_limits<std::int64_t>::max() >> r) ||
                 l < (std::numeric_limits<std::int64_t>::min() >> r);
      if (!overflow) v = static_cast<std::int64_t>(static_cast<std::uint64_t>(l) << r);
      break;
    case IndexOp::Lt:
      return std::int64_t{l < r};
    case IndexOp::Le:
      return std::int64_t{l <= r};
    case IndexOp::Gt:
      return std::int64_t{l > r};
    case IndexOp::Ge:
      return std::int64_t{l >= r};
    case IndexOp::Eq:
      return std::int64_t{l == r};
    case IndexOp::Ne:
      return std::int64_t{l != r};
    case IndexOp::And:
      return l & r;
    case IndexOp::Xor:
      return l ^ r;
    case IndexOp::Or:
      return l | r;
    case IndexOp::Constant:
    case IndexOp::Variable:
    case IndexOp::Negate:
    case IndexOp::Complement:
      break;
  }
  if (overflow) {
    error = "the index overflows 64 bits";
    return std::nullopt;
  }
  return v;
}

// Recursion is bounded by the tree's depth, which the parser limits.
std::optional<std::int64_t> eval(const Node& n, const LaneCoordinates& at, std::string& error) {
  switch (n.op) {
    case IndexOp::Constant:
      return n.value;
    case IndexOp::Variable:
      return at.*(n.variable);
    case IndexOp::Negate:
    case IndexOp::Complement: {
      const auto v = eval(*n.left, at, error);
      if (!v) return std::nullopt;
      if (n.op == IndexOp::Complement) return ~*v;
      if (*v == std::numeric_limits<std::int64_t>::min()) {
        error = "the index overflows 64 bits";
        return std::nullopt;
      }
      return -*v;
    }
    default:
      break;
  }
  const auto l = eval(*n.left, at, error);
  const auto r = l ? eval(*n.right, at, error) : std::nullopt;
  if (!l || !r) return std::nullopt;
  return arithmetic(n.op, *l, *r, error);
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
