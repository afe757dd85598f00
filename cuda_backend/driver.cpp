#include "cuda_backend/driver.hpp"

#include "cuda_backend/shared_library.hpp"

namespace warpsim::cuda {

const Driver& Driver::get() {
  static const Driver d = [] {
    Driver r;
    const SharedLibrary lib({"libcuda.so.1"});
    if (!lib.loaded()) {
      r.missing = "no CUDA driver (libcuda.so.1 cannot be loaded)";
      return r;
    }
    auto resolve = [&](auto& fn, const char* name) {
      lib.resolve(fn, name, "the driver", r.missing);
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
    resolve(r.global, "cuModuleGetGlobal_v2");
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
