// Semantic checks on a parsed module. Every invariant checked, each reported at the offending
// construct, all errors collected (not just the first):
//
// Module
//   - kernel, constant and launch names are unique; the module defines at least one kernel.
// Declarations
//   - parameter names are unique within a kernel; array names are unique and differ from the
//     kernel's parameters and the module's constants;
//   - an array has at most 8 dimensions, each at least 1; only shared arrays may be dynamic (`[]`),
//   at most one
//     per kernel; arrays have a storable element type (not pred);
//   - constant initialisers have no more values than elements, each fitting the element type;
//     all constants together fit the 64 KB constant bank;
//   - a local array fits the 512 KB local memory of a thread; `regs(N)` has 1 <= N <= 255.
// Blocks and control flow
//   - a kernel has at least one block; labels are unique;
//   - every block ends in a terminator (br, jmp, ret) and has no terminator before its end;
//   - every branch target names a block of the same kernel;
//   - a block no path from the entry reaches is a warning.
// Instructions
//   - the type suffix is one the opcode allows (e.g. no rem.f32, no shfl.f64);
//   - the number of destinations and operands is the opcode's (ld.v4 defines four registers,
//     atom defines zero or one, cas takes two values);
//   - each operand has the kind and type its position requires: a register, parameter, special
//     register or literal of a compatible type (s32 and u32 interchange; floats and predicates
//     must match exactly); integer literals fit the type; float literals only in float positions;
//   - a register has one type: every definition of it defines that type;
//   - every register read is defined on every path from the entry to the read;
//   - a pointer parameter is only indexed, never read as a value; a scalar one is never indexed.
// Memory references
//   - the array exists in the instruction's space: global -> a pointer parameter, shared and
//     dsmem -> a shared array, const -> a module constant, local -> a local array;
//   - the element type matches the instruction type; the index count equals the array's
//     dimensions (one for pointers and dynamic arrays); indices are integers; a constant index
//     lies within its dimension;
//   - a rank (`array@rank[...]`) is given exactly for dsmem, and is an integer;
//   - vector accesses are v2 or v4 of at most 128 bits;
//   - const memory is never stored to; atomics act on global, shared or dsmem memory, and
//     min/max atomics on integers only.
// Synchronisation
//   - bar.sync or cluster.sync reachable under a branch whose condition may differ between
//     threads of a block is a warning: threads that take the other path never arrive.
// Launch blocks
//   - the kernel exists; launch names are unique; grid and block dimensions are at least 1,
//     within CUDA's limits (block: x, y <= 1024, z <= 64, at most 1024 threads; grid: x < 2^31,
//     y, z <= 65535); cluster dimensions divide the grid's and the cluster has at most 8 blocks;
//   - every parameter gets exactly one argument and no argument names an unknown parameter;
//     scalars get a literal within their type's range (strictly: no wrapping), pointers a buffer
//     of their element type with at least one element and at most 16 GiB; random ranges have
//     min < max;
//   - dynamic shared memory is given when the kernel declares a dynamic array (a warning when
//     missing or unused).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/core/ir/diagnostics.hpp"
#include "sim/core/ir/module.hpp"

namespace warpsim::ir {

// Returns true when no errors were found (warnings allowed).
bool verify(const Module& module, Diagnostics& diags);

// The registers of `kernel` that some path from the entry reads before writing them (verify's
// "may be read before it is written"), with the type of each one's first definition. PTX allows
// such reads (the value is undefined); the importer defines these registers at the entry so the
// IR's rule holds. Empty when the kernel's blocks are malformed.
std::vector<std::pair<std::string, ScalarType>> registers_read_before_written(const Module& module,
                                                                              const Kernel& kernel);

// The launch-block checks alone, for a launch changed after verification (command-line
// overrides). Returns true when no errors were found.
bool verify_launch(const Module& module, const Launch& launch, Diagnostics& diags);

// What is wrong with a launch shape (empty when nothing): the checks verify_launch makes, for
// callers that word the error for where the shape came from (a command-line option).
std::vector<std::string> shape_errors(const Dim3& grid, const Dim3& block, const Dim3& cluster);

// Why `value` is not an argument for scalar parameter `p` (nothing when it is): an integer
// parameter takes an integer within its type's range, a float one any number.
std::optional<std::string> scalar_argument_error(const KernelParam& p, const Literal& value);

// The checks of one launch argument against its parameter, reported at the argument.
void verify_argument(const KernelParam& p, const LaunchArg& a, Diagnostics& diags);

}  // namespace warpsim::ir
