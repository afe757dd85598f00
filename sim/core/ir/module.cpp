#include "sim/core/ir/module.hpp"

#include <bit>

namespace warpsim::ir {

bool FloatLiteral::operator==(const FloatLiteral& other) const {
  return std::bit_cast<std::uint64_t>(value) == std::bit_cast<std::uint64_t>(other.value);
}

const Kernel* Module::find_kernel(std::string_view name) const {
  for (const Kernel& k : kernels) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

const ArrayDecl* Module::find_constant(std::string_view name) const {
  for (const ArrayDecl& a : constants) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

}  // namespace warpsim::ir
