#!/usr/bin/env python3
# Which rounding of the tensor core's sum reproduces the GPU's m16n8k16 results
# (validation/h200/mma_probe.cu's files): for the first 3,000 elements of one file, every
# candidate (bits kept below the largest term, toward zero or to nearest, a product's exponent
# as its operands' sum or its own, products and accumulator aligned together or apart) and how
# many elements it reproduces, best first. Exact arithmetic (fractions).
#   validation/h200/mma_fit.py DIR [0|1|2]   (f16 into f32, bf16 into f32, f16 into f16)
import struct, sys
from fractions import Fraction as F
import math

def half_val(bits, bf16):
    if bf16:
        return f32_val(bits << 16)
    s = -1 if bits >> 15 else 1
    e = (bits >> 10) & 31; m = bits & 1023
    if e == 0: return s * F(m, 1 << 24)
    if e == 31: return None
    return s * F(1024 + m, 1024) * F(2) ** (e - 15)

def f32_val(bits):
    s = -1 if bits >> 31 else 1
    e = (bits >> 23) & 255; m = bits & 0x7fffff
    if e == 0: return s * F(m) * F(2) ** -149
    if e == 255: return None
    return s * F(0x800000 + m) * F(2) ** (e - 150)

def exponent(x):  # floor(log2|x|)
    x = abs(x)
    e = x.numerator.bit_length() - x.denominator.bit_length()
    if F(2) ** e > x: e -= 1
    return e

def round_to(x, bits, mode, emin):
    # round x to a float with `bits` significand bits (incl. leading), min exponent emin
    if x == 0: return F(0)
    e = max(exponent(x), emin)
    q = F(2) ** (e - bits + 1)
    n = x / q
    if mode == 'rz':
        r = math.trunc(n)
    else:
        fl = math.floor(n); rem = n - fl
        if rem > F(1, 2) or (rem == F(1, 2) and fl % 2 == 1): r = fl + 1
        else: r = fl
    return r * q

def truncate_to(x, q):  # toward zero to a multiple of q
    return math.trunc(x / q) * q

def to_bits_f32(x):
    return struct.unpack('<I', struct.pack('<f', float(x)))[0]
def to_bits_f16(x):
    try:
        return struct.unpack('<H', struct.pack('<e', float(x)))[0]
    except OverflowError:
        return 0xfc00 if x < 0 else 0x7c00

# products carry their operand exponents: exponent(a)+exponent(b)
def load2(path, bf16, f16acc, n):
    data = open(path, 'rb').read()
    T = struct.unpack_from('<I', data, 0)[0]; off = 4
    A = struct.unpack_from('<%dH' % (T*256), data, off); off += T*256*2
    B = struct.unpack_from('<%dH' % (T*128), data, off); off += T*128*2
    C = struct.unpack_from('<%dI' % (T*128), data, off); off += T*128*4
    D = struct.unpack_from('<%dI' % (T*128), data, off)
    cases = []
    for t in range(T):
        a = [half_val(A[t*256+i], bf16) for i in range(256)]
        b = [half_val(B[t*128+i], bf16) for i in range(128)]
        for i in range(16):
            for j in range(8):
                prods = []
                for k in range(16):
                    x, y = a[i*16+k], b[k*8+j]
                    p = x * y
                    ex = exponent(x) + exponent(y) if x != 0 and y != 0 else None
                    prods.append((p, ex))
                cb = C[t*128+i*8+j]
                c = half_val(cb, False) if f16acc else f32_val(cb)
                cases.append((prods, c, D[t*128+i*8+j]))
                if len(cases) >= n: return cases
    return cases

def model2(prods, c, extra, inner, outbits, emin, opexp, sep):
    # sep: products summed (aligned, truncated) first, then added to c
    pe = [(p, (ex if opexp else (exponent(p) if p != 0 else None))) for p, ex in prods]
    if not sep:
        terms = pe + [(c, exponent(c) if c != 0 else None)]
        es = [e for x, e in terms if x != 0]
        if not es: return F(0)
        emax = max(es)
        q = F(2) ** (emax - (23 + extra))
        tot = sum(truncate_to(x, q) for x, e in terms)
        return round_to(tot, outbits, inner, emin)
    es = [e for x, e in pe if x != 0]
    s = F(0)
    if es:
        emax = max(es); q = F(2) ** (emax - (23 + extra))
        s = sum(truncate_to(x, q) for x, e in pe)
    return round_to(s + c, outbits, inner, emin)

idx = int(sys.argv[2]) if len(sys.argv) > 2 else 0
name, bf16, f16acc = [('mma_f16_f32.bin', False, False), ('mma_bf16_f32.bin', True, False), ('mma_f16_f16.bin', False, True)][idx]
cases = load2(sys.argv[1] + '/' + name, bf16, f16acc, 3000)
outbits, emin, tobits = (11, -14, to_bits_f16) if f16acc else (24, -126, to_bits_f32)
res = []
for extra in range(0, 8):
    for inner in ('rz', 'rn'):
        for opexp in (False, True):
            for sep in (False, True):
                ok = sum(1 for p, c, d in cases if tobits(model2(p, c, extra, inner, outbits, emin, opexp, sep)) == d)
                res.append((f'e{extra} {inner} opexp={opexp} sep={sep}', ok))
res.sort(key=lambda r: -r[1])
print(name, len(cases), res[:8])
