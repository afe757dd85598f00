// Conversions between halves (and bfloat16s) and integers of every width, in every rounding
// CUDA names (__half2int_rn, __int2half_rz, __bfloat162short_rd, __ull2half_ru, ...), one output
// word per form. Each thread's half is a random 16-bit pattern, scaled in some threads into the
// range of 8- and 16-bit integers (ties at .5 among them), with infinities and NaNs; its integer
// a random word, narrowed in some threads to where halves round between neighbours.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#define OUT(k, expr) o[kSlots * i + (k)] = static_cast<unsigned>(expr)

__device__ unsigned bits(__half h) { return *reinterpret_cast<unsigned short*>(&h); }
__device__ unsigned bits(__nv_bfloat16 h) { return *reinterpret_cast<unsigned short*>(&h); }

__global__ void half_int_conversions(const unsigned* a, unsigned* o) {
  constexpr int kSlots = 40;
  const int i = threadIdx.x;
  unsigned short hb = static_cast<unsigned short>(a[2 * i]);
  if (i % 4 == 1) hb = static_cast<unsigned short>((hb & 0x83ffu) | 0x5400u);  // 64 to 128
  if (i % 4 == 2) hb = static_cast<unsigned short>((hb & 0x83ffu) | 0x3c00u);  // 1 to 2, ties
  if (i % 9 == 3) hb |= 0x7c00u;                                               // inf and NaN
  const __half h = *reinterpret_cast<__half*>(&hb);
  const __nv_bfloat16 b = *reinterpret_cast<__nv_bfloat16*>(&hb);
  unsigned word = a[2 * i + 1];
  if (i % 3 == 1) word &= 0x8001ffffu;  // near 2^16 and 2^17, where halves are 32 and 64 apart
  const int s = static_cast<int>(word);
  const long long ll = (static_cast<long long>(s) << (i % 40)) + i;
  const unsigned long long ull = static_cast<unsigned long long>(ll) ^ (1ull << 63);
  OUT(0, __half2int_rn(h));
  OUT(1, __half2int_rz(h));
  OUT(2, __half2int_rd(h));
  OUT(3, __half2int_ru(h));
  OUT(4, __half2uint_rn(h));
  OUT(5, __half2uint_rz(h));
  OUT(6, __half2short_rn(h));
  OUT(7, __half2short_rz(h));
  OUT(8, __half2ushort_rd(h));
  OUT(9, __half2ushort_ru(h));
  OUT(10, __half2ll_rn(h));
  OUT(11, __half2ll_rn(h) >> 32);
  OUT(12, __half2ull_rz(h));
  OUT(13, __half2char_rz(h));
  OUT(14, __half2uchar_rz(h));
  OUT(15, bits(__int2half_rn(s)));
  OUT(16, bits(__int2half_rz(s)));
  OUT(17, bits(__int2half_rd(s)));
  OUT(18, bits(__int2half_ru(s)));
  OUT(19, bits(__uint2half_rn(word)));
  OUT(20, bits(__short2half_rn(static_cast<short>(s))));
  OUT(21, bits(__ushort2half_rz(static_cast<unsigned short>(word))));
  OUT(22, bits(__ll2half_rn(ll)));
  OUT(23, bits(__ull2half_rd(ull)));
  OUT(24, __bfloat162int_rn(b));
  OUT(25, __bfloat162int_rz(b));
  OUT(26, __bfloat162int_rd(b));
  OUT(27, __bfloat162uint_ru(b));
  OUT(28, __bfloat162short_rn(b));
  OUT(29, __bfloat162ushort_rz(b));
  OUT(30, __bfloat162ll_rn(b));
  OUT(31, __bfloat162ll_rn(b) >> 32);
  OUT(32, bits(__int2bfloat16_rn(s)));
  OUT(33, bits(__int2bfloat16_rz(s)));
  OUT(34, bits(__int2bfloat16_rd(s)));
  OUT(35, bits(__uint2bfloat16_ru(word)));
  OUT(36, bits(__short2bfloat16_rn(static_cast<short>(s))));
  OUT(37, bits(__ushort2bfloat16_rz(static_cast<unsigned short>(word))));
  OUT(38, bits(__ll2bfloat16_rn(ll)));
  OUT(39, bits(__ull2bfloat16_rz(ull)));
}
