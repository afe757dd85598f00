// The addresses ptxas leaves to the loader: in a cubin (an ELF file), the relocations of
// constant bank 4 (`.rela.nv.constant4`), where ptxas places the 64-bit address of each module
// global variable a kernel reaches (`LDC.64 R2, c[0x4][0x0]` then `LDG [R2.64]`). The SASS
// executor fills bank 4 from them with the addresses of the launch's global variables.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warpsim::sass {

struct ConstantRelocation {
  std::uint32_t offset = 0;  // in constant bank 4
  std::string symbol;        // the global variable, as the PTX names it
  std::int64_t addend = 0;   // bytes added to its address
};

// The bank-4 relocations of `cubin`; nothing (with `error` saying why) when the file is not an
// ELF64 cubin or holds a relocation other than a 64-bit address (R_CUDA_64).
std::optional<std::vector<ConstantRelocation>> constant_relocations(
    const std::vector<std::uint8_t>& cubin, std::string& error);

// Each kernel's constant bank 2 (`.nv.constant2.ENTRY`), by entry name: the kernel's own
// constants ptxas places there, the jump tables of its switch statements (`LDC R2, c[0x2][R4]`
// then `BRX R2`) among them, each entry a target's byte offset within the kernel. Nothing (with
// `error`) when the file is no ELF64 cubin or bank 2 needs relocating.
using KernelConstantBanks = std::map<std::string, std::vector<std::uint8_t>>;
std::optional<KernelConstantBanks> kernel_constant_banks(const std::vector<std::uint8_t>& cubin,
                                                         std::string& error);
// One line per kernel, "ENTRY HEXBYTES", and back (the tool cache keeps text).
std::string banks_text(const KernelConstantBanks& banks);
KernelConstantBanks parse_banks_text(const std::string& text);

// One line per relocation, "OFFSET SYMBOL ADDEND", and back (the tool cache keeps text).
std::string relocations_text(const std::vector<ConstantRelocation>& relocations);
std::vector<ConstantRelocation> parse_relocations_text(const std::string& text);

}  // namespace warpsim::sass
