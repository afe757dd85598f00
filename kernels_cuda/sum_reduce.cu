// sum_reduce: the CUDA Programming Guide §2.3.5.2 writes this kernel in Python (Numba); here it
// is in CUDA C++ with the Python's types (kernels_ir/sum_reduce.kir): cp.ones is float64, the
// staging array float32, local_sum a Python float (float64), s float32.
//
//   shared_staging = cuda.shared.array(shape=512, dtype=np.float32)
//   shared_staging[cuda.threadIdx.x] = a[cuda.blockIdx.x*cuda.blockDim.x + cuda.threadIdx.x]
//   cuda.syncthreads()
//   local_sum = float(0.0)
//   if cuda.threadIdx.x == 0:
//       for i in range(cuda.blockDim.x):
//           local_sum = local_sum + shared_staging[i]
//       cuda.atomic.add(s, 0, local_sum)
__global__ void sum_reduce(const double* a, float* s)
{
    __shared__ float shared_staging[512];
    shared_staging[threadIdx.x] = a[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    double local_sum = 0.0;
    if (threadIdx.x == 0) {
        for (unsigned i = 0; i < blockDim.x; ++i) {
            local_sum = local_sum + shared_staging[i];
        }
        atomicAdd(&s[0], (float)local_sum);
    }
}
