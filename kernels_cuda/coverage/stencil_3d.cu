// A 3-D stencil on a 3-D grid of 3-D blocks, reading neighbours through shared memory with a halo,
// float division by literals and fmaf, and a clamp at the borders.
#define B 8
__global__ void stencil_3d(const float* in, float* out, int nx, int ny, int nz) {
  __shared__ float tile[B + 2][B + 2][B + 2];
  int x = blockIdx.x * B + threadIdx.x, y = blockIdx.y * B + threadIdx.y, z = blockIdx.z * B + threadIdx.z;
  auto at = [&](int i, int j, int k) {
    i = min(max(i, 0), nx - 1); j = min(max(j, 0), ny - 1); k = min(max(k, 0), nz - 1);
    return in[(k * ny + j) * nx + i];
  };
  tile[threadIdx.z + 1][threadIdx.y + 1][threadIdx.x + 1] = at(x, y, z);
  if (threadIdx.x == 0) tile[threadIdx.z + 1][threadIdx.y + 1][0] = at(x - 1, y, z);
  if (threadIdx.x == B - 1) tile[threadIdx.z + 1][threadIdx.y + 1][B + 1] = at(x + 1, y, z);
  if (threadIdx.y == 0) tile[threadIdx.z + 1][0][threadIdx.x + 1] = at(x, y - 1, z);
  if (threadIdx.y == B - 1) tile[threadIdx.z + 1][B + 1][threadIdx.x + 1] = at(x, y + 1, z);
  if (threadIdx.z == 0) tile[0][threadIdx.y + 1][threadIdx.x + 1] = at(x, y, z - 1);
  if (threadIdx.z == B - 1) tile[B + 1][threadIdx.y + 1][threadIdx.x + 1] = at(x, y, z + 1);
  __syncthreads();
  if (x < nx && y < ny && z < nz) {
    int a = threadIdx.x + 1, b = threadIdx.y + 1, c = threadIdx.z + 1;
    float s = tile[c][b][a - 1] + tile[c][b][a + 1] + tile[c][b - 1][a] + tile[c][b + 1][a] +
              tile[c - 1][b][a] + tile[c + 1][b][a];
    out[(z * ny + y) * nx + x] = fmaf(tile[c][b][a], -6.0f, s) / 6.0f + tile[c][b][a] / 3.0f;
  }
}
