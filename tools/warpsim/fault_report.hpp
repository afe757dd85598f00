// How a kernel fault is shown: what went wrong, where in the IR, and which thread did it.
#pragma once

#include <iosfwd>
#include <string>

#include "sim/core/exec/fault.hpp"

namespace warpsim::cli {

// For an imported kernel the CUDA line leads, with the PTX and IR lines beside it.
void write_fault(std::ostream& err, const std::string& file, const ir::Module& module,
                 const exec::KernelFault& fault);

}  // namespace warpsim::cli
