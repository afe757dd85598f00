// The table of counters (metrics.def): what each is, how `validate` compares it with the GPU,
// and its value in a launch's statistics. Everything that names a counter reads it from here.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <variant>

#include "sim/core/exec/stats.hpp"
#include "sim/scheduler/timing_engine.hpp"

namespace warpsim::metrics {

// Functional: counted by either executor, in every mode; Timing: by the timing model, in timing
// mode only; Sass: SASS instruction classes, counted by the SASS executor only (reported where
// it ran: run --frontend sass, and its timing mode).
enum class Source : std::uint8_t { Functional, Timing, Sass };

// Whether a launch's statistics (and timing, if any) hold metric `m`.
struct MetricInfo;
bool counted(const MetricInfo& m, const exec::LaunchStats& stats,
             const scheduler::TimingStats* timing);

// How `validate` compares the simulated value with the GPU's.
enum class Compare : std::uint8_t {
  Exact,          // must be equal: the hardware is deterministic here
  Noisy,          // shown, not compared: the GPU's counter also counts unrelated traffic
  WithinPercent,  // relative error within `tolerance` %
  WithinPoints,   // a percentage within `tolerance` points
  Shown,          // shown with its error, not compared: a timing figure with no bound
  IrVsSass,       // not compared: IR instructions against the GPU's SASS instructions
};

// Measured: in the profiled runs of all such counters together; MeasuredApart: in a run of their
// own (cycles are distorted by the others); MeasuredOwnPass: in a run of their own whose failure
// (a GPU or profiler that cannot count them) loses only them, not the other counters.
enum class Gpu : std::uint8_t { NotMeasured, Measured, MeasuredApart, MeasuredOwnPass };

enum class MetricId : std::uint8_t {
#define METRIC(id, ...) id,
#include "sim/metrics/metrics.def"
#undef METRIC
  Count
};
inline constexpr std::size_t kMetrics = static_cast<std::size_t>(MetricId::Count);

struct MetricInfo {
  MetricId id;
  std::string_view name;
  std::string_view unit;
  Source source;
  Compare compare;
  double tolerance;
  Gpu gpu;
  std::string_view note;
  std::string_view description;
};

// Every metric, in the table's order.
std::span<const MetricInfo> metric_table();
const MetricInfo& info(MetricId id);
std::optional<MetricId> find_metric(std::string_view name);

// A counter is a whole number; rates, ratios and averages are not.
using MetricValue = std::variant<std::uint64_t, double>;
double as_double(const MetricValue& v);

// The metric's value; `timing` is required for Source::Timing metrics.
MetricValue metric_value(MetricId id, const exec::LaunchStats& stats,
                         const scheduler::TimingStats* timing);

}  // namespace warpsim::metrics
