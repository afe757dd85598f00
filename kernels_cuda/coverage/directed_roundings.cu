// The directed roundings CUDA names for conversions to a float, divisions, reciprocals and
// square roots (__int2float_rz, __ll2float_rd, __double2float_ru, __fdiv_rz, __frcp_rd,
// __fsqrt_ru, __ddiv_rz, __drcp_ru, __dsqrt_rd, ...), one output word per form, on random
// integers and floats (some scaled so that halves and ties of the destination are met, some
// subnormal, infinite or NaN).
#define OUT(k, expr) o[kSlots * i + (k)] = (expr)

__device__ unsigned bits(float f) { return __float_as_uint(f); }
__device__ unsigned low(double d) { return static_cast<unsigned>(__double_as_longlong(d)); }
__device__ unsigned high(double d) { return static_cast<unsigned>(__double_as_longlong(d) >> 32); }

__global__ void directed_roundings(const unsigned* a, unsigned* o) {
  constexpr int kSlots = 40;
  const int i = threadIdx.x;
  const unsigned w0 = a[4 * i], w1 = a[4 * i + 1], w2 = a[4 * i + 2], w3 = a[4 * i + 3];
  const int s = static_cast<int>(i % 3 == 0 ? w0 | 0x01000001u : w0);  // past 2^24, odd
  const long long ll = (static_cast<long long>(w1) << 32 | w2) >> (i % 29);
  const unsigned long long ull = static_cast<unsigned long long>(ll) * 3u;
  float x = __uint_as_float(w1), y = __uint_as_float(w2 | 0x00800000u);
  if (i % 5 == 1) x = __uint_as_float(w1 & 0x807fffffu);  // subnormal
  if (i % 11 == 2) y = __uint_as_float(w2 | 0x7f800000u);  // infinity or NaN
  const double dx = __hiloint2double(static_cast<int>(w3), static_cast<int>(w0));
  const double dy = __hiloint2double(static_cast<int>((w1 & 0x8fffffffu) | 0x3ff00000u),
                                     static_cast<int>(w2));
  OUT(0, bits(__int2float_rz(s)));
  OUT(1, bits(__int2float_rd(s)));
  OUT(2, bits(__int2float_ru(s)));
  OUT(3, bits(__uint2float_rz(w0)));
  OUT(4, bits(__uint2float_rd(w0)));
  OUT(5, bits(__uint2float_ru(w0)));
  OUT(6, bits(__ll2float_rz(ll)));
  OUT(7, bits(__ll2float_rd(ll)));
  OUT(8, bits(__ll2float_ru(ll)));
  OUT(9, bits(__ull2float_rz(ull)));
  OUT(10, bits(__ull2float_rd(ull)));
  OUT(11, bits(__ull2float_ru(ull)));
  OUT(12, low(__ll2double_rz(ll)));
  OUT(13, high(__ll2double_rd(ll)));
  OUT(14, low(__ull2double_ru(ull)));
  OUT(15, bits(__double2float_rz(dx)));
  OUT(16, bits(__double2float_rd(dx)));
  OUT(17, bits(__double2float_ru(dx)));
  OUT(18, bits(__double2float_rz(dy)));
  OUT(19, bits(__fdiv_rz(x, y)));
  OUT(20, bits(__fdiv_rd(x, y)));
  OUT(21, bits(__fdiv_ru(x, y)));
  OUT(22, bits(__frcp_rz(y)));
  OUT(23, bits(__frcp_rd(x)));
  OUT(24, bits(__frcp_ru(y)));
  OUT(25, bits(__fsqrt_rz(fabsf(x))));
  OUT(26, bits(__fsqrt_rd(y)));
  OUT(27, bits(__fsqrt_ru(fabsf(y))));
  OUT(28, low(__ddiv_rz(dx, dy)));
  OUT(29, high(__ddiv_rd(dx, dy)));
  OUT(30, low(__ddiv_ru(dy, dx)));
  OUT(31, low(__drcp_rz(dx)));
  OUT(32, high(__drcp_rd(dy)));
  OUT(33, low(__drcp_ru(dx)));
  OUT(34, low(__dsqrt_rz(fabs(dx))));
  OUT(35, low(__dsqrt_rd(dy)));
  OUT(36, high(__dsqrt_ru(fabs(dy))));
  OUT(37, bits(__fdiv_rn(x, y)));
  OUT(38, bits(__fsqrt_rn(fabsf(x))));
  OUT(39, low(__ddiv_rn(dx, dy)));
}
