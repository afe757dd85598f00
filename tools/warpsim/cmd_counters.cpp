// `warpsim counters`: the table of counters (sim/metrics/metrics.def), each with its unit, what
// counts it, how `validate` compares it with the GPU and what it means; `--measured SOURCE`
// prints only the names the GPU is asked for (for scripts that profile with Nsight Compute).
#include <fmt/format.h>

#include <ostream>

#include "sim/metrics/metric_table.hpp"
#include "tools/warpsim/cli.hpp"
#include "tools/warpsim/commands.hpp"
#include "tools/warpsim/options.hpp"

namespace warpsim::cli {
namespace {

std::string rule(const metrics::MetricInfo& m) {
  switch (m.compare) {
    case metrics::Compare::Exact:
      return "exact";
    case metrics::Compare::Noisy:
      return "shown (noisy on the GPU)";
    case metrics::Compare::WithinPercent:
      return fmt::format("within {:g} %", m.tolerance);
    case metrics::Compare::WithinPoints:
      return fmt::format("within {:g} points", m.tolerance);
    case metrics::Compare::Shown:
      return "shown";
    case metrics::Compare::IrVsSass:
      return "exact on SASS, not on the IR";
  }
  return "";
}

const char* gpu_pass(metrics::Gpu g) {
  switch (g) {
    case metrics::Gpu::NotMeasured:
      return "-";
    case metrics::Gpu::Measured:
      return "measured";
    case metrics::Gpu::MeasuredOwnPass:
      return "measured, own pass";
    case metrics::Gpu::MeasuredApart:
      return "measured apart";
  }
  return "";
}

}  // namespace

int run_counters(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  namespace po = boost::program_options;
  po::options_description desc("options");
  desc.add_options()("measured", po::value<std::string>(),
                     "print only the names of the counters the GPU is asked for: all, "
                     "functional or timing");
  auto cl = parse_command_line("counters", desc, {}, args, out, err);
  if (!cl) return kExitBadInput;
  if (cl->help) return kExitOk;
  if (cl->vars.count("measured")) {
    const std::string which = cl->vars["measured"].as<std::string>();
    if (which != "all" && which != "functional" && which != "timing") {
      err << "warpsim counters: error: --measured must be all, functional or timing, not '" << which
          << "'\n";
      return kExitBadInput;
    }
    for (const metrics::MetricInfo& m : metrics::metric_table()) {
      if (m.gpu == metrics::Gpu::NotMeasured) continue;
      const bool functional = m.source != metrics::Source::Timing;
      if (which == "all" || (which == "functional") == functional) out << m.name << '\n';
    }
    return kExitOk;
  }
  out << fmt::format("{:<62} {:<20} {:<10} {:<28} {:<14} {}\n", "counter", "unit", "counted",
                     "validate", "GPU", "what");
  for (const metrics::MetricInfo& m : metrics::metric_table()) {
    out << fmt::format("{:<62} {:<20} {:<10} {:<28} {:<14} {}\n", m.name, m.unit,
                       m.source == metrics::Source::Functional ? "always"
                       : m.source == metrics::Source::Timing   ? "timing"
                                                               : "sass",
                       rule(m), gpu_pass(m.gpu), m.description);
  }
  return kExitOk;
}

}  // namespace warpsim::cli
