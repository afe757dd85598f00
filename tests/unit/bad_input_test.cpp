// The bad-input corpus: every case must end with its documented exit code and a message that
// says what was wrong, never a crash, a hang or a silent success. Cases come from
// tests/bad_input/cases.txt (written by hand, one per line) and are generated here: every count
// option of every command given a sign, a fraction, junk or a value out of range; a typo of
// every command's options; every invalid IR file and every faulting kernel through each command
// that reads a kernel.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "tests/unit/test_support.hpp"

namespace warpsim::test {
namespace {

struct BadInputCase {
  int exit_code = 0;
  std::vector<std::string> words;  // each must appear in the output
  std::vector<std::string> args;
  std::string origin;  // where the case comes from, for failure messages
};

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

std::string expand(std::string text) {
  const std::pair<std::string, std::string> places[] = {
      {"{src}", source_dir().string()},
      {"{here}", (source_dir() / "tests/bad_input").string()},
      {"{tmp}", std::filesystem::temp_directory_path().string()}};
  for (const auto& [name, value] : places) {
    for (auto at = text.find(name); at != std::string::npos; at = text.find(name)) {
      text.replace(at, name.size(), value);
    }
  }
  return text;
}

// Words split at spaces; 'single quotes' keep what they hold together ('' is an empty word).
std::vector<std::string> split_args(const std::string& line) {
  std::vector<std::string> args;
  std::string word;
  bool quoted = false, any = false;
  for (char c : line) {
    if (c == '\'') {
      quoted = !quoted;
      any = true;
    } else if (c == ' ' && !quoted) {
      if (any) args.push_back(expand(word));
      word.clear();
      any = false;
    } else {
      word += c;
      any = true;
    }
  }
  if (any) args.push_back(expand(word));
  return args;
}

std::vector<BadInputCase> listed_cases() {
  std::vector<BadInputCase> cases;
  std::ifstream in(source_dir() / "tests/bad_input/cases.txt");
  std::string line;
  for (unsigned n = 1; std::getline(in, line); ++n) {
    if (trim(line).empty() || trim(line)[0] == '#') continue;
    const auto bar1 = line.find('|'), bar2 = line.find('|', bar1 + 1);
    REQUIRE_MESSAGE(bar2 != std::string::npos,
                    "cases.txt:" << n << ": expected EXIT | WORDS | ARGS");
    BadInputCase c;
    c.exit_code = std::stoi(trim(line.substr(0, bar1)));
    std::istringstream words(line.substr(bar1 + 1, bar2 - bar1 - 1));
    for (std::string w; std::getline(words, w, ';');) c.words.push_back(trim(w));
    c.args = split_args(trim(line.substr(bar2 + 1)));
    c.origin = "cases.txt:" + std::to_string(n);
    cases.push_back(std::move(c));
  }
  return cases;
}

struct CountOption {
  std::vector<std::string> command;  // the command and what it needs besides the option
  std::string option;
  std::uint64_t min, max;
};

// Each count option with its range (what the command's --help declares).
std::vector<CountOption> count_options() {
  const std::string vec = (source_dir() / "kernels_ir/vecAdd.kir").string();
  const std::string div = (source_dir() / "kernels_ir/warp_divergence.kir").string();
  const std::string sum = (source_dir() / "kernels_ir/sum_reduce.kir").string();
  const std::uint64_t any = UINT64_MAX;
  return {
      {{"occupancy"}, "--block", 1, std::uint64_t{1} << 32},
      {{"occupancy", "--block", "64"}, "--regs", 0, 65536},
      {{"occupancy", "--block", "64"}, "--smem", 0, std::uint64_t{1} << 40},
      {{"run", vec}, "--max-warp-insts", 1, any},
      {{"run", vec}, "--seed", 0, any},
      {{"run", vec, "--mode", "timing"}, "--threads", 0, 1024},
      {{"run", vec, "--mode", "timing"}, "--timeline-sm", 0, 4095},
      {{"step", div}, "--warp", 0, 31},
      {{"step", div}, "--max-warp-insts", 1, any},
      {{"banks", "--array", "f32[32]", "--index", "[lane]"}, "--warp", 0, 31},
      {{"banks", "--array", "f32[32]", "--index", "[lane]"}, "--vector", 1, 4},
      {{"bench"}, "--repeat", 1, 1000},
      {{"bench"}, "--threads", 0, 1024},
      {{"ir", "print", sum}, "--unroll", 1, 16},
  };
}

std::vector<BadInputCase> count_cases() {
  std::vector<BadInputCase> cases;
  for (const CountOption& o : count_options()) {
    std::vector<std::pair<std::string, std::string>> bad = {
        {"-1", "must not be negative"},
        {"-0", "must not be negative"},
        {"abc", "not a whole number"},
        {"1.5", "not a whole number"},
        {"12abc", "not a whole number"},
        {"0x10", "not a whole number"},
        {"+5", "not a whole number"},
        {"99999999999999999999999", "out of range"},
        {"-99999999999999999999", "must not be negative"}};
    if (o.max != UINT64_MAX) bad.emplace_back(std::to_string(o.max + 1), "out of range");
    if (o.min > 0) bad.emplace_back(std::to_string(o.min - 1), "out of range");
    for (const auto& [value, why] : bad) {
      BadInputCase c;
      c.exit_code = 2;
      c.words = {"option '" + o.option + "'", why};
      c.args = o.command;
      c.args.push_back(o.option);
      c.args.push_back(value);
      c.origin = "count option " + o.option + " = " + value;
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

// One typo (a dropped letter) of an option of each command: the message names the option.
std::vector<BadInputCase> typo_cases() {
  const std::string vec = (source_dir() / "kernels_ir/vecAdd.kir").string();
  const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> commands = {
      {{"run", vec}, {"--grid", "--block", "--launch", "--mode", "--json", "--config", "--dump"}},
      {{"step", vec}, {"--block-index", "--script", "--ascii"}},
      {{"banks"}, {"--array", "--vector"}},
      {{"occupancy"}, {"--regs", "--smem", "--sweep"}},
      {{"ptx", vec}, {"--target"}},
      {{"bench"}, {"--repeat", "--threads"}},
      {{"validate", vec}, {"--replay", "--cache-control"}},
      {{"ir", "print", vec}, {"--unroll"}},
      {{"ir", "cfg", vec}, {"--kernel"}},
  };
  std::vector<BadInputCase> cases;
  for (const auto& [command, options] : commands) {
    for (const std::string& option : options) {
      BadInputCase c;
      c.exit_code = 2;
      const std::string typo = option.substr(0, option.size() - 2) + option.back();
      c.words = {"'" + typo + "'", "did you mean '" + option + "'"};
      c.args = command;
      c.args.push_back(typo);
      c.args.emplace_back("1");
      c.origin = "typo " + typo;
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

// Every invalid IR file through every command that reads a kernel: each reports the file's
// first expected error at its line and column.
std::vector<BadInputCase> invalid_ir_cases() {
  std::vector<BadInputCase> cases;
  const std::regex expect(R"(^# expect-error: (\d+:\d+): (.*)$)");
  for (const auto& file : files_in(source_dir() / "tests/ir_invalid", ".kir")) {
    std::ifstream in(file);
    std::string line, at, words;
    std::smatch m;
    while (words.empty() && std::getline(in, line)) {
      if (std::regex_match(line, m, expect)) {
        at = file.filename().string() + ":" + m[1].str() + ": error: ";
        words = m[2].str();
      }
    }
    if (words.empty()) continue;  // warnings only: the file is valid IR
    const std::vector<std::vector<std::string>> commands = {
        {"run"}, {"run", "--mode", "timing"}, {"step"}, {"ptx"}, {"ir", "print"}, {"ir", "cfg"}};
    for (const auto& command : commands) {
      BadInputCase c;
      c.exit_code = 2;
      c.words = {at, words};
      c.args = command;
      c.args.push_back(file.string());
      c.origin = file.filename().string() + " via " + command[0];
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

// Every faulting kernel, functional, timed and in a random block order: exit 3, with the words
// the file expects.
std::vector<BadInputCase> fault_cases() {
  std::vector<BadInputCase> cases;
  const std::regex expect(R"(^# expect-fault: (\d+): (.*)$)"), extra(R"(^# args: (.*)$)");
  for (const auto& file : files_in(source_dir() / "tests/faults", ".kir")) {
    std::ifstream in(file);
    std::string line, words;
    std::vector<std::string> args;  // the file's own options (a runaway loop's budget)
    std::smatch m;
    while (words.empty() && std::getline(in, line)) {
      if (std::regex_match(line, m, expect)) words = m[2].str();
      if (std::regex_match(line, m, extra)) args = split_args(m[1].str());
    }
    REQUIRE_FALSE(words.empty());
    // The IR executor's faults (the SASS run's own: sass_faults_test).
    const std::vector<std::vector<std::string>> commands = {
        {"run", "--frontend", "ir"},
        {"run", "--frontend", "ir", "--mode", "timing"},
        {"run", "--frontend", "ir", "--block-order", "random"}};
    for (const auto& command : commands) {
      BadInputCase c;
      c.exit_code = 3;
      c.words = {words};
      c.args = {command[0], file.string()};
      c.args.insert(c.args.end(), command.begin() + 1, command.end());
      c.args.insert(c.args.end(), args.begin(), args.end());
      c.origin = file.filename().string() + " via " + command[0];
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

void check_case(const BadInputCase& c) {
  CAPTURE(c.origin);
  std::string joined;
  for (const std::string& a : c.args) joined += " " + a;
  CAPTURE(joined);
  const auto r = run_cli(c.args);
  const std::string all = r.err + r.out;
  CAPTURE(all.substr(0, 2000));
  CHECK(r.exit_code == c.exit_code);
  for (const std::string& w : c.words) {
    CAPTURE(w);
    CHECK(all.find(w) != std::string::npos);
  }
}

TEST_CASE("every bad input in the corpus gets its exit code and a message that says why") {
  std::vector<BadInputCase> all = listed_cases();
  for (auto* more : {&count_cases, &typo_cases, &invalid_ir_cases, &fault_cases}) {
    auto cases = more();
    all.insert(all.end(), cases.begin(), cases.end());
  }
  MESSAGE(all.size() << " bad inputs");
  CHECK(all.size() >= 300);
  for (const BadInputCase& c : all) check_case(c);
}

}  // namespace
}  // namespace warpsim::test
