// The warpsim command line: exit codes and the output of the ir commands.
#include <doctest/doctest.h>

#include "tests/unit/test_support.hpp"

namespace warpsim::test {
namespace {

std::string kernel_path(const char* name) {
  return (source_dir() / "kernels_ir" / name).string();
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

TEST_CASE("ir cfg --kernel rejects a kernel the file does not have") {
  CHECK(run_cli({"ir", "cfg", "--kernel", "nope", kernel_path("vecAdd.kir")}).exit_code == 2);
}

}  // namespace
}  // namespace warpsim::test
