#include "tools/warpsim/bank_picture.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <ostream>
#include <vector>

#include "tools/warpsim/picture_style.hpp"

namespace warpsim::cli {
namespace {

// The label of a cell: its first lane, with '+' when several lanes share the word.
std::string cell_label(const memory::BankSlot& s) {
  const auto first = std::countr_zero(s.lanes);
  return std::to_string(first) + (std::popcount(s.lanes) > 1 ? "+" : "");
}

// Which wavefronts serve which phase (a group of lanes the shared pipe takes at once: all 32
// for 32-bit accesses, 16 for 64-bit, 8 for 128-bit), as labelled brackets left of the rows.
void write_phase_labels(std::ostream& out, const memory::BankMap& map, int top, int row) {
  struct Phase {
    unsigned first = ~0U, last = 0;
    std::uint32_t lanes = 0;
  };
  std::vector<Phase> phases;
  for (const memory::BankSlot& s : map.slots) {
    if (s.phase >= phases.size()) phases.resize(s.phase + 1);
    Phase& p = phases[s.phase];
    p.first = std::min(p.first, s.wavefront);
    p.last = std::max(p.last, s.wavefront);
    p.lanes |= s.lanes;
  }
  for (std::size_t k = 0; k < phases.size(); ++k) {
    const Phase& p = phases[k];
    if (p.lanes == 0) continue;
    const int y0 = top + row * static_cast<int>(p.first);
    const int h = row * static_cast<int>(p.last - p.first + 1);
    out << fmt::format(
        "<rect x=\"4\" y=\"{}\" width=\"100\" height=\"{}\" fill=\"{}\" stroke=\"#999\"/>"
        "<text x=\"8\" y=\"{}\">phase {}: lanes {}-{}</text>\n",
        y0 + 1, h - 2, k % 2 == 0 ? "#eef3fb" : "#fbf3e6", y0 + 16, k + 1,
        std::countr_zero(p.lanes), 31 - std::countl_zero(p.lanes));
  }
}

}  // namespace

void write_bank_grid(std::ostream& out, const memory::BankMap& map) {
  out << "wavefront | bank\n          |";
  for (unsigned b = 0; b < memory::kBanks; ++b) out << fmt::format("{:>4}", b);
  out << "\n----------+" << std::string(std::size_t{4} * memory::kBanks, '-') << '\n';
  std::vector<std::vector<std::string>> rows(map.wavefronts,
                                             std::vector<std::string>(memory::kBanks, "."));
  for (const memory::BankSlot& s : map.slots) rows[s.wavefront][s.bank] = cell_label(s);
  for (unsigned w = 0; w < map.wavefronts; ++w) {
    out << fmt::format("{:>9} |", w + 1);
    for (const std::string& cell : rows[w]) out << fmt::format("{:>4}", cell);
    out << '\n';
  }
  out << "(cells: the first lane touching the word the bank serves; + several lanes share it)\n";
}

void write_bank_svg(std::ostream& out, const memory::BankMap& map, const std::string& title) {
  constexpr int kCellW = 34, kCellH = 24, kLeft = 180, kTop = 80;
  const int rows = static_cast<int>(map.wavefronts);
  const int width = kLeft + kCellW * static_cast<int>(memory::kBanks) + 16;
  const int height = kTop + kCellH * rows + 40;
  out << fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "font-family=\"sans-serif\" font-size=\"11\">\n",
      width, height);
  out << fmt::format("<rect width=\"{}\" height=\"{}\" fill=\"white\"/>\n", width, height);
  out << fmt::format("<text x=\"8\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{}</text>\n",
                     svg_escape(title));
  out << fmt::format(
      "<text x=\"8\" y=\"38\">conflict degree {} (the most words one bank serves in a "
      "phase); {} phase{} of the warp's lanes, {} wavefront{} where {} would do</text>\n",
      map.max_words_per_bank <= 1 ? std::string("none")
                                  : fmt::format("{}-way", map.max_words_per_bank),
      map.phases, map.phases == 1 ? "" : "s", map.wavefronts, map.wavefronts == 1 ? "" : "s",
      map.passes);
  write_phase_labels(out, map, kTop, kCellH);
  out << fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">bank</text>\n",
                     kLeft + kCellW * 16, kTop - 24);
  for (unsigned b = 0; b < memory::kBanks; ++b) {
    out << fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                       kLeft + kCellW * static_cast<int>(b) + kCellW / 2, kTop - 8, b);
  }
  for (int w = 0; w < rows; ++w) {
    out << fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">wavefront {}</text>\n",
                       kLeft - 8, kTop + kCellH * w + kCellH / 2 + 4, w + 1);
    for (unsigned b = 0; b < memory::kBanks; ++b) {
      out << fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#f4f4f4\" "
          "stroke=\"#ccc\"/>\n",
          kLeft + kCellW * static_cast<int>(b), kTop + kCellH * w, kCellW, kCellH);
    }
  }
  for (const memory::BankSlot& s : map.slots) {
    // One hue per wavefront, spread around the colour wheel.
    const int hue = static_cast<int>((s.wavefront * 137) % 360);
    const int x = kLeft + kCellW * static_cast<int>(s.bank);
    const int y = kTop + kCellH * static_cast<int>(s.wavefront);
    out << fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"hsl({},70%,72%)\" "
        "stroke=\"#555\"><title>bank {} word {} lanes {:#010x}</title></rect>\n",
        x, y, kCellW, kCellH, hue, s.bank, s.word, s.lanes);
    out << fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">L{}</text>\n",
                       x + kCellW / 2, y + kCellH / 2 + 4, cell_label(s));
  }
  out << fmt::format(
      "<text x=\"8\" y=\"{}\">cells: lane touching the word the bank serves in that wavefront "
      "(+ = several lanes share the word)</text>\n",
      height - 12);
  out << "</svg>\n";
}

}  // namespace warpsim::cli
