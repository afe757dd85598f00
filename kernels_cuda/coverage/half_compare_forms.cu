// Comparisons of halves and bfloat16s and of pairs of them (__hlt, __hgeu, __heq2, __hbeq2,
// __hisnan, ...), one output word per form, on random words read as two halves; a quarter of
// the threads compare a word with itself (equal halves) and a fifth against NaNs.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#define OUT(k, expr) o[kSlots * i + (k)] = (expr)

__device__ unsigned bits(__half2 h) { return *reinterpret_cast<unsigned*>(&h); }
__device__ unsigned bits(__nv_bfloat162 h) { return *reinterpret_cast<unsigned*>(&h); }

__global__ void half_compare_forms(const unsigned* a, unsigned* o) {
  constexpr int kSlots = 14;
  const int i = threadIdx.x;
  unsigned wx = a[2 * i], wy = i % 4 == 0 ? wx : a[2 * i + 1];
  if (i % 5 == 1) wy |= 0x7e007e00u;  // NaNs
  const __half2 x = *reinterpret_cast<__half2*>(&wx), y = *reinterpret_cast<__half2*>(&wy);
  const __nv_bfloat162 bx = *reinterpret_cast<__nv_bfloat162*>(&wx),
                       by = *reinterpret_cast<__nv_bfloat162*>(&wy);
  OUT(0, __hlt(x.x, y.x) ? 1u : 0u);
  OUT(1, __hgeu(x.y, y.y) ? 1u : 0u);
  OUT(2, __heq(x.x, y.x) ? 1u : 0u);
  OUT(3, __hneu(x.y, y.y) ? 1u : 0u);
  OUT(4, __hisnan(y.x) ? 1u : 0u);
  OUT(5, bits(__hlt2(x, y)));
  OUT(6, bits(__heq2(x, y)));
  OUT(7, __hbeq2(x, y) ? 1u : 0u);
  OUT(8, bits(__hgtu2(x, y)));
  OUT(9, __hgt(bx.x, by.x) ? 1u : 0u);
  OUT(10, bits(__hle2(bx, by)));
  OUT(11, __hequ(bx.y, by.y) ? 1u : 0u);
  OUT(12, __hbltu2(bx, by) ? 1u : 0u);
  OUT(13, __hne(x.x, y.x) ? 1u : 0u);
}
