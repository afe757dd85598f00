// What the compiler does to a small counted loop, as an IR-to-IR transformation: the timing
// model runs a kernel the way the GPU runs it, and ptxas unrolls such loops (the seed kernels'
// SASS shows the single-thread summation loops unrolled 4x, their loads issued back to back).
//
// A loop is unrolled when it has the shape a `for (i = a; i < n; i += K)` loop takes in the IR:
//   header:  %c = lt.T %i, N        (integer T)
//            br %c, body, exit
//   body:    ...loads and arithmetic only...
//            %i = add.T %i, K       (K a positive literal)
//            jmp header
// with N not written in the body, the body entered only from the header and not reading %c.
// A loop whose header or body says `nounroll` is left alone, as ptxas leaves it.
// Loops with stores, atomics, barriers or warp-wide operations are left alone (as ptxas leaves
// the seeds' grid-stride loops), so are loops with a register step.
//
// The unrolled loop runs `factor` iterations at a time while all of them are in range, their
// instructions ordered by schedule_block (the loads first); the original loop then runs what is
// left. Every lane executes the same operations on the same values in the same order as before,
// so results and faults are those of the kernel as written; only instruction and branch counts
// (and the time) differ.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sim/core/ir/block_schedule.hpp"
#include "sim/core/ir/module.hpp"

namespace warpsim::ir {

// Unrolls the loops of `kernel` that have the shape above `factor` times (0 or 1: none);
// returns how many. The result verifies whenever the input did.
std::size_t unroll_loops(Kernel& kernel, std::uint32_t factor);

}  // namespace warpsim::ir
