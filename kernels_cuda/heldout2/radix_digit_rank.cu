// Ranks of 4-bit digits within a block by __match_any_sync and shared atomics.
__global__ void radix_digit_rank(const unsigned* keys, unsigned* rank, unsigned* counts, int shift) {
  __shared__ unsigned hist[16];
  if (threadIdx.x < 16) hist[threadIdx.x] = 0;
  __syncthreads();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned d = (keys[i] >> shift) & 15u;
  unsigned peers = __match_any_sync(0xffffffffu, d);
  unsigned lane = threadIdx.x & 31;
  unsigned below = __popc(peers & ((1u << lane) - 1u));
  unsigned leader = __ffs(peers) - 1;
  unsigned base = 0;
  if (lane == leader) base = atomicAdd(&hist[d], __popc(peers));
  base = __shfl_sync(peers, base, leader);
  rank[i] = base + below;
  __syncthreads();
  if (threadIdx.x < 16) atomicAdd(&counts[threadIdx.x], hist[threadIdx.x]);
}
