// Registers defined on every path before use: a forward "must be defined" dataflow over the CFG
// (intersection at joins), then one walk per block in instruction order.
#include <vector>

#include "sim/core/ir/register_reads.hpp"
#include "sim/core/ir/verify_context.hpp"

namespace warpsim::ir {
namespace {

using RegSet = std::vector<bool>;

}  // namespace

void verify_dataflow(KernelContext& ctx, const Cfg& cfg) {
  const Kernel& k = ctx.kernel;
  std::map<std::string, std::size_t> index;
  for (const auto& [name, type] : ctx.reg_types) index.emplace(name, index.size());
  const std::size_t nregs = index.size();
  const std::size_t nblocks = k.blocks.size();

  std::vector<RegSet> defined_out(nblocks, RegSet(nregs, true));
  auto transfer = [&](std::size_t b, RegSet set) {
    for (const Instruction& inst : k.blocks[b].instructions) {
      for (const RegDef& d : inst.dests) set[index.at(d.name)] = true;
    }
    return set;
  };
  auto defined_in = [&](std::size_t b) {
    RegSet in(nregs, b != 0);
    if (b == 0) return in;  // the entry defines nothing on arrival, even if it is a loop head
    for (std::size_t p : cfg.predecessors[b]) {
      if (!cfg.reachable[p]) continue;
      for (std::size_t r = 0; r < nregs; ++r) in[r] = in[r] && defined_out[p][r];
    }
    return in;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t b = 0; b < nblocks; ++b) {
      if (!cfg.reachable[b]) continue;
      RegSet out = transfer(b, defined_in(b));
      if (out != defined_out[b]) {
        defined_out[b] = std::move(out);
        changed = true;
      }
    }
  }

  for (std::size_t b = 0; b < nblocks; ++b) {
    if (!cfg.reachable[b]) {
      ctx.diags.warning(k.blocks[b].loc,
                        "block '" + k.blocks[b].label + "' is unreachable from the entry block");
      continue;
    }
    RegSet defined = defined_in(b);
    for (const Instruction& inst : k.blocks[b].instructions) {
      for_each_register_read(inst, [&](const RegRef& r, SourceLoc loc) {
        auto it = index.find(r.name);
        if (it == index.end() || defined[it->second]) return;  // undefined: reported already
        ctx.diags.error(loc, "register %" + r.name +
                                 " may be read before it is written (not defined on every path "
                                 "from the entry to here)");
        defined[it->second] = true;  // report each register once per block
      });
      for (const RegDef& d : inst.dests) defined[index.at(d.name)] = true;
    }
  }
}

}  // namespace warpsim::ir
