// Shared memory of several element types (double, char, short, u64, float), their atomics (a
// double added by a compare-and-swap loop), shared atomics of each width, vector types.
__global__ void shared_types(const double* x, const int4* v, double* out, unsigned long long* hist,
                             short4* s4, int n) {
  __shared__ double sd[128];
  __shared__ unsigned char sc[128];
  __shared__ short ss[128];
  __shared__ unsigned long long sh[16];
  __shared__ float sf[4];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  if (t < 16) sh[t] = 0;
  if (t < 4) sf[t] = 0.f;
  sd[t] = i < n ? x[i] : 0.0;
  sc[t] = (unsigned char)(i * 7);
  ss[t] = (short)(i * -3);
  __syncthreads();
  atomicAdd(&sh[t & 15], (unsigned long long)sc[(t * 5) & 127]);
  atomicMax((int*)&sf[0], 0);
  atomicAdd(&sf[1], 1.0f);
  atomicAdd(&sd[t ^ 1], 0.0);
  __syncthreads();
  double acc = 0;
  for (int k = 0; k < 8; ++k) acc += sd[(t + k * 17) & 127] / 3.0 + ss[(t * 3 + k) & 127] * 0.25;
  if (i < n) {
    out[i] = acc + sc[t] + sf[1];
    int4 q = v[i];
    s4[i] = make_short4((short)q.x, (short)q.y, (short)(q.z >> 3), (short)(q.w ^ t));
  }
  if (t < 16) atomicAdd(&hist[t], sh[t]);
}
