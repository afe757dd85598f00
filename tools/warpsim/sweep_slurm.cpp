#include "tools/warpsim/sweep_slurm.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <ostream>

namespace warpsim::cli {
namespace {

namespace fs = std::filesystem;

// Single-quoted for the shell.
std::string quoted(const std::string& s) {
  std::string q = "'";
  for (const char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

std::vector<SweepPoint> task_points(const std::vector<SweepPoint>& all, std::size_t task,
                                    std::size_t chunk) {
  std::vector<SweepPoint> out;
  for (std::size_t i = task * chunk; i < all.size() && i < (task + 1) * chunk; ++i) {
    out.push_back(all[i]);
  }
  return out;
}

std::size_t submitted_chunk(const std::string& out) {
  std::ifstream in(fs::path(out) / "slurm" / "chunk");
  std::size_t chunk = 0;
  in >> chunk;
  return chunk;
}

std::optional<std::string> submit_sweep(const std::string& warpsim, const SweepSpec& spec,
                                        std::size_t points, const std::string& out,
                                        SlurmRequest request, std::ostream& err) {
  const fs::path dir = fs::absolute(fs::path(out) / "slurm");
  fs::create_directories(dir);
  if (request.chunk == 0) {
    const std::size_t earlier = submitted_chunk(out);
    request.chunk = earlier != 0 ? earlier : std::max<std::size_t>(1, (points + 63) / 64);
  }
  const std::size_t tasks = (points + request.chunk - 1) / request.chunk;
  std::string array;
  if (request.tasks.empty()) {
    array = fmt::format("0-{}", tasks - 1);
  } else {
    for (const std::size_t t : request.tasks) {
      if (t >= tasks) {
        err << fmt::format("warpsim sweep: error: --tasks {}: the sweep has tasks 0 to {}\n", t,
                           tasks - 1);
        return std::nullopt;
      }
      array += (array.empty() ? "" : ",") + std::to_string(t);
    }
  }
  std::ofstream(dir / "chunk") << request.chunk << '\n';
  const fs::path script = dir / "sweep.sbatch";
  {
    std::ofstream s(script);
    s << "#!/bin/sh\n";
    s << "#SBATCH --job-name=warpsim-sweep\n";
    s << "#SBATCH --array=" << array << '\n';
    s << "#SBATCH --output=" << (dir / "task_%a.log").string() << '\n';
    s << "#SBATCH --cpus-per-task=1\n";
    if (!request.partition.empty()) s << "#SBATCH --partition=" << request.partition << '\n';
    if (!request.time.empty()) s << "#SBATCH --time=" << request.time << '\n';
    if (!request.mem.empty()) s << "#SBATCH --mem=" << request.mem << '\n';
    s << "# Task i runs points [i * " << request.chunk << ", (i + 1) * " << request.chunk
      << ") of the sweep.\n";
    s << "exec " << quoted(warpsim) << " sweep " << quoted(fs::absolute(spec.path).string())
      << " --out " << quoted(fs::absolute(out).string()) << " --chunk " << request.chunk
      << " --task \"$SLURM_ARRAY_TASK_ID\"\n";
  }
  const std::string command = fmt::format("sbatch --parsable {}{} 2>&1",
                                          request.wait ? "--wait " : "", quoted(script.string()));
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    err << "warpsim sweep: error: cannot run sbatch\n";
    return std::nullopt;
  }
  std::string text;
  char buffer[256];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) text += buffer;
  const int status = pclose(pipe);
  // --parsable prints "jobid[;cluster]"; with --wait, sbatch exits with the job's status.
  const std::string id = text.substr(0, text.find_first_of(";\n"));
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
    err << "warpsim sweep: error: sbatch failed: " << text;
    return std::nullopt;
  }
  if (request.wait && status != 0) {
    err << "warpsim sweep: job " << id << " ended with some tasks failed; --collect lists them\n";
  }
  return id;
}

}  // namespace warpsim::cli
