#include "tools/warpsim/metrics_report.hpp"

#include <fmt/format.h>

#include <ostream>

#include "tools/warpsim/run_report.hpp"

namespace warpsim::cli {

void add_metrics_json(const exec::LaunchStats& stats, const scheduler::TimingStats* timing,
                      nlohmann::json& out) {
  for (const metrics::MetricInfo& m : metrics::metric_table()) {
    if (!metrics::counted(m, stats, timing)) continue;
    std::visit([&](auto v) { out[std::string(m.name)] = v; },
               metrics::metric_value(m.id, stats, timing));
  }
}

nlohmann::json metric_notes_json(bool timing) {
  nlohmann::json notes = nlohmann::json::object();
  for (const metrics::MetricInfo& m : metrics::metric_table()) {
    if (m.note.empty() || (m.source == metrics::Source::Timing && !timing)) continue;
    notes[std::string(m.name)] = std::string(m.note);
  }
  return notes;
}

std::string format_metric(const metrics::MetricValue& v) {
  if (const auto* whole = std::get_if<std::uint64_t>(&v)) return with_commas(*whole);
  return fmt::format("{:.2f}", std::get<double>(v));
}

void write_counters_text(std::ostream& out, const exec::LaunchStats& stats,
                         const scheduler::TimingStats* timing) {
  out << "counters (Nsight Compute's names; warpsim__ where the GPU has none)\n";
  for (const metrics::MetricInfo& m : metrics::metric_table()) {
    if (!metrics::counted(m, stats, timing)) continue;
    out << fmt::format("  {:<62} {:>16} {}\n", m.name,
                       format_metric(metrics::metric_value(m.id, stats, timing)), m.unit);
  }
}

}  // namespace warpsim::cli
