#include "sim/import/toolkit.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

extern char** environ;

namespace warpsim::toolkit {
namespace {

namespace fs = std::filesystem;

bool is_executable(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0;
}

// A scratch file that is removed when this goes out of scope.
class ScratchFile {
 public:
  explicit ScratchFile(const std::string& suffix) {
    std::string pattern = (fs::temp_directory_path() / "warpsim-XXXXXX").string() + suffix;
    const int fd = mkstemps(pattern.data(), static_cast<int>(suffix.size()));
    if (fd >= 0) {
      close(fd);
      path_ = pattern;
    }
  }
  ~ScratchFile() {
    if (!path_.empty()) {
      std::error_code ec;
      fs::remove(path_, ec);
    }
  }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  const std::string& path() const { return path_; }
  bool ok() const { return !path_.empty(); }
  std::string read() const {
    std::ifstream in(path_, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }

 private:
  std::string path_;
};

}  // namespace

std::optional<std::string> find_program(const std::string& name) {
  std::vector<fs::path> dirs;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
    if (const char* v = std::getenv(var); v != nullptr && *v != '\0')
      dirs.push_back(fs::path(v) / "bin");
  }
  if (const char* path = std::getenv("PATH")) {
    std::string_view rest(path);
    while (!rest.empty()) {
      const std::size_t colon = rest.find(':');
      const std::string_view dir = rest.substr(0, colon);
      if (!dir.empty()) dirs.emplace_back(std::string(dir));
      if (colon == std::string_view::npos) break;
      rest.remove_prefix(colon + 1);
    }
  }
  dirs.emplace_back("/usr/local/cuda/bin");
  for (const fs::path& d : dirs) {
    if (is_executable(d / name)) return (d / name).string();
  }
  return std::nullopt;
}

ProgramRun run_program(const std::vector<std::string>& argv) {
  ProgramRun run;
  ScratchFile output(".log");
  if (!output.ok() || argv.empty()) return run;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output.path().c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return run;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return run;
  }
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.output = output.read();
  return run;
}

Compiled compile_to_ptx(const std::string& cu_path, const CompileOptions& options) {
  const auto nvcc = find_program("nvcc");
  if (!nvcc) {
    return {std::nullopt,
            "nvcc was not found (looked in $CUDA_HOME/bin, $CUDA_PATH/bin, PATH and "
            "/usr/local/cuda/bin): install the CUDA toolkit, or import the PTX instead"};
  }
  ScratchFile ptx(".ptx");
  if (!ptx.ok()) return {std::nullopt, "cannot create a scratch file for nvcc's PTX"};
  std::vector<std::string> argv = {*nvcc, "-arch=" + options.arch, "-O3", "-lineinfo", "-ptx"};
  argv.insert(argv.end(), options.extra_flags.begin(), options.extra_flags.end());
  argv.insert(argv.end(), {"-o", ptx.path(), cu_path});
  const ProgramRun run = run_program(argv);
  if (run.exit_code != 0) {
    std::string command;
    for (std::size_t i = 0; i < argv.size(); ++i) {
      if (argv[i] == ptx.path() || argv[i] == "-o") continue;
      command += (command.empty() ? "" : " ") + (i == 0 ? std::string("nvcc") : argv[i]);
    }
    return {std::nullopt, "nvcc failed (" + command + ")" +
                              (run.exit_code < 0 ? std::string(": it could not be started")
                                                 : ":\n" + run.output)};
  }
  return {ptx.read(), ""};
}

}  // namespace warpsim::toolkit
