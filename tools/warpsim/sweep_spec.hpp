// A sweep's specification: kernels (files, and launches in them), GPU configs and config-key
// axes; the points are their cross product (or, with `points = listed`, the axes' values taken
// side by side). Read from a small INI file:
//
//   [sweep]
//   mode = timing                      # or functional
//   kernels = kernels_ir/vecAdd.kir, kernels_ir/smem_transpose.kir@smem_transpose
//   configs = h200                     # built-in names or INI files
//   run = --cache-control all          # further `warpsim run` options, the same for every point
//   metric = gpc__cycles_elapsed.max   # what the plots show
//   [axes]
//   timing.scheduler = lrr, gto, two_level
//   gpu.l2_bytes = 31457280, 62914560
//
// Paths are relative to the spec's folder. Errors name the spec file and line.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace warpsim::cli {

struct SweepAxis {
  std::string key;  // a config key, section.name
  std::vector<std::string> values;
};

struct SweepKernel {
  std::string file;    // as resolved (relative to the spec's folder)
  std::string launch;  // empty: the file's first launch
  std::string label;   // as the spec writes it
};

struct SweepSpec {
  std::string path;
  std::string mode = "timing";
  std::vector<SweepKernel> kernels;
  std::vector<std::string> configs;
  std::vector<SweepAxis> axes;
  std::vector<std::string> run_options;
  std::string metric;   // empty: the mode's default
  bool listed = false;  // axes side by side instead of their product
};

// One point: a kernel, a config and a value of each axis.
struct SweepPoint {
  std::size_t index = 0;
  const SweepKernel* kernel = nullptr;
  std::string config;
  std::vector<std::string> values;  // per axis
};

std::optional<SweepSpec> read_sweep_spec(const std::string& path, std::ostream& err);
// Kernels outermost, then configs, then the axes in the spec's order (the last fastest).
std::vector<SweepPoint> sweep_points(const SweepSpec& spec);
// The `warpsim run` arguments of a point, its JSON written to `json`.
std::vector<std::string> point_arguments(const SweepSpec& spec, const SweepPoint& p,
                                         const std::string& json);
std::string default_metric(const SweepSpec& spec);

}  // namespace warpsim::cli
