// Arithmetic on halves and bfloat16s and on pairs of them (__hadd, __hmul2, __hfma2, __hneg2,
// __habs, __hmin2, ...), one output word per form, on random 32-bit words read as two halves
// (a third of them scaled into the subnormal range, some infinities and NaNs among them).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#define OUT(k, expr) o[kSlots * i + (k)] = (expr)

__device__ unsigned bits(__half2 h) { return *reinterpret_cast<unsigned*>(&h); }
__device__ unsigned bits(__nv_bfloat162 h) { return *reinterpret_cast<unsigned*>(&h); }
__device__ unsigned bits(__half h) { return *reinterpret_cast<unsigned short*>(&h); }
__device__ unsigned bits(__nv_bfloat16 h) { return *reinterpret_cast<unsigned short*>(&h); }

__global__ void half_arith(const unsigned* a, unsigned* o) {
  constexpr int kSlots = 24;
  const int i = threadIdx.x;
  unsigned wx = a[3 * i], wy = a[3 * i + 1], wz = a[3 * i + 2];
  if (i % 3 == 1) wx &= 0x83ff83ffu;  // subnormal halves
  if (i % 7 == 2) wy |= 0x7c007c00u;  // infinities and NaNs
  const __half2 x = *reinterpret_cast<__half2*>(&wx), y = *reinterpret_cast<__half2*>(&wy),
               z = *reinterpret_cast<__half2*>(&wz);
  const __nv_bfloat162 bx = *reinterpret_cast<__nv_bfloat162*>(&wx),
                       by = *reinterpret_cast<__nv_bfloat162*>(&wy),
                       bz = *reinterpret_cast<__nv_bfloat162*>(&wz);
  OUT(0, bits(__hadd2(x, y)));
  OUT(1, bits(__hsub2(x, y)));
  OUT(2, bits(__hmul2(x, y)));
  OUT(3, bits(__hfma2(x, y, z)));
  OUT(4, bits(__hneg2(x)));
  OUT(5, bits(__habs2(x)));
  OUT(6, bits(__hmin2(x, y)));
  OUT(7, bits(__hmax2(x, y)));
  OUT(8, bits(__hadd(x.x, y.y)));
  OUT(9, bits(__hmul(x.y, y.x)));
  OUT(10, bits(__hfma(x.x, y.x, z.y)));
  OUT(11, bits(__hsub(z.x, x.y)));
  OUT(12, bits(__hadd2(bx, by)));
  OUT(13, bits(__hsub2(bx, by)));
  OUT(14, bits(__hmul2(bx, by)));
  OUT(15, bits(__hfma2(bx, by, bz)));
  OUT(16, bits(__hneg2(bx)));
  OUT(17, bits(__habs2(bx)));
  OUT(18, bits(__hmin2(bx, by)));
  OUT(19, bits(__hmax2(bx, by)));
  OUT(20, bits(__hadd(bx.x, by.y)));
  OUT(21, bits(__hmul(bx.y, by.x)));
  OUT(22, bits(__hfma(bx.x, by.x, bz.y)));
  OUT(23, bits(__hmin(x.y, y.y)));
}
