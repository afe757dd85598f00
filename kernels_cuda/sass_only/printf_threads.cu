// printf from every thread, on two divergent paths: the arguments of each call (ints, a float
// promoted to double, a 64-bit integer, a char, a string constant) packed in the thread's stack
// and passed to the CUDA runtime's vprintf, whose return value (the number of arguments) each
// thread stores.
#include <cstdio>

__global__ void printf_threads(const float* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float v = in[i];
  int arguments;
  if (i % 3 == 0) {
    arguments = printf("[%d,%d] v=%.3f e=%e g=%g %s\n", blockIdx.x, threadIdx.x, v, v, v, "three");
  } else {
    arguments = printf("[%d,%d] %5d|%-4x|%08.2f|%c|%lld|%u|%%\n", blockIdx.x, threadIdx.x, i * 7, i,
                       v, 'a' + i % 26, static_cast<long long>(i) << 33, 0u - i);
  }
  out[i] = arguments;
}
