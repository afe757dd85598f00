// Index expressions for `warpsim banks`: '[e][e]...' where each e is C-like integer arithmetic
// over the lane's coordinates (lane, warp, tid.x, tid.y, tid.z; threadIdx.x etc. also accepted):
// binary * / % + - << >> < <= > >= == != & ^ | with C's precedence, unary - and ~, parentheses.
// Comparisons give 1 or 0. Contract: parsing never recurses deeper than kMaxIndexDepth, and an
// expression whose tree is deeper is refused, so no input can exhaust the stack.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warpsim::cli {

struct LaneCoordinates {
  std::int64_t lane = 0, warp = 0, tid_x = 0, tid_y = 0, tid_z = 0;
};

// Nesting (parentheses, unary operators and chained binary operators alike) beyond this is an
// error; real layouts need a handful of levels.
inline constexpr unsigned kMaxIndexDepth = 256;

// What the parser knows, for --help and its error messages.
inline constexpr const char* kIndexOperators =
    "* / % + - << >> < <= > >= == != & ^ |, unary - ~, ( )";
inline constexpr const char* kIndexVariables = "lane, warp, tid.x, tid.y, tid.z";

class IndexExpression {
 public:
  struct Node;

  // Parses `text`; on failure returns nothing and sets `error` (with the column).
  static std::optional<IndexExpression> parse(const std::string& text, std::string& error);

  std::size_t dimensions() const { return roots_.size(); }
  // The indices for one lane; nothing (and `error`) on division by zero, overflow or a shift
  // outside 0-63.
  std::optional<std::vector<std::int64_t>> evaluate(const LaneCoordinates& at,
                                                    std::string& error) const;

 private:
  std::vector<std::shared_ptr<const Node>> roots_;
};

}  // namespace warpsim::cli
