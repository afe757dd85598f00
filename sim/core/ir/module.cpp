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

std::pair<Literal, Literal> random_range(const BufferSpec& spec) {
  const bool floating = is_float(spec.element);
  const Literal low = floating ? Literal{FloatLiteral{0.0}} : Literal{IntLiteral{0, false}};
  const Literal high = floating ? Literal{FloatLiteral{1.0}} : Literal{IntLiteral{100, false}};
  return {spec.min.value_or(low), spec.max.value_or(high)};
}

std::string Module::origin_text(const SourceOrigin& origin) const {
  if (!origin.known() || origin.file > source_files.size()) return "";
  return source_files[origin.file - 1] + ":" + std::to_string(origin.line);
}

}  // namespace warpsim::ir
