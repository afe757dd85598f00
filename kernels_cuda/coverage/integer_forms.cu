// CUDA's integer intrinsics and operators as nvcc compiles them, in 32 and 64 bits: bit counts
// and reversals, byte permutes, funnel shifts, high products, 24-bit products, sums of absolute
// differences, averages, divisions and remainders by variables and by constants (nvcc's
// multiply-shift sequences), shifts by variable amounts, narrow casts, the SIMD compares
// (lop3), __dp4a and __dp2a. Four input shapes per thread: random words, small values, a
// divisor of -1, and the most negative values.
#define OUT(k, e) o[kSlots * i + (k)] = (unsigned long long)(e)

__global__ void integer_forms(const unsigned long long* a, unsigned long long* o) {
  constexpr int kSlots = 81;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned long long b0 = a[2 * i], b1 = a[2 * i + 1];
  const int shape = i % 4;
  int rx = (int)b0, ry = (int)b1;
  if (shape == 1) {
    rx >>= 20;
    ry >>= 24;
  }
  if (shape == 2) ry = -1;
  if (shape == 3) {
    rx = (int)0x80000000u;
    ry = (int)(b1 & 0xff) - 128;
  }
  if (ry == 0) ry = 1;
  const unsigned ux = rx, uy = ry;
  long long lx = (long long)b0, ly = (long long)b1 >> (b0 & 63);
  if (shape == 3) lx = (long long)0x8000000000000000ull;
  if (ly == 0 || shape == 2) ly = -1;
  const unsigned long long ul = lx, uly = ly;
  OUT(0, __popc(ux));
  OUT(1, __popcll(ul));
  OUT(2, __clz(rx));
  OUT(3, __clzll(lx));
  OUT(4, __ffs(rx));
  OUT(5, __ffsll(lx));
  OUT(6, __brev(ux));
  OUT(7, __brevll(ul));
  OUT(8, __byte_perm(ux, uy, uy & 0x7777));
  OUT(9, __byte_perm(ux, uy, 0x3210));
  OUT(10, __byte_perm(ux, uy, 0x0123));
  OUT(11, __funnelshift_l(ux, uy, uy));
  OUT(12, __funnelshift_r(ux, uy, uy));
  OUT(13, __funnelshift_lc(ux, uy, uy));
  OUT(14, __funnelshift_rc(ux, uy, uy));
  OUT(15, __mulhi(rx, ry));
  OUT(16, __umulhi(ux, uy));
  OUT(17, __mul64hi(lx, ly));
  OUT(18, __umul64hi(ul, uly));
  OUT(19, __mul24(rx, ry));
  OUT(20, __umul24(ux, uy));
  OUT(21, __sad(rx, ry, ux));
  OUT(22, __usad(ux, uy, ux));
  OUT(23, __hadd(rx, ry));
  OUT(24, __rhadd(rx, ry));
  OUT(25, __uhadd(ux, uy));
  OUT(26, __urhadd(ux, uy));
  OUT(27, abs(rx));
  OUT(28, llabs(lx));
  OUT(29, min(rx, ry));
  OUT(30, max(ux, uy));
  OUT(31, min(lx, ly));
  OUT(32, max(ul, uly));
  OUT(33, rx / ry);
  OUT(34, rx % ry);
  OUT(35, ux / uy);
  OUT(36, ux % uy);
  OUT(37, lx / ly);
  OUT(38, lx % ly);
  OUT(39, ul / uly);
  OUT(40, ul % uly);
  OUT(41, rx / 7);
  OUT(42, rx % 7);
  OUT(43, ux / 10);
  OUT(44, ux % 10);
  OUT(45, lx / 1000);
  OUT(46, lx % 1000);
  OUT(47, ul / 3);
  OUT(48, ul % 3);
  OUT(49, rx / -3);
  OUT(50, (rx >> 3) / 5);
  OUT(51, rx >> (uy & 31));
  OUT(52, ux >> (uy & 31));
  OUT(53, rx << (uy & 31));
  OUT(54, lx >> (uy & 63));
  OUT(55, ul >> (uy & 63));
  OUT(56, lx << (uy & 63));
  OUT(57, rx >> uy);
  OUT(58, ux << uy);
  OUT(59, (long long)rx * ry);
  OUT(60, (unsigned long long)ux * uy);
  OUT(61, rx * ry + ux);
  OUT(62, lx * ly);
  OUT(63, ul * uly);
  OUT(64, __vsub4(ux, uy));
  OUT(65, __vcmpgtu4(ux, uy));
  OUT(66, __vsetltu2(ux, uy));
  OUT(67, __vavgu4(ux, uy));
  OUT(68, __dp4a(rx, ry, rx));
  OUT(69, __dp4a(ux, uy, ux));
  OUT(70, __dp2a_lo(rx, ry, rx));
  OUT(71, __dp2a_hi(ux, uy, ux));
  OUT(72, (rx > ry) + (ux < uy) * 2 + (lx >= ly) * 4 + (ul <= uly) * 8);
  OUT(73, rx == ry ? ux : uy);
  OUT(74, (signed char)rx + (unsigned char)ry);
  OUT(75, (short)rx * (short)ry);
  OUT(76, (unsigned short)ux / ((unsigned short)uy | 1));
  OUT(77, (short)rx / 7);
  OUT(78, (signed char)rx / 3);
  OUT(79, (unsigned char)ux % 10);
  OUT(80, (short)rx % ((short)ry | 1));
}
