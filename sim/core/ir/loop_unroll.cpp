#include "sim/core/ir/loop_unroll.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_set>

#include "sim/core/ir/cfg.hpp"
#include "sim/core/ir/register_reads.hpp"

namespace warpsim::ir {
namespace {

// The step times the factor must stay far from wrapping, so that the guard's distance test
// below is exact.
constexpr std::uint64_t kMaxStepTimesFactor = 1u << 30;

struct CountedLoop {
  std::size_t header = 0, body = 0;
  std::string iv;  // the induction register
  const Instruction* compare = nullptr;
  const Instruction* step = nullptr;  // %iv = add.T %iv, K
  std::uint64_t step_value = 0;
};

const std::string* reg_name(const Operand& op) {
  const auto* v = std::get_if<ValueOperand>(&op.kind);
  if (!v) return nullptr;
  const auto* r = std::get_if<RegRef>(&v->value);
  return r ? &r->name : nullptr;
}

const std::string* label_name(const Operand& op) {
  const auto* l = std::get_if<LabelRef>(&op.kind);
  return l ? &l->name : nullptr;
}

bool writes(const Instruction& inst, const std::string& reg) {
  return std::any_of(inst.dests.begin(), inst.dests.end(),
                     [&](const RegDef& d) { return d.name == reg; });
}

// Loads (not of other blocks' memory) and arithmetic: nothing a reordering or a repetition
// could change.
bool may_unroll(const Instruction& inst) {
  return !has_effect(inst) && !(inst.opcode == Opcode::Ld && inst.space == Space::Dsmem);
}

std::optional<CountedLoop> match_counted_loop(const Kernel& kernel, const Cfg& cfg,
                                              std::size_t header, std::uint32_t factor) {
  const BasicBlock& h = kernel.blocks[header];
  if (header == 0 || h.instructions.size() != 2) return std::nullopt;
  const Instruction& cmp = h.instructions[0];
  const Instruction& br = h.instructions[1];
  if (cmp.opcode != Opcode::Lt || !is_int(cmp.type) || cmp.dests.size() != 1 ||
      cmp.operands.size() != 2 || br.opcode != Opcode::Br || br.operands.size() != 3)
    return std::nullopt;
  const std::string* iv = reg_name(cmp.operands[0]);
  const std::string* pred = reg_name(br.operands[0]);
  const std::string* taken = label_name(br.operands[1]);
  const std::string* exit = label_name(br.operands[2]);
  if (!iv || !pred || *pred != cmp.dests[0].name || !taken || !exit || *taken == *exit)
    return std::nullopt;
  const auto body = find_block(kernel, *taken);
  if (!body || *body == header || cfg.predecessors[*body] != std::vector<std::size_t>{header})
    return std::nullopt;
  const BasicBlock& b = kernel.blocks[*body];
  // `nounroll` on either block (the source's `#pragma unroll 1`) keeps the loop as written.
  if (b.instructions.size() < 3 || h.no_unroll || b.no_unroll) return std::nullopt;
  const Instruction& jmp = b.instructions.back();
  const Instruction& step = b.instructions[b.instructions.size() - 2];
  if (jmp.opcode != Opcode::Jmp || jmp.operands.size() != 1 || !label_name(jmp.operands[0]) ||
      *label_name(jmp.operands[0]) != h.label)
    return std::nullopt;
  // The step: %iv = add.T %iv, K with T of the compare's width and K > 0.
  if (step.opcode != Opcode::Add || !is_int(step.type) ||
      size_bytes(step.type) != size_bytes(cmp.type) || step.dests.size() != 1 ||
      step.dests[0].name != *iv || step.operands.size() != 2 || !reg_name(step.operands[0]) ||
      *reg_name(step.operands[0]) != *iv)
    return std::nullopt;
  const auto* k = std::get_if<ValueOperand>(&step.operands[1].kind);
  const auto* lit = k ? std::get_if<IntLiteral>(&k->value) : nullptr;
  if (!lit || lit->negative || lit->magnitude == 0 || lit->magnitude > kMaxStepTimesFactor / factor)
    return std::nullopt;
  const std::string* bound = reg_name(cmp.operands[1]);
  if (bound && *bound == *iv) return std::nullopt;
  for (std::size_t i = 0; i + 2 < b.instructions.size(); ++i) {
    const Instruction& inst = b.instructions[i];
    if (!may_unroll(inst) || writes(inst, *iv) || (bound && writes(inst, *bound)))
      return std::nullopt;
    // The header's predicate is not computed before an unrolled group.
    bool reads_predicate = false;
    for_each_register_read(inst, [&](const RegRef& r, SourceLoc) {
      reads_predicate = reads_predicate || r.name == *pred;
    });
    if (reads_predicate) return std::nullopt;
  }
  return CountedLoop{header, *body, *iv, &cmp, &step, lit->magnitude};
}

// Names not yet used in the kernel: `base` with a suffix.
class FreshNames {
 public:
  explicit FreshNames(const Kernel& kernel) {
    for (const BasicBlock& b : kernel.blocks) {
      used_.insert(b.label);
      for (const Instruction& inst : b.instructions) {
        for (const RegDef& d : inst.dests) used_.insert(d.name);
        for_each_register_read(inst, [&](const RegRef& r, SourceLoc) { used_.insert(r.name); });
      }
    }
  }
  std::string make(const std::string& base, const std::string& suffix) {
    std::string name = base + "_" + suffix;
    while (used_.count(name) != 0) name += "_";
    used_.insert(name);
    return name;
  }

 private:
  std::unordered_set<std::string> used_;
};

Operand reg_operand(const std::string& name, SourceLoc loc) {
  return Operand{ValueOperand{RegRef{name}, loc}, loc};
}
Operand int_operand(std::uint64_t magnitude, SourceLoc loc, bool negative = false) {
  return Operand{ValueOperand{IntLiteral{magnitude, negative}, loc}, loc};
}
Operand label_operand(const std::string& name, SourceLoc loc) {
  return Operand{LabelRef{name}, loc};
}
Instruction make(Opcode op, ScalarType type, const std::string& dest, std::vector<Operand> ops,
                 SourceLoc loc) {
  Instruction inst;
  inst.opcode = op;
  inst.type = type;
  if (!dest.empty()) inst.dests.push_back(RegDef{dest, loc});
  inst.operands = std::move(ops);
  inst.loc = loc;
  return inst;
}

// The group of `factor` iterations: per copy, the body's own temporaries get names of their
// own (the last copy keeps the originals, so what the loop leaves behind is unchanged); the
// induction register reads as %iv + k*K.
std::vector<Instruction> unrolled_group(const BasicBlock& body, const CountedLoop& loop,
                                        std::uint32_t factor, FreshNames& names) {
  const std::size_t n = body.instructions.size() - 2;
  std::set<std::string> seen, temporaries;
  for (std::size_t i = 0; i < n; ++i) {
    for_each_register_read(body.instructions[i],
                           [&](const RegRef& r, SourceLoc) { seen.insert(r.name); });
    for (const RegDef& d : body.instructions[i].dests)
      if (seen.insert(d.name).second) temporaries.insert(d.name);
  }
  const Instruction& step = *loop.step;
  std::vector<Instruction> group;
  std::vector<std::string> iv_of(factor, loop.iv);
  for (std::uint32_t k = 1; k < factor; ++k) {
    iv_of[k] = names.make(loop.iv, "u" + std::to_string(k));
    group.push_back(make(
        Opcode::Add, step.type, iv_of[k],
        {reg_operand(loop.iv, step.loc), int_operand(k * loop.step_value, step.loc)}, step.loc));
  }
  for (std::uint32_t k = 0; k < factor; ++k) {
    std::map<std::string, std::string> renamed;  // reads; writes rename only temporaries
    if (k + 1 < factor) {
      for (const std::string& t : temporaries) renamed[t] = names.make(t, "u" + std::to_string(k));
    }
    for (std::size_t i = 0; i < n; ++i) {
      Instruction copy = body.instructions[i];
      for_each_register_read(copy, [&](RegRef& r, SourceLoc) {
        if (r.name == loop.iv) {
          r.name = iv_of[k];
        } else if (auto it = renamed.find(r.name); it != renamed.end()) {
          r.name = it->second;
        }
      });
      for (RegDef& d : copy.dests) {
        if (auto it = renamed.find(d.name); it != renamed.end()) d.name = it->second;
      }
      group.push_back(std::move(copy));
    }
  }
  group.push_back(make(
      Opcode::Add, step.type, loop.iv,
      {reg_operand(loop.iv, step.loc), int_operand(factor * loop.step_value, step.loc)}, step.loc));
  return group;
}

// Entry to the unrolled loop, computed once: %limit = N - (factor-1)*K, so that i < %limit
// exactly when all `factor` iterations from i are in range. When N - (factor-1)*K would wrap
// below the type's minimum, no group is in range and %limit is that minimum (i < min is false).
std::vector<Instruction> limit_setup(const CountedLoop& loop, std::uint32_t factor,
                                     const std::string& limit, FreshNames& names) {
  const Instruction& cmp = *loop.compare;
  const SourceLoc loc = cmp.loc;
  const std::uint64_t span = (factor - 1) * loop.step_value;
  const bool is_signed = is_signed_int(cmp.type);
  const std::uint64_t half = size_bytes(cmp.type) == 8 ? (1ull << 63) : (1ull << 31);
  // The smallest N that does not wrap: span (unsigned) or min + span (signed, <= 0).
  const Operand smallest = is_signed ? int_operand(half - span, loc, true) : int_operand(span, loc);
  const Operand minimum = is_signed ? int_operand(half, loc, true) : int_operand(0, loc);
  const std::string fits = names.make(limit, "fits");
  const std::string shifted = names.make(limit, "shifted");
  std::vector<Instruction> out;
  out.push_back(make(Opcode::Ge, cmp.type, fits, {cmp.operands[1], smallest}, loc));
  out.push_back(
      make(Opcode::Sub, cmp.type, shifted, {cmp.operands[1], int_operand(span, loc)}, loc));
  out.push_back(make(Opcode::Select, cmp.type, limit,
                     {reg_operand(fits, loc), reg_operand(shifted, loc), minimum}, loc));
  return out;
}

// `%more = lt.T %iv, %limit; br %more, group, header`: the unrolled loop's test (ptxas's
// rotated form: tested on entry and at the bottom of each group).
std::vector<Instruction> group_test(const CountedLoop& loop, const std::string& limit,
                                    const std::string& more, const std::string& group,
                                    const std::string& header) {
  const Instruction& cmp = *loop.compare;
  const SourceLoc loc = cmp.loc;
  std::vector<Instruction> out;
  out.push_back(
      make(Opcode::Lt, cmp.type, more, {reg_operand(loop.iv, loc), reg_operand(limit, loc)}, loc));
  out.push_back(
      make(Opcode::Br, ScalarType::Pred, "",
           {reg_operand(more, loc), label_operand(group, loc), label_operand(header, loc)}, loc));
  return out;
}

void unroll(Kernel& kernel, const CountedLoop& loop, std::uint32_t factor, FreshNames& names) {
  const BasicBlock& header = kernel.blocks[loop.header];
  const BasicBlock& body = kernel.blocks[loop.body];
  const std::string header_label = header.label;
  const std::string entry_label = names.make(header.label, "unrolled");
  const std::string group_label = names.make(body.label, "unrolled");
  const std::string limit = names.make(loop.iv, "limit");
  const std::string more = names.make(loop.compare->dests[0].name, "group");

  BasicBlock entry;
  entry.label = entry_label;
  entry.loc = header.loc;
  entry.instructions = limit_setup(loop, factor, limit, names);
  for (Instruction& i : group_test(loop, limit, more, group_label, header_label))
    entry.instructions.push_back(std::move(i));

  BasicBlock group;
  group.label = group_label;
  group.loc = body.loc;
  group.instructions = schedule_block(unrolled_group(body, loop, factor, names), estimated_latency);
  for (Instruction& i : group_test(loop, limit, more, group_label, header_label))
    group.instructions.push_back(std::move(i));

  // Entries into the loop now go through the unrolled loop; the original takes what is left.
  for (std::size_t b = 0; b < kernel.blocks.size(); ++b) {
    if (b == loop.body || kernel.blocks[b].instructions.empty()) continue;
    for (Operand& op : kernel.blocks[b].instructions.back().operands) {
      if (auto* l = std::get_if<LabelRef>(&op.kind); l && l->name == header_label)
        l->name = entry_label;
    }
  }
  const auto at = kernel.blocks.begin() + static_cast<std::ptrdiff_t>(loop.header);
  kernel.blocks.insert(at, {std::move(entry), std::move(group)});
}

}  // namespace

std::size_t unroll_loops(Kernel& kernel, std::uint32_t factor) {
  if (factor <= 1) return 0;
  FreshNames names(kernel);
  std::vector<std::string> headers;
  for (const BasicBlock& b : kernel.blocks) headers.push_back(b.label);
  std::size_t unrolled = 0;
  Cfg cfg = build_cfg(kernel);
  for (const std::string& label : headers) {
    const auto header = find_block(kernel, label);
    if (!header) continue;
    const auto loop = match_counted_loop(kernel, cfg, *header, factor);
    if (!loop) continue;
    unroll(kernel, *loop, factor, names);
    cfg = build_cfg(kernel);  // blocks were inserted
    ++unrolled;
  }
  return unrolled;
}

}  // namespace warpsim::ir
