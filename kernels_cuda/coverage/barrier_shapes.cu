// Loops whose body branches up to three deep on the thread index and the iteration, some leaves
// returning, before two __syncthreads(): randomly generated shapes, kept fixed here. Every
// thread's result is defined (the shared array is cleared first, so a value read from a thread
// that returned is the last it wrote, or 0). Both frontends must give the GPU's buffers; the
// SASS counts divergence inside ptxas's convergence regions.

__global__ void barrier_shape_5(int* y, int n) {
  __shared__ int s[128];
  const int t = threadIdx.x;
  int acc = 0;
  s[t] = 0;
  __syncthreads();
#pragma unroll 1
  for (int k = 0; k < n; ++k) {
    if ((t * 5 + k) % 7 < 1) {
      if ((t * 3 + k) % 2 < 1) {
        acc += 4;
      } else {
        if ((t * 3 + k) % 5 < 3) { y[t] = acc; return; }
      }
    } else {
      if ((t * 7 + k) % 3 < 1) {
        acc += 3;
      } else {
        if ((t * 1 + k) % 3 < 1) {
          acc += 3;
        } else {
          acc += 0;
        }
      }
    }
    s[t] = acc + k;
    __syncthreads();
    acc += s[(t + 38) % 128];
    __syncthreads();
  }
  y[t] = acc;
}

__global__ void barrier_shape_9(int* y, int n) {
  __shared__ int s[128];
  const int t = threadIdx.x;
  int acc = 0;
  s[t] = 0;
  __syncthreads();
#pragma unroll 1
  for (int k = 0; k < n; ++k) {
    if ((t * 5 + k) % 4 < 1) {
      acc += 6;
    } else {
      if ((t * 1 + k) % 4 < 3) {
        if ((t * 1 + k) % 5 < 2) {
          acc += 8;
        } else {
          acc += 0;
        }
      } else {
        if ((t * 3 + k) % 7 < 5) { y[t] = acc; return; }
      }
    }
    s[t] = acc + k;
    __syncthreads();
    acc += s[(t + 9) % 128];
    __syncthreads();
  }
  y[t] = acc;
}

__global__ void barrier_shape_22(int* y, int n) {
  __shared__ int s[128];
  const int t = threadIdx.x;
  int acc = 0;
  s[t] = 0;
  __syncthreads();
#pragma unroll 1
  for (int k = 0; k < n; ++k) {
    if ((t * 3 + k) % 3 < 1) {
      if ((t * 7 + k) % 3 < 1) {
        if ((t * 5 + k) % 2 < 1) {
          if ((t * 1 + k) % 4 < 3) { y[t] = acc; return; }
        } else {
          acc += 7;
        }
      } else {
        acc += 0;
      }
    } else {
      if ((t * 5 + k) % 4 < 2) {
        acc += 9;
      } else {
        acc += 0;
      }
    }
    s[t] = acc + k;
    __syncthreads();
    acc += s[(t + 100) % 128];
    __syncthreads();
  }
  y[t] = acc;
}

__global__ void barrier_shape_37(int* y, int n) {
  __shared__ int s[128];
  const int t = threadIdx.x;
  int acc = 0;
  s[t] = 0;
  __syncthreads();
#pragma unroll 1
  for (int k = 0; k < n; ++k) {
    if ((t * 1 + k) % 7 < 6) {
      if ((t * 1 + k) % 4 < 2) {
        if ((t * 1 + k) % 5 < 3) {
          acc += 7;
        } else {
          acc += 1;
        }
      } else {
        if ((t * 5 + k) % 5 < 3) { y[t] = acc; return; }
      }
    } else {
      acc += 0;
    }
    s[t] = acc + k;
    __syncthreads();
    acc += s[(t + 74) % 128];
    __syncthreads();
  }
  y[t] = acc;
}
