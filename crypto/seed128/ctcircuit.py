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
the Boyar-Matthews-Peralta AES circuit (crypto/sm4/ctsbox.py MIDDLE_GATES: 32 AND + 30 XOR,
with SM4's 4 masks at the GF(2^4) bottleneck; reused read-only) serves all four byte lanes of
G's input, and only the bottom linear layer differs between the even lanes (S1) and the odd
ones (S2).

Word layout: SM4's (crypto/sm4/ctsbox.py): a byte lane per S-box, bit 8k + b = bit b of byte k
of G's input x (x0 = the least significant byte, the S1 lane 0). TOP is a shift-XOR program
over 8-bit polynomials from the unmasked input word (garbage above bit 0 of a byte never
reaches bit 0); the exhaustive search of sm4/ctsbox.py (`fewest_intermediates`) finds a
shortest one (22 signals + 2 intermediates). BOTTOM computes both outputs from the clean
products Z: OUT1 = S1' (no constant) and OUT2 = S2' in every lane, each the transpose
(sm4/ctsbox.py `transpose`) of a shift-XOR program for its 18 Z polynomials (`one_bottom`:
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
import importlib.util
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))
import ref  # noqa: E402
from common.gf256 import inverse, mul  # noqa: E402


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# SM4's machinery, read-only: BMP's circuit split in top / middle (with the 4 masks) / bottom,
# GF(2) byte maps, the exhaustive shift-XOR program search
sm4 = _load("sm4_ctsbox_for_seed", os.path.join(HERE, "..", "sm4", "ctsbox.py"))
parity, apply, compose, invert = sm4.parity, sm4.apply, sm4.compose, sm4.invert

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


def _aes_pow(b, n):
    r = 1
    for _ in range(n):
        r = mul(r, b)
    return r


def isomorphism(beta):
    return [_aes_pow(beta, i) for i in range(8)]


ROOTS = [b for b in range(256) if apply(isomorphism(b), SEED_POLY & 0xff) ^ _aes_pow(b, 8) == 0]
assert len(ROOTS) == 8


def linear_layers(c, beta):
    """TOP {Y: mask over the bits of x}; BOTTOM1, BOTTOM2: per output bit, a mask over the Z's"""
    phi = isomorphism(beta)
    assert all(apply(phi, mul(a, b, SEED_POLY)) == mul(apply(phi, a), apply(phi, b))
               for a in (3, 0x53, 0xca) for b in range(256))
    mulc = [mul(c, 1 << i) for i in range(8)]
    n_in = compose(mulc, phi)
    top = {s: sum(parity(sm4.BMP_TOP[s] & n_in[i]) << i for i in range(8)) for s in sm4.YS}
    bottoms = []
    for lk in (L1, L2):
        m_out = compose(lk, compose(invert(phi), compose(mulc, invert(sm4.A_AES))))
        rows = []
        for b in range(8):
            r = 0
            for j in range(8):
                if m_out[j] >> b & 1:
                    r ^= sm4.BMP_BOTTOM[j]
            rows.append(r)
        bottoms.append(rows)
    return top, bottoms[0], bottoms[1]


# ---------------------------------------------------------------- BOTTOM: two outputs at once
def byte_shift(s, k):
    """the 16-bit mask of `w << k` on a clean word (transposed: `>> k`), or None if a term leaves
    its byte half"""
    lo, hi = s & 0xff, s >> 8
    if (lo << k) > 0xff or (hi << k) > 0xff:
        return None
    return (lo << k) | (hi << k) << 8


def shift_xor_program(targets, rng, starts=(0x0001, 0x0100)):
    """a short program (greedy, random ties) computing every 16-bit target from the starts with
    byte-half shifts and xors: [(result, op, a, b)]"""
    targets = set(targets)
    have = set(starts)
    prog = []

    def one_op(have):
        out = {}
        hl = sorted(have)
        for i, a in enumerate(hl):
            for b in hl[i + 1:]:
                out.setdefault(a ^ b, ("^", a, b))
            for k in range(1, 8):
                r = byte_shift(a, k)
                if r:
                    out.setdefault(r, (">>", a, k))
        return out

    def close():
        while True:
            near = one_op(have)
            got = [y for y in targets - have if y in near]
            if not got:
                return
            for y in got:
                prog.append((y,) + near[y])
                have.add(y)
    close()
    while not targets <= have:
        near = one_op(have)
        best, score = [], -1
        base = targets & set(near)
        for c in near:
            if c in have or c == 0:
                continue
            more = {c ^ a for a in have} | {byte_shift(c, k) for k in range(1, 8)} | {c}
            n = len(base | (targets & more))
            if n > score:
                best, score = [c], n
            elif n == score:
                best.append(c)
        c = rng.choice(sorted(best))
        prog.append((c,) + near[c])
        have.add(c)
        close()
    return prog


def bottom_targets(b1, b2):
    return [sum((b1[b] >> i & 1) << b for b in range(8)) | sum((b2[b] >> i & 1) << (8 + b) for b in range(8))
            for i in range(len(sm4.ZS))]


def transpose(prog, targets):
    """gates computing OUT1 (root 0x0001) and OUT2 (root 0x0100) from the Z's: the transpose of
    prog (a right shift becomes a left shift of a clean word, every fan-out an xor)"""
    zs = sm4.ZS
    contrib = {0x0001: [], 0x0100: []}
    for res, _, _, _ in prog:
        contrib[res] = []
    for i, t in enumerate(targets):
        contrib[t].append(zs[i])
    gates, k = [], 0

    def fresh():
        nonlocal k
        k += 1
        return f"E{k}"

    def total(node, name=None):
        c = contrib[node]
        if not c:
            return None
        acc = c[0]
        for j, x in enumerate(c[1:]):
            d = name if (name and j == len(c) - 2) else fresh()
            gates.append((d, "^", acc, x))
            acc = d
        return acc
    for res, op, a, b in reversed(prog):
        s = total(res)
        if s is None:
            continue
        if op == "^":
            contrib[a].append(s)
            contrib[b].append(s)
        else:
            e = fresh()
            gates.append((e, "<<", s, b))
            contrib[a].append(e)
    for root, name in ((0x0001, "OUT1"), (0x0100, "OUT2")):
        if total(root, name) != name:
            src = contrib[root][0]
            gates = [(name if d == src else d, op, name if a == src else a, name if b == src else b)
                     for d, op, a, b in gates]
    return gates


def one_bottom(rows, out, tag, kmax=2, tries=30, seed=1):
    """gates computing one S-box's output word `out` from the Z's: the transpose (sm4/ctsbox.py
    `transpose`) of a shortest shift-XOR program (exhaustive) for its 18 polynomials; internal
    names prefixed with tag"""
    targets = sm4.bottom_targets(rows)
    inter = sm4.fewest_intermediates(targets, kmax)
    if inter is not None:
        progs = [sm4.program_from(targets, inter)]
    else:                                   # greedy (random ties): the shortest of `tries`
        rng = random.Random(seed)
        progs = [[("<<" if op == ">>" else op, x, a, b) for x, op, a, b in
                  shift_xor_program(targets, rng, starts=(1,))] for _ in range(tries)]
    best = None
    for bp in progs:
        nm = {1: "1"}
        prog = []
        for i, (op, x, a, b) in enumerate(bp):
            nm[x] = f"B{i + 1}"
            prog.append((nm[x], op, nm[a], str(b) if op == "<<" else nm[b]))
        gates, res = sm4.transpose(prog, targets)
        if best is None or len(gates) < len(best[0]):
            best = gates, res
    gates, res = best
    ren = {d: tag + d for d, _, _, _ in gates}
    ren[res] = out
    return [(ren[d], op, ren.get(a, a), b if op == "<<" else ren.get(b, b)) for d, op, a, b in gates]


def top_gates(top, kmax=4):
    """a shortest TOP program (sm4/ctsbox.py's exhaustive search) as named gates from `t`"""
    inter = sm4.fewest_intermediates(list(top.values()), kmax)
    if inter is None:
        return None
    prog = sm4.program_from(list(top.values()), inter)
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
    middle = [(d, op, alias.get(a, a), alias.get(b, b)) for d, op, a, b in sm4.MIDDLE_GATES]
    if joint:
        tt = bottom_targets(b1, b2)
        rng = random.Random(seed)
        bottom = min((transpose(shift_xor_program(tt, rng), tt) for _ in range(tries)), key=len)
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
    w = {"t": t, "MASK": MASK, "EVEN": EVEN}
    for d, op, a, b in gs or GATES:
        if op == "^":
            w[d] = w[a] ^ w[b]
        elif op == "&":
            w[d] = w[a] & w[b]
        elif op == ">>":
            w[d] = w[a] >> int(b)
        else:
            w[d] = (w[a] << int(b)) & M32
    return w["Y"]


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
    nt = sum(1 for d, _, _, _ in gs if d in sm4.YS or d.startswith("A"))
    nm = len(sm4.MIDDLE_GATES)
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
