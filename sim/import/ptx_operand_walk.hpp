// Which registers a PTX instruction writes and which it reads, walked once for every pass of
// the translator that needs them (definition counts, reads, the multiplies ptxas fuses).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>

#include "sim/import/ptx_syntax.hpp"

namespace warpsim::ptx {

// Whether the instruction's first operand is what it writes: all but stores, reductions,
// barriers, branches, returns, fences and prefetches.
inline bool writes_first_operand(const std::string& opcode) {
  const std::string base = opcode.substr(0, opcode.find('.'));
  return !(base == "st" || base == "red" || base == "bar" || base == "barrier" || base == "bra" ||
           base == "ret" || base == "exit" || base == "membar" || base == "fence" ||
           base == "prefetch");
}

// An operand index that is not a plain register operand: a guard, an address base, or an
// element of a pair or vector.
inline constexpr std::size_t kNotAnOperand = SIZE_MAX;

// Calls f(name, operand) for every register `inst` reads: its guard, its sources (operand 0 too
// when the instruction writes nothing), and the base of any address. `operand` is the index of
// a plain register operand, kNotAnOperand for the others.
template <typename F>
void for_each_read(const Instruction& inst, F&& f) {
  const bool writes = writes_first_operand(inst.opcode);
  if (inst.guard) f(inst.guard->name, kNotAnOperand);
  for (std::size_t i = 0; i < inst.operands.size(); ++i) {
    const Operand& o = inst.operands[i];
    if (const auto* a = std::get_if<Address>(&o); a && a->base) {
      if (const auto* r = std::get_if<Register>(&*a->base)) f(r->name, kNotAnOperand);
    }
    if (writes && i == 0) continue;  // the destination (below)
    if (const auto* r = std::get_if<Register>(&o)) f(r->name, i);
    if (const auto* p = std::get_if<PairOperand>(&o)) {
      f(p->first.name, kNotAnOperand);
      f(p->second.name, kNotAnOperand);
    }
    if (const auto* v = std::get_if<VectorOperand>(&o)) {
      for (const Register& r : v->elements) f(r.name, kNotAnOperand);
    }
  }
}

// Calls f(name) for every register `inst` writes: its first operand's, when it writes one.
template <typename F>
void for_each_write(const Instruction& inst, F&& f) {
  if (inst.operands.empty() || !writes_first_operand(inst.opcode)) return;
  const Operand& o = inst.operands[0];
  if (const auto* r = std::get_if<Register>(&o)) f(r->name);
  if (const auto* p = std::get_if<PairOperand>(&o)) {
    f(p->first.name);
    f(p->second.name);
  }
  if (const auto* v = std::get_if<VectorOperand>(&o)) {
    for (const Register& r : v->elements) f(r.name);
  }
}

}  // namespace warpsim::ptx
