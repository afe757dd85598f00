// The SIMD forms of the integer adds and compares: two 16-bit integers in each register
// (CUDA's __vadd2, __vsub2, __vmins2 and __vmaxu2, as ptxas compiles them for sm_90).
#include "sim/sass/sass_lanes.hpp"

namespace warpsim::sass {

// VIADD.16x2 d, a, b: each 16-bit half summed apart, wrapping; -b negates each half.
void add_packed16(const Lanes& x) {
  x.each([&](unsigned lane) {
    std::uint32_t halves[2] = {0, 0};
    for (std::size_t i = 1; i < x.count(); ++i) {
      const Operand& o = x.op(i);
      std::uint32_t v = x.raw(o, lane);
      if (o.invert) v = ~v;
      for (unsigned h = 0; h < 2; ++h) {
        const std::uint32_t part = (v >> (16 * h)) & 0xffffu;
        halves[h] += o.negate ? 0x10000u - part : part;
      }
    }
    x.set(x.op(0), lane, (halves[0] & 0xffffu) | (halves[1] & 0xffffu) << 16);
  });
}

// VIMNMX.S16x2 d, a, b, P (.U16x2): each half's minimum (P) or maximum.
void min_max_packed16(const Lanes& x) {
  const bool is_unsigned = x.inst.mods.is_unsigned;
  x.each([&](unsigned lane) {
    const std::uint32_t a = x.u32(x.op(1), lane), b = x.u32(x.op(2), lane);
    const bool min = x.pred(x.op(3), lane);
    std::uint32_t out = 0;
    for (unsigned h = 0; h < 2; ++h) {
      const std::uint32_t ua = (a >> (16 * h)) & 0xffffu, ub = (b >> (16 * h)) & 0xffffu;
      const bool a_less =
          is_unsigned ? ua < ub : static_cast<std::int16_t>(ua) < static_cast<std::int16_t>(ub);
      out |= ((a_less == min) ? ua : ub) << (16 * h);
    }
    x.set(x.op(0), lane, out);
  });
}

}  // namespace warpsim::sass
