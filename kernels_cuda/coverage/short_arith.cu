// 16-bit integer arithmetic as PTX has it (.s16, .u16, .b16): what nvcc emits for short and
// unsigned short code (a division of a short by a constant is a mul.hi.s16), each form once in
// inline PTX on two random shorts per thread (the divisor never 0).
#define SHORT(k, op)                                 \
  {                                                  \
    short r;                                         \
    asm(op : "=h"(r) : "h"(x), "h"(y));              \
    o[kSlots * i + (k)] = r;                         \
  }
#define WIDE(k, op)                                  \
  {                                                  \
    int r;                                           \
    asm(op : "=r"(r) : "h"(x), "h"(y));              \
    o[kSlots * i + (k)] = r;                         \
  }

__global__ void short_arith(const short* a, int* o) {
  constexpr int kSlots = 30;
  const int i = threadIdx.x;
  const short x = a[2 * i];
  short y = a[2 * i + 1];
  if (y == 0) y = 1;
  SHORT(0, "add.s16 %0, %1, %2;");
  SHORT(1, "sub.s16 %0, %1, %2;");
  SHORT(2, "mul.lo.s16 %0, %1, %2;");
  SHORT(3, "mul.hi.s16 %0, %1, %2;");
  SHORT(4, "div.s16 %0, %1, %2;");
  SHORT(5, "rem.s16 %0, %1, %2;");
  SHORT(6, "min.s16 %0, %1, %2;");
  SHORT(7, "max.s16 %0, %1, %2;");
  SHORT(8, "mad.lo.s16 %0, %1, %2, %1;");
  SHORT(9, "shr.s16 %0, %1, 3;");
  SHORT(10, "shl.b16 %0, %1, 5;");
  WIDE(11, "mul.wide.s16 %0, %1, %2;");
  SHORT(12, "add.u16 %0, %1, %2;");
  SHORT(13, "sub.u16 %0, %1, %2;");
  SHORT(14, "mul.lo.u16 %0, %1, %2;");
  SHORT(15, "mul.hi.u16 %0, %1, %2;");
  SHORT(16, "div.u16 %0, %1, %2;");
  SHORT(17, "rem.u16 %0, %1, %2;");
  SHORT(18, "min.u16 %0, %1, %2;");
  SHORT(19, "max.u16 %0, %1, %2;");
  SHORT(20, "mad.lo.u16 %0, %1, %2, %1;");
  SHORT(21, "shr.u16 %0, %1, 3;");
  SHORT(22, "shl.b16 %0, %1, 5;");
  WIDE(23, "mul.wide.u16 %0, %1, %2;");
  SHORT(24, "abs.s16 %0, %1;");
  SHORT(25, "neg.s16 %0, %1;");
  SHORT(26, "and.b16 %0, %1, %2;");
  SHORT(27, "or.b16 %0, %1, %2;");
  SHORT(28, "xor.b16 %0, %1, %2;");
  SHORT(29, "not.b16 %0, %1;");
}
