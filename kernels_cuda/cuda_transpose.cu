// cuda_transpose, as the CUDA Programming Guide §2.3.4.1.1 writes it
// (kernels_ir/cuda_transpose.kir).
#define INDX( row, col, ld ) ( ( (row) * (ld) ) + (col) )

__global__ void cuda_transpose(int m, float *a, float *c )
{
    int myCol = blockDim.x * blockIdx.x + threadIdx.x;
    int myRow = blockDim.y * blockIdx.y + threadIdx.y;

    if( myRow < m && myCol < m )
    {
        c[INDX( myCol, myRow, m )] = a[INDX( myRow, myCol, m )];
    } /* end if */
    return;
} /* end cuda_transpose */
