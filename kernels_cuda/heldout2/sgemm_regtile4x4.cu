// A 64x64-tile SGEMM: float4 loads, padded shared tiles, 4x4 outputs per thread.
#define TS 32
__global__ void sgemm4x4(const float* A, const float* B, float* C, int N) {
  __shared__ float As[TS][TS];
  __shared__ float Bs[TS][TS + 4];
  int tx = threadIdx.x, ty = threadIdx.y;  // 8x8 threads, 4x4 outputs each
  int row0 = blockIdx.y * TS + ty * 4, col0 = blockIdx.x * TS + tx * 4;
  float acc[4][4] = {};
  for (int t = 0; t < N; t += TS) {
    for (int r = 0; r < 4; ++r) {
      float4 a = *reinterpret_cast<const float4*>(&A[(row0 + r) * N + t + tx * 4]);
      As[ty * 4 + r][tx * 4 + 0] = a.x; As[ty * 4 + r][tx * 4 + 1] = a.y;
      As[ty * 4 + r][tx * 4 + 2] = a.z; As[ty * 4 + r][tx * 4 + 3] = a.w;
      float4 b = *reinterpret_cast<const float4*>(&B[(t + ty * 4 + r) * N + col0]);
      *reinterpret_cast<float4*>(&Bs[ty * 4 + r][tx * 4]) = b;
    }
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < TS; ++k) {
      float4 b = *reinterpret_cast<const float4*>(&Bs[k][tx * 4]);
      for (int r = 0; r < 4; ++r) {
        float a = As[ty * 4 + r][k];
        acc[r][0] += a * b.x; acc[r][1] += a * b.y; acc[r][2] += a * b.z; acc[r][3] += a * b.w;
      }
    }
    __syncthreads();
  }
  for (int r = 0; r < 4; ++r)
    *reinterpret_cast<float4*>(&C[(row0 + r) * N + col0]) = make_float4(acc[r][0], acc[r][1], acc[r][2], acc[r][3]);
}
