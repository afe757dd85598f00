#include "sim/core/ir/cfg.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dominator_tree.hpp>
#include <string_view>
#include <unordered_map>

namespace warpsim::ir {
namespace {

using ReverseGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
using Vertex = boost::graph_traits<ReverseGraph>::vertex_descriptor;

void add_successor(Cfg& cfg, std::size_t from, std::optional<std::size_t> to) {
  if (!to) return;
  auto& succ = cfg.successors[from];
  for (std::size_t s : succ) {
    if (s == *to) return;  // `br %p, x, x` is one edge
  }
  succ.push_back(*to);
  cfg.predecessors[*to].push_back(from);
}

void mark_reachable(Cfg& cfg) {
  if (cfg.size() == 0) return;
  std::vector<std::size_t> work{0};
  cfg.reachable[0] = true;
  while (!work.empty()) {
    const std::size_t b = work.back();
    work.pop_back();
    for (std::size_t s : cfg.successors[b]) {
      if (!cfg.reachable[s]) {
        cfg.reachable[s] = true;
        work.push_back(s);
      }
    }
  }
}

void compute_post_dominators(Cfg& cfg, const std::vector<bool>& returns) {
  const std::size_t n = cfg.size();
  // Only blocks from which a `ret` is reachable take part: Boost's Lengauer-Tarjan gives wrong
  // answers when a vertex the root cannot reach has edges into ones it can (an endless loop).
  std::vector<bool> reaches_exit(n, false);
  std::vector<std::size_t> work;
  for (std::size_t b = 0; b < n; ++b) {
    if (returns[b]) {
      reaches_exit[b] = true;
      work.push_back(b);
    }
  }
  while (!work.empty()) {
    const std::size_t b = work.back();
    work.pop_back();
    for (std::size_t p : cfg.predecessors[b]) {
      if (!reaches_exit[p]) {
        reaches_exit[p] = true;
        work.push_back(p);
      }
    }
  }
  ReverseGraph g(n + 1);
  const Vertex exit = n;
  for (std::size_t b = 0; b < n; ++b) {
    if (!reaches_exit[b]) continue;
    for (std::size_t s : cfg.successors[b]) {
      if (reaches_exit[s]) boost::add_edge(s, b, g);
    }
    if (returns[b]) boost::add_edge(exit, b, g);
  }
  std::vector<Vertex> idom(n + 1, boost::graph_traits<ReverseGraph>::null_vertex());
  boost::lengauer_tarjan_dominator_tree(
      g, exit, boost::make_iterator_property_map(idom.begin(), get(boost::vertex_index, g)));
  for (std::size_t b = 0; b < n; ++b) {
    if (idom[b] == boost::graph_traits<ReverseGraph>::null_vertex()) {
      cfg.ipdom[b] = Cfg::kNoPostDominator;
    } else {
      cfg.ipdom[b] = idom[b] == exit ? Cfg::kExit : idom[b];
    }
  }
}

// Immediate dominators over the blocks the entry reaches (Boost's Lengauer-Tarjan; unreachable
// blocks are left out, for the reason given above).
void compute_dominators(Cfg& cfg) {
  const std::size_t n = cfg.size();
  cfg.idom.assign(n, Cfg::kNoDominator);
  if (n == 0) return;
  ReverseGraph g(n);
  for (std::size_t b = 0; b < n; ++b) {
    if (!cfg.reachable[b]) continue;
    for (std::size_t s : cfg.successors[b]) boost::add_edge(b, s, g);
  }
  std::vector<Vertex> idom(n, boost::graph_traits<ReverseGraph>::null_vertex());
  boost::lengauer_tarjan_dominator_tree(
      g, 0, boost::make_iterator_property_map(idom.begin(), get(boost::vertex_index, g)));
  for (std::size_t b = 1; b < n; ++b) {
    if (cfg.reachable[b] && idom[b] != boost::graph_traits<ReverseGraph>::null_vertex()) {
      cfg.idom[b] = idom[b];
    }
  }
}

}  // namespace

std::optional<std::size_t> find_block(const Kernel& kernel, std::string_view label) {
  for (std::size_t i = 0; i < kernel.blocks.size(); ++i) {
    if (kernel.blocks[i].label == label) return i;
  }
  return std::nullopt;
}

const Instruction* terminator(const BasicBlock& block) {
  if (block.instructions.empty()) return nullptr;
  const Instruction& last = block.instructions.back();
  return opcode_info(last.opcode).is_terminator ? &last : nullptr;
}

Cfg build_cfg(const Kernel& kernel) {
  const std::size_t n = kernel.blocks.size();
  Cfg cfg;
  cfg.successors.resize(n);
  cfg.predecessors.resize(n);
  cfg.ipdom.assign(n, Cfg::kNoPostDominator);
  cfg.reachable.assign(n, false);
  std::vector<bool> returns(n, false);
  std::unordered_map<std::string_view, std::size_t> block_of;  // the first block of each label
  for (std::size_t b = n; b-- > 0;) block_of[kernel.blocks[b].label] = b;
  for (std::size_t b = 0; b < n; ++b) {
    const Instruction* term = terminator(kernel.blocks[b]);
    if (term == nullptr) continue;
    if (term->opcode == Opcode::Ret) returns[b] = true;
    for (const Operand& op : term->operands) {
      if (const auto* label = std::get_if<LabelRef>(&op.kind)) {
        const auto it = block_of.find(label->name);
        add_successor(cfg, b, it == block_of.end() ? std::nullopt : std::optional(it->second));
      }
    }
  }
  mark_reachable(cfg);
  compute_post_dominators(cfg, returns);
  compute_dominators(cfg);
  return cfg;
}

}  // namespace warpsim::ir
