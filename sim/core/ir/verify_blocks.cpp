// Block structure: labels, terminators, branch targets, reachability.
#include <set>

#include "sim/core/ir/verify_context.hpp"

namespace warpsim::ir {

bool verify_blocks(KernelContext& ctx) {
  const Kernel& k = ctx.kernel;
  if (k.blocks.empty()) {
    ctx.diags.error(k.loc, "kernel '" + k.name +
                               "' has no blocks (it needs at least 'entry:' "
                               "and 'ret')");
    return false;
  }
  bool ok = true;
  std::set<std::string> labels;
  for (const BasicBlock& b : k.blocks) {
    if (!labels.insert(b.label).second) {
      ctx.diags.error(b.loc, "duplicate label '" + b.label + "'");
      ok = false;
    }
  }
  for (const BasicBlock& b : k.blocks) {
    for (std::size_t i = 0; i < b.instructions.size(); ++i) {
      const Instruction& inst = b.instructions[i];
      const bool last = i + 1 == b.instructions.size();
      if (opcode_info(inst.opcode).is_terminator && !last) {
        ctx.diags.error(b.instructions[i + 1].loc,
                        "instruction after the terminator of block '" + b.label +
                            "' can never run (start a new block with a label)");
        ok = false;
      }
      for (const Operand& op : inst.operands) {
        const auto* label = std::get_if<LabelRef>(&op.kind);
        if (label != nullptr && !labels.contains(label->name)) {
          ctx.diags.error(op.loc, "branch to unknown label '" + label->name + "'");
          ok = false;
        }
      }
    }
    if (terminator(b) == nullptr) {
      ctx.diags.error(b.loc, "block '" + b.label +
                                 "' does not end in a terminator (br, jmp or "
                                 "ret); control would fall off its end");
      ok = false;
    }
  }
  return ok;
}

}  // namespace warpsim::ir
