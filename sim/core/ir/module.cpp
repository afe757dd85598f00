#include "sim/core/ir/module.hpp"

#include <bit>
#include <string>

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

const ArrayDecl* Module::find_global(std::string_view name) const {
  for (const ArrayDecl& a : globals) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

std::string Module::origin_text(const SourceOrigin& origin) const {
  if (!origin.known() || origin.file > source_files.size()) return "";
  return source_files[origin.file - 1] + ":" + std::to_string(origin.line);
}

}  // namespace warpsim::ir
