// Warp-level intrinsics around a clock64() read, which the IR does not import (%clock64): the
// kernel runs on its SASS alone. Each lane's result mixes __match_any_sync, __reduce_add_sync,
// __reduce_max_sync, a double and a 64-bit shuffle (width 16) and a ballot.
__global__ void warp_match_reduce(const int* in, int* out, double* dout, long long* elapsed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  unsigned mask = __activemask();
  long long start = clock64();
  unsigned same = __match_any_sync(mask, v & 3);
  int sum = __reduce_add_sync(mask, v & 0xff);
  int most = __reduce_max_sync(mask, v);
  double d = (double)v;
  d += __shfl_down_sync(mask, d, 1);
  long long l = __shfl_xor_sync(mask, (long long)v * 3, 4, 16);
  out[i] = (int)same ^ sum ^ most ^ (int)l ^ __popc(__ballot_sync(mask, v > 0));
  dout[i] = d;
  if (i == 0) elapsed[0] = clock64() - start > 0;
}
