// The buggy kernels of tests/check/, in CUDA as their comments describe them, for running under
// compute-sanitizer beside `warpsim check` (run.sh). `buggy_kernels NAME` launches one.
#include <cstdio>
#include <cstring>

__global__ void sum_reduce_nosync(const float* a, float* s) {
  __shared__ float staging[256];
  staging[threadIdx.x] = a[blockIdx.x * blockDim.x + threadIdx.x];
  // __syncthreads() missing
  if (threadIdx.x == 0) {
    float sum = 0;
    for (unsigned i = 0; i < blockDim.x; ++i) sum += staging[i];
    atomicAdd(s, sum);
  }
}

__global__ void transpose_nosync(int m, const float* a, float* c) {
  __shared__ float tile[32][32];
  const int row = blockDim.x * blockIdx.x + threadIdx.x;
  const int col = blockDim.y * blockIdx.y + threadIdx.y;
  tile[threadIdx.x][threadIdx.y] = a[col * m + row];
  // __syncthreads() missing
  const int dst_row = blockDim.y * blockIdx.y + threadIdx.x;
  const int dst_col = blockDim.x * blockIdx.x + threadIdx.y;
  c[dst_col * m + dst_row] = tile[threadIdx.y][threadIdx.x];
}

__global__ void matmul_tile_reuse(unsigned n, const float* a, const float* b, float* c) {
  __shared__ float as[16][16], bs[16][16];
  const unsigned row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float sum = 0;
  for (unsigned t = 0; t < n / 16; ++t) {
    as[threadIdx.y][threadIdx.x] = a[row * n + t * 16 + threadIdx.x];
    bs[threadIdx.y][threadIdx.x] = b[(t * 16 + threadIdx.y) * n + col];
    __syncthreads();
    for (unsigned k = 0; k < 16; ++k) sum += as[threadIdx.y][k] * bs[k][threadIdx.x];
    // __syncthreads() missing before the next tile
  }
  c[row * n + col] = sum;
}

__global__ void global_race(const float* a, float* total) {
  const float v = a[blockIdx.x * blockDim.x + threadIdx.x];
  *total = *total + v;  // not atomic
}

__global__ void partial_shuffle(const unsigned* a, unsigned* out) {
  const unsigned v = a[threadIdx.x];
  if (threadIdx.x < 16) out[threadIdx.x] = v + __shfl_down_sync(0xffffffffu, v, 8);
}

__global__ void uninit_shared(const float* a, float* out) {
  __shared__ float tile[65];
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = a[i];
  __syncthreads();
  out[i] = a[i] + tile[threadIdx.x + 1];  // tile[64] is never written
}

__global__ void uninit_global(const float* a, float* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = out[i] + a[i];  // out was never initialised
}

__global__ void divergent_barrier(unsigned* out) {
  __shared__ unsigned flag[64];
  if (threadIdx.x % 2 == 0) {
    flag[threadIdx.x] = 1;
    __syncthreads();
  } else {
    flag[threadIdx.x] = 2;
    __syncthreads();
  }
  out[threadIdx.x] = flag[threadIdx.x];
}

__global__ void warp_synchronous(const float* a, float* out) {
  __shared__ float partial[32];
  const float v = a[threadIdx.x];
  partial[threadIdx.x] = v;
  if (threadIdx.x < 16) {
    partial[threadIdx.x] = v + partial[threadIdx.x + 16];  // no __syncwarp()
    if (threadIdx.x == 0) out[0] = partial[0];
  }
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: buggy_kernels NAME\n");
    return 2;
  }
  const char* k = argv[1];
  float *fa, *fb, *fc;
  unsigned *ua, *uo;
  cudaMalloc(&fa, 4096 * sizeof(float));
  cudaMalloc(&fb, 4096 * sizeof(float));
  cudaMalloc(&fc, 4096 * sizeof(float));  // left uninitialised on purpose
  cudaMalloc(&ua, 64 * sizeof(unsigned));
  cudaMalloc(&uo, 64 * sizeof(unsigned));
  cudaMemset(fa, 0, 4096 * sizeof(float));
  cudaMemset(fb, 0, 4096 * sizeof(float));
  cudaMemset(ua, 0, 64 * sizeof(unsigned));
  cudaMemset(uo, 0, 64 * sizeof(unsigned));
  if (!std::strcmp(k, "sum_reduce_nosync")) {
    cudaMemset(fc, 0, sizeof(float));
    sum_reduce_nosync<<<2, 256>>>(fa, fc);
  } else if (!std::strcmp(k, "transpose_nosync")) {
    cudaMemset(fc, 0, 4096 * sizeof(float));
    transpose_nosync<<<dim3(2, 2), dim3(32, 32)>>>(64, fa, fc);
  } else if (!std::strcmp(k, "matmul_tile_reuse")) {
    cudaMemset(fc, 0, 4096 * sizeof(float));
    matmul_tile_reuse<<<dim3(2, 2), dim3(16, 16)>>>(32, fa, fb, fc);
  } else if (!std::strcmp(k, "global_race")) {
    cudaMemset(fc, 0, sizeof(float));
    global_race<<<2, 64>>>(fa, fc);
  } else if (!std::strcmp(k, "partial_shuffle")) {
    partial_shuffle<<<1, 32>>>(ua, uo);
  } else if (!std::strcmp(k, "uninit_shared")) {
    cudaMemset(fc, 0, 4096 * sizeof(float));
    uninit_shared<<<1, 64>>>(fa, fc);
  } else if (!std::strcmp(k, "uninit_global")) {
    uninit_global<<<2, 32>>>(fa, fc);
  } else if (!std::strcmp(k, "divergent_barrier")) {
    divergent_barrier<<<1, 64>>>(uo);
  } else if (!std::strcmp(k, "warp_synchronous")) {
    cudaMemset(fc, 0, sizeof(float));
    warp_synchronous<<<1, 32>>>(fa, fc);
  } else {
    std::fprintf(stderr, "buggy_kernels: no kernel %s\n", k);
    return 2;
  }
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s: %s\n", k, cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
