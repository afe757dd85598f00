#include "sim/core/ir/uniformity.hpp"

#include <set>
#include <string>

namespace warpsim::ir {
namespace {

bool special_varies(SpecialReg r) {
  switch (r) {
    case SpecialReg::TidX:
    case SpecialReg::TidY:
    case SpecialReg::TidZ:
    case SpecialReg::LaneId:
    case SpecialReg::WarpId:
      return true;
    default:
      return false;
  }
}

class Analysis {
 public:
  Analysis(const Kernel& k, const Cfg& cfg) : k_(k), cfg_(cfg) {
    const std::size_t n = k.blocks.size();
    result_.varying_branch.assign(n, false);
    result_.under_divergence.assign(n, false);
    result_.diverged_by.assign(n, 0);
    seen_.assign(n, 0);
  }

  Uniformity run() {
    // A region, once marked, stays marked: each varying branch's is walked once.
    std::vector<bool> marked(k_.blocks.size(), false);
    for (bool changed = true; changed && !result_.incomplete;) {
      changed = false;
      for (std::size_t b = 0; b < k_.blocks.size(); ++b) changed |= visit_block(b);
      for (std::size_t b = 0; b < k_.blocks.size(); ++b) {
        if (result_.varying_branch[b] && !marked[b]) {
          marked[b] = true;
          changed |= mark_region(b);
        }
      }
    }
    return std::move(result_);
  }

 private:
  bool varies(const ValueOperand& v) const {
    if (const auto* r = std::get_if<RegRef>(&v.value)) return varying_.contains(r->name);
    if (const auto* s = std::get_if<SpecialReg>(&v.value)) return special_varies(*s);
    return false;
  }

  bool any_operand_varies(const Instruction& inst) const {
    for (const Operand& op : inst.operands) {
      if (const auto* v = std::get_if<ValueOperand>(&op.kind); v && varies(*v)) return true;
      if (const auto* list = std::get_if<RegList>(&op.kind)) {
        for (const ValueOperand& e : list->elements) {
          if (varies(e)) return true;
        }
      }
      if (const auto* m = std::get_if<MemRef>(&op.kind)) {
        if (m->rank && varies(*m->rank)) return true;
        for (const ValueOperand& i : m->indices) {
          if (varies(i)) return true;
        }
      }
    }
    return false;
  }

  // Counts work against kMaxUniformityWork; false once it is spent.
  bool spend(std::size_t visits) {
    work_ += visits;
    if (work_ > kMaxUniformityWork) result_.incomplete = true;
    return !result_.incomplete;
  }

  bool visit_block(std::size_t b) {
    bool changed = false;
    if (!spend(k_.blocks[b].instructions.size() + 1)) return false;
    for (const Instruction& inst : k_.blocks[b].instructions) {
      // A barrier reduction gives every thread of the block the same value, whatever its own
      // predicate (so `while (__syncthreads_or(work))` is a uniform loop).
      const bool result_varies =
          inst.opcode != Opcode::BarRed &&
          (inst.opcode == Opcode::Atom || result_.under_divergence[b] || any_operand_varies(inst));
      if (result_varies) {
        for (const RegDef& d : inst.dests) changed |= varying_.insert(d.name).second;
      }
      if (inst.opcode == Opcode::Br && !result_.varying_branch[b] && any_operand_varies(inst)) {
        result_.varying_branch[b] = true;
        changed = true;
      }
    }
    return changed;
  }

  // Marks every block reachable from `branch` before its reconvergence point.
  bool mark_region(std::size_t branch) {
    bool changed = false;
    const std::size_t stop = cfg_.ipdom[branch];
    ++generation_;  // seen_ is shared between the walks: a fresh array each would be quadratic
    std::vector<std::size_t> work(cfg_.successors[branch].begin(), cfg_.successors[branch].end());
    while (!work.empty()) {
      const std::size_t b = work.back();
      work.pop_back();
      if (b == stop || seen_[b] == generation_) continue;
      if (!spend(1)) return changed;
      seen_[b] = generation_;
      if (!result_.under_divergence[b]) {
        result_.under_divergence[b] = true;
        result_.diverged_by[b] = branch;
        changed = true;
      }
      for (std::size_t s : cfg_.successors[b]) work.push_back(s);
    }
    return changed;
  }

  const Kernel& k_;
  const Cfg& cfg_;
  std::set<std::string> varying_;
  Uniformity result_;
  std::size_t work_ = 0;
  std::vector<std::size_t> seen_;  // per block: the walk that saw it last
  std::size_t generation_ = 0;
};

}  // namespace

Uniformity analyze_uniformity(const Kernel& kernel, const Cfg& cfg) {
  return Analysis(kernel, cfg).run();
}

}  // namespace warpsim::ir
