// The CFG of a kernel with its reconvergence points, as text for people and dot for Graphviz.
#pragma once

#include <iosfwd>

#include "sim/core/ir/module.hpp"

namespace warpsim::cli {

void write_cfg_text(std::ostream& out, const ir::Kernel& kernel);
void write_cfg_dot(std::ostream& out, const ir::Kernel& kernel);

}  // namespace warpsim::cli
