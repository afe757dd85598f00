#include "sim/core/ir/register_estimate.hpp"

#include <algorithm>
#include <map>
#include <vector>

#include "sim/core/ir/cfg.hpp"
#include "sim/core/ir/register_reads.hpp"
#include "sim/core/ir/typing.hpp"

namespace warpsim::ir {
namespace {

constexpr std::uint32_t kCompilerOverhead = 2;

using Live = std::vector<bool>;

}  // namespace

RegisterCount registers_per_thread(const Kernel& kernel) {
  if (kernel.regs) return {*kernel.regs, false, kernel.regs_from_ptxas};
  std::map<std::string, std::size_t> index;
  std::vector<std::uint32_t> weight;
  for (const BasicBlock& b : kernel.blocks) {
    for (const Instruction& inst : b.instructions) {
      for (const RegDef& d : inst.dests) {
        if (index.emplace(d.name, weight.size()).second) {
          const ScalarType t = result_type(inst);
          weight.push_back(t == ScalarType::Pred ? 0 : size_bytes(t) / 4);
        }
      }
    }
  }
  const Cfg cfg = build_cfg(kernel);
  const std::size_t n = kernel.blocks.size();
  std::vector<Live> live_in(n, Live(weight.size(), false));
  // Walks block b backwards from its live-out set; returns live-in and the peak pressure.
  auto walk = [&](std::size_t b, std::uint32_t* peak) {
    Live live(weight.size(), false);
    for (std::size_t s : cfg.successors[b]) {
      for (std::size_t r = 0; r < live.size(); ++r) live[r] = live[r] || live_in[s][r];
    }
    const auto& insts = kernel.blocks[b].instructions;
    for (auto it = insts.rbegin(); it != insts.rend(); ++it) {
      for (const RegDef& d : it->dests) live[index.at(d.name)] = false;
      for_each_register_read(*it,
                             [&](const RegRef& r, SourceLoc) { live[index.at(r.name)] = true; });
      if (peak != nullptr) {
        std::uint32_t pressure = 0;
        for (std::size_t r = 0; r < live.size(); ++r) pressure += live[r] ? weight[r] : 0;
        *peak = std::max(*peak, pressure);
      }
    }
    return live;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t b = n; b-- > 0;) {
      Live in = walk(b, nullptr);
      if (in != live_in[b]) {
        live_in[b] = std::move(in);
        changed = true;
      }
    }
  }
  std::uint32_t peak = 0;
  for (std::size_t b = 0; b < n; ++b) walk(b, &peak);
  // A max_regs cap holds the estimate too (ptxas spills what does not fit).
  const std::uint32_t estimate = peak + kCompilerOverhead;
  return {kernel.max_regs ? std::min(estimate, *kernel.max_regs) : estimate, true};
}

}  // namespace warpsim::ir
