#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void random_shape_1024(const unsigned* in, const float* fin, unsigned* out, float* fout, unsigned* gbits, unsigned* shared_out, unsigned long long* gwide) {
  __shared__ unsigned s_u[64];
  __shared__ float s_f[64];
  __shared__ unsigned s_add[32], s_max[16], s_cas[8];
  __shared__ unsigned char s_b[64];
  __shared__ unsigned short s_h[64];
  unsigned t = threadIdx.y * blockDim.x + threadIdx.x, g = blockIdx.x * (blockDim.x * blockDim.y) + t;
  if (t < 32) s_add[t] = 0;
  if (t < 16) s_max[t] = 0;
  if (t < 8) s_cas[t] = 0;
  __syncthreads();
  unsigned a = in[g], b = in[g + 512], c = a ^ (b << 3);
  float x = fin[g], y = fin[g + 512];
  unsigned loc[16];
  for (int i = 0; i < 16; ++i) loc[i] = a + i;
  unsigned long long ww = ((unsigned long long)a << 32) | b;
  double dd = (double)x;
  for (unsigned r1 = 0; r1 < 2u; ++r1) {
    ww = ww * 406801989103ull + b; dd = dd * 0.5 + (double)x;
    s_b[t] = (unsigned char)a; s_h[t] = (unsigned short)b;
    __syncthreads();
    a += s_b[(t + 28u) % 64u] * 3u + s_h[(t * 5u) % 64u];
    __syncthreads();
    if (fmaxf(x, (float)(int)b) < (float)dd) {
      atomicInc(&gbits[80 + (a & 7u)], 1000u); atomicAnd(&gbits[88 + (b & 7u)], ~(1u << (a & 31u))); atomicXor(&gbits[96 + (a & 7u)], b);
      a = g;
    } else {
      if ((t & 32u)) {
        b ^= 5u;
      } else {
        dd = fma(dd, (double)y, 1.5) / (fabs(dd) + 1.0) - sqrt(fabs(dd));
        for (unsigned k4 = 0; k4 < (b & 7u); ++k4) {
          y = ((fminf(y, 0.847f) + (y + x)) * (sqrtf(fabsf(x)) + sqrtf(fabsf((float)dd))));
          for (unsigned k5 = 0; k5 < (b & 7u); ++k5) {
            atomicAdd(&s_add[c & 31u], b & 255u); atomicMax(&s_max[a & 15u], b); atomicOr(&gbits[c & 63u], 1u << (b & 31u));
            c -= 3u;
            for (unsigned k6 = 0; k6 < (b & 7u); ++k6) {
              b = (unsigned)(long long)(dd * 1000.0) + (unsigned)__float2uint_ru(fabsf(x)) + (unsigned)__float2ll_rd(y * 1e10f) + __double2uint_rn(fabs(dd));
              b = (unsigned)__mul24((int)b, (int)a) + __sad(b, a, 7u) + (unsigned)__dp4a((int)b, (int)b, 3) + (unsigned)abs((int)b);
              c = a;
            }
          }
          y = (fmaf((float)a, (float)(int)b, fmaf(-1.307f, (float)a, y)) + (float)a);
        }
      }
      atomicAdd(&s_add[a & 31u], c & 255u); atomicMax(&s_max[a & 15u], a); atomicOr(&gbits[b & 63u], 1u << (a & 31u));
      ww = ww / ((unsigned long long)c | 1ull) + ww % (((unsigned long long)c << 7) | 3ull);
    }
  }
  __syncwarp(); b = __ldg(&in[(a % 1024u)]);
  for (unsigned j1 = 0; j1 < 8u; ++j1) {
    if (((a >> j1) & 3u) == 2u) break;
    if (((b + j1) & 3u) == 1u) continue;
    b ^= __funnelshift_r(a, a, a) + (unsigned)__mulhi((int)a, (int)a) + __urhadd(b, a) + (unsigned)__hadd((int)b, (int)c);
    dd = dd / ((double)y + 0.25) + sqrt(fabs(dd)) - (double)(long long)ww;
    c = ((unsigned)(int)((float)a - y) - c);
  }
  y = truncf(truncf((x / y)));
  x = __uint_as_float((c & 0x807fffffu) | 0x3f000000u) * (float)(int)b;
  out[g * 4 + 0] = a; out[g * 4 + 1] = b; out[g * 4 + 2] = c; out[g * 4 + 3] = (unsigned)(ww >> 17);
  fout[g * 3 + 0] = x; fout[g * 3 + 1] = y; fout[g * 3 + 2] = (float)dd; out[g * 4 + 3] ^= loc[a & 15u];
  __syncthreads();
  if (t < 32) shared_out[blockIdx.x * 48 + t] = s_add[t];
  if (t < 16) shared_out[blockIdx.x * 48 + 32 + t] = s_max[t];
  if (t < 8) atomicMax(&gbits[104 + t], s_cas[t]);
}
