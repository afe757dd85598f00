#include "tools/warpsim/timeline_picture.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "tools/warpsim/picture_style.hpp"
#include "tools/warpsim/run_report.hpp"

namespace warpsim::cli {
namespace {

using scheduler::kWarpStates;
using scheduler::SmActivity;
using scheduler::TimelineSegment;
using scheduler::WarpState;

constexpr double kLeft = 130, kPlot = 1200, kRight = 30;
constexpr double kWarpRow = 9, kBlockRow = 13, kSlotGap = 6, kBar = 14;

double share(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

struct Canvas {
  std::string svg;
  double scale = 1;  // pixels per cycle
  double x(std::uint64_t cycle) const { return kLeft + static_cast<double>(cycle) * scale; }
};

// One bar of the states' shares of warp cycles, in table order, labelled where wide enough.
void state_bar(Canvas& c, double y, const std::string& label,
               const std::array<std::uint64_t, kWarpStates>& cycles) {
  std::uint64_t total = 0;
  for (const std::uint64_t v : cycles) total += v;
  c.svg += fmt::format("<text x=\"{}\" y=\"{:.0f}\" text-anchor=\"end\">{}</text>\n", kLeft - 6,
                       y + 11, label);
  double x = kLeft;
  for (const WarpState s : warp_states_in_table_order()) {
    const double pct = share(cycles[static_cast<std::size_t>(s)], total);
    if (pct == 0) continue;
    const double w = kPlot * pct / 100.0;
    c.svg += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{:.0f}\" width=\"{:.1f}\" height=\"{}\" fill=\"{}\"><title>{}: "
        "{} warp cycles, {:.1f} %</title></rect>\n",
        x, y, w, kBar, warp_state_colour(s), scheduler::warp_state_name(s),
        with_commas(cycles[static_cast<std::size_t>(s)]), pct);
    if (w > 34) {
      c.svg += fmt::format(
          "<text x=\"{:.1f}\" y=\"{:.0f}\" text-anchor=\"middle\" font-size=\"9\" "
          "fill=\"{}\">{:.0f} %</text>\n",
          x + w / 2, y + 10,
          s == WarpState::Wait || s == WarpState::ShortScoreboard || s == WarpState::Launching
              ? "black"
              : "white",
          pct);
    }
    x += w;
  }
}

void cycle_axis(Canvas& c, double top, double bottom, std::uint64_t end) {
  for (const std::uint64_t t : axis_ticks(end, 10)) {
    c.svg += fmt::format(
        "<line x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1:.0f}\" y2=\"{2:.0f}\" stroke=\"#e4e4e4\"/>"
        "<text x=\"{0:.1f}\" y=\"{3:.0f}\" text-anchor=\"middle\">{4}</text>\n",
        c.x(t), top, bottom, top - 4, with_commas(t));
  }
  c.svg += fmt::format(
      "<text x=\"{:.0f}\" y=\"{:.0f}\" text-anchor=\"middle\">cycle of the kernel body</text>\n",
      kLeft + kPlot / 2, bottom + 14);
}

// Each warp row as one path per state: a picture of any length stays a few hundred shapes.
void warp_rows(Canvas& c, const std::vector<TimelineSegment>& spans,
               const std::map<std::uint32_t, double>& row_y) {
  std::map<std::pair<std::uint32_t, WarpState>, std::string> paths;
  for (const TimelineSegment& s : spans) {
    const auto y = row_y.find(s.warp);
    if (y == row_y.end()) continue;
    const double w = std::max(0.3, static_cast<double>(s.end - s.start) * c.scale);
    paths[{s.warp, s.state}] += fmt::format("M{:.1f} {:.0f}h{:.1f}v{}h{:.1f}z", c.x(s.start),
                                            y->second, w, kWarpRow - 1, -w);
  }
  for (const auto& [key, d] : paths) {
    c.svg += fmt::format("<path fill=\"{}\" d=\"{}\"><title>{}</title></path>\n",
                         warp_state_colour(key.second), d, scheduler::warp_state_name(key.second));
  }
}

// Each block's span in its slot's row, and each warp row's label. A warp slot keeps its
// sub-partition, or (blocks of a multiple of four warps) each block rotates them: a label names
// the sub-partition where it is fixed, and each block's tooltip where its warp 0 ran.
void block_and_warp_labels(Canvas& c, const SmActivity& sm, const std::vector<double>& slot_y,
                           const std::map<std::uint32_t, double>& row_y) {
  std::map<std::uint32_t, std::set<std::uint8_t>> partitions;
  std::map<std::uint64_t, unsigned> first_warp_partition;  // by block
  for (const TimelineSegment& s : sm.segments) {
    partitions[s.warp].insert(s.sub_partition);
    if (s.warp % sm.warps_per_block == 0) first_warp_partition[s.block] = s.sub_partition;
  }
  std::size_t shade = 0;
  for (const scheduler::BlockSpan& b : sm.blocks) {
    const double x0 = c.x(b.assigned), w = std::max(0.5, c.x(b.retired) - x0);
    c.svg += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{:.0f}\" width=\"{:.1f}\" height=\"{}\" fill=\"{}\"><title>block "
        "{}: assigned at cycle {}, warps from {}, retired at {}; its warp 0 on SMSP {}</title>"
        "</rect>\n",
        x0, slot_y[b.slot], w, kBlockRow - 2, (shade++ % 2) != 0 ? "#d0d0d0" : "#e6e6e6", b.block,
        b.assigned, b.started, b.retired, first_warp_partition[b.block]);
    if (w > 48) {
      c.svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.0f}\" font-size=\"9\">block {}</text>\n",
                           x0 + 2, slot_y[b.slot] + 9, b.block);
    }
  }
  for (const auto& [warp, wy] : row_y) {
    const std::set<std::uint8_t>& p = partitions[warp];
    c.svg += fmt::format("<text x=\"{}\" y=\"{:.0f}\" font-size=\"8\">warp {}{}</text>\n", 34,
                         wy + 7, warp % sm.warps_per_block,
                         p.size() == 1 ? fmt::format(" · SMSP {}", *p.begin()) : "");
  }
}

std::string no_blocks_picture(const SmActivity& sm, const std::string& kernel) {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"760\" height=\"60\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"760\" height=\"60\" "
      "fill=\"white\"/>\n<text x=\"10\" y=\"24\" font-weight=\"bold\">{}: SM {}</text>\n"
      "<text x=\"10\" y=\"44\">SM {} ran no blocks of this launch: the grid has fewer blocks "
      "than the GPU has SMs (choose another with --timeline-sm).</text>\n</svg>\n",
      svg_escape(kernel), sm.sm, sm.sm);
}

std::string timeline_svg(const scheduler::TimingStats& t, const SmActivity& sm,
                         const std::string& kernel) {
  if (sm.blocks.empty()) return no_blocks_picture(sm, kernel);
  const std::uint64_t end = std::max<std::uint64_t>(1, t.kernel_cycles);
  Canvas c;
  c.scale = kPlot / static_cast<double>(end);
  // Rows: each slot's block row, then its warps.
  std::uint32_t slots = 0;
  for (const scheduler::BlockSpan& b : sm.blocks) slots = std::max(slots, b.slot + 1);
  const double rows_top = 140;
  std::map<std::uint32_t, double> row_y;
  std::vector<double> slot_y(slots);
  double y = rows_top;
  for (std::uint32_t s = 0; s < slots; ++s) {
    slot_y[s] = y;
    y += kBlockRow;
    for (std::uint32_t w = 0; w < sm.warps_per_block; ++w) {
      row_y[s * sm.warps_per_block + w] = y;
      y += kWarpRow;
    }
    y += kSlotGap;
  }
  const double rows_bottom = y;
  const double legend_top = rows_bottom + 34;
  const double height = legend_top + 18 * 7 + 10;
  c.svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" "
      "font-family=\"sans-serif\" font-size=\"10\">\n<rect width=\"100%\" height=\"100%\" "
      "fill=\"white\"/>\n",
      kLeft + kPlot + kRight, height);
  std::uint64_t last_retire = 0;
  for (const scheduler::BlockSpan& b : sm.blocks) last_retire = std::max(last_retire, b.retired);
  c.svg += fmt::format(
      "<text x=\"10\" y=\"18\" font-size=\"14\" font-weight=\"bold\">{}: warp states on SM {} "
      "({} blocks in {} slots of {} warps)</text>\n",
      svg_escape(kernel), sm.sm, sm.blocks.size(), slots, sm.warps_per_block);
  c.svg += fmt::format(
      "<text x=\"10\" y=\"34\">Cycles of the kernel body, 0 to {} (its last block retired on "
      "this SM at {}). The launch's gpc__cycles_elapsed.max, {}, adds {} cycles of launch "
      "overhead.</text>\n",
      with_commas(end), with_commas(last_retire), with_commas(t.elapsed_cycles),
      with_commas(t.elapsed_cycles - t.kernel_cycles));
  const std::uint64_t pixel =
      (end + static_cast<std::uint64_t>(kPlot) - 1) / static_cast<std::uint64_t>(kPlot);
  const std::uint64_t quantum = std::max(pixel, sm.quantum);
  if (quantum > 1) {
    c.svg += fmt::format(
        "<text x=\"10\" y=\"50\">Each stretch of {} cycles shows the state that held most of "
        "it; the bars below count every cycle.</text>\n",
        with_commas(quantum));
  }
  std::array<std::uint64_t, kWarpStates> all{};
  for (std::size_t k = 0; k < kWarpStates; ++k) all[k] = t.warp_state_cycles[k];
  state_bar(c, 62, fmt::format("SM {} warp cycles", sm.sm), sm.state_cycles);
  state_bar(c, 82, "all SMs", all);
  cycle_axis(c, rows_top - 10, rows_bottom, end);
  for (std::uint32_t s = 0; s < slots; ++s) {
    c.svg += fmt::format("<text x=\"{}\" y=\"{:.0f}\" font-weight=\"bold\">slot {}</text>\n", 10,
                         slot_y[s] + 10, s);
  }
  block_and_warp_labels(c, sm, slot_y, row_y);
  warp_rows(c, scheduler::bin_segments(sm.segments, quantum), row_y);
  if (sm.barriers.size() <= 2000) {
    for (const scheduler::BarrierRelease& b : sm.barriers) {
      c.svg += fmt::format(
          "<path d=\"M{0:.1f} {1:.0f}l-3 -5h6z\" fill=\"#000\"><title>barrier of block {2} "
          "released at cycle {3}</title></path>\n",
          c.x(b.cycle), slot_y[b.slot] + kBlockRow - 2, b.block, b.cycle);
    }
  }
  // Legend, in Nsight Compute's order, with this SM's shares.
  std::uint64_t total = 0;
  for (const std::uint64_t v : sm.state_cycles) total += v;
  std::size_t i = 0;
  for (const WarpState s : warp_states_in_table_order()) {
    const std::size_t column = i / 7;  // columns of seven
    const double lx = kLeft + 300 * static_cast<double>(column);
    const double ly = legend_top + static_cast<double>(i % 7) * 18;
    c.svg += fmt::format(
        "<rect x=\"{:.0f}\" y=\"{:.0f}\" width=\"12\" height=\"12\" fill=\"{}\"/><text "
        "x=\"{:.0f}\" y=\"{:.0f}\">{} ({:.1f} % on SM {})</text>\n",
        lx, ly, warp_state_colour(s), lx + 18, ly + 10, scheduler::warp_state_name(s),
        share(sm.state_cycles[static_cast<std::size_t>(s)], total), sm.sm);
    ++i;
  }
  const double lx = kLeft + 600;
  c.svg += fmt::format(
      "<rect x=\"{0:.0f}\" y=\"{1:.0f}\" width=\"12\" height=\"12\" fill=\"#e6e6e6\"/><text "
      "x=\"{2:.0f}\" y=\"{3:.0f}\">a block's stay in its slot (assigned to retired)</text>\n"
      "<path d=\"M{4:.0f} {5:.0f}l-3 -5h6z\"/><text x=\"{2:.0f}\" y=\"{6:.0f}\">barrier "
      "released</text>\n<rect x=\"{0:.0f}\" y=\"{7:.0f}\" width=\"12\" height=\"12\" "
      "fill=\"white\" stroke=\"#999\"/><text x=\"{2:.0f}\" y=\"{8:.0f}\">no block in the slot: "
      "not yet assigned, between blocks, or done</text>\n",
      lx, legend_top, lx + 18, legend_top + 10, lx + 6, legend_top + 30, legend_top + 28,
      legend_top + 36, legend_top + 46);
  c.svg += "</svg>\n";
  return c.svg;
}

// The page around the picture: the states' table (this SM and all SMs) and the blocks.
std::string timeline_page(const scheduler::TimingStats& t, const SmActivity& sm,
                          const std::string& kernel, const std::string& svg) {
  std::string page = fmt::format(
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{0} on SM {1}</title>"
      "<style>body{{font-family:sans-serif;font-size:13px}}table{{border-collapse:collapse}}"
      "td,th{{padding:2px 10px;text-align:right}}td:first-child,th:first-child{{text-align:"
      "left}}</style></head><body>\n{2}\n<p>For an interactive view of every SM, write a trace "
      "with <code>--trace FILE.json</code> and open it in Perfetto (ui.perfetto.dev).</p>\n"
      "<h3>Warp states (warp cycles)</h3>\n<table><tr><th>state</th><th>SM {1}</th><th>%</th>"
      "<th>all SMs</th><th>%</th></tr>\n",
      svg_escape(kernel), sm.sm, svg);
  std::uint64_t here = 0, all = 0;
  for (std::size_t k = 0; k < kWarpStates; ++k) {
    here += sm.state_cycles[k];
    all += t.warp_state_cycles[k];
  }
  for (const WarpState s : warp_states_in_table_order()) {
    const auto k = static_cast<std::size_t>(s);
    page += fmt::format(
        "<tr><td><span style=\"color:{}\">&#9632;</span> {}</td><td>{}</td><td>{:.1f}</td>"
        "<td>{}</td><td>{:.1f}</td></tr>\n",
        warp_state_colour(s), scheduler::warp_state_name(s), with_commas(sm.state_cycles[k]),
        share(sm.state_cycles[k], here), with_commas(t.warp_state_cycles[k]),
        share(t.warp_state_cycles[k], all));
  }
  page +=
      "</table>\n<h3>Blocks</h3>\n<table><tr><th>block</th><th>slot</th><th>assigned</th>"
      "<th>warps from</th><th>retired</th></tr>\n";
  for (const scheduler::BlockSpan& b : sm.blocks) {
    page += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                        b.block, b.slot, b.assigned, b.started, b.retired);
  }
  return page + "</table>\n</body></html>\n";
}

}  // namespace

std::string timeline_picture(const scheduler::TimingStats& t, const SmActivity& sm,
                             const std::string& kernel, bool html) {
  const std::string svg = timeline_svg(t, sm, kernel);
  return html ? timeline_page(t, sm, kernel, svg) : svg;
}

}  // namespace warpsim::cli
