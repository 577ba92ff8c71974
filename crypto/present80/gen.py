#!/usr/bin/env python3
"""Generator of the PRESENT kernels of crypto/present80/ (and the block functions that
crypto/present80-ctr/ reuses).

    python3 gen.py                     rewrite every generated .S beside this script
    python3 gen.py --stats [--search]  print the schedules (--search: derive them again, slow)

All kernels keep the 64-bit state in two registers in a *layout* (layout.py): the pLayer is a
renaming of index bits, never a bit-by-bit move.  What differs is the S-box layer and the few
moves that bring the next S-box layer's nibble bits together:

* rv32i-ct (bitsliced): the two index bits of "bit b of a nibble" sit at q5 (which register)
  and at one position bit qj, so the 16 nibbles are four 16-lane slices: X, X >> 2^j, Y,
  Y >> 2^j.  The S-box is a 17-gate and/or/xor circuit on them, two and/shift/or per register
  pack the results back, and one cross-register delta swap (6 instructions) per round brings
  the next round's nibble bits to q5 and some qj.  A period-6 schedule of these choices makes
  the layouts repeat, so the encryption is a loop of 6 rounds.
* zbkb-zbkx / xzbp (nibble-sliced): the nibble bits sit at q1, q0 as in the standard layout,
  so xperm4 evaluates 8 S-boxes per instruction pair; zip/unzip (Zbkb) or shfli/unshfli
  (xzbp) plus, every few rounds, an exchange of half-words across the registers (pack)
  bring the next nibble bits to q1, q0.
The key schedule computes the round keys of the specification and stores each in the layout
its round sees it in (plus the complement masks the bitsliced S-box leaves for the next round).
"""
from __future__ import annotations

import functools
import itertools
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import layout as L  # noqa: E402
from common import asm as common_asm  # noqa: E402
from common.buffers import load_le_words_bytes, store_le_words_bytes  # noqa: E402
from ref import SBOX, SBOX_INV  # noqa: E402

ROUNDS = 31

# ---------------------------------------------------------------- S-box circuits
# Found by hand from the algebraic normal form (NOTES.md): inputs x0..x3 (x0 = least
# significant bit of the nibble), outputs y0..y3; "cpl" names outputs the circuit leaves
# complemented (the key schedule folds that complement into the next round key).
SBOX_CIRCUIT = """
A = x1 & x2
C = x0 ^ x3
R = C ^ A
y0 = R ^ x2
D = x1 ^ x2
E = x3 & D
M = A ^ E
F = x0 & M
G = x1 | x3
H = x2 & x3
J = G ^ H
y1 = J ^ F
K = x0 & J
Q = D ^ G
y2 = Q ^ K
T = y0 ^ D
y3 = T ^ F
"""
SBOX_CPL = (2, 3)
SBOX_INV_CIRCUIT = """
a = x1 & x2
b = x1 & x3
c = x2 & x3
S1 = a ^ c
U = x1 ^ S1
S2 = S1 ^ b
V = x2 ^ S2
X13 = x1 ^ x3
W = X13 ^ V
Q = x0 ^ x2
y0 = b ^ Q
fU = x0 & U
fV = x0 & V
fW = x0 & W
O = X13 ^ Q
y3 = O ^ fU
OV = O ^ V
OVa = OV ^ a
y1 = OVa ^ fV
ab = a ^ b
P3 = ab ^ x3
y2 = P3 ^ fW
"""
SBOX_INV_CPL = (0, 2)
OPS = {"&": "and", "|": "or", "^": "xor"}


def parse_circuit(text):
    gates = []
    for line in text.strip().splitlines():
        dst, expr = (s.strip() for s in line.split("="))
        a, op, b = expr.split()
        gates.append((dst, OPS[op], a, b))
    return gates


def eval_circuit(gates, x):
    env = {f"x{b}": (x >> b) & 1 for b in range(4)}
    for dst, op, a, b in gates:
        env[dst] = {"and": env[a] & env[b], "or": env[a] | env[b], "xor": env[a] ^ env[b]}[op]
    return sum(env[f"y{b}"] << b for b in range(4))


def check_circuits():
    for text, box, cpl in ((SBOX_CIRCUIT, SBOX, SBOX_CPL), (SBOX_INV_CIRCUIT, SBOX_INV, SBOX_INV_CPL)):
        g = parse_circuit(text)
        c = sum(1 << b for b in cpl)
        for x in range(16):
            assert eval_circuit(g, x) == box[x] ^ c, (text, x)


# ---------------------------------------------------------------- assembly text
class Asm(common_asm.Asm):
    """the shared writer; each instruction counts in tally by (function, part of the cipher):
    optable.py's seed 003 Table 12 (instructions outside a part are "other")"""

    def __init__(self):
        super().__init__(role="other")


def header(asm, title, isa_note):
    asm.raw(common_asm.header(title, "../gen.py", [isa_note, "API: ../api.h.  Layouts, schedules and counts: ../NOTES.md.",
                                                   "Comments: [part] of the cipher of each instruction."]).rstrip())


def func_begin(asm, name):
    asm.raw("")
    asm.section(".text")
    asm.begin_function(name)


def func_end(asm, name):
    asm.end_function(name)


def save_regs(asm, regs):
    if not regs:
        return
    asm("addi", "sp", "sp", -4 * len(regs))
    for i, r in enumerate(regs):
        asm("sw", r, f"{4 * i}(sp)")


def restore_regs(asm, regs):
    if not regs:
        return
    for i, r in enumerate(regs):
        asm("lw", r, f"{4 * i}(sp)")
    asm("addi", "sp", "sp", 4 * len(regs))


# ---------------------------------------------------------------- moves between layouts
class State:
    """the two state registers: regs[0] holds q5 = 0, regs[1] q5 = 1, in layout lay"""

    def __init__(self, r0, r1, lay):
        self.regs = [r0, r1]
        self.lay = lay


def cross_swap(asm, st, k, t, mask):
    """exchange index bits q5 and qk (t: scratch, mask: register holding MASK0[k])"""
    with asm.tag("pLayer"):
        _cross_swap(asm, st, k, t, mask)


def _cross_swap(asm, st, k, t, mask):
    x, y = st.regs
    d = 1 << k
    asm("srli", t, x, d, note=f"swap q5 <-> q{k}")
    asm("xor", t, t, y)
    asm("and", t, t, mask)
    asm("xor", y, y, t)
    asm("slli", t, t, d)
    asm("xor", x, x, t)
    st.lay = L.swap(st.lay, 5, k)


def emit_network(asm, st, dst, t, m):
    """convert st to layout dst with the generic moves of layout.network (scratch t, m)"""
    with asm.tag("pLayer"):
        _emit_network(asm, st, dst, t, m)


def _emit_network(asm, st, dst, t, m):
    for op in L.network(st.lay, dst):
        if op[0] == "x5":
            asm.li(m, L.MASK0[op[1]])
            cross_swap(asm, st, op[1], t, m)
        elif op[0] == "xw":
            within_swap(asm, st, op[1], op[2], t, m)
        elif op == ("c", 5):
            st.regs.reverse()
            st.lay = L.flip(st.lay, 5)
        else:
            within_complement(asm, st, op[1], t, m)
    assert st.lay == dst


def within_swap(asm, st, a, b, t, m):
    """exchange position bits qa and qb (a > b) inside every register of st"""
    d = (1 << a) - (1 << b)
    asm.li(m, sum(1 << p for p in range(32) if not (p >> a) & 1 and (p >> b) & 1), note=f"swap q{a} <-> q{b}")
    for r in st.regs:
        asm("srli", t, r, d)
        asm("xor", t, t, r)
        asm("and", t, t, m)
        asm("xor", r, r, t)
        asm("slli", t, t, d)
        asm("xor", r, r, t)
    st.lay = L.swap(st.lay, a, b)


def within_complement(asm, st, k, t, m):
    """complement position bit qk inside every register of st (exchange the 2^k-bit groups)"""
    asm.li(m, L.MASK0[k], note=f"complement q{k}")
    for r in st.regs:
        asm("srli", t, r, 1 << k)
        asm("and", t, t, m)
        asm("and", r, r, m)
        asm("slli", r, r, 1 << k)
        asm("or", r, r, t)
    st.lay = L.flip(st.lay, k)


# ---------------------------------------------------------------- block load / store
def load_block(asm, ptr, st, tmps, label):
    """st.regs <- the 8 bytes at ptr (any alignment) in layout LW; tmps: 2 scratch registers"""
    x, y = st.regs
    t, u = tmps
    asm("andi", t, ptr, 3)
    asm("bnez", t, f"{label}_unaligned", note="byte loads for an unaligned block")
    asm("lw", x, f"0({ptr})")
    asm("lw", y, f"4({ptr})")
    asm.label(f"{label}_loaded")
    st.lay = L.LW
    return lambda: _load_unaligned(asm, ptr, x, y, t, u, label)


def _load_unaligned(asm, ptr, x, y, t, u, label):
    with asm.tag(weight=0):          # not executed by aligned calls: out of the tally
        _load_unaligned_body(asm, ptr, x, y, t, u, label)


def _load_unaligned_body(asm, ptr, x, y, t, u, label):
    asm.label(f"{label}_unaligned")
    load_le_words_bytes(asm, (x, y), ptr, t)
    asm("j", f"{label}_loaded")


def store_block(asm, ptr, st, t, label):
    """the 8 bytes at ptr (any alignment) <- st (must be in layout LW); returns the out-of-line
    unaligned path's emitter"""
    assert st.lay == L.LW
    x, y = st.regs
    asm("andi", t, ptr, 3)
    asm("bnez", t, f"{label}_unaligned")
    asm("sw", x, f"0({ptr})")
    asm("sw", y, f"4({ptr})")
    asm.label(f"{label}_stored")

    def unaligned():
        with asm.tag(weight=0):      # not executed by aligned calls: out of the tally
            asm.label(f"{label}_unaligned")
            store_le_words_bytes(asm, (x, y), ptr, t)
            asm("j", f"{label}_stored")
    return unaligned


# ---------------------------------------------------------------- key schedules
# The S-box on a key nibble without a secret-indexed load: the 16 S-box nibbles are two
# words; select the half with a mask made from the nibble's top bit, shift by 4 * (x & 7).
SBOX_LO = sum(SBOX[i] << (4 * i) for i in range(8))
SBOX_HI = sum(SBOX[8 + i] << (4 * i) for i in range(8))


def key_sbox(asm, reg, shift, slo, sdiff, t, u):
    """reg's nibble at bits shift+3..shift <- S(nibble), constant time"""
    asm("srli", t, reg, shift, note=f"S-box on key bits {shift + 3}..{shift}")
    asm("andi", t, t, 15)
    asm("srli", u, t, 3)
    asm("sub", u, "zero", u)
    asm("and", u, u, sdiff)
    asm("xor", u, u, slo)
    asm("slli", t, t, 2)
    asm("srl", u, u, t)
    asm("srli", t, t, 2)
    asm("xor", u, u, t)
    asm("andi", u, u, 15)
    asm("slli", u, u, shift)
    asm("xor", reg, reg, u)


def load_be_word(asm, r, ptr, off, t):
    asm("lbu", r, f"{off}({ptr})")
    for i in range(1, 4):
        asm("lbu", t, f"{off + i}({ptr})")
        asm("slli", r, r, 8)
        asm("or", r, r, t)


def emit_keyexp(asm, name, bits, convert, complement_hi=False,
                shared_label=".Lpresent80_keys_to_layouts", std_offset=0):
    """present80_keyexp_enc / present128_keyexp_enc: the specification's key register, one
    round key (its leftmost 64 bits) per round into rk[2i] (bits 31..0) and rk[2i+1]
    (bits 63..32), with bits 63..32 complemented from round 2 on if complement_hi (the
    bitsliced S-box leaves those bits complemented); then convert(asm, name) rewrites rk in place
    into the kernel's layouts (convert None: jump to shared_label, another key schedule's
    conversion in the same file).  std_offset: where the standard round keys go, in bytes."""
    func_begin(asm, name)
    a, b, c, d = "a2", "a3", "a4", "a5"        # key register words, a = most significant
    t, u, v, i, w, mk = "t0", "t1", "t2", "a6", "t5", "t6"
    slo, sdiff = "t3", "t4"
    load_be_word(asm, a, "a1", 0, t)
    load_be_word(asm, b, "a1", 4, t)
    if bits == 80:
        asm("lbu", c, "8(a1)")
        asm("lbu", t, "9(a1)")
        asm("slli", c, c, 8)
        asm("or", c, c, t)
    else:
        load_be_word(asm, c, "a1", 8, t)
        load_be_word(asm, d, "a1", 12, t)
    asm.li(slo, SBOX_LO)
    asm.li(sdiff, SBOX_LO ^ SBOX_HI)
    asm("addi", v, "a0", std_offset) if std_offset else asm("mv", v, "a0")
    asm("li", i, 1)
    if complement_hi:
        asm("li", mk, 0)
    asm.label(f".L{name}_round")
    asm("sw", b, f"0({v})", note="round key i: bits 31..0")
    if complement_hi:
        asm("xor", t, a, mk)
        asm("sw", t, f"4({v})", note="bits 63..32 (complemented from round 2 on)")
        asm("li", mk, -1)
    else:
        asm("sw", a, f"4({v})", note="bits 63..32")
    asm("addi", v, v, 8)
    if bits == 80:
        # rotate the 80-bit register (a: k79..k48, b: k47..k16, c: k15..k0) left by 61
        asm("slli", t, b, 29, note="rotate left by 61 (= right by 19)")
        asm("slli", u, c, 13)
        asm("or", t, t, u)
        asm("srli", u, a, 19)
        asm("or", t, t, u)                      # new a
        asm("srli", c, b, 3)
        asm("slli", c, c, 16)
        asm("srli", c, c, 16)                   # new c = old k34..k19
        asm("slli", a, a, 13)
        asm("srli", b, b, 19)
        asm("or", b, b, a)                      # new b
        asm("mv", a, t)
        key_sbox(asm, a, 28, slo, sdiff, t, u)
        asm("srli", t, i, 1, note="round counter into k19..k15")
        asm("xor", b, b, t)
        asm("andi", t, i, 1)
        asm("slli", t, t, 15)
        asm("xor", c, c, t)
    else:
        # 128-bit register (a..d, a = k127..k96): rotate left by 61 = right by 67:
        # words right by two, then bits right by 3
        asm("slli", t, b, 29, note="rotate left by 61 (= right by 67)")
        asm("srli", u, c, 3)
        asm("or", u, u, t)                      # new a
        asm("slli", t, c, 29)
        asm("srli", w, d, 3)
        asm("or", w, w, t)                      # new b
        asm("slli", t, d, 29)
        asm("srli", c, a, 3)
        asm("or", c, c, t)                      # new c
        asm("slli", t, a, 29)
        asm("srli", d, b, 3)
        asm("or", d, d, t)                      # new d
        asm("mv", a, u)
        asm("mv", b, w)
        key_sbox(asm, a, 28, slo, sdiff, t, u)
        key_sbox(asm, a, 24, slo, sdiff, t, u)
        asm("srli", t, i, 2, note="round counter into k66..k62")
        asm("xor", b, b, t)
        asm("slli", t, i, 30)
        asm("xor", c, c, t)
    asm("addi", i, i, 1)
    asm("li", t, ROUNDS + 2)
    asm("bne", i, t, f".L{name}_round")
    if convert is None:     # the conversion is present80_keyexp_enc's tail, shared
        asm("j", shared_label)
    else:
        asm.label(shared_label)
        convert(asm, name)
        asm("ret")
    func_end(asm, name)


def emit_convert_loop(asm, name, key_layouts, period, regs):
    """rewrite the 32 round keys in rk (a0), standard layout, into key_layouts[r] (r = 0..31).
    Rounds 0..29 repeat with `period` (their layouts must); rounds 30 and 31 follow the loop."""
    x, y, t, m, p, n = regs
    assert 30 % period == 0 and all(key_layouts[r] == key_layouts[r % period] for r in range(30))

    def one(r, off):
        st = State(x, y, L.STD)
        asm("lw", x, f"{off}({p})", note=f"round key {r + 1}" if r >= 30 else f"round key {r + 1} + {period}k")
        asm("lw", y, f"{off + 4}({p})")
        emit_network(asm, st, key_layouts[r], t, m)
        asm("sw", st.regs[0], f"{off}({p})")
        asm("sw", st.regs[1], f"{off + 4}({p})")

    asm("mv", p, "a0")
    asm("li", n, 30 // period)
    asm.label(f".L{name}_convert")
    for i in range(period):
        one(i, 8 * i)
    asm("addi", p, p, 8 * period)
    asm("addi", n, n, -1)
    asm("bnez", n, f".L{name}_convert")
    one(30, 0)
    one(31, 8)


# ---------------------------------------------------------------- bitsliced (rv32i-ct)
def bit(b, label):
    return (b >> label) & 1


def emit_circuit(asm, gates, inputs, pool, reusable=(), prefer=None):
    """evaluate gates on registers; inputs {x0..x3: reg}; returns {y0..y3: reg}.  Registers come
    from pool (a list, consumed); a gate signal (or a reusable input register) is freed after its
    last use, outputs never are.  prefer {y_b: reg}: write y_b there if it is free by then."""
    last = {}
    for idx, (dst, op, a, b) in enumerate(gates):
        last[a] = last[b] = idx
    regs = dict(inputs)
    avail = list(pool)
    for idx, (dst, op, a, b) in enumerate(gates):
        ra, rb = regs[a], regs[b]
        for name, r in ((a, ra), (b, rb)):
            if last.get(name) == idx and not name.startswith("y") and \
                    (not name.startswith("x") or r in reusable) and r not in avail:
                avail.insert(0, r)
        want = (prefer or {}).get(dst)
        rd = want if want in avail else avail[0]
        avail.remove(rd)
        asm(op, rd, ra, rb, note=f"{dst} = {a} {op} {b}")
        regs[dst] = rd
    return {f"y{b}": regs[f"y{b}"] for b in range(4)}


def sbox_slices(asm, st, pool, gates, in_lay, out_lay, not_in=(), not_out=(), masks=None):
    with asm.tag("sBoxLayer"):
        _sbox_slices(asm, st, pool, gates, in_lay, out_lay, not_in, not_out, masks)


def _sbox_slices(asm, st, pool, gates, in_lay, out_lay, not_in, not_out, masks):
    """one bitsliced S-box layer: the nibble bits at q5 and qj; input slots read in in_lay's
    (5, j) entries, results written in out_lay's; returns nothing, st.regs updated in place"""
    x, y = st.regs
    j = next(p for p in range(5) if in_lay[p][0] in (0, 1))
    assert in_lay[5][0] in (0, 1) and out_lay[5][0] in (0, 1) and out_lay[j][0] in (0, 1)
    d = 1 << j
    sx, sy = pool[0], pool[1]
    asm("srli", sx, x, d, note=f"nibble bits at q5, q{j}: four slices")
    asm("srli", sy, y, d)
    slot = {(0, 0): x, (0, 1): sx, (1, 0): y, (1, 1): sy}
    (la, ca), (lb, cb) = in_lay[5], in_lay[j]
    inputs = {f"x{b}": slot[(bit(b, la) ^ ca, bit(b, lb) ^ cb)] for b in range(4)}
    for b in not_in:
        asm("not", inputs[f"x{b}"], inputs[f"x{b}"])
    ys = emit_circuit(asm, gates, inputs, pool[2:], reusable=(sx, sy))
    for b in not_out:
        asm("not", ys[f"y{b}"], ys[f"y{b}"])
    (la, ca), (lb, cb) = out_lay[5], out_lay[j]
    where = {(bit(b, la) ^ ca, bit(b, lb) ^ cb): ys[f"y{b}"] for b in range(4)}
    m = masks[j]
    for s5, r in ((0, x), (1, y)):
        lo, hi = where[(s5, 0)], where[(s5, 1)]
        asm("and", lo, lo, m)
        if j < 4:                       # (j = 4: the shift by 16 drops the garbage lanes itself)
            asm("and", hi, hi, m)
        asm("slli", hi, hi, d)
        asm("or", r, lo, hi)


def bs_place(lay, first, c5, cj):
    j = next(p for p in range(5) if lay[p][0] in (0, 1))
    out = list(lay)
    out[5], out[j] = (first, c5), (1 - first, cj)
    return tuple(out)


def bs_schedule(base=L.LW):
    """the period-6 schedule of the bitsliced kernel: (k0, rounds, final) where k0 is the swap
    before round 1, rounds[i] = (layout, placement, k) for rounds i, i+6, ... and final the
    placement of round 31.  Chosen to make the last conversion to LW cheapest."""
    def step(lay, ch):
        first, c5, cj, k = ch
        nl = L.relabel(bs_place(lay, first, c5, cj))
        return L.swap(nl, 5, k) if k is not None else nl

    def moves(lay):
        for first, c5, cj in itertools.product((0, 1), repeat=3):
            nl = L.relabel(bs_place(lay, first, c5, cj))
            for k in range(5):
                if nl[k][0] in (0, 1):
                    yield (first, c5, cj, k)

    best = None
    for k0 in (0, 1):
        start = L.swap(base, 5, k0)
        # breadth first, one path per layout and depth: the cost below depends only on start
        front = {start: []}
        for _ in range(6):
            nxt = {}
            for lay, path in front.items():
                for ch in moves(lay):
                    nxt.setdefault(step(lay, ch), path + [ch])
            front = nxt
        if start not in front:
            continue
        path = front[start]
        lays = [start]
        for ch in path[:-1]:
            lays.append(step(lays[-1], ch))
        for fin in itertools.product((0, 1), repeat=3):
            lf = L.relabel(bs_place(start, *fin))
            cost = L.network_cost(L.network(lf, L.LW))
            if best is None or cost < best[0]:
                best = (cost, k0, list(zip(lays, path)), fin)
    return best[1], best[2], best[3]


# bs_schedule()'s result (python3 gen.py --search recomputes it): k0, per round of the period
# (placement, k), final placement
BS_SCHEDULE = (1, [(0, 0, 0, 2), (0, 0, 0, 1), (0, 0, 0, 2), (1, 0, 0, 1), (0, 0, 1, 2), (1, 1, 1, 1)],
               (1, 0, 1))


def stored_bs_schedule():
    k0, plan, fin = BS_SCHEDULE
    lay = start = L.swap(L.LW, 5, k0)
    rounds = []
    for ch in plan:
        rounds.append((lay, ch))
        lay = L.swap(L.relabel(bs_place(lay, *ch[:3])), 5, ch[3])
    assert lay == start
    return k0, rounds, fin


def bs_setup():
    """the stored schedule, the round-key layouts it needs and the mask registers it uses"""
    k0, rounds, fin = stored_bs_schedule()
    period = len(rounds)
    key_lays = [rounds[r % period][0] for r in range(ROUNDS)]
    key_lays.append(L.relabel(bs_place(rounds[0][0], *fin)))
    js = {next(p for p in range(5) if lay[p][0] in (0, 1)) for lay, _ in rounds}
    ks = {ch[3] for _, ch in rounds} | {k0}
    mask_ids = sorted(js | ks)
    return k0, rounds, fin, key_lays, {k: f"s{i}" for i, k in enumerate(mask_ids)}


def bs_encrypt_core(asm, st, name, unroll, masks, pool, kptr="a2", counter="a5"):
    """st (layout LW) <- its encryption, layout LW; round keys at kptr (advanced by 240 when
    looping); pool: scratch registers (t0 among them), counter: the loop counter"""
    k0, rounds, fin, _, _ = bs_setup()
    period = len(rounds)
    fwd = parse_circuit(SBOX_CIRCUIT)
    cross_swap(asm, st, k0, "t0", masks[k0])
    groups = range((ROUNDS - 1) // period) if unroll else [0]
    if not unroll:
        asm("li", counter, (ROUNDS - 1) // period)
        asm.label(f".L{name}_rounds")
    with asm.tag(weight=1 if unroll else (ROUNDS - 1) // period):
        bs_rounds(asm, st, groups, rounds, unroll, masks, pool, kptr, fwd)
        if not unroll:
            asm("addi", kptr, kptr, 8 * period)
            asm("addi", counter, counter, -1)
            asm("bnez", counter, f".L{name}_rounds")
    if unroll:
        asm("addi", kptr, kptr, 8 * (ROUNDS - 1))
    asm.comment("round 31")
    key_add(asm, st, kptr, 0, "t0")
    out_lay = bs_place(rounds[0][0], *fin)
    sbox_slices(asm, st, pool, fwd, rounds[0][0], out_lay, masks=masks)
    st.lay = L.relabel(out_lay)
    key_add(asm, st, kptr, 8, "t0")
    emit_network(asm, st, L.LW, "t0", "t1")


def bs_rounds(asm, st, groups, rounds, unroll, masks, pool, kptr, fwd):
    period = len(rounds)
    for g in groups:
        for i, (lay, ch) in enumerate(rounds):
            assert st.lay == lay
            r = g * period + i
            asm.comment(f"round {r + 1}" if unroll else f"round {i + 1} + {period}k")
            key_add(asm, st, kptr, 8 * r, "t0")
            out = bs_place(lay, *ch[:3])
            sbox_slices(asm, st, pool, fwd, lay, out, masks=masks)
            st.lay = L.relabel(out)
            cross_swap(asm, st, ch[3], "t0", masks[ch[3]])


def emit_bitsliced(asm, prefix, unroll=False):
    """unroll: encryption's 31 rounds in line (rv32i), else a loop over the 6-round period
    (rv32i-ct); decryption always loops (its speed is not what rv32i is for)"""
    k0, rounds, fin, key_lays, masks = bs_setup()
    period = len(rounds)
    inv = parse_circuit(SBOX_INV_CIRCUIT)
    lf = key_lays[-1]
    mask_ids, saved = list(masks), list(masks.values())
    pool = ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "a6", "a7", "a1", "a5"]

    def placed(lay, ch):
        return bs_place(lay, *ch[:3])

    for direction in ("encrypt", "decrypt"):
        name = f"{prefix}_{direction}"
        func_begin(asm, name)
        save_regs(asm, saved)
        for k in mask_ids:
            asm.li(masks[k], L.MASK0[k])
        st = State("a3", "a4", L.LW)
        later = [load_block(asm, "a1", st, ("t0", "t1"), f".L{name}_in")]
        if direction == "encrypt":
            bs_encrypt_core(asm, st, name, unroll, masks, pool if unroll else pool[:-1])
        else:
            emit_network(asm, st, lf, "t0", "t1")
            asm("addi", "a2", "a2", 8 * (ROUNDS - 1))
            key_add(asm, st, "a2", 8, "t0")
            asm.comment("round 31")
            st.lay = L.unrelabel(st.lay)
            sbox_slices(asm, st, pool, inv, st.lay, rounds[0][0], not_in=SBOX_CPL,
                        not_out=SBOX_INV_CPL, masks=masks)
            st.lay = rounds[0][0]
            key_add(asm, st, "a2", 0, "t0")
            asm("li", "a5", (ROUNDS - 1) // period)
            asm.label(f".L{name}_rounds")
            asm("addi", "a2", "a2", -8 * period)
            for i in reversed(range(period)):
                lay, ch = rounds[i]
                asm.comment(f"round {i + 1} + {period}k")
                cross_swap(asm, st, ch[3], "t0", masks[ch[3]])
                st.lay = L.unrelabel(st.lay)
                assert st.lay == placed(lay, ch)
                sbox_slices(asm, st, pool[:-1], inv, st.lay, lay, not_in=SBOX_CPL,
                            not_out=SBOX_INV_CPL, masks=masks)
                st.lay = lay
                key_add(asm, st, "a2", 8 * i, "t0")
            asm("addi", "a5", "a5", -1)
            asm("bnez", "a5", f".L{name}_rounds")
            cross_swap(asm, st, k0, "t0", masks[k0])
            assert st.lay == L.LW
        later.append(store_block(asm, "a0", st, "t0", f".L{name}_out"))
        restore_regs(asm, saved)
        asm("ret")
        for f in later:
            f()
        func_end(asm, name)
    return key_lays, period


def key_add(asm, st, ptr, off, t, u="t1"):
    """both loads first: on the E31 an xor right after its lw would wait a cycle"""
    with asm.tag("addRoundKey"):
        asm("lw", t, f"{off}({ptr})", note="add round key")
        asm("lw", u, f"{off + 4}({ptr})")
        asm("xor", st.regs[0], st.regs[0], t)
        asm("xor", st.regs[1], st.regs[1], u)


def gen_bitsliced(unroll):
    asm = Asm()
    header(asm, "PRESENT-80/128, bitsliced in two registers, RV32I, constant time" +
           (", encryption's 31 rounds in line" if unroll else ", a loop over the 6-round period"),
           "ISA rv32i.  No table, no secret-dependent branch or address.")
    key_lays, period = emit_bitsliced(asm, "present80", unroll)
    conv = lambda a, name: emit_convert_loop(a, name, key_lays, period, ("a2", "a3", "t0", "t1", "a4", "a5"))
    emit_keyexp(asm, "present80_keyexp_enc", 80, conv, complement_hi=True)
    emit_keyexp(asm, "present128_keyexp_enc", 128, None, complement_hi=True)
    return asm


# ---------------------------------------------------------------- nibble-sliced (xperm4)
def unzip_lay(lay):
    """unzip (= unshfli 15) in both registers: position bit 0 becomes bit 4, bits 4..1 move down"""
    return (lay[1], lay[2], lay[3], lay[4], lay[0], lay[5])


def zip_lay(lay):
    return (lay[4], lay[0], lay[1], lay[2], lay[3], lay[5])


def shfl_lay(lay, ctl, inverse=False):
    """xzbp shfli (or unshfli) with a 4-bit control: stage s swaps position bits s+1 and s;
    shfli runs stages 3..0, unshfli 0..3"""
    stages = [s for s in (3, 2, 1, 0) if ctl >> s & 1]
    for s in (reversed(stages) if inverse else stages):
        lay = L.swap(lay, s, s + 1)
    return lay


class Move:
    def __init__(self, name, cost, fn, emit, inverse):
        self.name, self.cost, self.fn, self.emit, self.inverse = name, cost, fn, emit, inverse


def both(mn, *extra):
    def emit(asm, st, t, u):
        with asm.tag("pLayer"):
            for r in st.regs:
                asm(mn, r, r, *extra)
    return emit


def emit_exchange(asm, st, t, u):
    """q5 <-> q4: the low half-words of the two registers in one, the high ones in the other"""
    x, y = st.regs
    with asm.tag("pLayer"):
        asm("srli", t, x, 16, note="exchange q5 <-> q4 (pack)")
        asm("srli", u, y, 16)
        asm("pack", x, x, y)
        asm("pack", y, t, u)


def nibble_moves(isa):
    ms = {"E": Move("E", 4, lambda l: L.swap(l, 5, 4), emit_exchange, "E")}
    if isa == "zbkb":
        ms["U"] = Move("U", 2, unzip_lay, both("unzip"), "Z")
        ms["Z"] = Move("Z", 2, zip_lay, both("zip"), "U")
    else:
        for ctl in range(1, 16):
            ms[f"S{ctl}"] = Move(f"S{ctl}", 2, lambda l, c=ctl: shfl_lay(l, c), both("shfli", ctl), f"I{ctl}")
            ms[f"I{ctl}"] = Move(f"I{ctl}", 2, lambda l, c=ctl: shfl_lay(l, c, True), both("unshfli", ctl), f"S{ctl}")
    return ms


def nibble_ok(lay):
    return {lay[0][0], lay[1][0]} == {0, 1}


def nibble_place(lay, first, c0, c1):
    out = list(lay)
    out[0], out[1] = (first, c0), (1 - first, c1)
    return tuple(out)


def nibble_schedule(isa, max_cost=8):
    """rounds 1..30 repeat with a period p | 30 starting from LW: per round an output
    placement of the S-box (which of q0/q1 holds which nibble bit, complemented or not: the
    table absorbs it) and a sequence of moves that brings the next nibble bits to q1, q0.
    Dynamic programming over layouts, cheapest per round; returns (rounds, entry moves) with
    rounds[i] = (layout, placement, [moves]).  fewest_tables() then re-picks the placements."""
    ms = nibble_moves(isa)
    # every distinct rearrangement reachable by moves, with its cheapest move sequence
    # (moves only permute the six index bits: an action is new[p] = old[perm[p]])
    ident = tuple((p, 0) for p in range(6))
    acts = {tuple(range(6)): (0, [])}
    frontier = [tuple(range(6))]
    while frontier:
        nxt = []
        for a in frontier:
            cost, seq = acts[a]
            for m in ms.values():
                b = tuple(a[q[0]] for q in m.fn(ident))
                c = cost + m.cost
                if c <= max_cost and (b not in acts or c < acts[b][0]):
                    acts[b] = (c, seq + [m])
                    nxt.append(b)
        frontier = nxt
    seqs = [(perm, cost, seq) for perm, (cost, seq) in acts.items()]
    trans = {}

    def succ(lay):
        if lay not in trans:
            out = {}
            for pl in itertools.product((0, 1), repeat=3):
                base = L.relabel(nibble_place(lay, *pl))
                for perm, cost, seq in seqs:
                    nl = tuple(base[q] for q in perm)
                    if nibble_ok(nl) and (nl not in out or cost < out[nl][0]):
                        out[nl] = (cost, pl, seq)
            trans[lay] = out
        return trans[lay]

    # the cycle starts at LW or one move away from it (then that move precedes round 1)
    starts = [(L.LW, [])] + [(m.fn(L.LW), [m]) for m in ms.values() if nibble_ok(m.fn(L.LW))]
    best = None
    for start, entry in starts:
        for p in (1, 2, 3, 5, 6):
            dp = {start: (0, [])}
            for _ in range(p):
                nxt = {}
                for lay, (cost, path) in dp.items():
                    for nl, (c, pl, seq) in succ(lay).items():
                        if nl not in nxt or cost + c < nxt[nl][0]:
                            nxt[nl] = (cost + c, path + [(lay, pl, seq)])
                dp = nxt
            if start in dp:
                cost, path = dp[start]
                total = sum(m.cost for m in entry) + ROUNDS * cost / p
                if best is None or total < best[0] - 1e-9:
                    best = (total, path, entry)
    return best[1], best[2]


# nibble_schedule's results (python3 gen.py --search recomputes them; slow for xzbp):
# entry moves before round 1, then per round of the period (S-box output placement, moves).
# Among the placements that close the cycle, these need the fewest xperm4 tables (4 and 3).
SCHEDULES = {
    "zbkb": ([], [((0, 0, 0), "U U"), ((0, 1, 1), "U U E Z"), ((0, 0, 1), "U U"),
                  ((1, 0, 0), "U U E Z"), ((0, 0, 1), "U U"), ((0, 1, 1), "U U E Z")]),
    "xzbp": ([], [((0, 0, 0), "I14 E I15"), ((0, 0, 1), "I14 E I15"), ((0, 1, 1), "I14 E I15")]),
}


def fewest_tables(isa, entry, seqs):
    """for fixed moves, the placements that close the cycle with the fewest xperm4 tables"""
    start = _apply(L.LW, entry)
    best = None
    for pls in itertools.product(list(itertools.product((0, 1), repeat=3)), repeat=len(seqs)):
        lay, keys = start, set()
        for pl, seq in zip(pls, seqs):
            keys.add((lay[:2], nibble_place(lay, *pl)[:2]))
            lay = _apply(L.relabel(nibble_place(lay, *pl)), seq)
        if lay == start and (best is None or len(keys) < best[0]):
            best = (len(keys), pls)
    return best[1]


def stored_schedule(isa):
    ms = nibble_moves(isa)
    entry_names, plan = SCHEDULES[isa]
    entry = [ms[n] for n in entry_names]
    lay = _apply(L.LW, entry)
    start, rounds = lay, []
    for pl, names in plan:
        seq = [ms[n] for n in names.split()]
        assert nibble_ok(lay)
        rounds.append((lay, pl, seq))
        lay = _apply(L.relabel(nibble_place(lay, *pl)), seq)
    assert lay == start, "stored schedule does not return to its start"
    return rounds, entry


def nibble_table(in_lay, out_lay, box):
    """xperm4 table: physical nibble (bits q1 q0 as laid out) -> physical output nibble"""
    def logical(n, lay):
        return sum(((n >> q) & 1) << ((((q >> 0) & 1) ^ lay[0][1]) << lay[0][0] |
                                      (((q >> 1) & 1) ^ lay[1][1]) << lay[1][0]) for q in range(4))

    def physical(x, lay):
        return sum(((x >> ((((q >> 0) & 1) ^ lay[0][1]) << lay[0][0] |
                           (((q >> 1) & 1) ^ lay[1][1]) << lay[1][0])) & 1) << q for q in range(4))
    return [physical(box[logical(n, in_lay)], out_lay) for n in range(16)]


def table_words(tab):
    return (sum(tab[i] << (4 * i) for i in range(8)), sum(tab[8 + i] << (4 * i) for i in range(8)))


def sbox_xperm(asm, st, lo, hi, m8, t, u):
    with asm.tag("sBoxLayer"):
        _sbox_xperm(asm, st, lo, hi, m8, t, u)


def _sbox_xperm(asm, st, lo, hi, m8, t, u):
    for r in st.regs:
        asm("xor", t, r, m8, note="S-box: entries 8..15 through the second half")
        asm("xperm4", u, lo, r)
        asm("xperm4", t, hi, t)
        asm("or", r, u, t)


def final_moves(isa, lay, extra, bound=8):
    """moves (nibble moves, rev8/brev8 complements) of cost < bound from lay towards LW,
    chosen so that they plus the generic network for the rest cost least"""
    ms = list(nibble_moves(isa).values()) + extra
    from heapq import heappush, heappop
    seen, best = set(), None
    heap, n = [(0, 0, lay, [])], 0
    while heap:
        cost, _, cur, path = heappop(heap)
        if cur in seen:
            continue
        seen.add(cur)
        total = cost + L.network_cost(L.network(cur, L.LW))
        if best is None or total < best[0]:
            best = (total, path)
        if cost >= bound:
            continue
        for m in ms:
            nxt = m.fn(cur)
            if nxt not in seen:
                n += 1
                heappush(heap, (cost + m.cost, n, nxt, path + [m]))
    return best[1]


COMPLEMENT_MOVES = [Move("R", 2, lambda l: L.flip(L.flip(l, 3), 4), both("rev8"), "R"),
                    Move("B", 2, lambda l: L.flip(L.flip(L.flip(l, 0), 1), 2), both("brev8"), "B")]


@functools.lru_cache(maxsize=None)
def nibble_plan(isa):
    """(rounds, entry, final placement, final layout, final moves, round-key layouts, table keys)"""
    rounds, entry = stored_schedule(isa)
    period = len(rounds)
    keys = {(lay[:2], nibble_place(lay, *pl)[:2]) for lay, pl, _ in rounds}
    best = None
    for pl in itertools.product((0, 1), repeat=3):
        lf = L.relabel(nibble_place(rounds[0][0], *pl))
        path = final_moves(isa, lf, COMPLEMENT_MOVES)
        rest = L.network_cost(L.network(_apply(lf, path), L.LW))
        new_table = (rounds[0][0][:2], nibble_place(rounds[0][0], *pl)[:2]) not in keys
        cost = sum(m.cost for m in path) + rest + 4 * new_table
        if best is None or cost < best[0]:
            best = (cost, pl, lf, path)
    _, fin_pl, lf, fin_path = best
    key_lays = [rounds[r % period][0] for r in range(ROUNDS)] + [lf]
    # tables: one per distinct (input layout bits q1 q0, output placement)
    tabs = []
    for lay, pl, _ in rounds + [(rounds[0][0], fin_pl, None)]:
        key = (lay[:2], nibble_place(lay, *pl)[:2])
        if key not in tabs:
            tabs.append(key)
    return rounds, entry, fin_pl, lf, fin_path, key_lays, tabs


def nibble_tables(asm, tabs, regs, m8, inverse):
    """load the xperm4 tables (tabs: keys of nibble_plan, regs: {key: (lo, hi)}) and m8"""
    asm.li(m8, 0x88888888)
    for (lay_bits, out_bits) in tabs:
        lo, hi = regs[(lay_bits, out_bits)]
        inl, outl = (lay_bits + ((2, 0),) * 4), (out_bits + ((2, 0),) * 4)
        tab = nibble_table(inl, outl, SBOX)
        if inverse:
            inv = [0] * 16
            for i, v in enumerate(tab):
                inv[v] = i
            tab = inv
        wl, wh = table_words(tab)
        asm.li(lo, wl, note="xperm4 table, entries 0..7")
        asm.li(hi, wh, note="entries 8..15")


def nibble_encrypt_core(asm, st, name, isa, regs, m8, t, u, kptr="a2", counter="a5"):
    """st (layout LW) <- its encryption, layout LW; tables loaded (nibble_tables)"""
    rounds, entry, fin_pl, lf, fin_path, _, _ = nibble_plan(isa)
    period = len(rounds)
    for m in entry:
        m.emit(asm, st, t, u)
        st.lay = m.fn(st.lay)
    asm("li", counter, (ROUNDS - 1) // period)
    asm.label(f".L{name}_rounds")
    with asm.tag(weight=(ROUNDS - 1) // period):
        for i, (lay, pl, seq) in enumerate(rounds):
            assert st.lay == lay
            asm.comment(f"round {i + 1} + {period}k")
            key_add(asm, st, kptr, 8 * i, t)
            lo, hi = regs[(lay[:2], nibble_place(lay, *pl)[:2])]
            sbox_xperm(asm, st, lo, hi, m8, t, u)
            st.lay = L.relabel(nibble_place(lay, *pl))
            for m in seq:
                m.emit(asm, st, t, u)
                st.lay = m.fn(st.lay)
        asm("addi", kptr, kptr, 8 * period)
        asm("addi", counter, counter, -1)
        asm("bnez", counter, f".L{name}_rounds")
    asm.comment("round 31")
    key_add(asm, st, kptr, 0, t)
    lo, hi = regs[(rounds[0][0][:2], nibble_place(rounds[0][0], *fin_pl)[:2])]
    sbox_xperm(asm, st, lo, hi, m8, t, u)
    st.lay = lf
    key_add(asm, st, kptr, 8, t)
    for m in fin_path:
        m.emit(asm, st, t, u)
        st.lay = m.fn(st.lay)
    emit_network(asm, st, L.LW, t, u)


def emit_nibble_sliced(asm, prefix, isa):
    rounds, entry, fin_pl, lf, fin_path, key_lays, tab_keys = nibble_plan(isa)
    period = len(rounds)
    comp = COMPLEMENT_MOVES
    regs = ["t2", "t3", "t4", "t5", "t6", "a1", "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"]
    need = 2 * len(tab_keys)
    saved = [r for r in regs[:need] if r.startswith("s")]
    tabs = {key: (regs[2 * i], regs[2 * i + 1]) for i, key in enumerate(tab_keys)}
    m8, t, u = "a6", "t0", "t1"

    def table_of(lay, pl, inverse):
        key = (lay[:2], nibble_place(lay, *pl)[:2])
        return tabs[key]

    for direction in ("encrypt", "decrypt"):
        name = f"{prefix}_{direction}"
        inverse = direction == "decrypt"
        func_begin(asm, name)
        save_regs(asm, saved)
        st = State("a3", "a4", L.LW)
        later = [load_block(asm, "a1", st, (t, u), f".L{name}_in")]
        nibble_tables(asm, tab_keys, tabs, m8, inverse)
        if not inverse:
            nibble_encrypt_core(asm, st, name, isa, tabs, m8, t, u)
        else:
            ms = nibble_moves(isa)
            allm = {**ms, **{m.name: m for m in comp}}
            # undo the final moves: the network's inverse, then the moves backwards
            mid = _apply(lf, fin_path)
            emit_network(asm, st, mid, t, u)
            for m in reversed(fin_path):
                inv = allm[m.inverse]
                inv.emit(asm, st, t, u)
                st.lay = inv.fn(st.lay)
            assert st.lay == lf
            asm("addi", "a2", "a2", 8 * (ROUNDS - 1))
            key_add(asm, st, "a2", 8, t)
            asm.comment("round 31")
            lo, hi = table_of(rounds[0][0], fin_pl, True)
            sbox_xperm(asm, st, lo, hi, m8, t, u)
            st.lay = rounds[0][0]
            key_add(asm, st, "a2", 0, t)
            asm("li", "a5", (ROUNDS - 1) // period)
            asm.label(f".L{name}_rounds")
            asm("addi", "a2", "a2", -8 * period)
            for i in reversed(range(period)):
                lay, pl, seq = rounds[i]
                asm.comment(f"round {i + 1} + {period}k")
                for m in reversed(seq):
                    inv = ms[m.inverse]
                    inv.emit(asm, st, t, u)
                    st.lay = inv.fn(st.lay)
                assert st.lay == L.relabel(nibble_place(lay, *pl))
                lo, hi = table_of(lay, pl, True)
                sbox_xperm(asm, st, lo, hi, m8, t, u)
                st.lay = lay
                key_add(asm, st, "a2", 8 * i, t)
            asm("addi", "a5", "a5", -1)
            asm("bnez", "a5", f".L{name}_rounds")
            for m in reversed(entry):
                inv = ms[m.inverse]
                inv.emit(asm, st, t, u)
                st.lay = inv.fn(st.lay)
            assert st.lay == L.LW
        later.append(store_block(asm, "a0", st, t, f".L{name}_out"))
        restore_regs(asm, saved)
        asm("ret")
        for f in later:
            f()
        func_end(asm, name)
    return key_lays, period, rounds, (fin_pl, fin_path)


def _apply(lay, moves):
    for m in moves:
        lay = m.fn(lay)
    return lay


def gen_nibble(isa):
    asm = Asm()
    if isa == "zbkb":
        header(asm, "PRESENT-80/128, nibble-sliced: xperm4 S-box layer, zip/unzip/pack moves",
               "ISA rv32i_zbkb_zbkx (ratified only).")
    else:
        header(asm, "PRESENT-80/128, nibble-sliced: xperm4 S-box layer, shfli/unshfli/pack moves",
               "ISA rv32i_zbkb_zbkx_xzbp: the draft grev/shfl/unshfl of seed 003 (rvsim: xzbp) through ../xzbp.inc.")
        asm.raw('#include "xzbp.inc"')
    key_lays, period, _, _ = emit_nibble_sliced(asm, "present80", isa)
    conv = lambda a, name: emit_convert_loop(a, name, key_lays, period, ("a2", "a3", "t0", "t1", "a4", "a5"))
    emit_keyexp(asm, "present80_keyexp_enc", 80, conv)
    emit_keyexp(asm, "present128_keyexp_enc", 128, None)
    return asm


def main():
    check_circuits()
    outs = {HERE / "rv32i-ct" / "present80_rv32i_ct.S": gen_bitsliced(False),
            HERE / "rv32i" / "present80_rv32i.S": gen_bitsliced(True),
            HERE / "zbkb-zbkx" / "present80_zbkb_zbkx.S": gen_nibble("zbkb"),
            HERE / "xzbp" / "present80_xzbp.S": gen_nibble("xzbp")}
    for path, asm in outs.items():
        path.write_text(asm.text())
    if "--stats" in sys.argv:
        k0, rounds, fin = bs_schedule() if "--search" in sys.argv else stored_bs_schedule()
        print("bitsliced: k0", k0, "final placement", fin)
        for lay, ch in rounds:
            print("  ", lay, ch)
        for isa in ("zbkb", "xzbp"):
            if "--search" in sys.argv:      # slow: minutes for xzbp
                rs, entry = nibble_schedule(isa, 12 if isa == "zbkb" else 8)
                pls = fewest_tables(isa, entry, [seq for _, _, seq in rs])
                print(isa, "SCHEDULES entry:", [m.name for m in entry], "rounds:",
                      [(pl, " ".join(m.name for m in seq)) for pl, (_, _, seq) in zip(pls, rs)])
            else:
                rs, entry = stored_schedule(isa)
                print(isa, "entry", [m.name for m in entry], "period", len(rs), "moves per round:",
                      [[m.name for m in seq] for _, _, seq in rs])


if __name__ == "__main__":
    main()
