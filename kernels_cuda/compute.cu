// compute, as the CUDA Programming Guide §2.3.3.5 writes it (kernels_ir/compute.kir). The seed
// fills coeffs from the host (cudaMemcpyToSymbol of {1, 2, 3, 4}); a kernel file has no host
// code, so the same values are the array's initialiser here.
__constant__ float coeffs[4] = {1.0f, 2.0f, 3.0f, 4.0f};

__global__ void compute(float *out) {
    int idx = threadIdx.x;
    out[idx] = coeffs[0] * idx + coeffs[1];
}
