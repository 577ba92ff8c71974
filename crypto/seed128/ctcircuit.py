#!/usr/bin/env python3
"""SEED's two S-boxes as one word-level circuit for the constant-time kernel (rv32i-ct), its
model of G, and their exhaustive checks.

The algebra (from the SEED specification's definition, checked here on all 256 inputs): over
SEED's field GF(2)[x]/(x^8+x^6+x^5+x+1),
    S1(x) = A1 . x^247 ^ 169,   S2(x) = A2 . x^251 ^ 56,   A1, A2 linear.
x^247 = (x^-1)^8 and x^251 = (x^-1)^4, and squaring is linear, so S1 = L1 . inv ^ 169 and
S2 = L2 . inv ^ 56 with L1 = A1 . sq^3, L2 = A2 . sq^2 (`output_map` finds L1, L2 from the
tables and checks they are linear). A field isomorphism phi onto the AES field (phi(x) = BETA,
a root of SEED's polynomial there) commutes with inversion, and inv(u) = C . inv(C . u), so
    S_k(x) = Lk . phi^-1 . C . inv_aes(C . phi(x)) ^ D_k
-- the SAME input side for both S-boxes, no input constant. So one evaluation of the middle of
the Boyar-Matthews-Peralta AES circuit (crypto/common/sboxcircuit.py MIDDLE_GATES: 32 AND + 30 XOR,
with the 4 masks at the GF(2^4) bottleneck, as SM4's) serves all four byte lanes of
G's input, and only the bottom linear layer differs between the even lanes (S1) and the odd
ones (S2).

Word layout: SM4's (crypto/sm4/ctsbox.py): a byte lane per S-box, bit 8k + b = bit b of byte k
of G's input x (x0 = the least significant byte, the S1 lane 0). TOP is a shift-XOR program
over 8-bit polynomials from the unmasked input word (garbage above bit 0 of a byte never
reaches bit 0); the exhaustive search of common/sboxcircuit.py (`fewest_intermediates`) finds a
shortest one (22 signals + 2 intermediates). BOTTOM computes both outputs from the clean
products Z: OUT1 = S1' (no constant) and OUT2 = S2' in every lane, each the transpose
(common/sboxcircuit.py `transpose`) of a shift-XOR program for its 18 Z polynomials (`one_bottom`:
exhaustive if one with at most 2 intermediates exists, else the shortest of a randomised
greedy search); then y = OUT2 ^ ((OUT1 ^ OUT2) & 0x00ff00ff) takes S1' in lanes 0, 2 and S2'
in lanes 1, 3. (`circuit(joint=True)` tries one program for both outputs on 16-bit targets,
low byte OUT1's polynomial and high byte OUT2's, from starts 0x0001 and 0x0100: the greedy
search does much worse there, so the kernels do not use it.)

G's byte mixing (RFC 4269 §2.2; table-small's words, see NOTES.md): with y = [a, b, c, d]
(byte 0 first), byte k of G is a&m[k] ^ b&m[k+1] ^ c&m[k+2] ^ d&m[k+3]; the words [a,b,a,b],
[b,a,b,a], [c,d,c,d], [d,c,d,c] (3 shift/or instructions each) ANDed with constant masks and
xored give all four bytes: 19 instructions. The S-box constants (169, 56) are left out of the
circuit; mixing is linear, so G = G' ^ KG with one constant KG (one xor).

Run: python3 ctcircuit.py            (checks the circuit on all 256 inputs in each of the 4
                                      lanes, G against ref.g, prints the counts)
     python3 ctcircuit.py --search   (the circuit's length for every (C, BETA) whose TOP
                                      needs at most 2 intermediates; minutes)
"""
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))
import ref  # noqa: E402
from common.gf256 import inverse, mul  # noqa: E402
# the generic machinery (byte maps, isomorphisms onto the AES field, BMP's circuit in three with
# the 4 masks, the program searches, the transpose): shared with SM4's and Camellia's circuits
from common.sboxcircuit import (MIDDLE_GATES, YS, apply, bottom_rows, bottom_targets as poly_targets,  # noqa: E402,F401
                                compose, eval_gates as run_gates, fewest_intermediates, field_roots, invert,
                                isomorphism, mul_map, program_from, shift_xor_program, top_rows, transpose,
                                transpose_poly)

SEED_POLY = 0x163            # x^8 + x^6 + x^5 + x + 1
D1, D2 = 169, 56             # the S-boxes' output constants
M32 = 0xffffffff
MASK = 0x01010101            # bit 0 of each byte (the GF(2^4) bottleneck's masks)
EVEN = 0x00ff00ff            # lanes 0 and 2: S1
BETA = None                  # chosen below (ROOTS[BETA_INDEX])
C = 0x01


# ---------------------------------------------------------------- the algebra
def seed_pow(x, n):
    r = 1
    for _ in range(n):
        r = mul(r, x, SEED_POLY)
    return r


def _definition_holds():
    """S1(x) ^ 169 and S2(x) ^ 56 are linear functions of x^247 and x^251 (the specification's
    definition; tests/test_seed128_ref.py checks the same from the other side)"""
    for s, d, n in ((ref.S1, D1, 247), (ref.S2, D2, 251)):
        img = {}
        for x in range(256):
            img[seed_pow(x, n)] = s[x] ^ d
        cols = [img[1 << i] for i in range(8)]
        assert all(apply(cols, u) == img[u] for u in range(256))
    return True


assert _definition_holds()
INV_SEED = [inverse(x, SEED_POLY) for x in range(256)]


def output_map(s, d):
    """L (columns) with s(x) = L(inv_seed(x)) ^ d for all x"""
    cols = [s[INV_SEED[1 << i]] ^ d for i in range(8)]
    assert all(apply(cols, INV_SEED[x]) ^ d == s[x] for x in range(256)), "not linear after inv"
    return cols


L1, L2 = output_map(ref.S1, D1), output_map(ref.S2, D2)


ROOTS = field_roots(SEED_POLY)
assert len(ROOTS) == 8


def linear_layers(c, beta):
    """TOP {Y: mask over the bits of x}; BOTTOM1, BOTTOM2: per output bit, a mask over the Z's"""
    phi = isomorphism(beta)
    assert all(apply(phi, mul(a, b, SEED_POLY)) == mul(apply(phi, a), apply(phi, b))
               for a in (3, 0x53, 0xca) for b in range(256))
    mulc = mul_map(c)
    b1, b2 = (bottom_rows(compose(lk, compose(invert(phi), mulc))) for lk in (L1, L2))
    return top_rows(compose(mulc, phi)), b1, b2


# ---------------------------------------------------------------- BOTTOM: two outputs at once
def bottom_targets(b1, b2):
    """the joint targets: per Z, OUT1's polynomial in the low byte, OUT2's in the high byte"""
    return [p | q << 8 for p, q in zip(poly_targets(b1), poly_targets(b2))]


def _greedy(targets, rng, starts=(0x0001, 0x0100)):
    """common/sboxcircuit.py's greedy shift-XOR search, two byte lanes"""
    return shift_xor_program(targets, rng, starts, width=8)


def one_bottom(rows, out, tag, kmax=2, tries=30, seed=1):
    """gates computing one S-box's output word `out` from the Z's: the transpose (sboxcircuit.py
    `transpose`) of a shortest shift-XOR program (exhaustive) for its 18 polynomials; internal
    names prefixed with tag"""
    targets = poly_targets(rows)
    inter = fewest_intermediates(targets, kmax)
    if inter is not None:
        progs = [program_from(targets, inter)]
    else:                                   # greedy (random ties): the shortest of `tries`
        rng = random.Random(seed)
        progs = [[("<<" if op == ">>" else op, x, a, b) for x, op, a, b in
                  _greedy(targets, rng, starts=(1,))] for _ in range(tries)]
    best = None
    for bp in progs:
        nm = {1: "1"}
        prog = []
        for i, (op, x, a, b) in enumerate(bp):
            nm[x] = f"B{i + 1}"
            prog.append((nm[x], op, nm[a], str(b) if op == "<<" else nm[b]))
        gates, res = transpose_poly(prog, targets)
        if best is None or len(gates) < len(best[0]):
            best = gates, res
    gates, res = best
    ren = {d: tag + d for d, _, _, _ in gates}
    ren[res] = out
    return [(ren[d], op, ren.get(a, a), b if op == "<<" else ren.get(b, b)) for d, op, a, b in gates]


def top_gates(top, kmax=4):
    """a shortest TOP program (sboxcircuit.py's exhaustive search) as named gates from `t`"""
    inter = fewest_intermediates(list(top.values()), kmax)
    if inter is None:
        return None
    prog = program_from(list(top.values()), inter)
    names = {1: "t"}
    out, k = [], 0
    for op, x, a, b in prog:
        ys = [s for s, m in top.items() if m == x]
        k += 1
        names[x] = ys[0] if ys else f"A{k}"
        out.append((names[x], ">>" if op == "<<" else "^", names[a], b if op == "<<" else names[b]))
    return out, names


def circuit(c, beta, tries=30, seed=1, joint=False, kmax=4):
    top, b1, b2 = linear_layers(c, beta)
    tg = top_gates(top, kmax)
    if tg is None:
        return None
    tprog, names = tg
    alias = {s: names[m] for s, m in top.items() if names[m] != s}
    middle = [(d, op, alias.get(a, a), alias.get(b, b)) for d, op, a, b in MIDDLE_GATES]
    if joint:
        tt = bottom_targets(b1, b2)
        rng = random.Random(seed)
        bottom = min((transpose(_greedy(tt, rng), tt, {0x0001: "OUT1", 0x0100: "OUT2"})[0]
                      for _ in range(tries)), key=len)
    else:
        bottom = []
        for rows, out, tag in ((b1, "OUT1", "F"), (b2, "OUT2", "H")):
            part = one_bottom(rows, out, tag, tries=tries, seed=seed)
            if part is None:
                return None
            bottom += part
    merge = [("X12", "^", "OUT1", "OUT2"), ("X12m", "&", "X12", "EVEN"), ("Y", "^", "OUT2", "X12m")]
    return tprog + middle + bottom + merge


# the (C, BETA) choice: of the 12 whose TOP needs only 2 intermediates (24 operations; none
# needs fewer), one with the shortest circuit (175; `--search` lists them)
C, BETA = 0x23, 0x5a
assert BETA in ROOTS

GATES = circuit(C, BETA)


def eval_gates(t, gs=None):
    return run_gates(gs or GATES, {"t": t, "MASK": MASK, "EVEN": EVEN})["Y"]


def check(gs=None):
    """all 256 inputs in each of the 4 lanes, the other lanes varying: S1 ^ 169 in lanes 0, 2,
    S2 ^ 56 in lanes 1, 3"""
    for x in range(256):
        for r in range(4):
            lanes = [(x * 7 + 3 * r + 1) & 255, (x * 29 + 11 * r) & 255, (x ^ 0x5a) * (r + 1) & 255]
            lanes.insert(r, x)
            word = sum(v << 8 * k for k, v in enumerate(lanes))
            got = eval_gates(word, gs)
            want = sum(((ref.S1[v] ^ D1) if k % 2 == 0 else (ref.S2[v] ^ D2)) << 8 * k
                       for k, v in enumerate(lanes))
            assert got == want, (x, r)
    return True


# ---------------------------------------------------------------- G as the kernel computes it
def mix_masks():
    """the masks of the four words [a,b,a,b], [b,a,b,a], [c,d,c,d], [d,c,d,c]: byte k holding
    y_j is ANDed with m[(j + k) % 4]"""
    out = []
    for src in ((0, 1, 0, 1), (1, 0, 1, 0), (2, 3, 2, 3), (3, 2, 3, 2)):
        out.append(sum(ref.M[(j + k) % 4] << 8 * k for k, j in enumerate(src)))
    return out


MIX = mix_masks()


def mix(y):
    """G's byte mixing on y = [a, b, c, d] (byte 0 first), as the kernel does it"""
    lo = (y << 16) & M32                       # [0, 0, a, b]
    abab = lo | (lo >> 16)
    baba = (abab >> 8) | ((abab << 24) & M32)
    hi = y >> 16                               # [c, d, 0, 0]
    cdcd = hi | ((hi << 16) & M32)
    dcdc = (cdcd >> 8) | ((cdcd << 24) & M32)
    return (abab & MIX[0]) ^ (baba & MIX[1]) ^ (cdcd & MIX[2]) ^ (dcdc & MIX[3])


KG = mix(D1 | D2 << 8 | D1 << 16 | D2 << 24)   # what leaving the S-box constants out costs


def g_kernel(x):
    return mix(eval_gates(x)) ^ KG


def check_g(n=20000, seed=5):
    """G' ^ KG = ref.g on random words and on every byte value in every lane"""
    rng = random.Random(seed)
    xs = [rng.getrandbits(32) for _ in range(n)] + [v << 8 * k for v in range(256) for k in range(4)]
    for x in xs:
        assert g_kernel(x) == ref.g(x), hex(x)
    return True


def counts(gs=None):
    gs = gs or GATES
    nt = sum(1 for d, _, _, _ in gs if d in YS or d.startswith("A"))
    nm = len(MIDDLE_GATES)
    return {"top": nt, "middle": nm, "bottom": len(gs) - nt - nm - 3, "merge": 3,
            "circuit": len(gs), "and": sum(g[1] == "&" for g in gs), "mix": 19, "G": len(gs) + 20}


def search():
    """every (C, BETA) whose TOP has a program with at most 2 intermediates: the circuit's
    length (exhaustive TOP, greedy BOTTOMs). Minutes."""
    res = []
    for beta in ROOTS:
        for c in range(1, 256):
            gs = circuit(c, beta, kmax=2)
            if gs is None:
                continue
            res.append((len(gs), c, beta))
            print(f"C = 0x{c:02x}, BETA = 0x{beta:02x}: {len(gs)}", flush=True)
    print("best:", sorted(res)[:5])


if __name__ == "__main__":
    if "--search" in sys.argv:
        search()
    else:
        check()
        check_g()
        print("SEED S-box circuit = S1/S2 on all 256 inputs in each lane; G model = ref.g;", counts())
