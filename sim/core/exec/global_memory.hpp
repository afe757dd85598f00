// The global memory of one launch: one buffer per pointer parameter, filled as the launch block
// says (zero, iota, constant, or seeded random numbers that are the same on every machine).
// Each buffer has a virtual base address aligned to 512 bytes, as cudaMalloc's are (at least
// 256), so sector and line counts depend on offsets exactly as on a GPU.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/exec/launch.hpp"

namespace warpsim::exec {

struct GlobalBuffer {
  std::string name;
  ir::ScalarType element = ir::ScalarType::F32;
  ir::Storage storage = ir::Storage::Natural;  // how its bytes hold each element (ir/types.hpp)
  std::uint64_t base_address = 0;
  std::vector<std::uint8_t> bytes;

  ir::BufferType type() const { return {element, storage}; }
  std::uint64_t count() const { return bytes.size() / ir::storage_bytes(type()); }
};

struct GlobalMemory {
  // In the kernel's parameter order, pointers only; then the module's global variables.
  std::vector<GlobalBuffer> buffers;

  static GlobalMemory allocate(const LaunchSpec& launch);
  const GlobalBuffer* find(std::string_view name) const;
};

// Fills `buffer` as `spec` says; random values come from a 64-bit generator seeded with
// spec.seed, mapped to [min, max) without any library distribution (those differ by platform).
void fill_buffer(GlobalBuffer& buffer, const ir::BufferSpec& spec);

// A module variable's bytes as declared (its whole size), its initialiser's elements first,
// little-endian as the GPU's, zeros after.
std::vector<std::uint8_t> initial_bytes(const ir::ArrayDecl& variable);

}  // namespace warpsim::exec
