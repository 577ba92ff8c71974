#!/usr/bin/env python3
"""Generator of the SHA-256 compression kernels rv32i/sha256.S, zbkb/sha256.S, zknh/sha256.S.

Usage: python3 gen.py            (rewrites the three .S files next to this script)
       python3 gen.py --stats    (static instruction counts by mnemonic)

void sha256_compress(uint32_t state[8], const uint8_t *in, size_t nblocks)  (FIPS 180-4 §6.2.2)

Registers: the 8 working variables, all 16 words of the message schedule, two temporaries,
the Maj carry and the round-constant pointer fill the 28 usable registers, so the schedule
never touches memory.  The state names rotate by renaming (round t+1's a is round t's h
register, its e round t's d), so 16 generated rounds return to the same names and form a
loop body run 4 times; between passes the next 16 schedule words are computed in place
(W[t] overwrites W[t-16]).  Maj(a,b,c) = b ^ ((a^b) & (b^c)) where b^c is the previous
round's a^b, kept in X: 3 instructions.  Round t, h accumulating T1 and then the new a:
  h += W[t] + K[t] + Sigma1(e) + Ch(e,f,g);  d += h;  h += Sigma0(a) + Maj(a,b,c)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hashgen import Asm, generate, iroot, kernel32, primes  # noqa: E402

ISAS = ["rv32i", "zbkb", "zknh"]


# FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube roots of the first 64 primes
K = [iroot(p << 96, 3) & 0xffffffff for p in primes(64)]

S = ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"]            # a..h at round 0
W = ["s8", "s9", "s10", "s11", "a0", "a1", "a2", "a3",
     "a4", "a5", "a6", "a7", "t3", "t4", "t5", "t6"]            # W[t] lives in W[t % 16]
T0, T1, X, KP = "t0", "t1", "t2", "ra"
SUM0, SUM1, SIG0, SIG1 = (2, 13, 22), (6, 11, 25), (7, 18, 3), (17, 19, 10)


def big_sigma(a, dst, x, rots, tmp):
    if a.isa == "zknh":
        a("sha256sum0" if rots == SUM0 else "sha256sum1", dst, x)
    else:
        a.xor_rotr(dst, x, rots, tmp)


def small_sigma(a, dst, x, rots, tmp):
    if a.isa == "zknh":
        a("sha256sig0" if rots == SIG0 else "sha256sig1", dst, x)
    else:
        a.xor_rotr(dst, x, rots[:2], tmp, shr=rots[2])


def rounds16(a):
    """16 rounds: K[t] at offset 4*(t % 16) of KP; returns with the names as they started."""
    st, t1, x = list(S), T1, X
    for i in range(16):
        sa, sb, sc, sd, se, sf, sg, sh = st
        a.comment(f"round 16k+{i}")
        a("lw", T0, f"{4 * i}({KP})", note="K[t]")
        a("add", sh, sh, W[i], note="h += W[t]")
        a("add", sh, sh, T0, note="h += K[t]")
        big_sigma(a, T0, se, SUM1, t1)
        a("add", sh, sh, T0, note="h += Sigma1(e)")
        a("xor", T0, sf, sg)
        a("and", T0, T0, se)
        a("xor", T0, T0, sg)
        a("add", sh, sh, T0, note="h += Ch(e,f,g): h = T1")
        a("add", sd, sd, sh, note="new e = d + T1")
        big_sigma(a, T0, sa, SUM0, t1)
        a("add", sh, sh, T0, note="h += Sigma0(a)")
        a("xor", t1, sa, sb, note="a^b: the next round's b^c")
        a("and", x, x, t1)
        a("xor", x, x, sb)
        a("add", sh, sh, x, note="h += Maj(a,b,c): new a")
        x, t1 = t1, x
        st = [sh] + st[:7]
    assert st == S and x == X


def schedule16(a):
    """W[t] for the next 16 t, in place: W[t] = sigma1(W[t-2]) + W[t-7] + sigma0(W[t-15]) + W[t-16]"""
    for i in range(16):
        w16, w15, w7, w2 = W[i], W[(i + 1) % 16], W[(i + 9) % 16], W[(i + 14) % 16]
        small_sigma(a, T0, w15, SIG0, T1)
        a("add", w16, w16, T0, note=f"W[16k+{i}] = W[t-16] + sigma0(W[t-15])")
        a("add", w16, w16, w7, note="+ W[t-7]")
        small_sigma(a, T0, w2, SIG1, T1)
        a("add", w16, w16, T0, note="+ sigma1(W[t-2])")


def kernel(isa):
    a = Asm(isa)

    def rounds(a):
        a("xor", X, S[1], S[2], note="b^c for the first Maj")
        a("j", ".Lrounds")
        a.part("sha256_schedule", "16 message-schedule words, in registers")
        a.label(".Lschedule")
        schedule16(a)
        a.part("sha256_rounds", "16 rounds")
        a.label(".Lrounds")
        rounds16(a)
        a("lw", T0, f"64({KP})", note="K of the next pass; 0 past the table")
        a("addi", KP, KP, 64)
        a("bnez", T0, ".Lschedule")

    table = ("sha256_k", K, "K[0..63] (FIPS 180-4 4.2.2), then 0: end of the rounds")
    return a, kernel32(a, "sha256", "SHA-256", table, S, W, (T0, T1, X), KP, rounds, "add")


if __name__ == "__main__":
    generate(__file__, "sha256", ISAS, kernel, sys.argv)
