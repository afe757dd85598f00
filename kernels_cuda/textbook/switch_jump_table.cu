// A switch of nine cases on a value read from memory: ptxas compiles it to jump tables in the
// kernel's constant bank 2 and indirect jumps (BRX), each lane to its own case.
__global__ void switch_jump_table(const int* key, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int k = key[i];
  float table[16];
  for (int j = 0; j < 16; ++j) table[j] = static_cast<float>(j * k);
  float r;
  switch (k % 9) {
    case 0: r = table[k & 15]; break;
    case 1: r = 2.0f; break;
    case 2: r = table[3] * 3.0f; break;
    case 3: r = -1.0f; break;
    case 4: r = table[(k >> 2) & 15] + 4.0f; break;
    case 5: r = 5.5f; break;
    case 6: r = table[7] - 6.0f; break;
    case 7: r = 7.25f; break;
    default: r = 0.0f;
  }
  out[i] = r;
}
