// The GPU's conversions to f16 and bf16 against warpsim's (sim/core/exec/half_float.cpp) on a
// sweep of f32 bit patterns (every 97th of the 2^32, all NaNs' and subnormals' neighbourhoods
// among them) and the doubles just above them: every difference is printed with its input, by
// conversion, then a count per conversion.
//   nvcc -arch=sm_90 -O3 -std=c++20 -I. -o half_probe validation/h200/half_probe.cu \
//     sim/core/exec/half_float.cpp && ./half_probe [nan_results.bin]
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <vector>

#include "sim/core/exec/half_float.hpp"

constexpr int kConversions = 10;
constexpr const char* kNames[kConversions] = {"f16.rn.f32", "f16.rz.f32", "f16.rm.f32",
                                              "f16.rp.f32", "bf16.rn.f32", "bf16.rz.f32",
                                              "bf16.rm.f32", "bf16.rp.f32", "f16.rn.f64",
                                              "bf16.rn.f64"};

__global__ void convert(const unsigned* x, unsigned short* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float v = __uint_as_float(x[i]);
  const double d = static_cast<double>(v) * (1.0 + 0x1p-30);
  unsigned short* o = out + kConversions * static_cast<size_t>(i);
  o[0] = __half_as_ushort(__float2half_rn(v));
  o[1] = __half_as_ushort(__float2half_rz(v));
  o[2] = __half_as_ushort(__float2half_rd(v));
  o[3] = __half_as_ushort(__float2half_ru(v));
  o[4] = __bfloat16_as_ushort(__float2bfloat16_rn(v));
  o[5] = __bfloat16_as_ushort(__float2bfloat16_rz(v));
  o[6] = __bfloat16_as_ushort(__float2bfloat16_rd(v));
  o[7] = __bfloat16_as_ushort(__float2bfloat16_ru(v));
  o[8] = __half_as_ushort(__double2half(d));
  o[9] = __bfloat16_as_ushort(__double2bfloat16(d));
}

int main(int argc, char** argv) {
  using warpsim::ir::HalfFormat;
  using warpsim::ir::Rounding;
  std::vector<unsigned> x;
  for (unsigned long long b = 0; b < (1ull << 32); b += 97) x.push_back(static_cast<unsigned>(b));
  const unsigned n = static_cast<unsigned>(x.size());
  unsigned* x_ = nullptr;
  unsigned short* out_ = nullptr;
  cudaMalloc(&x_, n * sizeof(unsigned));
  cudaMalloc(&out_, static_cast<size_t>(n) * kConversions * 2);
  cudaMemcpy(x_, x.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
  convert<<<(n + 255) / 256, 256>>>(x_, out_, n);
  std::vector<unsigned short> out(static_cast<size_t>(n) * kConversions);
  cudaMemcpy(out.data(), out_, out.size() * 2, cudaMemcpyDeviceToHost);
  const Rounding r[4] = {Rounding::Nearest, Rounding::Zero, Rounding::Down, Rounding::Up};
  long differ[kConversions] = {};
  for (unsigned i = 0; i < n; ++i) {
    float v = 0;
    std::memcpy(&v, &x[i], 4);
    const double d = static_cast<double>(v) * (1.0 + 0x1p-30);
    unsigned short want[kConversions];
    for (int k = 0; k < 4; ++k) {
      want[k] = warpsim::exec::encode_half(v, HalfFormat::F16, r[k]);
      want[4 + k] = warpsim::exec::encode_half(v, HalfFormat::BF16, r[k]);
    }
    want[8] = warpsim::exec::encode_half(d, HalfFormat::F16, Rounding::Nearest);
    want[9] = warpsim::exec::encode_half(d, HalfFormat::BF16, Rounding::Nearest);
    for (int k = 0; k < kConversions; ++k) {
      const unsigned short got = out[static_cast<size_t>(i) * kConversions + k];
      if (got == want[k]) continue;
      if (differ[k]++ >= 12) continue;
      unsigned long long d_bits = 0;
      std::memcpy(&d_bits, &d, 8);
      printf("%-12s x %08x (%.9g) f64 %016llx: gpu %04x warpsim %04x\n", kNames[k], x[i], v,
             d_bits, got, want[k]);
    }
  }
  // What a double NaN becomes, as a rule: its values' histogram, and how many keep the sign
  // and the payload's top bits (quieted), the IEEE-recommended propagation.
  for (int k = 8; k < kConversions; ++k) {
    std::map<unsigned short, long> seen;
    long nans = 0;
    long keep_payload = 0;
    long keep_sign_canonical = 0;
    const bool bf16 = k == 9;
    for (unsigned i = 0; i < n; ++i) {
      float v = 0;
      std::memcpy(&v, &x[i], 4);
      const double d = static_cast<double>(v) * (1.0 + 0x1p-30);
      if (d == d) continue;
      ++nans;
      unsigned long long b = 0;
      std::memcpy(&b, &d, 8);
      const unsigned short got = out[static_cast<size_t>(i) * kConversions + k];
      ++seen[got];
      const unsigned sign = static_cast<unsigned>(b >> 63) << 15;
      const unsigned kept = bf16 ? (sign | 0x7fc0u | static_cast<unsigned>((b >> 45) & 0x7f))
                                 : (sign | 0x7e00u | static_cast<unsigned>((b >> 42) & 0x3ff));
      keep_payload += got == kept;
      keep_sign_canonical += got == (sign | 0x7fffu);
    }
    printf("%s of %ld NaNs: %zu distinct results; keep sign+payload %ld, sign|0x7fff %ld\n",
           kNames[k], nans, seen.size(), keep_payload, keep_sign_canonical);
    int shown = 0;
    for (const auto& [value, count] : seen)
      if (shown++ < 16) printf("  %04x x %ld\n", value, count);
  }
  // Every NaN input's two f64 results, for checking a rule off the GPU: records of the f32
  // input's bits, then the f16 and the bf16 result (little-endian u32, u16, u16).
  if (argc > 1) {
    FILE* f = std::fopen(argv[1], "wb");
    for (unsigned i = 0; f != nullptr && i < n; ++i) {
      if ((x[i] & 0x7f800000u) != 0x7f800000u || (x[i] & 0x7fffffu) == 0) continue;
      std::fwrite(&x[i], 4, 1, f);
      std::fwrite(&out[static_cast<size_t>(i) * kConversions + 8], 2, 2, f);
    }
    if (f != nullptr) std::fclose(f);
  }
  printf("%u inputs\n", n);
  for (int k = 0; k < kConversions; ++k) printf("%-12s %ld differ\n", kNames[k], differ[k]);
  return 0;
}
