#include "sim/sass/sass_listing.hpp"

#include <algorithm>
#include <charconv>
#include <string>
#include <utility>
#include <vector>

namespace warpsim::sass {
namespace {

using Location = std::pair<std::string, std::uint32_t>;  // a file and its line

std::string_view trim_line(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::optional<std::uint64_t> hex_value(std::string_view s) {
  if (s.starts_with("0x")) s.remove_prefix(2);
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

// The operands without nvdisasm's annotations, `(*"SpillRefill"*)` on a spill's STL and LDL and
// the like, which say why ptxas wrote the instruction, not what it does. A BRX's
// `(*"BRANCH_TARGETS ..."*)` is kept: its targets are read off it.
std::string without_annotations(std::string_view operands) {
  std::string kept;
  for (;;) {
    const std::size_t open = operands.find("(*\"");
    if (open == std::string_view::npos) break;
    const std::size_t close = operands.find("\"*)", open + 3);
    if (close == std::string_view::npos) break;
    const bool targets = operands.substr(open + 3).starts_with("BRANCH_TARGETS ");
    kept += operands.substr(0, targets ? close + 3 : open);
    operands.remove_prefix(close + 3);
  }
  kept += operands;
  return std::string(trim_line(kept));
}

// "/* 0x0000000000027919 */" anywhere in `s`: the word's value.
std::optional<std::uint64_t> encoding_word(std::string_view s) {
  const auto open = s.rfind("/* 0x");
  if (open == std::string_view::npos) return std::nullopt;
  const auto close = s.find("*/", open);
  if (close == std::string_view::npos) return std::nullopt;
  return hex_value(trim_line(s.substr(open + 3, close - open - 3)));
}

// `"FILE", line N` at the start of `text`, which is left after it.
std::optional<Location> read_location(std::string_view& text) {
  if (!text.starts_with('"')) return std::nullopt;
  const auto quote = text.find('"', 1);
  constexpr std::string_view kLine = "\", line ";
  if (quote == std::string_view::npos || text.substr(quote, kLine.size()) != kLine)
    return std::nullopt;
  std::uint32_t n = 0;
  const char* digits = text.data() + quote + kLine.size();
  const auto [end, ec] = std::from_chars(digits, text.data() + text.size(), n);
  if (ec != std::errc()) return std::nullopt;
  Location l{std::string(text.substr(1, quote - 1)), n};
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  return l;
}

}  // namespace

Controls decode_controls(std::uint64_t high) {
  const auto bits = static_cast<std::uint32_t>((high >> 41) & 0x1fffff);
  Controls c;
  c.stall = static_cast<std::uint8_t>(bits & 0xf);
  c.yield = ((bits >> 4) & 1) != 0;
  const auto write = static_cast<std::uint8_t>((bits >> 5) & 7);
  const auto read = static_cast<std::uint8_t>((bits >> 8) & 7);
  if (write != 7) c.write_barrier = write;
  if (read != 7) c.read_barrier = read;
  c.wait_mask = static_cast<std::uint8_t>((bits >> 11) & 0x3f);
  c.reuse = static_cast<std::uint8_t>((bits >> 17) & 0xf);
  return c;
}

const SassFunction* SassListing::find(std::string_view name) const {
  for (const SassFunction& f : functions) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

std::optional<SassListing> parse_listing(std::string_view text, ListingError& error) {
  SassListing listing;
  SassInstruction* pending_high = nullptr;  // waiting for its second encoding line
  std::string source_file;                  // the last line information seen
  std::uint32_t source_line = 0;
  std::vector<Location> chain;  // the inlining chain being read, innermost first
  bool chain_closed = true;     // a line other than line information came since
  std::uint32_t line_number = 0;
  auto fail = [&](const std::string& message) {
    error = {line_number, message};
    return std::nullopt;
  };
  while (!text.empty()) {
    ++line_number;
    const std::size_t nl = text.find('\n');
    const std::string_view line = trim_line(text.substr(0, nl));
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    constexpr std::string_view kSection = ".text.";
    if (line.starts_with(kSection) && line.ends_with(":")) {
      listing.functions.push_back(
          {std::string(line.substr(kSection.size(), line.size() - kSection.size() - 1)), {}, {}});
      pending_high = nullptr;
      source_file.clear();
      source_line = 0;
      chain.clear();
      continue;
    }
    if (listing.functions.empty()) continue;
    SassFunction& f = listing.functions.back();
    // //## File "kernel.kir", line 12: the instructions that follow came from it. Code inlined
    // from a function (`nvdisasm -gi`) is listed as a chain of such lines, innermost first, each
    // `//## File "inner.h", line 110 inlined at "outer.cu", line 17`, the last naming the
    // kernel's own line. The instructions count at the innermost location in the kernel's file,
    // as the import places the IR's: a __device__ function's own line, a header's caller's.
    if (line.starts_with("//## File \"")) {
      if (chain_closed) chain.clear();
      chain_closed = false;
      std::string_view rest = line.substr(std::string_view("//## File ").size());
      const auto inner = read_location(rest);
      if (!inner) return fail("line information without a file and a line");
      if (chain.empty() || chain.back() != *inner) chain.push_back(*inner);
      if (rest.starts_with(" inlined at ")) {
        rest.remove_prefix(std::string_view(" inlined at ").size());
        const auto outer = read_location(rest);
        if (!outer) return fail("an inlined location without a file and a line");
        chain.push_back(*outer);
      }
      const auto own = std::find_if(chain.begin(), chain.end(), [&](const Location& l) {
        return l.first == chain.back().first;
      });
      source_file = own->first;
      source_line = own->second;
      continue;
    }
    chain_closed = true;
    const bool encoding_only = line.starts_with("/* 0x");
    if (encoding_only && pending_high != nullptr) {
      const auto word = encoding_word(line);
      if (!word) return fail("an instruction's second encoding word is missing");
      pending_high->high = *word;
      pending_high->controls = decode_controls(*word);
      pending_high = nullptr;
      continue;
    }
    // Branch targets (.L_x_N) and the subroutines ptxas places after the kernel ($__internal_...).
    if ((line.starts_with(".L_") || line.starts_with("$")) && line.ends_with(":")) {
      const auto address = f.instructions.empty()
                               ? 0u
                               : f.instructions.back().address + 16;  // the next instruction's
      f.labels.emplace_back(std::string(line.substr(0, line.size() - 1)), address);
      continue;
    }
    // "/*0050*/  @P0 LDG.E R6, desc[UR6][R6.64+0x4] ;   /* 0x0000040606067981 */"
    const std::size_t address_end = line.find("*/");
    if (!line.starts_with("/*") || encoding_only || address_end == std::string_view::npos) continue;
    const auto address = hex_value(line.substr(2, address_end - 2));
    if (!address) continue;  // a comment
    if (pending_high != nullptr) return fail("an instruction's second encoding word is missing");
    SassInstruction inst;
    const auto semicolon = line.find(';');
    const auto low = encoding_word(line);
    if (semicolon == std::string_view::npos || !low) {
      return fail("an instruction line without a ';' or its encoding");
    }
    inst.address = static_cast<std::uint32_t>(*address);
    inst.low = *low;
    inst.source_file = source_file;
    inst.source_line = source_line;
    std::string_view body = trim_line(line.substr(address_end + 2, semicolon - address_end - 2));
    if (body.starts_with("@")) {
      const auto space = body.find(' ');
      inst.guard = std::string(body.substr(0, space));
      body = trim_line(body.substr(space == std::string_view::npos ? body.size() : space));
    }
    const auto space = body.find(' ');
    inst.opcode = std::string(body.substr(0, space));
    if (space != std::string_view::npos)
      inst.operands = without_annotations(trim_line(body.substr(space)));
    if (inst.opcode.empty()) return fail("an instruction without an opcode");
    f.instructions.push_back(std::move(inst));
    pending_high = &f.instructions.back();
  }
  if (pending_high != nullptr)
    return fail("the last instruction's second encoding word is missing");
  return listing;
}

}  // namespace warpsim::sass
