// The seed kernels: each one verifies cleanly and survives print -> parse unchanged.
#include <doctest/doctest.h>

#include "sim/core/ir/frontend.hpp"
#include "sim/core/ir/printer.hpp"
#include "tests/unit/test_support.hpp"

namespace warpsim::test {
namespace {

TEST_CASE("every kernel in kernels_ir passes the verifier without warnings") {
  const auto files = files_in(source_dir() / "kernels_ir", ".kir");
  // vecAdd, saxpy, cuda_transpose, smem_transpose (32x32 and 32x33), example_syncthreads,
  // sum_reduce, compute, clusterHist_kernel, warp_divergence, testKernel.
  CHECK(files.size() >= 11);
  for (const auto& file : files) {
    CAPTURE(file);
    const auto loaded = ir::load_module_file(file.string());
    std::ostringstream diags;
    loaded.diags.render(diags);
    CAPTURE(diags.str());
    CHECK(loaded.ok());
    CHECK(loaded.diags.warning_count() == 0);
    CHECK(loaded.module.launches.size() >= 1);
  }
}

TEST_CASE("printing a seed kernel and parsing the text gives the same module") {
  for (const auto& file : files_in(source_dir() / "kernels_ir", ".kir")) {
    CAPTURE(file);
    const auto original = ir::load_module_file(file.string());
    REQUIRE(original.ok());
    const std::string printed = ir::to_string(original.module);
    const auto reparsed = ir::load_module_text("printed", printed);
    REQUIRE(reparsed.ok());
    CHECK(reparsed.module == original.module);
    // Printing is canonical: a second round gives the same text.
    CHECK(ir::to_string(reparsed.module) == printed);
  }
}

TEST_CASE("the round trip keeps literals exact") {
  const std::string text =
      "const c: f64[6] = {0.1, -2.5, 1e+300, 5e-324, inf, -inf}\n"
      "kernel k(out: ptr global u64) {\n"
      "entry:\n"
      "  %a = mov.u64 18446744073709551615\n"
      "  %b = mov.s64 -9223372036854775808\n"
      "  %f = mov.f32 0.1\n"
      "  ret\n"
      "}\n";
  const auto original = ir::load_module_text("literals", text);
  REQUIRE(original.ok());
  const auto reparsed = ir::load_module_text("printed", ir::to_string(original.module));
  REQUIRE(reparsed.ok());
  CHECK(reparsed.module == original.module);
}

TEST_CASE("a changed module is not equal to the original") {
  // Guards the equality the round-trip tests rely on: it must see a one-character edit.
  const auto a = ir::load_module_file((source_dir() / "kernels_ir/smem_transpose.kir").string());
  const auto b =
      ir::load_module_file((source_dir() / "kernels_ir/smem_transpose_padded.kir").string());
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK_FALSE(a.module == b.module);
}

}  // namespace
}  // namespace warpsim::test
