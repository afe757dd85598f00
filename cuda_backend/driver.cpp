#include "cuda_backend/driver.hpp"

#include <dlfcn.h>

#include <type_traits>

namespace warpsim::cuda {

const Driver& Driver::get() {
  static const Driver d = [] {
    Driver r;
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) {
      r.missing = "no CUDA driver (libcuda.so.1 cannot be loaded)";
      return r;
    }
    auto resolve = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
      if (fn == nullptr && r.missing.empty()) r.missing = std::string("the driver lacks ") + name;
    };
    resolve(r.init, "cuInit");
    resolve(r.error_string, "cuGetErrorString");
    resolve(r.device_get, "cuDeviceGet");
    resolve(r.device_name, "cuDeviceGetName");
    resolve(r.device_attribute, "cuDeviceGetAttribute");
    resolve(r.retain, "cuDevicePrimaryCtxRetain");
    resolve(r.set_current, "cuCtxSetCurrent");
    resolve(r.load, "cuModuleLoadDataEx");
    resolve(r.unload, "cuModuleUnload");
    resolve(r.function, "cuModuleGetFunction");
    resolve(r.get_attribute, "cuFuncGetAttribute");
    resolve(r.set_attribute, "cuFuncSetAttribute");
    resolve(r.alloc, "cuMemAlloc_v2");
    resolve(r.free, "cuMemFree_v2");
    resolve(r.to_device, "cuMemcpyHtoD_v2");
    resolve(r.to_host, "cuMemcpyDtoH_v2");
    resolve(r.launch, "cuLaunchKernelEx");
    resolve(r.synchronize, "cuCtxSynchronize");
    resolve(r.occupancy, "cuOccupancyMaxActiveBlocksPerMultiprocessor");
    return r;
  }();
  return d;
}

std::string Driver::describe(CUresult r, const char* what) const {
  const char* text = nullptr;
  error_string(r, &text);
  return std::string(what) + ": " + (text != nullptr ? text : "unknown CUDA error");
}

}  // namespace warpsim::cuda
