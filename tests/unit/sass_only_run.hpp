// A CUDA kernel of kernels_cuda/FOLDER run on its SASS. Where the IR does not import it, the
// importer keeps its parameters for the launch (ptx::ImportOptions::bodies_optional) and the
// SASS executor runs ptxas's code.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "tests/unit/run_support.hpp"
#include "tools/warpsim/kernel_input.hpp"
#include "tools/warpsim/sass_frontend.hpp"

namespace warpsim::test {

struct SassOnlyRun {
  KernelRun kernel;
  exec::LaunchResult result;
};

// The kernel of the CUDA file at `path`, launched as the .launch file beside it says, on its SASS.
// `ir_imports`: whether the IR imports the kernel's body too (checked either way).
// `launch`: the launch block to run (default: the file's first).
inline SassOnlyRun run_sass_file(const std::filesystem::path& path, bool ir_imports,
                                 const std::string& launch = {}) {
  cli::InputOptions input;
  input.launch_file = (path.parent_path() / (path.stem().string() + ".launch")).string();
  input.sass_frontend = true;
  cli::LaunchOverrides overrides;
  overrides.launch_name = launch;
  SassOnlyRun r{resolved({cli::load_kernel_file(path.string(), input), {}, {}}, overrides), {}};
  // Where the IR holds no body, the import said why, and only the SASS can run it.
  CHECK(r.kernel.spec.kernel->sass_only.empty() == ir_imports);
  std::string error;
  auto result = cli::run_on_sass(r.kernel.loaded.module, r.kernel.spec, "sm_90", {}, error);
  INFO(error);
  REQUIRE(result.has_value());
  r.result = std::move(*result);
  return r;
}

inline SassOnlyRun run_sass_only(const std::string& folder, const std::string& file,
                                 bool ir_imports = false) {
  return run_sass_file(source_dir() / "kernels_cuda" / folder / file, ir_imports);
}

}  // namespace warpsim::test
