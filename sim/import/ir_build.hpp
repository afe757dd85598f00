// Small constructors of IR operands for the translation files: an operand from a value, a
// register by name, an unsigned literal.
#pragma once

#include <cstdint>
#include <string>

#include "sim/core/ir/module.hpp"

namespace warpsim::ptx {

inline ir::Operand op(ir::ValueOperand v) {
  return ir::Operand{std::move(v), {}};
}
inline ir::ValueOperand reg(const std::string& name) {
  return {ir::RegRef{name}, {}};
}
inline ir::ValueOperand number(std::uint64_t v) {
  return {ir::IntLiteral{v, false}, {}};
}

}  // namespace warpsim::ptx
