#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void random_shape_1029(const unsigned* in, const float* fin, unsigned* out, float* fout, unsigned* gbits, unsigned* shared_out, unsigned long long* gwide) {
  __shared__ unsigned s_u[192];
  __shared__ float s_f[192];
  __shared__ unsigned s_add[32], s_max[16], s_cas[8];
  __shared__ unsigned char s_b[192];
  __shared__ unsigned short s_h[192];
  unsigned t = threadIdx.y * blockDim.x + threadIdx.x, g = blockIdx.x * (blockDim.x * blockDim.y) + t;
  if (t < 32) s_add[t] = 0;
  if (t < 16) s_max[t] = 0;
  if (t < 8) s_cas[t] = 0;
  __syncthreads();
  unsigned a = in[g], b = in[g + 576], c = a ^ (b << 3);
  float x = fin[g], y = fin[g + 576];
  unsigned loc[16];
  for (int i = 0; i < 16; ++i) loc[i] = a + i;
  unsigned long long ww = ((unsigned long long)a << 32) | b;
  double dd = (double)x;
  if (t < 91u) {
    if ((a % 3u) == 1u) {
      a ^= __funnelshift_r(a, c, c) + (unsigned)__mulhi((int)a, (int)a) + __urhadd(a, a) + (unsigned)__hadd((int)a, (int)a);
      a = (unsigned)(long long)(dd * 1000.0) + (unsigned)__float2uint_ru(fabsf(x)) + (unsigned)__float2ll_rd(y * 1e10f) + __double2uint_rn(fabs(dd));
    }
  } else {
    if (((c & g) & 3u) == 1u) {
      b = __byte_perm(1309523222u, (unsigned)__popc(((unsigned)ww >> ((unsigned)ww & 31u))), 37021);
      if (((c + a) & 15u) == 0u) {
        a = (((g % (g | 1u)) << (__byte_perm((unsigned)ww, c, 5173) & 31u)) / ((unsigned)ww | 1u));
      } else {
        a += __reduce_add_sync(__activemask(), a) ^ __match_any_sync(__activemask(), c & 3u);
        atomicAdd(&s_add[a & 31u], c & 255u); atomicMax(&s_max[c & 15u], a); atomicOr(&gbits[a & 63u], 1u << (a & 31u));
        b -= 3u;
      }
    } else {
      y = (x / fmaf((float)a, __half2float(__hadd(__float2half((float)a), __float2half(y))), __half2float(__hadd(__float2half((float)dd), __float2half(-3.451f)))));
    }
    dd = dd / ((double)x + 0.25) + sqrt(fabs(dd)) - (double)(long long)ww;
    x = __half2float(__float2half_rz(((float)(g & 0xffffu) + x))) + __bfloat162float(__float2bfloat16(x)) + __half2float(__float2half_rd(x));
  }
  a = (unsigned)__float2int_rn((fmaf(x, x, (float)a) * ((float)a - 2.784f))) + __float_as_uint(y) + (unsigned)__double2ll_rz(dd);
  c += (unsigned)__syncthreads_count(c & 1u) + (unsigned)__syncthreads_or(b > 100u) + (unsigned)__syncthreads_and(t < 5000u);
  b += __ballot_sync(0xffffffffu, fmaxf(x, (float)(int)b) < truncf((float)(int)b)) + (unsigned)__any_sync(0xffffffffu, (t & 16u));
  b ^= (unsigned)(signed char)b + (unsigned)(short)(b >> 5) * (unsigned)(unsigned char)c;
  out[g * 4 + 0] = a; out[g * 4 + 1] = b; out[g * 4 + 2] = c; out[g * 4 + 3] = (unsigned)(ww >> 17);
  fout[g * 3 + 0] = x; fout[g * 3 + 1] = y; fout[g * 3 + 2] = (float)dd; out[g * 4 + 3] ^= loc[a & 15u];
  __syncthreads();
  if (t < 32) shared_out[blockIdx.x * 48 + t] = s_add[t];
  if (t < 16) shared_out[blockIdx.x * 48 + 32 + t] = s_max[t];
  if (t < 8) atomicMax(&gbits[104 + t], s_cas[t]);
}
