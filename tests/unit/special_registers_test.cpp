// Special registers: every one of the 16, read by every thread of a launch whose blocks end in
// a partial warp and form clusters of two, in the functional and the timing model. They are kept
// apart from the warps' registers (launch-wide ones pooled, per warp index in one table, per
// block in the block), so each is checked against values computed here from the launch shape.
#include <doctest/doctest.h>

#include "tests/unit/timing_support.hpp"

namespace warpsim::test {
namespace {

// grid(2, 3, 2) block(5, 3, 3) cluster(2, 1, 1): 12 blocks of 45 threads (two warps, the second
// of 13 lanes), 6 clusters. Thread t of block b writes its 16 values at out[(b * 45 + t) * 16].
const char* const kKernel =
    "kernel specials(out: ptr global u32) {\n"
    "entry:\n"
    "  %ty = mad.u32 %tid.z, 3, %tid.y\n"
    "  %t = mad.u32 %ty, 5, %tid.x\n"
    "  %by = mad.u32 %ctaid.z, 3, %ctaid.y\n"
    "  %b = mad.u32 %by, 2, %ctaid.x\n"
    "  %g = mad.u32 %b, 45, %t\n"
    "  %base = mul.u32 %g, 16\n"
    "  %i0 = add.u32 %base, 0\n"
    "  st.global.u32 out[%i0], %tid.x\n"
    "  %i1 = add.u32 %base, 1\n"
    "  st.global.u32 out[%i1], %tid.y\n"
    "  %i2 = add.u32 %base, 2\n"
    "  st.global.u32 out[%i2], %tid.z\n"
    "  %i3 = add.u32 %base, 3\n"
    "  st.global.u32 out[%i3], %ntid.x\n"
    "  %i4 = add.u32 %base, 4\n"
    "  st.global.u32 out[%i4], %ntid.y\n"
    "  %i5 = add.u32 %base, 5\n"
    "  st.global.u32 out[%i5], %ntid.z\n"
    "  %i6 = add.u32 %base, 6\n"
    "  st.global.u32 out[%i6], %ctaid.x\n"
    "  %i7 = add.u32 %base, 7\n"
    "  st.global.u32 out[%i7], %ctaid.y\n"
    "  %i8 = add.u32 %base, 8\n"
    "  st.global.u32 out[%i8], %ctaid.z\n"
    "  %i9 = add.u32 %base, 9\n"
    "  st.global.u32 out[%i9], %nctaid.x\n"
    "  %i10 = add.u32 %base, 10\n"
    "  st.global.u32 out[%i10], %nctaid.y\n"
    "  %i11 = add.u32 %base, 11\n"
    "  st.global.u32 out[%i11], %nctaid.z\n"
    "  %i12 = add.u32 %base, 12\n"
    "  st.global.u32 out[%i12], %laneid\n"
    "  %i13 = add.u32 %base, 13\n"
    "  st.global.u32 out[%i13], %warpid\n"
    "  %i14 = add.u32 %base, 14\n"
    "  st.global.u32 out[%i14], %cluster_ctarank\n"
    "  %i15 = add.u32 %base, 15\n"
    "  st.global.u32 out[%i15], %cluster_nctarank\n"
    "  ret\n"
    "}\n"
    "launch specials grid(2, 3, 2) block(5, 3, 3) cluster(2, 1, 1) {\n"
    "  out = u32[12 * 45 * 16] zero\n"
    "}\n";

// The values the programming model defines, from the launch shape alone.
std::vector<std::uint32_t> expected_specials() {
  std::vector<std::uint32_t> out;
  for (std::uint32_t bz = 0; bz < 2; ++bz)
    for (std::uint32_t by = 0; by < 3; ++by)
      for (std::uint32_t bx = 0; bx < 2; ++bx)
        for (std::uint32_t tz = 0; tz < 3; ++tz)
          for (std::uint32_t ty = 0; ty < 3; ++ty)
            for (std::uint32_t tx = 0; tx < 5; ++tx) {
              const std::uint32_t t = (tz * 3 + ty) * 5 + tx;
              const std::uint32_t values[16] = {tx, ty, tz, 5, 3,      3,      bx,     by,
                                                bz, 2,  3,  2, t % 32, t / 32, bx % 2, 2};
              out.insert(out.end(), values, values + 16);
            }
  return out;
}

TEST_CASE("every special register holds the launch shape's value, functional and timed") {
  const KernelRun k = load_kernel_text("specials.kir", kKernel);
  const std::vector<std::uint32_t> expected = expected_specials();
  CHECK(values_of<std::uint32_t>(k.run().memory, "out") == expected);
  for (std::uint32_t threads : {1u, 2u}) {
    CAPTURE(threads);
    const scheduler::TimingResult timed = run_timed(k, h200(), threads);
    CHECK(values_of<std::uint32_t>(timed.functional.memory, "out") == expected);
  }
}

}  // namespace
}  // namespace warpsim::test
