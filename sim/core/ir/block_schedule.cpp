#include "sim/core/ir/block_schedule.hpp"

#include <algorithm>
#include <limits>
#include <set>
#include <string>

#include "sim/core/ir/register_reads.hpp"

namespace warpsim::ir {
namespace {

struct Node {
  std::set<std::string> reads, writes;
  bool is_load = false;
  bool has_effect = false;  // must keep its place among memory operations and effects
  std::uint32_t latency = 1;
  // Predecessors: index and the cycles the successor waits after the predecessor's issue.
  std::vector<std::pair<std::size_t, std::uint32_t>> preds;
  std::vector<std::pair<std::size_t, std::uint32_t>> succs;
  std::uint64_t height = 0;  // cycles from issue to the end of the longest chain it starts
};

bool intersects(const std::set<std::string>& a, const std::set<std::string>& b) {
  return std::any_of(a.begin(), a.end(), [&](const std::string& x) { return b.count(x) != 0; });
}

std::vector<Node> dependence_graph(const std::vector<Instruction>& insts,
                                   const LatencyEstimate& latency) {
  std::vector<Node> nodes(insts.size());
  for (std::size_t i = 0; i < insts.size(); ++i) {
    Node& n = nodes[i];
    for_each_register_read(insts[i], [&](const RegRef& r, SourceLoc) { n.reads.insert(r.name); });
    for (const RegDef& d : insts[i].dests) n.writes.insert(d.name);
    n.is_load = insts[i].opcode == Opcode::Ld;
    n.has_effect = has_effect(insts[i]);
    n.latency = std::max<std::uint32_t>(1, latency(insts[i]));
  }
  for (std::size_t j = 0; j < nodes.size(); ++j) {
    for (std::size_t i = 0; i < j; ++i) {
      const Node& a = nodes[i];
      const Node& b = nodes[j];
      std::uint32_t wait = 0;
      bool ordered = false;
      if (intersects(a.writes, b.reads)) {
        wait = a.latency;
        ordered = true;
      }
      if (intersects(a.reads, b.writes) || intersects(a.writes, b.writes)) ordered = true;
      if ((a.has_effect && (b.has_effect || b.is_load)) || (b.has_effect && a.is_load))
        ordered = true;
      if (!ordered) continue;
      nodes[j].preds.emplace_back(i, wait);
      nodes[i].succs.emplace_back(j, wait);
    }
  }
  for (std::size_t k = nodes.size(); k-- > 0;) {
    std::uint64_t below = 0;
    for (auto [s, wait] : nodes[k].succs) below = std::max(below, wait + nodes[s].height);
    nodes[k].height = std::max<std::uint64_t>(nodes[k].latency, below);
  }
  return nodes;
}

}  // namespace

bool has_effect(const Instruction& inst) {
  if (inst.opcode == Opcode::St) return true;
  switch (opcode_info(inst.opcode).latency) {
    case LatencyClass::Atomic:
    case LatencyClass::WarpWide:
    case LatencyClass::Barrier:
    case LatencyClass::Branch:
      return true;
    default:
      return false;
  }
}

std::uint32_t estimated_latency(const Instruction& inst) {
  switch (opcode_info(inst.opcode).latency) {
    case LatencyClass::Memory:
      return 30;
    case LatencyClass::Convert:
    case LatencyClass::Div:
      return 15;
    default:
      return inst.type == ScalarType::F64 ? 8 : 4;
  }
}

std::vector<Instruction> schedule_block(std::vector<Instruction> insts,
                                        const LatencyEstimate& latency) {
  const std::vector<Node> nodes = dependence_graph(insts, latency);
  const std::size_t n = nodes.size();
  std::vector<std::size_t> unscheduled_preds(n);
  std::vector<std::uint64_t> ready_at(n, 0);
  for (std::size_t i = 0; i < n; ++i) unscheduled_preds[i] = nodes[i].preds.size();
  std::vector<bool> done(n, false);
  std::vector<Instruction> out;
  out.reserve(n);
  std::uint64_t cycle = 0;
  while (out.size() < n) {
    // The candidates: every predecessor issued. Prefer one whose operands are ready now, the
    // longest chain first, then the earlier in the input; otherwise wait for the first ready.
    std::size_t best = n;
    std::uint64_t earliest = std::numeric_limits<std::uint64_t>::max();
    for (std::size_t i = 0; i < n; ++i) {
      if (done[i] || unscheduled_preds[i] != 0) continue;
      earliest = std::min(earliest, ready_at[i]);
      if (ready_at[i] > cycle) continue;
      if (best == n || nodes[i].height > nodes[best].height) best = i;
    }
    if (best == n) {
      cycle = earliest;
      continue;
    }
    done[best] = true;
    for (auto [s, wait] : nodes[best].succs) {
      --unscheduled_preds[s];
      ready_at[s] = std::max(ready_at[s], cycle + wait);
    }
    out.push_back(std::move(insts[best]));
    ++cycle;
  }
  return out;
}

}  // namespace warpsim::ir
