// Stream compaction within each warp: a ballot of the kept elements, each lane's position the
// count of kept lanes below it, one atomic per warp for the warp's base.
__global__ void stream_compact(const int* in, int* out, int* count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : -1;
  bool keep = v > 0 && v % 3 == 0;
  unsigned ballot = __ballot_sync(0xffffffffu, keep);
  int lane = threadIdx.x & 31;
  int base = 0;
  if (lane == 0) base = atomicAdd(count, __popc(ballot));
  base = __shfl_sync(0xffffffffu, base, 0);
  if (keep) out[base + __popc(ballot & ((1u << lane) - 1))] = v;
}
