// A barrier reduction whose result the kernel never uses (`__syncthreads_count(...)` whose value
// is overwritten): ptxas still reads it, into RZ (`B2R.RESULT RZ`), and the SASS run goes on.
#include <doctest/doctest.h>

#include <cstdint>

#include "tests/unit/cuda_support.hpp"
#include "tests/unit/sass_only_run.hpp"
#include "tests/unit/sass_support.hpp"

namespace warpsim::test {

TEST_CASE("a barrier reduction's unused result is read into RZ and dropped") {
  if (!have_nvcc("the kernel is not compiled here") ||
      !have_sass_tools("the kernel's SASS is not run"))
    return;
  const SassOnlyRun r =
      run_sass_file(write_cuda("unused_count",
                               "__global__ void unused_count(const unsigned* x, unsigned* y) {\n"
                               "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                               "  unsigned c = __syncthreads_count(x[i] & 1u);\n"
                               "  c = x[i] * 2u;\n"
                               "  y[i] = c + (unsigned)__syncthreads_or(x[i] == 5u);\n"
                               "}\n",
                               "launch unused_count grid(2) block(64) {\n  x = u32[128] iota\n"
                               "  y = u32[128] zero\n}\n"),
                    true);
  const auto* y = reinterpret_cast<const std::uint32_t*>(r.result.memory.find("y")->bytes.data());
  for (std::uint32_t i = 0; i < 128; ++i) {
    CAPTURE(i);
    // x[i] = i; the OR is true in block 0 only, whose thread 5 holds 5.
    CHECK(y[i] == 2 * i + (i < 64 ? 1u : 0u));
  }
}

}  // namespace warpsim::test
