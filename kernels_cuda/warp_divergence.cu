// warp_divergence: the SIMT cheat sheet's example 2 (kernels_ir/warp_divergence.kir): lanes 0-15
// take a 20-cycle `if` (5 dependent fma), lanes 16-31 a 12-cycle `else` (3 dependent fma).
__global__ void warp_divergence(float* out)
{
    unsigned gi = blockIdx.x * blockDim.x + threadIdx.x;
    float x = gi;
    if (threadIdx.x % 32 < 16) {
        float a = x;
        for (int k = 0; k < 5; ++k) a = fmaf(a, 1.5f, 1.0f);
        out[gi] = a;
    } else {
        float b = x;
        for (int k = 0; k < 3; ++k) b = fmaf(b, 0.5f, 2.0f);
        out[gi] = b;
    }
}
