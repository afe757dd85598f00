// 1-D stencil of radius 3 with the block's inputs and halo in shared memory (the classic CUDA
// training example); blockDim.x must be 128.
#define RADIUS 3
#define BLOCK 128
__global__ void stencil_1d_shared(const int* in, int* out, int n) {
  __shared__ int temp[BLOCK + 2 * RADIUS];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + RADIUS;
  temp[l] = g < n ? in[g] : 0;
  if (threadIdx.x < RADIUS) {
    temp[l - RADIUS] = g >= RADIUS ? in[g - RADIUS] : 0;
    temp[l + BLOCK] = g + BLOCK < n ? in[g + BLOCK] : 0;
  }
  __syncthreads();
  int sum = 0;
  for (int o = -RADIUS; o <= RADIUS; ++o) sum += temp[l + o];
  if (g < n) out[g] = sum;
}
