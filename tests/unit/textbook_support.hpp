// The textbook CUDA kernels (kernels_cuda/textbook/), compiled by nvcc and imported, run under
// their launch files; the tests compare each output with a C++ reference. Without nvcc
// the tests say so and pass nothing.
#pragma once

#include <cmath>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "sim/import/toolkit.hpp"
#include "tests/unit/run_support.hpp"
#include "tools/warpsim/kernel_input.hpp"

namespace warpsim::test {

inline bool have_nvcc() {
  static const bool found = toolkit::find_program("nvcc").has_value();
  if (!found) MESSAGE("nvcc is not installed: the textbook CUDA kernels are not compiled here");
  return found;
}

struct TextbookRun {
  KernelRun kernel;
  exec::LaunchResult result;
  template <typename T>
  std::vector<T> initial(const std::string& buffer) const {
    return values_of<T>(kernel.initial, buffer);
  }
  template <typename T>
  std::vector<T> final(const std::string& buffer) const {
    return values_of<T>(result.memory, buffer);
  }
};

// The kernel under the launch of its launch file (kernels_cuda/textbook/NAME.launch).
inline TextbookRun run_textbook(const std::string& file) {
  const auto path = source_dir() / "kernels_cuda" / "textbook" / file;
  cli::InputOptions input;
  input.launch_file = (path.parent_path() / (path.stem().string() + ".launch")).string();
  ir::LoadedModule loaded = cli::load_kernel_file(path.string(), input);
  TextbookRun r{resolved({std::move(loaded), {}, {}}), {}};
  r.result = r.kernel.run();
  return r;
}

// |got - want| within `relative` of the magnitude of the terms that made `want`
// (`scale`, at least 1): float sums in another order, or fused where the reference is not.
inline bool close(double got, double want, double scale, double relative = 1e-5) {
  return std::fabs(got - want) <= relative * std::max(1.0, scale);
}

}  // namespace warpsim::test
