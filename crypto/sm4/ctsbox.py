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
sys.path.insert(0, os.path.join(HERE, "..", "aes128-ctr", "bitsliced"))
from common.gf256 import inverse, mul  # noqa: E402
from bpsbox import GATES113  # noqa: E402  (read-only reuse of the AES circuit's middle)

SM4_POLY = 0x1F5
D = 0xd3
BETA = 0x86                 # phi(g): a root of SM4's field polynomial in the AES field
C = 0x1b                    # the constant factor inside the inversion
MASK = 0x01010101


# ---------------------------------------------------------------- GF(2) linear maps on bytes
# a map is the list of its 8 column images (image of bit i)
def parity(x):
    return bin(x).count("1") & 1


def apply(cols, x):
    r = 0
    for i, c in enumerate(cols):
        if x >> i & 1:
            r ^= c
    return r


def compose(a, b):
    """a after b"""
    return [apply(a, c) for c in b]


def invert(cols):
    image = {apply(cols, x): x for x in range(256)}
    assert len(image) == 256, "not invertible"
    return [image[1 << i] for i in range(8)]


def _rotl8(b, n):
    return ((b << n) | (b >> (8 - n))) & 0xff


M = [sum(parity((1 << i) & _rotl8(0xa7, k)) << k for k in range(8)) for i in range(8)]
ALPHA = apply(invert(M), D)
SBOX = [apply(M, inverse(apply(M, x) ^ D, SM4_POLY)) ^ D for x in range(256)]
# the first row of GB/T 32907's table (as gen.py checks it; the whole table is checked against
# `cryptography` through gen.check and the kernels' tests)
assert SBOX[:8] == [0xd6, 0x90, 0xe9, 0xfe, 0xcc, 0xe1, 0x3d, 0xb7]


def _aes_pow(b, n):
    r = 1
    for _ in range(n):
        r = mul(r, b)
    return r


def isomorphism(beta):
    """phi: SM4 field -> AES field with phi(g) = beta, as a linear map (phi(g^i) = beta^i)"""
    return [_aes_pow(beta, i) for i in range(8)]


def sm4_roots():
    return [b for b in range(256) if apply(isomorphism(b), SM4_POLY & 0xff) ^ _aes_pow(b, 8) == 0]


A_AES = [_rotl8(1 << i, 0) ^ _rotl8(1 << i, 1) ^ _rotl8(1 << i, 2) ^ _rotl8(1 << i, 3) ^ _rotl8(1 << i, 4)
         for i in range(8)]


# ---------------------------------------------------------------- BMP's circuit, split in three
def _split_bmp():
    lin = {f"U{i}": 1 << (7 - i) for i in range(8)}      # BMP: U0 = most significant bit
    middle, bottom = [], []
    for g in GATES113:
        d, op, a, b = g
        if op == "^" and a in lin and b in lin:
            lin[d] = lin[a] ^ lin[b]
        elif d[0] in "SC":
            bottom.append(g)
        else:
            middle.append(g)
    ys = sorted({s for _, _, a, b in middle for s in (a, b) if s in lin}, key=lambda s: (s[0], int(s[1:])))
    zs = [d for d, op, _, _ in middle if d.startswith("Z")]
    zl = {z: 1 << i for i, z in enumerate(zs)}
    for d, _, a, b in bottom:
        zl[d] = zl[a] ^ zl[b]
    # bit j (LSB = 0) of A_aes * inv(y) as a mask over the Z's (S0 is the MSB)
    bits = [zl[f"S{7 - j}"] for j in range(8)]
    return {s: lin[s] for s in ys}, middle, zs, bits


BMP_TOP, BMP_MIDDLE, ZS, BMP_BOTTOM = _split_bmp()
YS = list(BMP_TOP)


def linear_layers(c, beta):
    """TOP: {Y: mask over the bits of x'}; BOTTOM: for output bit b, a mask over the Z's"""
    assert beta in sm4_roots()
    mulc = [mul(c, 1 << i) for i in range(8)]
    phi = isomorphism(beta)
    n_in = compose(mulc, compose(phi, M))
    top = {s: sum(parity(BMP_TOP[s] & n_in[i]) << i for i in range(8)) for s in YS}
    m_out = compose(M, compose(invert(phi), compose(mulc, invert(A_AES))))
    rows = [sum((m_out[i] >> b & 1) << i for i in range(8)) for b in range(8)]
    bottom = []
    for b in range(8):
        r = 0
        for j in range(8):
            if rows[b] >> j & 1:
                r ^= BMP_BOTTOM[j]
        bottom.append(r)
    return top, bottom


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


def parse(text):
    """lines `d = a op b` -> (d, op, a, b); op in ^ & >> <<"""
    out = []
    for line in text.strip().splitlines():
        d, rhs = line.split(" = ")
        a, op, b = rhs.split()
        out.append((d, op, a, b))
    return out


# ---------------------------------------------------------------- polynomial (shift-XOR) programs
def poly_run(prog, start="t"):
    """the polynomial (bit d = x^d) each signal of a shift-XOR program computes from `start` = 1"""
    v = {start: 1}
    for d, op, a, b in prog:
        v[d] = v[a] ^ v[b] if op == "^" else v[a] << int(b)
    return v


def transpose(prog_t, targets):
    """The transposed program: prog_t computes from input `1` the polynomials targets[i] (one per
    Z_i); the result computes sum_i targets[i](y) Z_i from the Z's with left shifts and xors
    (each fan-out of the transposed program becomes an xor). Returns gates (d, op, a, b) and
    the name of the result."""
    val = poly_run([(d, op, a, b) for d, op, a, b in prog_t], start="1")
    contrib = {n: [] for n in val}
    for i, p in enumerate(targets):
        node = next(n for n, q in val.items() if q == p)
        contrib[node].append(ZS[i])
    gates, k = [], 0

    def fresh():
        nonlocal k
        k += 1
        return f"E{k}"

    def total(node):
        c = contrib[node]
        if not c:
            return None
        acc = c[0]
        for x in c[1:]:
            d = fresh()
            gates.append((d, "^", acc, x))
            acc = d
        return acc
    for d, op, a, b in reversed(prog_t):
        s = total(d)
        if s is None:
            continue
        if op == "^":
            contrib[a].append(s)
            contrib[b].append(s)
        else:
            e = fresh()
            gates.append((e, "<<", s, b))
            contrib[a].append(e)
    res = total("1")
    return gates, res


def bottom_targets(rows):
    return [sum((rows[b] >> i & 1) << b for b in range(8)) for i in range(len(ZS))]


def middle_gates():
    """BMP's middle with the four masks: N21..N24 (inputs of the GF(2^4) inversion) are computed
    as N21d.. and ANDed with MASK"""
    out = []
    for d, op, a, b in BMP_MIDDLE:
        if d in ("N21", "N22", "N23", "N24"):
            out.append((d + "d", op, a, b))
            out.append((d, "&", d + "d", "MASK"))
        else:
            out.append((d, op, a, b))
    return out


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
MIDDLE_GATES = middle_gates()
Y_ALTERNATIVES = y_alternatives()
BOTTOM_GATES, BOTTOM_OUT = transpose(parse(BOTTOM_T), bottom_targets(BOTTOM_ROWS))


# ---------------------------------------------------------------- word-level evaluation
def eval_word(t):
    """the kernels' computation on one 32-bit word: S' for the four bytes of t (= x' bytes)"""
    m32 = 0xffffffff
    v = {"t": t, "MASK": MASK}
    for d, op, a, b in TOP_GATES + MIDDLE_GATES + BOTTOM_GATES:
        if op == "^":
            v[d] = v[a] ^ v[b]
        elif op == "&":
            v[d] = v[a] & v[b]
        elif op == ">>":
            v[d] = v[a] >> int(b)
        else:
            v[d] = (v[a] << int(b)) & m32
    return v[BOTTOM_OUT]


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
# A program for a set of target polynomials is one operation per target plus some
# intermediates; computing a target as soon as one operation reaches it never hurts (it is
# needed anyway), so the shortest program is found by searching only the intermediates: the
# fewest k such that adding k of them (each one operation from what is there) lets the
# closure "add every target one operation away" reach all targets. Exhaustive, by iterative
# deepening on k.
def _shifts(p):
    return [p << k for k in range(1, 9 - p.bit_length())] if p else []


def _closure(have, targets):
    have = set(have)
    missing = [y for y in targets if y not in have]
    grown = True
    while grown and missing:
        grown, rest = False, []
        for y in missing:
            low = (y & -y).bit_length() - 1
            if any(y ^ a in have for a in have) or any(y >> k in have for k in range(1, low + 1)):
                have.add(y)
                grown = True
            else:
                rest.append(y)
        missing = rest
    return have, missing


def fewest_intermediates(targets, kmax):
    """the intermediates of a shortest program (a list), or None if it needs more than kmax"""
    targets = set(targets)

    def rec(have, k, path):
        have, missing = _closure(have, targets)
        if not missing:
            return path
        if k == 0:
            return None
        cands = {a ^ b for a in have for b in have if a ^ b} | {s for a in have for s in _shifts(a)}
        for c in sorted(cands - have - targets):
            r = rec(have | {c}, k - 1, path + [c])
            if r is not None:
                return r
        return None
    for k in range(kmax + 1):
        r = rec({1}, k, [])
        if r is not None:
            return r
    return None


def program_from(targets, inter):
    """the operations (op, result, a, b or shift) of the program the closure builds"""
    targets, have, prog, inter = set(targets), {1}, [], list(inter)

    def one(y):
        for a in sorted(have):
            if y ^ a in have and y ^ a != a:
                return ("^", y, a, y ^ a)
        low = (y & -y).bit_length() - 1
        for k in range(1, low + 1):
            if y >> k in have:
                return ("<<", y, y >> k, k)
        return None
    while not targets <= have:
        ops = [op for op in (one(y) for y in sorted(targets - have)) if op]
        if not ops:
            ops = [one(inter.pop(0))]
        for op in ops:
            if op[1] not in have:
                prog.append(op)
                have.add(op[1])
    return prog


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
            n = len(tp) + len(transpose([(f"P{x}", "<<" if op == "<<" else "^", f"P{a}" if a != 1 else "1",
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
