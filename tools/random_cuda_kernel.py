#!/usr/bin/env python3
"""A random CUDA kernel and its launch file, for cross-checking warpsim's two frontends (the IR
the import makes of nvcc's PTX, and ptxas's SASS) against each other and against a GPU.

  tools/random_cuda_kernel.py SEED OUT [NAME]     writes OUT.cu and OUT.launch
  EXACT=1 tools/random_cuda_kernel.py ...         no approximate functions (every bit defined)

Every kernel is defined CUDA: unsigned arithmetic, guarded divisors and shifts, atomics whose
totals do not depend on their order, warp operations and barriers only where the whole warp or
block reaches them. It mixes integer, float, double, half and bfloat16 arithmetic and
conversions, the math library, shared, local and global memory, atomics, a compare-and-swap
loop, shuffles, votes, match and reduce, cooperative groups, switches, loops with break and
continue, if-trees on data, barriers in uniform loops, and 1-D and 2-D blocks. NAME (default
fz) names the kernel.
"""
import random
import sys

import os
EXACT = os.environ.get('EXACT') == '1'
seed = int(sys.argv[1]); R = random.Random(seed)
BLOCK = R.choice([64, 128, 256, 96, 192])
BX = R.choice([b for b in [BLOCK, 32, 64, BLOCK // 2] if BLOCK % b == 0])
GRID = R.choice([2, 3, 5, 8])
NOUT = 6

U = ["a", "b", "c"]
F = ["x", "y"]

def uvar(): return R.choice(U)
def fvar(): return R.choice(F)

def uexpr(d=0):
    if d > 2 or R.random() < 0.25:
        return R.choice([uvar(), uvar(), "t", "g", f"{R.randrange(1, 1 << 31)}u", "(unsigned)ww"])
    e1, e2 = uexpr(d + 1), uexpr(d + 1)
    k = R.randrange(22)
    return [
        f"({e1} + {e2})", f"({e1} - {e2})", f"({e1} * {e2})", f"({e1} ^ {e2})",
        f"({e1} & {e2})", f"({e1} | {e2})", f"({e1} << ({e2} & 31u))", f"({e1} >> ({e2} & 31u))",
        f"({e1} / ({e2} | 1u))", f"({e1} % ({e2} | 1u))", f"min({e1}, {e2})", f"max({e1}, {e2})",
        f"(unsigned)__popc({e1})", f"(unsigned)__clz({e1})", f"__brev({e1})", f"__umulhi({e1}, {e2})",
        f"__byte_perm({e1}, {e2}, {R.randrange(1 << 16)})", f"__funnelshift_l({e1}, {e2}, {uexpr(d+1)})",
        f"(unsigned)((int){e1} >> ({e2} & 31u))",
        f"(unsigned)((int){e1} / (int)(({e2} & 0x7fffu) | 1u))",
        f"(unsigned)(int){fexpr(d+1)}", f"({e1} < {e2} ? {uexpr(d+1)} : {e1})",
    ][k]

def fexpr(d=0):
    if d > 2 or R.random() < 0.25:
        return R.choice([fvar(), fvar(), f"{R.uniform(-4, 4):.3f}f", "(float)a", "(float)(int)b", "(float)dd"])
    e1, e2 = fexpr(d + 1), fexpr(d + 1)
    k = R.randrange(20)
    if EXACT and k in (8, 9, 10, 11, 12, 13, 18):
        k = R.choice([0, 1, 2, 3, 6, 7, 14, 17])
    return [
        f"({e1} + {e2})", f"({e1} - {e2})", f"({e1} * {e2})", f"fmaf({e1}, {e2}, {fexpr(d+1)})",
        f"fminf({e1}, {e2})", f"fmaxf({e1}, {e2})", f"sqrtf(fabsf({e1}))", f"({e1} / {e2})",
        f"expf({e1})", f"__expf({e1})", f"sinf({e1})", f"__sinf({e1})", f"logf(fabsf({e1}) + 1.0f)",
        f"rsqrtf(fabsf({e1}) + 0.5f)", f"floorf({e1})", f"__half2float(__hadd(__float2half({e1}), __float2half({e2})))",
        f"(float)({uexpr(d+1)} & 0xffffu)", f"truncf({e1})", f"__fdividef({e1}, {e2})", f"copysignf({e1}, {e2})",
    ][k]

def cond():
    k = R.randrange(6)
    return [f"({uexpr(2)} & {R.choice([1,3,7,15])}u) == {R.randrange(2)}u", f"(t & {R.choice([1,2,4,8,16,32])}u)",
            f"{fexpr(2)} < {fexpr(2)}", f"t < {R.randrange(BLOCK)}u", f"(a % 3u) == 1u", f"(g & 7u) < 3u"][k]

def stmt(ind, depth, converged):
    sp = "  " * ind
    k = R.randrange(14 if converged else 9)
    if R.random() < 0.35:
        return extra(ind, depth, converged)
    if R.random() < 0.3:
        return extra2(ind, depth, converged)
    if k <= 2: return f"{sp}{uvar()} = {uexpr()};\n"
    if k <= 4: return f"{sp}{fvar()} = {fexpr()};\n"
    if k == 5:
        return f"{sp}ww = ww * {R.randrange(1, 1 << 40)}ull + {uvar()}; dd = dd * 0.5 + (double){fvar()};\n"
    if k == 6: return f"{sp}atomicAdd(&s_add[{uvar()} & 31u], {uvar()} & 255u); atomicMax(&s_max[{uvar()} & 15u], {uvar()}); atomicOr(&gbits[{uvar()} & 63u], 1u << ({uvar()} & 31u));\n"
    if k <= 8 and depth < 3:
        s = f"{sp}if ({cond()}) {{\n" + block(ind + 1, depth + 1, False)
        if R.random() < 0.5: s += f"{sp}}} else {{\n" + block(ind + 1, depth + 1, False)
        return s + f"{sp}}}\n"
    if k == 8 or k == 7:
        v = f"k{ind}"
        return f"{sp}for (unsigned {v} = 0; {v} < ({uvar()} & 7u); ++{v}) {{\n" + block(ind + 1, depth + 1, False) + f"{sp}}}\n"
    if k == 9: return f"{sp}{uvar()} ^= __shfl_xor_sync(0xffffffffu, {uvar()}, {R.choice([1,2,4,8,16])});\n"
    if k == 10: return f"{sp}{fvar()} += __shfl_down_sync(0xffffffffu, {fvar()}, {R.randrange(1, 32)});\n"
    if k == 11 and converged: return f"{sp}{uvar()} += __ballot_sync(0xffffffffu, {cond()}) + (unsigned)__any_sync(0xffffffffu, {cond()});\n"
    if k == 12:
        p = R.choice([1, 3, 5, 7, 17]); q = R.randrange(BLOCK)
        return (f"{sp}s_u[t] = {uvar()}; s_f[t] = {fvar()};\n{sp}__syncthreads();\n"
                f"{sp}{uvar()} += s_u[(t * {p}u + {q}u) % {BLOCK}u]; {fvar()} -= s_f[(t + {q}u) % {BLOCK}u];\n{sp}__syncthreads();\n")
    if k == 13 and depth < 2:
        return f"{sp}for (unsigned r{ind} = 0; r{ind} < {R.randrange(1,4)}u; ++r{ind}) {{\n" + block(ind + 1, depth + 1, True) + f"{sp}}}\n"
    return f"{sp}{uvar()} += 1u;\n"

def extra(ind, depth, converged):
    sp = "  " * ind
    k = R.randrange(12)
    if k == 0:
        cases = "".join(f"{sp}  case {i}: {uvar()} = {uexpr(1)}; {'break;' if R.random() < 0.8 else ''}\n" for i in range(R.randrange(3, 9)))
        return f"{sp}switch ({uvar()} % 9u) {{\n{cases}{sp}  default: {fvar()} = {fexpr(1)};\n{sp}}}\n"
    if k == 1:
        return f"{sp}loc[{uvar()} & 15u] = {uvar()}; {uvar()} += loc[({uvar()} >> 3) & 15u];\n"
    if k == 2:
        return f"{sp}ww = ww / ((unsigned long long){uvar()} | 1ull) + ww % (((unsigned long long){uvar()} << 7) | 3ull);\n"
    if k == 3:
        return f"{sp}dd = dd / ((double){fvar()} + 0.25) + sqrt(fabs(dd)) - (double)(long long)ww;\n"
    if k == 4:
        # Where the whole warp runs, its full mask: __activemask() after a compare-and-swap loop
        # names the lanes that happen to be together, which depends on the schedule.
        mask = "0xffffffffu" if converged else "__activemask()"
        return f"{sp}{uvar()} += __reduce_add_sync({mask}, {uvar()}) ^ __match_any_sync({mask}, {uvar()} & 3u);\n"
    if k == 5:
        return f"{sp}{uvar()} ^= (unsigned)(signed char){uvar()} + (unsigned)(short)({uvar()} >> 5) * (unsigned)(unsigned char){uvar()};\n"
    if k == 6:
        return f"{sp}atomicAdd(&gwide[{uvar()} & 7u], (unsigned long long){uvar()} * 977ull); atomicMin(&gbits[64 + ({uvar()} & 15u)], {uvar()});\n"
    if k == 7 and depth < 3:
        v = f"j{ind}"
        return (f"{sp}for (unsigned {v} = 0; {v} < 8u; ++{v}) {{\n{sp}  if ((({uvar()} >> {v}) & 3u) == 2u) break;\n"
                f"{sp}  if ((({uvar()} + {v}) & 3u) == 1u) continue;\n" + block(ind + 1, depth + 1, False) + f"{sp}}}\n")
    if k == 8 and converged:
        return f"{sp}{uvar()} += __shfl_sync(0xffffffffu, {uvar()}, {uvar()} & 31u, {R.choice([4, 8, 16, 32])}) + __shfl_up_sync(0xffffffffu, {uvar()}, {R.randrange(1, 8)}, {R.choice([8, 16, 32])});\n"
    if k == 9:
        return f"{sp}{uvar()} = (unsigned)__float2int_rn({fexpr(1)}) + __float_as_uint({fvar()}) + (unsigned)__double2ll_rz(dd);\n"
    if k == 10:
        return f"{sp}{fvar()} = __uint_as_float(({uvar()} & 0x807fffffu) | 0x3f000000u) * {fexpr(1)};\n"
    if k == 11 and converged:
        return f"{sp}__syncwarp(); {uvar()} = __ldg(&in[({uvar()} % {2 * BLOCK * GRID}u)]);\n"
    return f"{sp}{uvar()} -= 3u;\n"

def extra2(ind, depth, converged):
    sp = "  " * ind
    k = R.randrange(16)
    u1, u2, f1 = uvar(), uvar(), fvar()
    if k == 0:
        return f"{sp}{{ __half2 h = __floats2half2_rn({fexpr(1)}, {fvar()}); h = __hfma2(h, h, __float2half2_rn(0.5f)); {fvar()} = __low2float(h) - __high2float(__hmul2(h, h)); }}\n"
    if k in (1, 2, 15) and EXACT:
        return f"{sp}dd = fma(dd, (double){fvar()}, 1.5) / (fabs(dd) + 1.0) - sqrt(fabs(dd));\n"
    if k == 1:
        return f"{sp}dd = exp(dd * 0.1) + log(fabs(dd) + 1.0) - sin(dd) * pow(fabs(dd) + 0.5, 1.3);\n"
    if k == 2:
        fn = R.choice(["powf({e}, 1.7f)", "atan2f({e}, {f})", "erff({e})", "tanhf({e})", "cbrtf({e})", "fmodf({e}, {f} + 5.0f)", "hypotf({e}, {f})", "remainderf({e}, 1.5f)", "exp2f({e})", "log10f(fabsf({e}) + 2.0f)", "asinf(__saturatef({e}))", "coshf({e})"])
        return f"{sp}{fvar()} = " + fn.format(e=fexpr(1), f=fvar()) + ";\n"
    if k == 3:
        return f"{sp}{u1} = (unsigned)__mul24((int){u2}, (int){uvar()}) + __sad({u2}, {uvar()}, 7u) + (unsigned)__dp4a((int){uvar()}, (int){u2}, 3) + (unsigned)abs((int){u1});\n"
    if k == 4:
        return f"{sp}{u1} += (unsigned)__ffs({u2}) + (unsigned)__popcll(ww) + (unsigned)__clzll(ww) + (unsigned)__ffsll((long long)ww) + (unsigned)(__brevll(ww) >> 40);\n"
    if k == 5:
        return f"{sp}ww = (unsigned long long)((long long)ww / (long long)((ww >> 40) | 3ull)) ^ (unsigned long long)((long long)ww % -7ll) ^ __umul64hi(ww, 0x9e3779b97f4a7c15ull);\n"
    if k == 6:
        return f"{sp}{u1} = {u2} / 7u + {u2} % 13u + (unsigned)((int){u1} / -5) + (unsigned)((int){uvar()} % 9) + {u1} / 1000u;\n"
    if k == 7:
        return f"{sp}{u1} ^= __funnelshift_r({u2}, {uvar()}, {uvar()}) + (unsigned)__mulhi((int){u2}, (int){uvar()}) + __urhadd({u1}, {u2}) + (unsigned)__hadd((int){u1}, (int){uvar()});\n"
    if k == 8:
        return f"{sp}{f1} = __fsub_rn({f1}, {fvar()}) + __fmaf_rz({fvar()}, {f1}, 1.0f) + __fmul_ru({f1}, 3.0f) + __fadd_rd({fvar()}, 0.1f);\n"
    if k == 9:
        return f"{sp}{f1} = __half2float(__float2half_rz({fexpr(1)})) + __bfloat162float(__float2bfloat16({fvar()})) + __half2float(__float2half_rd({f1}));\n"
    if k == 10 and converged:
        return f"{sp}{u1} += (unsigned)__syncthreads_count({u2} & 1u) + (unsigned)__syncthreads_or({uvar()} > 100u) + (unsigned)__syncthreads_and(t < 5000u);\n"
    if k == 11:
        return f"{sp}atomicInc(&gbits[80 + ({u1} & 7u)], 1000u); atomicAnd(&gbits[88 + ({u2} & 7u)], ~(1u << ({u1} & 31u))); atomicXor(&gbits[96 + ({u1} & 7u)], {u2});\n"
    if k == 12 and converged:
        return (f"{sp}s_b[t] = (unsigned char){u1}; s_h[t] = (unsigned short){u2};\n{sp}__syncthreads();\n"
                f"{sp}{u1} += s_b[(t + {R.randrange(1, BLOCK)}u) % {BLOCK}u] * 3u + s_h[(t * 5u) % {BLOCK}u];\n{sp}__syncthreads();\n")
    if k == 13:
        return f"{sp}{u1} = (unsigned)(long long)(dd * 1000.0) + (unsigned)__float2uint_ru(fabsf({f1})) + (unsigned)__float2ll_rd({fvar()} * 1e10f) + __double2uint_rn(fabs(dd));\n"
    if k == 14:
        return f"{sp}{{ unsigned old = s_cas[{u1} & 7u], seen; do {{ seen = old; old = atomicCAS(&s_cas[{u1} & 7u], seen, max(seen, {u2})); }} while (old != seen); }}\n"
    if k == 15 and R.random() < 0.5:
        return f"{sp}{{ float4 q = reinterpret_cast<const float4*>(fin)[({u1} % {BLOCK*GRID//2}u)]; {f1} += q.x * q.y - q.z + q.w; uint2 p = reinterpret_cast<const uint2*>(in)[{u2} % {BLOCK*GRID}u]; {u1} ^= p.x + p.y; }}\n"
    if k == 14 and converged and R.random() < 0.5:
        return f"{sp}{{ auto tile = cg::tiled_partition<{R.choice([4, 8, 16, 32])}>(cg::this_thread_block()); {u1} += cg::reduce(tile, {u2}, cg::plus<unsigned>()); {f1} = tile.shfl_down({f1}, 1); }}\n"
    if k == 15:
        return f"{sp}{f1} = (float)((double){f1} / (dd + 2.5)) + (float)sqrt(fabs(dd) + (double){fvar()} * (double){fvar()}) + (float)rsqrt(fabs(dd) + 1.0);\n"
    return f"{sp}{u1} ^= 5u;\n"

def block(ind, depth, converged):
    return "".join(stmt(ind, depth, converged) for _ in range(R.randrange(1, 4)))

body = block(1, 0, True) + block(1, 0, True)
src = f"""#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void NAME(const unsigned* in, const float* fin, unsigned* out, float* fout, unsigned* gbits, unsigned* shared_out, unsigned long long* gwide) {{
  __shared__ unsigned s_u[{BLOCK}];
  __shared__ float s_f[{BLOCK}];
  __shared__ unsigned s_add[32], s_max[16], s_cas[8];
  __shared__ unsigned char s_b[{BLOCK}];
  __shared__ unsigned short s_h[{BLOCK}];
  unsigned t = threadIdx.y * blockDim.x + threadIdx.x, g = blockIdx.x * (blockDim.x * blockDim.y) + t;
  if (t < 32) s_add[t] = 0;
  if (t < 16) s_max[t] = 0;
  if (t < 8) s_cas[t] = 0;
  __syncthreads();
  unsigned a = in[g], b = in[g + {BLOCK*GRID}], c = a ^ (b << 3);
  float x = fin[g], y = fin[g + {BLOCK*GRID}];
  unsigned loc[16];
  for (int i = 0; i < 16; ++i) loc[i] = a + i;
  unsigned long long ww = ((unsigned long long)a << 32) | b;
  double dd = (double)x;
{body}  out[g * 4 + 0] = a; out[g * 4 + 1] = b; out[g * 4 + 2] = c; out[g * 4 + 3] = (unsigned)(ww >> 17);
  fout[g * 3 + 0] = x; fout[g * 3 + 1] = y; fout[g * 3 + 2] = (float)dd; out[g * 4 + 3] ^= loc[a & 15u];
  __syncthreads();
  if (t < 32) shared_out[blockIdx.x * 48 + t] = s_add[t];
  if (t < 16) shared_out[blockIdx.x * 48 + 32 + t] = s_max[t];
  if (t < 8) atomicMax(&gbits[104 + t], s_cas[t]);
}}
"""
n = BLOCK * GRID
launch = f"""launch NAME grid({GRID}) block({BX}, {BLOCK // BX}) {{
  in = u32[{2*n}] random(seed = {seed})
  fin = f32[{2*n}] random(seed = {seed + 7}, min = -3.0, max = 3.0)
  out = u32[{4*n}] zero
  fout = f32[{3*n}] zero
  gbits = u32[112] zero
  gwide = u64[8] zero
  shared_out = u32[{48*GRID}] zero
}}
"""
name = sys.argv[3] if len(sys.argv) > 3 else "fz"
open(sys.argv[2] + ".cu", "w").write(src.replace("NAME", name))
open(sys.argv[2] + ".launch", "w").write(launch.replace("NAME", name))
