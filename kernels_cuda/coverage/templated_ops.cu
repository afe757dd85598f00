// Templates over types and functors, a switch, 64-bit loops, double2 and longlong2 vectors.
template <typename T> struct Max { __device__ T operator()(T a, T b) const { return a > b ? a : b; } };
template <typename T> struct Add { __device__ T operator()(T a, T b) const { return a + b; } };
template <typename T, typename Op, int N>
__device__ T fold(const T* p, Op op) {
  T r = p[0];
#pragma unroll
  for (int k = 1; k < N; ++k) r = op(r, p[k]);
  return r;
}
template <typename T>
__global__ void templated_ops(const T* x, T* out, const double2* d2, longlong2* l2, int mode, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    const T* p = x + (i * 4) % (n * 4 - 4);
    T r;
    switch ((int)(i % 5) ^ mode) {
      case 0: r = fold<T, Max<T>, 4>(p, Max<T>()); break;
      case 1: r = fold<T, Add<T>, 4>(p, Add<T>()); break;
      case 2: r = p[0] * p[1] - p[2]; break;
      case 3: r = p[3] / (p[1] == 0 ? T(1) : p[1]); break;
      default: r = T(i);
    }
    out[i] = r;
    double2 d = d2[i];
    l2[i] = make_longlong2((long long)(d.x * 1000.0), (long long)(d.y / 7.0));
  }
}
template __global__ void templated_ops<int>(const int*, int*, const double2*, longlong2*, int, long long);
template __global__ void templated_ops<double>(const double*, double*, const double2*, longlong2*, int, long long);
