// The simulator's memory counters against an H200's: validation/h200/results/ncu.csv holds
// Nsight Compute's counters for the launches of `warpsim validate --all` (validation/h200/
// validate.sh), in file order. Every counter the table (sim/metrics/metrics.def) compares exactly
// must be equal: requests, sectors, shared-memory instructions and the exact wavefront counter;
// the l1tex__data_* wavefront and bank-conflict counters are known to over-count
// (NVIDIA/cutlass issue 1882) and are not compared.
#include <doctest/doctest.h>

#include <fstream>
#include <map>

#include "sim/metrics/metric_table.hpp"
#include "tests/unit/run_support.hpp"

namespace warpsim::test {
namespace {

using Counters = std::map<std::string, std::uint64_t>;

// Per profiled launch, in order: kernel name and counters.
std::vector<std::pair<std::string, Counters>> measured() {
  std::ifstream in(source_dir() / "validation/h200/results/ncu.csv");
  REQUIRE(in);
  std::vector<std::pair<std::string, Counters>> launches;
  std::map<std::string, std::size_t> column;
  std::string last_id;
  for (std::string line; std::getline(in, line);) {
    const auto f = csv_fields(line);
    if (!f.empty() && f[0] == "ID") {
      for (std::size_t i = 0; i < f.size(); ++i) column[f[i]] = i;
      continue;
    }
    if (column.empty() || f.size() < column.size()) continue;
    const std::string& id = f[column["ID"]];
    if (id != last_id) {
      launches.push_back({f[column["Kernel Name"]], {}});
      last_id = id;
    }
    std::string value = f[column["Metric Value"]];
    std::erase(value, ',');
    launches.back().second[f[column["Metric Name"]]] = std::stoull(value);
  }
  return launches;
}

// The counters the table says must equal the GPU's: functional, compared exactly, measured.
Counters simulated(const exec::LaunchStats& s) {
  Counters c;
  for (const metrics::MetricInfo& m : metrics::metric_table()) {
    if (m.source != metrics::Source::Functional || m.compare != metrics::Compare::Exact ||
        m.gpu == metrics::Gpu::NotMeasured)
      continue;
    c[std::string(m.name)] = std::get<std::uint64_t>(metrics::metric_value(m.id, s, nullptr));
  }
  return c;
}

TEST_CASE(
    "global requests and sectors and shared wavefronts equal the H200's for every seed kernel") {
  const auto hw = measured();
  std::size_t next = 0, compared = 0;
  for (const auto& file : files_in(source_dir() / "kernels_ir", ".kir")) {
    const auto module = ir::load_module_file(file.string());
    REQUIRE(module.ok());
    for (const ir::Launch& l : module.module.launches) {
      cli::LaunchOverrides o;
      o.launch_name = l.name;
      const auto k = load_kernel(file.filename().string(), o);
      REQUIRE(next < hw.size());
      const auto& [name, counters] = hw[next++];
      CAPTURE(file);
      CAPTURE(l.name);
      REQUIRE(name == l.kernel);
      const Counters sim = simulated(k.run().stats);
      // clusterHist's total includes the distributed-shared-memory atomics that address the
      // block's own memory (85,155 = 65,536 + 19,619; docs/memory.md).
      for (const auto& [metric, value] : sim) {
        CAPTURE(metric);
        REQUIRE(counters.count(metric) == 1);
        CHECK(counters.at(metric) == value);
        ++compared;
      }
    }
  }
  CHECK(next == hw.size());
  CHECK(compared > 100);
}

}  // namespace
}  // namespace warpsim::test
