#include "tools/warpsim/picture_style.hpp"

namespace warpsim::cli {

using scheduler::WarpState;

const char* warp_state_colour(WarpState s) {
  // Paul Tol's muted scheme (distinct under the common colour-vision deficiencies), with his
  // vibrant orange for barriers and greys for the states outside the kernel's instructions.
  switch (s) {
    case WarpState::Selected:
      return "#117733";  // green
    case WarpState::NotSelected:
      return "#999933";  // olive
    case WarpState::LongScoreboard:
      return "#CC6677";  // rose
    case WarpState::ShortScoreboard:
      return "#DDCC77";  // sand
    case WarpState::Wait:
      return "#88CCEE";  // cyan
    case WarpState::MathPipeThrottle:
      return "#AA4499";  // purple
    case WarpState::MioThrottle:
      return "#332288";  // indigo
    case WarpState::LgThrottle:
      return "#882255";  // wine
    case WarpState::BranchResolving:
      return "#44AA99";  // teal
    case WarpState::Barrier:
      return "#EE7733";  // orange
    case WarpState::Launching:
      return "#BBBBBB";  // grey
    case WarpState::Drain:
      return "#555555";  // dark grey
    case WarpState::ImcMiss:
      return "#DDDDDD";  // pale grey
    case WarpState::Count:
      break;
  }
  return "#000000";
}

const std::array<WarpState, scheduler::kWarpStates>& warp_states_in_table_order() {
  static constexpr std::array<WarpState, scheduler::kWarpStates> order = {
      WarpState::Barrier,          WarpState::BranchResolving, WarpState::Drain,
      WarpState::ImcMiss,          WarpState::LgThrottle,      WarpState::LongScoreboard,
      WarpState::MathPipeThrottle, WarpState::MioThrottle,     WarpState::NotSelected,
      WarpState::Selected,         WarpState::ShortScoreboard, WarpState::Wait,
      WarpState::Launching};
  return order;
}

std::vector<std::uint64_t> axis_ticks(std::uint64_t end, std::uint64_t most) {
  if (end == 0 || most == 0) return {0};
  std::uint64_t step = 1;
  for (std::uint64_t power = 1;; power *= 10) {
    bool found = false;
    for (const std::uint64_t m : {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{5}}) {
      if (end / (power * m) <= most) {
        step = power * m;
        found = true;
        break;
      }
    }
    if (found) break;
  }
  std::vector<std::uint64_t> ticks;
  for (std::uint64_t t = 0; t <= end; t += step) ticks.push_back(t);
  return ticks;
}

std::string svg_escape(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace warpsim::cli
