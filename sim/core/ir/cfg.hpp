// The control-flow graph of a kernel and its immediate post-dominators, the reconvergence points
// of the SIMT stack. Post-dominators are the dominator tree of the reversed CFG (Boost.Graph's
// Lengauer-Tarjan), rooted at a virtual exit that every `ret` block flows into, so a kernel with
// several returns still has one tree.
// Immediate dominators (idom) come from the same algorithm on the forward CFG.
// Contract: build_cfg accepts any kernel; a branch to an unknown label adds no edge (the verifier
// reports it). ipdom[b] is a block index, kExit (threads leaving b meet again only when they
// finish), or kNoPostDominator (no path from b reaches a `ret`, e.g. an endless loop).
#pragma once

#include <cstddef>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#include "sim/core/ir/module.hpp"

namespace warpsim::ir {

struct Cfg {
  static constexpr std::size_t kExit = std::numeric_limits<std::size_t>::max() - 1;
  static constexpr std::size_t kNoPostDominator = std::numeric_limits<std::size_t>::max();
  static constexpr std::size_t kNoDominator = std::numeric_limits<std::size_t>::max();

  std::vector<std::vector<std::size_t>> successors;
  std::vector<std::vector<std::size_t>> predecessors;
  std::vector<std::size_t> ipdom;
  std::vector<std::size_t> idom;  // immediate dominator; kNoDominator: the entry, unreachable
  std::vector<bool> reachable;    // from the entry block

  std::size_t size() const { return successors.size(); }
};

Cfg build_cfg(const Kernel& kernel);

// Index of the block labelled `label`, if any.
std::optional<std::size_t> find_block(const Kernel& kernel, std::string_view label);

// The terminator of a block, or nullptr when its last instruction is not one.
const Instruction* terminator(const BasicBlock& block);

}  // namespace warpsim::ir
