// mbarrier's 64-bit object as the hardware keeps it: one thread initialises it, arrives with
// counts, adds and completes transactions, drops an arrival and completes a phase, recording the
// raw word after each step; then the block's threads complete a phase together and wait for it
// with try_wait.parity. Every step is made by one thread in program order, so the words do not
// depend on timing.
__device__ unsigned long long raw_word(const unsigned long long* bar) {
  return *reinterpret_cast<const volatile unsigned long long*>(bar);
}

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
    words[0] = raw_word(&bar);
    const unsigned long long first = arrive(addr, 1);
    words[1] = raw_word(&bar);
    words[2] = arrive(addr, 3);
    words[3] = raw_word(&bar);
    asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(addr), "r"(100));
    words[4] = raw_word(&bar);
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(addr), "r"(40));
    words[5] = raw_word(&bar);
    unsigned long long with_tx;
    asm volatile("mbarrier.arrive.expect_tx.shared.b64 %0, [%1], %2;"
                 : "=l"(with_tx)
                 : "r"(addr), "r"(8));
    words[6] = raw_word(&bar);
    unsigned pending;
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pending) : "l"(with_tx));
    flags[0] = pending;
    flags[1] = test_wait(addr, first);
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(addr), "r"(68));
    words[7] = raw_word(&bar);
    unsigned long long dropped;
    asm volatile("mbarrier.arrive_drop.shared.b64 %0, [%1];" : "=l"(dropped) : "r"(addr));
    words[8] = raw_word(&bar);
    words[9] = arrive(addr, count - 6);  // the phase's last arrivals: it completes
    words[10] = raw_word(&bar);
    flags[2] = test_wait(addr, first);
    flags[3] = test_parity(addr, 0);
    flags[4] = test_parity(addr, 1);
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(addr), "r"(5));
    words[11] = raw_word(&bar);
    asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(addr), "r"(5));
    words[12] = raw_word(&bar);
  }
  __syncthreads();
  // Phase 1 expects count - 1 arrivals (one was dropped): every thread but the last arrives.
  if (threadIdx.x + 1 < blockDim.x) arrive(addr, 1);
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
    words[13] = raw_word(&bar);
    flags[5] = test_parity(addr, 1);
    flags[6] = test_parity(addr, 0);
  }
  // Every thread passed its wait (how often it polled depends on timing).
  atomicAdd(&flags[7], 1u);
}
