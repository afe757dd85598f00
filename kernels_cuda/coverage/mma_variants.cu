// Tensor-core products other than f16 m16n16k16: bfloat16, tf32 (m16n16k8), double (m8n8k4)
// and signed 8-bit integers, one warp each.
#include <mma.h>
#include <cuda_bf16.h>
using namespace nvcuda;
__global__ void mma_variants(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c,
                             const float* ta, const float* tb, float* tc,
                             const double* da, const double* db, double* dc,
                             const signed char* ia, const signed char* ib, int* ic) {
  {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
  }
  {
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, ta, 8);
    wmma::load_matrix_sync(fb, tb, 16);
    for (int t = 0; t < fa.num_elements; t++) fa.x[t] = wmma::__float_to_tf32(fa.x[t]);
    for (int t = 0; t < fb.num_elements; t++) fb.x[t] = wmma::__float_to_tf32(fb.x[t]);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(tc, fc, 16, wmma::mem_row_major);
  }
  {
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
    wmma::fill_fragment(fc, 0.0);
    wmma::load_matrix_sync(fa, da, 4);
    wmma::load_matrix_sync(fb, db, 8);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(dc, fc, 8, wmma::mem_row_major);
  }
  {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
    wmma::fill_fragment(fc, 0);
    wmma::load_matrix_sync(fa, ia, 16);
    wmma::load_matrix_sync(fb, ib, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(ic, fc, 16, wmma::mem_row_major);
  }
}
