// The SASS run's per-line memory table names the lines of the kernel's own file, as the import
// names the IR's: code that CUDA's headers inline (an atomic, __ldg) counts at the line that
// called it, and a __device__ function of the file keeps its own lines. A kernel the IR does not
// import gets the SASS's own rows.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <vector>

#include "tests/unit/cuda_support.hpp"
#include "tests/unit/sass_only_run.hpp"
#include "tests/unit/sass_support.hpp"
#include "tests/unit/test_support.hpp"

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

// The SASS rows of a kernel the IR does not import, under CUDA line `line` (in file order).
std::vector<const exec::SassMemoryLine*> sass_rows_at(const SassOnlyRun& r, std::uint32_t line) {
  std::vector<const exec::SassMemoryLine*> rows;
  for (const exec::SassMemoryLine& l : r.result.stats.sass_memory_lines) {
    if (l.source_line == line) rows.push_back(&l);
  }
  return rows;
}

constexpr const char* kSleepyTranspose =
    "__global__ void sleepy(const float* x, float* y) {\n"
    "  __shared__ float tile[32][32];\n"
    "  tile[threadIdx.x][0] = x[threadIdx.x];\n"
    "  __nanosleep(100);\n"
    "  __syncthreads();\n"
    "  y[threadIdx.x] = tile[0][threadIdx.x] + tile[threadIdx.x][0];\n"
    "}\n";
constexpr const char* kSleepyLaunch =
    "launch sleepy grid(1) block(32) {\n  x = f32[32] iota\n  y = f32[32] zero\n}\n";

TEST_CASE("a kernel the IR does not import gets its per-line rows from the SASS") {
  if (!have_nvcc("the kernel is not compiled here") ||
      !have_sass_tools("the kernel's SASS is not run"))
    return;
  // __nanosleep is not imported, so only the SASS runs the kernel.
  const SassOnlyRun r = run_sass_file(write_cuda("sleepy", kSleepyTranspose, kSleepyLaunch), false);
  // Line 3, one warp: its load reads 32 consecutive floats (128 bytes: one request, 4 sectors);
  // its store writes tile[lane][0], 32 words 128 bytes apart, all in bank 0: 32 wavefronts
  // where one would do.
  const auto line3 = sass_rows_at(r, 3);
  REQUIRE(line3.size() == 2);
  for (const exec::SassMemoryLine* l : line3) {
    CAPTURE(l->instruction);
    CHECK(l->counts.executions == 1);
    if (l->shared) {
      CHECK(l->instruction.starts_with("STS"));
      CHECK(l->counts.wavefronts == 32);
      CHECK(l->counts.ideal_wavefronts == 1);
    } else {
      CHECK(l->instruction.starts_with("LDG"));
      CHECK(l->counts.requests == 1);
      CHECK(l->counts.sectors == 4);
    }
  }
  // Line 6 reads tile[0][lane] (32 banks: 1 wavefront) and tile[lane][0] (bank 0: 32), and
  // stores 128 consecutive bytes. ptxas may order the two reads either way.
  std::uint64_t shared_wavefronts = 0, global_sectors = 0;
  for (const exec::SassMemoryLine* l : sass_rows_at(r, 6)) {
    (l->shared ? shared_wavefronts : global_sectors) +=
        l->shared ? l->counts.wavefronts : l->counts.sectors;
  }
  CHECK(shared_wavefronts == 33);
  CHECK(global_sectors == 4);
  // The text report lists them under the CUDA line, each with its SASS address.
  const auto path = std::filesystem::temp_directory_path() / "warpsim_sleepy" / "sleepy.cu";
  const CommandResult ran = run_cli({"run", path.string(), "--launch-file",
                                     path.parent_path().append("sleepy.launch").string(),
                                     "--frontend", "sass", "--per-line"});
  REQUIRE(ran.exit_code == 0);
  CHECK(ran.out.find("memory instructions by CUDA line (the SASS's") != std::string::npos);
  CHECK(ran.out.find(":3  tile[threadIdx.x][0] = x[threadIdx.x];") != std::string::npos);
}

}  // namespace
}  // namespace warpsim::test
