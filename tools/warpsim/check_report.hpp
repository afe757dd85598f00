// `warpsim check FILE` and `run --check LIST`: which checks run, and their report (a summary
// per category, then each hazard once with both accesses' lines and threads, at most --limit
// of them), as text and as JSON.
#pragma once

#include <boost/program_options.hpp>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "sim/check/hazard.hpp"
#include "sim/core/exec/fault.hpp"
#include "sim/core/exec/launch.hpp"
#include "tools/warpsim/options.hpp"

namespace warpsim::cli {

struct CheckRequest {
  check::CheckSet set;
  bool any = false;  // some check runs
  std::uint64_t limit = 20;
};

void add_check_options(boost::program_options::options_description& desc, bool check_command);
// The checks asked for (for `check`, all by default); they need the functional IR run.
std::optional<CheckRequest> check_request(const CommandLine& cl, bool check_command, bool timing,
                                          const std::string& frontend, std::ostream& err);
// The fault a run stopped at, as a hazard of `report` where a check covers it (out of bounds
// and misaligned accesses: memory; a barrier that never completes: sync). True when it did.
bool fault_as_hazard(const CheckRequest& request, const exec::KernelFault& fault,
                     const exec::LaunchSpec& launch, check::HazardReport& report);
// One hazard as the report shows it: what, where, both accesses' threads and lines.
void write_hazard(std::ostream& out, const check::Hazard& h, const ir::Module& module,
                  const exec::LaunchSpec& launch);
void write_check_text(std::ostream& out, const CheckRequest& request,
                      const check::HazardReport& report, const ir::Module& module,
                      const exec::LaunchSpec& launch, const std::string& file);
nlohmann::json check_json(const CheckRequest& request, const check::HazardReport& report,
                          const ir::Module& module, const exec::LaunchSpec& launch);

}  // namespace warpsim::cli
