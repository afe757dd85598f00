// The operands of one SASS instruction as nvdisasm lists them ("R6, desc[UR6][R6.64+0x4]"),
// read into Operand values (sass_program.hpp). Internal to the decoder.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/sass/sass_program.hpp"

namespace warpsim::sass {

// Splits at the commas outside brackets and parentheses; each piece trimmed, `.reuse` removed.
std::vector<std::string> split_operands(std::string_view text);

// One operand; a branch target ("`(.L_x_3)") is not one (see target_label). On failure, nothing
// and `why` says what is not understood.
std::optional<Operand> parse_operand(std::string_view text, std::string& why);

// "`(.L_x_3)" -> ".L_x_3"; nothing when `text` is not a target.
std::optional<std::string> target_label(std::string_view text);

}  // namespace warpsim::sass
