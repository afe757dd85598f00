// Names: of the checks' categories and spaces, and of the array or buffer element an address
// holds (tile[3][5], out[17]), so a report points at the kernel's own variables.
#include <fmt/format.h>

#include "sim/check/hazard_checker.hpp"
#include "sim/core/exec/state.hpp"

namespace warpsim::check {

const char* category_name(Category c) {
  switch (c) {
    case Category::Race:
      return "race";
    case Category::Sync:
      return "sync";
    case Category::Init:
      return "init";
    case Category::Memory:
      return "memory";
  }
  return "?";
}

const char* space_name(Space s) {
  switch (s) {
    case Space::Shared:
      return "shared";
    case Space::Global:
      return "global";
    case Space::Local:
      return "local";
  }
  return "?";
}

namespace {

// "[i][j]" of element `linear` of an array with `dims` (the last fastest); one index without.
std::string indices(std::uint64_t linear, const std::vector<std::uint64_t>& dims) {
  if (dims.size() <= 1) return fmt::format("[{}]", linear);
  std::vector<std::uint64_t> index(dims.size());
  for (std::size_t k = dims.size(); k-- > 0;) {
    index[k] = linear % dims[k];
    linear /= dims[k];
  }
  std::string out;
  for (const std::uint64_t i : index) out += fmt::format("[{}]", i);
  return out;
}

}  // namespace

std::string HazardChecker::element(const exec::ExecContext& ctx, Space space, std::uint64_t address,
                                   unsigned /*bytes*/) const {
  if (space == Space::Global) {
    for (const exec::GlobalBuffer& b : ctx.global.buffers) {
      if (address < b.base_address || address - b.base_address >= b.bytes.size()) continue;
      return fmt::format("{}[{}]", b.name,
                         (address - b.base_address) / ir::storage_bytes(b.type()));
    }
    return fmt::format("{:#x}", address);
  }
  if (space == Space::Local) return fmt::format("local memory +{}", address);
  const auto rank = static_cast<std::uint32_t>(address >> 40);
  const std::uint64_t offset = address & ((std::uint64_t{1} << 40) - 1);
  const std::string in_block =
      rank == ctx.block->cluster_rank ? "" : fmt::format(" of cluster block {}", rank);
  for (const exec::SharedArrayLayout& a : ctx.program.shared) {
    if (offset < a.offset || offset - a.offset >= std::max<std::uint64_t>(a.bytes, 1)) continue;
    for (const ir::ArrayDecl& d : ctx.program.kernel->arrays) {
      if (d.name != a.name) continue;
      const std::uint64_t element = (offset - a.offset) / ir::size_bytes(d.element);
      return a.name + indices(element, d.dims) + in_block;
    }
    return fmt::format("{} +{}{}", a.name, offset - a.offset, in_block);
  }
  return fmt::format("shared +{}{}", offset, in_block);
}

}  // namespace warpsim::check
