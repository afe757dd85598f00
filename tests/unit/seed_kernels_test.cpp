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

namespace warpsim::test {
namespace {

TEST_CASE("launch sizes and array shapes are integer expressions: + - * / % and parentheses") {
  // (1000 + 255) / 256 = 4 blocks (1255 / 256 truncates); 256 % 300 = 256 threads;
  // 4 * 256 - 24 = 1000 elements; a shape of (2 + 2) * 8 = 32 words.
  const ir::LoadedModule m =
      ir::load_module_text("expressions.kir", R"(kernel k(o: ptr global u32) {
  shared s: u32[(2 + 2) * 8]
entry:
  ret
}
launch k grid((1000 + 255) / 256) block(256 % 300) {
  o = u32[(1000 + 255) / 256 * 256 - 24] zero
}
)");
  REQUIRE(m.ok());
  const ir::Launch& l = m.module.launches.at(0);
  CHECK(l.grid.x == 4);
  CHECK(l.block.x == 256);
  CHECK(std::get<ir::BufferSpec>(l.args.at(0).value).count == 1000);
  CHECK(m.module.kernels.at(0).arrays.at(0).dims == std::vector<std::uint64_t>{32});
}

}  // namespace
}  // namespace warpsim::test
