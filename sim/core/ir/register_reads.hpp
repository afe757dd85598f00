// Every register an instruction reads: plain operands, vector-store values, memory indices and
// dsmem ranks. Shared by the analyses that walk register uses.
#pragma once

#include "sim/core/ir/module.hpp"

namespace warpsim::ir {

// Calls fn(RegRef&, SourceLoc) for each register read, in operand order; the references are
// const when `inst` is (so a transformation can rename the registers an instruction reads).
template <typename Inst, typename Fn>
void for_each_register_read(Inst& inst, Fn&& fn) {
  auto value = [&fn](auto& v) {
    if (auto* r = std::get_if<RegRef>(&v.value)) fn(*r, v.loc);
  };
  for (auto& op : inst.operands) {
    if (auto* v = std::get_if<ValueOperand>(&op.kind)) value(*v);
    if (auto* list = std::get_if<RegList>(&op.kind)) {
      for (auto& e : list->elements) value(e);
    }
    if (auto* m = std::get_if<MemRef>(&op.kind)) {
      if (m->rank) value(*m->rank);
      for (auto& i : m->indices) value(i);
    }
  }
}

}  // namespace warpsim::ir
