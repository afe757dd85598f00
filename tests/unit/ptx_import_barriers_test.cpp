// Barrier reductions (CUDA's __syncthreads_count, _and, _or, which nvcc writes as inline
// assembly in a scope of its own) and the scoping of registers declared inside `{ }`.
#include <doctest/doctest.h>

#include <cstdint>

#include "tests/unit/import_support.hpp"

namespace warpsim::test {
namespace {

TEST_CASE("a register declared in a nested scope hides the outer one of its name there only") {
  // The outer %p1 (lane < 16) stays live across a scope whose own %p1 is lane != 5, as the
  // CUDA headers' inline assembly declares `.reg .pred %p1` beside nvcc's own %p1.
  const auto out = run_one_warp(R"(
  setp.lt.u32 %p1, %r1, 16;
  {
  .reg .pred %p1;
  setp.ne.u32 %p1, %r1, 5;
  selp.u32 %r3, 1, 0, %p1;
  }
  selp.u32 %r4, 100, 0, %p1;
  add.u32 %r9, %r3, %r4;)");
  for (unsigned l = 0; l < 32; ++l) {
    CAPTURE(l);
    CHECK(out[l] == (l < 16 ? 100u : 0u) + (l != 5 ? 1u : 0u));
  }
}

TEST_CASE("bar.red.popc, .and and .or reduce a predicate over the block") {
  // One warp of 32 threads: 16 odd lanes; every lane is below 32; no lane is 40. Each thread
  // gets the count 16, and=true and or=false: 16 + 2 * 1 + 4 * 0 = 18.
  const auto out = run_one_warp(R"(
  and.b32 %r2, %r1, 1;
  setp.ne.u32 %p2, %r2, 0;
  bar.red.popc.u32 %r3, 0, %p2;
  setp.lt.u32 %p3, %r1, 32;
  bar.red.and.pred %p4, 0, %p3;
  selp.u32 %r4, 2, 0, %p4;
  setp.eq.u32 %p5, %r1, 40;
  bar.red.or.pred %p6, 0, %p5;
  selp.u32 %r5, 4, 0, %p6;
  add.u32 %r6, %r3, %r4;
  add.u32 %r9, %r6, %r5;)");
  for (unsigned l = 0; l < 32; ++l) {
    CAPTURE(l);
    CHECK(out[l] == 18u);
  }
}

TEST_CASE("bar.red over a block of several warps counts every warp's threads") {
  // 128 threads, tid % 3 == 0 true for 43 of them (0, 3, ..., 126); every thread writes the
  // count to its own word.
  const std::string body = R"(
  rem.u32 %r2, %r1, 3;
  setp.eq.u32 %p2, %r2, 0;
  bar.red.popc.u32 %r9, 0, %p2;)";
  const KernelRun k =
      import_kernel(one_warp_kernel(body), launch("1", "128", {"p0=u32[128] zero"}));
  for (const std::uint32_t v : values_of<std::uint32_t>(k.run().memory, "p0")) CHECK(v == 43u);
}

TEST_CASE("a named barrier reduction and one with a thread count are refused at their line") {
  for (const std::string form :
       {"bar.red.popc.u32 %r9, 1, %p2;", "bar.red.popc.u32 %r9, 0, 64, %p2;",
        "bar.red.and.u32 %r9, 0, %p2;"}) {
    CAPTURE(form);
    const std::string err = import_error(one_warp_kernel("  setp.eq.u32 %p2, %r1, 0;\n  " + form));
    // Line 16 of the kernel text is the body's second line, the refused instruction.
    CHECK(err.find("input.ptx:16:") != std::string::npos);
    CHECK(err.find("bar.red") != std::string::npos);
  }
}

TEST_CASE("named barriers import: bar.sync and bar.arrive with an id and a thread count") {
  // One warp of 32 threads: barrier 1 counting 32 opens as the warp arrives, so it runs on;
  // bar.arrive 2, 32 completes barrier 2's phase with nobody waiting. The register forms
  // (barrier.sync.aligned with the id in a register) import too. Each thread writes 7.
  const auto out = run_one_warp(R"(
  mov.u32 %r2, 3;
  mov.u32 %r3, 32;
  bar.sync 1, 32;
  bar.arrive 2, 32;
  barrier.sync.aligned %r2, %r3;
  mov.u32 %r9, 7;)");
  for (unsigned l = 0; l < 32; ++l) {
    CAPTURE(l);
    CHECK(out[l] == 7u);
  }
}

TEST_CASE("a barrier other than 0 without a thread count is refused, naming the instruction") {
  const std::string error = import_error(one_warp_kernel("  bar.sync 1;"));
  CHECK(error.find("bar.sync") != std::string::npos);
  CHECK(error.find("a barrier other than 0 without a thread count") != std::string::npos);
}

}  // namespace
}  // namespace warpsim::test
