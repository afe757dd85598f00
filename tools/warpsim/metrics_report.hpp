// The counters of a launch (sim/metrics/metrics.def) as JSON and as the text report's table.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>

#include "sim/metrics/metric_table.hpp"

namespace warpsim::cli {

// Every counter the run has: the functional ones always, the timing ones when `timing` is set.
void add_metrics_json(const exec::LaunchStats& stats, const scheduler::TimingStats* timing,
                      nlohmann::json& metrics);
// The notes a reader of those counters must know, by metric name.
nlohmann::json metric_notes_json(bool timing);
// One line per counter: name, value, unit.
void write_counters_text(std::ostream& out, const exec::LaunchStats& stats,
                         const scheduler::TimingStats* timing);
// A value as the text report shows it: whole numbers with thousands separators.
std::string format_metric(const metrics::MetricValue& v);

}  // namespace warpsim::cli
