// Every file under tests/ir_invalid/ states its own expected diagnostics in comments:
//   # expect-error: LINE:COL: message text
//   # expect-warning: LINE:COL: message text
// `warpsim ir check` must print each (file:LINE:COL: error: ...message text...) and exit 2 when
// any error is expected, 0 when only warnings are.
#include <doctest/doctest.h>

#include <fstream>
#include <random>
#include <regex>

#include "tests/unit/test_support.hpp"

namespace warpsim::test {
namespace {

struct Expectation {
  std::string severity, position, message;
};

std::vector<Expectation> expectations_of(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::vector<Expectation> found;
  const std::regex pattern(R"(^# expect-(error|warning): (\d+:\d+): (.*)$)");
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_match(line, m, pattern)) found.push_back({m[1], m[2], m[3]});
  }
  return found;
}

bool printed(const std::string& err, const std::string& file, const Expectation& e) {
  const std::string prefix = file + ":" + e.position + ": " + e.severity + ": ";
  std::istringstream lines(err);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(prefix, 0) == 0 && line.find(e.message) != std::string::npos) return true;
  }
  return false;
}

TEST_CASE("every malformed input gives its located diagnostic and the right exit code") {
  const auto files = files_in(source_dir() / "tests/ir_invalid", ".kir");
  CHECK(files.size() >= 30);
  for (const auto& file : files) {
    const auto expected = expectations_of(file);
    CAPTURE(file);
    REQUIRE_FALSE(expected.empty());
    const auto result = run_cli({"ir", "check", file.string()});
    CAPTURE(result.err);
    bool any_error = false;
    for (const auto& e : expected) {
      any_error = any_error || e.severity == "error";
      CHECK_MESSAGE(printed(result.err, file.string(), e), e.position << ": " << e.message);
    }
    CHECK(result.exit_code == (any_error ? 2 : 0));
  }
}

TEST_CASE("threads that return before a barrier are not warned about: they exit, not wait") {
  // Threads 100 and on return, the rest reach the barrier. A barrier counts exited threads as
  // arrived, so this is CUDA's `if (i >= n) return;` before a __syncthreads(), not a deadlock;
  // the same threads waiting at the join for a vote instead do get the warning
  // (tests/ir_invalid/barrier_under_divergence.kir).
  const auto path = std::filesystem::temp_directory_path() / "warpsim_early_return.kir";
  std::ofstream(path) << "kernel k(out: ptr global s32) {\n"
                         "entry:\n"
                         "  %p = lt.u32 %tid.x, 100\n"
                         "  br %p, work, done\n"
                         "work:\n"
                         "  bar.sync\n"
                         "  st.global.s32 out[%tid.x], 1\n"
                         "  ret\n"
                         "done:\n"
                         "  st.global.s32 out[%tid.x], 2\n"
                         "  ret\n"
                         "}\n";
  const auto result = run_cli({"ir", "check", path.string()});
  CHECK(result.exit_code == 0);
  CHECK(result.err.find("warning") == std::string::npos);
}

TEST_CASE("threads that reach one barrier by different paths, some returning, are not warned") {
  // Each iteration, threads with tid > k split off; of those the odd ones return, the even ones
  // add and join the others at the loop's barrier. Every thread arrives or exits, so no warning;
  // a thread that came to the join without passing the barrier would get one
  // (tests/check/divergent_barrier.kir, two barriers on the two sides).
  const auto path = std::filesystem::temp_directory_path() / "warpsim_loop_return.kir";
  std::ofstream(path) << "kernel k(out: ptr global u32, n: u32) {\n"
                         "entry:\n"
                         "  %k = mov.u32 0\n"
                         "  jmp head\n"
                         "head:\n"
                         "  %split = gt.u32 %tid.x, %k\n"
                         "  br %split, split_off, barrier\n"
                         "split_off:\n"
                         "  %bit = and.u32 %tid.x, 1\n"
                         "  %odd = eq.u32 %bit, 1\n"
                         "  br %odd, leave, barrier\n"
                         "leave:\n"
                         "  st.global.u32 out[%tid.x], %k\n"
                         "  ret\n"
                         "barrier:\n"
                         "  bar.sync\n"
                         "  %k = add.u32 %k, 1\n"
                         "  %more = lt.u32 %k, n\n"
                         "  br %more, head, done\n"
                         "done:\n"
                         "  st.global.u32 out[%tid.x], %k\n"
                         "  ret\n"
                         "}\n";
  const auto result = run_cli({"ir", "check", path.string()});
  CHECK(result.exit_code == 0);
  CHECK(result.err.find("warning") == std::string::npos);
}

TEST_CASE("an empty file is an error, not a crash") {
  const auto path = std::filesystem::temp_directory_path() / "warpsim_empty.kir";
  std::ofstream(path).close();
  const auto result = run_cli({"ir", "check", path.string()});
  CHECK(result.exit_code == 2);
  CHECK(result.err.find(":1:1: error: the file defines no kernel") != std::string::npos);
}

TEST_CASE("a missing file is an error naming the file") {
  const auto result = run_cli({"ir", "check", "/nonexistent/dir/kernel.kir"});
  CHECK(result.exit_code == 2);
  CHECK(result.err.find("/nonexistent/dir/kernel.kir: error: cannot open file") !=
        std::string::npos);
}

TEST_CASE("a megabyte of junk stops after 50 errors and says how many it left out") {
  // Seeded bytes, mostly printable so that many lines produce their own error.
  std::mt19937 rng(12345);
  std::string junk;
  junk.reserve(1 << 20);
  while (junk.size() < (1u << 20)) {
    const auto r = rng() % 100;
    junk += r < 3 ? '\n' : r < 6 ? '\0' : static_cast<char>(' ' + rng() % 95);
  }
  const auto path = std::filesystem::temp_directory_path() / "warpsim_junk.kir";
  std::ofstream(path, std::ios::binary) << junk;
  const auto result = run_cli({"ir", "check", path.string()});
  CHECK(result.exit_code == 2);
  CHECK(result.err.find("more errors not shown (stopped after 50)") != std::string::npos);
  // 50 errors, each a message, a source window of at most 120 columns and a caret line.
  CHECK(result.err.size() < 50 * 600);
}

}  // namespace
}  // namespace warpsim::test
