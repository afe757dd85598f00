// The SASS run's exact counters against a GPU's: validation/h200/results/h100_2026_12_05b/
// validate.csv holds `warpsim validate --frontend sass` of three kernels whose SASS has forms the
// fitted launches never ran (an asynchronous copy's LDGSTS/LDGDEPBAR/DEPBAR, a divergent BRX, an
// exclusive WARPSYNC), on an H100: sm_90, the instruction set and counters of the H200; and
// results/sass_only/ the kernels the IR does not import, on an H200. Every row the table
// compares exactly must equal the measured column, as the GPU counted it.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "tests/unit/run_support.hpp"
#include "tests/unit/sass_support.hpp"
#include "tests/unit/test_support.hpp"
#include "tests/unit/textbook_support.hpp"

namespace warpsim::test {
namespace {

// kernel -> metric -> the measured value, for the rows the comparison called exact or mismatched
// (the counters compared exactly; buffers and timing rows have other verdicts).
std::map<std::string, std::map<std::string, std::uint64_t>> measured_exact_rows(
    const std::string& folder, const std::string& csv = "validate.csv") {
  std::ifstream in(source_dir() / "validation/h200/results" / folder / csv);
  REQUIRE(in);
  std::map<std::string, std::map<std::string, std::uint64_t>> rows;
  for (std::string line; std::getline(in, line);) {
    const auto f = csv_fields(line);
    if (f.size() != 6 || (f[5] != "exact" && f[5] != "MISMATCH")) continue;
    if (!f[2].starts_with("smsp__") && !f[2].starts_with("l1tex__t_")) continue;
    rows[f[0]][f[2]] = std::stoull(f[4]);
  }
  return rows;
}

// Runs each measured kernel of kernels_cuda/FOLDER (less `skip`) on its SASS and checks every
// measured row; the number of rows compared.
// The instructions of `warpsim sass FILE`'s listing, each with its spaces collapsed.
std::vector<std::string> sass_listing(const std::string& file) {
  const CommandResult r = run_cli({"sass", file});
  REQUIRE(r.exit_code == 0);
  std::vector<std::string> lines;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string word, collapsed;
    if (!(words >> word) || word.size() != 5 ||
        word.find_first_not_of("0123456789abcdef") != std::string::npos)
      continue;
    collapsed = word;
    while (words >> word) collapsed += " " + word;
    lines.push_back(collapsed);
  }
  return lines;
}

// A results folder's sass_listings.txt (`=== KERNEL` and its listing lines, as sass_listing
// reads them, on the GPU machine), by kernel.
std::map<std::string, std::vector<std::string>> recorded_listings(const std::string& folder) {
  std::ifstream in(source_dir() / "validation/h200/results" / folder / "sass_listings.txt");
  REQUIRE(in);
  std::map<std::string, std::vector<std::string>> listings;
  std::vector<std::string>* current = nullptr;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("=== ")) {
      current = &listings[line.substr(4)];
      continue;
    }
    std::istringstream words(line);
    std::string word, collapsed;
    while (words >> word) collapsed += (collapsed.empty() ? "" : " ") + word;
    if (current != nullptr && !collapsed.empty()) current->push_back(collapsed);
  }
  return listings;
}

// Each measured row of one kernel against the run's `metrics` (its --json); how many.
std::size_t check_rows(const nlohmann::json& metrics,
                       const std::map<std::string, std::uint64_t>& rows) {
  for (const auto& row : rows) {
    const std::string& metric = row.first;
    CAPTURE(metric);
    REQUIRE(metrics.contains(metric));
    CHECK(metrics[metric].get<std::uint64_t>() == row.second);
  }
  return rows.size();
}

// `listings`: the GPU machine's SASS of each kernel, if recorded.
std::size_t compare_with_measured(
    const std::map<std::string, std::map<std::string, std::uint64_t>>& measured,
    const std::string& folder, const std::string& skip = "",
    const std::map<std::string, std::vector<std::string>>* listings = nullptr) {
  std::size_t compared = 0;
  for (const auto& entry : measured) {
    const std::string& kernel = entry.first;
    if (kernel == skip) continue;
    CAPTURE(kernel);
    // A kernel measured among sass_only/ moves to coverage/ once the IR imports it.
    auto dir = source_dir() / "kernels_cuda" / folder;
    if (!std::filesystem::exists(dir / (kernel + ".cu"))) dir = dir.parent_path() / "coverage";
    const auto cu = dir / (kernel + ".cu");
    const auto launch = dir / (kernel + ".launch");
    const CommandResult r = run_cli({"run", cu.string(), "--launch-file", launch.string(),
                                     "--frontend", "sass", "--json", "-"});
    REQUIRE(r.exit_code == 0);
    const auto metrics = nlohmann::json::parse(r.out)["metrics"];
    // The GPU's counts are of the code the GPU machine's toolkit made: where this machine's
    // compiles the kernel otherwise (another build of nvcc's headers or ptxas), the kernel is
    // not compared.
    if (listings != nullptr && listings->contains(kernel) &&
        listings->at(kernel) != sass_listing(cu.string())) {
      const std::string why =
          kernel + ": this toolkit compiles it otherwise than the GPU machine's; not compared";
      MESSAGE(why);
      continue;
    }
    compared += check_rows(metrics, entry.second);
  }
  return compared;
}

TEST_CASE(
    "the SASS run counts what the GPU counted for LDGSTS, a divergent BRX, WARPSYNC.EXCLUSIVE") {
  if (!have_nvcc() || !have_sass_tools("the measured SASS counters are not compared")) return;
  const auto measured = measured_exact_rows("h100_2026_12_05b");
  REQUIRE(measured.size() == 3);
  // Per kernel: the instruction count, the pipes, the op classes and the memory counters.
  CHECK(compare_with_measured(measured, "textbook") > 3 * 20);
}

TEST_CASE("the SASS-only kernels count what the H200 counted") {
  if (!have_nvcc() || !have_sass_tools("the measured SASS counters are not compared")) return;
  const auto measured = measured_exact_rows("sass_only");
  REQUIRE(measured.size() == 6);
  // recursive_fib's recursion diverges and reconverges otherwise than on the GPU (more split
  // executions of the same loads and stores after the calls return): docs/sass.md.
  CHECK(compare_with_measured(measured, "sass_only", "recursive_fib") > 5 * 20);
}

TEST_CASE("the SASS-only kernels count what an H100 counted, half compares and wmma among them") {
  if (!have_nvcc() || !have_sass_tools("the measured SASS counters are not compared")) return;
  // results/h100_2026_12_06/final/: the kernels above again, and half_compare.cu (HSETP2, HSET2,
  // VABSDIFF4) and wmma_tiles.cu (LDSM, HMMA); printf_threads' counters include the GPU's vprintf
  // and are not compared, and assert_below faults.
  const auto measured = measured_exact_rows("h100_2026_12_06/final");
  REQUIRE(measured.size() == 8);
  CHECK(compare_with_measured(measured, "sass_only", "recursive_fib") > 7 * 20);
}

TEST_CASE("the coverage kernels count what an H100 counted (tensor cores, fp8, SIMD, fences)") {
  if (!have_nvcc() || !have_sass_tools("the measured SASS counters are not compared")) return;
  // results/h100_2026_12_06b/coverage/: kernels_cuda/coverage/ as validate ran it. warp_cg is
  // left out: the GPU's totals hold 8 instructions (one a warp, a branch in the CBU) that its own
  // per-instruction counts (per_instruction/ncu_warp_cg.csv, each equal to warpsim's) do not,
  // and its uniform pipe counted none of the 16 VOTEUs those show executed: not understood.
  const auto measured = measured_exact_rows("h100_2026_12_06b/coverage");
  REQUIRE(measured.size() == 11);
  const auto listings = recorded_listings("h100_2026_12_06b/coverage");
  CHECK(compare_with_measured(measured, "coverage", "warp_cg", &listings) > 9 * 20);
}

TEST_CASE("divergent exits count what an H100 counted: the smaller side first, WARPSYNC again") {
  if (!have_nvcc() || !have_sass_tools("the measured SASS counters are not compared")) return;
  // results/h100_2026_12_07b/: exit_order.cu's six one-warp kernels (8, 24 or 16 lanes leave
  // before a __syncthreads()) and early_exits.cu's three. The GPU runs the side of a divergent
  // branch with fewer lanes first (the fall-through on a tie), and issues a WARPSYNC once more
  // when the lanes it waited for exit instead of arriving: one CBU instruction more where 24 or
  // 16 lanes leave, none where 8 do. results/h100_2026_12_07c/: exit_order_check.cu's six other
  // splits, simulated before they were measured, and the half comparisons.
  const auto dir = source_dir() / "kernels_cuda" / "coverage";
  std::size_t compared = 0;
  for (const char* folder : {"h100_2026_12_07b", "h100_2026_12_07c"}) {
    const auto measured = measured_exact_rows(folder, "validate_sass.csv");
    REQUIRE(measured.size() >= 7);
    for (const auto& entry : measured) {
      const std::string& kernel = entry.first;
      CAPTURE(kernel);
      std::string file = kernel;
      for (const char* holder : {"early_exits", "exit_order", "exit_order_check"}) {
        std::ifstream launches(dir / (std::string(holder) + ".launch"));
        const std::string text((std::istreambuf_iterator<char>(launches)), {});
        if (text.find("launch " + kernel + " ") != std::string::npos) file = holder;
      }
      const CommandResult r = run_cli({"run", (dir / (file + ".cu")).string(), "--launch-file",
                                       (dir / (file + ".launch")).string(), "--launch", kernel,
                                       "--frontend", "sass", "--json", "-"});
      REQUIRE(r.exit_code == 0);
      compared += check_rows(nlohmann::json::parse(r.out)["metrics"], entry.second);
    }
  }
  CHECK(compared > 17 * 20);
}

TEST_CASE("float division takes the slow path where an H100 takes it, divergent slow paths too") {
  if (!have_nvcc() || !have_sass_tools("the measured SASS counters are not compared")) return;
  // results/h100_2026_12_07d/: fchk_probe.cu's 28 one-warp launches, each dividing one pair of
  // exponents (20 instructions on the fast path, 66 or more through the slow path), whose
  // counts fixed FCHK's bounds; slow_path_shapes.cu's square roots and divisions called from
  // divergent code (two branches' regions sharing a barrier register), simulated before they
  // were measured; the half-integer conversions and the early exits the GPU counted alike.
  std::map<std::string, std::map<std::string, std::uint64_t>> by_launch;
  std::ifstream in(source_dir() / "validation/h200/results/h100_2026_12_07d/validate_sass.csv");
  REQUIRE(in);
  for (std::string line; std::getline(in, line);) {
    const auto f = csv_fields(line);
    if (f.size() != 6 || (f[5] != "exact" && f[5] != "MISMATCH")) continue;
    if (!f[2].starts_with("smsp__") && !f[2].starts_with("l1tex__t_")) continue;
    by_launch[f[1]][f[2]] = std::stoull(f[4]);
  }
  const auto dir = source_dir() / "kernels_cuda" / "coverage";
  std::size_t compared = 0, launches = 0;
  for (const auto& entry : by_launch) {
    const std::string& launch = entry.first;
    std::string file;
    if (launch.starts_with("fchk_")) file = "fchk_probe";
    if (launch.starts_with("slow_path_shape_")) file = "slow_path_shapes";
    if (launch == "half_int_conversions") file = "half_int_conversions";
    if (launch == "work_return" || launch == "odd_lanes_leave" || launch == "loop_return")
      file = "early_exits";
    if (file.empty()) continue;
    CAPTURE(launch);
    const CommandResult r = run_cli({"run", (dir / (file + ".cu")).string(), "--launch-file",
                                     (dir / (file + ".launch")).string(), "--launch", launch,
                                     "--frontend", "sass", "--json", "-"});
    REQUIRE(r.exit_code == 0);
    compared += check_rows(nlohmann::json::parse(r.out)["metrics"], entry.second);
    ++launches;
  }
  CHECK(launches == 28 + 3 + 1 + 3);
  CHECK(compared > launches * 20);
}

}  // namespace
}  // namespace warpsim::test
