// Registers defined on every path before use. A read is fine when its register was written
// earlier in the same block or in a block that strictly dominates it; a register written in one
// block only, which does not dominate the read, is not defined on some path. Only registers
// written in several blocks, none dominating the read, need the path question answered
// directly: which blocks the entry reaches without passing one of their writes (one search per
// such register). So the cost is near-linear in the kernel's size for ordinary code, where a
// "must be defined" dataflow over all registers and blocks grew with their product.
#include <functional>
#include <limits>
#include <unordered_map>
#include <vector>

#include "sim/core/ir/register_reads.hpp"
#include "sim/core/ir/verify_context.hpp"

namespace warpsim::ir {
namespace {

// Pre- and post-order numbers of the dominator tree: a dominates b when a's interval holds b's.
class Dominance {
 public:
  explicit Dominance(const Cfg& cfg) : enter_(cfg.size(), 0), leave_(cfg.size(), 0) {
    std::vector<std::vector<std::size_t>> children(cfg.size());
    for (std::size_t b = 0; b < cfg.size(); ++b) {
      if (cfg.idom[b] != Cfg::kNoDominator) children[cfg.idom[b]].push_back(b);
    }
    if (cfg.size() == 0) return;
    std::size_t clock = 1;
    std::vector<std::pair<std::size_t, std::size_t>> stack{{0, 0}};  // block, next child
    enter_[0] = clock++;
    while (!stack.empty()) {
      auto& [block, next] = stack.back();
      if (next < children[block].size()) {
        const std::size_t child = children[block][next++];
        enter_[child] = clock++;
        stack.emplace_back(child, 0);
      } else {
        leave_[block] = clock++;
        stack.pop_back();
      }
    }
  }

  bool strictly_dominates(std::size_t a, std::size_t b) const {
    return a != b && enter_[a] != 0 && enter_[a] < enter_[b] && leave_[b] < leave_[a];
  }

 private:
  std::vector<std::size_t> enter_, leave_;  // 0: not in the tree (unreachable)
};

// Called once per block for each register read there before some path writes it.
using UndefinedRead = std::function<void(const std::string& reg, SourceLoc loc)>;

class DefinedCheck {
 public:
  DefinedCheck(KernelContext& ctx, const Cfg& cfg, UndefinedRead report)
      : ctx_(ctx), cfg_(cfg), dominance_(cfg), report_(std::move(report)) {
    for (const auto& [name, type] : ctx.reg_types) index_.emplace(name, index_.size());
    writers_.resize(index_.size());
    undefined_on_entry_.resize(index_.size());
    const Kernel& k = ctx.kernel;
    for (std::size_t b = 0; b < k.blocks.size(); ++b) {
      for (const Instruction& inst : k.blocks[b].instructions) {
        for (const RegDef& d : inst.dests) {
          auto& blocks = writers_[index_.at(d.name)];
          if (blocks.empty() || blocks.back() != b) blocks.push_back(b);
        }
      }
    }
  }

  void run() {
    const Kernel& k = ctx_.kernel;
    std::vector<std::size_t> written_in(index_.size(), kNone);  // the block, while walking it
    for (std::size_t b = 0; b < k.blocks.size(); ++b) {
      if (!cfg_.reachable[b]) {
        ctx_.diags.warning(k.blocks[b].loc,
                           "block '" + k.blocks[b].label + "' is unreachable from the entry block");
        continue;
      }
      for (const Instruction& inst : k.blocks[b].instructions) {
        for_each_register_read(inst, [&](const RegRef& r, SourceLoc loc) {
          auto it = index_.find(r.name);
          if (it == index_.end()) return;  // undefined: reported already
          const std::size_t reg = it->second;
          if (written_in[reg] == b || defined_on_entry(reg, b)) return;
          report_(r.name, loc);
          written_in[reg] = b;  // report each register once per block
        });
        for (const RegDef& d : inst.dests) written_in[index_.at(d.name)] = b;
      }
    }
  }

 private:
  static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

  bool defined_on_entry(std::size_t reg, std::size_t b) {
    if (b == 0) return false;  // the entry defines nothing on arrival, even as a loop head
    const std::vector<std::size_t>& writers = writers_[reg];
    for (std::size_t w : writers) {
      if (dominance_.strictly_dominates(w, b)) return true;
    }
    if (writers.size() < 2) return false;  // a path from the entry avoids the one writer
    if (undefined_on_entry_[reg].empty()) undefined_on_entry_[reg] = reached_undefined(reg);
    return !undefined_on_entry_[reg][b];
  }

  // Blocks whose entry the kernel's entry reaches on a path that writes `reg` nowhere.
  std::vector<bool> reached_undefined(std::size_t reg) const {
    std::vector<bool> writes(cfg_.size(), false), reached(cfg_.size(), false);
    for (std::size_t w : writers_[reg]) writes[w] = true;
    std::vector<std::size_t> work{0};
    reached[0] = true;
    while (!work.empty()) {
      const std::size_t b = work.back();
      work.pop_back();
      if (writes[b]) continue;  // leaving b, the register is written
      for (std::size_t s : cfg_.successors[b]) {
        if (!reached[s]) {
          reached[s] = true;
          work.push_back(s);
        }
      }
    }
    return reached;
  }

  KernelContext& ctx_;
  const Cfg& cfg_;
  Dominance dominance_;
  UndefinedRead report_;
  std::unordered_map<std::string, std::size_t> index_;
  std::vector<std::vector<std::size_t>> writers_;      // per register: the blocks that write it
  std::vector<std::vector<bool>> undefined_on_entry_;  // per register, computed when needed
};

}  // namespace

void verify_dataflow(KernelContext& ctx, const Cfg& cfg) {
  DefinedCheck(ctx, cfg, [&](const std::string& reg, SourceLoc loc) {
    ctx.diags.error(loc, "register %" + reg +
                             " may be read before it is written (not defined on every path from "
                             "the entry to here)");
  }).run();
}

std::vector<std::pair<std::string, ScalarType>> registers_read_before_written(
    const Module& module, const Kernel& kernel) {
  Diagnostics scratch("", "");
  KernelContext ctx{module, kernel, scratch, {}};
  if (!verify_blocks(ctx)) return {};
  verify_instructions(ctx);
  std::vector<std::pair<std::string, ScalarType>> found;
  DefinedCheck(ctx, build_cfg(kernel), [&](const std::string& reg, SourceLoc) {
    for (const auto& f : found) {
      if (f.first == reg) return;
    }
    found.emplace_back(reg, ctx.reg_types.at(reg));
  }).run();
  return found;
}

}  // namespace warpsim::ir
