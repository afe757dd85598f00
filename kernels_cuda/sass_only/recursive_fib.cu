// A recursive device function and a local array indexed by data: the IR imports neither (it
// inlines calls and has no stack), so this kernel runs on its SASS alone (CALL.REL, RET.REL,
// BMOV saving the convergence barrier, STL/LDL on the thread's stack).
__device__ int fib(int k) { return k < 2 ? k : fib(k - 1) + fib(k - 2); }

__global__ void recursive_fib(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int window[16];
  for (int k = 0; k < 16; ++k) window[k] = in[(i + k) % n];
  int v = window[in[i] & 15];
  out[i] = fib(v & 7) + __ldg(in + i) + __ldcs(in + i);
  __stcs(out + i, out[i] + 1);
}
