// Forty values live at once under a cap of 32 registers: __launch_bounds__(256, 8) leaves
// 65536 / (256 * 8) = 32 a thread, so ptxas spills to local memory, and nvdisasm marks each
// spill's STL and LDL with (*"SpillRefill"*).
__global__ void __launch_bounds__(256, 8) register_spills(const float* in, float* out, int n) {
  float r[40];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int k = 0; k < 40; ++k) r[k] = in[(i * 7 + k * 13) % n];
  float s = 0;
#pragma unroll
  for (int k = 0; k < 40; ++k) s = fmaf(r[k], r[(k * 7) % 40], s);
  out[i] = s;
}
