// GPU configs: every built-in one loads; mistakes are rejected with the file and line.
#include <doctest/doctest.h>

#include "sim/config/gpu_config.hpp"
#include "tests/unit/test_support.hpp"
#include "tools/warpsim/config_options.hpp"

namespace warpsim::test {
namespace {

const std::string kMinimal =
    "[gpu]\n"                          // 1
    "name = Test GPU\n"                // 2
    "compute_capability = 9.0\n"       // 3
    "sm_count = 4\n"                   // 4
    "[sm]\n"                           // 5
    "max_threads = 2048\n"             // 6
    "max_blocks = 32\n"                // 7
    "registers = 65536\n"              // 8
    "shared_memory_bytes = 233472\n";  // 9

std::vector<std::string> errors_of(const std::string& text,
                                   const std::vector<std::string>& sets = {}) {
  auto r = config::load_config("test.ini", text, sets);
  std::vector<std::string> messages;
  if (auto* e = std::get_if<std::vector<config::ConfigError>>(&r)) {
    for (const auto& m : *e) messages.push_back(m.message);
  }
  return messages;
}

bool has(const std::vector<std::string>& errors, const std::string& text) {
  for (const auto& e : errors) {
    if (e.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST_CASE("every built-in config loads") {
  for (const auto& c : cli::embedded_configs()) {
    CAPTURE(c.name);
    auto r = config::load_config(std::string(c.name), std::string(c.text), {});
    REQUIRE(std::holds_alternative<config::GpuConfig>(r));
    CHECK(std::get<config::GpuConfig>(r).sm_count > 0);
  }
}

TEST_CASE("a minimal config takes the declared defaults") {
  auto r = config::load_config("test.ini", kMinimal, {});
  REQUIRE(std::holds_alternative<config::GpuConfig>(r));
  const auto& c = std::get<config::GpuConfig>(r);
  CHECK(c.cc_major == 9);
  CHECK(c.register_allocation_unit == 256);
  CHECK(c.reserved_shared_memory_per_block == 1024);
}

TEST_CASE("a misspelt key is rejected with its line and a suggestion") {
  const auto e = errors_of(kMinimal + "max_treads = 1024\n");
  CHECK(has(e, "test.ini:10: error: unknown key 'sm.max_treads' (did you mean 'sm.max_threads'?)"));
}

TEST_CASE("a negative value is rejected with its line") {
  std::string text = kMinimal;
  text.replace(text.find("sm_count = 4"), 12, "sm_count = -4");
  CHECK(has(errors_of(text), "test.ini:4: error: gpu.sm_count = '-4': must not be negative"));
}

TEST_CASE("a missing required key is rejected, naming the file") {
  std::string text = kMinimal;
  text.erase(text.find("registers = 65536\n"), 18);
  CHECK(has(errors_of(text), "test.ini: error: missing required key 'sm.registers'"));
}

TEST_CASE("ill-typed values, duplicates, junk lines and out-of-range values are rejected") {
  CHECK(has(errors_of(kMinimal + "fp32_cores = many\n"),
            "test.ini:10: error: sm.fp32_cores = 'many': expected a whole number"));
  CHECK(has(errors_of(kMinimal + "max_blocks = 16\n"),
            "test.ini:10: error: key 'sm.max_blocks' is given twice (first on line 7)"));
  CHECK(has(errors_of(kMinimal + "this is not a key\n"),
            "test.ini:10: error: expected 'key = value'"));
  CHECK(has(errors_of(kMinimal + "sub_partitions = 0\n"), "must be between 1 and 64"));
  CHECK(
      has(errors_of("sm_count = 4\n" + kMinimal), "test.ini:1: error: key 'sm_count' is outside"));
}

TEST_CASE("--set overrides a key and is checked like the file") {
  auto r = config::load_config("test.ini", kMinimal, {"sm.max_blocks=16"});
  REQUIRE(std::holds_alternative<config::GpuConfig>(r));
  CHECK(std::get<config::GpuConfig>(r).max_blocks_per_sm == 16);
  CHECK(has(errors_of(kMinimal, {"sm.max_block=16"}), "--set sm.max_block=16: error"));
  CHECK(has(errors_of(kMinimal, {"sm.max_blocks=-1"}), "must not be negative"));
}

TEST_CASE("timing keys that contradict each other or name no choice are rejected") {
  // Warps count as in flight for the end of their block's launch latency, never longer.
  CHECK(has(errors_of(kMinimal,
                      {"timing.block_launch_latency=100", "timing.launch_latency_in_flight=101"}),
            "timing.launch_latency_in_flight exceeds timing.block_launch_latency"));
  CHECK(errors_of(kMinimal,
                  {"timing.block_launch_latency=100", "timing.launch_latency_in_flight=100"})
            .empty());
  CHECK(has(errors_of(kMinimal, {"timing.store_exit=never"}),
            "timing.store_exit = 'never': expected one of: acknowledged, arrived, accepted"));
  auto r = config::load_config("test.ini", kMinimal, {"timing.store_exit=accepted"});
  REQUIRE(std::holds_alternative<config::GpuConfig>(r));
  CHECK(std::get<config::GpuConfig>(r).timing.store_exit == config::StoreExit::Accepted);
}

TEST_CASE("warpsim config show prints every key with its origin; bad configs exit 2") {
  const auto r = run_cli({"config", "show", "a100"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("sm_count = 108") != std::string::npos);
  CHECK(r.out.find("[configs/a100.ini:") != std::string::npos);
  CHECK(r.out.find("max_registers_per_thread = 255") != std::string::npos);
  CHECK(r.out.find("[default]") != std::string::npos);
  CHECK(run_cli({"config", "show", "no-such-gpu"}).exit_code == 2);
  CHECK(run_cli({"config", "show", "h200", "--set", "sm.nope=1"}).exit_code == 2);
  CHECK(run_cli({"occupancy", "--config", "h200", "--block", "256", "--set", "gpu.sm_count=x"})
            .exit_code == 2);
}

}  // namespace
}  // namespace warpsim::test
