// Handshakes through memory with no barrier between the two sides, which a GPU runs because it
// holds both sides at once: a warp spinning on a flag another warp of its block sets, and blocks
// spinning on a flag the grid's last block sets. A simulator that ran each warp (or block) to
// its end before the next would never finish them.
__global__ void warp_handshake(int* out) {
  __shared__ volatile int flag;
  __shared__ volatile int value;
  if (threadIdx.x == 0) flag = 0;
  __syncthreads();
  if (threadIdx.x == 0) {
    while (flag == 0) {
    }
    out[blockIdx.x] = value;
  }
  if (threadIdx.x == 32) {
    value = 7 + blockIdx.x;
    __threadfence_block();
    flag = 1;
  }
}

__global__ void block_handshake(int* flag, int* data, int* out) {
  if (blockIdx.x == gridDim.x - 1) {
    if (threadIdx.x == 0) {
      data[0] = 42;
      __threadfence();
      atomicExch(flag, 1);
    }
  } else if (threadIdx.x == 0) {
    while (atomicAdd(flag, 0) == 0) {
    }
    __threadfence();
    out[blockIdx.x] = static_cast<volatile int*>(data)[0] + blockIdx.x;
  }
}
