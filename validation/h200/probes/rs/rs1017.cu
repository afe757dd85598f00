#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
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
