// `warpsim sweep SPEC`: kernels x configs x config-key axes, each point one `warpsim run
// --json`, run here (--jobs N) or as a Slurm array job (--slurm), gathered into one CSV and a
// plot per axis.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <thread>

#include "tools/warpsim/cli.hpp"
#include "tools/warpsim/commands.hpp"
#include "tools/warpsim/options.hpp"
#include "tools/warpsim/progress_line.hpp"
#include "tools/warpsim/sweep_results.hpp"
#include "tools/warpsim/sweep_runner.hpp"
#include "tools/warpsim/sweep_slurm.hpp"

namespace warpsim::cli {
namespace {

namespace po = boost::program_options;
namespace fs = std::filesystem;

std::optional<std::vector<std::size_t>> parse_tasks(const std::string& text) {
  std::vector<std::size_t> out;
  std::string_view rest = text;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    std::size_t v = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size()) return std::nullopt;
    out.push_back(v);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
  }
  if (out.empty()) return std::nullopt;
  return out;
}

// Gathers every point's JSON into OUT/results.csv and the plots; lists what is missing.
int collect(const SweepSpec& spec, const std::vector<SweepPoint>& points, const std::string& out,
            std::ostream& os, std::ostream& err) {
  const SweepTable table = gather_results(points, out);
  const fs::path csv_path = fs::path(out) / "results.csv";
  {
    std::ofstream csv(csv_path);
    write_results_csv(csv, spec, table);
    if (!csv) {
      err << "warpsim sweep: error: cannot write " << csv_path.string() << '\n';
      return kExitBadInput;
    }
  }
  const std::vector<std::string> plots = write_axis_plots(spec, table, out);
  os << fmt::format("sweep: {} points, {} done, {} failed, {} not run; results in {}\n",
                    points.size(), points.size() - table.failed() - table.missing(), table.failed(),
                    table.missing(), csv_path.string());
  for (const std::string& p : plots) os << "  plot " << p << '\n';
  const std::size_t chunk = submitted_chunk(out);
  std::vector<std::size_t> tasks;
  for (const SweepRow& r : table.rows) {
    if (r.status == "ok") continue;
    const std::string stem = point_stem(out, r.point->index);
    os << fmt::format("  point {} {}: {}{}\n", r.point->index, r.status, r.point->kernel->label,
                      r.status == "failed" ? " (see " + stem + ".err)" : "");
    if (chunk != 0) tasks.push_back(r.point->index / chunk);
  }
  if (!tasks.empty()) {
    tasks.erase(std::unique(tasks.begin(), tasks.end()), tasks.end());
    std::string list;
    for (const std::size_t t : tasks) list += (list.empty() ? "" : ",") + std::to_string(t);
    os << "  resubmit those tasks alone: warpsim sweep " << spec.path << " --slurm --tasks " << list
       << '\n';
  }
  return table.failed() + table.missing() == 0 ? kExitOk : kExitHazards;
}

po::options_description sweep_options() {
  po::options_description desc("options");
  desc.add_options()("spec", po::value<std::string>(), "the sweep's INI file")(
      "out", po::value<std::string>(),
      "the sweep's folder (default: SPEC's name + .out beside it)")(
      "jobs", count_value(0, 1024)->default_value(0), "points run at once here (0: one per core)")(
      "list", "list the points and their command lines; run nothing")(
      "collect", "gather the points done into results.csv and the plots; run nothing")(
      "slurm", "submit the points as a Slurm array job instead of running them here")(
      "partition", po::value<std::string>(), "--slurm: the partition")(
      "time", po::value<std::string>(), "--slurm: each task's time limit, as sbatch takes it")(
      "mem", po::value<std::string>(), "--slurm: each task's memory, as sbatch takes it")(
      "chunk", count_value(1), "points per array task (default: about 64 tasks)")(
      "wait", "--slurm: wait for the job to end, then collect")(
      "tasks", po::value<std::string>(),
      "--slurm: submit only these tasks (e.g. 3,7: a resubmission)")(
      "task", count_value(), "run the points of this array task (what each Slurm task runs)");
  return desc;
}

}  // namespace

int run_sweep(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const po::options_description desc = sweep_options();
  po::positional_options_description pos;
  pos.add("spec", 1);
  auto cl = parse_command_line("sweep SPEC", desc, pos, args, out, err);
  if (!cl) return kExitBadInput;
  if (cl->help) return kExitOk;
  const po::variables_map& v = cl->vars;
  if (!v.count("spec")) {
    err << "warpsim sweep: error: no spec file (warpsim sweep SPEC.ini)\n";
    return kExitBadInput;
  }
  const auto spec = read_sweep_spec(v["spec"].as<std::string>(), err);
  if (!spec) return kExitBadInput;
  const fs::path spec_path(spec->path);
  const std::string folder =
      v.count("out") ? v["out"].as<std::string>()
                     : (spec_path.parent_path() / (spec_path.stem().string() + ".out")).string();
  const std::vector<SweepPoint> points = sweep_points(*spec);
  if (v.count("list")) {
    for (const SweepPoint& p : points) {
      out << p.index << ": warpsim";
      for (const std::string& a : point_arguments(*spec, p, point_stem(folder, p.index) + ".json"))
        out << ' ' << a;
      out << '\n';
    }
    return kExitOk;
  }
  if (v.count("collect")) return collect(*spec, points, folder, out, err);
  const auto jobs = static_cast<unsigned>(v["jobs"].as<std::uint64_t>());
  const unsigned workers = jobs != 0 ? jobs : std::max(1u, std::thread::hardware_concurrency());
  if (v.count("task")) {
    const std::size_t chunk = v.count("chunk") ? v["chunk"].as<std::uint64_t>() : 1;
    const std::vector<SweepPoint> mine = task_points(points, v["task"].as<std::uint64_t>(), chunk);
    const SweepRunStats s = run_points(own_executable(), *spec, mine, folder, workers, false, err);
    out << fmt::format("sweep task {}: {} points run, {} already done, {} failed\n",
                       v["task"].as<std::uint64_t>(), s.ran, s.skipped, s.failed);
    return s.failed == 0 ? kExitOk : kExitHazards;
  }
  if (v.count("slurm")) {
    SlurmRequest request;
    if (v.count("partition")) request.partition = v["partition"].as<std::string>();
    if (v.count("time")) request.time = v["time"].as<std::string>();
    if (v.count("mem")) request.mem = v["mem"].as<std::string>();
    if (v.count("chunk")) request.chunk = v["chunk"].as<std::uint64_t>();
    request.wait = v.count("wait") != 0;
    if (v.count("tasks")) {
      const auto tasks = parse_tasks(v["tasks"].as<std::string>());
      if (!tasks) {
        err << "warpsim sweep: error: --tasks '" << v["tasks"].as<std::string>()
            << "': expected task numbers such as 3,7\n";
        return kExitBadInput;
      }
      request.tasks = *tasks;
    }
    const auto job = submit_sweep(own_executable(), *spec, points.size(), folder, request, err);
    if (!job) return kExitBadInput;
    out << "sweep: submitted Slurm job " << *job << " (" << folder << "/slurm/sweep.sbatch)\n";
    if (!request.wait) {
      out << "sweep: when it ends: warpsim sweep " << spec->path << " --collect\n";
      return kExitOk;
    }
    return collect(*spec, points, folder, out, err);
  }
  for (const char* slurm_only : {"partition", "time", "mem", "wait", "tasks"}) {
    if (v.count(slurm_only)) {
      err << "warpsim sweep: error: --" << slurm_only << " needs --slurm\n";
      return kExitBadInput;
    }
  }
  const SweepRunStats s = run_points(own_executable(), *spec, points, folder, workers,
                                     ProgressLine::stderr_is_terminal(), err);
  out << fmt::format("sweep: ran {} points on {} worker{} ({} already done)\n", s.ran, workers,
                     workers == 1 ? "" : "s", s.skipped);
  return collect(*spec, points, folder, out, err);
}

}  // namespace warpsim::cli
