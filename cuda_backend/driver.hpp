// The CUDA driver API entry points warpsim uses, looked up in libcuda.so.1 once at run time
// (dlopen), so warpsim runs where there is no driver and can say why it cannot use one.
#pragma once

#include <cuda.h>

#include <string>

namespace warpsim::cuda {

struct Driver {
  decltype(&::cuInit) init = nullptr;
  decltype(&::cuGetErrorString) error_string = nullptr;
  decltype(&::cuDeviceGet) device_get = nullptr;
  decltype(&::cuDeviceGetName) device_name = nullptr;
  decltype(&::cuDeviceGetAttribute) device_attribute = nullptr;
  decltype(&::cuDevicePrimaryCtxRetain) retain = nullptr;
  decltype(&::cuCtxSetCurrent) set_current = nullptr;
  decltype(&::cuModuleLoadDataEx) load = nullptr;
  decltype(&::cuModuleUnload) unload = nullptr;
  decltype(&::cuModuleGetFunction) function = nullptr;
  decltype(&::cuModuleGetGlobal) global = nullptr;
  decltype(&::cuFuncGetAttribute) get_attribute = nullptr;
  decltype(&::cuFuncSetAttribute) set_attribute = nullptr;
  decltype(&::cuMemAlloc) alloc = nullptr;
  decltype(&::cuMemFree) free = nullptr;
  decltype(&::cuMemcpyHtoD) to_device = nullptr;
  decltype(&::cuMemcpyDtoH) to_host = nullptr;
  decltype(&::cuLaunchKernelEx) launch = nullptr;
  decltype(&::cuCtxSynchronize) synchronize = nullptr;
  decltype(&::cuOccupancyMaxActiveBlocksPerMultiprocessor) occupancy = nullptr;
  std::string missing;  // why the driver cannot be used; empty when it can

  static const Driver& get();
  // "what: the driver's text for r".
  std::string describe(CUresult r, const char* what) const;
};

}  // namespace warpsim::cuda
