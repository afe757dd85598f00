#include "tools/warpsim/check_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "sim/core/ir/printer.hpp"
#include "tools/warpsim/run_report.hpp"
#include "tools/warpsim/source_lines.hpp"

namespace warpsim::cli {
namespace {

namespace po = boost::program_options;
using check::Category;
using check::Hazard;
using check::ThreadAccess;

constexpr Category kAll[] = {Category::Race, Category::Sync, Category::Init, Category::Memory};

std::string thread_text(const ThreadAccess& a, const exec::LaunchSpec& launch) {
  const exec::Dim3 b = exec::unflatten(a.block, launch.grid);
  const exec::Dim3 t = exec::unflatten(a.thread, launch.block);
  return fmt::format("block ({}, {}, {}) thread ({}, {}, {}) (warp {}, lane {})", b.x, b.y, b.z,
                     t.x, t.y, t.z, a.thread / 32, a.thread % 32);
}

// "line 12: <IR instruction>", or for an imported kernel its CUDA line's text with the
// instruction below it.
std::string line_text(const ThreadAccess& a, const ir::Module& module) {
  if (a.source == nullptr) return "?";
  const std::string instruction = ir::to_string(*a.source);
  if (a.source->origin.known()) {
    SourceText sources(module);
    const std::string cuda = sources.line(a.source->origin);
    if (!cuda.empty()) {
      return fmt::format("{}: {}\n           as {}", line_label(&module, *a.source), cuda,
                         instruction);
    }
    return fmt::format("{}: {}", line_label(&module, *a.source), instruction);
  }
  return fmt::format("line {}: {}", line_label(&module, *a.source), instruction);
}

std::string verb(const ThreadAccess& a) {
  return a.atomic ? "atomic" : a.write ? "write" : "read";
}

nlohmann::json access_json(const ThreadAccess& a, const ir::Module& module,
                           const exec::LaunchSpec& launch) {
  const exec::Dim3 b = exec::unflatten(a.block, launch.grid);
  const exec::Dim3 t = exec::unflatten(a.thread, launch.block);
  return {{"block", {b.x, b.y, b.z}},
          {"thread", {t.x, t.y, t.z}},
          {"warp", a.thread / 32},
          {"lane", a.thread % 32},
          {"access", verb(a)},
          {"line", a.source != nullptr ? line_label(&module, *a.source) : std::string()},
          {"instruction", a.source != nullptr ? ir::to_string(*a.source) : std::string()}};
}

// Errors first, then warnings, each in the order found: the first --check-limit are the ones
// that matter most.
std::vector<const Hazard*> by_severity(const check::HazardReport& report) {
  std::vector<const Hazard*> out;
  for (const Hazard& h : report.hazards) out.push_back(&h);
  std::stable_sort(out.begin(), out.end(),
                   [](const Hazard* a, const Hazard* b) { return a->error && !b->error; });
  return out;
}

}  // namespace

void add_check_options(po::options_description& desc, bool check_command) {
  desc.add_options()(
      "check",
      check_command ? po::value<std::string>()->default_value("all") : po::value<std::string>(),
      "hazard checks: race, sync, init, memory, a list of them (race,init) or all; the run is "
      "functional, on the IR")("check-limit", count_value(1)->default_value(20),
                               "show at most this many hazards");
}

std::optional<CheckRequest> check_request(const CommandLine& cl, bool check_command, bool timing,
                                          const std::string& frontend, std::ostream& err) {
  CheckRequest r;
  const char* command = check_command ? "check" : "run";
  if (!cl.vars.count("check")) {
    if (cl.vars.count("check-limit") && !cl.vars["check-limit"].defaulted()) {
      err << "warpsim run: error: --check-limit needs --check\n";
      return std::nullopt;
    }
    return r;
  }
  const std::string list = cl.vars["check"].as<std::string>();
  std::string_view rest = list;
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    bool known = item == "all";
    for (const Category c : kAll) {
      if (item == check::category_name(c) || item == "all") {
        r.set.on[static_cast<std::size_t>(c)] = true;
        known = true;
      }
    }
    if (!known) {
      err << fmt::format(
          "warpsim {}: error: --check '{}': unknown check '{}' (race, sync, init, memory, all)\n",
          command, list, item);
      return std::nullopt;
    }
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  if (timing || frontend == "sass") {
    err << fmt::format(
        "warpsim {}: error: the checks run on the functional IR model: drop --mode timing and "
        "--frontend sass\n",
        command);
    return std::nullopt;
  }
  r.any = true;
  if (cl.vars.count("check-limit")) r.limit = cl.vars["check-limit"].as<std::uint64_t>();
  return r;
}

bool fault_as_hazard(const CheckRequest& request, const exec::KernelFault& fault,
                     const exec::LaunchSpec& launch, check::HazardReport& report) {
  const std::string what = fault.what();
  const bool memory = what.find("outside") != std::string::npos ||
                      what.find("misaligned") != std::string::npos ||
                      what.find("cluster address") != std::string::npos;
  const bool sync =
      what.find("barrier") != std::string::npos || what.find("deadlock") != std::string::npos;
  const Category c = memory ? Category::Memory : Category::Sync;
  if (!(memory || sync) || !request.set.has(c)) return false;
  Hazard h;
  h.category = c;
  h.kind = memory ? "invalid access (the run stopped here)"
                  : "barrier that never completes (the run stopped here)";
  const exec::FaultSite& s = fault.site();
  h.detail = fmt::format("{} (IR line {}: {})", what, s.line, s.instruction);
  h.access.block = exec::flatten(s.block, launch.grid);
  h.access.thread = s.thread < 0 ? 0 : static_cast<std::uint32_t>(s.thread);
  report.hazards.push_back(std::move(h));
  ++report.occurrences[static_cast<std::size_t>(c)];
  return true;
}

void write_hazard(std::ostream& out, const Hazard& h, const ir::Module& module,
                  const exec::LaunchSpec& launch) {
  const std::string times = h.count == 1 ? "" : fmt::format(" ({} times)", with_commas(h.count));
  const char* level = h.error ? "error" : "warning";
  switch (h.category) {
    case Category::Race:
      out << fmt::format("{}: {} race {}, {} {}{}\n", level, h.kind, h.scope,
                         check::space_name(h.space), h.where, times);
      out << fmt::format("  {:<6} {}\n         at {}\n", verb(h.access),
                         thread_text(h.access, launch), line_text(h.access, module));
      out << fmt::format("  after the {} by {}\n         at {}\n", verb(h.earlier),
                         thread_text(h.earlier, launch), line_text(h.earlier, module));
      break;
    case Category::Init:
      out << fmt::format("{}: uninitialised read of {} {}{}\n", level, check::space_name(h.space),
                         h.where, times);
      out << fmt::format("  read   {}\n         at {}\n", thread_text(h.access, launch),
                         line_text(h.access, module));
      break;
    case Category::Sync:
    case Category::Memory:
      out << fmt::format("{}: {}{}\n", level, h.kind, times);
      out << fmt::format("  by {}\n", thread_text(h.access, launch));
      if (h.access.source != nullptr) out << fmt::format("  at {}\n", line_text(h.access, module));
      break;
  }
  if (!h.detail.empty()) out << "  " << h.detail << '\n';
}

void write_check_text(std::ostream& out, const CheckRequest& request,
                      const check::HazardReport& report, const ir::Module& module,
                      const exec::LaunchSpec& launch, const std::string& file) {
  std::string checks;
  for (const Category c : kAll) {
    if (request.set.has(c))
      checks += (checks.empty() ? "" : ", ") + std::string(check::category_name(c));
  }
  out << fmt::format("check {} (launch {}): {}\n", file, launch.name, checks);
  for (const Category c : kAll) {
    if (!request.set.has(c)) continue;
    std::size_t unique = 0;
    for (const Hazard& h : report.hazards) unique += h.category == c ? 1 : 0;
    out << fmt::format("  {:<7} {} hazard{}, {} occurrence{}\n", check::category_name(c), unique,
                       unique == 1 ? "" : "s",
                       with_commas(report.occurrences[static_cast<std::size_t>(c)]),
                       report.occurrences[static_cast<std::size_t>(c)] == 1 ? "" : "s");
  }
  if (report.hazards.empty()) {
    out << "no hazards found\n";
    return;
  }
  std::uint64_t shown = 0;
  for (const Hazard* h : by_severity(report)) {
    if (shown == request.limit) break;
    out << '\n';
    write_hazard(out, *h, module, launch);
    ++shown;
  }
  if (shown < report.hazards.size()) {
    out << fmt::format("\n(first {} of {} hazards; --check-limit N shows more)\n", shown,
                       report.hazards.size());
  }
}

nlohmann::json check_json(const CheckRequest& request, const check::HazardReport& report,
                          const ir::Module& module, const exec::LaunchSpec& launch) {
  nlohmann::json j;
  nlohmann::json summary = nlohmann::json::object();
  for (const Category c : kAll) {
    if (request.set.has(c))
      summary[check::category_name(c)] = report.occurrences[static_cast<std::size_t>(c)];
  }
  j["occurrences"] = summary;
  j["hazards"] = nlohmann::json::array();
  for (const Hazard* hazard : by_severity(report)) {
    const Hazard& h = *hazard;
    nlohmann::json e = {{"category", check::category_name(h.category)},    {"kind", h.kind},
                        {"severity", h.error ? "error" : "warning"},       {"count", h.count},
                        {"access", access_json(h.access, module, launch)}, {"detail", h.detail}};
    if (h.category == Category::Race || h.category == Category::Init) {
      e["space"] = check::space_name(h.space);
      e["address"] = h.address;
      e["element"] = h.where;
    }
    if (h.category == Category::Race) {
      e["scope"] = h.scope;
      e["earlier"] = access_json(h.earlier, module, launch);
    }
    j["hazards"].push_back(std::move(e));
  }
  return j;
}

}  // namespace warpsim::cli
