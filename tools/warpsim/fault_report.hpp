// How a kernel fault is shown: what went wrong, where in the IR, and which thread did it.
#pragma once

#include <iosfwd>
#include <string>

#include "sim/core/exec/fault.hpp"

namespace warpsim::cli {

void write_fault(std::ostream& err, const std::string& file, const exec::KernelFault& fault);

}  // namespace warpsim::cli
