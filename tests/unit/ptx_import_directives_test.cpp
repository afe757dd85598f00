// More of PTX into the IR: the approximate divisions, the kernel directives of
// __launch_bounds__, __maxnreg__ and #pragma unroll 1, and shuffles and votes over a member
// mask; expected values from the PTX ISA's definitions.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>

#include "tests/unit/import_support.hpp"

namespace warpsim::test {
namespace {

TEST_CASE("div.approx and div.full divide to within 2 ulp; div.approx's far range gives 0") {
  // Lane l divides a = l + 1 by b = 3 * 2^(4l - 4), so lanes 0-31 cover 2^-4 to 2^120 and
  // lane 31 2^120 * 3 < 2^126; then lane 31's b is raised to 2^127 * 1.5, in div.approx's far
  // range (2^126, 2^128), where __fdividef is documented to return 0 for a finite a.
  const auto quotients = [](const char* opcode) {
    return run_one_warp(std::string(R"(
  cvt.rn.f32.u32 %f1, %r1;
  add.f32 %f2, %f1, 0f3F800000;
  shl.b32 %r2, %r1, 2;
  sub.s32 %r3, %r2, 4;
  cvt.rn.f32.s32 %f3, %r3;
  ex2.approx.f32 %f4, %f3;
  mul.rn.f32 %f5, %f4, 0f40400000;
  setp.eq.u32 %p1, %r1, 31;
  selp.f32 %f6, 0f7F400000, %f5, %p1;
  )") + opcode + R"( %f7, %f2, %f6;
  mov.b32 %r9, %f7;)");
  };
  const auto fast = quotients("div.approx.f32"), full = quotients("div.full.f32");
  for (unsigned l = 0; l < 31; ++l) {
    CAPTURE(l);
    // 2^(4l-4) is exact in float, so b = 3 * 2^(4l-4) exactly and a / b = (l+1) / 3 / 2^(4l-4).
    const double b = 3.0 * std::exp2(4.0 * l - 4.0);
    const double exact = (l + 1.0) / b;
    const auto correctly_rounded = std::bit_cast<std::uint32_t>(static_cast<float>(exact));
    // div.approx as ptxas lowers it (MUFU.RCP, then FMUL): b's reciprocal rounded to float, times
    // a, rounded again; within 2 ulp of the quotient, as the PTX ISA bounds it.
    const float lowered = static_cast<float>(1.0 / b) * static_cast<float>(l + 1);
    CHECK(fast[l] == std::bit_cast<std::uint32_t>(lowered));
    CHECK(std::abs(static_cast<std::int64_t>(fast[l]) - correctly_rounded) <= 2);
    CHECK(full[l] == correctly_rounded);
  }
  CHECK(fast[31] == 0u);  // +0: a and b are positive
  // div.full is full-range: 32 / (1.5 * 2^127), rounded once.
  CHECK(full[31] == std::bit_cast<std::uint32_t>(static_cast<float>(32.0 / (1.5 * 0x1p127))));
}

TEST_CASE("__launch_bounds__, __maxnreg__ and #pragma unroll 1 become IR attributes") {
  const std::string text = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry bounded(.param .u64 bounded_out)
.maxntid 128, 2, 1
.minnctapersm 3
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  mov.u32 %r1, 0;
$L__BB0_1:
  .pragma "nounroll";
  add.s32 %r1, %r1, 1;
  setp.lt.u32 %p1, %r1, 4;
  @%p1 bra $L__BB0_1;
  ret;
}
.visible .entry capped(.param .u64 capped_out)
.maxnreg 40
{
  ret;
}
)";
  const ptx::ImportResult r = import_text(text);
  REQUIRE(r.module.has_value());
  const ir::Kernel* bounded = r.module->find_kernel("bounded");
  const ir::Kernel* capped = r.module->find_kernel("capped");
  REQUIRE(bounded != nullptr);
  REQUIRE(capped != nullptr);
  // .maxntid 128, 2, 1: at most 256 threads a block.
  REQUIRE(bounded->launch_bounds.has_value());
  CHECK(bounded->launch_bounds->max_threads == 256);
  CHECK(bounded->launch_bounds->min_blocks == 3);
  CHECK(capped->max_regs == std::optional<std::uint32_t>{40});
  std::size_t marked = 0;
  for (const ir::BasicBlock& b : bounded->blocks) marked += b.no_unroll ? 1 : 0;
  CHECK(marked == 1);
  // The attributes print, read back and lower to the directives they came from.
  const std::string ir_text = ir::to_string(*r.module);
  CHECK(ir_text.find("launch_bounds(256, 3)") != std::string::npos);
  CHECK(ir_text.find("max_regs(40)") != std::string::npos);
  const auto again = ir::load_module_text("again", ir_text);
  CHECK_FALSE(again.diags.has_errors());
  CHECK(again.module == *r.module);
  // A launch of more threads than the bound is refused, as CUDA refuses it.
  ptx::ImportOptions only_bounded;
  only_bounded.kernel = "bounded";
  const ptx::ImportResult imported = import_text(text, only_bounded);
  REQUIRE(imported.module.has_value());
  std::ostringstream err;
  const cli::LaunchOverrides o = launch("1", "512", {"p0=0"});
  const auto loaded = ir::load_module_text("test", ir::to_string(*imported.module));
  CHECK_FALSE(cli::resolve_launch(loaded, o, err).has_value());
  INFO(err.str());
  CHECK(err.str().find("allows (launch_bounds(256))") != std::string::npos);
}

TEST_CASE("a kernel directive the IR does not model is a located error") {
  const std::string text = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k3(.param .u64 k3_out)
.reqntid 64, 1, 1
{
  ret;
}
)";
  const std::string err = import_error(text);
  CHECK(err.find("input.ptx:5:") != std::string::npos);
  CHECK(err.find("'.reqntid' is not imported") != std::string::npos);
}

TEST_CASE("a table of function pointers and a call prototype are located errors, not guesses") {
  // A __device__ array of function addresses: its initial values are symbols, not numbers.
  const std::string table = R"(.version 8.0
.target sm_90
.address_size 64
.func (.param .b32 r) twice(.param .b32 v) { ret; }
.global .align 8 .u64 ops[1] = {twice};
.visible .entry k(.param .u64 k_out)
{
  ret;
}
)";
  const std::string table_err = import_error(table);
  CHECK(table_err.find("input.ptx:5:") != std::string::npos);
  CHECK(table_err.find("an address as an initial value ('twice'") != std::string::npos);
  // A call through a pointer declares its prototype inside the body: the body is not imported
  // (the SASS frontend runs such a kernel; sass_only_kernels_test).
  const std::string prototype = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 k_out)
{
  proto_0 : .callprototype (.param .b32 _) _ (.param .b32 _);
  ret;
}
)";
  const std::string prototype_err = import_error(prototype);
  CHECK(prototype_err.find("input.ptx:6:") != std::string::npos);
  CHECK(prototype_err.find("'.callprototype' inside a kernel is not imported") !=
        std::string::npos);
}

TEST_CASE("__cluster_dims__ becomes cluster_dims, and a launch of another cluster is refused") {
  const std::string text = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k3(.param .u64 k3_out)
.explicitcluster
.reqnctapercluster 2, 1, 1
{
  ret;
}
)";
  const ptx::ImportResult r = import_text(text);
  REQUIRE(r.module.has_value());
  const ir::Kernel& k = r.module->kernels.at(0);
  CHECK(k.cluster_dims == std::optional<ir::Dim3>{ir::Dim3{2, 1, 1}});
  const auto loaded = ir::load_module_text("test", ir::to_string(*r.module));
  REQUIRE(loaded.ok());
  std::ostringstream err;
  CHECK_FALSE(cli::resolve_launch(loaded, launch("4", "32", {"p0=0"}), err).has_value());
  CHECK(err.str().find("has cluster_dims(2, 1, 1): launch it with cluster(2, 1, 1)") !=
        std::string::npos);
  cli::LaunchOverrides with_cluster = launch("4", "32", {"p0=0"});
  with_cluster.cluster = "2";
  std::ostringstream none;
  CHECK(cli::resolve_launch(loaded, with_cluster, none).has_value());
}

// Lanes below 16 run `body` (which sets %r9); the others skip it and store 0.
std::string low_half_body(const std::string& body) {
  return R"(
  mov.u32 %r9, 0;
  setp.ge.u32 %p2, %r1, 16;
  @%p2 bra $L__done;
)" + body +
         R"(
$L__done:)";
}

std::vector<std::uint32_t> run_low_half(const std::string& body) {
  return run_one_warp(low_half_body(body));
}

TEST_CASE("a vote and a shuffle over a member mask: the vote counts the members only") {
  // Lanes 0-15 vote with members 0x0000ffff on "lane is odd": the ballot is the odd lanes
  // below 16, 0xaaaa; lanes 16-31 never vote (they skip the branch).
  const auto ballot = run_low_half(R"(
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 1;
  vote.sync.ballot.b32 %r9, %p1, 65535;)");
  for (unsigned l = 0; l < 16; ++l) CHECK(ballot[l] == 0xaaaau);
  for (unsigned l = 16; l < 32; ++l) CHECK(ballot[l] == 0u);
  // The members given in a register: a mask of lanes 0-7 only, voted on by lanes 0-7 (all
  // with %r1 < 8, so vote.all over the members is true).
  const auto all = run_one_warp(R"(
  mov.u32 %r9, 7;
  setp.ge.u32 %p2, %r1, 8;
  @%p2 bra $L__done;
  mov.u32 %r3, 255;
  setp.lt.u32 %p1, %r1, 8;
  vote.sync.all.pred %p3, %p1, %r3;
  selp.u32 %r9, 1, 0, %p3;
$L__done:)");
  for (unsigned l = 0; l < 8; ++l) CHECK(all[l] == 1u);
  for (unsigned l = 8; l < 32; ++l) CHECK(all[l] == 7u);
  // __shfl_down_sync(0xffff, lane * 3, 1) in the low half: lane l reads lane l + 1's value.
  const auto down = run_low_half(R"(
  mul.lo.s32 %r2, %r1, 3;
  shfl.sync.down.b32 %r9, %r2, 1, 31, 65535;)");
  for (unsigned l = 0; l < 15; ++l) CHECK(down[l] == 3 * (l + 1));
}

TEST_CASE("match.any gives each lane the members holding its value") {
  // Lane l holds l % 4: the lanes with l % 4 == r are 0x11111111 << r.
  const auto whole = run_one_warp(R"(
  and.b32 %r2, %r1, 3;
  match.any.sync.b32 %r9, %r2, -1;)");
  for (unsigned l = 0; l < 32; ++l) CHECK(whole[l] == 0x11111111u << (l % 4));
  // Among the members 0-15 only (lanes 16-31 skip it): 0x1111 << r.
  const auto low = run_low_half(R"(
  and.b32 %r2, %r1, 3;
  match.any.sync.b32 %r9, %r2, 65535;)");
  for (unsigned l = 0; l < 16; ++l) CHECK(low[l] == 0x1111u << (l % 4));
  // 64-bit values: lanes 0-7 hold 2^40 + 1, the rest 1: only the high bit tells them apart.
  const auto wide = run_one_warp(R"(
  setp.lt.u32 %p1, %r1, 8;
  selp.u64 %rd5, 1099511627777, 1, %p1;
  match.any.sync.b64 %r9, %rd5, -1;)");
  for (unsigned l = 0; l < 32; ++l) CHECK(wide[l] == (l < 8 ? 0xffu : 0xffffff00u));
}

TEST_CASE("match.all gives the members where all hold one value, and says whether they do") {
  // Lane l holds l / 32 (0 in every lane): d the whole warp and p true, read as d + 7 (p selects
  // 7): 0xffffffff + 7 wraps to 6.
  const auto same = run_one_warp(R"(
  shr.u32 %r2, %r1, 5;
  match.all.sync.b32 %r3|%p1, %r2, -1;
  selp.u32 %r4, 7, 0, %p1;
  add.s32 %r9, %r3, %r4;)");
  for (unsigned l = 0; l < 32; ++l) CHECK(same[l] == 6u);
  // Lane l holds l % 2: not all one value: d = 0 and p false, so d + 0.
  const auto differ = run_one_warp(R"(
  and.b32 %r2, %r1, 1;
  match.all.sync.b32 %r3|%p1, %r2, -1;
  selp.u32 %r4, 7, 0, %p1;
  add.s32 %r9, %r3, %r4;)");
  for (unsigned l = 0; l < 32; ++l) CHECK(differ[l] == 0u);
  // Members 0-15 only, lanes 16-31 skipping it: lane l holds l / 16, 0 among them: 0xffff.
  const auto low = run_low_half(R"(
  shr.u32 %r2, %r1, 4;
  match.all.sync.b32 %r9, %r2, 65535;)");
  for (unsigned l = 0; l < 16; ++l) CHECK(low[l] == 0xffffu);
}

TEST_CASE("activemask is the lanes executing it") {
  const auto mask = run_low_half("  activemask.b32 %r9;");
  for (unsigned l = 0; l < 16; ++l) CHECK(mask[l] == 0xffffu);
}

TEST_CASE("a member mask naming an inactive lane, or not the lane itself, is a fault") {
  struct Case {
    const char* body;
    const char* says;
  };
  // The low half runs each: 0x1ffff names lane 16, which took the branch around; 0xff00 does
  // not name lanes 0-7, which execute the vote.
  const Case cases[] = {
      {"  setp.eq.u32 %p1, %r1, 0;\n  vote.sync.ballot.b32 %r9, %p1, 131071;",
       "names lanes not active here (0x00010000"},
      {"  shfl.sync.idx.b32 %r9, %r1, 0, 31, 65280;", "lane 0 is not in its own member mask"},
  };
  for (const Case& c : cases) {
    CAPTURE(std::string(c.body));
    const KernelRun k = import_kernel(one_warp_kernel(low_half_body(c.body)),
                                      launch("1", "32", {"p0=u32[32] zero"}));
    try {
      (void)k.run();
      FAIL("the run did not fault");
    } catch (const exec::KernelFault& f) {
      CHECK(std::string(f.what()).find(c.says) != std::string::npos);
    }
  }
}

}  // namespace
}  // namespace warpsim::test
