// Calls through function pointers (CALL.REL through a register, each lane to its own target)
// and a recursive device function reached through one: the IR does not import the call
// prototypes nvcc writes for them, the SASS frontend runs ptxas's code.
__device__ float twice(float v) { return 2.0f * v; }
__device__ float square(float v) { return v * v; }
__device__ float negate(float v) { return -v; }
__device__ __noinline__ int fib(int k) { return k < 2 ? k : fib(k - 1) + fib(k - 2); }

typedef float (*unary)(float);
typedef int (*counter)(int);

__global__ void function_pointers(const float* x, float* y, int* z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  // Three targets within a warp: the lanes go apart at the call and meet after it.
  unary f = i % 3 == 0 ? twice : i % 3 == 1 ? square : negate;
  y[i] = f(x[i]);
  counter c = fib;
  z[i] = c(i & 7);
}
