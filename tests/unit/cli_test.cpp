// The warpsim command line: exit codes and the output of the ir commands.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include "sim/import/kernel_signature.hpp"
#include "tests/unit/sass_support.hpp"
#include "tests/unit/test_support.hpp"
#include "tests/unit/textbook_support.hpp"

namespace warpsim::test {
namespace {

std::string kernel_path(const char* name) {
  return (source_dir() / "kernels_ir" / name).string();
}

TEST_CASE("run's frontend is the SASS by default where the tools are, and it says which") {
  const std::string vec = kernel_path("vecAdd.kir");
  const auto by_default = run_cli({"run", vec, "--grid", "4", "--json", "-"});
  REQUIRE(by_default.exit_code == 0);
  const bool tools = have_sass_tools("only the IR side of the default is checked");
  CHECK(by_default.err.find(tools ? "--frontend auto: sass" : "--frontend auto: ir") !=
        std::string::npos);
  CHECK(nlohmann::json::parse(by_default.out)["frontend"] == (tools ? "sass" : "ir"));
  // The checks exist on the IR only: auto picks it and says why.
  const auto checked = run_cli({"run", vec, "--grid", "4", "--check", "race"});
  CHECK(checked.exit_code == 0);
  CHECK(checked.err.find("--frontend auto: ir (the checks run on the IR)") != std::string::npos);
  // The executor's opcode rules were checked on sm_90: an sm_86 config runs the IR.
  const auto ampere = run_cli({"run", vec, "--grid", "4", "--config", "rtx3090"});
  CHECK(ampere.exit_code == 0);
  if (tools) CHECK(ampere.err.find("the config is sm_86") != std::string::npos);
  const auto explicit_ir = run_cli({"run", vec, "--grid", "4", "--frontend", "ir"});
  CHECK(explicit_ir.err.find("--frontend auto") == std::string::npos);
  CHECK(run_cli({"run", vec, "--frontend", "ptx"}).exit_code == 2);
}

TEST_CASE("no arguments prints usage and exits 2") {
  const auto r = run_cli({});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("usage: warpsim") != std::string::npos);
}

TEST_CASE("--help exits 0 with usage on stdout") {
  const auto r = run_cli({"--help"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("ir check") != std::string::npos);
}

TEST_CASE("an unknown command or option is bad input") {
  CHECK(run_cli({"frobnicate"}).exit_code == 2);
  CHECK(run_cli({"ir", "frobnicate"}).exit_code == 2);
  CHECK(run_cli({"ir"}).exit_code == 2);
  const auto r = run_cli({"ir", "check", "--no-such-flag", kernel_path("vecAdd.kir")});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("no-such-flag") != std::string::npos);
}

TEST_CASE("each subcommand answers --help") {
  for (const char* sub : {"check", "print", "cfg"}) {
    const auto r = run_cli({"ir", sub, "--help"});
    CAPTURE(sub);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("usage: warpsim ir") != std::string::npos);
  }
}

TEST_CASE("ir check reports each good file and fails if any file is bad") {
  const auto good = run_cli({"ir", "check", kernel_path("vecAdd.kir"), kernel_path("saxpy.kir")});
  CHECK(good.exit_code == 0);
  CHECK(good.out.find("vecAdd.kir: ok (1 kernel, 1 launch, 0 warnings)") != std::string::npos);
  const auto mixed = run_cli({"ir", "check", kernel_path("vecAdd.kir"),
                              (source_dir() / "tests/ir_invalid/unknown_opcode.kir").string()});
  CHECK(mixed.exit_code == 2);
  CHECK(mixed.out.find("vecAdd.kir: ok") != std::string::npos);
}

TEST_CASE("ir print takes exactly one file") {
  CHECK(run_cli({"ir", "print"}).exit_code == 2);
  CHECK(run_cli({"ir", "print", kernel_path("vecAdd.kir"), kernel_path("saxpy.kir")}).exit_code ==
        2);
  const auto r = run_cli({"ir", "print", kernel_path("compute.kir")});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("const coeffs: f32[4] = {1.0, 2.0, 3.0, 4.0}") != std::string::npos);
}

TEST_CASE("ir print --unroll shows the kernel as the timing model runs it") {
  const auto r = run_cli({"ir", "print", "--unroll", "4", kernel_path("sum_reduce.kir")});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("# sum_reduce: 1 loop unrolled 4x") != std::string::npos);
  CHECK(r.out.find("loop_body_unrolled:") != std::string::npos);
  // What is printed parses and verifies.
  const auto path = std::filesystem::temp_directory_path() / "warpsim_unrolled.kir";
  std::ofstream(path) << r.out;
  CHECK(run_cli({"ir", "check", path.string()}).exit_code == 0);
  std::filesystem::remove(path);
  CHECK(run_cli({"ir", "print", "--unroll", "x", kernel_path("sum_reduce.kir")}).exit_code == 2);
}

TEST_CASE("ir cfg names the reconvergence point of the transpose's bounds check") {
  // smem_transpose: the bounds check in `entry` skips `stage`; both paths meet at `sync`, which
  // holds the bar.sync. The check depends on %tid, so it may diverge.
  const auto r = run_cli({"ir", "cfg", kernel_path("smem_transpose.kir")});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("entry (line ") != std::string::npos);
  CHECK(r.out.find("reconverges at sync (condition varies between threads") != std::string::npos);
}

TEST_CASE("ir cfg --dot draws edges and dashed reconvergence edges") {
  const auto r = run_cli({"ir", "cfg", "--dot", kernel_path("warp_divergence.kir")});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("digraph \"warp_divergence\"") != std::string::npos);
  // entry is b0, join is b3: the branch reconverges at the join.
  CHECK(r.out.find("b0 -> b3 [style=dashed") != std::string::npos);
}

TEST_CASE("run without a file runs the built-in vecAdd with the seed's sizes") {
  const auto r = run_cli({"run"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("kernel vecAdd (vecAdd.kir (embedded)") != std::string::npos);
  CHECK(r.out.find("blocks 3,907") != std::string::npos);
}

TEST_CASE("run rejects bad launch overrides with exit 2") {
  const std::string vec = kernel_path("vecAdd.kir");
  CHECK(run_cli({"run", vec, "--block", "2048"}).exit_code == 2);
  CHECK(run_cli({"run", vec, "--grid", "0"}).exit_code == 2);
  CHECK(run_cli({"run", vec, "--grid", "abc"}).exit_code == 2);
  CHECK(run_cli({"run", vec, "--arg", "nosuch=1"}).exit_code == 2);
  CHECK(run_cli({"run", vec, "--arg", "vectorLength=1.5"}).exit_code == 2);
  CHECK(run_cli({"run", vec, "--launch", "nosuch"}).exit_code == 2);
  CHECK(run_cli({"run", vec, "--block-order", "sideways"}).exit_code == 2);
  CHECK(run_cli({"run", vec, "--mode", "cycle"}).exit_code == 2);
  CHECK(run_cli({"run", vec, "--timeline", "/tmp/x.svg"}).exit_code == 2);  // needs timing
  CHECK(run_cli({"run", vec, "--mode", "timing", "--timeline-sm", "132"}).exit_code == 2);
  CHECK(run_cli({"run", vec, "--mode", "timing", "--threads", "-1"}).exit_code == 2);
  CHECK(run_cli({"run", vec, "--dump", "nosuch=/tmp/x"}).exit_code == 2);
  CHECK(run_cli({"run", vec, "--cache-control", "all"}).exit_code == 2);  // needs timing
  const auto cache = run_cli({"run", vec, "--mode", "timing", "--cache-control", "some"});
  CHECK(cache.exit_code == 2);
  CHECK(cache.err.find("--cache-control must be all or none, not 'some'") != std::string::npos);
}

TEST_CASE("validate rejects an unknown replay mode before it looks for a GPU") {
  const auto r = run_cli({"validate", kernel_path("vecAdd.kir"), "--replay", "twice"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--replay must be application or kernel, not 'twice'") != std::string::npos);
  // CUPTI's own copies between kernel-replay passes would refill the flushed L2.
  const auto flushed = run_cli(
      {"validate", kernel_path("vecAdd.kir"), "--replay", "kernel", "--cache-control", "all"});
  CHECK(flushed.exit_code == 2);
  CHECK(flushed.err.find("--cache-control all needs --replay application") != std::string::npos);
}

TEST_CASE("run --mode timing reports cycles and warp states, and draws a timeline") {
  const auto dir = std::filesystem::temp_directory_path();
  const auto json = dir / "warpsim_timing.json";
  const auto svg = dir / "warpsim_timeline.svg";
  const auto html = dir / "warpsim_timeline.html";
  const std::string file = kernel_path("warp_divergence.kir");
  const auto r = run_cli({"run", file, "--mode", "timing", "--json", json.string(), "--timeline",
                          svg.string(), "--threads", "1"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("gpc__cycles_elapsed.max") != std::string::npos);
  CHECK(r.out.find("warp states") != std::string::npos);
  std::ifstream in(json);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text.find("\"mode\": \"timing\"") != std::string::npos);
  CHECK(text.find("\"sm__warps_active.avg.pct_of_peak_sustained_active\"") != std::string::npos);
  CHECK(text.find("\"long_scoreboard\"") != std::string::npos);
  std::ifstream picture(svg);
  const std::string drawn((std::istreambuf_iterator<char>(picture)),
                          std::istreambuf_iterator<char>());
  // One warp on SM 0: its row and at least one state span.
  CHECK(drawn.rfind("<svg", 0) == 0);
  CHECK(drawn.find("warp 0") != std::string::npos);
  CHECK(drawn.find("<rect") != std::string::npos);
  REQUIRE(run_cli({"run", file, "--mode", "timing", "--timeline", html.string()}).exit_code == 0);
  std::ifstream page(html);
  std::string first;
  std::getline(page, first);
  CHECK(first == "<!DOCTYPE html>");
  // The functional report does not take timing options; bench checks its mode and threads.
  CHECK(run_cli({"bench", "--mode", "cycles"}).exit_code == 2);
  CHECK(run_cli({"bench", "--mode", "timing", "--threads", "-2"}).exit_code == 2);
  // The seed's RTX 3090 table gives no L2 size: the timing model says so instead of guessing.
  const auto no_l2 = run_cli({"run", file, "--mode", "timing", "--config", "rtx3090"});
  CHECK(no_l2.exit_code == 2);
  CHECK(no_l2.err.find("gpu.l2_bytes") != std::string::npos);
}

TEST_CASE("run --dump writes a buffer's final bytes") {
  const auto path = std::filesystem::temp_directory_path() / "warpsim_compute_out.bin";
  const auto r = run_cli({"run", kernel_path("compute.kir"), "--dump", "out=" + path.string()});
  REQUIRE(r.exit_code == 0);
  // 10 floats: out[i] = 1 * i + 2.
  CHECK(std::filesystem::file_size(path) == 40);
  std::ifstream in(path, std::ios::binary);
  float v[10];
  in.read(reinterpret_cast<char*>(v), sizeof v);
  CHECK(v[0] == 2.0f);
  CHECK(v[9] == 11.0f);
}

TEST_CASE("ir cfg --kernel rejects a kernel the file does not have") {
  CHECK(run_cli({"ir", "cfg", "--kernel", "nope", kernel_path("vecAdd.kir")}).exit_code == 2);
}

TEST_CASE("a C++ kernel name as written names the demangled one, literal suffixes aside") {
  CHECK(ptx::same_cpp_name("reduce6<256>", "reduce6<256u>"));
  CHECK(ptx::same_cpp_name("scan<float, 128>", "scan<float, 128ul>"));
  CHECK(ptx::same_cpp_name("f2u<7>", "f2u<7>"));
  CHECK_FALSE(ptx::same_cpp_name("reduce6<128>", "reduce6<256u>"));
  CHECK_FALSE(ptx::same_cpp_name("f2<7>", "f2u<7>"));  // the u of an identifier stays
}

TEST_CASE("a launch file names a templated CUDA kernel by its C++ name, quoted") {
  if (!have_nvcc()) return;
  const auto path = std::filesystem::temp_directory_path() / "warpsim_reduce6.launch";
  std::ofstream(path) << "launch \"reduce6<256>\" grid(4) block(256) dynamic_smem(1024) {\n"
                         "  g_idata = f32[4096] random(seed = 8)\n  g_odata = f32[4] zero\n"
                         "  n = 4096\n}\n";
  const auto r =
      run_cli({"run", (source_dir() / "kernels_cuda/heldout2/reduce6_template.cu").string(),
               "--launch-file", path.string()});
  CHECK(r.exit_code == 0);
  // The launch takes the kernel's IR name (the mangled entry's, reduce6<256u>).
  CHECK(r.out.find("launch reduce6_256u_") != std::string::npos);
  // A name the file lacks: exit 2, the file's kernels listed by both names.
  std::ofstream(path) << "launch \"reduce7<256>\" grid(4) block(256) {\n  n = 1\n}\n";
  const auto wrong =
      run_cli({"run", (source_dir() / "kernels_cuda/heldout2/reduce6_template.cu").string(),
               "--launch-file", path.string()});
  CHECK(wrong.exit_code == 2);
  CHECK(wrong.err.find("\"reduce6<256u>\" (reduce6_256u_)") != std::string::npos);
}

TEST_CASE("a .cu file's kernel the IR cannot import stops only the runs of that kernel") {
  if (!have_nvcc()) return;
  const auto dir = std::filesystem::temp_directory_path() / "warpsim_two_kernels";
  std::filesystem::create_directories(dir);
  const std::string cu = (dir / "two.cu").string(), launches = (dir / "two.launch").string();
  // talk's printf is a call the IR does not import; twice is plain arithmetic.
  std::ofstream(cu) << "#include <cstdio>\n"
                       "__global__ void talk(int* out) { printf(\"%d\\n\", out[0]); }\n"
                       "__global__ void twice(int* out) { out[threadIdx.x] = 2 * threadIdx.x; }\n";
  std::ofstream(launches) << "launch talk grid(1) block(32) {\n  out = s32[32] zero\n}\n"
                             "launch twice grid(1) block(32) {\n  out = s32[32] zero\n}\n";
  const auto other =
      run_cli({"run", cu, "--launch-file", launches, "--frontend", "ir", "--launch", "twice"});
  CHECK(other.exit_code == 0);
  const auto refused =
      run_cli({"run", cu, "--launch-file", launches, "--frontend", "ir", "--launch", "talk"});
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("does not import the body of kernel talk") != std::string::npos);
  CHECK(refused.err.find("printf") != std::string::npos);  // the import's reason
  // --kernel imports one kernel; the launch file's launches of the others are passed over.
  const auto chosen =
      run_cli({"run", cu, "--launch-file", launches, "--frontend", "ir", "--kernel", "twice"});
  CHECK(chosen.exit_code == 0);
  CHECK(chosen.out.find("launch twice") != std::string::npos);
}

TEST_CASE("a launch file fills a .cu file's __constant__ and __device__ arrays") {
  if (!have_nvcc()) return;
  const auto dir = std::filesystem::temp_directory_path() / "warpsim_module_values";
  std::filesystem::create_directories(dir);
  const std::string cu = (dir / "taps.cu").string(), launches = (dir / "taps.launch").string();
  // y[i] = offset + sum over k < 4 of taps[k] * x[i + k], the taps and the offset as a host
  // program would copy them in with cudaMemcpyToSymbol.
  std::ofstream(cu) << "__constant__ int taps[4];\n__device__ int offset[1];\n"
                       "__global__ void fir(const int* x, int* y) {\n"
                       "  int s = offset[0];\n"
                       "  for (int k = 0; k < 4; ++k) s += taps[k] * x[threadIdx.x + k];\n"
                       "  y[threadIdx.x] = s;\n}\n";
  auto write_launch = [&](const std::string& taps) {
    std::ofstream(launches) << "launch fir grid(1) block(32) {\n  x = s32[36] iota\n"
                               "  y = s32[32] zero\n  taps = "
                            << taps << "\n  offset = s32[1] constant(1000)\n}\n";
  };
  write_launch("s32[4] iota");
  const auto dump = (dir / "y.bin").string();
  for (const char* frontend : {"ir", "sass"}) {
    if (std::string(frontend) == "sass" && !have_sass_tools("the SASS run is not checked")) break;
    CAPTURE(frontend);
    const auto r = run_cli(
        {"run", cu, "--launch-file", launches, "--frontend", frontend, "--dump", "y=" + dump});
    REQUIRE(r.exit_code == 0);
    std::ifstream in(dump, std::ios::binary);
    std::vector<std::int32_t> y(32);
    in.read(reinterpret_cast<char*>(y.data()), 32 * 4);
    // taps = 0, 1, 2, 3 and x[j] = j: y[i] = 1000 + (i + 1) + 2 (i + 2) + 3 (i + 3) = 1014 + 6 i.
    for (int i = 0; i < 32; ++i) CHECK(y[static_cast<std::size_t>(i)] == 1014 + 6 * i);
  }
  write_launch("s32[5] iota");  // one element more than taps holds
  const auto too_big = run_cli({"run", cu, "--launch-file", launches, "--frontend", "ir"});
  CHECK(too_big.exit_code == 2);
  CHECK(too_big.err.find("'taps' holds 16 bytes; the value gives 20") != std::string::npos);
}

TEST_CASE("a launch's buffer can start as an earlier launch left one of its buffers") {
  // `doubles` writes 2 i into out; `plus_one` starts with data = that and writes data + 1, so its
  // out holds 2 i + 1. A launch naming itself (or one after it) is an error at the argument.
  const std::string kernels = R"(
kernel scale(out: ptr global u32, k: u32) {
entry:
  %i = mad.u32 %ctaid.x, %ntid.x, %tid.x
  %v = mul.u32 %i, k
  st.global.u32 out[%i], %v
  ret
}
kernel add_one(data: ptr global u32, out: ptr global u32) {
entry:
  %i = mad.u32 %ctaid.x, %ntid.x, %tid.x
  %v = ld.global.u32 data[%i]
  %w = add.u32 %v, 1
  st.global.u32 out[%i], %w
  ret
}
launch scale as doubles grid(2) block(32) {
  out = u32[64] zero
  k = 2
}
)";
  const auto dir = std::filesystem::temp_directory_path();
  const auto path = dir / "warpsim_sequence.kir", dumped = dir / "warpsim_sequence_out.bin";
  std::ofstream(path) << kernels
                      << "launch add_one as plus_one grid(2) block(32) {\n"
                         "  data = u32[64] result(doubles, out)\n  out = u32[64] zero\n}\n";
  const auto r =
      run_cli({"run", path.string(), "--launch", "plus_one", "--dump", "out=" + dumped.string()});
  REQUIRE(r.exit_code == 0);
  std::ifstream in(dumped, std::ios::binary);
  std::vector<std::uint32_t> out(64);
  in.read(reinterpret_cast<char*>(out.data()), 64 * 4);
  for (std::uint32_t i = 0; i < 64; ++i) CHECK(out[i] == 2 * i + 1);
  std::ofstream(path) << kernels
                      << "launch add_one as plus_one grid(2) block(32) {\n"
                         "  data = u32[64] result(plus_one, out)\n  out = u32[64] zero\n}\n";
  const auto itself = run_cli({"run", path.string(), "--launch", "plus_one"});
  CHECK(itself.exit_code == 2);
  CHECK(itself.err.find("no launch block named 'plus_one' before launch 'plus_one'") !=
        std::string::npos);
  std::ofstream(path) << kernels
                      << "launch add_one as plus_one grid(2) block(32) {\n"
                         "  data = u32[32] result(doubles, out)\n  out = u32[64] zero\n}\n";
  const auto smaller = run_cli({"run", path.string(), "--launch", "plus_one"});
  CHECK(smaller.exit_code == 2);
  CHECK(smaller.err.find("result(doubles, out) is u32[64], not u32[32]") != std::string::npos);
  // An earlier launch that faults (96 threads store into 64 elements): the fault, located.
  std::ofstream(path) << kernels
                      << "launch scale as too_far grid(3) block(32) {\n  out = u32[64] zero\n"
                         "  k = 2\n}\nlaunch add_one as plus_one grid(2) block(32) {\n"
                         "  data = u32[64] result(too_far, out)\n  out = u32[64] zero\n}\n";
  const auto faulting = run_cli({"run", path.string(), "--launch", "plus_one"});
  CHECK(faulting.exit_code == 2);
  CHECK(faulting.err.find("launch 'too_far', whose buffer 'out' launch 'plus_one' starts from, "
                          "faults") != std::string::npos);
  CHECK(faulting.err.find("outside the bounds of 'out'") != std::string::npos);
}

}  // namespace
}  // namespace warpsim::test
