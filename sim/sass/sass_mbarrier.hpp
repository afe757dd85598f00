// mbarrier on sm_90: the 64-bit barrier object in shared memory that cuda::barrier,
// cuda::pipeline's block scope and cp.async's arrivals are built on, as ptxas compiles PTX's
// mbarrier.* to SYNCS and ARRIVES.
//
// The object's layout, as ptxas's code reads and writes it (mbarrier.init computes the word it
// stores; mbarrier.pending_count and try_wait.parity read fields of a token):
//   bit 63       the phase's parity
//   bits 43-62   2^20 - the arrivals still pending in this phase
//   bits 21-41   the transactions (bytes or copies) still to land, negated, two's complement
//   bits 1-20    2^20 - the arrivals each phase expects
// On an H100 plain loads of the object read zeros after every step, so the tokens show it: an
// arrival's token is the object's high word before it (phase, pending arrivals, and the top ten
// bits of the transaction field: all ones while transactions are pending, as negated counts
// give), with the instruction's count or transaction operand in the low word, 0 for a plain
// arrival (validation/h200/results/h100_2026_12_06c/ and _06d/). The transaction field's low
// eleven bits and the expected count's bits show nowhere. A phase completes when no arrival
// and no transaction is pending: the parity flips and the pending count starts again from the
// expected one.
//
// A SYNCS.PHASECHK.TRANS64.TRYWAIT whose phase is not complete suspends its lanes until it is
// (the GPU suspends them for a time it chooses, then answers false; warpsim answers once the
// phase completes, so a try_wait loop runs once, as it mostly does on the GPU). A plain
// PHASECHK (test_wait) answers at once; where it answers false the warp yields to the others.
#pragma once

#include <cstdint>
#include <string_view>

#include "sim/sass/sass_program.hpp"

namespace warpsim::sass {

struct Lanes;
struct SassBlock;

// Applies one modifier of SYNCS, ARRIVES or NANOSLEEP.SYNCS; false for one not modelled (a
// warp-aggregated .TMASK arrival among them).
bool apply_mbarrier_modifier(Op op, std::string_view mod, Modifiers& m);

// Runs SYNCS or ARRIVES on the executing lanes, one lane after another in lane order.
void execute_mbarrier(const Lanes& x);

// Releases the lanes whose TRYWAIT's phase has completed; true when any were released.
bool release_mbarrier_waits(SassBlock& block);

}  // namespace warpsim::sass
