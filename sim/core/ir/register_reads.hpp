// Every register an instruction reads: plain operands, vector-store values, memory indices and
// dsmem ranks. Shared by the analyses that walk register uses.
#pragma once

#include "sim/core/ir/module.hpp"

namespace warpsim::ir {

// Calls fn(const RegRef&, SourceLoc) for each register read, in operand order.
template <typename Fn>
void for_each_register_read(const Instruction& inst, Fn&& fn) {
  auto value = [&fn](const ValueOperand& v) {
    if (const auto* r = std::get_if<RegRef>(&v.value)) fn(*r, v.loc);
  };
  for (const Operand& op : inst.operands) {
    if (const auto* v = std::get_if<ValueOperand>(&op.kind)) value(*v);
    if (const auto* list = std::get_if<RegList>(&op.kind)) {
      for (const ValueOperand& e : list->elements) value(e);
    }
    if (const auto* m = std::get_if<MemRef>(&op.kind)) {
      if (m->rank) value(*m->rank);
      for (const ValueOperand& i : m->indices) value(i);
    }
  }
}

}  // namespace warpsim::ir
