// `warpsim sweep`: the points of a spec, run here on two workers, resumed, gathered into one
// CSV; and the same sweep through a real single-node Slurm (tools/slurm_local.sh), whose rows
// must equal the local run's. The sweep runs points as processes of the warpsim binary.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/unit/test_support.hpp"

namespace warpsim::test {
namespace {

namespace fs = std::filesystem;

struct Ran {
  int exit_code = 0;
  std::string out;
};

// Runs a shell command line, its standard output and error captured.
Ran shell(const std::string& command) {
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  REQUIRE(p != nullptr);
  std::string text;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, p) != nullptr) text += buffer;
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text};
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// 4 small kernels x 3 scheduler policies x 2 L2 sizes: 24 timing points.
fs::path write_spec(const fs::path& dir) {
  fs::create_directories(dir);
  fs::path spec = dir / "sweep.ini";
  const std::string k = (source_dir() / "kernels_ir").string();
  std::ofstream(spec) << "[sweep]\nmode = timing\nkernels = " << k << "/warp_divergence.kir, " << k
                      << "/example_syncthreads.kir, " << k << "/compute.kir, " << k
                      << "/saxpy.kir\n[axes]\ntiming.scheduler = lrr, gto, two_level\n"
                         "gpu.l2_bytes = 4194304, 62914560\n";
  return spec;
}

std::string sweep(const fs::path& spec, const std::string& extra) {
  std::ostringstream command;
  command << WARPSIM_BINARY << " sweep " << spec.string() << " " << extra;
  return command.str();
}

}  // namespace

TEST_CASE("a local sweep runs every point once, resumes, and gathers one row per point") {
  const fs::path dir = fs::temp_directory_path() / "warpsim_sweep_local";
  fs::remove_all(dir);
  const fs::path spec = write_spec(dir);
  const Ran first = shell(sweep(spec, "--jobs 2 --out " + (dir / "out").string()));
  INFO(first.out);
  REQUIRE(first.exit_code == 0);
  CHECK(first.out.find("ran 24 points") != std::string::npos);
  const std::string csv = read(dir / "out" / "results.csv");
  // A header and 24 rows, each ok, each with the point's axis values and its cycles.
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 25);
  CHECK(csv.rfind("point,kernel,launch,config,timing.scheduler,gpu.l2_bytes,status,", 0) == 0);
  CHECK(csv.find(",gpc__cycles_elapsed.max,") != std::string::npos);
  CHECK(csv.find(",failed,") == std::string::npos);
  CHECK(fs::exists(dir / "out" / "plot_timing_scheduler.svg"));
  CHECK(read(dir / "out" / "points" / "0007.args").find("--set timing.scheduler=") !=
        std::string::npos);
  // Run again: nothing left to run, the same rows. Remove one point: only it runs.
  const Ran again = shell(sweep(spec, "--jobs 2 --out " + (dir / "out").string()));
  CHECK(again.out.find("ran 0 points") != std::string::npos);
  fs::remove(dir / "out" / "points" / "0005.json");
  const Ran resumed = shell(sweep(spec, "--jobs 1 --out " + (dir / "out").string()));
  CHECK(resumed.out.find("ran 1 points") != std::string::npos);
  CHECK(read(dir / "out" / "results.csv") == csv);
}

TEST_CASE("a sweep spec's mistakes are located errors") {
  const fs::path dir = fs::temp_directory_path() / "warpsim_sweep_bad";
  fs::create_directories(dir);
  const fs::path spec = dir / "bad.ini";
  std::ofstream(spec) << "[sweep]\nkernels = nothing_here.kir\nspeed = fast\n[axes]\nscheduler = "
                         "lrr\n";
  const Ran r = shell(sweep(spec, "--list"));
  CHECK(r.exit_code == 2);
  CHECK(r.out.find("bad.ini:2: error: no kernel file 'nothing_here.kir'") != std::string::npos);
  CHECK(r.out.find("bad.ini:3: error: unknown key 'speed'") != std::string::npos);
  CHECK(r.out.find("bad.ini:5: error: an axis is a config key") != std::string::npos);
  CHECK(shell(sweep(dir / "missing.ini", "")).exit_code == 2);
  CHECK(shell(sweep(write_spec(dir), "--wait")).exit_code == 2);  // --wait needs --slurm
}

TEST_CASE("a sweep through a single-node Slurm gives the local run's rows") {
  const fs::path slurm = fs::temp_directory_path() / "warpsim_slurm";
  const std::string script = (source_dir() / "tools" / "slurm_local.sh").string();
  const Ran up = shell("SLURM_LOCAL_PORT=6917 " + script + " start " + slurm.string());
  // 77: no slurm-wlm or munge, or not root; 1: the daemons did not come up (the script says
  // why, e.g. a machine that forbids them). Either way there is no Slurm here to test with.
  if (up.exit_code == 77 || up.exit_code == 1) {
    MESSAGE("skipped, no single-node Slurm here: " << up.out);
    return;
  }
  REQUIRE_MESSAGE(up.exit_code == 0, up.out);
  // The daemons stop however the test ends.
  struct Stop {
    std::string command;
    ~Stop() { std::system(command.c_str()); }
  } stop{script + " stop " + slurm.string() + " > /dev/null 2>&1"};
  const std::string conf = "SLURM_CONF=" + (slurm / "slurm.conf").string() + " ";
  const fs::path dir = fs::temp_directory_path() / "warpsim_sweep_slurm";
  fs::remove_all(dir);
  const fs::path spec = write_spec(dir);
  // Locally, then as an array job of 6 tasks of 4 points.
  REQUIRE(shell(sweep(spec, "--jobs 2 --out " + (dir / "local").string())).exit_code == 0);
  const Ran job =
      shell(conf + sweep(spec, "--slurm --wait --chunk 4 --out " + (dir / "slurm").string()));
  INFO(job.out);
  CHECK(job.exit_code == 0);
  CHECK(job.out.find("submitted Slurm job") != std::string::npos);
  CHECK(read(dir / "slurm" / "results.csv") == read(dir / "local" / "results.csv"));
  // A lost point is listed with its task, and resubmitting that task alone brings it back.
  fs::remove(dir / "slurm" / "points" / "0013.json");
  const Ran collected = shell(sweep(spec, "--collect --out " + (dir / "slurm").string()));
  CHECK(collected.exit_code == 1);
  CHECK(collected.out.find("--slurm --tasks 3") != std::string::npos);  // point 13 / 4 points
  const Ran again =
      shell(conf + sweep(spec, "--slurm --wait --tasks 3 --out " + (dir / "slurm").string()));
  CHECK(again.exit_code == 0);
  CHECK(read(dir / "slurm" / "results.csv") == read(dir / "local" / "results.csv"));
}

}  // namespace warpsim::test
