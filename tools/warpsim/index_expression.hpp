// Index expressions for `warpsim banks`: '[e][e]...' where each e is integer arithmetic
// (+ - * / %, comparisons == != < <= > >= giving 1 or 0, parentheses, unary minus) over the lane's
// coordinates: lane, warp, tid.x, tid.y, tid.z (threadIdx.x etc. also accepted).
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

class IndexExpression {
 public:
  struct Node;

  // Parses `text`; on failure returns nothing and sets `error` (with the column).
  static std::optional<IndexExpression> parse(const std::string& text, std::string& error);

  std::size_t dimensions() const { return roots_.size(); }
  // The indices for one lane; nothing (and `error`) on division by zero.
  std::optional<std::vector<std::int64_t>> evaluate(const LaneCoordinates& at,
                                                    std::string& error) const;

 private:
  std::vector<std::shared_ptr<const Node>> roots_;
};

}  // namespace warpsim::cli
