// Dynamic shared memory (extern), a templated block reduction over doubles and 64-bit integers,
// warp shuffles of doubles and longs, __ldg/__ldcg/__stcg cache hints, a 2-D grid.
template <typename T>
__device__ T warp_sum(T v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}
__global__ void dyn_smem_reduce(const double* x, const long long* y, double* dsum, long long* lsum,
                                float* scaled, int width, int height) {
  extern __shared__ double smem[];
  int cx = blockIdx.x * blockDim.x + threadIdx.x, cy = blockIdx.y;
  int t = threadIdx.x;
  double v = 0.0;
  long long w = 0;
  if (cx < width && cy < height) {
    v = __ldg(&x[cy * width + cx]) / 7.0;
    w = __ldcg(&y[cy * width + cx]) % 1000003;
    __stcg(&scaled[cy * width + cx], (float)(v * 0.5));
  }
  v = warp_sum(v);
  w = warp_sum(w);
  if ((t & 31) == 0) {
    smem[t / 32] = v;
    reinterpret_cast<long long*>(smem + blockDim.x / 32)[t / 32] = w;
  }
  __syncthreads();
  if (t < 32) {
    int warps = blockDim.x / 32;
    double dv = t < warps ? smem[t] : 0.0;
    long long lv = t < warps ? reinterpret_cast<long long*>(smem + warps)[t] : 0;
    dv = warp_sum(dv);
    lv = warp_sum(lv);
    if (t == 0) {
      dsum[cy * gridDim.x + blockIdx.x] = dv;
      lsum[cy * gridDim.x + blockIdx.x] = lv;
    }
  }
}
