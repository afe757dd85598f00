// A launch file's values for the module's variables: `name = TYPE[N] init` for a `const` or
// `global` variable (CUDA's __constant__ and __device__ arrays, which a host program fills with
// cudaMemcpyToSymbol) gives it those bytes before every launch, as a buffer's initialiser gives
// a pointer parameter's. The value must fit the variable; two launches that give one variable
// different values are an error (the module holds one image).
#pragma once

#include <vector>

#include "sim/core/ir/diagnostics.hpp"
#include "sim/core/ir/module.hpp"

namespace warpsim::cli {

// Moves each such argument of `launches` into the variable's initialiser in `module`; the
// launches keep their other arguments. Errors are reported to `diags` at the argument.
void apply_module_values(ir::Module& module, std::vector<ir::Launch>& launches,
                         ir::Diagnostics& diags);

}  // namespace warpsim::cli
