// Importing PTX text in-process for tests, as `warpsim run FILE.ptx` does: translated, printed as
// IR, read back, its launch resolved from overrides.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>

#include "sim/core/ir/printer.hpp"
#include "sim/import/ptx_import.hpp"
#include "tests/unit/run_support.hpp"

namespace warpsim::test {

inline ptx::ImportResult import_text(const std::string& ptx_text,
                                     const ptx::ImportOptions& options = {}) {
  return ptx::import_ptx(ptx_text, options);
}

// The rendered diagnostics of an import that must fail.
inline std::string import_error(const std::string& ptx_text) {
  const ptx::ImportResult r = import_text(ptx_text);
  REQUIRE_FALSE(r.module.has_value());
  std::ostringstream out;
  r.diags.render(out);
  return out.str();
}

inline KernelRun import_kernel(const std::string& ptx_text, const cli::LaunchOverrides& o,
                               const ptx::ImportOptions& options = {}) {
  const ptx::ImportResult r = import_text(ptx_text, options);
  std::ostringstream diags;
  r.diags.render(diags);
  INFO(diags.str());
  REQUIRE(r.module.has_value());
  return resolved(
      {ir::load_module_text("test.ptx (imported IR)", ir::to_string(*r.module)), {}, {}}, o);
}

// Lane l's operand: l * 0x9E3779B9 wrapped to 32 bits, spread over the whole range of both
// signednesses.
inline std::uint32_t spread(unsigned lane) {
  return static_cast<std::uint32_t>(lane * 0x9E3779B9ull);
}

inline cli::LaunchOverrides launch(const std::string& grid, const std::string& block,
                                   std::vector<std::string> args) {
  cli::LaunchOverrides o;
  o.grid = grid;
  o.block = block;
  o.args = std::move(args);
  return o;
}

// One warp's kernel: `out` is a u32 buffer of 32 words; %r1 holds %tid.x, %rd3 out's address
// and %rd4 the address of out[%tid.x]. `body` computes %r9, which lands in out[%tid.x].
inline std::string one_warp_kernel(const std::string& body) {
  return R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 k_out)
{
  .reg .pred %p<8>; .reg .b16 %rs<8>;
  .reg .b32 %r<32>;
  .reg .f32 %f<16>; .reg .f64 %fd<8>;
  .reg .b64 %rd<16>;
  ld.param.u64 %rd1, [k_out];
  cvta.to.global.u64 %rd3, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd4, %rd3, %rd2;
)" + body +
         R"(
  st.global.u32 [%rd4], %r9;
  ret;
}
)";
}

inline std::vector<std::uint32_t> run_one_warp(const std::string& body) {
  const KernelRun k = import_kernel(one_warp_kernel(body), launch("1", "32", {"p0=u32[32] zero"}));
  return values_of<std::uint32_t>(k.run().memory, "p0");
}

}  // namespace warpsim::test
