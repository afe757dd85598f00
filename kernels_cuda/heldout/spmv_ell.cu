// y = A x for a sparse A in ELLPACK form: `width` entries per row, stored column-major (entry k
// of row r at k * rows + r) so a warp's loads of one entry are contiguous; x is gathered.
__global__ void spmv_ell(const int* cols, const float* vals, const float* x, float* y, int rows, int width) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float sum = 0.0f;
  for (int k = 0; k < width; ++k) {
    int idx = k * rows + r;
    sum += vals[idx] * x[cols[idx]];
  }
  y[r] = sum;
}
