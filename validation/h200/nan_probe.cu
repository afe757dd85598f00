// The bits the H200 gives for floating-point special values (kernels_cuda/specials/
// float_specials.cu), one line per result: validation/h200/results/nan_bits/.
//   nvcc -arch=sm_90 -O3 -o nan_probe validation/h200/nan_probe.cu && ./nan_probe
#include <cstdio>

#include "../../kernels_cuda/specials/float_specials.cu"

int main() {
  unsigned* out_ = nullptr;
  unsigned long long* dout_ = nullptr;
  cudaMalloc(&out_, 64 * 4);
  cudaMalloc(&dout_, 48 * 8);
  float_specials<<<1, 1>>>(0, out_, dout_);
  unsigned out[64];
  unsigned long long dout[48];
  cudaMemcpy(out, out_, sizeof out, cudaMemcpyDeviceToHost);
  cudaMemcpy(dout, dout_, sizeof dout, cudaMemcpyDeviceToHost);
  for (unsigned i = 0; i < out[63]; ++i) printf("f32 %2u %08x\n", i, out[i]);
  for (unsigned i = 0; i < dout[47]; ++i) printf("f64 %2u %016llx\n", i, dout[i]);
  return 0;
}
