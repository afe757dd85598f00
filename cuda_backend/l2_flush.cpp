#include "cuda_backend/l2_flush.hpp"

namespace warpsim::cuda {
namespace {

// Every thread sums the 32-bit words i, i + threads, ... of the scratch memory, read through
// the L2 only (ld.global.cg). The sum is stored only when all its bits are set, so the loads
// have a use the compiler cannot drop and almost never write anything.
constexpr const char* kFlushPtx = R"(
.version 7.0
.target sm_52
.address_size 64
.visible .entry warpsim_l2_flush(.param .u64 scratch, .param .u64 words, .param .u64 sink)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [scratch];
  ld.param.u64 %rd2, [words];
  ld.param.u64 %rd3, [sink];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd3, %rd3;
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mov.u32 %r4, %nctaid.x;
  mul.wide.u32 %rd4, %r1, %r2;
  cvt.u64.u32 %rd5, %r3;
  add.u64 %rd4, %rd4, %rd5;
  mul.wide.u32 %rd6, %r4, %r2;
  mov.u32 %r5, 0;
  setp.ge.u64 %p1, %rd4, %rd2;
  @%p1 bra DONE;
LOOP:
  shl.b64 %rd7, %rd4, 2;
  add.u64 %rd8, %rd1, %rd7;
  ld.global.cg.u32 %r6, [%rd8];
  add.u32 %r5, %r5, %r6;
  add.u64 %rd4, %rd4, %rd6;
  setp.lt.u64 %p2, %rd4, %rd2;
  @%p2 bra LOOP;
DONE:
  setp.ne.u32 %p1, %r5, -1;
  @%p1 ret;
  st.global.u32 [%rd3], %r5;
  ret;
}
)";

constexpr unsigned kThreadsPerBlock = 256;
constexpr unsigned kBlocksPerSm = 8;
constexpr unsigned long long kScratchPerL2Byte = 4;

}  // namespace

L2Flush::~L2Flush() {
  if (scratch_ != 0) d_.free(scratch_);
  if (sink_ != 0) d_.free(sink_);
  if (module_ != nullptr) d_.unload(module_);
}

bool L2Flush::ok(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return true;
  error_ = "flushing the L2: " + d_.describe(r, what);
  return false;
}

bool L2Flush::prepare(CUdevice device) {
  int l2_bytes = 0, sms = 0;
  if (!ok(d_.device_attribute(&l2_bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, device),
          "cuDeviceGetAttribute(L2 size)") ||
      !ok(d_.device_attribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device),
          "cuDeviceGetAttribute(SM count)") ||
      !ok(d_.load(&module_, kFlushPtx, 0, nullptr, nullptr), "cuModuleLoadDataEx") ||
      !ok(d_.function(&kernel_, module_, "warpsim_l2_flush"), "cuModuleGetFunction")) {
    return false;
  }
  const unsigned long long bytes = kScratchPerL2Byte * static_cast<unsigned long long>(l2_bytes);
  scratch_words_ = bytes / 4;
  blocks_ = static_cast<unsigned>(sms) * kBlocksPerSm;
  return ok(d_.alloc(&scratch_, bytes), "cuMemAlloc(scratch)") &&
         ok(d_.alloc(&sink_, 4), "cuMemAlloc(sink)");
}

bool L2Flush::flush() {
  CUlaunchConfig config = {};
  config.gridDimX = blocks_;
  config.gridDimY = 1;
  config.gridDimZ = 1;
  config.blockDimX = kThreadsPerBlock;
  config.blockDimY = 1;
  config.blockDimZ = 1;
  unsigned long long words = scratch_words_;
  void* params[] = {&scratch_, &words, &sink_};
  return ok(d_.launch(&config, kernel_, params, nullptr), "cuLaunchKernelEx") &&
         ok(d_.synchronize(), "the flushing kernel");
}

}  // namespace warpsim::cuda
