// Every kernel under tests/faults/ faults in a known way. Each file says how, in comments:
//   # expect-fault: LINE: message text
//   # expect-sass-fault: LINE: message text   (run on its SASS; at the end, so lines keep), or
//   # sass-runs: why the SASS the GPU would run has nothing to fault on
//   # args: extra command-line arguments (optional)
// `warpsim run` must exit 3 and print "FILE:LINE: kernel fault in KERNEL: ...message text...",
// followed by the instruction and the block and thread that faulted; in the timing mode too.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "tests/unit/sass_support.hpp"
#include "tests/unit/test_support.hpp"

namespace warpsim::test {
namespace {

// What a fault file says of itself: its extra arguments, and for `prefix` ("expect-fault" or
// "expect-sass-fault") the line and message expected, and whether it says `sass-runs`.
struct FaultExpectation {
  std::vector<std::string> args;
  std::string line_no, message;
  bool sass_runs = false;
};

FaultExpectation read_expectation(const std::filesystem::path& file, const std::string& prefix) {
  const std::regex expect("^# " + prefix + R"(: (\d+): (.*)$)");
  const std::regex runs(R"(^# sass-runs: .+$)");
  const std::regex extra(R"(^# args: (.*)$)");
  FaultExpectation e;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_match(line, m, expect)) {
      e.line_no = m[1];
      e.message = m[2];
    } else if (std::regex_match(line, runs)) {
      e.sass_runs = true;
    } else if (std::regex_match(line, m, extra)) {
      std::istringstream words(m[1].str());
      for (std::string w; words >> w;) e.args.push_back(w);
    }
  }
  return e;
}

TEST_CASE("every faulting kernel reports where and why, and exits 3") {
  const auto files = files_in(source_dir() / "tests/faults", ".kir");
  CHECK(files.size() >= 8);
  for (const auto& file : files) {
    CAPTURE(file);
    const FaultExpectation e = read_expectation(file, "expect-fault");
    std::vector<std::string> args{"run", file.string()};
    args.insert(args.end(), e.args.begin(), e.args.end());
    const std::string &line_no = e.line_no, &message = e.message;
    REQUIRE_FALSE(message.empty());
    for (const char* mode : {"functional", "timing"}) {
      CAPTURE(mode);
      std::vector<std::string> with_mode = args;
      // The IR executor's faults (the SASS run's own: the test below).
      with_mode.insert(with_mode.end(), {"--mode", mode, "--frontend", "ir"});
      const auto r = run_cli(with_mode);
      CAPTURE(r.err);
      CHECK(r.exit_code == 3);
      const std::string head = file.string() + ":" + line_no + ": kernel fault in k: ";
      const auto at = r.err.find(head);
      REQUIRE(at != std::string::npos);
      CHECK(r.err.find(message, at) != std::string::npos);
      CHECK(r.err.find("  block (", at) != std::string::npos);
    }
  }
}

TEST_CASE("on its SASS, every faulting kernel faults where the GPU's code would, or says why not") {
  if (!have_sass_tools("the SASS runs of the faulting kernels are not checked")) return;
  unsigned faults = 0;
  for (const auto& file : files_in(source_dir() / "tests/faults", ".kir")) {
    CAPTURE(file);
    const FaultExpectation e = read_expectation(file, "expect-sass-fault");
    std::vector<std::string> args{"run", file.string(), "--frontend", "sass"};
    args.insert(args.end(), e.args.begin(), e.args.end());
    const std::string &line_no = e.line_no, &message = e.message;
    const bool no_fault = e.sass_runs;
    REQUIRE(no_fault == message.empty());  // one of the two, said in the file
    for (const char* mode : {"functional", "timing"}) {
      CAPTURE(mode);
      std::vector<std::string> with_mode = args;
      with_mode.insert(with_mode.end(), {"--mode", mode});
      const auto r = run_cli(with_mode);
      CAPTURE(r.err);
      if (no_fault) {
        CHECK(r.exit_code == 0);
        continue;
      }
      CHECK(r.exit_code == 3);
      const std::string head = file.string() + ":" + line_no + ": kernel fault in k: ";
      const auto at = r.err.find(head);
      REQUIRE(at != std::string::npos);
      CHECK(r.err.find(message, at) != std::string::npos);
      CHECK(r.err.find(" at SASS /*", at) != std::string::npos);  // the instruction
      CHECK(r.err.find("  block (", at) != std::string::npos);
      ++faults;
    }
  }
  CHECK(faults >= 2 * 8);
}

TEST_CASE("a kernel spinning on a flag nobody sets stops at the cycle limit in the timing mode") {
  // One warp reads a zero flag (by an atomic, which no compiler may hoist) until it is set: it
  // never is. In the timing mode each read takes an L2 round trip, so the instruction budget
  // would take hours of the host's time to reach; --max-cycles stops it, at the spinning warp.
  namespace fs = std::filesystem;
  const fs::path file = fs::temp_directory_path() / "warpsim_spin_on_flag.kir";
  std::ofstream(file) << "kernel k(flag: ptr global u32) {\n"
                         "entry:\n"
                         "  jmp spin\n"
                         "spin:\n"
                         "  %v = atom.global.or.u32 flag[0], 0\n"
                         "  %unset = eq.u32 %v, 0\n"
                         "  br %unset, spin, done\n"
                         "done:\n"
                         "  ret\n"
                         "}\n"
                         "launch k grid(1) block(32) {\n"
                         "  flag = u32[1] zero\n"
                         "}\n";
  std::vector<std::string> frontends{"ir"};
  if (have_sass_tools("the SASS frontend's cycle limit is not checked"))
    frontends.emplace_back("sass");
  for (const std::string& frontend : frontends) {
    CAPTURE(frontend);
    const auto r = run_cli({"run", file.string(), "--mode", "timing", "--frontend", frontend,
                            "--max-cycles", "200000"});
    CAPTURE(r.err);
    CHECK(r.exit_code == 3);
    const std::string head = file.string() + ":";
    const auto at = r.err.find(head);
    REQUIRE(at != std::string::npos);
    CHECK(r.err.find("kernel fault in k: more than 200000 cycles simulated; the kernel may never "
                     "finish (raise the limit with --max-cycles)",
                     at) != std::string::npos);
    CHECK(r.err.find("  block (0, 0, 0)", at) != std::string::npos);
  }
}

}  // namespace

}  // namespace warpsim::test
