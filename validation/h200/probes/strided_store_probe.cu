// The launches of kernels_ir/calibration/strided_store_rounds.kir as a CUDA program, for Nsight
// Compute's L2 counters (write requests and sectors as the L2 slices see them, reads the slices
// make for partly written sectors) that warpsim validate does not read. Each launch starts with
// its buffer copied in from the host, so it is in the L2, as validate --cache-control none has
// it; run under `ncu --cache-control none --replay-mode application`.
#include <cstdio>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>

template <typename T>
__global__ void strided_rounds(T* data, unsigned stride, unsigned writes, unsigned rounds) {
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned base = gid * stride;
  T value = static_cast<T>(gid);
  for (unsigned r = 0; r < rounds; ++r) {
#pragma unroll 1
    for (unsigned k = 0; k < writes; ++k) data[base + k] = value;
    value = value + T(1);
  }
}

struct Case { const char* name; unsigned element_bytes, stride, writes, grid; };

int main() {
  const Case cases[] = {
      {"s1w1", 4, 1, 1, 16384},  {"s2w2", 4, 2, 2, 8192},  {"s4w4", 4, 4, 4, 4096},
      {"s8w8", 4, 8, 8, 2048},   {"s32w32", 4, 32, 32, 512}, {"s2w1", 4, 2, 1, 8192},
      {"s4w1", 4, 4, 1, 4096},   {"s8w1", 4, 8, 1, 2048},  {"s32w1", 4, 32, 1, 512},
      {"s4w2", 4, 4, 2, 4096},   {"s8w2", 4, 8, 2, 2048},  {"s8w4", 4, 8, 4, 2048},
      {"s16w16", 4, 16, 16, 1024}, {"s3w3", 4, 3, 3, 5461}, {"s32w8", 4, 32, 8, 512},
      {"d1w1", 8, 1, 1, 8192},   {"d2w1", 8, 2, 1, 4096},  {"d2w2", 8, 2, 2, 4096},
      {"d4w1", 8, 4, 1, 2048},   {"d4w4", 8, 4, 4, 2048},  {"d16w1", 8, 16, 1, 512}};
  const size_t bytes = 16u << 20;
  std::vector<unsigned char> zeros(bytes, 0);
  void* data = nullptr;
  if (cudaMalloc(&data, bytes) != cudaSuccess) return 1;
  for (const Case& c : cases) {
    cudaMemcpy(data, zeros.data(), bytes, cudaMemcpyHostToDevice);
    if (c.element_bytes == 4)
      strided_rounds<float><<<c.grid, 256>>>(static_cast<float*>(data), c.stride, c.writes, 4);
    else
      strided_rounds<unsigned long long><<<c.grid, 256>>>(static_cast<unsigned long long*>(data),
                                                           c.stride, c.writes, 4);
    if (cudaDeviceSynchronize() != cudaSuccess) return 2;
    std::printf("%s\n", c.name);
  }
  cudaFree(data);
  return 0;
}
