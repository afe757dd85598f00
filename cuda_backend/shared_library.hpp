// A shared library opened at run time (the CUDA driver, CUPTI), so that warpsim builds and runs
// where they are not installed: the first of several candidate names that loads, and its
// functions looked up by name. The library stays loaded for the process's life.
#pragma once

#include <dlfcn.h>

#include <initializer_list>
#include <string>
#include <type_traits>

namespace warpsim::cuda {

class SharedLibrary {
 public:
  // The first candidate that loads (null entries are skipped); loaded() says whether any did.
  explicit SharedLibrary(std::initializer_list<const char*> candidates) {
    for (const char* path : candidates) {
      if (path != nullptr && handle_ == nullptr) handle_ = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    }
  }
  bool loaded() const { return handle_ != nullptr; }

  // Sets `fn` to the library's function `name`; when it lacks one, the first such name is kept
  // in `missing` after `what` ("the driver lacks cuInit").
  template <typename Fn>
  void resolve(Fn& fn, const char* name, const std::string& what, std::string& missing) const {
    fn = reinterpret_cast<std::remove_reference_t<Fn>>(dlsym(handle_, name));
    if (fn == nullptr && missing.empty()) missing = what + " lacks " + name;
  }

 private:
  void* handle_ = nullptr;
};

}  // namespace warpsim::cuda
