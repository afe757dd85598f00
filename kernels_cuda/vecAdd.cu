// vecAdd, as the CUDA Programming Guide §2.3.3.1 writes it (kernels_ir/vecAdd.kir is the same
// kernel in the IR, with its launch).
__global__ void vecAdd(float* A, float* B, float* C, int vectorLength)
{
    int workIndex = threadIdx.x + blockIdx.x*blockDim.x;
    if(workIndex < vectorLength)
    {
        C[workIndex] = A[workIndex] + B[workIndex];
    }
}
