#!/usr/bin/env python3
"""Generates kernels.inc of bigint-mul/best: every fixed-size kernel best calls, each at a
planned offset from bigint_mul (the I-cache layout below).

Kernels (r = a0, a = a1, b = a2; n fixed; radix 2^32):
  cfr_mul<n>, n = 2..11, 13   straight-line Comba with a[] held in registers (the half-product
                              code of ../karatsuba-fixed/gen.py's fused kernels, inline_product,
                              as a kernel of its own): 9 issue slots per limb product for the
                              multiplier's 10 cycles; the loads of a[] and the saves of the
                              callee-saved registers that hold a[5..] go into the free tenth
                              slots of the first products, so it starts multiplying after two
                              loads, and each column's store sits in a free slot too
  kfc_mul<n>, n = 15..18, 20, 22, 26, 30
                              one level of subtractive Karatsuba that calls a smaller kernel for
                              each of the three half products (../karatsuba-fixed/gen.py's
                              call-based kernel): cfr_mul<n/2>, for odd n = 2h - 1 cfr_mul<h>
                              and cfr_mul<h-1> (halves of h and h - 1 limbs); kfc_mul30 calls
                              kfc_mul15
  kf_mul<n>, n = 12, 14, 16   ../karatsuba-fixed's fused Karatsuba (half products inline)
  kf_mul<n>, n = 24, 28, 32   one level over kf_mul12/14/16 (as ../karatsuba-fixed)
Calls are written `jal ra, f`; mul.S assembles with .option norelax, so every size is known
here (4 bytes an instruction) and no offset moves at link time.

Layout (NOTES.md, "The I-cache in the warm call"): the E31's I-cache has 128 sets of two
64-byte lines and refills a way chosen at random, so two lines of one call that share a set can
evict each other in the first run and miss again in the timed second one.  A call's footprint is
its chain of kernels plus the caller's lines: the speed program's measuring loop (rvlab_speed,
the 8 lines in front of bigint_mul), the dispatcher, and best_pad / best_kar where n goes
through them.  Positions are given as (slot, r): slot * 8 KiB + r lines from bigint_mul, which
mul.S puts at the start of a line, so r is the set relative to the dispatcher's (r = 0; r =
120..127: rvlab_speed; r = 0..17: bigint_mul, best_pad (to 6.8) and best_kar).  The rules:
  - a chain that fits into the sets the callers leave free (r = 1..119) gets sets no other line
    of its footprint uses: n = 2..16, 18, 20 (with best_pad for n = 19 and best_kar for n = 40:
    r >= 18), 22 (n = 21 through best_pad: 6 lines on best_pad's sets, no room for more);
  - n = 17 (121.4 lines) overruns r = 119 by 2.4 lines, onto rvlab_speed's first lines;
  - a chain longer than one way (n = 24, 26, 28, 30, 32) covers some sets twice, at best
    (lines - 128) of them: those are kept off the callers' sets, so no set holds three lines of
    a footprint, and the callers sit on sets the chain covers once;
  - the n = 32 chain (206.6 lines, sets 41..119 twice) keeps the n = 8 chain (cfr_mul8, lines
    1..38) off its doubly covered sets: bits 256 runs between two n = 32 points.
Kernels shared by several chains sit where all of them allow (cfr_mul8: n = 8, 15, 16, 17;
cfr_mul9: 9, 17, 18; cfr_mul7: 7, 15, 29, 30; cfr_mul10, 11, 13 and kf_mul12, 14 with the
level above them).  The assembler fails if a group outgrows its room (.org backwards), and
../layout_check.py checks every footprint of the linked program (tests/test_bigint_layout.py).

usage: python3 gen.py > kernels.inc   (included by mul.S behind bigint_mul, best_pad, best_kar)
"""
import importlib.util
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
from common.asm import Asm  # noqa: E402

_spec = importlib.util.spec_from_file_location("kf_gen", HERE.parent / "karatsuba-fixed" / "gen.py")
_kf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_kf)

LINE, WAY = 64, 8192
CALLER_BYTES = 18 * LINE        # bigint_mul, best_pad, best_kar (mul.S) in front of kernels.inc

# registers that hold a[] in cfr_mul<n>: the free argument registers, then callee-saved ones
# (saved on the stack); t0-t6 are the Comba's, a0-a2 the pointers
CFR_REGS = ["a3", "a4", "a5", "a6", "a7"] + [f"s{i}" for i in range(12)] + ["ra"]
CFR_SIZES = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13)
# kfc_mul<n>: base kernels of the half products (h limbs for z0 and zm, h or h - 1 for z2);
# odd n = 2h - 1 splits into a low half of h limbs and a high half of h - 1
KFC = {15: ("cfr_mul8", "cfr_mul7"), 16: ("cfr_mul8", "cfr_mul8"), 17: ("cfr_mul9", "cfr_mul8"),
       18: ("cfr_mul9", "cfr_mul9"), 20: ("cfr_mul10", "cfr_mul10"), 22: ("cfr_mul11", "cfr_mul11"),
       26: ("cfr_mul13", "cfr_mul13"), 30: ("kfc_mul15", "kfc_mul15")}
KF_FUSED = (12, 14, 16)
KF_LEVEL = {24: "kf_mul12", 28: "kf_mul14", 32: "kf_mul16"}

# The layout (module docstring): groups of kernels placed one after the other from slot * 8 KiB
# + r lines (r fractional: a byte offset into the line).  Comments: the chains a group serves
# and the lines (r) the chain's other kernels take.
PLAN = [
    (0, 18, ["cfr_mul5", "cfr_mul3", "cfr_mul2"]),    # behind best_kar, on the n = 32 chain's single sets
    (0, 41.4375, ["kf_mul32", "kf_mul16"]),           # n = 32, 31, 64, 128: sets 41..119 twice
    (2, 1, ["cfr_mul8", "cfr_mul9", "kfc_mul17"]),    # n = 8 (1..38), 9 (38..85); 17: 121.4 lines
    (3, 1, ["kfc_mul18"]),                            # n = 18 (cfr_mul9: lines 38..85)
    (3, 39, ["kfc_mul15", "cfr_mul7"]),               # n = 15 (cfr_mul8: lines 1..38), 7
    (3, 99, ["cfr_mul4"]),                            # n = 4
    (4, 1, ["cfr_mul11", "kfc_mul22"]),               # n = 11; 22, 21: 114.8 lines
    (5, 18, ["cfr_mul10", "kfc_mul20"]),              # n = 10; 20, 19, 40: 99 lines
    (6, 1, ["cfr_mul6"]),                             # n = 6
    (6, 39, ["kfc_mul16"]),                           # n = 16 (cfr_mul8)
    (6, 78.625, ["kf_mul28", "kf_mul14"]),            # n = 14 (5.9..120); 28, 27: 169.4 lines
    (8, 18, ["kf_mul12", "kf_mul24"]),                # n = 12; 24, 23, 48, 96: 135.6 lines
    (9, 68, ["kfc_mul30"]),                           # n = 30, 29: 156 lines (with 15's chain, 1..98)
    (10, 7, ["cfr_mul13", "kfc_mul26"]),              # n = 13; 26, 25: 149.8 lines
]


def regcomba(n):
    """instruction lines of cfr_mul<n>: straight-line Comba with a[] held in registers
    (../karatsuba-fixed/gen.py's inline_product: 9 issue slots per limb product, the tenth free).
    Only a[0] and b[0] are loaded up front; the other loads of a[] and the saves of the
    callee-saved registers that hold a[5..] go into the free slots of the first products (a[i]
    is first used by the last product of column i), the restores into the wait for the last
    MULHU."""
    A = CFR_REGS[:n]
    saved = [r for r in A if r[0] == "s" or r == "ra"]
    frame = (4 * len(saved) + 15) // 16 * 16
    head, groups, tail = _kf._cfx.comba_groups(
        n, lambda i: A[i], lambda j: "t0", lambda i, j: [f"lw    t0, {4*j}(a2)"],
        lambda c, reg: f"sw    {reg}, {4*c}(a0)", R=("t5", "t6", "t1"))
    stream = []
    for i, r in enumerate(A[1:], 1):
        if r in saved:
            if r == saved[0]:
                stream.append(f"addi  sp, sp, -{frame}")
            stream.append(f"sw    {r}, {4*saved.index(r)}(sp)")
        stream.append(f"lw    {r}, {4*i}(a1)")
    restore = [f"lw    {r}, {4*i}(sp)" for i, r in enumerate(saved)] + ([f"addi  sp, sp, {frame}"] if saved else [])
    body = _kf.merge([f"lw    {A[0]}, 0(a1)"] + head, groups, restore + tail, stream)
    assert not stream, f"cfr_mul{n}: {len(stream)} loads found no free slot"
    ready = {"a0", "a1", "a2", "sp", "zero", "ra", "t0", "t1", "t2", "t3", "t4", "t5", "t6"}
    for x in body:                      # every a[] register is loaded before it is read
        rd, wr, _ = _kf.regs_of(x)
        assert rd <= ready | (set(saved) if x.startswith("sw") else set()), (n, x)
        ready |= wr
    return body + ["ret"]


def kernels():
    """name -> (what, instruction lines), every line one 4-byte instruction"""
    out = {}
    for n in CFR_SIZES:
        out[f"cfr_mul{n}"] = ("straight-line Comba, a[] in registers", regcomba(n))
    for n, base in KFC.items():
        out[f"kfc_mul{n}"] = _kf.kernel(n, *base)
    for n in KF_FUSED:
        out[f"kf_mul{n}"] = _kf.kernel_fused(n)
    for n, base in KF_LEVEL.items():
        out[f"kf_mul{n}"] = _kf.kernel(n, base)
    for name, (what, body) in out.items():
        body[:] = [re.sub(r"^call\s+(\S+)$", r"jal   ra, \1", x) for x in body]
        for x in body:
            op = x.split()[0]
            assert op not in ("call", "tail", "la", "lla") and not (op == "li" and not re.fullmatch(r"li\s+\w+, -?\d{1,3}", x)), (name, x)
    return out


def placement(ks):
    """name -> byte offset from bigint_mul, from PLAN"""
    at, pos = {}, CALLER_BYTES
    for slot, r, names in PLAN:
        if r is not None:
            target = slot * WAY + round(r * LINE)
            assert target >= pos and target % 4 == 0, (names, target, pos)
            pos = target
        for name in names:
            at[name] = pos
            pos += 4 * len(ks[name][1])
    missing = set(ks) - set(at)
    assert not missing, f"not placed: {sorted(missing)}"
    return at


def main():
    ks = kernels()
    at = placement(ks)
    a = Asm()
    a.raw("/* @generated by gen.py -- do not edit: the fixed-size kernels of bigint-mul/best,")
    a.raw(" * each at its planned offset from bigint_mul (.org; gen.py: why) */")
    a.section(".text")
    a.directive(".option push")
    a.directive(".option norvc")
    a.directive(".option norelax")
    for name in sorted(at, key=at.get):
        what, body = ks[name]
        a.directive(f".org {at[name]}", note=f"r = {at[name] // LINE % 128} + {at[name] % LINE} B, slot {at[name] // WAY}")
        a.raw(f"/* {name}: {what} */")
        with a.function(name, globl=False):
            for x in body:
                a(x)
    a.directive(".option pop")
    sys.stdout.write(a.text())


if __name__ == "__main__":
    main()
