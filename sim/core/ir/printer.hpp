// Module to canonical text. Contract: parse(print(m)) == m for every module the verifier
// accepts (comments and layout are not kept; meaning is).
#pragma once

#include <iosfwd>
#include <string>

#include "sim/core/ir/module.hpp"

namespace warpsim::ir {

void print(std::ostream& out, const Module& module);
std::string to_string(const Module& module);
std::string to_string(const Instruction& inst);
std::string to_string(const Value& value);
std::string to_string(const Literal& literal);
std::string opcode_text(const Instruction& inst);  // e.g. "ld.global.v4.f32"

}  // namespace warpsim::ir
