"""Linear layers as short XOR programs, and the inverse AES S-box circuit built from the forward
one (facts only: the forward circuit is bpsbox.GATES113, verified there; the inverse built here
is verified below against all 256 inverse S-box values).

Inverse S-box: with A(x) = M x + 0x63 the S-box's affine map and inv() the inversion in GF(2^8),
S(x) = M inv(x) + 0x63, so the forward circuit without NOTs computes C(x) = M inv(x), and
inv(z) = M^-1 C(z); InvS(y) = inv(M^-1 (y + 0x63)). The circuit here computes
G(y) = M^-1 C(M^-1 y) = InvS(y + 0x63): the constant is folded into the round keys. The two
M^-1 are composed with the forward circuit's top linear layer (U -> the 22 signals its AND
gates read) and its bottom one (the 18 products -> the 8 outputs), and each composite is
re-synthesised as an XOR program by Paar's greedy algorithm (repeatedly XOR the pair of
signals that occurs in the most targets) and by Boyar and Peralta's distance heuristic (add the
sum of two known signals that leaves the targets fewest XORs away, ties to the largest sum of
squared distances), the shorter program of a few deterministic tie-break orders."""
from __future__ import annotations

import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from common.gf256 import AES_INV_SBOX  # noqa: E402


def paar(targets, inputs, seed=None):
    """XOR program for targets (sets of input names): list of (new, a, b) and the name of each
    target's signal"""
    rng = random.Random(seed) if seed is not None else None
    cur = [set(t) for t in targets]
    prog = []
    n = 0
    while any(len(t) > 1 for t in cur):
        count = {}
        for t in cur:
            if len(t) < 2:
                continue
            s = sorted(t, key=str)
            for i in range(len(s)):
                for j in range(i + 1, len(s)):
                    count[(s[i], s[j])] = count.get((s[i], s[j]), 0) + 1
        best = max(count.values())
        pairs = sorted((p for p, c in count.items() if c == best), key=str)
        a, b = pairs[rng.randrange(len(pairs))] if rng else pairs[0]
        n += 1
        new = ("x", n)
        prog.append((new, a, b))
        for t in cur:
            if a in t and b in t:
                t.discard(a)
                t.discard(b)
                t.add(new)
    return prog, [next(iter(t)) for t in cur]


def distance_program(targets, inputs, seed=None):
    """Boyar-Peralta heuristic: the XOR program as (new, a, b) names and each target's name.
    dist[v] = fewest known signals summing to v (over GF(2)^n, n = len(inputs)); after adding a
    signal e, dist[v] = min(dist[v], dist[v ^ e] + 1)."""
    rng = random.Random(seed)
    n = len(inputs)
    idx = {x: i for i, x in enumerate(inputs)}
    tm = [sum(1 << idx[x] for x in t) for t in targets]
    size = 1 << n
    dist = bytearray(bin(v).count("1") for v in range(size))
    base = [1 << i for i in range(n)]
    name = {1 << i: x for i, x in enumerate(inputs)}
    prog = []

    def add(e, a, b):
        name[e] = ("x", len(prog) + 1)
        prog.append((name[e], name[a], name[b]))
        base.append(e)
        d = dist
        for v in range(size):
            x = d[v ^ e] + 1
            if x < d[v]:
                d[v] = x
    while True:
        left = sorted({t for t in tm if t not in name})
        if not left:
            break
        near = [t for t in left if dist[t] == 2]
        if near:                                    # a target one XOR away: make it
            t = near[0]
            a = next(a for a in base if (t ^ a) in name)
            add(t, a, t ^ a)
            continue
        best, bkey = [], None
        for i in range(len(base)):
            a = base[i]
            for b in base[i + 1:]:
                e = a ^ b
                if e in name:
                    continue
                s_, q = 0, 0
                for t in left:
                    d = min(dist[t] - 1, dist[t ^ e])
                    s_ += d
                    q += d * d
                key = (s_, -q)
                if bkey is None or key < bkey:
                    bkey, best = key, [(e, a, b)]
                elif key == bkey:
                    best.append((e, a, b))
        add(*(best[rng.randrange(len(best))] if seed is not None else best[0]))
    return prog, [name[t] for t in tm]


def best_program(targets, inputs, tries=24, seeds=(None, 0, 1, 2)):
    """the shortest of Paar's program (tries tie-break orders) and the distance heuristic's
    (a few seeds)"""
    best = None
    for seed in [None] + list(range(tries)):
        prog, res = paar(targets, inputs, seed)
        if best is None or len(prog) < len(best[0]):
            best = (prog, res)
    inputs = sorted({x for t in targets for x in t}, key=str)
    for seed in seeds:
        prog, res = distance_program(targets, inputs, seed)
        if len(prog) < len(best[0]):
            best = (prog, res)
    return best


_CACHE = {}


def linear_program(B, names, targets, tries=24):
    """emit XORs on B computing each target (a set of keys of `names`, a dict key -> value);
    returns the target values"""
    key = tuple(tuple(sorted(t, key=str)) for t in targets)
    if key not in _CACHE:
        _CACHE[key] = best_program(targets, list(names), tries)
    prog, res = _CACHE[key]
    v = dict(names)
    for new, a, b in prog:
        v[new] = B.xor(v[a], v[b])
    return [v[r] for r in res]


# ------------------------------------------------------------------ the inverse S-box circuit
def minv_rows():
    """M^-1 on bits (0 = LSB): output bit i = y[i+2] + y[i+5] + y[i+7]"""
    return [frozenset({(i + 2) % 8, (i + 5) % 8, (i + 7) % 8}) for i in range(8)]


def eval_gates(gates, x):
    v = {"U%d" % i: (x >> (7 - i)) & 1 for i in range(8)}
    for d, op, a, b in gates:
        v[d] = (v[a] ^ v[b]) if op == "^" else (v[a] & v[b])
    return sum(v["S%d" % i] << (7 - i) for i in range(8))


def invsbox_gates(fwd, tries=48):
    """gate list (dst, op, a, b), inputs U0..U7 / outputs S0..S7 (MSB first) as in bpsbox, for
    G(y) = InvS(y ^ 0x63)"""
    minv = minv_rows()
    # top: each signal that is linear in U, as a set of input bits y (LSB numbering) after M^-1
    lin = {}
    for i in range(8):                       # U_i = bit 7 - i of M^-1 y
        lin["U%d" % i] = frozenset(minv[7 - i])
    for d, op, a, b in fwd:
        if op == "^" and a in lin and b in lin:
            lin[d] = lin[a] ^ lin[b]
    # bottom: outputs as XORs of AND gates (only XORs between the last ANDs and the outputs)
    prod = {}
    for d, op, a, b in fwd:
        if op == "&":
            prod[d] = frozenset({d})
        elif op == "^" and a in prod and b in prod:
            prod[d] = prod[a] ^ prod[b]
    s_of = {i: prod["S%d" % i] for i in range(8)}          # S_i, i = MSB-first index
    # output bit (LSB numbering) o = sum over M^-1 row of S bits; S bit j (LSB) = S_{7-j}
    out_t = []
    for o in range(8):
        m = frozenset()
        for j in minv[o]:
            m ^= s_of[7 - j]
        out_t.append(m)
    need_prod = set().union(*out_t)
    # the middle: gates needed for those products, down to U-linear signals
    gate = {g[0]: g for g in fwd}
    keep, top_need, seen = [], set(), set()

    def visit(s):
        if s in seen:
            return
        seen.add(s)
        if s in lin:
            top_need.add(s)
            return
        d, op, a, b = gate[s]
        visit(a)
        visit(b)
        keep.append(s)
    for p in sorted(need_prod, key=lambda s: [g[0] for g in fwd].index(s)):
        visit(p)
    keep_set = set(keep)
    middle = [g for g in fwd if g[0] in keep_set]
    top_names = sorted(top_need, key=lambda s: ([g[0] for g in fwd] + ["U%d" % i for i in range(8)]).index(s)
                       if s in [g[0] for g in fwd] else -1)
    ins = ["y%d" % i for i in range(8)]
    prog, res = best_program([frozenset("y%d" % i for i in lin[s]) for s in top_names], ins, tries)
    gates = []
    name = {}
    for k, (new, a, b) in enumerate(prog):
        name[new] = "TI%d" % k
    for i in range(8):
        name["y%d" % i] = "U%d" % (7 - i)            # new circuit inputs: U_i = y bit 7 - i
    for new, a, b in prog:
        gates.append((name[new], "^", name[a], name[b]))
    alias = {}
    for s, r in zip(top_names, res):
        alias[s] = name[r]

    def ren(x):
        return alias.get(x, x)
    for d, op, a, b in middle:
        gates.append((d, op, ren(a), ren(b)))
    pnames = sorted(need_prod, key=str)
    prog, res = best_program(out_t, pnames, tries)
    name = {}
    for k, (new, a, b) in enumerate(prog):
        name[new] = "BI%d" % k
    for p in pnames:
        name[p] = p
    for new, a, b in prog:
        gates.append((name[new], "^", name[a], name[b]))
    outs = {}
    for o, r in enumerate(res):
        outs["S%d" % (7 - o)] = name[r]
    # outputs as named gates: rename the producing gate where possible
    final = []
    rename = {}
    for d, op, a, b in gates:
        final.append([d, op, a, b])
    produced = {g[0]: g for g in final}
    for sname, src in outs.items():
        if src in produced and src not in rename and src.startswith("BI"):
            rename[src] = sname
    for g in final:
        g[0] = rename.get(g[0], g[0])
        g[2] = rename.get(g[2], g[2])
        g[3] = rename.get(g[3], g[3])
    final = [tuple(g) for g in final]
    for sname, src in outs.items():
        if rename.get(src) != sname:                 # an output that is an existing signal
            raise RuntimeError(f"output {sname} is {src}: not a fresh XOR")
    bad = [y for y in range(256) if eval_gates(final, y) != AES_INV_SBOX[y ^ 0x63]]
    assert not bad, f"inverse S-box circuit wrong for {len(bad)} inputs"
    return final


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "aes128-ctr", "bitsliced"))
    from bpsbox import GATES113
    g = invsbox_gates(GATES113)
    print("inverse S-box circuit:", len(g), "gates,", sum(x[1] == "&" for x in g), "AND; verified on all 256 inputs")
