// Calls to device functions nvcc did not inline, inlined by the importer: parameters and
// return values through registers, a function's own branches and returns, calls inside
// functions, and the calls it refuses (recursion, a function the PTX does not define, printf).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>

#include "tests/unit/import_support.hpp"

namespace warpsim::test {
namespace {

// clamp_add(a, b) = min(a + b, 40), returning from either side of a branch; twice(a) calls it
// with (a, a).
const std::string kFunctions = R"(
.func (.param .b32 func_retval0) clamp_add(.param .b32 clamp_add_param_0, .param .b32 clamp_add_param_1);
.func (.param .b32 func_retval0) clamp_add(.param .b32 clamp_add_param_0, .param .b32 clamp_add_param_1)
{
  .reg .pred %p<2>;
  .reg .b32 %r<5>;
  ld.param.u32 %r1, [clamp_add_param_0];
  ld.param.u32 %r2, [clamp_add_param_1];
  add.s32 %r3, %r1, %r2;
  setp.gt.s32 %p1, %r3, 40;
  @%p1 bra $L__big;
  st.param.b32 [func_retval0+0], %r3;
  ret;
$L__big:
  mov.u32 %r4, 40;
  st.param.b32 [func_retval0+0], %r4;
  ret;
}
.func (.param .b32 func_retval0) twice(.param .b32 twice_param_0)
{
  .reg .b32 %r<4>;
  ld.param.u32 %r1, [twice_param_0];
  {
  .reg .b32 temp_param_reg;
  .param .b32 param0;
  st.param.b32 [param0+0], %r1;
  .param .b32 param1;
  st.param.b32 [param1+0], %r1;
  .param .b32 retval0;
  call.uni (retval0), clamp_add, (param0, param1);
  ld.param.b32 %r2, [retval0+0];
  }
  st.param.b32 [func_retval0+0], %r2;
  ret;
}
)";

// One warp's kernel (import_support.hpp: %r1 = %tid.x, %r9 lands in out[%tid.x]) running
// `calls`, with `functions` defined before it.
std::string kernel_calling(const std::string& functions, const std::string& calls) {
  std::string text = one_warp_kernel(calls);
  text.insert(text.find(".visible .entry"), functions);
  return text;
}

// The line of the first `call.uni` in `text`, as a diagnostic names it ("input.ptx:N:").
std::string call_line(const std::string& text) {
  const auto before = text.substr(0, text.find("call.uni"));
  return "input.ptx:" + std::to_string(1 + std::count(before.begin(), before.end(), '\n')) + ":";
}

TEST_CASE("device functions nvcc did not inline run inlined: arguments, returns, nested calls") {
  // Two call sequences reuse the names param0 and retval0, the second passes a literal, and
  // twice calls clamp_add in turn: out[t] = clamp_add(twice(t), 3) = min(min(2t, 40) + 3, 40).
  const std::string calls = R"(
  {
  .param .b32 param0;
  st.param.b32 [param0+0], %r1;
  .param .b32 retval0;
  call.uni (retval0), twice, (param0);
  ld.param.b32 %r2, [retval0+0];
  }
  {
  .param .b32 param0;
  st.param.b32 [param0+0], %r2;
  .param .b32 param1;
  st.param.b32 [param1+0], 3;
  .param .b32 retval0;
  call.uni (retval0), clamp_add, (param0, param1);
  ld.param.b32 %r9, [retval0+0];
  })";
  const KernelRun k =
      import_kernel(kernel_calling(kFunctions, calls), launch("1", "32", {"p0=u32[32] zero"}));
  const auto out = values_of<std::uint32_t>(k.run().memory, "p0");
  for (std::uint32_t t = 0; t < 32; ++t) {
    CAPTURE(t);
    CHECK(out[t] == std::min(std::min(2 * t, 40u) + 3, 40u));
  }
}

TEST_CASE("recursion, an undefined function and printf are refused at the call") {
  const std::string call_f = R"(
  {
  .param .b32 param0;
  st.param.b32 [param0+0], %r1;
  .param .b32 retval0;
  call.uni (retval0), f, (param0);
  ld.param.b32 %r9, [retval0+0];
  })";
  SUBCASE("a function that calls itself") {
    const std::string recursive = R"(
.func (.param .b32 func_retval0) f(.param .b32 f_param_0)
{
  .reg .b32 %r<3>;
  ld.param.u32 %r1, [f_param_0];
  {
  .param .b32 param0;
  st.param.b32 [param0+0], %r1;
  .param .b32 retval0;
  call.uni (retval0), f, (param0);
  ld.param.b32 %r2, [retval0+0];
  }
  st.param.b32 [func_retval0+0], %r2;
  ret;
}
)";
    const std::string err = import_error(kernel_calling(recursive, call_f));
    CHECK(err.find("'f' calls itself") != std::string::npos);
    CHECK(err.find("recursion is not imported") != std::string::npos);
  }
  SUBCASE("a function declared but not defined") {
    const std::string declared =
        "\n.extern .func (.param .b32 func_retval0) f(.param .b32 f_param_0);\n";
    const std::string text = kernel_calling(declared, call_f);
    const std::string err = import_error(text);
    CHECK(err.find("a call to the device function 'f' is not imported: the PTX does not define "
                   "it") != std::string::npos);
    CHECK(err.find(call_line(text)) != std::string::npos);
  }
  SUBCASE("printf") {
    const std::string declared =
        "\n.extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param "
        ".b64 vprintf_param_1);\n";
    const std::string call = R"(
  {
  .param .b64 param0;
  st.param.b64 [param0+0], %rd1;
  .param .b64 param1;
  st.param.b64 [param1+0], %rd1;
  .param .b32 retval0;
  call.uni (retval0), vprintf, (param0, param1);
  mov.u32 %r9, 0;
  })";
    const std::string err = import_error(kernel_calling(declared, call));
    CHECK(err.find("printf (a call to vprintf) is not imported") != std::string::npos);
  }
}

}  // namespace
}  // namespace warpsim::test
