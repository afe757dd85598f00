// printf and assert in a CUDA kernel, run on its SASS: ptxas passes vprintf the format and a
// pointer to the arguments it stored in the thread's stack (a generic address in the local
// window), and __assertfail the failed condition.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/unit/run_support.hpp"
#include "tests/unit/sass_support.hpp"
#include "tests/unit/textbook_support.hpp"
#include "tools/warpsim/sass_frontend.hpp"

namespace warpsim::test {
namespace {

std::string path_of(const std::string& name) {
  return (source_dir() / "kernels_cuda" / "sass_only" / name).string();
}

template <typename... T>
std::string c_format(const char* format, T... values) {
  char text[256];
  std::snprintf(text, sizeof text, format, values...);
  return text;
}

// What each thread of printf_threads.cu prints (the kernel's two formats, the C library's
// formatting), and the number of arguments its call passed.
std::string expected_line(int block, int thread, float v, int& arguments) {
  const int i = block * 40 + thread;
  if (i % 3 == 0) {
    arguments = 6;  // blockIdx.x, threadIdx.x, v three times, "three"
    return c_format("[%d,%d] v=%.3f e=%e g=%g %s\n", block, thread, double{v}, double{v}, double{v},
                    "three");
  }
  arguments = 8;  // blockIdx.x, threadIdx.x, i * 7, i, v, the char, i << 33, 0u - i
  return c_format("[%d,%d] %5d|%-4x|%08.2f|%c|%lld|%u|%%\n", block, thread, i * 7, i, double{v},
                  'a' + i % 26, static_cast<long long>(i) << 33, 0u - static_cast<unsigned>(i));
}

TEST_CASE("printf from divergent threads prints every thread's line, in a fixed order") {
  if (!have_nvcc() || !have_sass_tools("printf on the SASS is not run")) return;
  cli::InputOptions input;
  input.launch_file = path_of("printf_threads.launch");
  input.sass_frontend = true;
  const KernelRun k =
      resolved({cli::load_kernel_file(path_of("printf_threads.cu"), input), {}, {}});
  std::string error;
  const auto result = cli::run_on_sass(k.loaded.module, k.spec, "sm_90", {}, error);
  INFO(error);
  REQUIRE(result.has_value());
  // nvcc's format strings are "$str", "$str$1": no IR words, so the IR names them "_str",
  // "_str_1" and keeps the PTX name, by which the GPU's module knows them (validate).
  const ir::ArrayDecl* format = k.loaded.module.find_global("_str");
  REQUIRE(format != nullptr);
  CHECK(format->ptx_name == "$str");
  const auto in = values_of<float>(k.initial, "in");
  const auto out = values_of<std::int32_t>(result->memory, "out");
  std::vector<std::string> want;
  const int n = 100;  // the launch's n: threads 100-119 return before printing
  for (int i = 0; i < n; ++i) {
    int arguments = 0;
    want.push_back(expected_line(i / 40, i % 40, in[static_cast<std::size_t>(i)], arguments));
    CHECK(out[static_cast<std::size_t>(i)] == arguments);
  }
  for (std::size_t i = n; i < out.size(); ++i) CHECK(out[i] == -1);
  std::vector<std::string> got;
  for (const exec::PrintedLine& line : result->stats.printed) got.push_back(line.text);
  // The order is warpsim's (block, warp, call, lane): blocks never go back.
  CHECK(std::is_sorted(
      result->stats.printed.begin(), result->stats.printed.end(),
      [](const exec::PrintedLine& a, const exec::PrintedLine& b) { return a.block < b.block; }));
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  CHECK(got == want);
}

TEST_CASE("printf prints the same in functional and timing runs, on any number of threads") {
  if (!have_nvcc() || !have_sass_tools("printf on the SASS is not run")) return;
  const std::vector<std::string> common = {"run",           path_of("printf_threads.cu"),
                                           "--launch-file", path_of("printf_threads.launch"),
                                           "--frontend",    "sass"};
  auto printed = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = common;
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run_cli(args);
    CHECK(r.exit_code == 0);
    return r.out.substr(0, r.out.find("kernel printf_threads"));  // the report follows
  };
  const std::string functional = printed({});
  CHECK(std::count(functional.begin(), functional.end(), '\n') == 100);
  CHECK(printed({"--mode", "timing", "--threads", "1"}) == functional);
  CHECK(printed({"--mode", "timing", "--threads", "2"}) == functional);
}

TEST_CASE("a failed assert is a fault at the first failing thread, naming the condition") {
  if (!have_nvcc() || !have_sass_tools("assert on the SASS is not run")) return;
  const auto r = run_cli({"run", path_of("assert_below.cu"), "--launch-file",
                          path_of("assert_below.launch"), "--frontend", "sass"});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("assertion `x[i] < limit` failed") != std::string::npos);
  // x = iota, limit 40: thread 40 is the first to fail, block 1's lane 8 (blocks of 32).
  CHECK(r.err.find("block (1, 0, 0), thread (8, 0, 0)") != std::string::npos);
}

TEST_CASE("step steps a kernel the IR does not import on its SASS, unless told the IR") {
  if (!have_nvcc() || !have_sass_tools("printf on the SASS is not run")) return;
  const auto script = std::filesystem::temp_directory_path() / "warpsim_printf_step.txt";
  std::ofstream(script) << "c\n";
  const std::vector<std::string> args = {"step",          path_of("printf_threads.cu"),
                                         "--launch-file", path_of("printf_threads.launch"),
                                         "--script",      script.string()};
  const auto r = run_cli(args);
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("stepping the kernel's SASS") != std::string::npos);
  CHECK(r.out.find("CALL.ABS.NOINC") != std::string::npos);
  std::vector<std::string> on_ir = args;
  on_ir.insert(on_ir.end(), {"--frontend", "ir"});
  const auto refused = run_cli(on_ir);
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("printf (a call to vprintf) is not imported") != std::string::npos);
}

}  // namespace
}  // namespace warpsim::test
