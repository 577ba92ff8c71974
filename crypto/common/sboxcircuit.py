"""Machinery for S-boxes of the form "affine . GF(2^8) inversion . affine" evaluated as
word-level bitsliced circuits (signals at bit 0 of each byte or nibble lane, garbage above it
never reaching bit 0). Used by the constant-time kernels of SM4 (crypto/sm4/ctsbox.py),
Camellia (crypto/camellia128/ctcircuit.py) and SEED (crypto/seed128/ctcircuit.py); each keeps
its own algebra (field polynomial, affine maps, choice of constants, lane layout) beside it.

    byte maps    GF(2) linear maps on bytes as lists of 8 column images: parity, apply,
                 compose, invert; mul_map (multiplication by a constant).
    fields       aes_pow, isomorphism (phi(g^i) = beta^i onto the AES field), field_roots
                 (the betas that make phi a field isomorphism for another polynomial).
    BMP          the Boyar-Matthews-Peralta AES circuit (crypto/aes128-ctr/bitsliced/bpsbox.py
                 GATES113) split in three: TOP (U -> the 22 Y's, linear), the MIDDLE (32 AND +
                 30 XOR, Y -> the 18 products Z) and BOTTOM (Z -> A_aes inv, linear).
                 MIDDLE_GATES adds the 4 masks at the GF(2^4) bottleneck that make every Z
                 clean; top_rows / bottom_rows give the linear layers of a cipher's S-box
                 around that middle.
    programs     shift-XOR programs over polynomials (bit d = x^d): poly_run, the exhaustive
                 shortest-program search (fewest_intermediates, program_from), a randomised
                 greedy one over several lanes (shift_xor_program), Paar's greedy XOR
                 program (xor_program), and transpose (a program for the bottom's
                 polynomials turned into the gates that combine the Z's).
    evaluation   eval_gates (a gate list on Python words), emit_gates (on common/ssa.py values).
"""
import os
import sys

from common.gf256 import mul, rotl8

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "aes128-ctr", "bitsliced"))
from bpsbox import GATES113, parse  # noqa: E402,F401  (read-only reuse of the AES circuit; parse for callers)

M32 = 0xffffffff


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


def mul_map(c):
    """multiplication by c in the AES field, as a linear map"""
    return [mul(c, 1 << i) for i in range(8)]


# the AES S-box's linear part (BMP's bottom computes A_AES * inv)
A_AES = [rotl8(1 << i, 0) ^ rotl8(1 << i, 1) ^ rotl8(1 << i, 2) ^ rotl8(1 << i, 3) ^ rotl8(1 << i, 4)
         for i in range(8)]


# ---------------------------------------------------------------- field isomorphisms
def aes_pow(b, n):
    r = 1
    for _ in range(n):
        r = mul(r, b)
    return r


def isomorphism(beta):
    """phi: another GF(2^8) -> the AES field with phi(g) = beta, as a linear map (phi(g^i) = beta^i)"""
    return [aes_pow(beta, i) for i in range(8)]


def field_roots(poly):
    """the roots in the AES field of the field polynomial poly (degree 8): the betas for which
    isomorphism(beta) is a field isomorphism"""
    return [b for b in range(256) if apply(isomorphism(b), poly & 0xff) ^ aes_pow(b, 8) == 0]


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


def middle_gates():
    """BMP's middle with the four masks: N21..N24 (inputs of the GF(2^4) inversion) are computed
    as N21d.. and ANDed with MASK (bit 0 of each lane), so all the Z's are clean"""
    out = []
    for d, op, a, b in BMP_MIDDLE:
        if d in ("N21", "N22", "N23", "N24"):
            out.append((d + "d", op, a, b))
            out.append((d, "&", d + "d", "MASK"))
        else:
            out.append((d, op, a, b))
    return out


MIDDLE_GATES = middle_gates()


def top_rows(n_in):
    """{Y: mask over the input bits} for an inversion whose input is n_in(x)"""
    return {s: sum(parity(BMP_TOP[s] & n_in[i]) << i for i in range(8)) for s in YS}


def bottom_rows(l_out):
    """for output bit b of l_out(inv(u)), the mask over the Z's (BMP's bottom gives A_AES inv)"""
    m_out = compose(l_out, invert(A_AES))
    rows = []
    for b in range(8):
        r = 0
        for j in range(8):
            if m_out[j] >> b & 1:
                r ^= BMP_BOTTOM[j]
        rows.append(r)
    return rows


def bottom_targets(rows):
    """the transposed problem's targets: for Z_i the polynomial sum_b x^b [Z_i in output bit b]"""
    return [sum((rows[b] >> i & 1) << b for b in range(8)) for i in range(len(ZS))]


# ---------------------------------------------------------------- polynomial (shift-XOR) programs
def poly_run(prog, start="t"):
    """the polynomial (bit d = x^d) each signal of a shift-XOR program computes from `start` = 1"""
    v = {start: 1}
    for d, op, a, b in prog:
        v[d] = v[a] ^ v[b] if op == "^" else v[a] << int(b)
    return v


def transpose(prog, targets, roots):
    """The transposed program. prog: (node, op, a, b) computing each node from the roots, op
    "^" or a shift by b; targets[i]: the node whose value Z_i multiplies. The result computes
    each root's sum_i [root reaches targets[i]] Z_i from the Z's, a shift becoming a left shift
    of a clean word and every fan-out an xor. roots: {root node: output name, or None to keep
    the generated name}. Returns (gates (d, op, a, b), {root: result name})."""
    contrib = {r: [] for r in roots}
    for node, _, _, _ in prog:
        contrib[node] = []
    for i, t in enumerate(targets):
        contrib[t].append(ZS[i])
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
    for node, op, a, b in reversed(prog):
        s = total(node)
        if s is None:
            continue
        if op == "^":
            contrib[a].append(s)
            contrib[b].append(s)
        else:
            e = fresh()
            gates.append((e, "<<", s, b))
            contrib[a].append(e)
    out = {}
    for root, name in roots.items():
        res = total(root, name)
        if name and res != name:           # a single contribution: rename it
            src = contrib[root][0]
            gates = [(name if d == src else d, op, name if a == src else a, name if b == src else b)
                     for d, op, a, b in gates]
            res = name
        out[root] = res
    return gates, out


def transpose_poly(prog_t, targets):
    """transpose for a named program from the input `1` (ctsbox's BOTTOM_T): targets are the
    polynomials (one per Z_i), found among the program's values. Returns (gates, result name)."""
    val = poly_run(prog_t, start="1")
    nodes = [next(n for n, q in val.items() if q == p) for p in targets]
    gates, res = transpose(prog_t, nodes, {"1": None})
    return gates, res["1"]


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


# ---------------------------------------------------------------- greedy searches
def lane_shift(s, k, width):
    """the mask of `w >> k` for a signal of mask s made of two lanes of `width` bits (low lane,
    high lane), or None if a term would leave its lane"""
    full = (1 << width) - 1
    lo, hi = s & full, s >> width
    if (lo << k) > full or (hi << k) > full:
        return None
    return (lo << k) | (hi << k) << width


def shift_xor_program(targets, rng, starts, width):
    """A short program (greedy, randomised ties) computing every target mask from the start
    signals with `>> k` (lane_shift, k < width) and `^`: [(result, op, a, b)]"""
    targets = set(targets)
    have = set(starts)
    prog = []

    def one_op(have):
        """every signal one operation away: {result: (op, a, b)}"""
        out = {}
        hl = sorted(have)
        for i, a in enumerate(hl):
            for b in hl[i + 1:]:
                out.setdefault(a ^ b, ("^", a, b))
            for k in range(1, width):
                r = lane_shift(a, k, width)
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
            # the targets one operation away once c is there (what one_op(have | {c}) reaches)
            more = {c ^ a for a in have} | {lane_shift(c, k, width) for k in range(1, width)} | {c}
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


def xor_program(targets, n_inputs, rng):
    """Paar's greedy (randomised ties): the targets (bit masks over n_inputs inputs) with XORs.
    Returns ([(new index, a, b)], {target mask: signal index})"""
    rows = [[i for i in range(n_inputs) if t >> i & 1] for t in targets]
    nxt = n_inputs
    prog = []
    while any(len(r) > 1 for r in rows):
        count = {}
        for r in rows:
            for i in range(len(r)):
                for j in range(i + 1, len(r)):
                    p = (r[i], r[j])
                    count[p] = count.get(p, 0) + 1
        top = max(count.values())
        a, b = rng.choice(sorted(p for p, n in count.items() if n == top))
        prog.append((nxt, a, b))
        rows = [sorted([x for x in r if x not in (a, b)] + [nxt]) if a in r and b in r else r for r in rows]
        nxt += 1
    return prog, [r[0] for r in rows]


# ---------------------------------------------------------------- evaluation
def eval_gates(gates, inputs):
    """gates (d, op, a, b), op in ^ & >> <<, on 32-bit words from the named inputs: all values"""
    w = dict(inputs)
    for d, op, a, b in gates:
        if op == "^":
            w[d] = w[a] ^ w[b]
        elif op == "&":
            w[d] = w[a] & w[b]
        elif op == ">>":
            w[d] = w[a] >> int(b)
        else:
            w[d] = (w[a] << int(b)) & M32
    return w


def emit_gates(B, gates, w, role="sbox"):
    """gates on the values w of a common/ssa.py Block (w gets the new values)"""
    for d, op, a, b in gates:
        if op == "^":
            w[d] = B.xor(w[a], w[b], role=role)
        elif op == "&":
            w[d] = B.and_(w[a], w[b], role=role)
        elif op == ">>":
            w[d] = B.srli(w[a], int(b), role=role)
        else:
            w[d] = B.slli(w[a], int(b), role=role)
    return w
