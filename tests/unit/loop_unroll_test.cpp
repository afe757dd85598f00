// The compiler model (sim/core/ir/loop_unroll.hpp): which loops it unrolls, that an unrolled
// kernel verifies and leaves exactly the bytes the kernel as written leaves (lanes with their
// own trip counts, bounds where N - (factor-1)*K would wrap), that its loads come first, and
// what unrolling saves in issued instructions, counted from the IR.
#include "sim/core/ir/loop_unroll.hpp"

#include <doctest/doctest.h>

#include <set>

#include "cuda_backend/ptx.hpp"
#include "sim/core/ir/printer.hpp"
#include "sim/core/ir/verifier.hpp"
#include "tests/unit/timing_support.hpp"

namespace warpsim::test {
namespace {

// The launch's kernel unrolled `factor` times, in a module of its own, and the loop count.
struct Unrolled {
  ir::Module module;
  exec::LaunchSpec spec;
  std::size_t loops = 0;
};

Unrolled unrolled(const KernelRun& k, std::uint32_t factor) {
  Unrolled u{k.loaded.module, k.spec, 0};
  for (ir::Kernel& kernel : u.module.kernels) {
    if (kernel.name != k.spec.kernel->name) continue;
    u.loops = ir::unroll_loops(kernel, factor);
    u.spec.kernel = &kernel;
  }
  ir::Diagnostics diags("unrolled", "");
  CHECK(ir::verify(u.module, diags));
  return u;
}

void check_same_bytes(const exec::GlobalMemory& a, const exec::GlobalMemory& b) {
  REQUIRE(a.buffers.size() == b.buffers.size());
  for (std::size_t i = 0; i < a.buffers.size(); ++i) {
    CAPTURE(a.buffers[i].name);
    CHECK(a.buffers[i].bytes == b.buffers[i].bytes);
  }
}

const char* const kCountedLaunches[] = {"unsigned_step1", "unsigned_near_max", "signed_negative",
                                        "signed_near_min", "unsigned_64bit"};

TEST_CASE("unrolled counted loops leave the bytes of the loops as written") {
  for (const std::string launch : kCountedLaunches) {
    CAPTURE(launch);
    cli::LaunchOverrides o;
    o.launch_name = launch;
    const auto k = load_kernel("../tests/unroll/counted_loops.kir", o);
    const auto as_written = k.run();
    for (std::uint32_t factor : {2u, 3u, 4u, 8u}) {
      CAPTURE(factor);
      const Unrolled u = unrolled(k, factor);
      CHECK(u.loops == 1);
      check_same_bytes(as_written.memory, exec::execute(u.module, u.spec, {}).memory);
    }
    // Through the timing model, which unrolls by the config's factor: same bytes, and the
    // counters of the kernel as written.
    const auto timed = run_timed(k, h200());
    CHECK(timed.timing.unrolled_loops == 1);
    check_same_bytes(as_written.memory, timed.functional.memory);
    CHECK(timed.functional.stats.warp_instructions == as_written.stats.warp_instructions);
    CHECK(timed.functional.stats.branch_instructions == as_written.stats.branch_instructions);
  }
}

TEST_CASE("the trip counts the edge kernels exercise include every remainder") {
  // unsigned_step1: lane t runs max(0, t%13 - t%5) iterations; with factor 4 the remainders
  // 0..3 and trip counts below, at and above one group must all occur for the test above to
  // mean anything.
  cli::LaunchOverrides o;
  o.launch_name = "unsigned_step1";
  const auto k = load_kernel("../tests/unroll/counted_loops.kir", o);
  const auto trips = values_of<std::uint32_t>(k.run().memory, "trips");
  std::set<std::uint32_t> seen(trips.begin(), trips.end());
  for (std::uint32_t n : {0u, 1u, 2u, 3u, 4u, 5u, 7u, 8u, 9u}) {
    CAPTURE(n);
    CHECK(seen.count(n) == 1);
  }
}

TEST_CASE("loops with stores, a register step, a le bound or a branch inside stay as written") {
  for (const std::string launch : {"store_in_body", "register_step", "le_bound", "branch_in_body",
                                   "reads_predicate", "marked_nounroll"}) {
    CAPTURE(launch);
    cli::LaunchOverrides o;
    o.launch_name = launch;
    const auto k = load_kernel("../tests/unroll/left_alone.kir", o);
    CHECK(unrolled(k, 4).loops == 0);
    CHECK(run_timed(k, h200()).timing.unrolled_loops == 0);
  }
}

TEST_CASE("nounroll is what keeps the marked loop rolled, and it prints and lowers") {
  cli::LaunchOverrides o;
  o.launch_name = "marked_nounroll";
  const auto k = load_kernel("../tests/unroll/left_alone.kir", o);
  // The same kernel without the mark is a counted loop of the unrolled shape: one loop.
  ir::Module unmarked = k.loaded.module;
  ir::Kernel* kernel = nullptr;
  for (ir::Kernel& candidate : unmarked.kernels) {
    if (candidate.name == "marked_nounroll") kernel = &candidate;
  }
  REQUIRE(kernel != nullptr);
  for (ir::BasicBlock& b : kernel->blocks) b.no_unroll = false;
  CHECK(ir::unroll_loops(*kernel, 4) == 1);
  // The mark survives printing (the IR reads back equal) and reaches PTX as nvcc writes it.
  const std::string text = ir::to_string(k.loaded.module);
  CHECK(text.find("test:\n  nounroll\n") != std::string::npos);
  CHECK(cuda::lower_to_ptx(k.loaded.module, "sm_90").find("$L_test:\n  .pragma \"nounroll\";") !=
        std::string::npos);
}

TEST_CASE("the seed summation loops are unrolled with their four loads first") {
  for (const std::string file : {"sum_reduce.kir", "example_syncthreads.kir"}) {
    CAPTURE(file);
    const auto k = load_kernel(file);
    const Unrolled u = unrolled(k, 4);
    REQUIRE(u.loops == 1);
    // The group block: the one with four loads. Nothing but index arithmetic before them.
    const ir::Kernel& kernel = *u.spec.kernel;
    int groups = 0;
    for (const ir::BasicBlock& b : kernel.blocks) {
      int loads = 0;
      bool arithmetic_on_loaded = false;
      for (const ir::Instruction& inst : b.instructions) {
        if (inst.opcode == ir::Opcode::Ld) {
          ++loads;
          CHECK_FALSE(arithmetic_on_loaded);
        }
        if (inst.opcode == ir::Opcode::Cvt) arithmetic_on_loaded = true;
      }
      if (loads == 4) ++groups;
    }
    CHECK(groups == 1);
  }
}

TEST_CASE("unrolling saves the loop overhead counted from the IR") {
  // example_syncthreads: thread 0 of each block sums ntid.x = 128 values. As written, each
  // iteration issues the test (lt, br) and the body (ld, cvt, add, add, jmp): 7, plus the final
  // test: 128 x 7 + 2 = 898. Unrolled 4x: the entry (ge, sub, select, lt, br) = 5, then 32 groups
  // of 3 index adds + 4 x (ld, cvt, add) + the step + (lt, br) = 18, then the original test
  // once (lt, br): 5 + 32 x 18 + 2 = 583. So 315 fewer per block, 1,024 blocks.
  // sum_reduce: 256 values: 256 x 7 + 2 = 1,794 against 5 + 64 x 18 + 2 = 1,159: 635 fewer.
  const struct {
    std::string file;
    std::uint64_t saved;
  } cases[] = {{"example_syncthreads.kir", 1024 * 315}, {"sum_reduce.kir", 1024 * 635}};
  for (const auto& c : cases) {
    CAPTURE(c.file);
    const auto k = load_kernel(c.file);
    const auto as_written = run_timed(k, h200({"timing.unroll_factor=1"}));
    const auto compiled = run_timed(k, h200());
    CHECK(as_written.timing.unrolled_loops == 0);
    CHECK(as_written.timing.issued == as_written.functional.stats.warp_instructions);
    CHECK(as_written.timing.issued - compiled.timing.issued == c.saved);
    // The loads of four iterations overlap, so the unrolled kernel takes fewer cycles.
    CHECK(compiled.timing.elapsed_cycles < as_written.timing.elapsed_cycles);
  }
}

}  // namespace
}  // namespace warpsim::test
