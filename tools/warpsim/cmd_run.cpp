// `warpsim run FILE`: execute a kernel functionally and report what it did.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <ostream>
#include <thread>

#include "sim/check/hazard_checker.hpp"
#include "tools/warpsim/activity_options.hpp"
#include "tools/warpsim/check_report.hpp"
#include "tools/warpsim/cli.hpp"
#include "tools/warpsim/commands.hpp"
#include "tools/warpsim/config_options.hpp"
#include "tools/warpsim/embedded_kernels.hpp"
#include "tools/warpsim/fault_report.hpp"
#include "tools/warpsim/kernel_input.hpp"
#include "tools/warpsim/launch_checks.hpp"
#include "tools/warpsim/launch_options.hpp"
#include "tools/warpsim/options.hpp"
#include "tools/warpsim/progress_line.hpp"
#include "tools/warpsim/run_report.hpp"
#include "tools/warpsim/sass_frontend.hpp"
#include "tools/warpsim/timing_report.hpp"

namespace warpsim::cli {
namespace {

namespace po = boost::program_options;

bool dump_buffers(const exec::GlobalMemory& memory, const std::vector<std::string>& dumps,
                  std::ostream& err) {
  for (const std::string& d : dumps) {
    const std::size_t eq = d.find('=');
    const exec::GlobalBuffer* b = eq == std::string::npos ? nullptr : memory.find(d.substr(0, eq));
    if (b == nullptr) {
      err << "warpsim run: error: --dump '" << d
          << "': expected BUFFER=PATH with a pointer "
             "parameter's name\n";
      return false;
    }
    std::ofstream out(d.substr(eq + 1), std::ios::binary);
    out.write(reinterpret_cast<const char*>(b->bytes.data()),
              static_cast<std::streamsize>(b->bytes.size()));
    if (!out) {
      err << "warpsim run: error: cannot write '" << d.substr(eq + 1) << "'\n";
      return false;
    }
  }
  return true;
}

void add_run_options(po::options_description& desc) {
  add_launch_shape_options(desc);
  add_input_options(desc);
  desc.add_options()("max-warp-insts", count_value(1)->default_value(1'000'000'000),
                     "fault when the kernel executes more warp instructions than this")(
      "max-cycles", count_value(1)->default_value(100'000'000),
      "timing: fault when the launch runs more cycles than this without finishing (the "
      "default is about 50 ms of an H200's time)")(
      "block-order", po::value<std::string>()->default_value("sequential"),
      "sequential, or random (clusters of blocks in a seeded random order)")(
      "seed", count_value()->default_value(1), "seed of the random block order");
}

std::optional<exec::ExecOptions> exec_options(const CommandLine& cl, std::ostream& err) {
  exec::ExecOptions opts;
  opts.max_warp_instructions = cl.vars["max-warp-insts"].as<std::uint64_t>();
  const std::string order = cl.vars["block-order"].as<std::string>();
  if (order == "random") {
    opts.order = exec::BlockOrder::Random;
  } else if (order != "sequential") {
    err << "warpsim: error: --block-order must be sequential or random\n";
    return std::nullopt;
  }
  opts.order_seed = cl.vars["seed"].as<std::uint64_t>();
  return opts;
}

po::options_description run_options() {
  po::options_description desc("options");
  desc.add_options()("file", po::value<std::string>(),
                     "the .kir, .cu or .ptx file (default: the seed's vecAdd, built in)")(
      "json", po::value<std::string>(),
      "also write the report as JSON to this file (-: to standard output, the text report then "
      "on standard error)")("dump", po::value<std::vector<std::string>>(),
                            "BUFFER=PATH: write a buffer's final bytes to PATH (repeatable)")(
      "mode", po::value<std::string>()->default_value("functional"),
      "functional (results and counters), or timing (also cycles, occupancy achieved, cache "
      "hit rates, warp states)")(
      "threads", count_value(0, 1024)->default_value(0),
      "timing: simulation threads (0: one per core); results do not depend on it")(
      "cache-control", po::value<std::string>()->default_value("all"),
      (std::string("timing: ") + kCacheControlHelp).c_str())(
      "per-line", "show every memory instruction's requests, sectors and wavefronts")(
      "frontend", po::value<std::string>()->default_value("auto"), kFrontendHelp)(
      "config", po::value<std::string>()->default_value(kDefaultConfig),
      "the GPU: a built-in config name or an INI file")(
      "set", po::value<std::vector<std::string>>(), "override a config key: section.key=value");
  add_activity_options(desc);
  return desc;
}

// The checks' report after a run: alone for `check`, after the run's report for `run --check`.
int write_check_outputs(const CommandLine& cl, bool check_command, const CheckRequest& checks,
                        const check::HazardReport& report, const ir::Module& module,
                        const exec::LaunchSpec& spec, const std::string& file, std::ostream& out,
                        std::ostream& err) {
  write_check_text(out, checks, report, module, spec, file);
  if (check_command && cl.vars.count("json")) {
    const nlohmann::json j = check_json(checks, report, module, spec);
    if (cl.vars["json"].as<std::string>() == "-") {
      err << j.dump(2) << '\n';
    } else {
      std::ofstream json(cl.vars["json"].as<std::string>());
      json << j.dump(2) << '\n';
      if (!json) {
        err << "warpsim check: error: cannot write the JSON file\n";
        return kExitBadInput;
      }
    }
  }
  return report.hazards.empty() ? kExitOk : kExitHazards;
}

// Runs the launch functionally, or through the timing model with --mode timing.
void simulate(const CommandLine& cl, const ir::Module& module, const exec::LaunchSpec& spec,
              const config::GpuConfig& gpu, const LaunchOccupancy& occupancy,
              const exec::ExecOptions& opts, bool flush_l2, const ActivityRequest& activity,
              ProgressLine& progress, std::optional<exec::LaunchResult>& result,
              std::optional<scheduler::TimingStats>& timing_stats) {
  if (cl.vars["mode"].as<std::string>() == "timing") {
    scheduler::TimingOptions topts;
    topts.threads =
        simulation_threads(static_cast<unsigned>(cl.vars["threads"].as<std::uint64_t>()));
    topts.max_warp_instructions = opts.max_warp_instructions;
    topts.max_cycles = cl.vars["max-cycles"].as<std::uint64_t>();
    topts.record_sms = activity.recorded_sms();
    topts.flush_l2 = flush_l2;
    topts.progress = &progress;
    std::optional<scheduler::TimingResult> r;
    std::string error;
    if (cl.vars["frontend"].as<std::string>() == "sass") {
      r = time_on_sass(module, spec, gpu, occupancy.occupancy, topts, error);
      if (!r) throw std::runtime_error(error);
    } else {
      r = scheduler::simulate_timing(module, spec, gpu, occupancy.occupancy, topts);
    }
    result = std::move(r->functional);
    timing_stats = std::move(r->timing);
  } else if (cl.vars["frontend"].as<std::string>() == "sass") {
    exec::ExecOptions with_progress = opts;
    with_progress.progress = &progress;
    std::string error;
    result = run_on_sass(module, spec, sm_arch(gpu.cc_major, gpu.cc_minor), with_progress, error);
    if (!result) throw std::runtime_error(error);
  } else {
    exec::ExecOptions with_progress = opts;
    with_progress.progress = &progress;
    result = exec::execute(module, spec, with_progress);
  }
}

// The text report, and the JSON, timeline, trace and buffer dumps asked for.
int write_outputs(const CommandLine& cl, const RunSummary& summary, const ActivityRequest& activity,
                  const nlohmann::json* check, std::ostream& out, std::ostream& err) {
  // `--json -` puts the JSON on standard output, for a pipe into jq; the text goes to stderr.
  const bool json_to_stdout = cl.vars.count("json") && cl.vars["json"].as<std::string>() == "-";
  write_printed(json_to_stdout ? err : out, summary.result.stats);
  write_run_text(json_to_stdout ? err : out, summary);
  nlohmann::json report = run_json(summary);
  if (check != nullptr) report["check"] = *check;
  if (json_to_stdout) {
    out << report.dump(2) << '\n';
  } else if (cl.vars.count("json")) {
    std::ofstream json(cl.vars["json"].as<std::string>());
    json << report.dump(2) << '\n';
    if (!json) {
      err << "warpsim run: error: cannot write the JSON file\n";
      return kExitBadInput;
    }
  }
  if (activity.any() &&
      !write_activity(activity, *summary.timing, summary.launch.kernel->name, err)) {
    return kExitBadInput;
  }
  if (cl.vars.count("dump") &&
      !dump_buffers(summary.result.memory, cl.vars["dump"].as<std::vector<std::string>>(), err)) {
    return kExitBadInput;
  }
  return kExitOk;
}

// `run`, or with `check_command` `check` (the checks' report alone, all checks by default).
int run_or_check(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                 bool check_command) {
  po::options_description desc = run_options();
  add_run_options(desc);
  add_check_options(desc, check_command);
  po::positional_options_description pos;
  pos.add("file", 1);
  auto cl =
      parse_command_line(check_command ? "check FILE" : "run FILE", desc, pos, args, out, err);
  if (!cl) return kExitBadInput;
  if (cl->help) return kExitOk;

  const std::string mode = cl->vars["mode"].as<std::string>();
  if (mode != "functional" && mode != "timing") {
    err << "warpsim run: error: --mode must be functional or timing\n";
    return kExitBadInput;
  }
  const bool timing = mode == "timing";
  if (!timing && (!cl->vars["threads"].defaulted() || !cl->vars["cache-control"].defaulted())) {
    err << "warpsim run: error: --threads and --cache-control need --mode timing\n";
    return kExitBadInput;
  }
  const auto flush_l2 =
      parse_cache_control(cl->vars["cache-control"].as<std::string>(), "run", err);
  if (!flush_l2) return kExitBadInput;
  // Without a file, the embedded default: the seed's vecAdd with its own sizes.
  const std::string file =
      cl->vars.count("file") ? cl->vars["file"].as<std::string>() : "vecAdd.kir (embedded)";
  const auto gpu =
      load_gpu_config(cl->vars["config"].as<std::string>(),
                      cl->vars.count("set") ? cl->vars["set"].as<std::vector<std::string>>()
                                            : std::vector<std::string>{},
                      err);
  if (!gpu) return kExitBadInput;
  InputOptions input = input_options(*cl);
  input.arch = sm_arch(gpu->cc_major, gpu->cc_minor);  // nvcc and ptxas compile for the config
  const bool checks_asked = check_command || cl->vars.count("check") != 0;
  // `check` is the checks alone: its frontend is the IR's without a word about it.
  if (check_command && cl->vars["frontend"].defaulted())
    cl->vars.at("frontend").value() = std::string("ir");
  if (!resolve_frontend(cl->vars, check_command ? "check" : "run", err, input.arch,
                        checks_asked ? "the checks run on the IR" : nullptr)) {
    return kExitBadInput;
  }
  const std::string frontend = cl->vars["frontend"].as<std::string>();
  input.sass_frontend = frontend == "sass";
  input.launched_body_only = true;
  const ir::LoadedModule loaded =
      cl->vars.count("file")
          ? load_kernel_file(file, input)
          : load_embedded_text(file, std::string(*embedded_kernel("vecAdd")), input.arch);
  loaded.diags.render(err);
  if (!loaded.ok()) return kExitBadInput;
  const auto spec = resolve_launch(loaded, launch_overrides(*cl, "run"), err);
  const auto opts = exec_options(*cl, err);
  if (!spec || !opts) return kExitBadInput;
  if (frontend == "ir" && !require_ir_body(*spec->kernel, "run", err)) return kExitBadInput;
  note_sass_only(*spec->kernel, "run", err);
  const LaunchOccupancy occupancy = launch_occupancy(*gpu, *spec);
  if (timing && !timing_config_ok(*gpu, "run", err)) return kExitBadInput;
  if (!launch_can_run(*gpu, *spec, occupancy, "run", err)) return kExitBadInput;
  const auto activity =
      activity_request(*cl, timing, static_cast<std::uint32_t>(gpu->sm_count), err);
  if (!activity) return kExitBadInput;
  const auto checks = check_request(*cl, check_command, timing, frontend, err);
  if (!checks) return kExitBadInput;
  std::optional<check::HazardChecker> checker;
  exec::ExecOptions run_opts = *opts;
  if (checks->any) run_opts.check = &checker.emplace(*spec, checks->set);

  spdlog::debug("run: {} launch {}: grid ({}, {}, {}), block ({}, {}, {}), {} mode, config {}",
                file, spec->name, spec->grid.x, spec->grid.y, spec->grid.z, spec->block.x,
                spec->block.y, spec->block.z, mode, gpu->source);
  ProgressLine progress(err,
                        ProgressLine::stderr_is_terminal() &&
                            !(cl->vars.count("json") && cl->vars["json"].as<std::string>() == "-"));
  const auto start = std::chrono::steady_clock::now();
  std::optional<exec::LaunchResult> result;
  std::optional<scheduler::TimingStats> timing_stats;
  try {
    simulate(*cl, loaded.module, *spec, *gpu, occupancy, run_opts, *flush_l2, *activity, progress,
             result, timing_stats);
  } catch (const exec::KernelFault& f) {
    progress.clear();
    if (checker) {
      check::HazardReport report = checker->report();
      const bool covered = fault_as_hazard(*checks, f, *spec, report);
      const int code = write_check_outputs(*cl, check_command, *checks, report, loaded.module,
                                           *spec, file, out, err);
      if (covered) return code;
    }
    write_fault(err, file, loaded.module, f);
    return kExitKernelFault;
  } catch (const std::runtime_error& e) {
    // The SASS frontend could not build or decode the kernel's SASS.
    progress.clear();
    err << "warpsim run: error: " << e.what() << '\n';
    return kExitBadInput;
  }
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  progress.clear();
  spdlog::debug("run: simulated in {:.3f} s, {} warp instructions", wall,
                result->stats.warp_instructions);
  const RunSummary summary{file,
                           *spec,
                           *result,
                           wall,
                           cl->vars.count("per-line") != 0,
                           &*gpu,
                           &occupancy,
                           timing_stats ? &*timing_stats : nullptr,
                           &loaded.module,
                           frontend == "sass"};
  if (!checker) return write_outputs(*cl, summary, *activity, nullptr, out, err);
  if (check_command) {
    return write_check_outputs(*cl, true, *checks, checker->report(), loaded.module, *spec, file,
                               out, err);
  }
  const nlohmann::json check_report = check_json(*checks, checker->report(), loaded.module, *spec);
  const int code = write_outputs(*cl, summary, *activity, &check_report, out, err);
  if (code != kExitOk) return code;
  out << '\n';
  return write_check_outputs(*cl, false, *checks, checker->report(), loaded.module, *spec, file,
                             out, err);
}

}  // namespace

int run_kernel(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  return run_or_check(args, out, err, false);
}

int run_check(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  return run_or_check(args, out, err, true);
}

}  // namespace warpsim::cli
