// Threads that do some work and then return while the rest of their warp goes on to a
// __syncthreads(): the barrier must count them as exited. nvcc gives the returning side its own
// store and return (work_return), merges its store with the other side's after the barrier
// (odd_lanes_leave), or returns from inside a loop of barriers (loop_return). In nested_return
// both sides of the loop's divergent branch reach the barrier, one of them after some of its
// threads returned: the barrier counts threads, so the first side's lanes wait there for the
// second's.
__global__ void work_return(const float* x, float* y, int n) {
  __shared__ float s[128];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) {
    y[i] = -1.0f;
    return;
  }
  s[threadIdx.x] = x[i];
  __syncthreads();
  y[i] = s[threadIdx.x ^ 1];
}

__global__ void odd_lanes_leave(const float* x, float* y) {
  __shared__ float s[128];
  const int t = threadIdx.x;
  if (t & 1) {
    y[blockIdx.x * 128 + t] = x[t] * 2.0f;
    return;
  }
  s[t] = x[t];
  __syncthreads();
  y[blockIdx.x * 128 + t] = s[(t + 2) % 128];
}

__global__ void loop_return(const float* x, float* y) {
  __shared__ float s[128];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < 4; ++k) {
    if (x[i] < k * 40.0f) {
      y[i] = acc + k;
      return;
    }
    s[threadIdx.x] = x[i] + k;
    __syncthreads();
    acc += s[(threadIdx.x + 1) % 128];
    __syncthreads();
  }
  y[i] = acc;
}

__global__ void nested_return(const int* x, int* y, int n) {
  __shared__ int s[128];
  const int t = threadIdx.x;
  int acc = 0;
#pragma unroll 1
  for (int k = 0; k < n; ++k) {
    if (x[t] > k) {
      if (x[t] & 1) {
        y[t] = acc;
        return;
      }
      acc += 3;
    }
    s[t] = acc + k;
    __syncthreads();
    acc += s[(t + 2) % 128];
    __syncthreads();
  }
  y[t] = acc;
}
