// Tensor cores through wmma (HMMA.16816 on sm_90), one warp, one 16x16x16 tile product each
// way: f16 inputs into an f32 and into an f16 accumulator, bfloat16 inputs into f32, all on small
// integers (exact in every format, whatever the order of the sums); and f16 inputs from random
// floats into f32 (where the tensor core's rounding of its sums shows).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

__global__ void wmma_tiles(const unsigned* ai, const unsigned* bi, const float* af, const float* bf,
                           float* c32, half* c16, float* cb, float* creal) {
  __shared__ half a[256], b[256], ar[256], br[256];
  __shared__ __nv_bfloat16 ab[256], bb[256];
  for (int i = threadIdx.x; i < 256; i += 32) {
    const int x = static_cast<int>(ai[i] & 7u) - 3, y = static_cast<int>(bi[i] & 7u) - 3;
    a[i] = __int2half_rn(x);
    b[i] = __int2half_rn(y);
    ab[i] = __int2bfloat16_rn(x);
    bb[i] = __int2bfloat16_rn(y);
    ar[i] = __float2half_rn(af[i]);
    br[i] = __float2half_rn(bf[i]);
  }
  __syncwarp();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa, fra;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb, frb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> f32, freal;
  wmma::fragment<wmma::accumulator, 16, 16, 16, half> f16;
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::fill_fragment(f32, 1.0f);
  wmma::fill_fragment(f16, __float2half(-2.0f));
  wmma::mma_sync(f32, fa, fb, f32);
  wmma::mma_sync(f16, fa, fb, f16);
  wmma::store_matrix_sync(c32, f32, 16, wmma::mem_row_major);
  wmma::store_matrix_sync(c16, f16, 16, wmma::mem_row_major);
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fab;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fbb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fcb;
  wmma::load_matrix_sync(fab, ab, 16);
  wmma::load_matrix_sync(fbb, bb, 16);  // column-major: B's element (k, n) at bb[n * 16 + k]
  wmma::fill_fragment(fcb, 0.5f);
  wmma::mma_sync(fcb, fab, fbb, fcb);
  wmma::store_matrix_sync(cb, fcb, 16, wmma::mem_col_major);
  wmma::load_matrix_sync(fra, ar, 16);
  wmma::load_matrix_sync(frb, br, 16);
  wmma::fill_fragment(freal, 0.0f);
  wmma::mma_sync(freal, fra, frb, freal);
  wmma::store_matrix_sync(creal, freal, 16, wmma::mem_row_major);
}
