// testKernel, the occupancy example of the CUDA Programming Guide §2.3.7 (kernels_ir/testKernel.kir).
// The seed leaves the body open; each thread writes its global index so the launch does work.
__global__ void testKernel(unsigned* out)
{
    unsigned gi = blockIdx.x * blockDim.x + threadIdx.x;
    out[gi] = gi;
}
