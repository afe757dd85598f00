#include "tools/warpsim/sweep_runner.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>

extern char** environ;

namespace warpsim::cli {
namespace {

namespace fs = std::filesystem;

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Starts `warpsim args...` with standard output discarded and standard error to `stderr_path`.
pid_t start(const std::string& warpsim, const std::vector<std::string>& args,
            const std::string& stderr_path) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderr_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> owned = {warpsim};
  owned.insert(owned.end(), args.begin(), args.end());
  std::vector<char*> argv;
  argv.reserve(owned.size() + 1);
  for (std::string& a : owned) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, warpsim.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  return rc == 0 ? pid : -1;
}

}  // namespace

std::string point_stem(const std::string& out, std::size_t index) {
  return (fs::path(out) / "points" / fmt::format("{:04}", index)).string();
}

std::string own_executable() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("warpsim") : self.string();
}

SweepRunStats run_points(const std::string& warpsim, const SweepSpec& spec,
                         const std::vector<SweepPoint>& points, const std::string& out,
                         unsigned jobs, bool progress, std::ostream& err) {
  fs::create_directories(fs::path(out) / "points");
  SweepRunStats stats;
  std::map<pid_t, const SweepPoint*> running;
  std::size_t next = 0, finished = 0;
  const auto draw = [&] {
    if (!progress) return;
    err << fmt::format("\rsweep: {} of {} points done, {} running, {} failed   ", finished,
                       points.size(), running.size(), stats.failed)
        << std::flush;
  };
  const auto finish = [&](const SweepPoint& p, int status) {
    const std::string stem = point_stem(out, p.index);
    const bool ok =
        WIFEXITED(status) && WEXITSTATUS(status) == 0 && fs::exists(stem + ".json.part");
    if (ok) {
      fs::rename(stem + ".json.part", stem + ".json");
      fs::remove(stem + ".err.part");
      fs::remove(stem + ".err");
    } else {
      std::ofstream e(stem + ".err");
      e << (WIFEXITED(status) ? fmt::format("exit {}\n", WEXITSTATUS(status))
                              : fmt::format("killed by signal {}\n", WTERMSIG(status)))
        << read_all(stem + ".err.part");
      fs::remove(stem + ".err.part");
      fs::remove(stem + ".json.part");
      ++stats.failed;
    }
    ++finished;
  };
  while (next < points.size() || !running.empty()) {
    while (next < points.size() && running.size() < std::max(1u, jobs)) {
      const SweepPoint& p = points[next++];
      const std::string stem = point_stem(out, p.index);
      if (fs::exists(stem + ".json")) {
        ++stats.skipped;
        ++finished;
        continue;
      }
      const std::vector<std::string> args = point_arguments(spec, p, stem + ".json.part");
      std::ofstream record(stem + ".args");
      record << "warpsim";
      for (const std::string& a : args) record << ' ' << a;
      record << '\n';
      const pid_t pid = start(warpsim, args, stem + ".err.part");
      if (pid < 0) {
        finish(p, 127 << 8);
        continue;
      }
      running.emplace(pid, &p);
      ++stats.ran;
    }
    draw();
    if (running.empty()) continue;
    int status = 0;
    const pid_t done = waitpid(-1, &status, 0);
    const auto it = running.find(done);
    if (it == running.end()) continue;
    finish(*it->second, status);
    running.erase(it);
    draw();
  }
  if (progress) err << '\r' << std::string(60, ' ') << '\r' << std::flush;
  return stats;
}

}  // namespace warpsim::cli
