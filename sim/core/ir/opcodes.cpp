#include "sim/core/ir/opcodes.hpp"

#include <array>

namespace warpsim::ir {
namespace {

constexpr bool terminator(std::string_view spelling) {
  return spelling == "br" || spelling == "jmp" || spelling == "ret";
}

constexpr std::array kTable = {
#define X(e, spelling, mods, types, result, sig, latency) \
  OpcodeInfo{spelling,                                    \
             ModifierPattern::mods,                       \
             types,                                       \
             ResultRule::result,                          \
             sig,                                         \
             LatencyClass::latency,                       \
             terminator(spelling)},
#include "sim/core/ir/opcodes.def"
#undef X
};

}  // namespace

const OpcodeInfo& opcode_info(Opcode op) {
  return kTable.at(static_cast<std::size_t>(op));
}

std::optional<Opcode> find_opcode(std::string_view spelling) {
  for (std::size_t i = 0; i < kTable.size(); ++i) {
    if (kTable[i].spelling == spelling) return static_cast<Opcode>(i);
  }
  return std::nullopt;
}

}  // namespace warpsim::ir
