// Block-wide votes (CUDA's __syncthreads_count, __syncthreads_and, __syncthreads_or): how many
// of a block's elements pass a threshold, whether all do and whether any does; then the block
// iterates every thread's Collatz sequence in lockstep rounds until no thread is still going,
// the common "loop while any thread has work" idiom.
__global__ void block_vote_rounds(const int* x, int n, int threshold, int* block_count,
                                  int* block_all, int* block_any, int* rounds, int* steps) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = i < n ? x[i] : 0;
  const bool pass = i < n && v > threshold;
  const int count = __syncthreads_count(pass);
  const int all = __syncthreads_and(pass);
  const int any = __syncthreads_or(pass);
  // Each thread walks n -> n / 2 or 3n + 1 from |v| + 1 down to 1 (threads past n start at 1).
  unsigned c = i < n ? static_cast<unsigned>(v < 0 ? -v : v) + 1u : 1u;
  int my_steps = 0, block_rounds = 0;
  while (__syncthreads_or(c != 1u)) {
    if (c != 1u) {
      c = (c & 1u) != 0 ? 3u * c + 1u : c / 2u;
      ++my_steps;
    }
    ++block_rounds;
  }
  if (i < n) steps[i] = my_steps;
  if (threadIdx.x == 0) {
    block_count[blockIdx.x] = count;
    block_all[blockIdx.x] = all;
    block_any[blockIdx.x] = any;
    rounds[blockIdx.x] = block_rounds;
  }
}
