// `warpsim check`: the buggy kernels of tests/check/ give the hazards their comments derive, at
// the lines of the instructions involved; the seed kernels give none.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/import/toolkit.hpp"
#include "tests/unit/test_support.hpp"

namespace warpsim::test {
namespace {

std::string check_file(const std::string& name) {
  return (source_dir() / "tests" / "check" / name).string();
}

// The IR line (1-based) of the first line of `file` that contains `text`.
std::string line_of(const std::string& file, const std::string& text) {
  std::ifstream in(file);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find(text) != std::string::npos) return std::to_string(n);
  }
  FAIL("no line holds " << text);
  return "";
}

struct Checked {
  int exit_code = 0;
  nlohmann::json report;
};

Checked check(const std::string& file, std::vector<std::string> extra = {}) {
  const auto json = std::filesystem::temp_directory_path() / "warpsim_check.json";
  std::vector<std::string> args = {"check", file, "--json", json.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  const CommandResult r = run_cli(args);
  INFO(r.err);
  std::ifstream in(json);
  return {r.exit_code, nlohmann::json::parse(in)};
}

// The hazard of that category, kind, scope and element, if found.
const nlohmann::json* find(const nlohmann::json& report, const std::string& category,
                           const std::string& kind, const std::string& scope = "",
                           const std::string& element = "") {
  for (const nlohmann::json& h : report["hazards"]) {
    if (h["category"] != category || h["kind"] != kind) continue;
    if (!scope.empty() && h.value("scope", "") != scope) continue;
    if (!element.empty() && h.value("element", "") != element) continue;
    return &h;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("a reduction without its barrier: the read of another warp's element, at its lines") {
  const std::string file = check_file("sum_reduce_nosync.kir");
  const Checked c = check(file);
  CHECK(c.exit_code == 1);
  const std::string store = line_of(file, "st.shared.f32 staging");
  const std::string load = line_of(file, "ld.shared.f32 staging");
  // Thread 0 reads staging[32] before warp 1 (threads 32-63) stores it.
  const auto* uninit = find(c.report, "init", "uninitialised read", "", "staging[32]");
  REQUIRE(uninit != nullptr);
  CHECK((*uninit)["access"]["line"] == load);
  CHECK((*uninit)["access"]["thread"] == nlohmann::json({0, 0, 0}));
  const auto* war = find(c.report, "race", "WAR", "between warps", "staging[32]");
  REQUIRE(war != nullptr);
  CHECK((*war)["severity"] == "error");
  CHECK((*war)["access"]["line"] == store);
  CHECK((*war)["access"]["thread"] == nlohmann::json({32, 0, 0}));
  CHECK((*war)["earlier"]["line"] == load);
  // Lanes 1-31 of thread 0's own warp: a warning, not an error.
  const auto* lockstep = find(c.report, "race", "RAW", "within a warp", "staging[1]");
  REQUIRE(lockstep != nullptr);
  CHECK((*lockstep)["severity"] == "warning");
  CHECK(c.report["hazards"].size() == 3);
}

TEST_CASE("a transpose without the barrier before the read-back") {
  const std::string file = check_file("transpose_nosync.kir");
  const Checked c = check(file);
  CHECK(c.exit_code == 1);
  const std::string store = line_of(file, "st.shared.f32 tile");
  const std::string load = line_of(file, "ld.shared.f32 tile");
  const auto* war = find(c.report, "race", "WAR", "between warps", "tile[0][1]");
  REQUIRE(war != nullptr);
  CHECK((*war)["access"]["line"] == store);
  CHECK((*war)["access"]["thread"] == nlohmann::json({0, 1, 0}));
  CHECK((*war)["earlier"]["thread"] == nlohmann::json({1, 0, 0}));
  CHECK((*war)["earlier"]["line"] == load);
  const auto* raw = find(c.report, "race", "RAW", "between warps", "tile[1][0]");
  REQUIRE(raw != nullptr);
  CHECK((*raw)["access"]["line"] == load);
  CHECK((*raw)["earlier"]["line"] == store);
  CHECK(find(c.report, "init", "uninitialised read", "", "tile[0][1]") != nullptr);
}

TEST_CASE("a tiled matmul that overwrites a tile other warps still read") {
  const std::string file = check_file("matmul_tile_reuse.kir");
  const Checked c = check(file);
  CHECK(c.exit_code == 1);
  const auto* raw = find(c.report, "race", "RAW", "between warps", "bs[0][0]");
  REQUIRE(raw != nullptr);
  CHECK((*raw)["access"]["line"] == line_of(file, "ld.shared.f32 bs"));
  CHECK((*raw)["earlier"]["line"] == line_of(file, "st.shared.f32 bs"));
  CHECK((*raw)["access"]["warp"] == 1);
  CHECK((*raw)["earlier"]["warp"] == 0);
  CHECK(find(c.report, "race", "WAR", "between warps", "bs[2][0]") != nullptr);
}

TEST_CASE("a global sum without atomics races between blocks") {
  const std::string file = check_file("global_race.kir");
  const Checked c = check(file, {"--check", "race"});
  CHECK(c.exit_code == 1);
  const auto* raw = find(c.report, "race", "RAW", "between blocks", "total[0]");
  REQUIRE(raw != nullptr);
  CHECK((*raw)["access"]["block"] == nlohmann::json({1, 0, 0}));
  CHECK((*raw)["access"]["line"] == line_of(file, "ld.global.f32 total"));
  CHECK((*raw)["earlier"]["line"] == line_of(file, "st.global.f32 total"));
  CHECK(find(c.report, "race", "WAW", "within an instruction", "total[0]") != nullptr);
  // Only the race check ran.
  CHECK(c.report["occurrences"].size() == 1);
}

TEST_CASE("a shuffle naming lanes of the other path, a divergent barrier, uninitialised reads") {
  const std::string shuffle = check_file("partial_shuffle.kir");
  const Checked s = check(shuffle);
  CHECK(s.exit_code == 1);
  const auto* partial = find(s.report, "sync", "partial member mask");
  REQUIRE(partial != nullptr);
  CHECK((*partial)["access"]["line"] == line_of(shuffle, "shfl.sync"));
  CHECK((*partial)["count"] == 16);  // lanes 0-15 execute it
  const std::string barrier = check_file("divergent_barrier.kir");
  const Checked b = check(barrier);
  CHECK(b.exit_code == 1);
  const auto* divergent = find(b.report, "sync", "divergent barrier");
  REQUIRE(divergent != nullptr);
  // The even lanes run first and wait at the first barrier; the odd lanes reach the second.
  const int odd_barrier = std::stoi(line_of(barrier, "flag[%tid.x], 2")) + 1;
  CHECK((*divergent)["access"]["line"] == std::to_string(odd_barrier));
  const std::string shared = check_file("uninit_shared.kir");
  const Checked u = check(shared);
  const auto* halo = find(u.report, "init", "uninitialised read", "", "tile[64]");
  REQUIRE(halo != nullptr);
  CHECK((*halo)["count"] == 1);
  CHECK((*halo)["access"]["thread"] == nlohmann::json({63, 0, 0}));
  const Checked g = check(check_file("uninit_global.kir"));
  const auto* out = find(g.report, "init", "uninitialised read", "", "out[0]");
  REQUIRE(out != nullptr);
  CHECK((*out)["count"] == 64);  // every thread reads its element once
  CHECK(g.report["hazards"].size() == 1);
}

TEST_CASE("warp-synchronous code is reported as a warning about lockstep") {
  const std::string file = check_file("warp_synchronous.kir");
  const Checked c = check(file);
  CHECK(c.exit_code == 1);
  REQUIRE(c.report["hazards"].size() == 1);
  const nlohmann::json& h = c.report["hazards"][0];
  CHECK(h["severity"] == "warning");
  CHECK(h["scope"] == "within a warp");
  CHECK(h["element"] == "partial[16]");
  CHECK(h["count"] == 16);
}

TEST_CASE("the seed kernels are clean under every check") {
  for (const char* name : {"vecAdd.kir", "warp_divergence.kir", "sum_reduce.kir",
                           "example_syncthreads.kir", "clusterHist_kernel.kir", "compute.kir",
                           "saxpy.kir", "testKernel.kir", "cuda_transpose.kir"}) {
    INFO(name);
    const Checked c = check((source_dir() / "kernels_ir" / name).string());
    CHECK(c.exit_code == 0);
    CHECK(c.report["hazards"].empty());
  }
  for (const char* name : {"smem_transpose.kir", "smem_transpose_padded.kir"}) {
    INFO(name);
    const Checked c =
        check((source_dir() / "kernels_ir" / name).string(), {"--grid", "8,8", "--arg", "m=256"});
    CHECK(c.exit_code == 0);
    CHECK(c.report["hazards"].empty());
  }
}

TEST_CASE("run --check adds the report; the checks refuse timing and bad lists") {
  const std::string file = check_file("uninit_shared.kir");
  const CommandResult r = run_cli({"run", file, "--check", "init"});
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("kernel uninit_shared") != std::string::npos);  // the run's report
  CHECK(r.out.find("uninitialised read of shared tile[64]") != std::string::npos);
  CHECK(run_cli({"check", file, "--check", "races"}).exit_code == 2);
  CHECK(run_cli({"check", file, "--mode", "timing"}).exit_code == 2);
  CHECK(run_cli({"run", file, "--check-limit", "3"}).exit_code == 2);
  // An access out of bounds is a memory hazard under the checks (exit 1), a fault without (3).
  const std::string oob = (source_dir() / "tests" / "faults" / "out_of_bounds_store.kir").string();
  const Checked c = check(oob);
  CHECK(c.exit_code == 1);
  REQUIRE(c.report["hazards"].size() == 1);
  CHECK(c.report["hazards"][0]["category"] == "memory");
  CHECK(run_cli({"run", oob}).exit_code == 3);
}

}  // namespace warpsim::test

namespace warpsim::test {

TEST_CASE("step --check shows a hazard as it is found and `hazard` stops after it") {
  const auto script = std::filesystem::temp_directory_path() / "warpsim_check_step.txt";
  std::ofstream(script) << "hazard\nq\n";
  const std::string file = check_file("transpose_nosync.kir");
  const CommandResult r =
      run_cli({"step", file, "--check", "all", "--script", script.string(), "--ascii"});
  CHECK(r.exit_code == 0);
  // Warp 0 is watched: its read of tile[0][1] (written by nobody yet) is the first hazard; the
  // session stops at its next instruction (the address arithmetic after the load) and quits.
  const std::size_t found = r.out.find("hazard found:");
  REQUIRE(found != std::string::npos);
  CHECK(r.out.find("uninitialised read of shared tile[0][1]", found) != std::string::npos);
  CHECK(r.out.find("st.global.f32", found) == std::string::npos);  // stopped before the store
  // Without --check the command says how to start the checks.
  std::ofstream(script) << "hazard\nq\n";
  const CommandResult plain = run_cli({"step", file, "--script", script.string()});
  CHECK(plain.out.find("start step with --check") != std::string::npos);
  CHECK(run_cli({"step", file, "--check", "bogus"}).exit_code == 2);
}

}  // namespace warpsim::test

namespace warpsim::test {

TEST_CASE("a CUDA kernel's hazards name its CUDA lines and their text") {
  if (!toolkit::find_program("nvcc")) {
    MESSAGE("nvcc is not installed: the CUDA kernel is not checked here");
    return;
  }
  const std::string file =
      (source_dir() / "validation" / "h200" / "sanitizers" / "buggy_kernels.cu").string();
  const CommandResult r = run_cli({"check", file, "--kernel", "transpose_nosync", "--grid", "2,2",
                                   "--block", "32,32", "--arg", "m=64", "--arg", "a=f32[4096] iota",
                                   "--arg", "c=f32[4096] zero", "--check", "race"});
  CHECK(r.exit_code == 1);
  // The store to the tile and the read-back, as the CUDA file has them (the same lines
  // compute-sanitizer names: validation/h200/results/sanitizers/).
  CHECK(r.out.find("buggy_kernels.cu:" + line_of(file, "tile[threadIdx.x][threadIdx.y] = a[") +
                   " ") != std::string::npos);
  CHECK(r.out.find("buggy_kernels.cu:" + line_of(file, "c[dst_col * m + dst_row] = tile") + " ") !=
        std::string::npos);
  CHECK(r.out.find("WAR race between warps") != std::string::npos);
}

}  // namespace warpsim::test

namespace warpsim::test {

TEST_CASE("__syncwarp orders a warp's lanes for the checks; without it they warn") {
  namespace fs = std::filesystem;
  if (!toolkit::find_program("nvcc")) {
    MESSAGE("nvcc is not installed: the CUDA kernel is not checked here");
    return;
  }
  // A warp-level tree reduction in shared memory, synchronised with __syncwarp() (PTX
  // bar.warp.sync, the IR's warp.sync): its 32 ones sum to 32. Dropping the __syncwarp after
  // the first store leaves lane i reading partial[i + 16] straight after lane i + 16 stored it.
  const fs::path dir = fs::temp_directory_path() / "warpsim_syncwarp";
  fs::create_directories(dir);
  const std::string body =
      "  __shared__ float partial[32];\n  partial[threadIdx.x] = a[threadIdx.x];\n"
      "SYNC"
      "  for (int offset = 16; offset > 0; offset /= 2) {\n    float v = 0;\n"
      "    if (threadIdx.x < offset) v = partial[threadIdx.x + offset];\n    __syncwarp();\n"
      "    if (threadIdx.x < offset) partial[threadIdx.x] += v;\n    __syncwarp();\n  }\n"
      "  if (threadIdx.x == 0) out[0] = partial[0];\n}\n";
  for (const bool synced : {true, false}) {
    std::string kernel = "__global__ void warp_reduce(const float* a, float* out) {\n" + body;
    kernel.replace(kernel.find("SYNC"), 4, synced ? "  __syncwarp();\n" : "");
    const fs::path file = dir / (synced ? "synced.cu" : "unsynced.cu");
    std::ofstream(file) << kernel;
    std::ofstream(dir / "reduce.launch")
        << "launch warp_reduce grid(1) block(32) {\n  a = f32[32] constant(1.0)\n  out = f32[1] "
           "zero\n}\n";
    const CommandResult r =
        run_cli({"check", file.string(), "--launch-file", (dir / "reduce.launch").string()});
    INFO(r.out << r.err);
    if (synced) {
      CHECK(r.exit_code == 0);
      CHECK(r.out.find("no hazards found") != std::string::npos);
      const auto dump = dir / "out.bin";
      REQUIRE(run_cli({"run", file.string(), "--launch-file", (dir / "reduce.launch").string(),
                       "--dump", "out=" + dump.string()})
                  .exit_code == 0);
      float sum = 0;
      std::ifstream(dump, std::ios::binary).read(reinterpret_cast<char*>(&sum), sizeof sum);
      CHECK(sum == 32.0f);
    } else {
      CHECK(r.exit_code == 1);
      CHECK(r.out.find("warning: RAW race within a warp, shared partial[16]") != std::string::npos);
    }
  }
}

}  // namespace warpsim::test
