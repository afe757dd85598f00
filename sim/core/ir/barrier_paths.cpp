#include "sim/core/ir/barrier_paths.hpp"

#include "sim/core/ir/opcodes.hpp"

namespace warpsim::ir {

BarrierPaths::BarrierPaths(const Kernel& kernel, const Cfg& cfg)
    : cfg_(cfg), kinds_(kernel.blocks.size(), 0) {
  for (std::size_t b = 0; b < kernel.blocks.size(); ++b) {
    for (const Instruction& inst : kernel.blocks[b].instructions) {
      const LatencyClass c = opcode_info(inst.opcode).latency;
      if (c == LatencyClass::Barrier) kinds_[b] |= kBarrier;
      if (c == LatencyClass::WarpWide) kinds_[b] |= kWarpWide;
    }
    present_ |= kinds_[b];
  }
}

bool BarrierPaths::reaches(std::size_t from, std::size_t stop, std::uint8_t kinds) const {
  if ((present_ & kinds) == 0) return false;  // no search where no block holds one
  // Depth first over the blocks, never entering `stop` (a loop back to `from` is visited once).
  std::vector<bool> seen(cfg_.size(), false);
  std::vector<std::size_t> todo{from};
  while (!todo.empty()) {
    const std::size_t b = todo.back();
    todo.pop_back();
    if (b >= cfg_.size() || b == stop || seen[b]) continue;
    seen[b] = true;
    if ((kinds_[b] & kinds) != 0) return true;
    for (const std::size_t s : cfg_.successors[b]) todo.push_back(s);
  }
  return false;
}

bool BarrierPaths::every_thread_arrives(std::size_t branch, std::size_t barrier,
                                        std::size_t join) const {
  std::vector<bool> seen(cfg_.size(), false);
  std::vector<std::size_t> todo(cfg_.successors[branch].begin(), cfg_.successors[branch].end());
  while (!todo.empty()) {
    const std::size_t b = todo.back();
    todo.pop_back();
    if (b >= cfg_.size() || b == barrier || seen[b]) continue;
    seen[b] = true;
    if (b == branch || (kinds_[b] & kBarrier) != 0) return false;
    if (runs_apart_to_exit(b)) continue;  // these threads exit; the barrier counts them
    if (b == join) return false;
    for (const std::size_t s : cfg_.successors[b]) todo.push_back(s);
  }
  return true;
}

}  // namespace warpsim::ir
