#include "sim/sass/cubin_relocations.hpp"

#include <fmt/format.h>

#include <cstring>
#include <sstream>

namespace warpsim::sass {
namespace {

// ELF64 (the System V ABI's layout, little-endian as every cubin is).
constexpr std::uint32_t kSectionRel = 9;       // SHT_REL
constexpr std::uint32_t kSectionRela = 4;      // SHT_RELA
constexpr std::uint32_t kSectionProgbits = 1;  // SHT_PROGBITS
constexpr std::uint32_t kCuda64 = 2;           // R_CUDA_64: the symbol's 64-bit address plus addend

struct Section {
  std::uint32_t name = 0, type = 0, link = 0;
  std::uint64_t offset = 0, size = 0, entry_size = 0;
};

class ElfReader {
 public:
  explicit ElfReader(const std::vector<std::uint8_t>& bytes) : bytes_(bytes) {}

  template <typename T>
  bool read(std::uint64_t at, T& out) const {
    if (at > bytes_.size() || bytes_.size() - at < sizeof(T)) return false;
    std::memcpy(&out, bytes_.data() + at, sizeof(T));
    return true;
  }

  std::optional<std::string> string_at(const Section& table, std::uint32_t index) const {
    const std::uint64_t at = table.offset + index;
    if (index >= table.size || at >= bytes_.size()) return std::nullopt;
    const auto* start = reinterpret_cast<const char*>(bytes_.data() + at);
    return std::string(start, strnlen(start, bytes_.size() - at));
  }

 private:
  const std::vector<std::uint8_t>& bytes_;
};

// The cubin's section table; nothing (with `error` saying why) when it is no ELF64 file.
std::optional<std::vector<Section>> read_sections(const ElfReader& elf,
                                                  const std::vector<std::uint8_t>& cubin,
                                                  std::uint16_t& names_index, std::string& error) {
  const bool is_elf64 = cubin.size() > 64 &&
                        std::memcmp(cubin.data(),
                                    "\x7f"
                                    "ELF",
                                    4) == 0 &&
                        cubin[4] == 2 && cubin[5] == 1;
  std::uint64_t table_at = 0;
  std::uint16_t entry_size = 0, count = 0;
  if (!is_elf64 || !elf.read(0x28, table_at) || !elf.read(0x3a, entry_size) ||
      !elf.read(0x3c, count) || !elf.read(0x3e, names_index) || entry_size < 64 ||
      names_index >= count) {
    error = "the cubin is not a 64-bit little-endian ELF file";
    return std::nullopt;
  }
  std::vector<Section> sections(count);
  for (std::uint16_t i = 0; i < count; ++i) {
    const std::uint64_t at = table_at + std::uint64_t{i} * entry_size;
    Section& s = sections[i];
    if (!elf.read(at, s.name) || !elf.read(at + 4, s.type) || !elf.read(at + 0x18, s.offset) ||
        !elf.read(at + 0x20, s.size) || !elf.read(at + 0x28, s.link) ||
        !elf.read(at + 0x38, s.entry_size)) {
      error = "the cubin's section table is cut short";
      return std::nullopt;
    }
  }
  return sections;
}

}  // namespace

std::optional<std::vector<ConstantRelocation>> constant_relocations(
    const std::vector<std::uint8_t>& cubin, std::string& error) {
  const ElfReader elf(cubin);
  std::uint16_t names_index = 0;
  const auto read = read_sections(elf, cubin, names_index, error);
  if (!read) return std::nullopt;
  const std::vector<Section>& sections = *read;
  std::vector<ConstantRelocation> out;
  for (const Section& s : sections) {
    if (s.type != kSectionRel && s.type != kSectionRela) continue;
    const auto name = elf.string_at(sections[names_index], s.name);
    if (!name || (*name != ".rela.nv.constant4" && *name != ".rel.nv.constant4")) continue;
    const bool with_addend = s.type == kSectionRela;
    const std::uint64_t step = with_addend ? 24 : 16;
    if (s.link >= sections.size()) {
      error = "a relocation section names no symbol table";
      return std::nullopt;
    }
    const Section& symbols = sections[s.link];
    if (symbols.link >= sections.size()) {
      error = "the symbol table names no string table";
      return std::nullopt;
    }
    for (std::uint64_t at = s.offset; at + step <= s.offset + s.size; at += step) {
      std::uint64_t offset = 0, info = 0;
      std::int64_t addend = 0;
      std::uint32_t symbol_name = 0;
      if (!elf.read(at, offset) || !elf.read(at + 8, info) ||
          (with_addend && !elf.read(at + 16, addend)) ||
          !elf.read(symbols.offset + (info >> 32) * 24, symbol_name)) {
        error = "a constant-bank relocation is cut short";
        return std::nullopt;
      }
      if (static_cast<std::uint32_t>(info) != kCuda64) {
        error = "constant bank 4 holds a relocation of type " +
                std::to_string(static_cast<std::uint32_t>(info)) +
                " (only 64-bit addresses are modelled)";
        return std::nullopt;
      }
      const auto symbol = elf.string_at(sections[symbols.link], symbol_name);
      if (!symbol) {
        error = "a constant-bank relocation names no symbol";
        return std::nullopt;
      }
      out.push_back({static_cast<std::uint32_t>(offset), *symbol, addend});
    }
  }
  return out;
}

std::optional<KernelConstantBanks> kernel_constant_banks(const std::vector<std::uint8_t>& cubin,
                                                         std::string& error) {
  const ElfReader elf(cubin);
  std::uint16_t names_index = 0;
  const auto read = read_sections(elf, cubin, names_index, error);
  if (!read) return std::nullopt;
  const std::vector<Section>& sections = *read;
  constexpr std::string_view kPrefix = ".nv.constant2.";
  constexpr std::string_view kRelocated[] = {".rel.nv.constant2.", ".rela.nv.constant2."};
  KernelConstantBanks out;
  for (const Section& s : sections) {
    const auto name = elf.string_at(sections[names_index], s.name);
    if (!name) continue;
    for (const std::string_view relocated : kRelocated) {
      // The jump tables ptxas writes hold offsets within the kernel: nothing to relocate.
      if (name->starts_with(relocated) && s.size != 0) {
        error = "constant bank 2 of " + name->substr(relocated.size()) +
                " holds relocations (not modelled)";
        return std::nullopt;
      }
    }
    if (!name->starts_with(kPrefix) || s.type != kSectionProgbits) continue;
    std::vector<std::uint8_t> bytes(s.size);
    if (s.offset > cubin.size() || cubin.size() - s.offset < s.size) {
      error = "constant bank 2 of " + name->substr(kPrefix.size()) + " is cut short";
      return std::nullopt;
    }
    std::memcpy(bytes.data(), cubin.data() + s.offset, s.size);
    out[name->substr(kPrefix.size())] = std::move(bytes);
  }
  return out;
}

std::string banks_text(const KernelConstantBanks& banks) {
  std::string text;
  for (const auto& [kernel, bytes] : banks) {
    if (bytes.empty()) continue;
    text += kernel + ' ';
    for (const std::uint8_t b : bytes) text += fmt::format("{:02x}", b);
    text += '\n';
  }
  return text;
}

KernelConstantBanks parse_banks_text(const std::string& text) {
  KernelConstantBanks out;
  std::istringstream lines(text);
  std::string kernel, hex;
  while (lines >> kernel >> hex) {
    std::vector<std::uint8_t>& bytes = out[kernel];
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
      bytes.push_back(static_cast<std::uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

std::string relocations_text(const std::vector<ConstantRelocation>& relocations) {
  std::string text;
  for (const ConstantRelocation& r : relocations) {
    text += std::to_string(r.offset) + ' ' + r.symbol + ' ' + std::to_string(r.addend) + '\n';
  }
  return text;
}

std::vector<ConstantRelocation> parse_relocations_text(const std::string& text) {
  std::vector<ConstantRelocation> out;
  std::istringstream lines(text);
  ConstantRelocation r;
  while (lines >> r.offset >> r.symbol >> r.addend) out.push_back(r);
  return out;
}

}  // namespace warpsim::sass
