// Lanes of a warp that run a YIELD apart (ptxas puts one at the head of some loops holding atomics)
// stay apart after it: the convergence barriers open around it no longer join them, and groups
// meeting at the YIELD go on from it joined (SassWarp::yield_waiting). Checked against an H100's
// count of random_shape_1024, whose loops of data-dependent trip counts hold shared and global
// atomics in divergent code (validation/h200/results/h100_2026_12_07e/: 86,288 warp
// instructions in both runs; joining every group at the barriers, as before this rule, gave
// 50,358).
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <string>

#include "tests/unit/cuda_support.hpp"
#include "tests/unit/sass_only_run.hpp"
#include "tests/unit/sass_support.hpp"
#include "tests/unit/test_support.hpp"

namespace warpsim::test {

TEST_CASE("groups that ran a YIELD apart go on apart, within 10 % of the H100's count") {
  if (!have_nvcc("the kernel is not compiled here") ||
      !have_sass_tools("the kernel's SASS is not run"))
    return;
  std::ifstream in(source_dir() / "validation/h200/results/h100_2026_12_07e/validate_sass.csv");
  REQUIRE(in);
  double measured = 0;
  for (std::string line; std::getline(in, line);) {
    const auto f = csv_fields(line);
    if (f.size() == 6 && f[1] == "random_shape_1024" && f[2] == "smsp__inst_executed.sum")
      measured = std::stod(f[4]);
  }
  REQUIRE(measured > 0);
  const SassOnlyRun r = run_sass_file(source_dir() / "kernels_cuda/coverage/random_shapes.cu", true,
                                      "random_shape_1024");
  const auto simulated = static_cast<double>(r.result.stats.warp_instructions);
  CAPTURE(simulated);
  CAPTURE(measured);
  CHECK(std::abs(simulated - measured) / measured < 0.10);
}

}  // namespace warpsim::test
