// In timing mode the SASS frontend leaves each global atomic to the L2, as the IR frontend does:
// the update and the old values it returns are applied between intervals, in the order the
// requests reach the L2, so no SM sees another's atomic before it could have arrived. The old
// values must still land in the registers the instruction named, 64-bit ones in both halves.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tests/unit/run_support.hpp"
#include "tests/unit/sass_support.hpp"
#include "tests/unit/sass_timing_support.hpp"

namespace warpsim::test {
namespace {

// Every thread takes a 64-bit ticket from one of four counters (the old value is its ticket),
// then adds 1 to a shared total through a compare-and-swap loop on one word.
constexpr const char* kTickets =
    R"(kernel tickets(counters: ptr global u64, got: ptr global u64, total: ptr global u32, tries: ptr global u32) {
entry:
  %t = mov.u32 %tid.x
  %b = mov.u32 %ctaid.x
  %nt = mov.u32 %ntid.x
  %base = mul.u32 %b, %nt
  %i = add.u32 %base, %t
  %c = and.u32 %i, 3
  %old = atom.global.add.u64 counters[%c], 1
  st.global.u64 got[%i], %old
  %seen = ld.global.u32 total[0]
  %n = mov.u32 0
  jmp retry
retry:
  %want = add.u32 %seen, 1
  %now = atom.global.cas.u32 total[0], %seen, %want
  %n = add.u32 %n, 1
  %lost = ne.u32 %now, %seen
  %seen = mov.u32 %now
  br %lost, retry, done
done:
  st.global.u32 tries[%i], %n
  ret
}

launch tickets grid(8) block(128) {
  counters = u64[4] constant(4294967296)
  got = u64[1024] zero
  total = u32[1] zero
  tries = u32[1024] zero
}
)";

TEST_CASE("the SASS frontend's timing mode applies global atomics at the L2, results intact") {
  if (!have_sass_tools("the SASS frontend is not timed")) return;
  const KernelRun k = load_kernel_text("tickets.kir", kTickets);
  const sass::SassKernel kernel = compiled(k);
  const scheduler::TimingResult r = time_on_sass(k, kernel, 1);
  const exec::GlobalMemory& memory = r.functional.memory;
  // 1,024 threads, 256 on each counter, which starts at 2^32: each counter ends 256 higher, and
  // its threads hold the 256 tickets 2^32 ... 2^32 + 255, each once (a ticket's high word is the
  // register pair's second register: a lost one would read 0 there).
  const auto counters = values_of<std::uint64_t>(memory, "counters");
  for (const std::uint64_t c : counters) CHECK(c == (std::uint64_t{1} << 32) + 256);
  const auto got = values_of<std::uint64_t>(memory, "got");
  for (std::uint32_t counter = 0; counter < 4; ++counter) {
    std::vector<std::uint64_t> tickets;
    for (std::uint32_t i = counter; i < 1024; i += 4) tickets.push_back(got[i]);
    std::sort(tickets.begin(), tickets.end());
    for (std::uint32_t n = 0; n < 256; ++n) {
      CAPTURE(counter);
      CHECK(tickets[n] == (std::uint64_t{1} << 32) + n);
    }
  }
  // Each thread's compare-and-swap succeeds once: the total counts every thread. A warp's 32
  // lanes on one word succeed one at a time, and the warps of 8 blocks compete, so the tries
  // add up to more than one a thread (a CAS that saw every other apply first would retry).
  CHECK(values_of<std::uint32_t>(memory, "total")[0] == 1024);
  std::uint64_t tries = 0;
  for (const std::uint32_t n : values_of<std::uint32_t>(memory, "tries")) tries += n;
  CHECK(tries > 1024);
  // The atomics apply in the L2's order, not the simulation threads': on three threads (the
  // SMs in turns of their own) every ticket, try and cycle is the same.
  const scheduler::TimingResult three = time_on_sass(k, kernel, 3);
  CHECK(values_of<std::uint64_t>(three.functional.memory, "got") == got);
  CHECK(values_of<std::uint32_t>(three.functional.memory, "tries") ==
        values_of<std::uint32_t>(memory, "tries"));
  CHECK(three.timing.elapsed_cycles == r.timing.elapsed_cycles);
}

}  // namespace
}  // namespace warpsim::test
