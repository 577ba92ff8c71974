#!/usr/bin/env python3
"""SM4's S-box as a circuit for the bitsliced constant-time kernels (rv32i-ct, zbkb-ct), and its
exhaustive check.

The algebra (a fact of the standard's construction, derived and checked here): over
GF(2^8) = GF(2)[g]/(g^8+g^7+g^6+g^5+g^4+g^2+1),
    S(x) = M * inv(M * x + D) + D,   M = the circulant of 0xa7, D = 0xd3
(crypto/sm4/gen.py builds its tables the same way). With x' = x + ALPHA, ALPHA = M^-1 D,
S(x) = M * inv(M * x') + D. A field isomorphism phi onto the AES field GF(2)[y]/(0x11b)
(phi(g) = BETA, a root of SM4's polynomial there) commutes with inversion, and inversion
commutes with a constant factor C up to that factor: inv(u) = C * inv(C * u). So
    S(x) = Mout * inv_aes(Nin * x') + D,   Nin = mul_C . phi . M,  Mout = M . phi^-1 . mul_C
and inv_aes is what the middle of the Boyar-Matthews-Peralta AES circuit (bpsbox.GATES113,
32 AND + 30 XOR from its 22 linear input signals Y to its 18 products Z) computes, up to
its own top (U -> Y) and bottom (Z -> A_aes inv) linear layers. The kernels evaluate
    TOP    t -> the 22 Y signals = rows of BMP's top matrix times Nin (shift-XOR program)
    MIDDLE BMP's gates unchanged, plus 4 masks (below)
    BOTTOM the 18 Z -> S' = Mout A_aes^-1 (BMP bottom) Z, recombined into one word
The constants are folded into the keys: the kernel's S-box input is x' (ALPHA in every byte
is added to the round key), its output lacks D (see ctgen.py for where it goes).

Word layout (four S-boxes at once): a byte lane per S-box, the 32-bit word as loaded from the
big-endian state word W (bit 8k + b = bit b of byte k of W). Signals live at bit offset 0 of
each byte ("plane" words): bit b of the input byte is `t >> b` -- no mask: the bits above
offset 0 are garbage (other bits of the same and the next byte), and garbage never reaches
offset 0 of a byte through xor, and or a right shift whose polynomial stays below degree 8.
That is why TOP may be any shift-XOR program over polynomials: a word w with
offset-0 content sum(U_d, d in P) is "P"; `w >> k` is x^k P (valid while deg <= 7; terms
beyond cancel exactly, being the same bits), `a ^ b` is P + Q. The garbage is removed once,
at the 4-bit bottleneck of the inversion: the inputs of BMP's GF(2^4) inversion (N21..N24)
are ANDed with 0x01010101, so everything computed from them, the 9 N factors and (AND with a
clean factor) the 18 products Z, is clean (zero outside bit 0 of each byte). BOTTOM then
builds S' = sum_b (out_b << b) with left shifts: on clean words `w << k` multiplies by y^k
without crossing into the next byte (degree <= 7).

TOP and BOTTOM are shortest such programs (`--search`, exhaustive: see there; it prints one of
the shortest, not necessarily these). For this (C, BETA) TOP needs 22 operations (one per
signal) plus at least 4 intermediates: 26, against 7 shifts +
20 XORs for plain bit planes and a Boyar-Peralta-style SLP; BOTTOM is the transpose of a
shortest program for the 18 polynomials p_i = sum_b x^b [Z_i in out_b] (17 need an operation,
plus 4 intermediates: 21) with 17 more xors (every fan-out becomes one): 38, against 30 XORs +
7 shifts + 7 xors for SLP plus a separate recombination. No (C, BETA) of the 255 x 8 does better
than 64 for the two together (some have 24 + 40 or 25 + 39); this is one with 64 (the kernels'
round: 26 + 66 + 38 = 130 operations for the four S-boxes).

Run: python3 ctsbox.py            (checks the circuit on all 256 inputs in every byte lane)
     python3 ctsbox.py --search   (re-runs the search; minutes)
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from common.gf256 import inverse, rotl8  # noqa: E402
# the generic machinery (byte maps, BMP's circuit in three, the program searches): shared with
# Camellia's and SEED's circuits
from common.sboxcircuit import (BMP_MIDDLE, MIDDLE_GATES, YS, apply, bottom_rows, bottom_targets,  # noqa: E402,F401
                                compose, eval_gates, fewest_intermediates, field_roots, invert, isomorphism,
                                mul_map, parity, parse, poly_run, program_from, top_rows, transpose_poly)

SM4_POLY = 0x1F5
D = 0xd3
BETA = 0x86                 # phi(g): a root of SM4's field polynomial in the AES field
C = 0x1b                    # the constant factor inside the inversion
MASK = 0x01010101


M = [sum(parity((1 << i) & rotl8(0xa7, k)) << k for k in range(8)) for i in range(8)]
ALPHA = apply(invert(M), D)
SBOX = [apply(M, inverse(apply(M, x) ^ D, SM4_POLY)) ^ D for x in range(256)]
# the first row of GB/T 32907's table (as gen.py checks it; the whole table is checked against
# `cryptography` through gen.check and the kernels' tests)
assert SBOX[:8] == [0xd6, 0x90, 0xe9, 0xfe, 0xcc, 0xe1, 0x3d, 0xb7]


def sm4_roots():
    """the roots of SM4's field polynomial in the AES field (phi(g) may be any of them)"""
    return field_roots(SM4_POLY)


# ---------------------------------------------------------------- the linear layers around BMP's middle
def linear_layers(c, beta):
    """TOP: {Y: mask over the bits of x'}; BOTTOM: for output bit b, a mask over the Z's"""
    assert beta in sm4_roots()
    mulc = mul_map(c)
    phi = isomorphism(beta)
    return (top_rows(compose(mulc, compose(phi, M))),
            bottom_rows(compose(M, compose(invert(phi), mulc))))


TOP_ROWS, BOTTOM_ROWS = linear_layers(C, BETA)

# ---------------------------------------------------------------- the programs (from --search)
# TOP: from t (the round's input word). `a >> k`: srli; `a ^ b`: xor.
TOP = """
Y3 = t >> 5
A1 = t ^ Y3
A2 = t >> 3
A3 = t ^ A2
Y8 = A3 >> 1
Y14 = A3 >> 2
Y9 = Y8 ^ Y14
Y11 = A2 ^ Y8
Y20 = Y9 ^ Y11
Y6 = t ^ Y20
Y5 = Y3 ^ Y8
Y15 = Y5 >> 2
U7 = Y6 ^ Y15
Y7 = Y11 ^ U7
A4 = A1 >> 1
Y13 = t ^ A4
Y2 = Y5 ^ Y13
Y17 = Y2 >> 1
Y12 = Y14 ^ Y13
Y4 = Y9 ^ Y2
Y18 = Y4 >> 1
Y10 = Y11 ^ Y17
Y19 = A2 ^ Y17
Y16 = Y15 ^ Y17
Y1 = Y6 ^ Y10
Y21 = Y13 ^ Y16
"""
# BOTTOM: from the Z's to S' (`a << k`: slli).
BOTTOM = None       # filled below from the transposed program (see _bottom_from_transposed)
BOTTOM_T = """
B1 = 1 << 1
B2 = 1 ^ B1
B3 = B2 << 1
B4 = B2 ^ B3
B5 = B4 << 3
B6 = B3 ^ B5
B7 = 1 ^ B6
B8 = B7 << 2
B9 = B1 ^ B8
B10 = B1 << 2
B11 = B4 ^ B10
B12 = B11 << 1
B13 = B12 ^ B9
B14 = B13 ^ B11
B15 = B1 ^ B14
B16 = B15 ^ B12
B17 = B5 << 1
B18 = B17 ^ B8
B19 = B7 ^ B18
B20 = B5 ^ B18
B21 = 1 ^ B20
"""


TOP_GATES = parse(TOP)


def y_alternatives():
    """for each Y operand of the 18 products Z: (op, a, b) with a ^ b (or a >> b) equal to it at
    bit 0 of each byte, a and b other such operands (BMP's products come in two groups of nine
    whose operands are four values and five sums of them)"""
    zy = sorted({b for d, op, a, b in BMP_MIDDLE if d.startswith("Z")})
    out = {}
    for y in zy:
        alts = [("^", a, b) for a in zy for b in zy if a < b and TOP_ROWS[a] ^ TOP_ROWS[b] == TOP_ROWS[y]]
        alts += [(">>", a, k) for a in zy for k in range(1, 8) if TOP_ROWS[a] << k == TOP_ROWS[y]]
        out[y] = alts
    return out


Y_ALTERNATIVES = y_alternatives()
BOTTOM_GATES, BOTTOM_OUT = transpose_poly(parse(BOTTOM_T), bottom_targets(BOTTOM_ROWS))


# ---------------------------------------------------------------- word-level evaluation
def eval_word(t):
    """the kernels' computation on one 32-bit word: S' for the four bytes of t (= x' bytes)"""
    return eval_gates(TOP_GATES + MIDDLE_GATES + BOTTOM_GATES, {"t": t, "MASK": MASK})[BOTTOM_OUT]


def check():
    """TOP computes BMP's Y's (as polynomials), BOTTOM the rows; then the word-level circuit on
    all 256 values in every byte lane, the other lanes varying, against SBOX:
    S(x) = eval(x ^ ALPHA) ^ D in each byte"""
    pv = poly_run(TOP_GATES)
    for s in YS:
        assert pv[s] == TOP_ROWS[s] and pv[s] < 256, s
    for x in range(256):
        for r in range(4):
            lanes = [x, (x * 7 + 3 * r + 1) & 255, (x * 29 + 11 * r) & 255, (x ^ 0x5a) * (r + 1) & 255]
            lanes = lanes[r:] + lanes[:r]
            word = sum(v << 8 * k for k, v in enumerate(lanes))
            out = eval_word(word ^ ALPHA * 0x01010101) ^ D * 0x01010101
            assert out == sum(SBOX[v] << 8 * k for k, v in enumerate(lanes)), (x, r)
    return True


def counts():
    return {"top": len(TOP_GATES), "middle": len(MIDDLE_GATES), "bottom": len(BOTTOM_GATES),
            "and": sum(g[1] == "&" for g in MIDDLE_GATES)}


# ---------------------------------------------------------------- the search (--search)
# (the exhaustive program search itself: common/sboxcircuit.py fewest_intermediates)
def search(kmax=4, betas=None, cs=range(1, 256)):
    """every (C, BETA) (or those given): the fewest operations of TOP and of BOTTOM (the
    transposed program and its 17 extra xors); prints the best choices and the programs of the
    first; returns (operations, C, BETA) of that one"""
    best, first = None, None
    for beta in betas or sm4_roots():
        for c in cs:
            top, bottom = linear_layers(c, beta)
            it = fewest_intermediates(list(top.values()), kmax)
            ib = fewest_intermediates(bottom_targets(bottom), kmax)
            if it is None or ib is None:
                continue
            tp = program_from(list(top.values()), it)
            bp = program_from(bottom_targets(bottom), ib)
            n = len(tp) + len(transpose_poly([(f"P{x}", "<<" if op == "<<" else "^", f"P{a}" if a != 1 else "1",
                                          str(b) if op == "<<" else (f"P{b}" if b != 1 else "1"))
                                         for op, x, a, b in bp], bottom_targets(bottom))[0])
            if best is None or n < best:
                best, first = n, (c, beta, tp, bp, top)
                print(f"C = 0x{c:02x}, BETA = 0x{beta:02x}: TOP {len(tp)}, BOTTOM {n - len(tp)}", flush=True)
    c, beta, tp, bp, top = first
    names = {1: "t"}
    for s, p in top.items():
        names.setdefault(p, s)
    print("TOP:")
    k = 0
    for op, x, a, b in tp:
        if x not in names:
            k += 1
            names[x] = f"A{k}"
        print(f"{names[x]} = {names[a]} {'>>' if op == '<<' else '^'} {b if op == '<<' else names[b]}")
    print("BOTTOM_T:")
    names = {1: "1"}
    for i, (op, x, a, b) in enumerate(bp):
        names[x] = f"B{i + 1}"
        print(f"{names[x]} = {names[a]} {op} {b if op == '<<' else names[b]}")
    return best, c, beta


if __name__ == "__main__":
    if "--search" in sys.argv:
        search()
    else:
        check()
        print("SM4 S-box circuit = SBOX on all 256 inputs in each byte lane;", counts())
