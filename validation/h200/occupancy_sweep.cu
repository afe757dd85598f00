// Reads the H200's properties and asks the CUDA runtime for the occupancy of real compiled
// kernels with different register and static shared-memory use, over block sizes and dynamic
// shared-memory amounts. Output: device.ini (the properties as a warpsim config body) and
// occupancy.csv (kernel, registers, static shared bytes, block size, dynamic bytes, blocks/SM).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t e = (call);                                                           \
    if (e != cudaSuccess) {                                                           \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

// N live accumulators per thread: more N, more registers.
template <int N, int SMEM_FLOATS>
__global__ void pressure(float* out, int iters) {
  __shared__ float tile[SMEM_FLOATS > 0 ? SMEM_FLOATS : 1];
  float acc[N];
#pragma unroll
  for (int i = 0; i < N; ++i) acc[i] = threadIdx.x * (i + 1);
  for (int k = 0; k < iters; ++k) {
#pragma unroll
    for (int i = 0; i < N; ++i) acc[i] = acc[i] * acc[(i + 1) % N] + 1.0f;
  }
  float s = 0;
#pragma unroll
  for (int i = 0; i < N; ++i) s += acc[i];
  if (SMEM_FLOATS > 0) {
    tile[threadIdx.x % (SMEM_FLOATS > 0 ? SMEM_FLOATS : 1)] = s;
    __syncthreads();
    s += tile[(threadIdx.x + 1) % (SMEM_FLOATS > 0 ? SMEM_FLOATS : 1)];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template <typename K>
void sweep(const char* name, K kernel, FILE* csv, const cudaDeviceProp& prop) {
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, kernel));
  const int max_dynamic = static_cast<int>(prop.sharedMemPerBlockOptin) - static_cast<int>(attr.sharedSizeBytes);
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, max_dynamic));
  const int dynamic[] = {0, 1024, 8192, 20000, 49152, 65536, 102400, 150000, 200000, 232448};
  for (int block = 32; block <= 1024; block += 32) {
    for (int d : dynamic) {
      if (d > max_dynamic) continue;
      int blocks = -1;
      CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block, d));
      std::fprintf(csv, "%s,%d,%zu,%d,%d,%d\n", name, attr.numRegs, attr.sharedSizeBytes, block,
                   d, blocks);
    }
  }
}

int main(int argc, char** argv) {
  const char* dir = argc > 1 ? argv[1] : ".";
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  char path[4096];
  std::snprintf(path, sizeof path, "%s/device.ini", dir);
  FILE* ini = std::fopen(path, "w");
  std::fprintf(ini, "# cudaGetDeviceProperties on device 0\n[gpu]\nname = %s\n", prop.name);
  std::fprintf(ini, "compute_capability = %d.%d\nsm_count = %d\n", prop.major, prop.minor,
               prop.multiProcessorCount);
  int clock_khz = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
  std::fprintf(ini, "clock_mhz = %d\nl2_bytes = %d\n\n[sm]\n", clock_khz / 1000, prop.l2CacheSize);
  std::fprintf(ini, "max_threads = %d\nmax_blocks = %d\nregisters = %d\n",
               prop.maxThreadsPerMultiProcessor, prop.maxBlocksPerMultiProcessor,
               prop.regsPerMultiprocessor);
  std::fprintf(ini, "max_registers_per_block = %d\n", prop.regsPerBlock);
  std::fprintf(ini, "shared_memory_bytes = %zu\nshared_memory_per_block_bytes = %zu\n",
               prop.sharedMemPerMultiprocessor, prop.sharedMemPerBlock);
  std::fprintf(ini, "shared_memory_per_block_optin_bytes = %zu\n", prop.sharedMemPerBlockOptin);
  std::fprintf(ini, "reserved_shared_memory_per_block_bytes = %zu\n",
               prop.reservedSharedMemPerBlock);
  std::fprintf(ini, "\n[block]\nmax_threads = %d\n", prop.maxThreadsPerBlock);
  std::fprintf(ini, "# warpSize %d, totalConstMem %zu, memoryBusWidth %d\n", prop.warpSize,
               prop.totalConstMem, prop.memoryBusWidth);
  std::fclose(ini);

  std::snprintf(path, sizeof path, "%s/occupancy.csv", dir);
  FILE* csv = std::fopen(path, "w");
  std::fprintf(csv, "kernel,registers,static_shared,block,dynamic_shared,blocks_per_sm\n");
  sweep("pressure_4", pressure<4, 0>, csv, prop);
  sweep("pressure_16", pressure<16, 0>, csv, prop);
  sweep("pressure_32", pressure<32, 0>, csv, prop);
  sweep("pressure_48", pressure<48, 0>, csv, prop);
  sweep("pressure_64", pressure<64, 0>, csv, prop);
  sweep("pressure_96", pressure<96, 0>, csv, prop);
  sweep("pressure_128", pressure<128, 0>, csv, prop);
  sweep("pressure_16_smem4k", pressure<16, 1024>, csv, prop);
  sweep("pressure_32_smem16k", pressure<32, 4096>, csv, prop);
  sweep("pressure_64_smem40k", pressure<64, 10240>, csv, prop);
  std::fclose(csv);
  std::printf("wrote %s/device.ini and %s/occupancy.csv\n", dir, dir);
  return 0;
}
