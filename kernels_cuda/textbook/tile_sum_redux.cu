// Tile sums by cooperative groups on sm_90: cg::reduce over a 16-thread tile compiles to a
// WARPSYNC.EXCLUSIVE that splits the warp by tile, then one REDUX per tile; __reduce_max_sync
// and __match_any_sync over the whole warp beside it.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void tile_sum_redux(const int* in, int* tile_sum, int* warp_max, unsigned* peers,
                               int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = i < n ? in[i] : 0;
  const auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  const int sum = cg::reduce(tile, v, cg::plus<int>());
  const int largest = __reduce_max_sync(0xffffffffu, v);
  const unsigned same = __match_any_sync(0xffffffffu, v & 3);
  if (i < n) {
    tile_sum[i] = sum;
    warp_max[i] = largest;
    peers[i] = same;
  }
}
