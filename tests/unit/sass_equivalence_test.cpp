// The SASS executor against the IR executor, the reference: every launch of every kernel in
// kernels_ir/ (the seeds and the calibration set) and every CUDA kernel in kernels_cuda/ (the
// seeds as CUDA, the textbook set and both held-out sets), run on the SASS ptxas makes of it,
// leaves every buffer bit for bit as the IR run leaves it. Kernels with .approx instructions are
// compared within the PTX ISA's bounds instead (approx_kernels below). Without ptxas and nvdisasm
// the test says so and compares nothing.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <sstream>

#include "sim/core/exec/program.hpp"
#include "sim/sass/sass_run.hpp"
#include "tests/unit/run_support.hpp"
#include "tests/unit/sass_support.hpp"
#include "tools/warpsim/kernel_input.hpp"
#include "tools/warpsim/sass_frontend.hpp"

namespace warpsim::test {
namespace {

// Kernels with approximations (MUFU) where ptxas's code rounds otherwise than the IR's (it
// fuses a multiply by a constant's reciprocal with the next addition, or contracts around the
// unit's results): each result is within 2 ulp of the exact value (the PTX ISA's bound for
// div.approx, ex2.approx). The longest chain of them is harmonic_fast_divide's sum of 24
// approximate quotients: each term at most the sum, so at most 2 ulp of the sum apart, plus one
// ulp per addition rounding the other way: 24 * 3 = 72 ulp. The ulps are those of the result,
// or of the kernel's floor where a result sums terms of at least that magnitude and may cancel
// to near 0: activations' fourth value adds log2f(|v| + 2) >= 1 to __fdividef(v, 3.0f) (which
// ptxas fuses into an FFMA with it) and cancels near v = -0.6995.
const std::map<std::string, float> kApproxKernels = {{"compute", 0.0f},
                                                     {"harmonic_fast_divide", 0.0f},
                                                     {"softmax_row", 0.0f},
                                                     {"softmax", 0.0f},
                                                     {"activations", 1.0f}};
constexpr int kApproxUlps = 72;

bool within_ulps(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b,
                 float floor) {
  if (a.size() != b.size() || a.size() % 4 != 0) return false;
  for (std::size_t i = 0; i < a.size(); i += 4) {
    float x = 0, y = 0;
    std::memcpy(&x, a.data() + i, 4);
    std::memcpy(&y, b.data() + i, 4);
    if (std::bit_cast<std::uint32_t>(x) == std::bit_cast<std::uint32_t>(y)) continue;
    const float scale = std::max({std::fabs(x), std::fabs(y), floor});
    const double ulp = std::nextafter(scale, INFINITY) - scale;
    if (!(std::fabs(static_cast<double>(x) - y) <= kApproxUlps * ulp)) return false;
  }
  return true;
}

// Runs every launch of `loaded` on the IR and on the SASS and compares the buffers.
void compare_launches(const ir::LoadedModule& loaded, const std::string& file,
                      const cli::LaunchOverrides& base) {
  // One ptxas and nvdisasm run for the module (what `run --frontend sass` compiles); each launch
  // decodes its kernel from the listing.
  const sass::SassBuild built = sass::build_sass(cli::sass_ptx(loaded.module, "sm_90"), "sm_90");
  REQUIRE_MESSAGE(built.listing.has_value(), built.error);
  const std::vector<std::uint8_t> constants = exec::constant_image(loaded.module);
  for (const ir::Launch& launch : loaded.module.launches) {
    cli::LaunchOverrides o = base;
    o.launch_name = launch.name;
    // GPU-filling grids: 16 blocks run the same code (grid-stride loops included) in a test's
    // time.
    if (launch.grid.y == 1 && launch.grid.z == 1 && launch.grid.x > 16 &&
        launch.cluster.count() <= 1)
      o.grid = "16";
    CAPTURE(file);
    CAPTURE(launch.name);
    std::ostringstream err;
    const auto spec = cli::resolve_launch(loaded, o, err);
    REQUIRE_MESSAGE(spec.has_value(), err.str());
    std::string error;
    const std::string name = cli::sass_entry(loaded.module, *spec->kernel);
    const auto resources = built.resources.find(name);
    REQUIRE_MESSAGE(resources != built.resources.end(), name);
    const auto kernel =
        sass::decode_kernel(*built.listing, resources->second, built.constant_relocations,
                            built.kernel_banks, name, error);
    if (!kernel) {
      FAIL_CHECK(error);
      continue;
    }
    const exec::LaunchResult ir_run = exec::execute(loaded.module, *spec, {});
    exec::LaunchResult sass_run;
    try {
      sass_run = sass::execute_sass(*kernel, *spec, constants, {});
    } catch (const exec::KernelFault& f) {
      FAIL_CHECK(std::string(f.what()));
      continue;
    }
    REQUIRE(ir_run.memory.buffers.size() == sass_run.memory.buffers.size());
    for (std::size_t i = 0; i < ir_run.memory.buffers.size(); ++i) {
      CAPTURE(ir_run.memory.buffers[i].name);
      const auto& want = ir_run.memory.buffers[i].bytes;
      const auto& got = sass_run.memory.buffers[i].bytes;
      if (const auto approx = kApproxKernels.find(spec->kernel->name);
          approx != kApproxKernels.end()) {
        CHECK(within_ulps(got, want, approx->second));
      } else {
        CHECK(got == want);
      }
    }
  }
}

}  // namespace

TEST_CASE("the SASS executor leaves every kernels_ir/ buffer as the IR executor does") {
  if (!have_sass_tools("the SASS executor is not compared")) return;
  for (const char* dir : {"", "calibration"}) {
    for (const auto& path : files_in(source_dir() / "kernels_ir" / dir, ".kir")) {
      const std::string file = path.filename().string();
      // The 2048x2048 transposes: a 256x256 grid covers the same code.
      cli::LaunchOverrides o;
      if (file.find("transpose") != std::string::npos) o.args = {"m=256"};
      compare_launches(ir::load_module_file(path.string()), file, o);
    }
  }
}

TEST_CASE("the SASS executor leaves every kernels_cuda/ buffer as the IR executor does") {
  if (!have_sass_tools("the SASS executor is not compared") || !toolkit::find_program("nvcc"))
    return;
  for (const std::string dir : {"", "textbook", "heldout", "heldout2", "coverage"}) {
    for (const auto& path : files_in(source_dir() / "kernels_cuda" / dir, ".cu")) {
      const auto launch_file = path.parent_path() / (path.stem().string() + ".launch");
      if (!std::filesystem::exists(launch_file)) continue;
      cli::InputOptions input;
      input.launch_file = launch_file.string();
      const ir::LoadedModule loaded = cli::load_kernel_file(path.string(), input);
      // coverage/ holds kernels the IR does not import (run on their SASS alone): those compare
      // with C++ references in sass_coverage_kernels_test.cpp instead.
      if (dir == "coverage" && !loaded.ok()) continue;
      compare_launches(loaded, path.filename().string(), {});
    }
  }
}

// Kernels of coverage/ written to hold the IR's import to ptxas's code form by form (16-bit
// arithmetic, every conversion nvcc emits, the integer intrinsics, the float and double math,
// half and bfloat16 arithmetic and conversions to and from integers, the math library's fast
// forms) and its control flow (threads that return before a barrier, lanes of a warp that reach
// one apart, random shapes of branches, loops and warp operations): they must import, and give
// the SASS's bits.
TEST_CASE("coverage's arithmetic, conversion and math kernels import and give the SASS's bits") {
  if (!have_sass_tools("the SASS executor is not compared") || !toolkit::find_program("nvcc"))
    return;
  for (const std::string name :
       {"short_arith", "conversions", "integer_forms", "math_forms", "half_arith",
        "half_compare_forms", "early_exits", "barrier_shapes", "half_int_conversions",
        "random_shapes", "library_fast_forms"}) {
    const auto dir = source_dir() / "kernels_cuda" / "coverage";
    cli::InputOptions input;
    input.launch_file = (dir / (name + ".launch")).string();
    const ir::LoadedModule loaded = cli::load_kernel_file((dir / (name + ".cu")).string(), input);
    std::ostringstream diags;
    loaded.diags.render(diags);
    INFO(diags.str());
    REQUIRE(loaded.ok());
    compare_launches(loaded, name + ".cu", {});
  }
}

}  // namespace warpsim::test
