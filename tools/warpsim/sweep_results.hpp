// A sweep's results: one row per point (its kernel, launch, config and axis values, then every
// counter by its Nsight Compute name) gathered from the points' JSON into OUT/results.csv, and
// one plot per axis (OUT/plot_<axis>.svg): the chosen metric against the axis's values, a line
// per kernel and value of the other axes, each relative to its value at the axis's first value.
#pragma once

#include <iosfwd>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tools/warpsim/sweep_spec.hpp"

namespace warpsim::cli {

struct SweepRow {
  const SweepPoint* point = nullptr;
  std::string status;  // ok, failed, missing
  std::map<std::string, nlohmann::json> metrics;
};

struct SweepTable {
  std::vector<SweepRow> rows;
  std::vector<std::string> metric_names;  // the union over the rows, sorted
  std::size_t missing() const;
  std::size_t failed() const;
};

SweepTable gather_results(const std::vector<SweepPoint>& points, const std::string& out);
void write_results_csv(std::ostream& csv, const SweepSpec& spec, const SweepTable& table);
// Writes one SVG per axis into `out`; returns their paths.
std::vector<std::string> write_axis_plots(const SweepSpec& spec, const SweepTable& table,
                                          const std::string& out);

}  // namespace warpsim::cli
