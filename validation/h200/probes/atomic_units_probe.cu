// Which lines of global memory share an atomic unit of the L2, and how many units a few
// neighbouring lines reach: the spread that decides a histogram's speed when its bins span a
// few lines. Timed with CUDA events (no profiler), each launch five times, the median kept.
//
// `lines` launches: every warp of 264 blocks of 1,024 threads adds 1 to the 32 words of one line
// of the list (warp % n), four times, as kernels_ir/calibration/atomics.kir's atom_add does; the
// time against one line's is how many lines the L2 serves side by side.
// `pair` launches: the same over two lines a and b: about one line's time when they share a unit,
// half of it when they do not.
// `scatter` launches: one lane a line, thread t on line t % n, as a histogram's bins are hit.
//
// `bins` launches (argument `bins`: only those): random_bins and shared_words below.
//
// Output, one row a launch: pattern,first,n,second,ms (second: line b of a pair, else -1).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>
#include <cuda_runtime.h>

namespace {

constexpr unsigned kBlocks = 264, kThreads = 1024;
constexpr unsigned kMaxLines = 32768;

__global__ void warp_lines(int* bins, const unsigned* line_of, unsigned n, unsigned iterations) {
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned line = line_of[(gid >> 5) % n];
  for (unsigned i = 0; i < iterations; ++i) atomicAdd(&bins[line * 32 + (threadIdx.x & 31)], 1);
}

__global__ void scatter_lines(int* bins, const unsigned* line_of, unsigned n,
                              unsigned iterations) {
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned line = line_of[gid % n];
  for (unsigned i = 0; i < iterations; ++i) atomicAdd(&bins[line * 32 + (threadIdx.x & 31)], 1);
}

// Histogram launches: every thread adds 1 to `iterations` bins of `n`, picked by a hash of its
// index and the iteration, in 4- or 8-byte bins (a random histogram of n bins).
template <typename T>
__global__ void random_bins(T* bins, unsigned n, unsigned iterations) {
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned i = 0; i < iterations; ++i) {
    unsigned h = (gid * 0x9E3779B1u) ^ (i * 0x85EBCA77u);
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 13;
    atomicAdd(&bins[h % n], T(1));
  }
}

// Same-word launches: every warp's lanes update one line, `share` lanes on each element
// (share 1: 32 elements, each lane its own; 32: one element for all), the line warp % 8.
template <typename T>
__global__ void shared_words(T* bins, unsigned share, unsigned iterations) {
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned line = (gid >> 5) % 8, per_line = 128 / sizeof(T);
  const unsigned element = line * per_line + ((threadIdx.x & 31) / share) % per_line;
  for (unsigned i = 0; i < iterations; ++i) atomicAdd(&bins[element], T(1));
}

using Kernel = void (*)(int*, const unsigned*, unsigned, unsigned);

struct Probe {
  int* bins = nullptr;
  unsigned* line_of = nullptr;
  cudaEvent_t start{}, stop{};

  // The median of `repeats` timed launches of `kernel` over `lines` (after one that warms them
  // into the L2), in milliseconds.
  float time(Kernel kernel, const std::vector<unsigned>& lines, unsigned iterations,
             int repeats = 5) {
    cudaMemcpy(line_of, lines.data(), lines.size() * sizeof(unsigned), cudaMemcpyHostToDevice);
    const auto n = static_cast<unsigned>(lines.size());
    kernel<<<kBlocks, kThreads>>>(bins, line_of, n, iterations);
    std::vector<float> ms(static_cast<std::size_t>(repeats));
    for (float& m : ms) {
      cudaEventRecord(start);
      kernel<<<kBlocks, kThreads>>>(bins, line_of, n, iterations);
      cudaEventRecord(stop);
      cudaEventSynchronize(stop);
      cudaEventElapsedTime(&m, start, stop);
    }
    std::nth_element(ms.begin(), ms.begin() + repeats / 2, ms.end());
    return ms[static_cast<std::size_t>(repeats / 2)];
  }
};

std::vector<unsigned> consecutive(unsigned first, unsigned n) {
  std::vector<unsigned> lines(n);
  for (unsigned i = 0; i < n; ++i) lines[i] = first + i;
  return lines;
}

// Sorts the lines `first + 8 q + {0, 2}` (q below `quads`) into the classes of lines that share
// an atomic unit, by pairing each with one line of every class found so far until their time is
// one line's (lines 2k and 2k + 1, and 8k + j and 8k + j + 4, share a unit: the pair launches
// show it). Prints class,line,representative.
void classify(Probe& p, unsigned first, unsigned quads, float one_line) {
  std::vector<unsigned> representatives;
  for (unsigned q = 0; q < quads; ++q)
    for (unsigned j : {0u, 2u}) {
      const unsigned line = first + 8 * q + j;
      unsigned found = line;
      for (unsigned r : representatives) {
        float ratio = p.time(warp_lines, {r, line}, 4, 1) / one_line;
        if (ratio > 0.65f && ratio < 0.85f) ratio = p.time(warp_lines, {r, line}, 4) / one_line;
        if (ratio >= 0.75f) {
          found = r;
          break;
        }
      }
      if (found == line) representatives.push_back(line);
      std::printf("class,%u,%u,%u,-1\n", first, line, found);
    }
}

}  // namespace

// The median of five timed launches of `launch()` (after one), in milliseconds.
template <typename Launch>
float time_launch(Probe& p, Launch launch) {
  launch();
  std::vector<float> ms(5);
  for (float& m : ms) {
    cudaEventRecord(p.start);
    launch();
    cudaEventRecord(p.stop);
    cudaEventSynchronize(p.stop);
    cudaEventElapsedTime(&m, p.start, p.stop);
  }
  std::nth_element(ms.begin(), ms.begin() + 2, ms.end());
  return ms[2];
}

void bins_and_words(Probe& p) {
  auto* bins32 = reinterpret_cast<unsigned*>(p.bins);
  auto* bins64 = reinterpret_cast<unsigned long long*>(p.bins);
  for (unsigned n : {1u, 2u, 4u, 8u, 16u, 32u, 64u, 128u, 256u, 1024u, 4096u, 65536u}) {
    std::printf("bins32,0,%u,-1,%.5f\n", n, time_launch(p, [&] {
                  random_bins<<<kBlocks, kThreads>>>(bins32, n, 16);
                }));
    std::printf("bins64,0,%u,-1,%.5f\n", n, time_launch(p, [&] {
                  random_bins<<<kBlocks, kThreads>>>(bins64, n, 16);
                }));
  }
  for (unsigned share : {1u, 2u, 4u, 8u, 16u, 32u}) {
    std::printf("words32,0,%u,-1,%.5f\n", share, time_launch(p, [&] {
                  shared_words<<<kBlocks, kThreads>>>(bins32, share, 16);
                }));
    std::printf("words64,0,%u,-1,%.5f\n", share, time_launch(p, [&] {
                  shared_words<<<kBlocks, kThreads>>>(bins64, share, 16);
                }));
  }
}

int main(int argc, char** argv) {
  Probe p;
  if (cudaMalloc(&p.bins, std::size_t{kMaxLines} * 128) != cudaSuccess ||
      cudaMalloc(&p.line_of, kMaxLines * sizeof(unsigned)) != cudaSuccess)
    return 1;
  cudaMemset(p.bins, 0, std::size_t{kMaxLines} * 128);
  cudaEventCreate(&p.start);
  cudaEventCreate(&p.stop);
  int clock_khz = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
  std::printf("# clock %d kHz, base address %p\n", clock_khz, static_cast<void*>(p.bins));
  std::printf("pattern,first,n,second,ms\n");
  if (argc > 1 && std::string(argv[1]) == "bins") {
    bins_and_words(p);
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 2;
  }

  // With 4 iterations a launch of many lines is as short as the launch itself; 64 resolve them.
  for (unsigned iterations : {4u, 64u}) {
    const char* lines_name = iterations == 4 ? "lines" : "lines64";
    const char* scatter_name = iterations == 4 ? "scatter" : "scatter64";
    std::vector<unsigned> sizes;
    for (unsigned n = 1; n <= 64; ++n) sizes.push_back(n);
    for (unsigned n : {80u, 96u, 112u, 128u, 160u, 192u, 256u, 384u, 512u, 1024u, 2048u, 4096u,
                       8192u, 32768u})
      sizes.push_back(n);
    for (unsigned n : sizes) {
      std::printf("%s,0,%u,-1,%.5f\n", lines_name, n,
                  p.time(warp_lines, consecutive(0, n), iterations));
      std::printf("%s,0,%u,-1,%.5f\n", scatter_name, n,
                  p.time(scatter_lines, consecutive(0, n), iterations));
    }
  }
  for (unsigned first : {1u, 2u, 3u, 4u, 8u, 16u, 32u, 64u, 128u, 1000u, 4096u, 16384u})
    for (unsigned n : {2u, 3u, 4u, 8u, 16u, 32u, 64u})
      std::printf("lines,%u,%u,-1,%.5f\n", first, n,
                  p.time(warp_lines, consecutive(first, n), 4));
  for (unsigned a : {0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u})
    for (unsigned b = 0; b < (a == 0 ? 4096u : 512u); ++b)
      if (b != a) std::printf("pair,%u,2,%u,%.5f\n", a, b, p.time(warp_lines, {a, b}, 4));
  const float one_line = p.time(warp_lines, {0}, 4);
  classify(p, 0, 512, one_line);      // lines 0-4,095: the first 512 KB
  classify(p, 16384, 128, one_line);  // 1,024 lines 2 MB on: another page
  const cudaError_t status = cudaDeviceSynchronize();
  if (status != cudaSuccess) {
    std::fprintf(stderr, "%s\n", cudaGetErrorString(status));
    return 2;
  }
  return 0;
}
