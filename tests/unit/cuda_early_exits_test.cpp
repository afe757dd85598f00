// Threads that return while others of their block go on to a __syncthreads(), imported from CUDA
// and run on the IR: the barrier counts the threads that exited as arrived, and lanes of one warp
// that reach it apart (the two sides of a divergent branch) wait there for one another, as the
// GPU, which schedules each side on its own, lets them. Expected values are computed in the tests.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>

#include "tests/unit/cuda_support.hpp"

namespace warpsim::test {
namespace {

TEST_CASE("threads that return before a __syncthreads() are not waited for there") {
  if (!have_nvcc("the kernel is not compiled here")) return;
  // `if (i >= n) return;` then a barrier: in block 1, threads 72-127 return (n = 200). Warp 2
  // diverges there (lanes 0-7 go on), and its returning lanes exit as the GPU's code exits them,
  // so the barrier opens for the 72 that reach it.
  const exec::LaunchResult r =
      run_cuda("early_return",
               "__global__ void early_return(const float* x, float* y, int n) {\n"
               "  __shared__ float s[128];\n"
               "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
               "  if (i >= n) return;\n"
               "  s[threadIdx.x] = x[i];\n  __syncthreads();\n"
               "  y[i] = s[threadIdx.x ^ 1];\n}\n",
               "launch early_return grid(2) block(128) {\n"
               "  x = f32[256] iota\n  y = f32[256] zero\n  n = 200\n}\n");
  const auto* y = reinterpret_cast<const float*>(r.memory.find("y")->bytes.data());
  for (int i = 0; i < 256; ++i) {
    CAPTURE(i);
    // Thread t of block b reads its pair's element, x[b * 128 + (t ^ 1)] = that index (the pairs
    // of the threads that go on go on together: 71 ^ 1 = 70); the returning threads write none.
    const int t = i % 128, b = i / 128;
    const float want = i >= 200 ? 0.0f : static_cast<float>(b * 128 + (t ^ 1));
    CHECK(y[i] == want);
  }
}

TEST_CASE("threads that do work and then return before a __syncthreads() are not waited for") {
  if (!have_nvcc("the kernel is not compiled here")) return;
  // Two shapes nvcc gives the returning side: its own store and return, and a store merged with
  // the other side's after the barrier (one tail for both). Either way the warps of the block
  // diverge on the return, and the barrier counts the returning threads as exited.
  const exec::LaunchResult own =
      run_cuda("work_return",
               "__global__ void work_return(const float* x, float* y, int n) {\n"
               "  __shared__ float s[128];\n"
               "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
               "  if (i >= n) { y[i] = -1.0f; return; }\n"
               "  s[threadIdx.x] = x[i];\n  __syncthreads();\n"
               "  y[i] = s[threadIdx.x ^ 1];\n}\n",
               "launch work_return grid(2) block(128) {\n"
               "  x = f32[256] iota\n  y = f32[256] zero\n  n = 200\n}\n");
  const auto* y = reinterpret_cast<const float*>(own.memory.find("y")->bytes.data());
  for (int i = 0; i < 256; ++i) {
    CAPTURE(i);
    // Below n, thread t of block b reads its pair's element, x[b * 128 + (t ^ 1)], that index
    // (200 is even, so every pair below it goes on together); from n on, -1.
    const int t = i % 128, b = i / 128;
    CHECK(y[i] == (i >= 200 ? -1.0f : static_cast<float>(b * 128 + (t ^ 1))));
  }
  const exec::LaunchResult merged =
      run_cuda("odd_lanes_leave",
               "__global__ void odd_lanes_leave(const float* x, float* y) {\n"
               "  __shared__ float s[128];\n"
               "  int t = threadIdx.x;\n"
               "  if (t & 1) { y[blockIdx.x * 128 + t] = x[t] * 2.0f; return; }\n"
               "  s[t] = x[t];\n  __syncthreads();\n"
               "  y[blockIdx.x * 128 + t] = s[(t + 2) % 128];\n}\n",
               "launch odd_lanes_leave grid(2) block(128) {\n"
               "  x = f32[128] iota\n  y = f32[256] zero\n}\n");
  const auto* z = reinterpret_cast<const float*>(merged.memory.find("y")->bytes.data());
  for (int i = 0; i < 256; ++i) {
    CAPTURE(i);
    // Odd threads write 2 x[t] = 2t; even ones the element two further on, (t + 2) % 128 (even,
    // so written by an even thread before the barrier).
    const int t = i % 128;
    CHECK(z[i] == static_cast<float>(t % 2 == 1 ? 2 * t : (t + 2) % 128));
  }
}

TEST_CASE("lanes of both sides of a branch wait at one barrier for each other, some returning") {
  if (!have_nvcc("the kernel is not compiled here")) return;
  // In each iteration the threads with x > k split off; of those the odd ones return and the
  // even ones add 3. Both sides go on to the loop's barrier, the first to arrive waiting there
  // for the other: the barrier, not the branch, joins them.
  const exec::LaunchResult r = run_cuda(
      "nested_return",
      "__global__ void nested_return(const int* x, int* y, int n) {\n"
      "  __shared__ int s[128];\n  const int t = threadIdx.x;\n  int acc = 0;\n"
      "#pragma unroll 1\n"
      "  for (int k = 0; k < n; ++k) {\n"
      "    if (x[t] > k) {\n      if (x[t] & 1) { y[t] = acc; return; }\n      acc += 3;\n    }\n"
      "    s[t] = acc + k;\n    __syncthreads();\n    acc += s[(t + 2) % 128];\n"
      "    __syncthreads();\n  }\n  y[t] = acc;\n}\n",
      "launch nested_return grid(1) block(128) {\n"
      "  x = s32[128] iota\n  y = s32[128] zero\n  n = 6\n}\n");
  // The same iterations, thread by thread: x[t] = t, so the odd threads (all above k = 0) return
  // in the first iteration with y = 0, and every even thread goes through all six.
  constexpr int kThreads = 128, kIterations = 6;
  std::int32_t acc[kThreads] = {}, s[kThreads] = {}, want[kThreads] = {};
  bool running[kThreads];
  std::fill_n(running, kThreads, true);
  for (int k = 0; k < kIterations; ++k) {
    for (int t = 0; t < kThreads; ++t) {
      if (!running[t] || t <= k) continue;
      if (t % 2 == 1) {
        want[t] = acc[t];
        running[t] = false;
      } else {
        acc[t] += 3;
      }
    }
    for (int t = 0; t < kThreads; ++t) {
      if (running[t]) s[t] = acc[t] + k;
    }
    for (int t = 0; t < kThreads; ++t) {
      if (running[t]) acc[t] += s[(t + 2) % kThreads];
    }
  }
  for (int t = 0; t < kThreads; ++t) {
    if (running[t]) want[t] = acc[t];
  }
  const auto* y = reinterpret_cast<const std::int32_t*>(r.memory.find("y")->bytes.data());
  for (int t = 0; t < kThreads; ++t) {
    CAPTURE(t);
    CHECK(y[t] == want[t]);
  }
}

}  // namespace
}  // namespace warpsim::test
