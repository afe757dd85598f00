#include "sim/metrics/metric_table.hpp"

#include <array>
#include <stdexcept>

namespace warpsim::metrics {
namespace {

constexpr std::array<MetricInfo, kMetrics> kTable = {{
#define METRIC(id, name, unit, source, compare, tolerance, gpu, note, description, value) \
  {MetricId::id, name,     unit, Source::source, Compare::compare,                        \
   tolerance,    Gpu::gpu, note, description},
#include "sim/metrics/metrics.def"
#undef METRIC
}};

// Every row's position is its id, so info() is an index.
constexpr bool ids_in_order() {
  for (std::size_t i = 0; i < kTable.size(); ++i) {
    if (static_cast<std::size_t>(kTable[i].id) != i) return false;
  }
  return true;
}
static_assert(ids_in_order());

const exec::GlobalOpStats& global(const exec::LaunchStats& s, exec::GlobalOp op) {
  return s.memory.global[static_cast<std::size_t>(op)];
}
const exec::SharedOpStats& shared(const exec::LaunchStats& s, exec::SharedOp op) {
  return s.memory.shared[static_cast<std::size_t>(op)];
}
const exec::SharedOpStats& dsmem(const exec::LaunchStats& s, exec::SharedOp op) {
  return s.memory.dsmem[static_cast<std::size_t>(op)];
}
double ratio(std::uint64_t a, std::uint64_t b) {
  return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b);
}
// Warp cycles in state `s`, per issued instruction: Nsight Compute's per_issue_active ratio.
double per_issue(const scheduler::TimingStats& t, scheduler::WarpState s) {
  return ratio(t.warp_state_cycles[static_cast<std::size_t>(s)], t.issued);
}
// A warp state of the GPU's that the model has no cause for (instruction fetch, dispatch, ...):
// no warp is ever in it. Named, so that each such row is its own.
double never_in(std::string_view /*state*/) {
  return 0.0;
}
double percent(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

// The value of one metric, typed as its expression is: counts stay whole numbers.
template <class T>
MetricValue typed(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<double>(v);
  } else {
    return static_cast<std::uint64_t>(v);
  }
}

}  // namespace

std::span<const MetricInfo> metric_table() {
  return kTable;
}

const MetricInfo& info(MetricId id) {
  return kTable[static_cast<std::size_t>(id)];
}

std::optional<MetricId> find_metric(std::string_view name) {
  for (const MetricInfo& m : kTable) {
    if (m.name == name) return m.id;
  }
  return std::nullopt;
}

bool counted(const MetricInfo& m, const exec::LaunchStats& stats,
             const scheduler::TimingStats* timing) {
  switch (m.source) {
    case Source::Functional:
      return true;
    case Source::Timing:
      return timing != nullptr;
    case Source::Sass:
      return stats.sass.instructions > 0;
  }
  return false;
}

double as_double(const MetricValue& v) {
  return std::visit([](auto x) { return static_cast<double>(x); }, v);
}

MetricValue metric_value(MetricId id, const exec::LaunchStats& s,
                         const scheduler::TimingStats* timing) {
  if (info(id).source == Source::Timing && timing == nullptr) {
    throw std::logic_error("a timing metric asked of a functional run");
  }
  // Functional rows never read `t`; a reference to an empty one keeps the table's expressions
  // uniform.
  static const scheduler::TimingStats kNoTiming{};
  const scheduler::TimingStats& t = timing != nullptr ? *timing : kNoTiming;
  switch (id) {
#define METRIC(id, name, unit, source, compare, tolerance, gpu, note, description, value) \
  case MetricId::id:                                                                      \
    return typed(value);
#include "sim/metrics/metrics.def"
#undef METRIC
    case MetricId::Count:
      break;
  }
  throw std::logic_error("no such metric");
}

}  // namespace warpsim::metrics
