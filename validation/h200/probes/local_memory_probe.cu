// The launches of kernels_ir/calibration/local_memory.kir as a CUDA program, for Nsight
// Compute's L1 counters of local memory (lookups that hit or miss) and the L2's, which warpsim
// validate does not read. Run under `ncu --cache-control none --replay-mode application`.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void local_chase(unsigned* out, unsigned steps) {
  unsigned chain[64];
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned k = 0; k < 64; ++k) chain[k] = (k + 1) & 63;
  unsigned p = 0;
  for (unsigned s = 0; s < steps; ++s) p = chain[p];
  out[gid] = p;
}

__global__ void local_rmw(unsigned* out, unsigned steps, unsigned zero) {
  unsigned counter[16];
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned i = gid & zero;
  counter[i] = 0;
  for (unsigned s = 0; s < steps; ++s) {
    const unsigned v = counter[i] + 1;
    counter[i] = v;
    i = v & zero;
  }
  out[gid] = counter[i];
}

int main() {
  unsigned* out = nullptr;
  if (cudaMalloc(&out, 270336 * sizeof(unsigned)) != cudaSuccess) return 1;
  local_chase<<<1, 32>>>(out, 4096);
  local_chase<<<132, 32>>>(out, 4096);
  local_chase<<<264, 1024>>>(out, 512);
  local_rmw<<<1, 32>>>(out, 2048, 0);
  local_rmw<<<132, 32>>>(out, 2048, 0);
  local_rmw<<<264, 1024>>>(out, 256, 0);
  if (cudaDeviceSynchronize() != cudaSuccess) return 2;
  std::printf("chase_1warp chase_1warp_sm132 chase_full rmw_1warp rmw_1warp_sm132 rmw_full\n");
  cudaFree(out);
  return 0;
}
