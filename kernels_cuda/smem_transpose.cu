// smem_transpose, as the CUDA Programming Guide §2.3.4.2.1 writes it
// (kernels_ir/smem_transpose.kir).
#define THREADS_PER_BLOCK_X 32
#define THREADS_PER_BLOCK_Y 32

#define INDX( row, col, ld ) ( ( (col) * (ld) ) + (row) )

__global__ void smem_transpose(int m,
                               float *a,
                               float *c )
{
    __shared__ float smemArray[THREADS_PER_BLOCK_X][THREADS_PER_BLOCK_Y];

    const int myRow = blockDim.x * blockIdx.x + threadIdx.x;
    const int myCol = blockDim.y * blockIdx.y + threadIdx.y;

    const int tileX = blockDim.x * blockIdx.x;
    const int tileY = blockDim.y * blockIdx.y;

    if( myRow < m && myCol < m )
    {
        smemArray[threadIdx.x][threadIdx.y] = a[INDX( tileX + threadIdx.x, tileY + threadIdx.y, m )];
    } /* end if */

    __syncthreads();

    if( myRow < m && myCol < m )
    {
        c[INDX( tileY + threadIdx.x, tileX + threadIdx.y, m )] = smemArray[threadIdx.y][threadIdx.x];
    } /* end if */
    return;
}
