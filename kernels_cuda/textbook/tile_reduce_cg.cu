// Cooperative groups' tiled reductions: a 32-thread tile sums its values with cg::reduce (a
// redux.sync on sm_80 and later) and an 8-thread tile inside it takes their maximum (shuffles,
// which ptxas guards with a check that the tile's lanes run together: BRA.DIV). Each tile's
// leader adds its result to the grid's totals with one atomic.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void tile_reduce_cg(const int* in, int* totals, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  cg::thread_block_tile<8> eighth = cg::tiled_partition<8>(warp);
  const int i = block.group_index().x * block.size() + block.thread_rank();
  const int v = i < n ? in[i] : 0;
  const int sum = cg::reduce(warp, v, cg::plus<int>());
  const int largest = cg::reduce(eighth, v, cg::greater<int>());
  if (warp.thread_rank() == 0) atomicAdd(&totals[0], sum);
  if (eighth.thread_rank() == 0) atomicMax(&totals[1], largest);
}
