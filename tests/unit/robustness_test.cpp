// Inputs at the edges that must be answered correctly, not only refused: byte-order marks,
// deep expressions and deep control flow within the limits, JSON on standard output, every
// block of a huge random order visited once, the bank map of a swizzle.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "sim/config/gpu_config.hpp"
#include "sim/core/exec/executor.hpp"
#include "sim/core/ir/frontend.hpp"
#include "tests/unit/run_support.hpp"
#include "tests/unit/test_support.hpp"
#include "tools/warpsim/index_expression.hpp"

namespace warpsim::test {
namespace {

std::optional<std::int64_t> index_value(const std::string& text, std::string& error) {
  const auto e = cli::IndexExpression::parse(text, error);
  if (!e) return std::nullopt;
  const auto v = e->evaluate(cli::LaneCoordinates{5, 0, 5, 0, 0}, error);
  if (!v) return std::nullopt;
  return v->at(0);
}

TEST_CASE("index expressions follow C's precedence for shifts and bitwise operators") {
  std::string error;
  // (1 + 2 * 3) << 1: * before +, + before <<.
  CHECK(index_value("[1 + 2 * 3 << 1]", error) == 14);
  // ((6 & 3) ^ 1) | 8 = (2 ^ 1) | 8 = 11: & before ^ before |.
  CHECK(index_value("[6 & 3 ^ 1 | 8]", error) == 11);
  // lane = 5: 5 ^ 3 = 6; ~5 = -6; 5 >> 1 = 2; comparisons bind tighter than &.
  CHECK(index_value("[lane ^ 3]", error) == 6);
  CHECK(index_value("[~lane]", error) == -6);
  CHECK(index_value("[lane >> 1]", error) == 2);
  CHECK(index_value("[lane > 4 & lane < 6]", error) == 1);
}

TEST_CASE("index expressions nest to 256 levels and are refused beyond, without recursion") {
  std::string error;
  const auto nested = [](int n) {
    return "[" + std::string(static_cast<std::size_t>(n), '(') + "lane" +
           std::string(static_cast<std::size_t>(n), ')') + "]";
  };
  CHECK(index_value(nested(200), error) == 5);
  CHECK_FALSE(index_value(nested(300), error));
  CHECK(error.find("deeper than 256") != std::string::npos);
  // 40,000 unary minus and a chain of 1,000 additions: refused, no stack exhausted.
  CHECK_FALSE(index_value("[" + std::string(40000, '-') + "lane]", error));
  std::string chain = "[lane";
  for (int i = 0; i < 1000; ++i) chain += "+lane";
  CHECK_FALSE(index_value(chain + "]", error));
  CHECK(error.find("deeper than 256") != std::string::npos);
  // 100 additions: the tree is 101 deep, within the limit; 101 lanes of 5.
  std::string short_chain = "[lane";
  for (int i = 0; i < 100; ++i) short_chain += "+lane";
  CHECK(index_value(short_chain + "]", error) == 505);
}

TEST_CASE("the XOR swizzle of a 32x32 tile is conflict-free, its column read 32-way") {
  // Warp 1 of a 32x32 block has tid.y = 1 and tid.x = lane: column tid.x ^ 1 is a permutation
  // of 0-31, so the 32 lanes hit 32 different banks of row 1: one wavefront.
  const auto swizzled =
      run_cli({"banks", "--array", "f32[32][32]", "--index", "[tid.y][tid.x ^ tid.y]", "--block",
               "32,32", "--warp", "1", "--json", "-"});
  REQUIRE(swizzled.exit_code == 0);
  const auto j = nlohmann::json::parse(swizzled.out);
  CHECK(j["wavefronts"] == 1);
  CHECK(j["bank_conflicts"] == 0);
  // [lane][0]: 32 words 32 floats apart, all in bank 0: 32 wavefronts, 31 of them conflicts.
  const auto column =
      run_cli({"banks", "--array", "f32[32][32]", "--index", "[lane][0]", "--json", "-"});
  REQUIRE(column.exit_code == 0);
  const auto c = nlohmann::json::parse(column.out);
  CHECK(c["wavefronts"] == 32);
  CHECK(c["bank_conflicts"] == 31);
  CHECK(c["conflict_degree"] == 32);
  CHECK(c["slots"].size() == 32);
}

TEST_CASE("run --json - writes the JSON alone to standard output, the text report to stderr") {
  const auto r =
      run_cli({"run", (source_dir() / "kernels_ir/warp_divergence.kir").string(), "--json", "-"});
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  // One warp of 32 threads: the seed's 16/16 split is one divergent branch.
  CHECK(j["metrics"]["smsp__sass_branch_targets_threads_divergent.sum"] == 1);
  CHECK(r.err.find("kernel warp_divergence") != std::string::npos);
}

TEST_CASE("a UTF-8 byte-order mark before a kernel or a config is accepted") {
  const std::string bom = "\xEF\xBB\xBF";
  const auto loaded =
      ir::load_module_text("bom.kir", bom + "kernel k(out: ptr global s32) {\nentry:\n  ret\n}\n");
  CHECK(loaded.ok());
  const std::string ini = bom +
                          "[gpu]\nname = G\ncompute_capability = 9.0\nsm_count = 2\n[sm]\n"
                          "max_threads = 2048\nmax_blocks = 32\nregisters = 65536\n"
                          "shared_memory_bytes = 233472\n";
  CHECK(std::holds_alternative<config::GpuConfig>(config::load_config("bom.ini", ini, {})));
}

TEST_CASE("a random block order over a grid that is no power of four runs every block once") {
  // Each block adds 1 to its own word: a block run twice would leave 2, one skipped 0.
  const auto k = load_kernel_text("once", R"(
kernel once(out: ptr global u32) {
entry:
  %one = atom.global.add.u32 out[%ctaid.x], 1
  ret
}
launch once grid(1001) block(1) {
  out = u32[1001] zero
}
)");
  exec::ExecOptions shuffled;
  shuffled.order = exec::BlockOrder::Random;
  shuffled.order_seed = 99;
  const auto result = k.run(shuffled);
  const auto out = values_of<std::uint32_t>(result.memory, "out");
  CHECK(std::count(out.begin(), out.end(), 1u) == 1001);
}

// `n` ifs nested inside one another, each on a condition that depends on the thread.
std::string nested_ifs(int n) {
  std::string t = "kernel deep(out: ptr global u32) {\nentry:\n  %t = mov.u32 %tid.x\n  jmp c0\n";
  for (int i = 0; i < n; ++i) {
    const std::string s = std::to_string(i), next = std::to_string(i + 1);
    t += "c" + s + ":\n  %p" + s + " = lt.u32 %t, " + next + "\n  br %p" + s + ", b" + s + ", j" +
         s + "\nb" + s + ":\n  jmp " + (i + 1 < n ? "c" + next : "inner") + "\n";
  }
  t += "inner:\n  st.global.u32 out[%t], %t\n  jmp j" + std::to_string(n - 1) + "\n";
  for (int i = n - 1; i >= 0; --i) {
    t += "j" + std::to_string(i) + ":\n  " + (i > 0 ? "jmp j" + std::to_string(i - 1) : "ret") +
         "\n";
  }
  return t + "}\n";
}

TEST_CASE("deeply nested branches verify, and past the analysis' bound are refused at the kernel") {
  // 500 levels: the divergent regions hold about 3 x 500^2 / 2 = 375,000 blocks together.
  CHECK(ir::load_module_text("deep.kir", nested_ifs(500)).ok());
  // 2,000 levels: about 6,000,000, past the 5,000,000 bound.
  const auto refused = ir::load_module_text("deeper.kir", nested_ifs(2000));
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.diags.all().front().line == 1);
  CHECK(refused.diags.all().front().message.find("nested too deeply") != std::string::npos);
}

TEST_CASE("a register written on both sides of a branch is defined after the join") {
  const auto both = ir::load_module_text("both.kir", R"(
kernel k(out: ptr global u32) {
entry:
  %c = lt.u32 %tid.x, 16
  br %c, a, b
a:
  %v = mov.u32 1
  jmp join
b:
  %v = mov.u32 2
  jmp join
join:
  st.global.u32 out[%tid.x], %v
  ret
}
)");
  CHECK(both.ok());
  const auto one = ir::load_module_text("one.kir", R"(
kernel k(out: ptr global u32) {
entry:
  %c = lt.u32 %tid.x, 16
  br %c, a, join
a:
  %v = mov.u32 1
  jmp join
join:
  st.global.u32 out[%tid.x], %v
  ret
}
)");
  REQUIRE_FALSE(one.ok());
  CHECK(one.diags.all().front().line == 10);
  CHECK(one.diags.all().front().message.find("may be read before it is written") !=
        std::string::npos);
}

}  // namespace
}  // namespace warpsim::test
