// All-pairs gravitational acceleration with bodies staged in shared memory tiles of blockDim.x
// (GPU Gems 3, ch. 31), positions and masses as x, y, z, m arrays; softening eps2 = 0.01.
__global__ void nbody_tile(const float* px, const float* py, const float* pz, const float* pm,
                           float* ax, float* ay, float* az, int n) {
  extern __shared__ float sh[];
  float* sx = sh;
  float* sy = sh + blockDim.x;
  float* sz = sh + 2 * blockDim.x;
  float* sm = sh + 3 * blockDim.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float xi = px[i], yi = py[i], zi = pz[i];
  float fx = 0.0f, fy = 0.0f, fz = 0.0f;
  for (int tile = 0; tile < n; tile += blockDim.x) {
    int j = tile + threadIdx.x;
    sx[threadIdx.x] = px[j];
    sy[threadIdx.x] = py[j];
    sz[threadIdx.x] = pz[j];
    sm[threadIdx.x] = pm[j];
    __syncthreads();
    for (int k = 0; k < blockDim.x; ++k) {
      float dx = sx[k] - xi, dy = sy[k] - yi, dz = sz[k] - zi;
      float d2 = dx * dx + dy * dy + dz * dz + 0.01f;
      float inv = 1.0f / sqrtf(d2);
      float s = sm[k] * inv * inv * inv;
      fx += dx * s;
      fy += dy * s;
      fz += dz * s;
    }
    __syncthreads();
  }
  ax[i] = fx;
  ay[i] = fy;
  az[i] = fz;
}
