// One word, one lane a warp: how many one-lane atomics a cycle the GPU applies to a single word
// when every warp of the GPU sends them (CAS that fails, CAS that succeeds, ADD with a result,
// RED). Each kernel: 132 x 8 blocks of 256 threads, lane 0 of each warp issues ITER atomics.
#include <cstdio>
#include <algorithm>
#include <vector>
constexpr int kIter = 64;
__global__ void cas_fail(unsigned* w, unsigned* sink) {
  if ((threadIdx.x & 31) != 0) return;
  unsigned acc = 0;
  for (int k = 0; k < kIter; ++k) acc += atomicCAS(w, 0xffffffffu, k);  // memory holds 0: fails
  if (acc == 12345) *sink = acc;
}
__global__ void cas_loop(unsigned* w, unsigned* sink) {
  if ((threadIdx.x & 31) != 0) return;
  unsigned old = *w;
  for (int k = 0; k < kIter; ++k) {
    unsigned assumed;
    do { assumed = old; old = atomicCAS(w, assumed, assumed + 1); } while (old != assumed);
  }
  if (old == 12345) *sink = old;
}
__global__ void add_ret(unsigned* w, unsigned* sink) {
  if ((threadIdx.x & 31) != 0) return;
  unsigned acc = 0;
  for (int k = 0; k < kIter; ++k) acc += atomicAdd(w, 1u);
  if (acc == 12345) *sink = acc;
}
__global__ void red(unsigned* w, unsigned* sink) {
  if ((threadIdx.x & 31) != 0) return;
  for (int k = 0; k < kIter; ++k) atomicAdd(w, 1u);
}
__global__ void red_f32(unsigned* w, unsigned* sink) {
  if ((threadIdx.x & 31) != 0) return;
  for (int k = 0; k < kIter; ++k) atomicAdd(reinterpret_cast<float*>(w), 1.0f);
}
__global__ void add_f32_ret(unsigned* w, unsigned* sink) {
  if ((threadIdx.x & 31) != 0) return;
  float acc = 0;
  for (int k = 0; k < kIter; ++k) acc += atomicAdd(reinterpret_cast<float*>(w), 1.0f);
  if (acc == 12345.f) *sink = 1;
}
__global__ void red_u64(unsigned* w, unsigned* sink) {
  if ((threadIdx.x & 31) != 0) return;
  for (int k = 0; k < kIter; ++k) atomicAdd(reinterpret_cast<unsigned long long*>(sink), 1ull);
}
__global__ void max_u32(unsigned* w, unsigned* sink) {
  if ((threadIdx.x & 31) != 0) return;
  for (int k = 0; k < kIter; ++k) atomicMax(w, blockIdx.x * 64 + k);
}
__global__ void exch_f32(unsigned* w, unsigned* sink) {
  if ((threadIdx.x & 31) != 0) return;
  float acc = 0;
  for (int k = 0; k < kIter; ++k) acc += atomicExch(reinterpret_cast<float*>(w), 1.0f * k);
  if (acc == 12345.f) *sink = 1;
}
template <typename K>
void time(const char* name, K kernel, unsigned* w, unsigned* sink, int sms) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::vector<float> t;
  for (int r = 0; r < 7; ++r) {
    cudaMemset(w, 0, 4);
    cudaEventRecord(a);
    kernel<<<sms * 8, 256>>>(w, sink);
    cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms * 1000);
  }
  std::sort(t.begin(), t.end());
  unsigned v; cudaMemcpy(&v, w, 4, cudaMemcpyDeviceToHost);
  const double atomics = double(sms) * 8 * 8 * kIter;
  printf("%-9s median %8.2f us  atomics %.0f  final %u  ns/atomic %.3f\n", name, t[3], atomics, v, t[3] * 1000 / atomics);
}
int main() {
  unsigned *w, *sink; cudaMalloc(&w, 4); cudaMalloc(&sink, 8);
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  int mhz; cudaDeviceGetAttribute(&mhz, cudaDevAttrClockRate, 0);
  printf("SMs %d, clock %d MHz\n", sms, mhz / 1000);
  time("cas_fail", cas_fail, w, sink, sms);
  time("add_ret", add_ret, w, sink, sms);
  time("red", red, w, sink, sms);
  time("red_f32", red_f32, w, sink, sms);
  time("addf_ret", add_f32_ret, w, sink, sms);
  time("max_u32", max_u32, w, sink, sms);
  time("exch_f32", exch_f32, w, sink, sms);
  cudaMalloc(&sink, 8);
  time("red_u64", red_u64, w, sink, sms);
  return 0;
}
