// Inclusive scan of each 512-element block in shared memory, Hillis-Steele with two buffers:
// log2(512) = 9 steps, each a barrier, each thread adding the element `offset` before it.
#define N_BLOCK 512
__global__ void scan_hillis_steele(const float* in, float* out, int n) {
  __shared__ float buf[2][N_BLOCK];
  int t = threadIdx.x, i = blockIdx.x * N_BLOCK + t;
  int src = 0;
  buf[0][t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int offset = 1; offset < N_BLOCK; offset <<= 1) {
    float v = buf[src][t];
    if (t >= offset) v += buf[src][t - offset];
    buf[1 - src][t] = v;
    src = 1 - src;
    __syncthreads();
  }
  if (i < n) out[i] = buf[src][t];
}
