// Which branches may split the threads of a block, and which blocks run under such a split.
#include "sim/core/ir/uniformity.hpp"

#include <doctest/doctest.h>

#include "sim/core/ir/frontend.hpp"

namespace warpsim::test {
namespace {

struct Result {
  ir::Kernel kernel;
  ir::Uniformity u;
  std::size_t block(const char* label) const { return *ir::find_block(kernel, label); }
};

Result analyse(const std::string& params, const std::string& body) {
  auto loaded = ir::load_module_text("u", "kernel k(" + params + ") {\n" + body + "}\n");
  REQUIRE(!loaded.diags.has_errors());
  ir::Kernel k = loaded.module.kernels.at(0);
  const ir::Cfg cfg = ir::build_cfg(k);
  ir::Uniformity u = ir::analyze_uniformity(k, cfg);
  return {std::move(k), std::move(u)};
}

TEST_CASE("a branch on a parameter or block index is uniform") {
  const auto r = analyse("n: s32",
                         "entry:\n  %p = lt.u32 %ctaid.x, n\n  br %p, a, b\n"
                         "a:\n  jmp b\nb:\n  ret\n");
  CHECK_FALSE(r.u.varying_branch[r.block("entry")]);
  CHECK_FALSE(r.u.under_divergence[r.block("a")]);
}

TEST_CASE("a branch on the thread index varies, and its region is under divergence") {
  const auto r = analyse("n: s32",
                         "entry:\n  %i = add.u32 %tid.x, 1\n  %p = lt.u32 %i, n\n  br %p, a, b\n"
                         "a:\n  jmp b\nb:\n  ret\n");
  CHECK(r.u.varying_branch[r.block("entry")]);
  CHECK(r.u.under_divergence[r.block("a")]);
  CHECK_FALSE(r.u.under_divergence[r.block("b")]);  // the reconvergence point
}

TEST_CASE("a loaded value varies only when its address does") {
  const auto r = analyse("a: ptr global s32",
                         "entry:\n  %u = ld.global.s32 a[0]\n  %v = ld.global.s32 a[%tid.x]\n"
                         "  %p = eq.s32 %u, 0\n  br %p, x, y\n"
                         "x:\n  %q = eq.s32 %v, 0\n  br %q, y, z\n"
                         "z:\n  jmp y\ny:\n  ret\n");
  CHECK_FALSE(r.u.varying_branch[r.block("entry")]);
  CHECK(r.u.varying_branch[r.block("x")]);
}

TEST_CASE("a register written under divergence varies after the join") {
  // %c is 1 or 0 depending on the thread's path, even though both writes are constants.
  const auto r = analyse("n: s32",
                         "entry:\n  %c = mov.s32 0\n  %p = lt.u32 %tid.x, 4\n  br %p, a, j\n"
                         "a:\n  %c = mov.s32 1\n  jmp j\n"
                         "j:\n  %q = eq.s32 %c, 1\n  br %q, k, m\nk:\n  jmp m\nm:\n  ret\n");
  CHECK(r.u.varying_branch[r.block("j")]);
}

TEST_CASE("an atomic's result varies") {
  const auto r = analyse("a: ptr global s32",
                         "entry:\n  %old = atom.global.add.s32 a[0], 1\n  %p = eq.s32 %old, 0\n"
                         "  br %p, x, y\nx:\n  jmp y\ny:\n  ret\n");
  CHECK(r.u.varying_branch[r.block("entry")]);
}

}  // namespace
}  // namespace warpsim::test
