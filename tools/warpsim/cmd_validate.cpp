// `warpsim validate FILE...|--all`: the simulator and a real GPU on the same launches, side by
// side: every output buffer (bitwise), the compiled kernel's shared memory, and occupancy.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <set>
#include <sstream>

#include "sim/core/exec/executor.hpp"
#include "sim/core/exec/program.hpp"
#include "sim/core/ir/printer.hpp"
#include "sim/metrics/metric_table.hpp"
#include "tools/warpsim/buffer_compare.hpp"
#include "tools/warpsim/cli.hpp"
#include "tools/warpsim/commands.hpp"
#include "tools/warpsim/config_options.hpp"
#include "tools/warpsim/fault_report.hpp"
#include "tools/warpsim/kernel_input.hpp"
#include "tools/warpsim/launch_checks.hpp"
#include "tools/warpsim/launch_options.hpp"
#include "tools/warpsim/occupancy_section.hpp"
#include "tools/warpsim/options.hpp"
#include "tools/warpsim/sass_frontend.hpp"
#if WARPSIM_HAVE_CUDA
#include "cuda_backend/gpu_runner.hpp"
#endif

namespace warpsim::cli {
namespace {

// Warp states per issued instruction are small ratios: two decimals.
constexpr std::string_view kPerIssueUnit = "warps/issue";

std::string timing_figure(const metrics::MetricInfo& m, double v) {
  return m.unit == kPerIssueUnit ? fmt::format("{:.2f}", v) : fmt::format("{:.1f}", v);
}

constexpr int kExitMismatch = 1;

struct Row {
  std::string kernel, launch, metric, simulated, measured, verdict;
};

#if WARPSIM_HAVE_CUDA
// Element-wise, bit for bit.
enum class Outcome { Agrees, Mismatch, CannotRun };

struct ValidateOptions {
  cuda::Replay replay = cuda::Replay::Application;
  bool flush_l2 = true;
  bool sass = false;
  // Where the two sides of each differing buffer are written (LAUNCH.BUFFER.simulated and
  // .gpu, raw bytes), if anywhere: the elements a row calls different, to study.
  std::string save_differing;
};

// Writes a differing buffer's two sides under `dir`; false (and says so) when it cannot.
bool save_buffers(const std::string& dir, const std::string& launch, const exec::GlobalBuffer& sim,
                  const exec::GlobalBuffer& gpu, std::ostream& err) {
  for (const auto* b : {&sim, &gpu}) {
    const std::string path =
        fmt::format("{}/{}.{}.{}", dir, launch, b->name, b == &sim ? "simulated" : "gpu");
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(b->bytes.data()),
              static_cast<std::streamsize>(b->bytes.size()));
    if (!out) {
      err << "warpsim validate: error: cannot write '" << path << "'\n";
      return false;
    }
  }
  return true;
}

// The verdict on one counter, by the table's rule for it (metrics.def).
// `sass`: the simulated counts are the SASS frontend's, so instruction counts compare exactly.
std::string counter_verdict(const metrics::MetricInfo& m, const metrics::MetricValue& simulated,
                            double measured, bool sass, bool& mismatch) {
  const double value = metrics::as_double(simulated);
  const double error =
      measured == 0 ? (value == 0 ? 0.0 : 100.0) : 100.0 * (value - measured) / measured;
  const metrics::Compare rule =
      m.compare == metrics::Compare::IrVsSass && sass ? metrics::Compare::Exact : m.compare;
  switch (rule) {
    case metrics::Compare::Exact: {
      const bool equal = value == measured;
      mismatch |= !equal;
      return equal ? "exact" : "MISMATCH";
    }
    case metrics::Compare::Noisy:
      return "noisy on hardware: not compared";
    case metrics::Compare::WithinPercent: {
      const bool ok = std::abs(error) <= m.tolerance;
      mismatch |= !ok;
      return fmt::format("{} ({:+.1f} %)",
                         ok ? fmt::format("within {:g} %", m.tolerance)
                            : fmt::format("MISMATCH: beyond {:g} %", m.tolerance),
                         error);
    }
    case metrics::Compare::WithinPoints: {
      const bool ok = std::abs(value - measured) <= m.tolerance;
      mismatch |= !ok;
      return fmt::format("{} ({:+.1f} points)",
                         ok ? fmt::format("within {:g} points", m.tolerance)
                            : fmt::format("MISMATCH: beyond {:g} points", m.tolerance),
                         value - measured);
    }
    case metrics::Compare::Shown:
      // A state the model has no cause for: its error says nothing but that.
      if (!m.note.empty()) return fmt::format("shown ({})", m.note);
      return fmt::format("shown ({:+.1f} %)", error);
    case metrics::Compare::IrVsSass:
      return fmt::format("IR vs SASS instructions: not compared ({:.2f} SASS per IR)",
                         measured / std::max(1.0, value));
  }
  return "";
}

// A simulated counter as the table of rows shows it: timing figures with one decimal.
std::string shown_value(const metrics::MetricInfo& m, const metrics::MetricValue& v) {
  if (m.source == metrics::Source::Timing) return timing_figure(m, metrics::as_double(v));
  return std::visit([](auto x) { return fmt::format("{}", x); }, v);
}

Outcome validate_launch(const std::string& file, const ir::LoadedModule& loaded,
                        const exec::LaunchSpec& spec, const config::GpuConfig& gpu,
                        const ValidateOptions& options, std::vector<Row>& rows, std::ostream& err,
                        const cuda::GpuCode* code) {
  const bool sass = options.sass;
  std::string error;
  // The SASS frontend executes the kernel as ptxas compiled it: its counters are the SASS's.
  // A kernel whose SASS it does not model is reported, and the other launches still run.
  std::optional<exec::LaunchResult> on_sass;
  if (sass) {
    on_sass = run_on_sass(loaded.module, spec, sm_arch(gpu.cc_major, gpu.cc_minor), {}, error);
    if (!on_sass) {
      err << "warpsim validate: " << file << ": " << error << '\n';
      rows.push_back({spec.kernel->name, spec.name, "SASS frontend", "-", "-",
                      "MISMATCH: not simulated (" + error + ")"});
      return Outcome::Mismatch;
    }
  }
  const exec::LaunchResult sim =
      sass ? std::move(*on_sass) : exec::execute(loaded.module, spec, {});
  const auto hw =
      cuda::run_on_gpu(loaded.module, spec, options.replay, options.flush_l2, error, code);
  if (!hw) {
    err << "warpsim validate: " << file << ": cannot run on the GPU: " << error << '\n';
    return Outcome::CannotRun;
  }
  bool mismatch = false;
  auto row = [&](std::string metric, std::string s, std::string m, std::string verdict) {
    rows.push_back({spec.kernel->name, spec.name, std::move(metric), std::move(s), std::move(m),
                    std::move(verdict)});
  };
  const std::string approximated = approximations(*spec.kernel);
  // Module variables the kernel left as they were on both sides (the many that libcu++'s and
  // Thrust's headers define among them) make one row; the parameters' buffers one row each.
  const exec::GlobalMemory initial = exec::GlobalMemory::allocate(spec);
  const std::size_t parameters = sim.memory.buffers.size() - spec.globals.size();
  std::size_t unchanged = 0;
  for (std::size_t i = 0; i < sim.memory.buffers.size(); ++i) {
    const exec::GlobalBuffer& b = sim.memory.buffers[i];
    if (i >= parameters && b.bytes == initial.buffers[i].bytes &&
        b.bytes == hw->memory.buffers[i].bytes) {
      ++unchanged;
      continue;
    }
    const std::string verdict = compare_buffer(b, hw->memory.buffers[i], approximated, mismatch);
    if (!options.save_differing.empty() && verdict != "identical" &&
        !save_buffers(options.save_differing, spec.name, b, hw->memory.buffers[i], err)) {
      return Outcome::CannotRun;
    }
    row(fmt::format("buffer {} ({} x {})", b.name, b.count(), ir::buffer_type_name(b.type())),
        "simulated", hw->device, verdict);
  }
  if (unchanged != 0) {
    row(fmt::format("module variables left as initialised ({})", unchanged), "simulated",
        hw->device, "identical");
  }
  if (!sim.stats.printed.empty() || !hw->printed.empty()) {
    std::string text;
    for (const exec::PrintedLine& line : sim.stats.printed) text += line.text;
    row("printf output", fmt::format("{} B", text.size()), fmt::format("{} B", hw->printed.size()),
        compare_printed(text, hw->printed, mismatch));
  }
  const LaunchOccupancy est = launch_occupancy(gpu, spec);
  row("registers per thread",
      fmt::format("{}{}", est.registers.registers, est.registers.estimated ? " (estimate)" : ""),
      std::to_string(hw->registers_per_thread),
      est.registers.estimated ? "not compared (an estimate)"
      : est.registers.registers == static_cast<std::uint64_t>(hw->registers_per_thread)
          ? "exact"
          : (mismatch = true, "MISMATCH"));
  const std::uint64_t static_smem = exec::static_shared_bytes(*spec.kernel);
  const bool smem_ok = static_smem == static_cast<std::uint64_t>(hw->static_shared_bytes);
  mismatch |= !smem_ok;
  row("static shared memory (bytes)", std::to_string(static_smem),
      std::to_string(hw->static_shared_bytes), smem_ok ? "exact" : "MISMATCH");
  // The occupancy model fed the compiled kernel's registers and shared memory.
  const scheduler::Occupancy o = scheduler::compute_occupancy(
      gpu, {spec.threads_per_block(), static_cast<std::uint64_t>(hw->registers_per_thread),
            static_cast<std::uint64_t>(hw->static_shared_bytes), spec.dynamic_smem});
  const bool occ_ok = o.blocks_per_sm == static_cast<std::uint64_t>(hw->blocks_per_sm);
  mismatch |= !occ_ok;
  row("blocks per SM",
      fmt::format("{} (limited by {})", o.blocks_per_sm, scheduler::limiter_name(o.binding)),
      std::to_string(hw->blocks_per_sm), occ_ok ? "exact" : "MISMATCH");
  const double measured_occ = static_cast<double>(hw->blocks_per_sm) *
                              static_cast<double>(o.warps_per_block) /
                              static_cast<double>(o.max_warps_per_sm);
  row("theoretical occupancy", fmt::format("{:.2f} %", 100.0 * o.occupancy()),
      fmt::format("{:.2f} %", 100.0 * measured_occ), occ_ok ? "exact" : "MISMATCH");
  if (hw->counters.empty()) {
    row("hardware counters", "-", "-", "not measured: " + hw->counters_error);
    return mismatch ? Outcome::Mismatch : Outcome::Agrees;
  }
  // The timing model, on the occupancy of the compiled kernel.
  scheduler::TimingOptions topts;
  topts.threads = simulation_threads(0);
  topts.flush_l2 = options.flush_l2;
  std::optional<scheduler::TimingResult> timed_on;
  if (sass) {
    timed_on = time_on_sass(loaded.module, spec, gpu, o, topts, error);
    if (!timed_on) {
      err << "warpsim validate: " << file << ": " << error << '\n';
      return Outcome::CannotRun;
    }
  } else {
    timed_on = scheduler::simulate_timing(loaded.module, spec, gpu, o, topts);
  }
  const scheduler::TimingResult& timed = *timed_on;
  for (const metrics::MetricInfo& m : metrics::metric_table()) {
    if (m.gpu == metrics::Gpu::NotMeasured) continue;
    const auto found = hw->counters.find(std::string(m.name));
    if (found == hw->counters.end()) {
      row(std::string(m.name), "-", "-", "not measured: " + hw->optional_counters_error);
      continue;
    }
    const double measured = found->second;
    if (!metrics::counted(m, sim.stats, &timed.timing)) {
      row(std::string(m.name), "-", fmt::format("{}", static_cast<std::uint64_t>(measured)),
          "not simulated: SASS instruction classes need --frontend sass");
      continue;
    }
    const metrics::MetricValue value = metrics::metric_value(m.id, sim.stats, &timed.timing);
    // The runtime's vprintf runs thousands of instructions a call on the GPU (storing into its
    // printf buffer: about 7,300 warp instructions a call on printf_threads.cu, an H100), none
    // of them in warpsim, which formats the call at once: the GPU's counts include them.
    bool unused = false;
    const std::string verdict =
        sim.stats.printed.empty() ? counter_verdict(m, value, measured, sass, mismatch)
                                  : fmt::format("not compared: the GPU's includes its vprintf ({})",
                                                counter_verdict(m, value, measured, sass, unused));
    row(std::string(m.name), shown_value(m, value),
        m.source == metrics::Source::Timing
            ? timing_figure(m, measured)
            : fmt::format("{}", static_cast<std::uint64_t>(measured)),
        verdict);
    if (m.id != metrics::MetricId::warp_instructions || sass) continue;
    // The timing model's count as compiled: loops unrolled, and the address arithmetic and
    // special-register reads the compiled code adds.
    const std::uint64_t as_compiled = timed.timing.issued + timed.timing.compiled_extra;
    if (as_compiled != sim.stats.warp_instructions) {
      row("warp instructions issued as compiled (timing model)", std::to_string(as_compiled),
          fmt::format("{}", static_cast<std::uint64_t>(measured)),
          fmt::format(
              "against SASS: shown ({:+.1f} %)",
              100.0 * (static_cast<double>(as_compiled) - measured) / std::max(1.0, measured)));
    }
  }
  return mismatch ? Outcome::Mismatch : Outcome::Agrees;
}
#endif

void write_table(std::ostream& out, const std::vector<Row>& rows) {
  // The metric column as wide as its longest name, so the values line up.
  std::size_t width = 34;
  for (const Row& r : rows) width = std::max(width, r.metric.size());
  std::string current;
  for (const Row& r : rows) {
    const std::string title = r.kernel + " / " + r.launch;
    if (title != current) {
      out << '\n' << title << '\n';
      out << fmt::format("  {:<{}} {:<28} {:<16} {}\n", "metric", width, "simulated", "measured",
                         "verdict");
      current = title;
    }
    out << fmt::format("  {:<{}} {:<28} {:<16} {}\n", r.metric, width, r.simulated, r.measured,
                       r.verdict);
  }
}

void write_markdown(std::ostream& out, const std::vector<Row>& rows) {
  out << "| kernel | launch | metric | simulated | measured | verdict |\n";
  out << "| --- | --- | --- | --- | --- | --- |\n";
  for (const Row& r : rows) {
    out << "| " << r.kernel << " | " << r.launch << " | " << r.metric << " | " << r.simulated
        << " | " << r.measured << " | " << r.verdict << " |\n";
  }
}

void write_csv(std::ostream& out, const std::vector<Row>& rows) {
  out << "kernel,launch,metric,simulated,measured,verdict\n";
  for (const Row& r : rows) {
    out << r.kernel << ',' << r.launch << ",\"" << r.metric << "\",\"" << r.simulated << "\",\""
        << r.measured << "\",\"" << r.verdict << "\"\n";
  }
}

}  // namespace

int run_validate(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  namespace po = boost::program_options;
  po::options_description desc(
      "Runs each launch in the simulator and on the GPU and compares: every output buffer bit "
      "for bit, the compiled kernel's static shared memory, the occupancy model (fed the "
      "compiled kernel's registers) against cuOccupancyMaxActiveBlocksPerMultiprocessor, and "
      "the memory counters against the hardware's, read with CUPTI's Range Profiler: global "
      "requests and sectors and shared instructions and wavefronts must be equal. The "
      "l1tex__data_* wavefront and bank-conflict counters are shown but not compared: on "
      "hardware they also count other L1 traffic (NVIDIA/cutlass issue 1882).\noptions");
  desc.add_options()("file", po::value<std::vector<std::string>>(), "a .kir file")(
      "all", "every kernels_ir/*.kir under the current directory")(
      "config", po::value<std::string>()->default_value(kDefaultConfig), "the GPU's config")(
      "csv", po::value<std::string>(), "also write the table as CSV")(
      "replay", po::value<std::string>()->default_value("application"),
      "how the counters' passes are replayed: application (the buffers copied in from the host "
      "before every pass, as the timing model starts) or kernel (CUPTI saves and restores "
      "device memory around each pass)")(
      "cache-control", po::value<std::string>()->default_value("all"),
      (std::string("the L2 at the start of each profiled pass, and of the timing model's "
                   "launch: ") +
       kCacheControlHelp + "; with --replay kernel only none")
          .c_str())("md", po::value<std::string>(), "also write the table as Markdown")(
      "frontend", po::value<std::string>()->default_value("auto"), kFrontendHelp)(
      "save-differing", po::value<std::string>(),
      "DIR: write both sides of every buffer that differs there (LAUNCH.BUFFER.simulated and "
      "LAUNCH.BUFFER.gpu, raw bytes)");
  po::positional_options_description pos;
  add_input_options(desc);
  pos.add("file", -1);
  auto cl = parse_command_line("validate FILE...|--all", desc, pos, args, out, err);
  if (!cl) return kExitBadInput;
  if (cl->help) return kExitOk;
  const std::string replay_name = cl->vars["replay"].as<std::string>();
  if (replay_name != "application" && replay_name != "kernel") {
    err << "warpsim validate: error: --replay must be application or kernel, not '" << replay_name
        << "'\n";
    return kExitBadInput;
  }
  auto flush_l2 = parse_cache_control(cl->vars["cache-control"].as<std::string>(), "validate", err);
  if (!flush_l2) return kExitBadInput;
  if (replay_name == "kernel" && cl->vars["cache-control"].defaulted()) flush_l2 = false;
  if (*flush_l2 && replay_name == "kernel") {
    err << "warpsim validate: error: --cache-control all needs --replay application (with "
           "kernel replay CUPTI's own copies refill the L2 between the passes)\n";
    return kExitBadInput;
  }
  std::vector<std::string> files;
  if (cl->vars.count("file")) files = cl->vars["file"].as<std::vector<std::string>>();
  if (cl->vars.count("all")) {
    std::vector<std::filesystem::path> found;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator("kernels_ir", ec)) {
      if (e.path().extension() == ".kir") found.push_back(e.path());
    }
    if (found.empty()) {
      err << "warpsim validate: error: --all found no kernels_ir/*.kir under "
          << std::filesystem::current_path(ec).string()
          << " (run it from warpsim's source directory, or give the files)\n";
      return kExitBadInput;
    }
    std::sort(found.begin(), found.end());
    for (const auto& p : found) files.push_back(p.string());
  }
  if (files.empty()) {
    err << "warpsim validate: error: no input files (give FILE... or --all)\n";
    return kExitBadInput;
  }
#if !WARPSIM_HAVE_CUDA
  err << "warpsim validate: this warpsim was built without the CUDA toolkit's cuda.h, so it "
         "cannot run kernels on a GPU\n";
  return kExitBadInput;
#else
  const cuda::Replay replay =
      replay_name == "kernel" ? cuda::Replay::Kernel : cuda::Replay::Application;
  const auto gpu = load_gpu_config(cl->vars["config"].as<std::string>(), {}, err);
  if (!gpu || !timing_config_ok(*gpu, "validate", err)) return kExitBadInput;
  if (!resolve_frontend(cl->vars, "validate", err, sm_arch(gpu->cc_major, gpu->cc_minor))) {
    return kExitBadInput;
  }
  const std::string frontend = cl->vars["frontend"].as<std::string>();
  ValidateOptions options;
  options.replay = replay;
  options.flush_l2 = *flush_l2;
  options.sass = frontend == "sass";
  if (cl->vars.count("save-differing")) {
    options.save_differing = cl->vars["save-differing"].as<std::string>();
    std::error_code ec;
    std::filesystem::create_directories(options.save_differing, ec);
    if (ec) {
      err << "warpsim validate: error: --save-differing: cannot create '" << options.save_differing
          << "': " << ec.message() << '\n';
      return kExitBadInput;
    }
  }
  std::vector<Row> rows;
  bool all_ok = true;
  InputOptions input_opts = input_options(*cl);
  input_opts.arch = sm_arch(gpu->cc_major, gpu->cc_minor);
  input_opts.sass_frontend = frontend == "sass";
  input_opts.launched_body_only = true;
  for (const std::string& file : files) {
    const LoadedInput input = load_input(file, input_opts);
    const ir::LoadedModule& loaded = input.loaded;
    loaded.diags.render(err);
    if (!loaded.ok()) return kExitBadInput;
    if (loaded.module.launches.empty()) {
      err << "warpsim validate: error: " << file
          << " has no launch block (give the launches with --launch-file)\n";
      return kExitBadInput;
    }
    for (const ir::Launch& l : loaded.module.launches) {
      LaunchOverrides o;
      o.launch_name = l.name;
      const auto spec = resolve_launch(loaded, o, err);
      if (!spec || !launch_can_run(*gpu, *spec, launch_occupancy(*gpu, *spec), "validate", err)) {
        return kExitBadInput;
      }
      if (frontend == "ir" && !require_ir_body(*spec->kernel, "validate", err)) {
        return kExitBadInput;
      }
      note_sass_only(*spec->kernel, "validate", err);
      Outcome outcome = Outcome::CannotRun;
      try {
        // An imported kernel runs as nvcc compiled it: its own PTX entry.
        std::optional<cuda::GpuCode> code;
        for (const ptx::KernelName& k : input.kernels) {
          if (!input.ptx.empty() && k.ir == spec->kernel->name) code = {input.ptx, k.ptx};
        }
        outcome =
            validate_launch(file, loaded, *spec, *gpu, options, rows, err, code ? &*code : nullptr);
      } catch (const exec::KernelFault& f) {
        // The simulator found the kernel faulting; the GPU is not asked to run it.
        write_fault(err, file, loaded.module, f);
        return kExitKernelFault;
      }
      if (outcome == Outcome::CannotRun) return kExitBadInput;
      all_ok = all_ok && outcome == Outcome::Agrees;
    }
  }
  write_table(out, rows);
  std::size_t exact = 0, mismatched = 0;
  for (const Row& r : rows) {
    exact += r.verdict == "exact" || r.verdict == "identical";
    mismatched += r.verdict.rfind("MISMATCH", 0) == 0;
  }
  out << fmt::format(
      "\n{} comparisons: {} exact or identical, {} mismatched (simulated on the {})\n", rows.size(),
      exact, mismatched, frontend == "sass" ? "SASS, as ptxas compiled each kernel" : "IR");
  if (cl->vars.count("csv")) {
    std::ofstream csv(cl->vars["csv"].as<std::string>());
    write_csv(csv, rows);
  }
  if (cl->vars.count("md")) {
    std::ofstream md(cl->vars["md"].as<std::string>());
    write_markdown(md, rows);
  }
  return all_ok ? kExitOk : kExitMismatch;
#endif
}

}  // namespace warpsim::cli
