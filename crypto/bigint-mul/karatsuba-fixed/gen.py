#!/usr/bin/env python3
"""Generates kernels.inc of bigint-mul/karatsuba-fixed: one level of subtractive Karatsuba for
fixed limb counts (SIZES) with every linear pass written out straight-line, over a fixed-size
base kernel for the three half products (BASE: the straight-line Comba cfx_mul<h> of
../comba-fixed or a smaller kf_mul<h> of this file).

Why: the generic ../common/karatsuba.inc pays about 45n + 117 cycles of loops, pointer updates
and calls around the three half products, which is why one level only wins from n = 18 and the
recursion from n = 30.  Straight-line, the linear work is its instruction count: per half-limb
11 for each |x - y| (2 LW, 5 for the borrow chain, 3 for the masked negation, 1 SW) and 35 for
the recombination, about 57h in all.

Kernel kf_mul<n>(a0 = r, a1 = a, a2 = b), h = n/2, X = 2^(32h), a = a0 + a1 X, b = b0 + b1 X:
  da = |a0 - a1|, ma = -(a0 < a1);  db = |b1 - b0|, mb = -(b1 < b0);  S = ma ^ mb
  z0 = a0 b0 -> r[0, 2h),  z2 = a1 b1 -> r[2h, 4h),  zm = da db -> stack
  a b = z0 + (z0 + z2 + s zm) X + z2 X^2 with s = -1 if S else +1.  With L0|H0 = z0, L2|H2 = z2
  and T = H0 + L2 (h words, carry cT):
    r[h, 2h)  = T + L0 + s zm[0, h)          (chain A; s zm = (zm ^ S) + (S & 1) - (S & 1) 2^(64h))
    r[2h, 3h) = T + H2 + s zm[h, 2h) + cA    (chain B)
    r[3h, 4h) = H2 + cB + cT + S             (chain C; the sum is >= 0, so this carry is too)
  Pass 1 writes r[h+j] and parks T_j in r[2h+j] (L2_j is spent once T_j exists); pass 2 reads it.
No branch depends on data: the sign is a mask.  Stack: 16h + 32 bytes (da, db, zm, ra, s0-s2, S).

usage: python3 gen.py > kernels.inc   (included kernel by kernel with KF_PICK by layout.inc, which
mul.S here includes; ../best/gen.py generates its own copies through kernel() and
kernel_fused())
"""
import importlib.util
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))
from common.asm import Asm  # noqa: E402

_spec = importlib.util.spec_from_file_location(
    "comba_fixed_gen", pathlib.Path(__file__).resolve().parent.parent / "comba-fixed" / "gen.py")
_cfx = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_cfx)

SIZES = (10, 12, 14, 16, 18, 20, 24, 28, 32)
# kernels whose half products are written inline with the linear passes in their shadow
FUSED = (10, 12, 14, 16, 18)
# base kernel for the half products of kf_mul<n>: the fastest measured (NOTES.md)
BASE = {10: "inline", 12: "inline", 14: "inline", 16: "inline", 18: "inline",
        20: "kf_mul10", 24: "kf_mul12", 28: "kf_mul14", 32: "kf_mul16"}

# temporaries free in the linear passes (s0-s2 hold r, a, b; sp the frame)
TMP = ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7"]


# callee-saved registers of the frame and their offsets
SAVED = ((28, "ra"), (24, "s0"), (20, "s1"), (16, "s2"))


def pipelined(count, sets, load, body):
    """Software pipelining over limbs 0..count-1: limb j+1's loads (into the other register
    set) are emitted before limb j's computation, so no load result is used in the next slot."""
    if count:
        load(0, sets[0])
    for j in range(count):
        if j + 1 < count:
            load(j + 1, sets[(j + 1) % 2])
        body(j, sets[j % 2])


def add3(e, w, p, q, z, S, cc, k, u):
    """w = p + q + (z ^ S) + cc with cc <- the carry out (0..3); k, u scratch; z is clobbered."""
    e(f"xor   {z}, {z}, {S}")
    e(f"add   {w}, {p}, {q}")
    e(f"sltu  {k}, {w}, {q}")
    e(f"add   {w}, {w}, {z}")
    e(f"sltu  {u}, {w}, {z}")
    e(f"add   {k}, {k}, {u}")
    e(f"add   {w}, {w}, {cc}")
    e(f"sltu  {u}, {w}, {cc}")
    e(f"add   {cc}, {k}, {u}")


def absdiff(e, n, x_off, y_off, ptr, dst_off, mask_reg, short=None):
    """dst[0, h) on the stack = |x - y| where x, y are h-limb halves at ptr+x_off, ptr+y_off;
    mask_reg = -(x < y).  The differences are computed in chunks of 8 limbs held in registers;
    all but the last chunk are stored raw and reloaded for the negation, which needs the final
    borrow.  Odd n (h = (n + 1)/2): the operand `short` ("x" or "y") is the high half, h - 1
    limbs; its limb h - 1 is zero (not loaded: it would lie beyond the array)."""
    h = (n + 1) // 2
    d = TMP[:8]
    x, y, b1, c = TMP[8], TMP[9], TMP[10], mask_reg   # c: borrow, then the mask
    x2, y2 = TMP[11], TMP[12]
    chunks = [list(range(s, min(s + 8, h))) for s in range(0, h, 8)]
    for ci, chunk in enumerate(chunks):
        def load(k, regs):
            for reg, off, which in ((regs[0], x_off, "x"), (regs[1], y_off, "y")):
                if which == short and chunk[k] == h - 1:
                    e(f"li    {reg}, 0")
                else:
                    e(f"lw    {reg}, {off + 4*chunk[k]}({ptr})")

        def body(k, regs):
            (xr, yr), dr, i = regs, d[k], chunk[k]
            e(f"sub   {dr}, {xr}, {yr}")
            if i == 0:
                e(f"sltu  {c}, {xr}, {yr}")
            else:
                e(f"sltu  {b1}, {xr}, {yr}")
                e(f"sltu  {xr}, {dr}, {c}")          # borrow of subtracting the borrow-in
                e(f"sub   {dr}, {dr}, {c}")
                e(f"or    {c}, {b1}, {xr}")
            if ci + 1 < len(chunks):
                e(f"sw    {dr}, {dst_off + 4*i}(sp)")
        pipelined(len(chunk), [(x, y), (x2, y2)], load, body)
    # negation under the mask: |x - y| = (d ^ m) + (m & 1), carry k starts at the borrow
    k = TMP[13]
    e(f"mv    {k}, {c}")
    e(f"neg   {c}, {c}")
    # earlier chunks come back from the stack (into the free load registers, one limb ahead);
    # the last chunk is still in d[]
    spilled = [i for chunk in chunks[:-1] for i in chunk]
    pipelined(len(spilled), (x, y), lambda j, r: e(f"lw    {r}, {dst_off + 4*spilled[j]}(sp)"),
              lambda j, r: negate_limb(e, r, c, k, spilled[j] + 1 < h, dst_off + 4*spilled[j]))
    for kk, i in enumerate(chunks[-1]):
        negate_limb(e, d[kk], c, k, i + 1 < h, dst_off + 4*i)


def negate_limb(e, r, mask, carry, more, off):
    """r = (r ^ mask) + carry, carry out (unless this is the top limb), stored at off(sp)."""
    e(f"xor   {r}, {r}, {mask}")
    e(f"add   {r}, {r}, {carry}")
    if more:
        e(f"sltu  {carry}, {r}, {carry}")
    e(f"sw    {r}, {off}(sp)")


def kernel(n, base=None, base_high=None):
    """(what, instruction lines) of kf_mul<n> over the base kernel `base` (default BASE[n]);
    ../best/gen.py calls it for its own call-based kernels, also for odd n: h = (n + 1)/2, the
    high halves a1, b1 have h - 1 limbs (zero-extended in |a0 - a1| and |b1 - b0|), z2 = a1 b1
    is a (h - 1)-limb product by `base_high` into r[2h, 2n), and its high part H2 has h - 2
    words (the recombination below)"""
    h = (n + 1) // 2
    odd = n % 2
    base = base or BASE[n]
    base_high = base_high or base
    DA, DB, ZM = 32, 32 + 4*h, 32 + 8*h
    frame = 32 + 16*h
    body = []
    e = body.append
    e(f"addi  sp, sp, -{frame}")
    for off, reg in SAVED:
        e(f"sw    {reg}, {off}(sp)")
    e("mv    s0, a0")
    e("mv    s1, a1")
    e("mv    s2, a2")
    # da = |a0 - a1|, db = |b1 - b0|; each mask in a7, S parked at 12(sp)
    absdiff(e, n, 0, 4*h, "s1", DA, "a7", short="y" if odd else None)
    e("sw    a7, 12(sp)")
    absdiff(e, n, 4*h, 0, "s2", DB, "a7", short="x" if odd else None)
    e("lw    t0, 12(sp)")
    e("xor   t0, t0, a7")
    e("sw    t0, 12(sp)")                        # S = ma ^ mb
    # the three half products
    e(f"addi  a0, sp, {ZM}")
    e(f"addi  a1, sp, {DA}")
    e(f"addi  a2, sp, {DB}")
    e(f"call  {base}")
    e("mv    a0, s0")
    e("mv    a1, s1")
    e("mv    a2, s2")
    e(f"call  {base}")
    e(f"addi  a0, s0, {8*h}")
    e(f"addi  a1, s1, {4*h}")
    e(f"addi  a2, s2, {4*h}")
    e(f"call  {base_high}")
    recombine(e, h, ZM, h - 2 if odd else h)
    for off, reg in SAVED:
        e(f"lw    {reg}, {off}(sp)")
    e(f"addi  sp, sp, {frame}")
    e("ret")
    if base_high != base:
        return f"one Karatsuba level over {base} and {base_high}", body
    return f"one Karatsuba level over {base}", body


def recombine(e, h, ZM, hlen=None):
    """The three chains of the module docstring.  Registers: S a7, cT a6, cA/cB a5,
    loads alternate between two sets so that a limb's loads issue during the previous limb.
    hlen: the words of H2 (h, or h - 2 for odd n)."""
    S, cT, cc = "a7", "a6", "a5"
    e("lw    a7, 12(sp)")
    e(f"neg   {cc}, {S}")                         # chain A carry-in: the +1 of -zm = ~zm + 1
    # pass 1: T_j = H0_j + L2_j + cT -> r[2h+j];  r[h+j] = T_j + L0_j + (zm_j ^ S) + cA
    sets = [("t0", "t1", "t2", "t3"), ("a0", "a1", "a2", "a3")]
    w, k, u = "t4", "t5", "t6"

    def load1(j, regs):
        h0, l2, l0, z = regs
        e(f"lw    {h0}, {4*(h+j)}(s0)")
        e(f"lw    {l2}, {4*(2*h+j)}(s0)")
        e(f"lw    {l0}, {4*j}(s0)")
        e(f"lw    {z}, {ZM + 4*j}(sp)")

    def pass1(j, regs):
        h0, l2, l0, z = regs
        # T_j = H0 + L2 + cT
        e(f"add   {w}, {h0}, {l2}")
        if j == 0:
            e(f"sltu  {cT}, {w}, {l2}")
        else:
            e(f"sltu  {k}, {w}, {l2}")
            e(f"add   {w}, {w}, {cT}")
            e(f"sltu  {cT}, {w}, {cT}")
            e(f"or    {cT}, {cT}, {k}")
        e(f"sw    {w}, {4*(2*h+j)}(s0)")
        add3(e, w, w, l0, z, S, cc, k, u)        # r[h+j] = T_j + L0 + (z ^ S) + cA
        e(f"sw    {w}, {4*(h+j)}(s0)")
    pipelined(h, sets, load1, pass1)
    recombine_upper(e, h, ZM, "s0", [x[:3] for x in sets], S, cT, cc, w, k, u, hlen)


def recombine_upper(e, h, ZM, r, sets, S, cT, cc, w, k, u, hlen=None):
    """Chains B and C of the module docstring, once chain A has left its carry in cc and
    T_j is parked in r[2h+j] (r: the result pointer register; sets: two register triples
    for the loads).  hlen: the words of H2 = r[3h, 3h + hlen) (default h; odd n: h - 2, the
    words above are zero in chain B and beyond r in chain C, whose carry out is then zero)."""
    hlen = h if hlen is None else hlen
    # chain B starts with cA + cT (T's top bit sits at word 2h of the middle term)
    e(f"add   {cc}, {cc}, {cT}")

    # pass 2: r[2h+j] = T_j + H2_j + (zm_{h+j} ^ S) + cB
    def load2(j, regs):
        t, h2, z = regs
        e(f"lw    {t}, {4*(2*h+j)}({r})")
        e(f"lw    {h2}, {4*(3*h+j)}({r})" if j < hlen else f"li    {h2}, 0")
        e(f"lw    {z}, {ZM + 4*(h+j)}(sp)")

    def pass2(j, regs):
        add3(e, w, *regs, S, cc, k, u)
        e(f"sw    {w}, {4*(2*h+j)}({r})")
    pipelined(h, sets, load2, pass2)
    # chain C: r[3h+j] = H2_j + carry, carry = cB + cT + S (>= 0: the product is)
    e(f"add   {cc}, {cc}, {cT}")
    e(f"add   {cc}, {cc}, {S}")

    def pass3(j, cur):
        e(f"add   {cur}, {cur}, {cc}")
        if j + 1 < hlen:
            e(f"sltu  {cc}, {cur}, {cc}")
        e(f"sw    {cur}, {4*(3*h+j)}({r})")
    pipelined(hlen, ("t0", "t1"), lambda j, reg: e(f"lw    {reg}, {4*(3*h+j)}({r})"), pass3)


# ------------------------------------------------------------------ fused kernel
# kf_mul<n> (n <= 18) without calls: the three h x h half products are straight-line Comba with
# one operand held in registers (A: h <= 9 registers, the ninth is ra, saved), so a limb product needs 9 issue slots of the 10 cycles the
# multiplier takes (two 5-cycle multiplies).  The free slot of each product, and the 4 slots
# between the first MUL and MULHU, carry the linear passes that do not depend on the product
# being computed: |a0 - a1| and |b1 - b0| during z0 and z2, T = H0 + L2 during zm.
A_REGS = ["a3", "a4", "a5", "a6", "a7", "s0", "s1", "s2", "ra"]   # ra (saved) only for h = 9
LIN_SETS = [("s3", "s4"), ("s10", "s11")]     # load registers of the linear passes, alternating
FUSED_SAVED = ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11"]
MUL_SLOTS = 10                                # cycles between two MULs (2 x 5-cycle multiplies)
MULHU_AT = 5                                  # earliest MULHU slot after its MUL


def regs_of(text):
    """(registers read, registers written, is a load) of one instruction line."""
    op, _, rest = text.partition(" ")
    ops = [o.strip() for o in rest.split("#")[0].split(",")]
    regs = lambda xs: {r for x in xs for r in re.findall(r"\b(?:[ast]\d+|ra|sp|zero)\b", x)}
    if op == "sw":
        return regs(ops), set(), False
    return regs(ops[1:]), regs(ops[:1]), op in ("lw", "lbu", "lhu", "lb", "lh")


def merge(head, groups, tail, stream):
    """Comba groups with instructions of `stream` (consumed from the front) in their free
    issue slots; a linear load's result is not used in the same group.  Returns the lines."""
    out = list(head)

    def take(k, loaded):
        while k and stream:
            rd, wr, is_load = regs_of(stream[0])
            if rd & loaded:
                return
            out.append(stream.pop(0))
            if is_load:
                loaded |= wr
            k -= 1

    for g in groups:
        m = next(i for i, x in enumerate(g) if x.startswith("mulhu"))
        loaded = set()
        out.extend(g[:m])
        take(max(0, MULHU_AT - m), loaded)
        out.extend(g[m:])
        take(max(0, MUL_SLOTS - (max(m, MULHU_AT) + len(g) - m)), loaded)
    return out + tail


def inline_product(h, a_at, b_at, r_at):
    """(head, groups, tail) of an h x h Comba with a[] in A_REGS; x_at(i) = "off(base)"."""
    head, groups, tail = _cfx.comba_groups(
        h, lambda i: A_REGS[i], lambda j: "t0", lambda i, j: [f"lw    t0, {b_at(j)}"],
        lambda c, reg: f"sw    {reg}, {r_at(c)}", R=("t5", "t6", "t1"))
    loads = [f"lw    {A_REGS[i]}, {a_at(i)}" for i in range(h)]
    return loads[:1] + head + loads[1:], groups, tail


def absdiff_stream(h, x_at, y_at, dst, mask, x_regs=None):
    """Lines computing dst[0, h) (stack offsets) = |x - y| and mask = -(x < y): a raw
    subtraction pass (borrow in s7), then the masked negation (carry in s7).  x_regs: x
    already in these registers (no loads for x)."""
    L = []
    e = L.append
    d, b1, c = "s5", "s6", "s7"

    def load(j, regs):
        if x_regs is None:
            e(f"lw    {regs[0]}, {x_at(j)}")
        e(f"lw    {regs[1]}, {y_at(j)}")

    def body(j, regs):
        xr = x_regs[j] if x_regs else regs[0]
        yr = regs[1]
        tmp = "s8" if x_regs else xr
        e(f"sub   {d}, {xr}, {yr}")
        if j == 0:
            e(f"sltu  {c}, {xr}, {yr}")
        else:
            e(f"sltu  {b1}, {xr}, {yr}")
            e(f"sltu  {tmp}, {d}, {c}")
            e(f"sub   {d}, {d}, {c}")
            e(f"or    {c}, {b1}, {tmp}")
        e(f"sw    {d}, {dst + 4*j}(sp)")
    pipelined(h, LIN_SETS, load, body)
    e(f"neg   {mask}, {c}")
    pipelined(h, [r[0] for r in LIN_SETS], lambda j, r: e(f"lw    {r}, {dst + 4*j}(sp)"),
              lambda j, r: negate_limb(e, r, mask, c, j + 1 < h, dst + 4*j))
    return L


def kernel_fused(n):
    """(what, instruction lines) of kf_mul<n> with the half products inline"""
    h = n // 2
    saved = FUSED_SAVED + (["ra"] if "ra" in A_REGS[:h] else [])
    DA = 4 * len(saved)
    DB, ZM = DA + 4*h, DA + 8*h
    frame = (ZM + 8*h + 15) // 16 * 16
    S, cT = "s9", "s7"
    # saved registers that hold a[] are saved up front, the others in z0's free slots
    early = [i for i, r in enumerate(saved) if r in A_REGS[:h]]
    body = [f"addi  sp, sp, -{frame}"] + [f"sw    {saved[i]}, {4*i}(sp)" for i in early]
    # z0 = a0 b0 -> r[0, 2h), with the rest of the saves and |a0 - a1| (a0 is in A_REGS)
    stream = [f"sw    {r}, {4*i}(sp)" for i, r in enumerate(saved) if i not in early]
    da = absdiff_stream(h, None, lambda j: f"{4*(h+j)}(a1)", DA, "s9", x_regs=A_REGS)
    split = da.index("neg   s9, s7") + 1      # the raw pass reads A_REGS: it must end in z0
    stream += da[:split]
    body += merge(*inline_product(h, lambda i: f"{4*i}(a1)", lambda j: f"{4*j}(a2)", lambda c: f"{4*c}(a0)"), stream)
    body += stream
    # z2 = a1 b1 -> r[2h, 4h), with the negation of a0 - a1 and |b1 - b0|; then S = ma ^ mb
    stream = da[split:] + absdiff_stream(h, lambda j: f"{4*(h+j)}(a2)", lambda j: f"{4*j}(a2)", DB, "s8")
    stream.append(f"xor   {S}, s9, s8")
    body += merge(*inline_product(h, lambda i: f"{4*(h+i)}(a1)", lambda j: f"{4*(h+j)}(a2)",
                                  lambda c: f"{4*(2*h+c)}(a0)"), stream)
    body += stream
    # zm = da db -> stack, with T_j = H0_j + L2_j + cT parked in r[2h+j]
    stream = []
    e = stream.append

    def load_t(j, regs):
        e(f"lw    {regs[0]}, {4*(h+j)}(a0)")
        e(f"lw    {regs[1]}, {4*(2*h+j)}(a0)")

    def tpass(j, regs):
        h0, l2 = regs
        e(f"add   s5, {h0}, {l2}")
        if j == 0:
            e(f"sltu  {cT}, s5, {l2}")
        else:
            e(f"sltu  s6, s5, {l2}")
            e(f"add   s5, s5, {cT}")
            e(f"sltu  {cT}, s5, {cT}")
            e(f"or    {cT}, {cT}, s6")
        e(f"sw    s5, {4*(2*h+j)}(a0)")
    pipelined(h, LIN_SETS, load_t, tpass)
    body += merge(*inline_product(h, lambda i: f"{DA + 4*i}(sp)", lambda j: f"{DB + 4*j}(sp)",
                                  lambda c: f"{ZM + 4*c}(sp)"), stream)
    body += stream
    # the rest of the recombination (module docstring): chains A, B, C
    rest = []
    e = rest.append
    cc, w, k, u = "a5", "t6", "a3", "a4"
    sets = [("t0", "t1", "t2"), ("t3", "t4", "t5")]
    e(f"neg   {cc}, {S}")

    def load1(j, regs):
        t, l0, z = regs
        e(f"lw    {t}, {4*(2*h+j)}(a0)")
        e(f"lw    {l0}, {4*j}(a0)")
        e(f"lw    {z}, {ZM + 4*j}(sp)")

    def pass1(j, regs):
        add3(e, w, *regs, S, cc, k, u)        # r[h+j] = T_j + L0 + (z ^ S) + cA
        e(f"sw    {w}, {4*(h+j)}(a0)")
    pipelined(h, sets, load1, pass1)
    recombine_upper(e, h, ZM, "a0", sets, S, cT, cc, w, k, u)
    body += rest
    body += [f"lw    {r}, {4*i}(sp)" for i, r in enumerate(saved)] + [f"addi  sp, sp, {frame}", "ret"]
    return "one Karatsuba level, the three half products inline with the linear passes in their free issue slots", body


def main():
    a = Asm()
    a.raw("/* @generated by gen.py -- do not edit: straight-line one-level Karatsuba kernels")
    a.raw(" * kf_mul<n> (r = a0, a = a1, b = a2; n fixed) for n in " + ", ".join(map(str, SIZES)))
    a.raw(" * over " + ", ".join(f"{BASE[n]} (n = {n})" for n in SIZES) + " (inline: the half products")
    a.raw(" * are written out in the kernel, with the linear passes in their free issue slots) */")
    a.section(".text")
    a.directive(".option push")
    a.directive(".option norvc")
    for n in SIZES:
        # an includer may take one kernel per #include (#define KF_PICK n) to lay out its code
        a.raw(f"#if !defined(KF_PICK) || KF_PICK == {n}")
        what, body = kernel_fused(n) if n in FUSED else kernel(n)
        a.raw(f"/* r[0..{2*n}) = a[0..{n}) * b[0..{n}): {what} */")
        with a.function(f"kf_mul{n}", globl=False):
            for x in body:
                a(x)
        a.raw("#endif")
    a.directive(".option pop")
    sys.stdout.write(a.text())


if __name__ == "__main__":
    main()
