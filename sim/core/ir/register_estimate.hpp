// Registers per thread for a kernel without a regs(N) annotation, estimated from liveness: the
// most 32-bit register slots live at once (a 64-bit value takes two, a predicate none, since
// predicates live in their own registers), plus two for the addresses and indices the compiler
// adds, at most a max_regs(N) cap. An estimate, and labelled so wherever it is shown; nvcc's
// allocation can differ either way.
#pragma once

#include <cstdint>

#include "sim/core/ir/module.hpp"

namespace warpsim::ir {

struct RegisterCount {
  std::uint32_t registers = 0;
  bool estimated = false;   // true: from liveness; false: from the kernel's regs(N) or ptxas
  bool from_ptxas = false;  // what ptxas allocated for the compiled kernel
};

// Requires a verified kernel.
RegisterCount registers_per_thread(const Kernel& kernel);

}  // namespace warpsim::ir
