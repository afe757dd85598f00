// y = A x for a CSR matrix, one warp per row, lanes striding the row and a shuffle reduction
// (Bell and Garland's vector kernel).
__global__ void spmv_csr_vector(const int* row_ptr, const int* cols, const float* vals,
                                const float* x, float* y, int rows) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x & 31;
  if (warp >= rows) return;
  float sum = 0.0f;
  for (int j = row_ptr[warp] + lane; j < row_ptr[warp + 1]; j += 32) sum += vals[j] * x[cols[j]];
  for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);
  if (lane == 0) y[warp] = sum;
}
