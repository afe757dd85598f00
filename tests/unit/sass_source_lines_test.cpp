// The SASS run's per-line memory table names the lines of the kernel's own file, as the import
// names the IR's: code that CUDA's headers inline (an atomic, __ldg) counts at the line that
// called it, and a __device__ function of the file keeps its own lines.
#include <doctest/doctest.h>

#include <cstdint>

#include "tests/unit/cuda_support.hpp"
#include "tests/unit/sass_only_run.hpp"
#include "tests/unit/sass_support.hpp"

namespace warpsim::test {
namespace {

// Warp executions counted on the IR instructions of `opcode` at CUDA line `line`.
std::uint64_t executions_at(const SassOnlyRun& r, std::uint32_t line, ir::Opcode opcode) {
  std::uint64_t total = 0;
  std::size_t i = 0;
  for (const ir::BasicBlock& b : r.kernel.spec.kernel->blocks) {
    for (const ir::Instruction& inst : b.instructions) {
      if (inst.origin.line == line && inst.opcode == opcode && i < r.result.stats.per_memory.size())
        total += r.result.stats.per_memory[i].executions;
      ++i;
    }
  }
  return total;
}

TEST_CASE("inlined header code counts at the kernel line that called it on the SASS") {
  if (!have_nvcc("the kernel is not compiled here") ||
      !have_sass_tools("the kernel's SASS is not run"))
    return;
  const SassOnlyRun r = run_sass_file(
      write_cuda(
          "lines",
          "__device__ unsigned twice(const unsigned* p, int i) { return 2u * __ldg(&p[i]); }\n"
          "__global__ void lines(const unsigned* x, unsigned* bins, unsigned* y) {\n"
          "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "  unsigned v = twice(x, i);\n"
          "  atomicAdd(&bins[v & 7u], 1u);\n"
          "  y[i] = v;\n"
          "}\n",
          "launch lines grid(2) block(64) {\n  x = u32[128] iota\n  bins = u32[8] zero\n"
          "  y = u32[128] zero\n}\n"),
      true);
  // 2 blocks of 64 threads are 4 warps, each running every line once. The load comes from
  // __ldg (a header's inline assembly) called at line 1, in twice(), itself inlined at line 4;
  // the atomic from the header's atomicAdd called at line 5; the store is line 6's own.
  CHECK(executions_at(r, 1, ir::Opcode::Ld) == 4);
  CHECK(executions_at(r, 4, ir::Opcode::Ld) == 0);
  CHECK(executions_at(r, 5, ir::Opcode::Atom) == 4);
  CHECK(executions_at(r, 6, ir::Opcode::St) == 4);
}

}  // namespace
}  // namespace warpsim::test
