// CUB's block-wide collectives (BlockReduce, BlockScan, BlockRadixSort), whose PTX holds
// bmsk.clamp, which the IR does not import: the kernel runs on its SASS alone (BMSK).
#include <cub/cub.cuh>

__global__ void cub_block(const int* in, int* out, int* sums) {
  typedef cub::BlockReduce<int, 128> Reduce;
  typedef cub::BlockScan<int, 128> Scan;
  typedef cub::BlockRadixSort<int, 128, 4> Sort;
  __shared__ union {
    typename Reduce::TempStorage reduce;
    typename Scan::TempStorage scan;
    typename Sort::TempStorage sort;
  } temp;
  int v = in[blockIdx.x * 128 + threadIdx.x];
  int total = Reduce(temp.reduce).Sum(v);
  __syncthreads();
  int prefix;
  Scan(temp.scan).ExclusiveSum(v, prefix);
  __syncthreads();
  int keys[4] = {v, v ^ 0x55, v * 3, -v};
  Sort(temp.sort).Sort(keys);  // blocked: thread t holds the 4t-th to (4t+3)-th smallest
  out[blockIdx.x * 128 + threadIdx.x] = prefix + keys[0] + keys[3];
  if (threadIdx.x == 0) sums[blockIdx.x] = total;
}
