// A per-thread insertion sort in a local array (dynamic indexing, so local memory), a non-inlined
// function taking a struct by reference, clock64, nanosleep and memory fences.
struct Particle { float x, y, z; int id; };
__device__ __noinline__ float energy(const Particle& p) { return p.x * p.x + p.y * p.y + p.z * p.z; }
__global__ void local_sort(const Particle* ps, float* out, int* order, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float vals[16];
  int idx[16];
  for (int k = 0; k < 16; ++k) {
    Particle p = ps[(i * 7 + k * 13) % n];
    vals[k] = energy(p);
    idx[k] = p.id;
  }
  for (int a = 1; a < 16; ++a) {
    float v = vals[a]; int id = idx[a]; int b = a - 1;
    while (b >= 0 && vals[b] > v) { vals[b + 1] = vals[b]; idx[b + 1] = idx[b]; --b; }
    vals[b + 1] = v; idx[b + 1] = id;
  }
  int pick = ps[i].id & 15;
  out[i] = vals[pick] + vals[15 - pick];
  order[i] = idx[pick];
  long long t0 = clock64();
  __nanosleep(100);
  long long t1 = clock64();
  if (t1 < t0) order[i] = -1;
  __threadfence();
  __threadfence_block();
}
