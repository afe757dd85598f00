#include "tools/warpsim/bank_picture.hpp"

#include <fmt/format.h>

#include <bit>
#include <ostream>
#include <vector>

namespace warpsim::cli {
namespace {

// The label of a cell: its first lane, with '+' when several lanes share the word.
std::string cell_label(const memory::BankSlot& s) {
  const auto first = std::countr_zero(s.lanes);
  return std::to_string(first) + (std::popcount(s.lanes) > 1 ? "+" : "");
}

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
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
      default:
        out += c;
    }
  }
  return out;
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
  constexpr int kCellW = 34, kCellH = 24, kLeft = 96, kTop = 64;
  const int rows = static_cast<int>(map.wavefronts);
  const int width = kLeft + kCellW * static_cast<int>(memory::kBanks) + 16;
  const int height = kTop + kCellH * rows + 40;
  out << fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "font-family=\"sans-serif\" font-size=\"11\">\n",
      width, height);
  out << fmt::format("<rect width=\"{}\" height=\"{}\" fill=\"white\"/>\n", width, height);
  out << fmt::format("<text x=\"8\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{}</text>\n",
                     escape(title));
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
