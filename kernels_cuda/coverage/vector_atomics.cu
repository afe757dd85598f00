// sm_90's vector atomics: atomicAdd on float4 and float2 with and without the old value
// (REDG/ATOMG .F32x4, .F32x2), PTX's red.v4.f16x2 and red.v2.bf16x2 (.F16x8, .BF16x4), and a
// float atomic's flush of a subnormal. The added values are small multiples of powers of two,
// so every sum is exact in any order; the old values each thread gets depend on the order, so
// they are checked as a set.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__global__ void vector_atomics(const int* in, float* acc, float* old4, float* old2,
                               unsigned* halves, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int v = in[i];
  const float4 x = make_float4((v & 255) * 0.25f, ((v >> 8) & 255) * 0.25f,
                               ((v >> 16) & 255) * 0.5f, static_cast<float>((v >> 24) & 127));
  atomicAdd(reinterpret_cast<float4*>(acc), x);
  atomicAdd(reinterpret_cast<float2*>(acc + 4), make_float2(x.z, x.w));
  const float4 before = atomicAdd(reinterpret_cast<float4*>(acc + 8), make_float4(1, 2, 3, 4));
  reinterpret_cast<float4*>(old4)[i] = before;
  const float2 before2 = atomicAdd(reinterpret_cast<float2*>(acc + 12), make_float2(0.5f, 8));
  reinterpret_cast<float2*>(old2)[i] = before2;
  const __half2 h = __floats2half2_rn(static_cast<float>(v & 7), static_cast<float>((v >> 3) & 7));
  const __nv_bfloat162 b = __floats2bfloat162_rn(static_cast<float>((v >> 6) & 1), 0.5f);
  const unsigned hw = *reinterpret_cast<const unsigned*>(&h);
  const unsigned bw = *reinterpret_cast<const unsigned*>(&b);
  asm volatile("red.global.add.noftz.v4.f16x2 [%0], {%1, %1, %1, %1};" ::"l"(halves), "r"(hw));
  asm volatile("red.global.add.noftz.v2.bf16x2 [%0], {%1, %1};" ::"l"(halves + 4), "r"(bw));
  // 1e-40 is subnormal: atom.add.f32 flushes it, so the sum stays 0.
  if (i == 0) atomicAdd(acc + 14, 1e-40f);
}
