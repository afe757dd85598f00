// A kernel's SASS as the disassembler lists it (`nvdisasm -hex -c` of a cubin): per function,
// each instruction's address, guard predicate, opcode with its modifiers, operands, the two
// 64-bit words of its encoding, and the scheduling controls ptxas encoded in them.
//
// The controls (Volta and later, sm_70 to sm_90: 128-bit instructions) are bits 105-125 of the
// instruction, bits 41-61 of its high word:
//   [0:3]   stall: cycles the scheduler waits before issuing the warp's next instruction
//   [4]     yield: the yield hint bit, as encoded
//   [5:7]   write barrier: the scoreboard (0-5) a variable-latency result releases, 7: none
//   [8:10]  read barrier: the scoreboard released once the operands are read, 7: none
//   [11:16] wait mask: the scoreboards (bit i: barrier i) to wait for before issuing
//   [17:20] reuse: operand-reuse cache flags, one per source slot
// (the layout published by Jia et al., "Dissecting the NVIDIA Volta GPU Architecture via
// Microbenchmarking", 2018, and used by the Turing/Ampere assemblers built on it).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::sass {

struct Controls {
  std::uint8_t stall = 0;
  bool yield = false;
  std::optional<std::uint8_t> write_barrier, read_barrier;
  std::uint8_t wait_mask = 0;
  std::uint8_t reuse = 0;
};

// The controls of an instruction whose high 64-bit word is `high`.
Controls decode_controls(std::uint64_t high);

struct SassInstruction {
  std::uint32_t address = 0;  // byte offset in the function
  std::string guard;          // "@P0", "@!P1", or empty
  std::string opcode;         // with its modifiers: "LDG.E.128"
  std::string operands;       // as listed: "R6, desc[UR6][R6.64+0x4]"
  std::uint64_t low = 0, high = 0;
  Controls controls;
  // Where the line information places it (`nvdisasm -gi` of a cubin from `ptxas -lineinfo`):
  // the source file ptxas was told of and its line, for inlined code the outermost call's;
  // 0 when the listing has none.
  std::string source_file;
  std::uint32_t source_line = 0;
  // The opcode without its modifiers ("LDG").
  std::string_view base() const { return std::string_view(opcode).substr(0, opcode.find('.')); }
};

struct SassFunction {
  std::string name;  // as the cubin names it (a kernel's PTX name)
  std::vector<SassInstruction> instructions;
  std::vector<std::pair<std::string, std::uint32_t>> labels;  // ".L_x_0" and its address
};

struct SassListing {
  std::vector<SassFunction> functions;
  const SassFunction* find(std::string_view name) const;
};

struct ListingError {
  std::uint32_t line = 0;  // of the listing
  std::string message;
};

// Reads `nvdisasm -hex -c [-g]` output; a line that looks like an instruction but does not parse is
// an error naming the line.
std::optional<SassListing> parse_listing(std::string_view text, ListingError& error);

}  // namespace warpsim::sass
