// Cooperative groups: reduce and scans over a warp and over tiles of 8, coalesced groups in a
// divergent branch, shuffles with a width, __reduce_*_sync, ballot and match.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

__global__ void warp_cg(const int* x, int* out, unsigned* masks, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  cg::thread_block_tile<8> tile8 = cg::tiled_partition<8>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? x[i] : 0;
  int s = cg::reduce(warp, v, cg::plus<int>());
  int m = cg::reduce(tile8, v, cg::greater<int>());
  int sc = cg::inclusive_scan(warp, v);
  int ex = cg::exclusive_scan(tile8, v, cg::bit_xor<int>());
  int w = __shfl_sync(0xffffffff, v, (threadIdx.x + 3) & 7, 8);
  int d = __shfl_down_sync(0xffffffff, v, 2, 16);
  int u = __shfl_xor_sync(0xffffffff, v, 5, 16);
  unsigned any = __reduce_or_sync(0xffffffff, (unsigned)v);
  unsigned mn = __reduce_min_sync(0xffffffff, (unsigned)v);
  int mxs = __reduce_max_sync(0xffffffff, v);
  if (v & 1) {
    unsigned act = __activemask();
    cg::coalesced_group g = cg::coalesced_threads();
    int rank = g.thread_rank();
    int gsum = cg::reduce(g, v, cg::plus<int>());
    if (i < n) masks[i] = act ^ (unsigned)(rank << 24) ^ (unsigned)gsum;
  } else if (i < n) {
    masks[i] = __ballot_sync(__activemask(), v > 0) ^ __match_any_sync(__activemask(), v & 3);
  }
  __syncwarp();
  block.sync();
  if (i < n) {
    out[8 * i + 0] = s;
    out[8 * i + 1] = m;
    out[8 * i + 2] = sc;
    out[8 * i + 3] = ex;
    out[8 * i + 4] = w + d + u;
    out[8 * i + 5] = (int)any;
    out[8 * i + 6] = (int)mn + mxs;
    out[8 * i + 7] = warp.meta_group_rank() + tile8.meta_group_rank() * 100 + block.thread_rank() * 1000;
  }
}
