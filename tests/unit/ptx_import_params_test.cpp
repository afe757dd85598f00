// Structs passed by value: each field the kernel reads becomes an IR parameter of its own, and
// the entry's parameter buffer layout is recorded so the struct's bytes reach the SASS and the
// GPU where nvcc put them (sim/import/aggregate_params.hpp).
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "tests/unit/import_support.hpp"

namespace warpsim::test {
namespace {

// A kernel (a: u32, s: a 12-byte struct aligned to 8, out: u64) whose body is `body`.
std::string struct_kernel(const std::string& body) {
  return R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u32 k_a, .param .align 8 .b8 k_s[12], .param .u64 k_out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [k_out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
)" + body +
         R"(
  ret;
}
)";
}

TEST_CASE("a struct's fields are IR parameters, placed where the PTX parameter buffer has them") {
  // out[tid] = a + s.x * tid + s.z, with s = {x at byte 0 (u32), z at byte 8 (f32)}.
  const std::string text = struct_kernel(R"(
  ld.param.u32 %r2, [k_a];
  ld.param.u32 %r3, [k_s];
  ld.param.f32 %f1, [k_s+8];
  mad.lo.s32 %r4, %r3, %r1, %r2;
  cvt.rn.f32.s32 %f2, %r4;
  add.f32 %f3, %f2, %f1;
  st.global.f32 [%rd4], %f3;)");
  const ptx::ImportResult r = import_text(text);
  REQUIRE(r.module.has_value());
  const ir::Kernel& k = r.module->kernels.at(0);
  // The IR parameters: a, s's two fields (named by their offsets), out.
  REQUIRE(k.params.size() == 4);
  CHECK(k.params[1].name == "p1_0");
  CHECK(k.params[2].name == "p1_8");
  CHECK(k.params[2].type == ir::ScalarType::F32);
  // The buffer: a at 0 (4 bytes); s aligned to 8, at 8 (12 bytes, to 20); out aligned to 8 at
  // 24 (8 bytes): 32 in all. s's fields lie at 8 + 0 and 8 + 8.
  CHECK(k.ptx_params.starts == std::vector<std::uint32_t>{0, 8, 24});
  CHECK(k.ptx_params.bytes == 32);
  const std::vector<ir::ParamPlace> places{{0, 4}, {8, 4}, {16, 4}, {24, 8}};
  CHECK(k.ptx_params.places == places);
  // Run: a = 5, x = 3, z = 0.5: out[t] = 5 + 3t + 0.5.
  const KernelRun run =
      import_kernel(text, launch("1", "32", {"p0=5", "p1_0=3", "p1_8=0.5", "p2=f32[32] zero"}));
  const auto out = values_of<float>(run.run().memory, "p2");
  for (unsigned t = 0; t < 32; ++t) CHECK(out[t] == static_cast<float>(5 + 3 * t) + 0.5f);
}

TEST_CASE("a struct read in overlapping pieces, or whose address is taken, is refused") {
  SUBCASE("overlapping reads") {
    const std::string err = import_error(struct_kernel(R"(
  ld.param.u64 %rd5, [k_s];
  ld.param.u32 %r5, [k_s+4];
  st.global.u32 [%rd4], %r5;)"));
    CHECK(err.find("overlapping") != std::string::npos);
  }
  SUBCASE("one field read as two types") {
    const std::string err = import_error(struct_kernel(R"(
  ld.param.u32 %r5, [k_s];
  ld.param.f32 %f5, [k_s];
  st.global.u32 [%rd4], %r5;)"));
    CHECK(err.find("read as both .u32 and .f32") != std::string::npos);
  }
  SUBCASE("its address taken") {
    const std::string err = import_error(struct_kernel(R"(
  mov.u64 %rd5, k_s;
  st.global.u64 [%rd4], %rd5;)"));
    CHECK(err.find("used other than by reading its fields") != std::string::npos);
  }
  SUBCASE("a read past its end") {
    const std::string err = import_error(struct_kernel(R"(
  ld.param.u32 %r5, [k_s+12];
  st.global.u32 [%rd4], %r5;)"));
    CHECK(err.find("leaves its 12 bytes") != std::string::npos);
  }
}

}  // namespace
}  // namespace warpsim::test
