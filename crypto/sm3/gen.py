#!/usr/bin/env python3
"""Generator of the SM3 compression kernels rv32i/sm3.S, zbkb/sm3.S, zksh/sm3.S.

Usage: python3 gen.py            (rewrites the three .S files next to this script)
       python3 gen.py --stats    (static instruction counts by mnemonic)

void sm3_compress(uint32_t state[8], const uint8_t *in, size_t nblocks)  (GB/T 32905-2016 §5.3)

Registers as for SHA-256 (../sha256/gen.py, frame and block loop from ../sha256/hashgen.py):
the 8 working variables, the 16 message words W[j-11..j+4], three temporaries and the
constants' pointer.  Round j needs W[j] and W'[j] = W[j] ^ W[j+4], so W[j+4] is expanded
just before round j (j >= 12), into the register of W[j-12], which no later step reads:
  W[j] = P1(W[j-16] ^ W[j-9] ^ (W[j-3] <<< 15)) ^ (W[j-13] <<< 7) ^ W[j-6]
Round j (the names rotate: the new A is D's register, the new E is H's):
  A12 = A <<< 12;  SS1 = (A12 + E + (T_j <<< j)) <<< 7;  SS2 = SS1 ^ A12
  D += SS2 + W'[j] + FF_j(A,B,C)  (= TT1, the new A);  B <<<= 9 (the new C)
  H += SS1 + W[j] + GG_j(E,F,G);  H = P0(H)  (the new E);  F <<<= 19 (the new G)
T_j <<< (j mod 32) comes from a 64-word table.  Rounds 0..15 (FF, GG = XOR) are one
unrolled body; rounds 16..63 (FF = majority, GG = choose) a 16-round body run 3 times.
The state update is V ^= ABCDEFGH.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sha256"))
from hashgen import Asm, generate, kernel32  # noqa: E402

ISAS = ["rv32i", "zbkb", "zksh"]


def rotl(x, n):
    n %= 32
    return ((x << n) | (x >> (32 - n))) & 0xffffffff if n else x


# GB/T 32905-2016 §4.2: T_j = 79cc4519 (j < 16), 7a879d8a (j >= 16); the round adds T_j <<< (j mod 32)
TJ = [rotl(0x79cc4519 if j < 16 else 0x7a879d8a, j) for j in range(64)]

S = ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"]            # A..H at round 0
W = ["s8", "s9", "s10", "s11", "a0", "a1", "a2", "a3",
     "a4", "a5", "a6", "a7", "t3", "t4", "t5", "t6"]            # W[j] lives in W[j % 16]
T0, T1, T2, KP = "t0", "t1", "t2", "ra"


def rotl_(a, dst, src, n):
    a.rotr(dst, src, 32 - n, T2)


def p_perm(a, x, which):
    """x = P0(x) = x ^ (x <<< 9) ^ (x <<< 17)  or  P1(x) = x ^ (x <<< 15) ^ (x <<< 23)"""
    if a.isa == "zksh":
        a(f"sm3p{which}", x, x)
        return
    r1, r2 = (9, 17) if which == 0 else (15, 23)
    if a.zbkb:                                   # x ^ ((x ^ (x <<< r2-r1)) <<< r1): one temporary
        a("rori", T0, x, 32 - (r2 - r1))
        a("xor", T0, T0, x)
        a("rori", T0, T0, 32 - r1)
    else:
        rotl_(a, T0, x, r1)
        rotl_(a, T1, x, r2)
        a("xor", T0, T0, T1)
    a("xor", x, x, T0, note=f"P{which}")


def expand(a, j):
    """W[j] (j >= 16) into the register of W[j-16], which it replaces"""
    w16, w9, w3, w13, w6 = (W[(j - k) % 16] for k in (16, 9, 3, 13, 6))
    a.comment(f"W[{j % 16}+16k] = P1(W[j-16] ^ W[j-9] ^ (W[j-3] <<< 15)) ^ (W[j-13] <<< 7) ^ W[j-6]")
    rotl_(a, T1, w3, 15)
    a("xor", w16, w16, T1)
    a("xor", w16, w16, w9)
    p_perm(a, w16, 1)
    rotl_(a, T0, w13, 7)
    a("xor", w16, w16, T0)
    a("xor", w16, w16, w6)


def round_(a, j, st):
    """round j (its register names depend on j mod 16 only)"""
    A, B, C, D, E, F, G, H = st
    wj, wj4 = W[j % 16], W[(j + 4) % 16]
    a.comment(f"round {j % 16}+16k")
    a("lw", T1, f"{4 * (j % 16)}({KP})", note="T_j <<< j")
    rotl_(a, T0, A, 12)
    a("add", T1, T1, T0)
    a("add", T1, T1, E)
    rotl_(a, T1, T1, 7)
    a("xor", T0, T0, T1, note="SS2 (T1 = SS1)")
    a("add", H, H, T1, note="H + SS1")
    a("add", D, D, T0, note="D + SS2")
    a("xor", T0, wj, wj4, note="W'[j]")
    a("add", D, D, T0)
    a("add", H, H, wj, note="+ W[j]")
    if j < 16:
        a("xor", T0, A, B)
        a("xor", T0, T0, C, note="FF = A ^ B ^ C")
    else:
        a("or", T0, A, B)
        a("and", T0, T0, C)
        a("and", T1, A, B)
        a("or", T0, T0, T1, note="FF = majority(A, B, C)")
    a("add", D, D, T0, note="TT1: the new A")
    if j < 16:
        a("xor", T0, E, F)
        a("xor", T0, T0, G, note="GG = E ^ F ^ G")
    else:
        a("xor", T0, F, G)
        a("and", T0, T0, E)
        a("xor", T0, T0, G, note="GG = E ? F : G")
    a("add", H, H, T0, note="TT2")
    p_perm(a, H, 0)
    rotl_(a, B, B, 9)
    rotl_(a, F, F, 19)
    return [D, A, B, C, H, E, F, G]


def kernel(isa):
    a = Asm(isa)

    def rounds(a):
        a.part("sm3_rounds_0_15", "rounds 0..15 (expanding W[16..19] in 12..15)")
        st = list(S)
        for j in range(16):
            if j >= 12:
                expand(a, j + 4)
            st = round_(a, j, st)
        assert st == S
        a("addi", KP, KP, 64)
        a.part("sm3_rounds_16_63", "16 rounds, each after expanding W[j+4]; run 3 times")
        a.label(".Lrounds")
        for j in range(16, 32):
            expand(a, j + 4)
            st = round_(a, j, st)
        assert st == S
        a("lw", T0, f"64({KP})", note="T of the next pass; 0 past the table")
        a("addi", KP, KP, 64)
        a("bnez", T0, ".Lrounds")

    table = ("sm3_t", TJ, "T_j <<< (j mod 32), j = 0..63 (GB/T 32905 4.2, 5.3.3), then 0")
    return a, kernel32(a, "sm3", "SM3", table, S, W, (T0, T1, T2), KP, rounds, "xor")


if __name__ == "__main__":
    generate(__file__, "sm3", ISAS, kernel, sys.argv)
