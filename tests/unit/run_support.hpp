// Running a kernel file in-process for tests: its launch resolved as `warpsim run` would, the
// initial buffers (for computing references) and the result.
#pragma once

#include <cstring>
#include <sstream>

#include "sim/core/exec/executor.hpp"
#include "tests/unit/test_support.hpp"
#include "tools/warpsim/launch_options.hpp"

namespace warpsim::test {

struct KernelRun {
  ir::LoadedModule loaded;
  exec::LaunchSpec spec;
  exec::GlobalMemory initial;

  exec::LaunchResult run(const exec::ExecOptions& options = {}) const {
    return exec::execute(loaded.module, spec, options);
  }
};

// `k.loaded` filled: its launch resolved (with `o`) and its initial buffers allocated.
inline KernelRun resolved(KernelRun k, const cli::LaunchOverrides& o = {}) {
  std::ostringstream diags;
  k.loaded.diags.render(diags);
  INFO(diags.str());
  REQUIRE(k.loaded.ok());
  std::ostringstream err;
  auto spec = cli::resolve_launch(k.loaded, o, err);
  INFO(err.str());
  REQUIRE(spec.has_value());
  k.spec = *spec;
  k.initial = exec::GlobalMemory::allocate(k.spec);
  return k;
}

inline KernelRun load_kernel(const std::string& file, const cli::LaunchOverrides& o = {}) {
  return resolved({ir::load_module_file((source_dir() / "kernels_ir" / file).string()), {}, {}}, o);
}

// A kernel file's text, as load_kernel does for a file.
inline KernelRun load_kernel_text(const std::string& name, const std::string& text) {
  return resolved({ir::load_module_text(name, text), {}, {}});
}

template <typename T>
std::vector<T> values_of(const exec::GlobalMemory& memory, const std::string& buffer) {
  const exec::GlobalBuffer* b = memory.find(buffer);
  REQUIRE(b != nullptr);
  std::vector<T> v(b->bytes.size() / sizeof(T));
  std::memcpy(v.data(), b->bytes.data(), b->bytes.size());
  return v;
}

}  // namespace warpsim::test
