// validate's comparison of output buffers: bit for bit, with room for .approx instructions.
#include "tools/warpsim/buffer_compare.hpp"

#include <doctest/doctest.h>

#include <cstring>

#include "sim/core/ir/frontend.hpp"

namespace warpsim::test {
namespace {

exec::GlobalBuffer floats(std::vector<float> values) {
  exec::GlobalBuffer b;
  b.name = "out";
  b.element = ir::ScalarType::F32;
  b.bytes.resize(values.size() * 4);
  std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
  return b;
}

TEST_CASE("a kernel's approximations are named, and its float buffers may differ within 1e-5") {
  const ir::LoadedModule m = ir::load_module_text("approx.kir", R"(kernel k(o: ptr global f32) {
entry:
  %x = ex2.approx.f32 1.5
  %y = rsqrt.approx.f32 %x
  st.global.f32 o[0], %y
  ret
}
)");
  REQUIRE(m.ok());
  const std::string used = cli::approximations(m.module.kernels.at(0));
  CHECK(used == "ex2.approx.f32, rsqrt.approx.f32");
  // 2.0 against 2.0 (1 + 4e-6): a relative 4e-6, inside the tolerance; 1e-3 is not.
  const auto sim = floats({1.0f, 2.0f});
  bool mismatch = false;
  CHECK(cli::compare_buffer(sim, floats({1.0f, 2.0f}), used, mismatch) == "identical");
  const std::string close = cli::compare_buffer(sim, floats({1.0f, 2.000008f}), used, mismatch);
  CHECK_FALSE(mismatch);
  CHECK(close.find("1 elements differ") != std::string::npos);
  CHECK(close.find("ex2.approx.f32") != std::string::npos);
  CHECK(cli::compare_buffer(sim, floats({1.0f, 2.002f}), used, mismatch).rfind("MISMATCH", 0) == 0);
  CHECK(mismatch);
  bool exact_rule = false;
  CHECK(cli::compare_buffer(sim, floats({1.0f, 2.000008f}), "", exact_rule).rfind("MISMATCH", 0) ==
        0);
  CHECK(exact_rule);
}

}  // namespace
}  // namespace warpsim::test
