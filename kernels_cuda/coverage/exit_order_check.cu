// exit_order.cu's question on splits it did not measure, simulated before they were measured:
// the lanes selected store and return, the others go on to a __syncthreads(). Where fewer lanes
// leave than stay, they run first and exit before the others wait; otherwise the others wait
// at their WARPSYNC first, and the GPU issues it once more when the leaving lanes exit.
#define LEAVE_IF(cond)            \
  __shared__ float s[64];         \
  const int t = threadIdx.x;      \
  if (cond) {                     \
    y[t] = x[t] * 2.0f;           \
    return;                       \
  }                               \
  s[t] = x[t];                    \
  __syncthreads();                \
  y[t] = s[(t + 2) % 64];

__global__ void low4_leave(const float* x, float* y) { LEAVE_IF(t % 32 < 4) }
__global__ void low12_leave(const float* x, float* y) { LEAVE_IF(t % 32 < 12) }
__global__ void low20_leave(const float* x, float* y) { LEAVE_IF(t % 32 < 20) }
__global__ void low16_leave(const float* x, float* y) { LEAVE_IF(t % 32 < 16) }
__global__ void third_leave(const float* x, float* y) { LEAVE_IF(t % 3 == 0) }
__global__ void warp1_half_leave(const float* x, float* y) { LEAVE_IF(t >= 48) }
