// Orders the instructions of one straight-line block as a compiler's list scheduler does: an
// instruction whose result others wait for longest goes first, as soon as its operands are
// ready, so independent loads are issued back to back before the arithmetic that uses them.
// Contract: the result is a permutation of the input that keeps every register dependence
// (read after write, write after read, write after write) and the order of every instruction
// with an effect beyond its registers (stores, atomics, barriers, warp-wide operations,
// branches) relative to all memory operations and to each other; loads may pass loads and
// arithmetic. Same input, same order.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "sim/core/ir/module.hpp"

namespace warpsim::ir {

// Whether an instruction does more than write its registers (and read memory): a store,
// atomic, barrier, warp-wide operation or branch.
bool has_effect(const Instruction& inst);

// Cycles from an instruction's issue until its result can be used (an estimate; only the
// order depends on it).
using LatencyEstimate = std::function<std::uint32_t(const Instruction&)>;

// A fixed estimate (memory 30, conversions and division 15, f64 8, other arithmetic 4): what a
// compiler assumes, not the timing config, so the order does not change with the config.
std::uint32_t estimated_latency(const Instruction& inst);

std::vector<Instruction> schedule_block(std::vector<Instruction> insts,
                                        const LatencyEstimate& latency);

}  // namespace warpsim::ir
