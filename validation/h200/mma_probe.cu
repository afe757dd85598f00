// The tensor core's m16n8k16 product (mma.sync, the instruction HMMA.16816 executes) on random
// tiles: f16 into f32, bfloat16 into f32, f16 into f16. Signs, exponents and significands are
// random (exponents spread so that the sums align terms far apart and cancel), so the files show
// how the GPU rounds the sum of 16 products and the accumulator. Each file holds, for `tiles`
// tiles: A (16x16, row-major, 16-bit), B (16x8, k-major, 16-bit), C and D (16x8, row-major, 32
// bits: f32, or the f16 in the low half).
//   nvcc -arch=sm_90 -O3 -o mma_probe validation/h200/mma_probe.cu && ./mma_probe OUTDIR
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

constexpr int kTiles = 256;

enum Mode { F16IntoF32, Bf16IntoF32, F16IntoF16 };

__global__ void product(const unsigned short* a, const unsigned short* b, const unsigned* c,
                        unsigned* d, int mode) {
  const int tile = blockIdx.x, lane = threadIdx.x, g = lane / 4, t = lane % 4;
  const unsigned short* A = a + tile * 256;
  const unsigned short* B = b + tile * 128;
  const unsigned* C = c + tile * 128;
  unsigned* D = d + tile * 128;
  auto pair = [](unsigned short lo, unsigned short hi) { return lo | unsigned{hi} << 16; };
  const unsigned a0 = pair(A[g * 16 + 2 * t], A[g * 16 + 2 * t + 1]);
  const unsigned a1 = pair(A[(g + 8) * 16 + 2 * t], A[(g + 8) * 16 + 2 * t + 1]);
  const unsigned a2 = pair(A[g * 16 + 2 * t + 8], A[g * 16 + 2 * t + 9]);
  const unsigned a3 = pair(A[(g + 8) * 16 + 2 * t + 8], A[(g + 8) * 16 + 2 * t + 9]);
  const unsigned b0 = pair(B[(2 * t) * 8 + g], B[(2 * t + 1) * 8 + g]);
  const unsigned b1 = pair(B[(2 * t + 8) * 8 + g], B[(2 * t + 9) * 8 + g]);
  const int at[4] = {g * 8 + 2 * t, g * 8 + 2 * t + 1, (g + 8) * 8 + 2 * t, (g + 8) * 8 + 2 * t + 1};
  if (mode == F16IntoF16) {
    const unsigned c0 = pair(C[at[0]], C[at[1]]), c1 = pair(C[at[2]], C[at[3]]);
    unsigned d0, d1;
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, "
        "{%8,%9};"
        : "=r"(d0), "=r"(d1)
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(c0), "r"(c1));
    D[at[0]] = d0 & 0xffffu;
    D[at[1]] = d0 >> 16;
    D[at[2]] = d1 & 0xffffu;
    D[at[3]] = d1 >> 16;
    return;
  }
  float c0 = __uint_as_float(C[at[0]]), c1 = __uint_as_float(C[at[1]]);
  float c2 = __uint_as_float(C[at[2]]), c3 = __uint_as_float(C[at[3]]);
  float d0, d1, d2, d3;
  if (mode == F16IntoF32) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%10,%11,%12,%13};"
        : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "f"(c0), "f"(c1), "f"(c2),
          "f"(c3));
  } else {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%10,%11,%12,%13};"
        : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "f"(c0), "f"(c1), "f"(c2),
          "f"(c3));
  }
  D[at[0]] = __float_as_uint(d0);
  D[at[1]] = __float_as_uint(d1);
  D[at[2]] = __float_as_uint(d2);
  D[at[3]] = __float_as_uint(d3);
}

// A fixed generator, so the inputs are the same on every run.
struct Lcg {
  std::uint64_t s = 0x2545f4914f6cdd1dull;
  unsigned next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<unsigned>(s >> 33);
  }
};

// A random finite 16-bit value: sign, an exponent field from `low` to `high`, a significand.
unsigned short random_half(Lcg& r, bool bf16, int low, int high) {
  const unsigned sign = r.next() & 1u;
  const unsigned exponent = static_cast<unsigned>(low + static_cast<int>(r.next() % (high - low + 1)));
  const unsigned significand = r.next() & (bf16 ? 0x7fu : 0x3ffu);
  return static_cast<unsigned short>(bf16 ? sign << 15 | exponent << 7 | significand
                                          : sign << 15 | exponent << 10 | significand);
}

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : ".";
  const char* names[3] = {"mma_f16_f32.bin", "mma_bf16_f32.bin", "mma_f16_f16.bin"};
  for (int mode = 0; mode < 3; ++mode) {
    Lcg r;
    const bool bf16 = mode == Bf16IntoF32;
    std::vector<unsigned short> a(kTiles * 256), b(kTiles * 128);
    std::vector<unsigned> c(kTiles * 128), d(kTiles * 128);
    // f16 exponent fields 5-25 (2^-10 to 2^10), bfloat16 107-147 (2^-20 to 2^20).
    const int low = bf16 ? 107 : 5, high = bf16 ? 147 : 25;
    for (auto& v : a) v = random_half(r, bf16, low, high);
    for (auto& v : b) v = random_half(r, bf16, low, high);
    for (std::size_t i = 0; i < c.size(); ++i) {
      // A quarter of the accumulators zero; the rest spread from 2^-12 to 2^12.
      if (r.next() % 4 == 0) {
        c[i] = 0;
      } else if (mode == F16IntoF16) {
        c[i] = random_half(r, false, 5, 25);
      } else {
        c[i] = (r.next() & 1u) << 31 | static_cast<unsigned>(115 + r.next() % 25) << 23 |
               (r.next() & 0x7fffffu);
      }
    }
    unsigned short *da, *db;
    unsigned *dc, *dd;
    cudaMalloc(&da, a.size() * 2);
    cudaMalloc(&db, b.size() * 2);
    cudaMalloc(&dc, c.size() * 4);
    cudaMalloc(&dd, d.size() * 4);
    cudaMemcpy(da, a.data(), a.size() * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), b.size() * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(dc, c.data(), c.size() * 4, cudaMemcpyHostToDevice);
    product<<<kTiles, 32>>>(da, db, dc, dd, mode);
    if (cudaMemcpy(d.data(), dd, d.size() * 4, cudaMemcpyDeviceToHost) != cudaSuccess) {
      std::fprintf(stderr, "mma_probe: the kernel failed\n");
      return 1;
    }
    std::FILE* f = std::fopen((dir + "/" + names[mode]).c_str(), "wb");
    const unsigned tiles = kTiles;
    std::fwrite(&tiles, 4, 1, f);
    std::fwrite(a.data(), 2, a.size(), f);
    std::fwrite(b.data(), 2, b.size(), f);
    std::fwrite(c.data(), 4, c.size(), f);
    std::fwrite(d.data(), 4, d.size(), f);
    std::fclose(f);
    std::printf("%s: %d tiles\n", names[mode], kTiles);
  }
  return 0;
}
