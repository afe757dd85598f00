// Loops whose body branches on the thread index and the iteration, with float square roots and
// divisions in some branches (their slow paths called from divergent code, so two branches'
// convergence regions share one barrier register while one side's lanes are away in the slow
// path) before two __syncthreads(): randomly generated shapes, kept fixed here. The shared array
// is cleared first, so every thread's result is defined. Both frontends must give the GPU's
// buffers.

__global__ void slow_path_shape_20(int* y, int n) {
  __shared__ int s[128];
  const int t = threadIdx.x;
  int acc = 0;
  s[t] = 0;
  __syncthreads();
#pragma unroll 1
  for (int k = 0; k < n; ++k) {
    if ((t * 3 + k) % 4 < 3) {
      if ((t * 1 + k) % 4 < 3) {
        if ((t * 1 + k) % 5 < 4) {
          acc += 2;
        } else {
          acc += __float_as_int(sqrtf(__int_as_float((acc * 2654435761u) & 0x7fffffffu))) & 255;
        }
      } else {
        acc += 6;
      }
    } else {
      acc += __float_as_int(sqrtf(__int_as_float((acc * 2654435761u) & 0x7fffffffu))) & 255;
    }
    s[t] = acc + k;
    __syncthreads();
    acc += s[(t + 52) % 128];
    __syncthreads();
  }
  y[t] = acc;
}

__global__ void slow_path_shape_36(int* y, int n) {
  __shared__ int s[128];
  const int t = threadIdx.x;
  int acc = 0;
  s[t] = 0;
  __syncthreads();
#pragma unroll 1
  for (int k = 0; k < n; ++k) {
    if ((t * 1 + k) % 4 < 1) {
      acc += 4;
    } else {
      if ((t * 5 + k) % 7 < 3) {
        if ((t * 7 + k) % 5 < 4) {
          acc += __float_as_int(sqrtf(__int_as_float((acc * 2654435761u) & 0x7fffffffu))) & 255;
        } else {
          acc += 0;
        }
      } else {
        acc += __float_as_int(__int_as_float(acc * 2654435761u + t) / __int_as_float(k * 40503u + t * 977u + 1u)) & 255;
      }
    }
    s[t] = acc + k;
    __syncthreads();
    acc += s[(t + 68) % 128];
    __syncthreads();
  }
  y[t] = acc;
}

__global__ void slow_path_shape_40(int* y, int n) {
  __shared__ int s[128];
  const int t = threadIdx.x;
  int acc = 0;
  s[t] = 0;
  __syncthreads();
#pragma unroll 1
  for (int k = 0; k < n; ++k) {
    if ((t * 1 + k) % 3 < 2) {
      if ((t * 3 + k) % 3 < 2) {
        acc += 1;
      } else {
        if ((t * 1 + k) % 3 < 2) {
          acc += 1;
        } else {
          acc += 2;
        }
      }
    } else {
      if ((t * 1 + k) % 5 < 1) {
        if ((t * 5 + k) % 4 < 1) {
          acc += 5;
        } else {
          acc += __float_as_int(sqrtf(__int_as_float((acc * 2654435761u) & 0x7fffffffu))) & 255;
        }
      } else {
        if ((t * 3 + k) % 5 < 4) {
          acc += __float_as_int(__int_as_float(acc * 2654435761u + t) / __int_as_float(k * 40503u + t * 977u + 1u)) & 255;
        } else {
          acc += 1;
        }
      }
    }
    s[t] = acc + k;
    __syncthreads();
    acc += s[(t + 12) % 128];
    __syncthreads();
  }
  y[t] = acc;
}
