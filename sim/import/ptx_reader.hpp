// Reads PTX text (what nvcc -ptx writes, or a hand-written .ptx file) into ptx::Module.
// Contract: never throws for bad text; problems come back as located errors, and reading stops
// at the first one (PTX from a compiler is either well formed or not worth guessing at).
#pragma once

#include <string_view>
#include <variant>

#include "sim/import/ptx_syntax.hpp"

namespace warpsim::ptx {

std::variant<Module, ReadError> read_ptx(std::string_view text);

}  // namespace warpsim::ptx
