// `warpsim run` in-process with its report as JSON, for tests that read metrics from it.
#pragma once

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/unit/test_support.hpp"

namespace warpsim::test {

// `warpsim run kernels_ir/KERNEL EXTRA... --json -`; the command must succeed.
inline nlohmann::json run_json(const std::string& kernel, const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"run", "--file", (source_dir() / "kernels_ir" / kernel).string(),
                                   "--json", "-"};
  args.insert(args.end(), extra.begin(), extra.end());
  const CommandResult r = run_cli(args);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(r.out);
}

}  // namespace warpsim::test
