#include "cuda_backend/cupti_counters.hpp"

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <cstdlib>

#include "cuda_backend/shared_library.hpp"

namespace warpsim::cuda {
namespace {

struct Cupti {
  decltype(&::cuptiProfilerInitialize) initialize = nullptr;
  decltype(&::cuptiProfilerDeInitialize) deinitialize = nullptr;
  decltype(&::cuptiDeviceGetChipName) chip_name = nullptr;
  decltype(&::cuptiProfilerHostInitialize) host_initialize = nullptr;
  decltype(&::cuptiProfilerHostDeinitialize) host_deinitialize = nullptr;
  decltype(&::cuptiProfilerHostConfigAddMetrics) add_metrics = nullptr;
  decltype(&::cuptiProfilerHostGetConfigImageSize) config_size = nullptr;
  decltype(&::cuptiProfilerHostGetConfigImage) config_image = nullptr;
  decltype(&::cuptiProfilerHostEvaluateToGpuValues) evaluate = nullptr;
  decltype(&::cuptiRangeProfilerEnable) enable = nullptr;
  decltype(&::cuptiRangeProfilerDisable) disable = nullptr;
  decltype(&::cuptiRangeProfilerGetCounterDataSize) counter_size = nullptr;
  decltype(&::cuptiRangeProfilerCounterDataImageInitialize) counter_init = nullptr;
  decltype(&::cuptiRangeProfilerSetConfig) set_config = nullptr;
  decltype(&::cuptiRangeProfilerStart) start = nullptr;
  decltype(&::cuptiRangeProfilerStop) stop = nullptr;
  decltype(&::cuptiRangeProfilerDecodeData) decode = nullptr;
  decltype(&::cuptiRangeProfilerGetCounterDataInfo) data_info = nullptr;
  std::string missing;

  static const Cupti& get() {
    static const Cupti c = [] {
      Cupti r;
      const SharedLibrary lib({std::getenv("WARPSIM_CUPTI"), "libcupti.so", "libcupti.so.13",
                               "libcupti.so.12", "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so",
                               "/usr/local/cuda/lib64/libcupti.so"});
      if (!lib.loaded()) {
        r.missing = "no CUPTI library (set WARPSIM_CUPTI to libcupti.so's path)";
        return r;
      }
      auto resolve = [&](auto& fn, const char* name) { lib.resolve(fn, name, "CUPTI", r.missing); };
      resolve(r.initialize, "cuptiProfilerInitialize");
      resolve(r.deinitialize, "cuptiProfilerDeInitialize");
      resolve(r.chip_name, "cuptiDeviceGetChipName");
      resolve(r.host_initialize, "cuptiProfilerHostInitialize");
      resolve(r.host_deinitialize, "cuptiProfilerHostDeinitialize");
      resolve(r.add_metrics, "cuptiProfilerHostConfigAddMetrics");
      resolve(r.config_size, "cuptiProfilerHostGetConfigImageSize");
      resolve(r.config_image, "cuptiProfilerHostGetConfigImage");
      resolve(r.evaluate, "cuptiProfilerHostEvaluateToGpuValues");
      resolve(r.enable, "cuptiRangeProfilerEnable");
      resolve(r.disable, "cuptiRangeProfilerDisable");
      resolve(r.counter_size, "cuptiRangeProfilerGetCounterDataSize");
      resolve(r.counter_init, "cuptiRangeProfilerCounterDataImageInitialize");
      resolve(r.set_config, "cuptiRangeProfilerSetConfig");
      resolve(r.start, "cuptiRangeProfilerStart");
      resolve(r.stop, "cuptiRangeProfilerStop");
      resolve(r.decode, "cuptiRangeProfilerDecodeData");
      resolve(r.data_info, "cuptiRangeProfilerGetCounterDataInfo");
      return r;
    }();
    return c;
  }
};

class Session {
 public:
  Session(const Cupti& c, std::string& error) : c_(c), error_(error) {}
  ~Session() {
    if (profiler_ != nullptr) {
      CUpti_RangeProfiler_Disable_Params p{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE, nullptr,
                                           profiler_};
      c_.disable(&p);
    }
    if (host_ != nullptr) {
      CUpti_Profiler_Host_Deinitialize_Params p{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE,
                                                nullptr, host_};
      c_.host_deinitialize(&p);
    }
    if (initialized_) {
      CUpti_Profiler_DeInitialize_Params p{CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE, nullptr};
      c_.deinitialize(&p);
    }
  }

  bool ok(CUptiResult r, const char* what) {
    if (r == CUPTI_SUCCESS) return true;
    error_ =
        std::string(what) + " failed (CUPTI error " + std::to_string(static_cast<int>(r)) + ")";
    return false;
  }

  std::optional<std::map<std::string, double>> run(CUcontext ctx,
                                                   const std::vector<std::string>& metrics,
                                                   const std::function<bool()>& prepare,
                                                   const std::function<bool()>& launch,
                                                   Replay replay) {
    std::vector<const char*> names;
    for (const std::string& m : metrics) names.push_back(m.c_str());
    CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE, nullptr};
    if (!ok(c_.initialize(&init), "cuptiProfilerInitialize")) return std::nullopt;
    initialized_ = true;
    CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE, nullptr, 0,
                                         nullptr};
    if (!ok(c_.chip_name(&chip), "cuptiDeviceGetChipName")) return std::nullopt;
    CUpti_Profiler_Host_Initialize_Params host{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE,
                                               nullptr,
                                               CUPTI_PROFILER_TYPE_RANGE_PROFILER,
                                               chip.pChipName,
                                               nullptr,
                                               nullptr};
    if (!ok(c_.host_initialize(&host), "cuptiProfilerHostInitialize")) return std::nullopt;
    host_ = host.pHostObject;
    CUpti_Profiler_Host_ConfigAddMetrics_Params add{
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE, nullptr, host_, names.data(),
        names.size()};
    if (!ok(c_.add_metrics(&add), "cuptiProfilerHostConfigAddMetrics")) return std::nullopt;
    CUpti_Profiler_Host_GetConfigImageSize_Params size{
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE, nullptr, host_, 0};
    if (!ok(c_.config_size(&size), "cuptiProfilerHostGetConfigImageSize")) return std::nullopt;
    std::vector<std::uint8_t> config(size.configImageSize);
    CUpti_Profiler_Host_GetConfigImage_Params image{
        CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE, nullptr, host_, config.size(),
        config.data()};
    if (!ok(c_.config_image(&image), "cuptiProfilerHostGetConfigImage")) return std::nullopt;

    CUpti_RangeProfiler_Enable_Params enable{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE, nullptr,
                                             ctx, nullptr};
    if (!ok(c_.enable(&enable), "cuptiRangeProfilerEnable")) return std::nullopt;
    profiler_ = enable.pRangeProfilerObject;
    CUpti_RangeProfiler_GetCounterDataSize_Params data_size{
        CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE,
        nullptr,
        profiler_,
        names.data(),
        names.size(),
        1,
        1,
        0};
    if (!ok(c_.counter_size(&data_size), "cuptiRangeProfilerGetCounterDataSize")) {
      return std::nullopt;
    }
    std::vector<std::uint8_t> counters(data_size.counterDataSize);
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params data_init{
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE, nullptr, profiler_,
        counters.size(), counters.data()};
    if (!ok(c_.counter_init(&data_init), "cuptiRangeProfilerCounterDataImageInitialize")) {
      return std::nullopt;
    }
    CUpti_RangeProfiler_SetConfig_Params set{};
    set.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE;
    set.pRangeProfilerObject = profiler_;
    set.configSize = config.size();
    set.pConfig = config.data();
    set.counterDataImageSize = counters.size();
    set.pCounterDataImage = counters.data();
    set.range = CUPTI_AutoRange;
    set.replayMode = replay == Replay::Kernel ? CUPTI_KernelReplay : CUPTI_UserReplay;
    set.maxRangesPerPass = 1;
    set.numNestingLevels = 1;
    set.minNestingLevel = 1;
    set.passIndex = 0;
    set.targetNestingLevel = 1;
    if (!ok(c_.set_config(&set), "cuptiRangeProfilerSetConfig")) return std::nullopt;
    for (bool submitted = false; !submitted;) {
      if (!prepare()) {
        error_ = "preparing a profiled pass failed" + (error_.empty() ? "" : ": " + error_);
        return std::nullopt;
      }
      CUpti_RangeProfiler_Start_Params start{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE, nullptr,
                                             profiler_};
      if (!ok(c_.start(&start), "cuptiRangeProfilerStart")) return std::nullopt;
      if (!launch()) {
        error_ = "the profiled launch failed";
        return std::nullopt;
      }
      CUpti_RangeProfiler_Stop_Params stop{
          CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE, nullptr, profiler_, 0, 0, 0};
      if (!ok(c_.stop(&stop), "cuptiRangeProfilerStop")) return std::nullopt;
      submitted = stop.isAllPassSubmitted != 0;
    }
    CUpti_RangeProfiler_DecodeData_Params decode{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE,
                                                 nullptr, profiler_, 0};
    if (!ok(c_.decode(&decode), "cuptiRangeProfilerDecodeData")) return std::nullopt;
    CUpti_RangeProfiler_GetCounterDataInfo_Params info{
        CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE, nullptr, counters.data(),
        counters.size(), 0};
    if (!ok(c_.data_info(&info), "cuptiRangeProfilerGetCounterDataInfo")) return std::nullopt;
    if (info.numTotalRanges < 1) {
      error_ = "CUPTI recorded no range for the launch";
      return std::nullopt;
    }
    std::vector<double> values(names.size());
    CUpti_Profiler_Host_EvaluateToGpuValues_Params eval{
        CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE,
        nullptr,
        host_,
        counters.data(),
        counters.size(),
        0,
        names.data(),
        names.size(),
        values.data()};
    if (!ok(c_.evaluate(&eval), "cuptiProfilerHostEvaluateToGpuValues")) return std::nullopt;
    std::map<std::string, double> out;
    for (std::size_t i = 0; i < metrics.size(); ++i) out[metrics[i]] = values[i];
    return out;
  }

 private:
  const Cupti& c_;
  std::string& error_;
  bool initialized_ = false;
  CUpti_Profiler_Host_Object* host_ = nullptr;
  CUpti_RangeProfiler_Object* profiler_ = nullptr;
};

}  // namespace

std::optional<std::map<std::string, double>> measure_counters(
    CUcontext context, const std::vector<std::string>& metrics,
    const std::function<bool()>& prepare, const std::function<bool()>& launch, Replay replay,
    std::string& error) {
  const Cupti& c = Cupti::get();
  if (!c.missing.empty()) {
    error = c.missing;
    return std::nullopt;
  }
  return Session(c, error).run(context, metrics, prepare, launch, replay);
}

}  // namespace warpsim::cuda
