// 16-bit compare-and-swap (atomicCAS on unsigned short): sm_90 has no 16-bit CAS, so ptxas
// reads the 32-bit word holding the element and swaps the whole word in a loop. Thread t
// claims slot t % 8 with the value t + 1 where the slot still holds 0: the first thread in
// execution order wins each slot, and every thread records what it found.
__global__ void short_cas(unsigned short* slots, unsigned short* found) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  found[t] = atomicCAS(slots + t % 8, static_cast<unsigned short>(0),
                       static_cast<unsigned short>(t + 1));
}
