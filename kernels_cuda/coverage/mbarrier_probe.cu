// mbarrier's phases step by step: one thread initialises the object, arrives with counts, adds
// and completes transactions, drops an arrival and completes a phase, recording each arrival's
// token (the object's high word before it, with the arrivals made in the low word) and what
// test_wait and pending_count answer; then the block's threads complete a phase together and
// wait for it with try_wait.parity. Every step is made by one thread in program order, so the
// tokens do not depend on timing. (Plain loads of the object read zeros on an H100 after every
// step, validation/h200/results/h100_2026_12_06c/: the object is read through its tokens.)
__device__ unsigned long long arrive(unsigned addr, unsigned count) {
  unsigned long long token;
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1], %2;" : "=l"(token) : "r"(addr), "r"(count));
  return token;
}

__device__ unsigned test_wait(unsigned addr, unsigned long long token) {
  unsigned done;
  asm volatile(
      "{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
      : "=r"(done)
      : "r"(addr), "l"(token));
  return done;
}

__device__ unsigned test_parity(unsigned addr, unsigned parity) {
  unsigned done;
  asm volatile(
      "{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
      : "=r"(done)
      : "r"(addr), "r"(parity));
  return done;
}

__global__ void mbarrier_probe(unsigned long long* words, unsigned* flags, int extra) {
  __shared__ unsigned long long bar;
  const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
  const unsigned count = blockDim.x + extra;  // 64: one per thread
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(addr), "r"(count));
    words[0] = arrive(addr, 1);
    words[1] = arrive(addr, 3);
    asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(addr), "r"(100));
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(addr), "r"(40));
    asm volatile("mbarrier.arrive.expect_tx.shared.b64 %0, [%1], %2;"
                 : "=l"(words[2])
                 : "r"(addr), "r"(8));
    unsigned pending;
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pending) : "l"(words[2]));
    flags[0] = pending;
    flags[1] = test_wait(addr, words[0]);  // the phase is not complete
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(addr), "r"(68));
    asm volatile("mbarrier.arrive_drop.shared.b64 %0, [%1];" : "=l"(words[3]) : "r"(addr));
    words[4] = arrive(addr, count - 6);  // the phase's last arrivals: it completes
    flags[2] = test_wait(addr, words[0]);
    flags[3] = test_parity(addr, 0);
    flags[4] = test_parity(addr, 1);
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(addr), "r"(5));
    asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(addr), "r"(5));
    words[5] = arrive(addr, 1);  // phase 1's first arrival (63 pending), before the others'
  }
  __syncthreads();
  // Phase 1 expects count - 1 arrivals (one was dropped): every thread but the last arrives
  // (thread 0 above).
  if (threadIdx.x != 0 && threadIdx.x + 1 < blockDim.x) arrive(addr, 1);
  for (;;) {
    unsigned done;
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(addr), "r"(1));
    if (done) break;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    flags[5] = test_parity(addr, 1);
    flags[6] = test_parity(addr, 0);
  }
  // Every thread passed its wait (how often it polled depends on timing).
  atomicAdd(&flags[7], 1u);
}
