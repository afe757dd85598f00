// Two arrays carved out of one dynamic shared allocation, read at data-dependent offsets.
__global__ void two_arrays(const float* x, const int* k, float* y, int n) {
  extern __shared__ unsigned char smem[];
  float* fs = reinterpret_cast<float*>(smem);
  int* is = reinterpret_cast<int*>(smem + blockDim.x * sizeof(float));
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  fs[t] = i < n ? x[i] : 0.f;
  is[t] = i < n ? k[i] : 0;
  __syncthreads();
  int j = (t + is[t]) % blockDim.x;
  if (j < 0) j += blockDim.x;
  if (i < n) y[i] = fs[j] * 2.f + (float)is[(t + 1) % blockDim.x];
}
