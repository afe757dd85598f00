// block_max (kernels_cuda/heldout2/float_atomic_max.cu) timed with events, and the same kernel
// counting its CAS attempts, five runs each: how much the GPU's CAS count and time vary.
#include <cstdio>
#include <vector>
#include <algorithm>
#include <random>
__device__ unsigned long long attempts;
template <bool kCount>
__device__ float atomicMaxFloat(float* addr, float value) {
  int* a = (int*)addr;
  int old = *a, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= value) break;
    if (kCount) atomicAdd(&attempts, 1ull);
    old = atomicCAS(a, assumed, __float_as_int(value));
  } while (assumed != old);
  return __int_as_float(old);
}
template <bool kCount>
__global__ void block_max(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : -1e30f;
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  if ((threadIdx.x & 31) == 0) atomicMaxFloat<kCount>(out, v);
}
int main() {
  const int n = 1000000, N = 1048576;
  std::vector<float> h(N);
  std::mt19937 g(9);
  std::uniform_real_distribution<float> d(-5, 5);
  for (float& x : h) x = d(g);
  float *in, *out;
  cudaMalloc(&in, N * 4); cudaMalloc(&out, 4);
  cudaMemcpy(in, h.data(), N * 4, cudaMemcpyHostToDevice);
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  const float start = -100;
  for (int run = 0; run < 6; ++run) {
    cudaMemcpy(out, &start, 4, cudaMemcpyHostToDevice);
    cudaEventRecord(a);
    block_max<false><<<4096, 256>>>(in, out, n);
    cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b);
    printf("plain run %d: %.2f us\n", run, ms * 1000);
  }
  for (int run = 0; run < 6; ++run) {
    unsigned long long zero = 0;
    cudaMemcpyToSymbol(attempts, &zero, 8);
    cudaMemcpy(out, &start, 4, cudaMemcpyHostToDevice);
    cudaEventRecord(a);
    block_max<true><<<4096, 256>>>(in, out, n);
    cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b);
    unsigned long long c; cudaMemcpyFromSymbol(&c, attempts, 8);
    float r; cudaMemcpy(&r, out, 4, cudaMemcpyDeviceToHost);
    printf("counting run %d: %.2f us, %llu CAS, max %g\n", run, ms * 1000, c, r);
  }
  return 0;
}
