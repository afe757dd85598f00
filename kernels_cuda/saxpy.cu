// saxpy, as the "grid/block/thread -> SM/SP" post §2.1 writes it (kernels_ir/saxpy.kir).
__global__ void saxpy(float *y, const float *x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] + y[i];
    }
}
