// Reconvergence points (immediate post-dominators) on hand-made control-flow graphs.
#include "sim/core/ir/cfg.hpp"

#include <doctest/doctest.h>

#include "sim/core/ir/frontend.hpp"

namespace warpsim::test {
namespace {

struct Analysed {
  ir::Kernel kernel;
  ir::Cfg cfg;
  std::size_t block(const char* label) const { return *ir::find_block(kernel, label); }
  std::size_t ipdom(const char* label) const { return cfg.ipdom[block(label)]; }
};

// Wraps `blocks` in a kernel whose branches test %p (varying) and %q.
Analysed analyse(const std::string& blocks) {
  const std::string text =
      "kernel k(out: ptr global s32) {\n"
      "entry0:\n"
      "  %p = lt.u32 %tid.x, 7\n"
      "  %q = lt.u32 %tid.x, 3\n"
      "  jmp entry\n" +
      blocks + "}\n";
  auto loaded = ir::load_module_text("cfg", text);
  REQUIRE(!loaded.diags.has_errors());
  ir::Kernel k = loaded.module.kernels.at(0);
  ir::Cfg cfg = ir::build_cfg(k);
  return {std::move(k), std::move(cfg)};
}

TEST_CASE("if/else reconverges at the join") {
  const auto a =
      analyse("entry:\n  br %p, then, else\nthen:\n  jmp join\nelse:\n  jmp join\njoin:\n  ret\n");
  CHECK(a.ipdom("entry") == a.block("join"));
  CHECK(a.ipdom("then") == a.block("join"));
  CHECK(a.ipdom("join") == ir::Cfg::kExit);
}

TEST_CASE("if without else reconverges at the fall-through block") {
  const auto a = analyse("entry:\n  br %p, then, join\nthen:\n  jmp join\njoin:\n  ret\n");
  CHECK(a.ipdom("entry") == a.block("join"));
}

TEST_CASE("nested ifs reconverge innermost first") {
  const auto a = analyse(
      "entry:\n  br %p, outer, join\n"
      "outer:\n  br %q, inner, inner_join\n"
      "inner:\n  jmp inner_join\n"
      "inner_join:\n  jmp join\n"
      "join:\n  ret\n");
  CHECK(a.ipdom("entry") == a.block("join"));
  CHECK(a.ipdom("outer") == a.block("inner_join"));
  CHECK(a.ipdom("inner_join") == a.block("join"));
}

TEST_CASE("a loop with a break reconverges after the loop") {
  // head tests the trip condition, body may break out early; both exits land in `after`.
  const auto a = analyse(
      "entry:\n  jmp head\n"
      "head:\n  br %p, body, after\n"
      "body:\n  br %q, after, latch\n"
      "latch:\n  jmp head\n"
      "after:\n  ret\n");
  CHECK(a.ipdom("head") == a.block("after"));
  CHECK(a.ipdom("body") == a.block("after"));
  CHECK(a.ipdom("latch") == a.block("head"));
}

TEST_CASE("an early return reconverges only at the exit") {
  const auto a = analyse(
      "entry:\n  br %p, early, work\n"
      "early:\n  ret\n"
      "work:\n  jmp done\n"
      "done:\n  ret\n");
  CHECK(a.ipdom("entry") == ir::Cfg::kExit);
  CHECK(a.ipdom("work") == a.block("done"));
}

TEST_CASE("several returns meet at the virtual exit") {
  const auto a = analyse(
      "entry:\n  br %p, left, right\n"
      "left:\n  br %q, l1, l2\n"
      "l1:\n  ret\n"
      "l2:\n  ret\n"
      "right:\n  ret\n");
  CHECK(a.ipdom("entry") == ir::Cfg::kExit);
  CHECK(a.ipdom("left") == ir::Cfg::kExit);
  CHECK(a.ipdom("l1") == ir::Cfg::kExit);
}

TEST_CASE("an unreachable block is marked and does not move reconvergence points") {
  const auto a = analyse(
      "entry:\n  br %p, then, join\n"
      "then:\n  jmp join\n"
      "orphan:\n  jmp then\n"
      "join:\n  ret\n");
  CHECK_FALSE(a.cfg.reachable[a.block("orphan")]);
  CHECK(a.cfg.reachable[a.block("then")]);
  CHECK(a.ipdom("entry") == a.block("join"));
  CHECK(a.ipdom("orphan") == a.block("then"));
}

TEST_CASE("a block that can never reach a return has no post-dominator") {
  const auto a = analyse(
      "entry:\n  br %p, spin, done\n"
      "spin:\n  jmp spin\n"
      "done:\n  ret\n");
  CHECK(a.ipdom("spin") == ir::Cfg::kNoPostDominator);
  // entry's paths do not all reach a ret, and only paths that do count: done post-dominates.
  CHECK(a.ipdom("entry") == a.block("done"));
}

TEST_CASE("a branch with both targets equal has one edge") {
  const auto a = analyse("entry:\n  br %p, join, join\njoin:\n  ret\n");
  CHECK(a.cfg.successors[a.block("entry")].size() == 1);
}

}  // namespace
}  // namespace warpsim::test
