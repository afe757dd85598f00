// Buffers of 8- and 16-bit elements as a launch gives them (u8, s16, f16, bf16 in the launch
// syntax): each thread reads its element of each and writes a half and a float made of them.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__global__ void narrow_buffers(const unsigned char* bytes, const short* shorts,
                               const __half* halves, const __nv_bfloat16* brains, __half* scaled,
                               float* sums, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float h = __half2float(halves[i]);
  float b = __bfloat162float(brains[i]);
  scaled[i] = __float2half_rn(h * 0.5f + b);
  sums[i] = (float)bytes[i] + (float)shorts[i] + h + b;
}
