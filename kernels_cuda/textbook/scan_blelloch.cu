// Work-efficient exclusive scan of one block's 2 * blockDim.x elements in shared memory
// (Blelloch; GPU Gems 3, ch. 39), without bank-conflict avoidance.
__global__ void scan_blelloch(const int* in, int* out, int n) {
  extern __shared__ int temp[];
  int t = threadIdx.x;
  int base = blockIdx.x * 2 * blockDim.x;
  temp[2 * t] = base + 2 * t < n ? in[base + 2 * t] : 0;
  temp[2 * t + 1] = base + 2 * t + 1 < n ? in[base + 2 * t + 1] : 0;
  int offset = 1;
  for (int d = blockDim.x; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (t == 0) temp[2 * blockDim.x - 1] = 0;
  for (int d = 1; d <= blockDim.x; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      int x = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += x;
    }
  }
  __syncthreads();
  if (base + 2 * t < n) out[base + 2 * t] = temp[2 * t];
  if (base + 2 * t + 1 < n) out[base + 2 * t + 1] = temp[2 * t + 1];
}
