// Generic addresses of shared memory, distributed shared memory and cluster barriers.
//
// The IR has no generic address space; what nvcc writes for cooperative groups' clusters
// (`cluster.map_shared_rank(smem, r)`: cvta.shared, mapa, then a generic atom) is resolved
// here, from where each address comes from. A generic address of this block's shared memory
// is held as its offset; mapa makes a cluster address (the offset in the low 32 bits, rank + 1
// above: the IR's dsmem by address); a generic access goes to global, shared or dsmem memory
// by what its base register holds. Any other generic access is refused.
#include "sim/import/entry_translator.hpp"
#include "sim/import/ir_build.hpp"

namespace warpsim::ptx {
namespace {

std::string base_of(const std::string& opcode) {
  return opcode.substr(0, opcode.find('.'));
}
bool has_mod(const std::string& opcode, std::string_view mod) {
  std::size_t start = opcode.find('.');
  while (start != std::string::npos) {
    const std::size_t next = opcode.find('.', start + 1);
    if (opcode.substr(start + 1, next == std::string::npos ? next : next - start - 1) == mod) {
      return true;
    }
    start = next;
  }
  return false;
}

}  // namespace

void EntryTranslator::classify_pointers() {
  // To a fixed point: a register made from a classified one is classified in turn (loops make
  // a later instruction's result reach an earlier one).
  for (int round = 0; round < 8; ++round) {
    bool changed = false;
    for (const Statement& s : entry_.body) {
      const auto* inst = std::get_if<Instruction>(&s);
      if (inst == nullptr || inst->operands.empty()) continue;
      const auto* dst = std::get_if<Register>(&inst->operands[0]);
      if (dst == nullptr) continue;
      const std::string base = base_of(inst->opcode);
      auto class_of = [&](std::size_t i) -> std::optional<Pointee> {
        if (i >= inst->operands.size()) return std::nullopt;
        if (const auto* r = std::get_if<Register>(&inst->operands[i])) {
          auto it = pointee_.find(r->name);
          if (it != pointee_.end()) return it->second;
        }
        return std::nullopt;
      };
      std::optional<Pointee> made;
      if (inst->opcode.starts_with("ld.param") && inst->operands.size() == 2) {
        const auto* a = std::get_if<Address>(&inst->operands[1]);
        const Symbol* sym = a && a->base ? std::get_if<Symbol>(&*a->base) : nullptr;
        if (sym != nullptr && pointer_params_.contains(sym->name)) made = Pointee::Global;
      } else if (base == "cvta") {
        if (has_mod(inst->opcode, "global")) made = Pointee::Global;
        if (has_mod(inst->opcode, "shared") && !has_mod(inst->opcode, "to")) made = Pointee::Shared;
      } else if (base == "mapa" && !has_mod(inst->opcode, "shared::cluster")) {
        made = Pointee::Cluster;
      } else if (base == "mov" && inst->operands.size() == 2 &&
                 std::holds_alternative<Symbol>(inst->operands[1]) &&
                 module_globals_.contains(std::get<Symbol>(inst->operands[1]).name)) {
        made = Pointee::Global;  // a module .global variable's address, global and generic alike
      } else if (base == "mov" || base == "add" || base == "sub") {
        made = class_of(1);
        if (!made && base == "add") made = class_of(2);
      }
      if (!made) continue;
      auto [it, inserted] = pointee_.emplace(dst->name, *made);
      if (!inserted && it->second != *made && it->second != Pointee::Mixed) {
        it->second = Pointee::Mixed;
        changed = true;
      }
      changed = changed || inserted;
    }
    if (!changed) break;
  }
}

ir::Space EntryTranslator::generic_space(const Operand& address) const {
  const auto* a = std::get_if<Address>(&address);
  const Register* r = a && a->base ? std::get_if<Register>(&*a->base) : nullptr;
  const auto it = r != nullptr ? pointee_.find(r->name) : pointee_.end();
  if (it != pointee_.end()) {
    switch (it->second) {
      case Pointee::Global:
        return ir::Space::Global;
      case Pointee::Shared:
        return ir::Space::Shared;
      case Pointee::Cluster:
        return ir::Space::Dsmem;
      case Pointee::Mixed:
        break;
    }
  }
  throw Unsupported{"'" + current_->opcode + "' through a generic address (no state space) " +
                    "whose memory cannot be told from the code is not imported: nvcc writes " +
                    "one where it cannot tell which memory a pointer points into"};
}

bool EntryTranslator::cluster_instruction(const OpcodeParts& parts) {
  using ir::Opcode;
  const std::string& b = parts.base;
  if (b == "barrier" && parts.has("cluster")) {
    // The split barrier as one: every thread of the cluster meets at its arrive; its wait has
    // nothing left to wait for (a full barrier at the arrive orders at least as much).
    if (parts.has("arrive")) emit(Opcode::ClusterSync, ir::ScalarType::Pred, {}, {});
    if (!parts.has("arrive") && !parts.has("wait")) {
      throw Unsupported{"'" + current_->opcode + "' is not imported"};
    }
    return true;
  }
  if (b == "cvta" && parts.has("shared")) {
    // This block's shared memory: a generic address is held as the offset itself.
    expect_operands(2);
    const ir::ScalarType t = parts.type();
    const auto* src = std::get_if<Register>(&operand(1));
    const ir::ScalarType from = src != nullptr ? storage_of(*src) : t;
    const ir::ValueOperand v =
        value(operand(1), ir::size_bytes(from) == 4 ? ir::ScalarType::U32 : ir::ScalarType::U64);
    const Dest d = dest(operand(0), t);
    if (ir::size_bytes(from) == ir::size_bytes(t)) {
      emit(Opcode::Mov, t, {d.name}, {op(v)});
    } else {
      ir::Instruction& c = emit(Opcode::Cvt, t, {d.name}, {op(v)});
      c.source_type = ir::size_bytes(from) == 4 ? ir::ScalarType::U32 : ir::ScalarType::U64;
    }
    finish(d);
    return true;
  }
  if (b == "mapa") {
    if (parts.has("shared::cluster")) {
      throw Unsupported{"'" + current_->opcode +
                        "' (a 32-bit shared::cluster address) is not "
                        "imported; the generic mapa.u64 is"};
    }
    // (offset & 0xffffffff) | (rank + 1) << 32: the IR's cluster address.
    expect_operands(3);
    const ir::ValueOperand a = value(operand(1), ir::ScalarType::U64);
    const ir::ValueOperand rank = value(operand(2), ir::ScalarType::U32);
    const std::string offset = fresh_temp(), wide = fresh_temp(), plus = fresh_temp(),
                      high = fresh_temp();
    emit(Opcode::And, ir::ScalarType::U64, {offset}, {op(a), op(number(0xffffffffu))});
    ir::Instruction& c = emit(Opcode::Cvt, ir::ScalarType::U64, {wide}, {op(rank)});
    c.source_type = ir::ScalarType::U32;
    emit(Opcode::Add, ir::ScalarType::U64, {plus}, {op(reg(wide)), op(number(1))});
    emit(Opcode::Shl, ir::ScalarType::U64, {high}, {op(reg(plus)), op(number(32))});
    const Dest d = dest(operand(0), ir::ScalarType::U64);
    emit(Opcode::Or, ir::ScalarType::U64, {d.name}, {op(reg(offset)), op(reg(high))});
    finish(d);
    return true;
  }
  return false;
}

}  // namespace warpsim::ptx
