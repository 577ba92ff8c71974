#!/usr/bin/env python3
"""Generator of the SHA-512 compression kernels rv32i/sha512.S, zbkb/sha512.S, zknh/sha512.S.

Usage: python3 gen.py            (rewrites the three .S files next to this script)
       python3 gen.py --stats    (static instruction counts by mnemonic)

void sha512_compress(uint64_t state[8], const uint8_t *in, size_t nblocks)  (FIPS 180-4 §6.4.2)

A 64-bit word is a register pair (lo, hi); the state (16 registers), the Maj carry pair X
(the previous round's a^b, as in ../sha256/gen.py) and the round-constant pointer stay in
registers; the message schedule lives in memory, 80 words a block.  Round t (h accumulates
T1, then becomes the new a; every += is a 64-bit add: add, sltu, add, add):
  h += W[t] + K[t] + Sigma1(e) + Ch(e,f,g);  d += h;  h += Sigma0(a) + Maj(a,b,c)
Rounds 16..79 are each preceded by their schedule step, which keeps W[t-1], W[t-2] and
W[t-16] in registers (loads only W[t-7] and W[t-15], the latter kept as the next step's
W[t-16]) and hands W[t] to the round in registers:
  W[t] = sigma1(W[t-2]) + W[t-16] + W[t-7] + sigma0(W[t-15])
Eight rounds (the period of the state names) form a loop body: rounds 0..15 (the message
loaded big-endian and stored) run it twice, rounds 16..79 (with the schedule) 8 times.
W[t] is stored at a fixed place below the saved registers, W[0] highest, and sp steps
down 64 bytes every 8 rounds, so each body addresses W[t-k] at a fixed offset from sp and
no live word is ever below sp (an interrupt handler may use the stack).  With Zbkb an
unaligned block is first copied to an aligned buffer in the frame.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sha256"))
from hashgen import Asm, args_offset, data_table, generate, header, iroot, primes  # noqa: E402

ISAS = ["rv32i", "zbkb", "zknh"]

# FIPS 180-4 §4.2.3: the first 64 bits of the fractional parts of the cube roots of the first 80 primes
K = [iroot(p << 192, 3) & (2 ** 64 - 1) for p in primes(80)]

ST = [("s0", "s1"), ("s2", "s3"), ("s4", "s5"), ("s6", "s7"),
      ("s8", "s9"), ("s10", "s11"), ("a0", "a1"), ("a2", "a3")]  # a..h (lo, hi) at round 0
KP = "ra"
P, T2 = ("a4", "a5"), "a6"            # W[t-16] in the schedule; the third temporary
PAIRS = [("a7", "t0"), ("t1", "t2"), ("t3", "t4"), ("t5", "t6")]   # X, W[t-1], W[t-2], (T0, T1)
IP, END = "t3", "t4"                  # rounds 0..15: input pointer and its end (PAIRS[2])
Y = PAIRS[1]                          # rounds 0..15: the loaded W[t]
SUM0, SUM1, SIG0, SIG1 = (28, 34, 39), (14, 18, 41), (1, 8, 7), (19, 61, 6)
W_BYTES = 8 * 80


def frame(isa):
    """(frame bytes, copy-area offset or None, save offset) at sp_0, the first rounds' sp:
    W[0..7] at 0..63, [the 128-byte aligned copy of an unaligned block,] saved registers"""
    copy = 64 if isa != "rv32i" else None
    save = 64 + (128 if copy is not None else 0)
    return save + 64, copy, save


def w_off(i, k):
    """offset from sp of W[t-k] while round t = 8g+i runs (group g's sp = W[8g+7])"""
    return 8 * (7 - i + k)


def add64(a, d, s, carry):
    """d += s (64-bit); carry may be s[0] (read before it is overwritten)"""
    a("add", d[0], d[0], s[0])
    a("sltu", carry, d[0], s[0])
    a("add", d[1], d[1], s[1])
    a("add", d[1], d[1], carry)


def _terms(rots, shr, half):
    """shifted 32-bit terms (source half, op, amount) whose XOR is output `half` of
    XOR(ROTR64(x, r) for r in rots) ^ (x >> shr)"""
    other = "hi" if half == "lo" else "lo"
    out = []
    for r in rots:
        src, dst_other = (half, other) if r < 32 else (other, half)
        r %= 32
        out += [(src, "srli", r), (dst_other, "slli", 32 - r)]
    if shr:
        out += [(half, "srli", shr)] + ([(other, "slli", 32 - shr)] if half == "lo" else [])
    return out


def sigma64(a, dst, x, rots, shr, tmp, kind):
    """dst (pair) = the 64-bit Sigma/sigma of the pair x; dst, x and tmp distinct"""
    lo, hi = x
    if a.isa == "zknh":
        if shr:                                          # sigma: sig{0,1}{l,h}
            a(f"sha512{kind}l", dst[0], lo, hi)
            a(f"sha512{kind}h", dst[1], hi, lo)
        else:                                            # Sigma: sum{0,1}r, both halves
            a(f"sha512{kind}r", dst[0], lo, hi)
            a(f"sha512{kind}r", dst[1], hi, lo)
    elif a.isa == "zbkb":
        sigma64_rori(a, dst, x, rots, shr, tmp)
    else:
        src = {"lo": lo, "hi": hi}
        for d, half in zip(dst, ("lo", "hi")):
            (s0, op0, n0), *rest = _terms(rots, shr, half)
            a(op0, d, src[s0], n0)
            for s, op, n in rest:
                a(op, tmp, src[s], n)
                a("xor", d, d, tmp)


def sigma64_rori(a, dst, x, rots, shr, tmp):
    """The rotations with 32-bit rori.  Each 64-bit rotation splits into a term of the same
    half (F) and one of the other half (G), and F ^ G is a 32-bit rotation, so with H the
    XOR of those rotations:  out.lo = F(lo) ^ G(hi) = H(lo) ^ G(lo ^ hi),  out.hi =
    H(hi) ^ G(lo ^ hi).  H costs 5 instructions (3 rotations, nested: one register), G(lo^hi)
    5 shared by both halves: 18 instead of 22 for a Sigma; the shift of sigma is added apart."""
    lo, hi = x
    g = [("srli", r % 32) if r >= 32 else ("slli", 32 - r) for r in rots]   # the cross terms
    h = sorted(r % 32 for r in rots)                                        # H's rotations

    def nested_h(d, src):                    # d = XOR of src rotated right by each of h
        steps = [h[k] - h[k - 1] for k in range(len(h) - 1, 0, -1)] + [h[0]]
        a("rori", d, src, steps[0])
        for n in steps[1:]:
            a("xor", d, d, src)
            a("rori", d, d, n)

    a("xor", tmp, lo, hi, note="S = lo ^ hi")
    (op, n), *rest = g
    a(op, dst[0], tmp, n)
    for op, n in rest:
        a(op, dst[1], tmp, n)
        a("xor", dst[0], dst[0], dst[1])
    nested_h(dst[1], hi)
    a("xor", dst[1], dst[1], dst[0], note="hi = H(hi) ^ G(S)")
    nested_h(tmp, lo)
    a("xor", dst[0], dst[0], tmp, note="lo = H(lo) ^ G(S)")
    if shr:
        a("srli", tmp, hi, shr)
        a("xor", dst[1], dst[1], tmp)
        a("srli", tmp, lo, shr)
        a("xor", dst[0], dst[0], tmp)
        a("slli", tmp, hi, 32 - shr)
        a("xor", dst[0], dst[0], tmp)


def round_(a, st, w, t, x, t2, i):
    """round 8g+i with W[t] in the pair w, temporaries t = (T0, T1) and t2; returns the
    new (state, X, T) names"""
    sa, sb, sc, sd, se, sf, sg, sh = st
    a.comment(f"round 8k+{i}")
    a("lw", t[0], f"{8 * i}({KP})", note="K[t].lo")
    a("lw", t[1], f"{8 * i + 4}({KP})", note="K[t].hi")
    add64(a, sh, w, t2)
    add64(a, sh, t, t[0])
    sigma64(a, t, se, SUM1, None, t2, "sum1")
    add64(a, sh, t, t[0])
    for j in (0, 1):                                     # Ch(e,f,g) = g ^ (e & (f ^ g))
        a("xor", t[j], sf[j], sg[j])
        a("and", t[j], t[j], se[j])
        a("xor", t[j], t[j], sg[j])
    add64(a, sh, t, t[0])
    add64(a, sd, sh, t[0])
    sigma64(a, t, sa, SUM0, None, t2, "sum0")
    add64(a, sh, t, t[0])
    for j in (0, 1):                                     # Maj = b ^ ((a^b) & (b^c)), b^c in x
        a("xor", t[j], sa[j], sb[j])
        a("and", x[j], x[j], t[j])
        a("xor", x[j], x[j], sb[j])
    add64(a, sh, x, t2)
    return [sh] + st[:7], t, x


def load_w(a, i, t):
    """rounds 0..15: Y = W[t], the big-endian 64-bit word at IP + 8i, stored for the schedule
    (rv32i: the round's temporaries t and T2 hold the bytes)"""
    hi, lo = Y[1], Y[0]
    if a.zbkb:                                           # aligned (see the copy for other inputs)
        a("lw", hi, f"{8 * i}({IP})")
        a("lw", lo, f"{8 * i + 4}({IP})")
        a("rev8", hi, hi)
        a("rev8", lo, lo)
    else:
        a.load_be32(hi, IP, 8 * i, [t[0], t[1], T2])
        a.load_be32(lo, IP, 8 * i + 4, [t[0], t[1], T2])
    a("sw", lo, f"{w_off(i, 0)}(sp)", note="W[t].lo")
    a("sw", hi, f"{w_off(i, 0) + 4}(sp)", note="W[t].hi")


def step(a, i, wm1, wm2, t):
    """W[t] = sigma1(W[t-2]) + W[t-16] + W[t-7] + sigma0(W[t-15]) into t (= T0, T1), stored;
    W[t-2]'s registers (R) and T2 are free afterwards.  Loads are issued early (E31: LW latency 2)."""
    r = wm2
    a.comment(f"schedule W[8k+{i}]")
    sigma64(a, t, wm2, SIG1[:2], SIG1[2], T2, "sig1")
    a("lw", r[0], f"{w_off(i, 7)}(sp)", note="W[t-7]")
    a("lw", r[1], f"{w_off(i, 7) + 4}(sp)")
    add64(a, t, P, T2)
    a("lw", P[0], f"{w_off(i, 15)}(sp)", note="W[t-15]: the next step's W[t-16]")
    a("lw", P[1], f"{w_off(i, 15) + 4}(sp)")
    add64(a, t, r, r[0])
    sigma64(a, r, P, SIG0[:2], SIG0[2], T2, "sig0")
    add64(a, t, r, T2)
    a("sw", t[0], f"{w_off(i, 0)}(sp)", note="W[t]")
    a("sw", t[1], f"{w_off(i, 0) + 4}(sp)")


def kernel(isa):
    a = Asm(isa)
    size, copy, save = frame(isa)
    args = args_offset(save)
    a.prologue("sha512_compress", size, save, "(state[8], in, nblocks)")
    a("mv", IP, "a1")
    for j in [0, 1, 2, 3, 4, 5, 7, 6]:                    # g = (a0, a1): a0 (state) last
        a("lw", ST[j][1], f"{8 * j + 4}(a0)")
        a("lw", ST[j][0], f"{8 * j}(a0)")

    a.label(".Lblock")
    if copy is not None:
        a("andi", T2, IP, 3)
        a("bnez", T2, "sha512_copy_unaligned", note="input not 4-byte aligned")
        a.label(".Lcopied")
    a("addi", END, IP, 128)
    a("la", KP, "sha512_k")
    x, t = PAIRS[0], PAIRS[3]
    for j in (0, 1):
        a("xor", x[j], ST[1][j], ST[2][j], note="b^c for the first Maj")

    a.part("sha512_rounds_0_15", "8 rounds on message words, run twice")
    a.label(".Lfirst")
    st = list(ST)
    for i in range(8):
        load_w(a, i, t)
        st, x, t = round_(a, st, Y, t, x, T2, i)
    assert st == ST and x == PAIRS[0]
    a("addi", IP, IP, 64)
    a("addi", KP, KP, 64)
    a("addi", "sp", "sp", -64, note="the next 8 words' place")
    a("bne", IP, END, ".Lfirst")
    wm1, wm2 = PAIRS[1], PAIRS[2]
    for reg, off in ((wm1, w_off(0, 1)), (wm2, w_off(0, 2)), (P, w_off(0, 16))):
        a("lw", reg[0], f"{off}(sp)")
        a("lw", reg[1], f"{off + 4}(sp)")

    a.part("sha512_rounds_16_79", "8 schedule steps and rounds, run 8 times")
    a.label(".Lrounds")
    for i in range(8):
        step(a, i, wm1, wm2, t)
        wm1, wm2, t = t, wm1, wm2
        st, x, t = round_(a, st, wm1, t, x, T2, i)
    assert st == ST and (x, wm1, wm2, t) == tuple(PAIRS)
    a("lw", t[0], f"64({KP})", note="K of the next pass; 0 past the table")
    a("addi", KP, KP, 64)
    a("addi", "sp", "sp", -64)
    a("bnez", t[0], ".Lrounds")

    a.part("sha512_update_state", "state = state add working variables; next block")
    a("addi", "sp", "sp", W_BYTES, note="back to W[0..7]")
    s_ptr, n, inp = t[0], t[1], T2
    a("lw", s_ptr, f"{args}(sp)", note="state")
    a("lw", n, f"{args + 8}(sp)", note="nblocks")
    a("lw", inp, f"{args + 4}(sp)", note="in")
    old = [PAIRS[0], PAIRS[1], PAIRS[2], P]
    for half in (0, 1):                                  # a..d, then e..h
        for j in range(4):
            a("lw", old[j][0], f"{8 * (4 * half + j)}({s_ptr})")
            a("lw", old[j][1], f"{8 * (4 * half + j) + 4}({s_ptr})")
        if half == 0:
            a("addi", n, n, -1)
            a("addi", inp, inp, 128)
            a("sw", n, f"{args + 8}(sp)")
            a("sw", inp, f"{args + 4}(sp)")
        for j in range(4):
            s = ST[4 * half + j]
            add64(a, s, old[j], old[j][0])
            a("sw", s[0], f"{8 * (4 * half + j)}({s_ptr})")
            a("sw", s[1], f"{8 * (4 * half + j) + 4}({s_ptr})")
    a("mv", IP, inp)
    a("bnez", n, ".Lblock")
    a.epilogue("sha512_compress", size, save)

    if copy is not None:
        a.part("sha512_copy_unaligned", "the block to an aligned buffer, 4 bytes at a time")
        b = [PAIRS[1][0], PAIRS[1][1], PAIRS[3][0], PAIRS[3][1]]
        a("addi", T2, "sp", copy)
        a("addi", END, T2, 128)
        a.label(".Lcopy")
        for k in range(4):
            a("lbu", b[k], f"{k}({IP})")
        a("packh", b[0], b[0], b[1])
        a("packh", b[2], b[2], b[3])
        a("pack", b[0], b[0], b[2])
        a("sw", b[0], f"0({T2})")
        a("addi", IP, IP, 4)
        a("addi", T2, T2, 4)
        a("bne", T2, END, ".Lcopy")
        a("addi", IP, "sp", copy, note="hash the copy")
        a("j", ".Lcopied")

    hdr = header(f"SHA-512 compression, {isa}", "../gen.py", [
        "void sha512_compress(uint64_t state[8], const uint8_t *in, size_t nblocks);",
        f"in: nblocks * 128 bytes, any alignment.  Stack: {size + W_BYTES - 64} bytes "
        "(80 schedule words, saved registers" + (", an aligned copy of the block" if copy is not None else "") + ").",
        "Design: ../gen.py, ../NOTES.md."])
    assert all(k & 0xffffffff for k in K[8::8]), "a zero K[8j].lo would end the rounds early"
    words = [w for k in K for w in (k & 0xffffffff, k >> 32)] + [0, 0]
    table = data_table("sha512_k", words, "K[0..79] (FIPS 180-4 4.2.3) as (lo, hi), then 0: end of the rounds")
    return a, hdr + a.text() + "\n" + table


if __name__ == "__main__":
    generate(__file__, "sha512", ISAS, kernel, sys.argv)
