// CUDA source compiled by nvcc and imported in-process, as `warpsim run FILE.cu` does, for tests
// that skip, saying so, where nvcc is not installed.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "sim/import/toolkit.hpp"
#include "tests/unit/run_support.hpp"
#include "tools/warpsim/kernel_input.hpp"

namespace warpsim::test {

// Whether nvcc is found; if not, a message that `what` (what the test skips).
inline bool have_nvcc(const std::string& what) {
  if (toolkit::find_program("nvcc")) return true;
  const std::string why = "nvcc is not installed: " + what;
  MESSAGE(why);
  return false;
}

// Writes `cu` and `launch` as NAME.cu and NAME.launch into a scratch folder; NAME.cu's path.
inline std::filesystem::path write_cuda(const std::string& name, const std::string& cu,
                                        const std::string& launch) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("warpsim_" + name);
  fs::create_directories(dir);
  std::ofstream(dir / (name + ".cu")) << cu;
  std::ofstream(dir / (name + ".launch")) << launch;
  return dir / (name + ".cu");
}

// Writes the kernel (write_cuda), imports it with nvcc and runs it functionally on the IR.
inline exec::LaunchResult run_cuda(const std::string& name, const std::string& cu,
                                   const std::string& launch) {
  const std::filesystem::path path = write_cuda(name, cu, launch);
  cli::InputOptions options;
  options.launch_file = path.parent_path().append(name + ".launch").string();
  const ir::LoadedModule m = cli::load_kernel_file(path.string(), options);
  std::ostringstream diags;
  m.diags.render(diags);
  INFO(diags.str());
  REQUIRE(m.ok());
  return resolved(KernelRun{m, {}, {}}).run();
}

}  // namespace warpsim::test
