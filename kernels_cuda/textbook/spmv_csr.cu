// y = A x for a CSR matrix, one thread per row (Bell and Garland's scalar kernel).
__global__ void spmv_csr(const int* row_ptr, const int* cols, const float* vals, const float* x,
                         float* y, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float sum = 0.0f;
  for (int j = row_ptr[r]; j < row_ptr[r + 1]; ++j) sum += vals[j] * x[cols[j]];
  y[r] = sum;
}
