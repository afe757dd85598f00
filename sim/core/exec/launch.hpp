// A launch resolved for execution: the shape, the dynamic shared memory and the value of every
// argument, from a launch block of the IR overridden by the command line.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <variant>

#include "sim/core/gpu_constants.hpp"
#include "sim/core/ir/module.hpp"

namespace warpsim::exec {

using Dim3 = ir::Dim3;

struct LaunchSpec {
  const ir::Kernel* kernel = nullptr;
  std::string name;  // the launch block's name
  Dim3 grid, block, cluster;
  std::uint64_t dynamic_smem = 0;
  // Per parameter name: a scalar literal or a buffer description.
  std::map<std::string, std::variant<ir::Literal, ir::BufferSpec>> args;
  // The module's global variables (ir::Module::globals, whose elements outlive the spec): each
  // launch's global memory holds them after the pointer parameters' buffers.
  std::span<const ir::ArrayDecl> globals;
  // The module's constants (ir::Module::constants): the GPU's module is given their
  // initialisers before the launch, as a host fills __constant__ memory.
  std::span<const ir::ArrayDecl> constants;

  std::uint64_t threads_per_block() const { return block.count(); }
  std::uint64_t warps_per_block() const { return (block.count() + kWarpSize - 1) / kWarpSize; }
  std::uint64_t blocks() const { return grid.count(); }
};

// Linear index <-> 3-D index, x fastest.
inline Dim3 unflatten(std::uint64_t linear, const Dim3& shape) {
  return Dim3{linear % shape.x, (linear / shape.x) % shape.y, linear / (shape.x * shape.y)};
}
inline std::uint64_t flatten(const Dim3& index, const Dim3& shape) {
  return index.x + shape.x * (index.y + shape.y * index.z);
}

}  // namespace warpsim::exec
