// Warp-aggregated counting: the threads holding a positive value find each other with
// __activemask(), elect the lowest as leader, and the leader adds the warp's count with one
// atomic; each thread's rank among them comes from a population count below its lane, and the
// leader's base is broadcast with __shfl_sync over the same members.
__global__ void warp_aggregated_count(const int* in, int n, unsigned* count, unsigned* rank,
                                      unsigned* base_of) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0) {
    unsigned active = __activemask();
    int lane = threadIdx.x % 32;
    int leader = __clz(__brev(active));  // the lowest active lane
    unsigned base = 0;
    if (lane == leader) base = atomicAdd(count, __popc(active));
    base = __shfl_sync(active, base, leader);
    rank[i] = __popc(active & ((1u << lane) - 1u));
    base_of[i] = base;
  }
}
