// warpsim step, scripted and at a terminal (a pseudo-terminal, as a person would use it).
#include <doctest/doctest.h>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>

#include "tests/unit/test_support.hpp"

namespace warpsim::test {
namespace {

std::string divergence_kernel() {
  return (source_dir() / "kernels_ir/warp_divergence.kir").string();
}

std::string write_script(const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / "warpsim_step_script.txt";
  std::ofstream(path) << text;
  return path.string();
}

TEST_CASE("a scripted step shows the warp split 16/16 and reconverge at the join") {
  const auto r = run_cli({"step", divergence_kernel(), "--block-index", "0", "--warp", "0",
                          "--script", write_script("n 4\nstack\np %lowHalf\nc\n")});
  CAPTURE(r.out);
  REQUIRE(r.exit_code == 0);
  // Line 14 is the branch; after it the long path (line 16) runs with lanes 0-15 and the short
  // path (line 24) with lanes 16-31, then line 30 (the join) with all 32.
  CHECK(r.out.find("line   14  ") != std::string::npos);
  const auto long_path = r.out.find("line   16  ");
  const auto short_path = r.out.find("line   24  ");
  const auto join = r.out.find("line   30  ");
  REQUIRE(long_path != std::string::npos);
  REQUIRE(short_path != std::string::npos);
  REQUIRE(join != std::string::npos);
  CHECK(long_path < short_path);
  CHECK(short_path < join);
  CHECK(r.out.find("16/32  %a1 = fma.f32") != std::string::npos);
  CHECK(r.out.find("16/32  %b1 = fma.f32") != std::string::npos);
  CHECK(r.out.find("32/32  ret") != std::string::npos);
  // The stack after the branch: both sides and the join entry, which reconverges at line 30.
  CHECK(r.out.find("reconverge at line 30") != std::string::npos);
  // %lowHalf is true in lanes 0-15 only.
  CHECK(r.out.find("%lowHalf (pred)") != std::string::npos);
  CHECK(r.out.find("warp finished after 17 instructions; 32 threads exited") != std::string::npos);
}

TEST_CASE("the stepping commands: next alone is one, regs shows values, bad counts are refused") {
  const auto r = run_cli({"step", divergence_kernel(), "--script",
                          write_script("regs\nnext\nprint %x\nnext -3\nuntil 5\nnext 2\n"
                                       "regs\nprint %x\nq\n")});
  CAPTURE(r.out);
  REQUIRE(r.exit_code == 0);
  // Before the first instruction nothing is written; after `next` (one instruction, line 11)
  // %gi is, %x (line 12, about to run) not yet.
  CHECK(r.out.find("%gi             u32   not written yet") != std::string::npos);
  CHECK(r.out.find("    2  line   12") != std::string::npos);
  CHECK(r.out.find("    3  line   13") != std::string::npos);
  CHECK(r.out.find("%x (f32) has not been written yet") != std::string::npos);
  CHECK(r.out.find("next: '-3' is not a positive count") != std::string::npos);
  CHECK(r.out.find("until: line 5 has no instruction") != std::string::npos);
  // After two more instructions (lines 12 and 13) %lowHalf and %x hold values: %gi of lanes
  // 0-7 is 0-7 in block 0, and %lowHalf (lane < 16) differs between the 32 active lanes, true
  // in the first eight shown.
  CHECK(r.out.find("lanes 0 1 2 3 4 5 6 7 ...") != std::string::npos);
  CHECK(r.out.find("%lowHalf        pred  lanes true true true true true true true true ...") !=
        std::string::npos);
  CHECK(r.out.find("%x (f32), * = active lane") != std::string::npos);
}

TEST_CASE("step --ascii draws the lane bar without block glyphs") {
  const auto r =
      run_cli({"step", divergence_kernel(), "--ascii", "--script", write_script("n 4\nq\n")});
  REQUIRE(r.exit_code == 0);
  // After the branch at line 14, lanes 0-15 run the long path: 16 '#' then 16 ':'.
  CHECK(r.out.find("################::::::::::::::::  16/32") != std::string::npos);
  CHECK(r.out.find("\u2588") == std::string::npos);
}

TEST_CASE("step takes the launch shape as run does, and --block-index names the block") {
  const auto r = run_cli({"step", divergence_kernel(), "--grid", "2", "--block", "64", "--arg",
                          "out=f32[128] zero", "--block-index", "1", "--warp", "1", "--script",
                          write_script("c\n")});
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  // Block 1, warp 1 of 64-thread blocks: threads 32-63 of the block.
  CHECK(r.out.find("block 1, warp 1 (threads 32-63)") != std::string::npos);
}

TEST_CASE("step rejects a block or warp outside the launch") {
  CHECK(run_cli({"step", divergence_kernel(), "--block-index", "1"}).exit_code == 2);
  CHECK(run_cli({"step", divergence_kernel(), "--warp", "1"}).exit_code == 2);
  CHECK(run_cli({"step", divergence_kernel(), "--block-index", "0,1"}).exit_code == 2);
}

// Reads from `fd` until `text` appears or a few seconds pass.
std::string read_until(int fd, const std::string& text, std::string& all) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  const std::size_t from = all.size();
  while (all.find(text, from) == std::string::npos && std::chrono::steady_clock::now() < deadline) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    char buf[4096];
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) break;
    all.append(buf, static_cast<std::size_t>(n));
  }
  return all.substr(from);
}

TEST_CASE("step at a terminal prompts, answers commands and quits") {
  int master = -1;
  const pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const std::string kernel = divergence_kernel();
    execl(WARPSIM_BINARY, "warpsim", "step", kernel.c_str(), "--warp", "0", nullptr);
    _exit(127);
  }
  std::string all;
  CHECK(read_until(master, "(step, about to run line 11) ", all).find("32/32") !=
        std::string::npos);
  const std::string next = "next 4\n";
  REQUIRE(write(master, next.data(), next.size()) == static_cast<ssize_t>(next.size()));
  const std::string after = read_until(master, "(step, about to run line 17) ", all);
  CHECK(after.find("16/32  %a1 = fma.f32") != std::string::npos);
  const std::string print = "print %x\n";
  REQUIRE(write(master, print.data(), print.size()) == static_cast<ssize_t>(print.size()));
  CHECK(read_until(master, "(step, about to run line 17) ", all).find("%x (f32)") !=
        std::string::npos);
  const std::string quit = "quit\n";
  REQUIRE(write(master, quit.data(), quit.size()) == static_cast<ssize_t>(quit.size()));
  int status = -1;
  for (int i = 0; i < 100 && waitpid(pid, &status, WNOHANG) == 0; ++i) usleep(50'000);
  CAPTURE(all);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  close(master);
}

// Starts `warpsim step ARGS` on a pseudo-terminal; returns the child and the terminal's fd.
std::pair<pid_t, int> step_on_terminal(const std::string& kernel, const char* extra) {
  int master = -1;
  const pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
  if (pid == 0) {
    execl(WARPSIM_BINARY, "warpsim", "step", kernel.c_str(), extra, nullptr);
    _exit(127);
  }
  return {pid, master};
}

int exit_status(pid_t pid) {
  int status = -1;
  for (int i = 0; i < 100 && waitpid(pid, &status, WNOHANG) == 0; ++i) usleep(50'000);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST_CASE("at a terminal, the end of input (Ctrl-D) quits") {
  const auto [pid, master] = step_on_terminal(divergence_kernel(), "--ascii");
  REQUIRE(pid > 0);
  std::string all;
  read_until(master, "(step, about to run line 11) ", all);
  REQUIRE(write(master, "\x04", 1) == 1);  // the terminal's end-of-file character
  read_until(master, "quit", all);
  CAPTURE(all);
  CHECK(exit_status(pid) == 0);
  close(master);
}

TEST_CASE("at a terminal, Ctrl-C during continue returns to the prompt") {
  // A warp that loops for ever: continue never ends on its own.
  const auto [pid, master] =
      step_on_terminal((source_dir() / "tests/bad_input/endless.kir").string(), "--ascii");
  REQUIRE(pid > 0);
  std::string all;
  read_until(master, "(step, about to run line", all);
  REQUIRE(write(master, "continue\n", 9) == 9);
  read_until(master, "jmp loop", all);
  REQUIRE(write(master, "\x03", 1) == 1);  // the terminal's interrupt character
  const std::string after = read_until(master, "(step, about to run line 6) ", all);
  CAPTURE(all.substr(all.size() > 2000 ? all.size() - 2000 : 0));
  CHECK(after.find("interrupted") != std::string::npos);
  REQUIRE(write(master, "quit\n", 5) == 5);
  CHECK(exit_status(pid) == 0);
  close(master);
}

}  // namespace
}  // namespace warpsim::test
