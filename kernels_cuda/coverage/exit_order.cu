// Which side of a divergent branch a Hopper warp runs first, and what a convergence barrier
// costs when the lanes it waits for exit instead of arriving: in each kernel one warp's lanes
// selected by a condition store and return, the others go on to a __syncthreads() (WARPSYNC.ALL
// then BAR.SYNC in ptxas's code). The kernels differ only in which lanes leave and how many;
// the GPU's instruction counts tell the orders apart.
#define LEAVE_IF(cond)            \
  __shared__ float s[32];         \
  const int t = threadIdx.x;      \
  if (cond) {                     \
    y[t] = x[t] * 2.0f;           \
    return;                       \
  }                               \
  s[t] = x[t];                    \
  __syncthreads();                \
  y[t] = s[(t + 2) % 32];

__global__ void low8_leave(const float* x, float* y) { LEAVE_IF(t < 8) }
__global__ void low24_leave(const float* x, float* y) { LEAVE_IF(t < 24) }
__global__ void high8_leave(const float* x, float* y) { LEAVE_IF(t >= 24) }
__global__ void high24_leave(const float* x, float* y) { LEAVE_IF(t >= 8) }
__global__ void odd_leave(const float* x, float* y) { LEAVE_IF(t & 1) }
__global__ void even_leave(const float* x, float* y) { LEAVE_IF((t & 1) == 0) }
