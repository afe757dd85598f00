// Same inputs, same results: two runs, and a run with blocks in a random order, give identical
// buffers and counters for every seed kernel.
#include <doctest/doctest.h>

#include "tests/unit/run_support.hpp"

namespace warpsim::test {
namespace {

void check_same(const exec::LaunchResult& a, const exec::LaunchResult& b) {
  REQUIRE(a.memory.buffers.size() == b.memory.buffers.size());
  for (std::size_t i = 0; i < a.memory.buffers.size(); ++i) {
    CAPTURE(a.memory.buffers[i].name);
    CHECK(a.memory.buffers[i].bytes == b.memory.buffers[i].bytes);
  }
  CHECK(a.stats.warp_instructions == b.stats.warp_instructions);
  CHECK(a.stats.thread_instructions == b.stats.thread_instructions);
  CHECK(a.stats.branch_instructions == b.stats.branch_instructions);
  CHECK(a.stats.divergent_branches == b.stats.divergent_branches);
  CHECK(a.stats.barriers == b.stats.barriers);
  for (std::size_t i = 0; i < a.stats.per_branch.size(); ++i) {
    CHECK(a.stats.per_branch[i].executions == b.stats.per_branch[i].executions);
    CHECK(a.stats.per_branch[i].divergent == b.stats.per_branch[i].divergent);
    CHECK(a.stats.per_branch[i].threads_taken == b.stats.per_branch[i].threads_taken);
  }
}

TEST_CASE("every seed kernel gives identical results twice and in a random block order") {
  for (const auto& path : files_in(source_dir() / "kernels_ir", ".kir")) {
    const std::string file = path.filename().string();
    CAPTURE(file);
    // The 2048x2048 transposes are covered by their output tests; a smaller grid suffices here.
    cli::LaunchOverrides o;
    if (file.find("transpose") != std::string::npos) o.args = {"m=256"};
    const auto k = load_kernel(file, o);
    const auto first = k.run();
    check_same(first, k.run());
    exec::ExecOptions shuffled;
    shuffled.order = exec::BlockOrder::Random;
    shuffled.order_seed = 12345;
    check_same(first, k.run(shuffled));
  }
}

TEST_CASE("the random block order really reorders: a kernel that depends on it shows it") {
  // Each block appends its index to a log through an atomic counter, so the log records the
  // order blocks ran in: ascending by default, permuted with --block-order random.
  const std::string text =
      "kernel order(counter: ptr global u32, log: ptr global u32) {\n"
      "entry:\n"
      "  %first = eq.u32 %tid.x, 0\n"
      "  br %first, record, done\n"
      "record:\n"
      "  %slot = atom.global.add.u32 counter[0], 1\n"
      "  st.global.u32 log[%slot], %ctaid.x\n"
      "  jmp done\n"
      "done:\n"
      "  ret\n"
      "}\n"
      "launch order grid(64) block(32) {\n"
      "  counter = u32[1] zero\n"
      "  log = u32[64] zero\n"
      "}\n";
  const auto loaded = ir::load_module_text("order", text);
  REQUIRE(loaded.ok());
  std::ostringstream err;
  const auto spec = cli::resolve_launch(loaded, {}, err);
  REQUIRE(spec.has_value());
  const auto in_order =
      values_of<std::uint32_t>(exec::execute(loaded.module, *spec, {}).memory, "log");
  exec::ExecOptions shuffled;
  shuffled.order = exec::BlockOrder::Random;
  const auto permuted =
      values_of<std::uint32_t>(exec::execute(loaded.module, *spec, shuffled).memory, "log");
  for (std::uint32_t i = 0; i < 64; ++i) CHECK(in_order[i] == i);
  CHECK(permuted != in_order);
  auto sorted = permuted;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == in_order);  // every block still ran exactly once
}

}  // namespace
}  // namespace warpsim::test
