// Kernels generated at random and kept fixed: integer and IEEE float arithmetic (no
// approximations, so every bit is defined by the PTX ISA), 64-bit integers and doubles, half and
// bfloat16 conversions, shared and global atomics whose totals do not depend on their order, a
// compare-and-swap loop, byte and short shared arrays, local arrays indexed at run time, warp
// shuffles, ballots, match and reduce, switch statements, loops with break and continue,
// if-trees on data up to three deep, barriers in uniform loops, and 2-D blocks. Both frontends
// must give the GPU's buffers.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void random_shape_1030(const unsigned* in, const float* fin, unsigned* out, float* fout, unsigned* gbits, unsigned* shared_out, unsigned long long* gwide) {
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
  unsigned a = in[g], b = in[g + 192], c = a ^ (b << 3);
  float x = fin[g], y = fin[g + 192];
  unsigned loc[16];
  for (int i = 0; i < 16; ++i) loc[i] = a + i;
  unsigned long long ww = ((unsigned long long)a << 32) | b;
  double dd = (double)x;
  for (unsigned j1 = 0; j1 < 8u; ++j1) {
    if (((c >> j1) & 3u) == 2u) break;
    if (((b + j1) & 3u) == 1u) continue;
    if (((unsigned)__clz(t) & 15u) == 0u) {
      { unsigned old = s_cas[b & 7u], seen; do { seen = old; old = atomicCAS(&s_cas[b & 7u], seen, max(seen, b)); } while (old != seen); }
      c = b / 7u + b % 13u + (unsigned)((int)c / -5) + (unsigned)((int)a % 9) + c / 1000u;
    } else {
      b = (unsigned)((int)min((unsigned)__clz((unsigned)ww), (unsigned)ww) / (int)(((unsigned)(int)(y * y) & 0x7fffu) | 1u));
    }
  }
  c += __ballot_sync(0xffffffffu, t < 37u) + (unsigned)__any_sync(0xffffffffu, (a % 3u) == 1u);
  x = fmaxf(floorf(copysignf(x, (float)(int)b)), fminf(fmaf((float)dd, (float)dd, (float)(int)b), (y / (float)dd)));
  b = ((unsigned)__clz((c ^ c)) | (172685631u | (392719154u / (g | 1u))));
  for (unsigned j1 = 0; j1 < 8u; ++j1) {
    if (((c >> j1) & 3u) == 2u) break;
    if (((c + j1) & 3u) == 1u) continue;
    for (unsigned j2 = 0; j2 < 8u; ++j2) {
      if (((b >> j2) & 3u) == 2u) break;
      if (((a + j2) & 3u) == 1u) continue;
      x = x;
      x = (truncf(y) / (float)((t / (g | 1u)) & 0xffffu));
      if ((g & 7u) < 3u) {
        { unsigned old = s_cas[c & 7u], seen; do { seen = old; old = atomicCAS(&s_cas[c & 7u], seen, max(seen, a)); } while (old != seen); }
        atomicAdd(&s_add[b & 31u], c & 255u); atomicMax(&s_max[b & 15u], a); atomicOr(&gbits[a & 63u], 1u << (b & 31u));
        b = (unsigned)((int)((unsigned)__clz(b) & (unsigned)((int)g >> ((unsigned)ww & 31u))) / (int)(((unsigned)ww & 0x7fffu) | 1u));
      } else {
        for (unsigned k4 = 0; k4 < (a & 7u); ++k4) {
          ww = ww / ((unsigned long long)a | 1ull) + ww % (((unsigned long long)b << 7) | 3ull);
          atomicAdd(&s_add[a & 31u], a & 255u); atomicMax(&s_max[c & 15u], c); atomicOr(&gbits[a & 63u], 1u << (b & 31u));
        }
        a = ((unsigned)__popc((t ^ a)) / ((__byte_perm(1478974013u, 690428226u, 13224) >> ((g / (t | 1u)) & 31u)) | 1u));
      }
    }
    switch (c % 9u) {
      case 0: c = ((c & a) * (406643019u % (1057275614u | 1u))); break;
      case 1: c = (((unsigned)ww - a) | (unsigned)ww); break;
      case 2: c = 55704837u; break;
      case 3: b = max(min(868548782u, g), (a / (t | 1u))); break;
      case 4: c = min((unsigned)(int)(float)(int)b, (unsigned)((int)a / (int)((b & 0x7fffu) | 1u))); break;
      default: y = y;
    }
    a = (unsigned)ww;
  }
  out[g * 4 + 0] = a; out[g * 4 + 1] = b; out[g * 4 + 2] = c; out[g * 4 + 3] = (unsigned)(ww >> 17);
  fout[g * 3 + 0] = x; fout[g * 3 + 1] = y; fout[g * 3 + 2] = (float)dd; out[g * 4 + 3] ^= loc[a & 15u];
  __syncthreads();
  if (t < 32) shared_out[blockIdx.x * 48 + t] = s_add[t];
  if (t < 16) shared_out[blockIdx.x * 48 + 32 + t] = s_max[t];
  if (t < 8) atomicMax(&gbits[104 + t], s_cas[t]);
}

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

__global__ void random_shape_1013(const unsigned* in, const float* fin, unsigned* out, float* fout, unsigned* gbits, unsigned* shared_out, unsigned long long* gwide) {
  __shared__ unsigned s_u[96];
  __shared__ float s_f[96];
  __shared__ unsigned s_add[32], s_max[16], s_cas[8];
  __shared__ unsigned char s_b[96];
  __shared__ unsigned short s_h[96];
  unsigned t = threadIdx.y * blockDim.x + threadIdx.x, g = blockIdx.x * (blockDim.x * blockDim.y) + t;
  if (t < 32) s_add[t] = 0;
  if (t < 16) s_max[t] = 0;
  if (t < 8) s_cas[t] = 0;
  __syncthreads();
  unsigned a = in[g], b = in[g + 288], c = a ^ (b << 3);
  float x = fin[g], y = fin[g + 288];
  unsigned loc[16];
  for (int i = 0; i < 16; ++i) loc[i] = a + i;
  unsigned long long ww = ((unsigned long long)a << 32) | b;
  double dd = (double)x;
  switch (b % 9u) {
    case 0: a = (g | max(t, g)); 
    case 1: c = ((594245124u % (g | 1u)) + (unsigned)ww); 
    case 2: b = c; break;
    case 3: b = (__umulhi(c, c) + (unsigned)(int)-1.084f); break;
    case 4: c = (__umulhi(1492905957u, g) + __brev(t)); 
    case 5: c = (__umulhi(b, t) + max(647983905u, b)); 
    default: x = x;
  }
  a = (unsigned)__float2int_rn((float)(int)b) + __float_as_uint(x) + (unsigned)__double2ll_rz(dd);
  x = copysignf((((float)a + (float)(int)b) - (float)a), copysignf((x + x), (float)(int)b));
  atomicAdd(&s_add[a & 31u], c & 255u); atomicMax(&s_max[b & 15u], c); atomicOr(&gbits[c & 63u], 1u << (a & 31u));
  for (unsigned j1 = 0; j1 < 8u; ++j1) {
    if (((b >> j1) & 3u) == 2u) break;
    if (((a + j1) & 3u) == 1u) continue;
    ww = ww * 97076842288ull + b; dd = dd * 0.5 + (double)y;
    ww = ww * 1024535665258ull + c; dd = dd * 0.5 + (double)y;
  }
  for (unsigned r1 = 0; r1 < 1u; ++r1) {
    loc[a & 15u] = a; b += loc[(a >> 3) & 15u];
    c += __reduce_add_sync(__activemask(), b) ^ __match_any_sync(__activemask(), c & 3u);
    ww = ww * 335583752270ull + b; dd = dd * 0.5 + (double)x;
  }
  out[g * 4 + 0] = a; out[g * 4 + 1] = b; out[g * 4 + 2] = c; out[g * 4 + 3] = (unsigned)(ww >> 17);
  fout[g * 3 + 0] = x; fout[g * 3 + 1] = y; fout[g * 3 + 2] = (float)dd; out[g * 4 + 3] ^= loc[a & 15u];
  __syncthreads();
  if (t < 32) shared_out[blockIdx.x * 48 + t] = s_add[t];
  if (t < 16) shared_out[blockIdx.x * 48 + 32 + t] = s_max[t];
  if (t < 8) atomicMax(&gbits[104 + t], s_cas[t]);
}

__global__ void random_shape_1016(const unsigned* in, const float* fin, unsigned* out, float* fout, unsigned* gbits, unsigned* shared_out, unsigned long long* gwide) {
  __shared__ unsigned s_u[256];
  __shared__ float s_f[256];
  __shared__ unsigned s_add[32], s_max[16], s_cas[8];
  __shared__ unsigned char s_b[256];
  __shared__ unsigned short s_h[256];
  unsigned t = threadIdx.y * blockDim.x + threadIdx.x, g = blockIdx.x * (blockDim.x * blockDim.y) + t;
  if (t < 32) s_add[t] = 0;
  if (t < 16) s_max[t] = 0;
  if (t < 8) s_cas[t] = 0;
  __syncthreads();
  unsigned a = in[g], b = in[g + 1280], c = a ^ (b << 3);
  float x = fin[g], y = fin[g + 1280];
  unsigned loc[16];
  for (int i = 0; i < 16; ++i) loc[i] = a + i;
  unsigned long long ww = ((unsigned long long)a << 32) | b;
  double dd = (double)x;
  x = __uint_as_float((b & 0x807fffffu) | 0x3f000000u) * ((float)(int)b / copysignf(-1.399f, y));
  b ^= __shfl_xor_sync(0xffffffffu, b, 1);
  s_u[t] = c; s_f[t] = x;
  __syncthreads();
  a += s_u[(t * 7u + 90u) % 256u]; y -= s_f[(t + 90u) % 256u];
  __syncthreads();
  a ^= (unsigned)(signed char)b + (unsigned)(short)(a >> 5) * (unsigned)(unsigned char)c;
  if ((t & 32u)) {
    atomicInc(&gbits[80 + (b & 7u)], 1000u); atomicAnd(&gbits[88 + (a & 7u)], ~(1u << (b & 31u))); atomicXor(&gbits[96 + (b & 7u)], a);
    switch (a % 9u) {
      case 0: b = (unsigned)((int)(unsigned)ww / (int)(((a & 584622683u) & 0x7fffu) | 1u)); break;
      case 1: b = (__brev(c) - min((unsigned)ww, a)); break;
      case 2: c = (unsigned)((int)min(b, (unsigned)ww) >> (__funnelshift_l((unsigned)ww, g, 1671075199u) & 31u)); break;
      default: x = (float)dd;
    }
  }
  __syncwarp(); b = __ldg(&in[(c % 2560u)]);
  out[g * 4 + 0] = a; out[g * 4 + 1] = b; out[g * 4 + 2] = c; out[g * 4 + 3] = (unsigned)(ww >> 17);
  fout[g * 3 + 0] = x; fout[g * 3 + 1] = y; fout[g * 3 + 2] = (float)dd; out[g * 4 + 3] ^= loc[a & 15u];
  __syncthreads();
  if (t < 32) shared_out[blockIdx.x * 48 + t] = s_add[t];
  if (t < 16) shared_out[blockIdx.x * 48 + 32 + t] = s_max[t];
  if (t < 8) atomicMax(&gbits[104 + t], s_cas[t]);
}

__global__ void random_shape_1035(const unsigned* in, const float* fin, unsigned* out, float* fout, unsigned* gbits, unsigned* shared_out, unsigned long long* gwide) {
  __shared__ unsigned s_u[96];
  __shared__ float s_f[96];
  __shared__ unsigned s_add[32], s_max[16], s_cas[8];
  __shared__ unsigned char s_b[96];
  __shared__ unsigned short s_h[96];
  unsigned t = threadIdx.y * blockDim.x + threadIdx.x, g = blockIdx.x * (blockDim.x * blockDim.y) + t;
  if (t < 32) s_add[t] = 0;
  if (t < 16) s_max[t] = 0;
  if (t < 8) s_cas[t] = 0;
  __syncthreads();
  unsigned a = in[g], b = in[g + 480], c = a ^ (b << 3);
  float x = fin[g], y = fin[g + 480];
  unsigned loc[16];
  for (int i = 0; i < 16; ++i) loc[i] = a + i;
  unsigned long long ww = ((unsigned long long)a << 32) | b;
  double dd = (double)x;
  switch (a % 9u) {
    case 0: c = g; break;
    case 1: c = ((b % (1609617914u | 1u)) * ((unsigned)ww / (g | 1u))); break;
    case 2: a = ((t + c) * (t % (911111384u | 1u))); break;
    case 3: a = (unsigned)__popc((unsigned)((int)a / (int)((c & 0x7fffu) | 1u))); break;
    case 4: c = __byte_perm(g, ((unsigned)ww >> (t & 31u)), 38633); break;
    case 5: a = (unsigned)((int)max(1534979758u, 759258842u) / (int)(((unsigned)__clz(g) & 0x7fffu) | 1u)); break;
    case 6: b = (__funnelshift_l((unsigned)ww, (unsigned)ww, g) * 761643960u); break;
    default: x = ((y - (float)(int)b) - sqrtf(fabsf(-2.304f)));
  }
  dd = dd / ((double)y + 0.25) + sqrt(fabs(dd)) - (double)(long long)ww;
  ww = ww / ((unsigned long long)c | 1ull) + ww % (((unsigned long long)c << 7) | 3ull);
  ww = (unsigned long long)((long long)ww / (long long)((ww >> 40) | 3ull)) ^ (unsigned long long)((long long)ww % -7ll) ^ __umul64hi(ww, 0x9e3779b97f4a7c15ull);
  out[g * 4 + 0] = a; out[g * 4 + 1] = b; out[g * 4 + 2] = c; out[g * 4 + 3] = (unsigned)(ww >> 17);
  fout[g * 3 + 0] = x; fout[g * 3 + 1] = y; fout[g * 3 + 2] = (float)dd; out[g * 4 + 3] ^= loc[a & 15u];
  __syncthreads();
  if (t < 32) shared_out[blockIdx.x * 48 + t] = s_add[t];
  if (t < 16) shared_out[blockIdx.x * 48 + 32 + t] = s_max[t];
  if (t < 8) atomicMax(&gbits[104 + t], s_cas[t]);
}

__global__ void random_shape_1005(const unsigned* in, const float* fin, unsigned* out, float* fout, unsigned* gbits, unsigned* shared_out, unsigned long long* gwide) {
  __shared__ unsigned s_u[96];
  __shared__ float s_f[96];
  __shared__ unsigned s_add[32], s_max[16], s_cas[8];
  __shared__ unsigned char s_b[96];
  __shared__ unsigned short s_h[96];
  unsigned t = threadIdx.y * blockDim.x + threadIdx.x, g = blockIdx.x * (blockDim.x * blockDim.y) + t;
  if (t < 32) s_add[t] = 0;
  if (t < 16) s_max[t] = 0;
  if (t < 8) s_cas[t] = 0;
  __syncthreads();
  unsigned a = in[g], b = in[g + 768], c = a ^ (b << 3);
  float x = fin[g], y = fin[g + 768];
  unsigned loc[16];
  for (int i = 0; i < 16; ++i) loc[i] = a + i;
  unsigned long long ww = ((unsigned long long)a << 32) | b;
  double dd = (double)x;
  x += __shfl_down_sync(0xffffffffu, y, 4);
  a ^= __shfl_xor_sync(0xffffffffu, a, 16);
  switch (b % 9u) {
    case 0: b = (unsigned)ww; break;
    case 1: b = t; 
    case 2: c = (unsigned)(int)(float)a; break;
    case 3: c = 1457452304u; 
    case 4: b = 100717418u; 
    default: y = y;
  }
  y += __shfl_down_sync(0xffffffffu, y, 2);
  atomicInc(&gbits[80 + (b & 7u)], 1000u); atomicAnd(&gbits[88 + (c & 7u)], ~(1u << (b & 31u))); atomicXor(&gbits[96 + (b & 7u)], c);
  y += __shfl_down_sync(0xffffffffu, x, 3);
  out[g * 4 + 0] = a; out[g * 4 + 1] = b; out[g * 4 + 2] = c; out[g * 4 + 3] = (unsigned)(ww >> 17);
  fout[g * 3 + 0] = x; fout[g * 3 + 1] = y; fout[g * 3 + 2] = (float)dd; out[g * 4 + 3] ^= loc[a & 15u];
  __syncthreads();
  if (t < 32) shared_out[blockIdx.x * 48 + t] = s_add[t];
  if (t < 16) shared_out[blockIdx.x * 48 + 32 + t] = s_max[t];
  if (t < 8) atomicMax(&gbits[104 + t], s_cas[t]);
}

__global__ void random_shape_1010(const unsigned* in, const float* fin, unsigned* out, float* fout, unsigned* gbits, unsigned* shared_out, unsigned long long* gwide) {
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
  unsigned a = in[g], b = in[g + 384], c = a ^ (b << 3);
  float x = fin[g], y = fin[g + 384];
  unsigned loc[16];
  for (int i = 0; i < 16; ++i) loc[i] = a + i;
  unsigned long long ww = ((unsigned long long)a << 32) | b;
  double dd = (double)x;
  a = c / 7u + c % 13u + (unsigned)((int)a / -5) + (unsigned)((int)b % 9) + a / 1000u;
  c ^= __shfl_xor_sync(0xffffffffu, c, 4);
  c += __shfl_sync(0xffffffffu, c, b & 31u, 8) + __shfl_up_sync(0xffffffffu, a, 5, 8);
  s_u[t] = b; s_f[t] = x;
  __syncthreads();
  c += s_u[(t * 1u + 48u) % 192u]; x -= s_f[(t + 48u) % 192u];
  __syncthreads();
  for (unsigned r1 = 0; r1 < 1u; ++r1) {
    a = __umulhi(t, min(a, (g | t)));
    c += __shfl_sync(0xffffffffu, a, a & 31u, 4) + __shfl_up_sync(0xffffffffu, c, 1, 32);
    dd = fma(dd, (double)y, 1.5) / (fabs(dd) + 1.0) - sqrt(fabs(dd));
  }
  out[g * 4 + 0] = a; out[g * 4 + 1] = b; out[g * 4 + 2] = c; out[g * 4 + 3] = (unsigned)(ww >> 17);
  fout[g * 3 + 0] = x; fout[g * 3 + 1] = y; fout[g * 3 + 2] = (float)dd; out[g * 4 + 3] ^= loc[a & 15u];
  __syncthreads();
  if (t < 32) shared_out[blockIdx.x * 48 + t] = s_add[t];
  if (t < 16) shared_out[blockIdx.x * 48 + 32 + t] = s_max[t];
  if (t < 8) atomicMax(&gbits[104 + t], s_cas[t]);
}

__global__ void random_shape_1017(const unsigned* in, const float* fin, unsigned* out, float* fout, unsigned* gbits, unsigned* shared_out, unsigned long long* gwide) {
  __shared__ unsigned s_u[96];
  __shared__ float s_f[96];
  __shared__ unsigned s_add[32], s_max[16], s_cas[8];
  __shared__ unsigned char s_b[96];
  __shared__ unsigned short s_h[96];
  unsigned t = threadIdx.y * blockDim.x + threadIdx.x, g = blockIdx.x * (blockDim.x * blockDim.y) + t;
  if (t < 32) s_add[t] = 0;
  if (t < 16) s_max[t] = 0;
  if (t < 8) s_cas[t] = 0;
  __syncthreads();
  unsigned a = in[g], b = in[g + 768], c = a ^ (b << 3);
  float x = fin[g], y = fin[g + 768];
  unsigned loc[16];
  for (int i = 0; i < 16; ++i) loc[i] = a + i;
  unsigned long long ww = ((unsigned long long)a << 32) | b;
  double dd = (double)x;
  a += __reduce_add_sync(__activemask(), b) ^ __match_any_sync(__activemask(), b & 3u);
  for (unsigned j1 = 0; j1 < 8u; ++j1) {
    if (((c >> j1) & 3u) == 2u) break;
    if (((c + j1) & 3u) == 1u) continue;
    { unsigned old = s_cas[a & 7u], seen; do { seen = old; old = atomicCAS(&s_cas[a & 7u], seen, max(seen, b)); } while (old != seen); }
    ww = ww / ((unsigned long long)c | 1ull) + ww % (((unsigned long long)a << 7) | 3ull);
  }
  out[g * 4 + 0] = a; out[g * 4 + 1] = b; out[g * 4 + 2] = c; out[g * 4 + 3] = (unsigned)(ww >> 17);
  fout[g * 3 + 0] = x; fout[g * 3 + 1] = y; fout[g * 3 + 2] = (float)dd; out[g * 4 + 3] ^= loc[a & 15u];
  __syncthreads();
  if (t < 32) shared_out[blockIdx.x * 48 + t] = s_add[t];
  if (t < 16) shared_out[blockIdx.x * 48 + 32 + t] = s_max[t];
  if (t < 8) atomicMax(&gbits[104 + t], s_cas[t]);
}
