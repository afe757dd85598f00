#include "cuda_backend/gpu_runner.hpp"

#include <cuda.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "cuda_backend/driver.hpp"
#include "cuda_backend/l2_flush.hpp"
#include "cuda_backend/ptx.hpp"
#include "cuda_backend/stdout_capture.hpp"
#if WARPSIM_HAVE_CUPTI
#include "cuda_backend/cupti_counters.hpp"
#endif
#include "sim/core/exec/global_memory.hpp"
#include "sim/core/exec/values.hpp"
#include "sim/metrics/metric_table.hpp"

namespace warpsim::cuda {
namespace {

class Runner {
 public:
  Runner(const Driver& d, std::string& error) : d_(d), error_(error) {}
  ~Runner() {
    for (CUdeviceptr p : allocations_) d_.free(p);
    if (module_ != nullptr) d_.unload(module_);
  }

  bool ok(CUresult r, const char* what) {
    if (r == CUDA_SUCCESS) return true;
    error_ = d_.describe(r, what);
    return false;
  }

  std::optional<GpuRun> run(const ir::Module& module, const exec::LaunchSpec& launch, Replay replay,
                            bool flush_l2, const GpuCode* code) {
    GpuRun out;
    CUdevice device = 0;
    CUcontext context = nullptr;
    char name[256] = {};
    if (!ok(d_.init(0), "cuInit") || !ok(d_.device_get(&device, 0), "cuDeviceGet") ||
        !ok(d_.device_name(name, sizeof name, device), "cuDeviceGetName") ||
        !ok(d_.retain(&context, device), "cuDevicePrimaryCtxRetain") ||
        !ok(d_.set_current(context), "cuCtxSetCurrent")) {
      return std::nullopt;
    }
    out.device = name;
    const std::string ptx = code != nullptr ? code->ptx : lower_to_ptx(module);
    const std::string entry = code != nullptr ? code->entry : launch.kernel->name;
    CUfunction fn = nullptr;
    if (!ok(d_.load(&module_, ptx.c_str(), 0, nullptr, nullptr), "cuModuleLoadDataEx (PTX)") ||
        !ok(d_.function(&fn, module_, entry.c_str()), "cuModuleGetFunction")) {
      return std::nullopt;
    }
    d_.get_attribute(&out.registers_per_thread, CU_FUNC_ATTRIBUTE_NUM_REGS, fn);
    d_.get_attribute(&out.static_shared_bytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn);
    if (!ok(d_.set_attribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                             static_cast<int>(launch.dynamic_smem)),
            "cuFuncSetAttribute(max dynamic shared memory)")) {
      return std::nullopt;
    }
    std::vector<std::uint64_t> values;  // one slot per parameter, read by the driver
    if (!pass_parameters(launch, out, values)) return std::nullopt;
    std::vector<void*> params;
    params.reserve(values.size());
    for (std::uint64_t& v : values) params.push_back(&v);
    // nvcc's entry passes a struct by value: the driver takes one pointer per PTX parameter,
    // here into the parameter buffer laid out as the importer found it.
    std::vector<std::uint8_t> packed;
    const ir::PtxParams& layout = launch.kernel->ptx_params;
    if (code != nullptr && !layout.empty()) {
      packed.assign(layout.bytes, 0);
      for (std::size_t i = 0; i < values.size(); ++i) {
        const ir::ParamPlace& place = layout.places.at(i);
        std::memcpy(packed.data() + place.offset, &values[i],
                    std::min<std::size_t>(place.bytes, 8));
      }
      params.clear();
      for (const std::uint32_t start : layout.starts) params.push_back(packed.data() + start);
    }
    if (!ok(d_.occupancy(&out.blocks_per_sm, fn, static_cast<int>(launch.threads_per_block()),
                         launch.dynamic_smem),
            "cuOccupancyMaxActiveBlocksPerMultiprocessor")) {
      return std::nullopt;
    }
    CUlaunchAttribute cluster = {};
    CUlaunchConfig config = launch_config(launch, cluster);
    // The driver prints the kernel's printf output when the launch synchronises.
    StdoutCapture printed;
    if (!ok(d_.launch(&config, fn, params.data(), nullptr), "cuLaunchKernelEx") ||
        !ok(d_.synchronize(), "the kernel")) {
      return std::nullopt;
    }
    out.printed = printed.finish();
    const std::vector<exec::GlobalBuffer> initial = exec::GlobalMemory::allocate(launch).buffers;
    for (std::size_t i = 0; i < out.memory.buffers.size(); ++i) {
      exec::GlobalBuffer& b = out.memory.buffers[i];
      if (!ok(d_.to_host(b.bytes.data(), pointers_[i], device_bytes_[i]), "cuMemcpyDtoH")) {
        return std::nullopt;
      }
    }
#if WARPSIM_HAVE_CUPTI
    // The profiled passes run the kernel again: what they print is not the launch's output.
    StdoutCapture replayed;
    read_counters(context, device, fn, config, params, initial, replay, flush_l2, out);
    replayed.finish();
#else
    (void)initial;
    (void)replay;
    (void)flush_l2;
    out.counters_error = "built without CUPTI's headers";
#endif
    return out;
  }

 private:
  // Each parameter's value for the driver: buffers allocated on the GPU and filled with the
  // simulator's initial contents (kept in `out.memory`), scalars as their bits.
  bool pass_parameters(const exec::LaunchSpec& launch, GpuRun& out,
                       std::vector<std::uint64_t>& values) {
    out.memory = exec::GlobalMemory::allocate(launch);  // the simulator's own initial contents
    values.reserve(launch.kernel->params.size());
    std::size_t buffer = 0;
    for (const ir::KernelParam& p : launch.kernel->params) {
      if (p.is_pointer) {
        exec::GlobalBuffer& b = out.memory.buffers[buffer++];
        CUdeviceptr ptr = 0;
        if (!ok(d_.alloc(&ptr, b.bytes.size()), "cuMemAlloc")) return false;
        allocations_.push_back(ptr);
        pointers_.push_back(ptr);
        device_bytes_.push_back(b.bytes.size());
        if (!ok(d_.to_device(ptr, b.bytes.data(), b.bytes.size()), "cuMemcpyHtoD")) return false;
        values.push_back(ptr);
      } else {
        values.push_back(exec::literal_bits(std::get<ir::Literal>(launch.args.at(p.name)), p.type));
      }
    }
    // The module's global variables, where the loaded module placed them, from the simulator's
    // initial contents (as for a fresh module: the same as the PTX's initialisers).
    for (std::size_t i = buffer; i < out.memory.buffers.size(); ++i) {
      const exec::GlobalBuffer& b = out.memory.buffers[i];
      const ir::ArrayDecl& declared = launch.globals[i - buffer];
      const std::string& symbol = declared.ptx_name.empty() ? b.name : declared.ptx_name;
      CUdeviceptr ptr = 0;
      std::size_t bytes = 0;
      if (!ok(d_.global(&ptr, &bytes, module_, symbol.c_str()),
              "cuModuleGetGlobal (a module global variable)")) {
        error_ += " ('" + b.name + "')";
        return false;
      }
      // The IR holds a module variable in whole 4-byte words (a one-byte `.b8` variable, such as
      // the `cuda::std::ignore` that cooperative groups' headers define, as one word): the GPU's
      // symbol may be up to 3 bytes shorter, and those bytes are padding no kernel reaches.
      if (bytes + 3 < b.bytes.size()) {
        error_ = "the GPU's module holds " + std::to_string(bytes) + " bytes of '" + b.name +
                 "', fewer than the simulator's " + std::to_string(b.bytes.size());
        return false;
      }
      pointers_.push_back(ptr);
      device_bytes_.push_back(std::min(bytes, b.bytes.size()));
      if (!ok(d_.to_device(ptr, b.bytes.data(), device_bytes_.back()), "cuMemcpyHtoD"))
        return false;
    }
    return upload_constants(launch);
  }

  // Each module constant a launch file gave its value, into the GPU module's symbol, as
  // cudaMemcpyToSymbol would (a .cu file's __constant__ array; the others hold their PTX
  // initialisers already).
  bool upload_constants(const exec::LaunchSpec& launch) {
    for (const ir::ArrayDecl& c : launch.constants) {
      if (!c.filled_by_launch) continue;
      const std::vector<std::uint8_t> bytes = exec::initial_bytes(c);
      const std::string& symbol = c.ptx_name.empty() ? c.name : c.ptx_name;
      CUdeviceptr ptr = 0;
      std::size_t available = 0;
      if (!ok(d_.global(&ptr, &available, module_, symbol.c_str()),
              "cuModuleGetGlobal (a module constant)")) {
        error_ += " ('" + c.name + "')";
        return false;
      }
      if (!ok(d_.to_device(ptr, bytes.data(), std::min(available, bytes.size())), "cuMemcpyHtoD"))
        return false;
    }
    return true;
  }

  // The launch's grid, block, dynamic shared memory and, in `cluster`, its cluster shape.
  static CUlaunchConfig launch_config(const exec::LaunchSpec& launch, CUlaunchAttribute& cluster) {
    CUlaunchConfig config = {};
    config.gridDimX = static_cast<unsigned>(launch.grid.x);
    config.gridDimY = static_cast<unsigned>(launch.grid.y);
    config.gridDimZ = static_cast<unsigned>(launch.grid.z);
    config.blockDimX = static_cast<unsigned>(launch.block.x);
    config.blockDimY = static_cast<unsigned>(launch.block.y);
    config.blockDimZ = static_cast<unsigned>(launch.block.z);
    config.sharedMemBytes = static_cast<unsigned>(launch.dynamic_smem);
    if (launch.cluster.count() > 1) {
      cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
      cluster.value.clusterDim.x = static_cast<unsigned>(launch.cluster.x);
      cluster.value.clusterDim.y = static_cast<unsigned>(launch.cluster.y);
      cluster.value.clusterDim.z = static_cast<unsigned>(launch.cluster.z);
      config.attrs = &cluster;
      config.numAttrs = 1;
    }
    return config;
  }

#if WARPSIM_HAVE_CUPTI
  void read_counters(CUcontext context, CUdevice device, CUfunction fn, CUlaunchConfig& config,
                     std::vector<void*>& params, const std::vector<exec::GlobalBuffer>& initial,
                     Replay replay, bool flush_l2, GpuRun& out) {
    // Further launches from the same initial contents, profiled: each pass copies them in
    // again (with kernel replay CUPTI restores them between its passes), after flushing the L2
    // when asked to.
    std::string counters_error;
    L2Flush l2(d_, counters_error);
    if (flush_l2 && !l2.prepare(device)) {
      out.counters_error = counters_error;
      return;
    }
    // The cycles and achieved occupancy are measured apart from the other counters: together
    // they take several passes, and a ratio such as achieved occupancy (warps in flight over
    // active cycles) mixed from two passes of a kernel whose timing varies can come out above
    // what the SM holds (testKernel read 111 % and 88 % of a theoretical 75 % that way).
    auto measure = [&](const std::vector<std::string>& metrics) {
      return measure_counters(
          context, metrics,
          [&] {
            if (flush_l2 && !l2.flush()) return false;
            for (std::size_t i = 0; i < initial.size(); ++i) {
              if (d_.to_device(pointers_[i], initial[i].bytes.data(), device_bytes_[i]) !=
                  CUDA_SUCCESS) {
                return false;
              }
            }
            return true;
          },
          [&] {
            return d_.launch(&config, fn, params.data(), nullptr) == CUDA_SUCCESS &&
                   d_.synchronize() == CUDA_SUCCESS;
          },
          replay, counters_error);
    };
    std::vector<std::string> apart, together, own_pass;
    for (const metrics::MetricInfo& m : metrics::metric_table()) {
      if (m.gpu == metrics::Gpu::NotMeasured) continue;
      (m.gpu == metrics::Gpu::MeasuredApart     ? apart
       : m.gpu == metrics::Gpu::MeasuredOwnPass ? own_pass
                                                : together)
          .emplace_back(m.name);
    }
    auto counters = measure(together);
    auto own_run = counters ? measure(apart) : std::nullopt;
    if (!counters || !own_run) {
      out.counters_error = counters_error;
      return;
    }
    counters->merge(*own_run);
    out.counters = std::move(*counters);
    // Counters a profiler may not offer (the warp states): without them the others stand.
    counters_error.clear();
    if (auto optional = measure(own_pass)) {
      out.counters.merge(*optional);
    } else {
      out.optional_counters_error = counters_error;
    }
  }
#endif

  const Driver& d_;
  std::string& error_;
  CUmodule module_ = nullptr;
  std::vector<CUdeviceptr> allocations_;   // the parameters' buffers, freed at the end
  std::vector<CUdeviceptr> pointers_;      // every buffer's, in GlobalMemory's order
  std::vector<std::size_t> device_bytes_;  // each one's size on the GPU (see module globals)
};

}  // namespace

std::optional<GpuRun> run_on_gpu(const ir::Module& module, const exec::LaunchSpec& launch,
                                 Replay replay, bool flush_l2, std::string& error,
                                 const GpuCode* code) {
  const Driver& d = Driver::get();
  if (!d.missing.empty()) {
    error = d.missing;
    return std::nullopt;
  }
  return Runner(d, error).run(module, launch, replay, flush_l2, code);
}

}  // namespace warpsim::cuda
