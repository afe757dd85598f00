// The seed kernels as CUDA C++ (kernels_cuda/), compiled by nvcc and imported, against their
// hand-written IR (kernels_ir/) under the same launches: the same output buffers bit for bit,
// and the same memory counters. Skipped, with a message, where nvcc is not installed.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/import/toolkit.hpp"
#include "tests/unit/run_support.hpp"
#include "tools/warpsim/kernel_input.hpp"

namespace warpsim::test {
namespace {

namespace fs = std::filesystem;

// The launch blocks of a .kir file, as a launch file for the imported kernel.
std::string launch_blocks(const fs::path& kir) {
  std::ifstream in(kir);
  std::string line, out;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.rfind("launch ", 0) == 0) inside = true;
    if (inside) out += line + "\n";
    if (inside && line == "}") inside = false;
  }
  return out;
}

TEST_CASE("every seed kernel written in CUDA gives its IR twin's outputs and memory counters") {
  if (!toolkit::find_program("nvcc")) {
    MESSAGE("nvcc is not installed: the CUDA seed kernels are not compiled here");
    return;
  }
  const fs::path cuda_dir = source_dir() / "kernels_cuda";
  const fs::path scratch = fs::temp_directory_path() / "warpsim_cuda_import_test";
  fs::create_directories(scratch);
  std::size_t compared = 0;
  for (const auto& entry : fs::directory_iterator(cuda_dir)) {
    if (entry.path().extension() != ".cu") continue;
    const fs::path kir = source_dir() / "kernels_ir" / (entry.path().stem().string() + ".kir");
    if (!fs::exists(kir)) continue;
    CAPTURE(entry.path().string());
    const fs::path launches = scratch / (entry.path().stem().string() + ".launch");
    std::ofstream(launches) << launch_blocks(kir);
    cli::InputOptions options;
    options.launch_file = launches.string();
    const ir::LoadedModule imported = cli::load_kernel_file(entry.path().string(), options);
    std::ostringstream diags;
    imported.diags.render(diags);
    INFO(diags.str());
    REQUIRE(imported.ok());
    const ir::LoadedModule reference = ir::load_module_file(kir.string());
    REQUIRE(reference.ok());
    for (const ir::Launch& l : reference.module.launches) {
      CAPTURE(l.name);
      cli::LaunchOverrides o;
      o.launch_name = l.name;
      const KernelRun a = resolved({imported, {}, {}}, o);
      const KernelRun b = resolved({reference, {}, {}}, o);
      const exec::LaunchResult ra = a.run(), rb = b.run();
      REQUIRE(ra.memory.buffers.size() == rb.memory.buffers.size());
      for (std::size_t i = 0; i < ra.memory.buffers.size(); ++i) {
        CAPTURE(ra.memory.buffers[i].name);
        CHECK(ra.memory.buffers[i].bytes == rb.memory.buffers[i].bytes);
      }
      const exec::MemoryStats& ma = ra.stats.memory;
      const exec::MemoryStats& mb = rb.stats.memory;
      for (std::size_t op = 0; op < ma.global.size(); ++op) {
        CAPTURE(op);
        CHECK(ma.global[op].requests == mb.global[op].requests);
        CHECK(ma.global[op].sectors == mb.global[op].sectors);
      }
      for (std::size_t op = 0; op < ma.shared.size(); ++op) {
        CAPTURE(op);
        CHECK(ma.shared[op].instructions == mb.shared[op].instructions);
        CHECK(ma.shared[op].wavefronts == mb.shared[op].wavefronts);
        CHECK(ma.dsmem[op].instructions == mb.dsmem[op].instructions);
        CHECK(ma.dsmem[op].wavefronts == mb.dsmem[op].wavefronts);
      }
      ++compared;
    }
  }
  CHECK(compared >= 11);  // every seed kernel's launches, clusterHist_kernel's among them
}

}  // namespace
}  // namespace warpsim::test

namespace warpsim::test {
namespace {

TEST_CASE("occupancy FILE takes the kernel's shared memory and its first launch's block") {
  // smem_transpose: a 32 x 32 f32 tile = 4096 bytes; its launch's blocks of 32 x 32 = 1024
  // threads, 32 warps, so 2 blocks fill the 64 warps of an H200 SM.
  const auto r = run_cli({"occupancy", (source_dir() / "kernels_ir/smem_transpose.kir").string()});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("4096 B of shared memory per block") != std::string::npos);
  CHECK(r.out.find("1024 threads per block") != std::string::npos);
  CHECK(r.out.find("2 blocks per SM") != std::string::npos);
  const auto bad =
      run_cli({"occupancy", (source_dir() / "kernels_ir/vecAdd.kir").string(), "--regs", "40"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("leave out --regs and --smem") != std::string::npos);
}

}  // namespace
}  // namespace warpsim::test
