#!/usr/bin/env python3
"""Generator of the PRESENT-80-CTR kernels, built on ../present80/gen.py:

* rv32i: two counter blocks bitsliced in four registers (gen_ctr2, below);
* zbkb-zbkx: one block at a time through the xperm4 core of present80/zbkb-zbkx.

    python3 gen.py      rewrite rv32i/*.S and zbkb-zbkx/*.S

The counter is kept in the layout the cores start from (LW: the two little-endian words of
the big-endian block), so a block needs no conversion on the way in: rv32i adds 1 to the top
byte of the second word (byte 7 of the block) and takes a slow path, once per 256 blocks,
when that byte carries; with Zbkb the counter is kept as two integers and rev8 puts them in
LW (2 instructions).  The keystream comes out in LW, the layout of lw/sw on the data.
"""
from __future__ import annotations

import itertools
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "present80"))
import gen as P  # noqa: E402
import layout as L  # noqa: E402

# argument copies, live across the block loop
OUT, IN, LEN, CX, CY, RK = "s6", "s7", "s8", "s9", "s10", "s11"


def bswap(asm, d, s, t, m):
    """d = s with its bytes reversed (rv32i); m: scratch, t: scratch"""
    asm("slli", d, s, 24)
    asm("srli", t, s, 24)
    asm("or", d, d, t)
    asm("li", m, 0xFF00)
    asm("srli", t, s, 8)
    asm("and", t, t, m)
    asm("or", d, d, t)
    asm("slli", t, s, 8)
    asm("slli", m, m, 8)
    asm("and", t, t, m)
    asm("or", d, d, t)


def xor_out(asm, st, name):
    """out[0..8) = in[0..8) ^ keystream (st, layout LW), or the tail when fewer than 8 bytes
    are left; advances in/out/len; falls through when len is 0, else back to the block loop"""
    x, y = st.regs
    asm("li", "t0", 8)
    asm("bltu", LEN, "t0", f".L{name}_tail")
    asm("or", "t0", OUT, IN)
    asm("andi", "t0", "t0", 3)
    asm("bnez", "t0", f".L{name}_bytes", c="unaligned in or out: byte by byte")
    asm("lw", "t0", f"0({IN})")
    asm("lw", "t1", f"4({IN})")
    asm("xor", "t0", "t0", x)
    asm("xor", "t1", "t1", y)
    asm("sw", "t0", f"0({OUT})")
    asm("sw", "t1", f"4({OUT})")
    asm.label(f".L{name}_next")
    asm("addi", IN, IN, 8)
    asm("addi", OUT, OUT, 8)
    asm("addi", LEN, LEN, -8)
    asm("bnez", LEN, f".L{name}_block")
    asm("j", f".L{name}_done")
    asm.label(f".L{name}_bytes")
    for r, base in ((x, 0), (y, 4)):
        for i in range(4):
            asm("lbu", "t0", f"{base + i}({IN})")
            asm("xor", "t0", "t0", r)
            asm("sb", "t0", f"{base + i}({OUT})")
            if i < 3:
                asm("srli", r, r, 8)
    asm("j", f".L{name}_next")
    asm.label(f".L{name}_tail")           # 1..7 bytes: x's four bytes, then y's
    asm("li", "t1", 4)
    asm.label(f".L{name}_tail_byte")
    asm("lbu", "t0", f"0({IN})")
    asm("xor", "t0", "t0", x)
    asm("sb", "t0", f"0({OUT})")
    asm("srli", x, x, 8)
    asm("addi", IN, IN, 1)
    asm("addi", OUT, OUT, 1)
    asm("addi", LEN, LEN, -1)
    asm("beqz", LEN, f".L{name}_done")
    asm("addi", "t1", "t1", -1)
    asm("bnez", "t1", f".L{name}_tail_byte")
    asm("mv", x, y)
    asm("j", f".L{name}_tail_byte")


def load_iv(asm, words, ptr, t, big_endian):
    """the 8 iv bytes at ptr (any alignment) as two words: little-endian (LW) or big-endian"""
    for w, r in enumerate(words):
        order = range(4) if big_endian else reversed(range(4))
        first = True
        for i in order:
            asm("lbu", t if not first else r, f"{4 * w + i}({ptr})")
            if not first:
                asm("slli", r, r, 8)
                asm("or", r, r, t)
            first = False


def gen_ctr_nibble():
    """zbkb-zbkx: one block at a time through the xperm4 core of present80/zbkb-zbkx"""
    asm = P.Asm()
    name = "present80ctr_xor"
    P.header(asm, "PRESENT-80-CTR, the nibble-sliced xperm4 core of present80/zbkb-zbkx in a counter loop",
             "ISA rv32i_zbkb_zbkx.  Constant time: xperm4 tables in registers, no secret branch or address.")
    rounds, entry, fin_pl, lf, fin_path, key_lays, tab_keys = P.nibble_plan("zbkb")
    period = len(rounds)
    treg = ["t2", "t3", "t4", "t5", "t6", "a0", "a1", "a7", "s0", "s1", "s2", "s3", "s4", "s5"]
    tabs = {k: (treg[2 * i], treg[2 * i + 1]) for i, k in enumerate(tab_keys)}
    saved = [r for r in treg[:2 * len(tab_keys)] if r.startswith("s")] + [OUT, IN, LEN, CX, CY, RK]
    P.func_begin(asm, name)
    P.save_regs(asm, saved)
    for r, a in ((OUT, "a0"), (IN, "a1"), (LEN, "a2"), (RK, "a4")):
        asm("mv", r, a)
    load_iv(asm, (CX, CY), "a3", "t0", big_endian=True)
    P.nibble_tables(asm, tab_keys, tabs, "a6", False)
    asm("beqz", LEN, f".L{name}_done")
    asm.label(f".L{name}_block")
    st = P.State("a3", "a4", L.LW)
    asm("rev8", "a3", CX, c="counter block (two integers) into layout LW")
    asm("rev8", "a4", CY)
    asm("mv", "a2", RK)
    P.nibble_encrypt_core(asm, st, name, "zbkb", tabs, "a6", "t0", "t1")
    asm("addi", CY, CY, 1, c="counter + 1")
    asm("seqz", "t0", CY)
    asm("add", CX, CX, "t0")
    xor_out(asm, st, name)
    asm.label(f".L{name}_done")
    P.restore_regs(asm, saved)
    asm("ret")
    P.func_end(asm, name)
    # the key schedule: present80's, with the layouts of this core
    conv = lambda a, nm: P.emit_convert_loop(a, nm, key_lays, period, ("a2", "a3", "t0", "t1", "a4", "a5"))
    P.emit_keyexp(asm, "present80ctr_keyexp", 80, conv, shared_label=".Lpresent80ctr_keys_to_layouts")
    return asm


# ---------------------------------------------------------------- two blocks bitsliced (rv32i)
# Two counter blocks in four registers R0..R3: a 7-bit physical index, q6 q5 = register
# number (R[q5 + 2 q6]), q4..q0 = bit position; logical label 6 is the block number.  The two
# nibble index bits sit at q5 and q6, so the four S-box inputs are whole registers: no slicing
# and packing as in the one-block kernel; per round two cross-register delta swaps (q6 and q5
# with the next nibble index bits, 12 instructions each for the two register pairs).
START2 = L.LW + ((6, 0),)          # R0, R1 = block 0 as lw loads it, R2, R3 = block 1
STD2 = L.STD + ((6, 0),)           # a round key as two integers, duplicated for both blocks
PAIRS = {5: ((0, 1), (2, 3)), 6: ((0, 2), (1, 3))}


def relabel2(lay):
    return tuple(((l + 4) % 6, c) if l < 6 else (l, c) for l, c in lay)


def place2(lay, first, c5, c6):
    out = list(lay)
    out[5], out[6] = (first, c5), (1 - first, c6)
    return tuple(out)


def moves2(lay, lab6):
    """after relabel2: label lab6 to q6, the other nibble label to q5"""
    lay = L.swap(lay, 6, L.where(lay, lab6))
    return L.swap(lay, 5, L.where(lay, 1 - lab6))


def network2(src, dst):
    cur, ops = src, []
    for p in (6, 5, 4, 3, 2, 1, 0):
        q = L.where(cur, dst[p][0])
        if q != p:
            ops.append(("r56",) if (p, q) == (6, 5) else ("x", p, q) if p >= 5 else ("xw", p, q))
            cur = L.swap(cur, p, q)
    for p in (6, 5, 4, 3, 2, 1, 0):
        if cur[p][1] != dst[p][1]:
            ops.append(("c", p))
            cur = L.flip(cur, p)
    assert cur == dst
    return ops


def network2_cost(ops):
    return sum({"r56": 0, "x": 14, "xw": 26, "c": 22}[op[0]] if not (op[0] == "c" and op[1] >= 5) else 0
               for op in ops)


class State2:
    def __init__(self, regs, lay):
        self.regs, self.lay = list(regs), lay


def cross2(asm, st, hb, k, t, mask):
    """exchange q_hb (5 or 6) with q_k in both register pairs"""
    d = 1 << k
    with asm.part("pLayer"):
        for lo, hi in PAIRS[hb]:
            x, y = st.regs[lo], st.regs[hi]
            asm("srli", t, x, d, c=f"swap q{hb} <-> q{k}")
            asm("xor", t, t, y)
            asm("and", t, t, mask)
            asm("xor", y, y, t)
            asm("slli", t, t, d)
            asm("xor", x, x, t)
    st.lay = L.swap(st.lay, hb, k)


def emit_network2(asm, st, dst, t, m):
    r = st.regs
    for op in network2(st.lay, dst):
        if op == ("r56",):
            st.regs = [r[0], r[2], r[1], r[3]]
            st.lay = L.swap(st.lay, 5, 6)
        elif op[0] == "x":
            asm.li(m, L.MASK0[op[2]])
            cross2(asm, st, op[1], op[2], t, m)
        elif op[0] == "xw":
            P.within_swap(asm, st, op[1], op[2], t, m)
        elif op[0] == "c" and op[1] >= 5:
            st.regs = [r[1], r[0], r[3], r[2]] if op[1] == 5 else [r[2], r[3], r[0], r[1]]
            st.lay = L.flip(st.lay, op[1])
        else:
            P.within_complement(asm, st, op[1], t, m)
        r = st.regs
    assert st.lay == dst


def schedule2():
    """entry (lab6 of the first moves), the period-6 rounds [(layout, placement, lab6)], the
    placement of round 31: breadth first, one path per layout and depth; the cheapest final
    conversion back to START2"""
    best = None
    for e6 in (0, 1):
        start = moves2(START2, e6)
        front = {start: []}
        for _ in range(6):
            nxt = {}
            for lay, path in front.items():
                for pl in itertools.product((0, 1), repeat=3):
                    for lab6 in (0, 1):
                        nl = moves2(relabel2(place2(lay, *pl)), lab6)
                        nxt.setdefault(nl, path + [(lay, pl, lab6)])
            front = nxt
        if start not in front:
            continue
        for fin in itertools.product((0, 1), repeat=3):
            lf = relabel2(place2(start, *fin))
            cost = network2_cost(network2(lf, START2))
            if best is None or cost < best[0]:
                best = (cost, e6, front[start], fin)
    return best[1:]


def stored_schedule2():
    e6, path, fin = schedule2()
    plan = [(pl, lab6) for _, pl, lab6 in path]
    lay = start = moves2(START2, e6)
    rounds = []
    for pl, lab6 in plan:
        rounds.append((lay, pl, lab6))
        lay = moves2(relabel2(place2(lay, *pl)), lab6)
    assert lay == start
    return e6, rounds, fin


def parallel_move(asm, src, dst, t):
    """registers dst[i] <- src[i] at once (t: scratch)"""
    moves = {d: s for s, d in zip(src, dst) if s != d}
    while moves:
        ready = [d for d in moves if d not in moves.values()]
        if ready:
            d = ready[0]
            asm("mv", d, moves.pop(d))
        else:                                   # a cycle: break it through t
            d, s = next(iter(moves.items()))
            asm("mv", t, d)
            moves = {k: (t if v == d else v) for k, v in moves.items()}


def gen_ctr2():
    asm = P.Asm()
    name = "present80ctr_xor"
    P.header(asm, "PRESENT-80-CTR, two blocks bitsliced in four registers, RV32I, constant time",
             "ISA rv32i.  No table; branches only on lengths, alignment and the public counter.")
    e6, rounds, fin = stored_schedule2()
    period = len(rounds)
    fwd = P.parse_circuit(P.SBOX_CIRCUIT)
    ks = sorted({L.where(relabel2(place2(lay, *pl)), v) for lay, pl, lab6 in rounds for v in (0, 1)} |
                {L.where(START2, v) for v in (0, 1)})
    masks = {k: f"s{i}" for i, k in enumerate(ks)}
    state0 = ["a3", "a4", "a5", "a6"]
    alloc = ["t1", "t2", "t3", "t4", "t5", "t6", "a0", "a1", "a3", "a4", "a5", "a6"]
    kptr, counter, t = "a2", "a7", "t0"
    saved = list(masks.values()) + [OUT, IN, LEN, CX, CY, RK]
    P.func_begin(asm, name)
    P.save_regs(asm, saved)
    asm("addi", "sp", "sp", -16)
    for r, a in ((OUT, "a0"), (IN, "a1"), (LEN, "a2"), (RK, "a4")):
        asm("mv", r, a)
    load_iv(asm, (CX, CY), "a3", "t0", big_endian=False)
    for k, r in masks.items():
        asm.li(r, L.MASK0[k])
    asm("beqz", LEN, f".L{name}_done")
    asm.label(f".L{name}_block")
    st = State2(state0, START2)
    for i, (rx, ry) in enumerate(((state0[0], state0[1]), (state0[2], state0[3]))):
        asm("mv", rx, CX, c=f"counter block {i}, layout LW")
        asm("mv", ry, CY)
        increment(asm, name, i)
    asm("mv", kptr, RK)
    with asm.part("pLayer"):
        cross2(asm, st, 6, L.where(st.lay, e6), t, masks[L.where(st.lay, e6)])
        cross2(asm, st, 5, L.where(st.lay, 1 - e6), t, masks[L.where(st.lay, 1 - e6)])
    asm("li", counter, (P.ROUNDS - 1) // period)
    asm.label(f".L{name}_rounds")

    def one_round(lay, pl, key_off, lab6=None):
        assert st.lay == lay
        key_add4(asm, st, kptr, key_off, (t, [r for r in alloc if r not in st.regs][0]))
        (la, ca), (lb, cb) = lay[5], lay[6]
        inputs = {f"x{b}": st.regs[(P.bit(b, la) ^ ca) + 2 * (P.bit(b, lb) ^ cb)] for b in range(4)}
        out = place2(lay, *pl)
        (la, ca), (lb, cb) = out[5], out[6]
        slot = {b: (P.bit(b, la) ^ ca) + 2 * (P.bit(b, lb) ^ cb) for b in range(4)}
        pool = [r for r in alloc if r not in st.regs]
        with asm.part("sBoxLayer"):
            ys = P.emit_circuit(asm, fwd, inputs, pool, reusable=tuple(st.regs),
                                prefer={f"y{b}": st.regs[slot[b]] for b in range(4)})
        regs = [None] * 4
        for b in range(4):
            regs[slot[b]] = ys[f"y{b}"]
        st.regs = regs
        st.lay = relabel2(out)
        if lab6 is not None:
            k6 = L.where(st.lay, lab6)
            cross2(asm, st, 6, k6, t, masks[k6])
            k5 = L.where(st.lay, 1 - lab6)
            cross2(asm, st, 5, k5, t, masks[k5])

    with asm.part(weight=(P.ROUNDS - 1) // period):
        for i, (lay, pl, lab6) in enumerate(rounds):
            asm.comment(f"round {i + 1} + {period}k")
            one_round(lay, pl, 16 * i, lab6)
        parallel_move(asm, st.regs, state0, t)
        st.regs = list(state0)
        asm("addi", kptr, kptr, 16 * period)
        asm("addi", counter, counter, -1)
        asm("bnez", counter, f".L{name}_rounds")
    asm.comment("round 31")
    one_round(rounds[0][0], fin, 0)
    key_add4(asm, st, kptr, 16, (t, [r for r in alloc if r not in st.regs][0]))
    free = [r for r in alloc if r not in st.regs]
    with asm.part("pLayer"):
        emit_network2(asm, st, START2, t, free[0])
    xor_out2(asm, st, name)
    for i in range(2):
        asm.label(f".L{name}_carry{i}")
        with asm.part(weight=0):
            carry(asm)
            asm("j", f".L{name}_counted{i}")
    asm.label(f".L{name}_done")
    asm("addi", "sp", "sp", 16)
    P.restore_regs(asm, saved)
    asm("ret")
    P.func_end(asm, name)

    key_lays = [rounds[r % period][0] for r in range(P.ROUNDS)] + [relabel2(place2(rounds[0][0], *fin))]
    conv = lambda a, nm: emit_convert2(a, nm, key_lays, period)
    P.emit_keyexp(asm, "present80ctr_keyexp", 80, conv, complement_hi=True,
                  shared_label=".Lpresent80ctr_keys_to_layouts", std_offset=256)
    return asm


def key_add4(asm, st, kptr, off, temps):
    """the four round-key words, each load two instructions ahead of its xor (no E31 stall)"""
    t, u = temps
    r = st.regs
    with asm.part("addRoundKey"):
        asm("lw", t, f"{off}({kptr})", c="add round key")
        asm("lw", u, f"{off + 4}({kptr})")
        asm("xor", r[0], r[0], t)
        asm("lw", t, f"{off + 8}({kptr})")
        asm("xor", r[1], r[1], u)
        asm("lw", u, f"{off + 12}({kptr})")
        asm("xor", r[2], r[2], t)
        asm("xor", r[3], r[3], u)


def increment(asm, name, i):
    """counter (CX, CY, layout LW) + 1: byte 7 of the block is the top byte of CY"""
    asm("srli", "t0", CY, 24, c="counter + 1")
    asm("addi", "t0", "t0", -255)
    asm("beqz", "t0", f".L{name}_carry{i}")
    asm("li", "t0", 1 << 24)
    asm("add", CY, CY, "t0")
    asm.label(f".L{name}_counted{i}")


def carry(asm):
    """byte 7 carries: the 64-bit increment through integers (once per 256 blocks)"""
    bswap(asm, "t2", CY, "t0", "t1")
    bswap(asm, "t3", CX, "t0", "t1")
    asm("addi", "t2", "t2", 1)
    asm("seqz", "t0", "t2")
    asm("add", "t3", "t3", "t0")
    bswap(asm, CY, "t2", "t0", "t1")
    bswap(asm, CX, "t3", "t0", "t1")


def xor_out2(asm, st, name):
    """16 bytes of out = in ^ the two keystream blocks (st, START2), or the 1..15-byte tail
    through a stack copy of the keystream"""
    r = st.regs
    asm("li", "t0", 16)
    asm("bltu", LEN, "t0", f".L{name}_tail")
    asm("or", "t0", OUT, IN)
    asm("andi", "t0", "t0", 3)
    asm("bnez", "t0", f".L{name}_bytes", c="unaligned in or out: byte by byte")
    for i, x in enumerate(r):
        asm("lw", "t0", f"{4 * i}({IN})")
        asm("xor", "t0", "t0", x)
        asm("sw", "t0", f"{4 * i}({OUT})")
    asm.label(f".L{name}_next")
    asm("addi", IN, IN, 16)
    asm("addi", OUT, OUT, 16)
    asm("addi", LEN, LEN, -16)
    asm("bnez", LEN, f".L{name}_block")
    asm("j", f".L{name}_done")
    with asm.part(weight=0):
        asm.label(f".L{name}_bytes")
        for w, x in enumerate(r):
            for i in range(4):
                asm("lbu", "t0", f"{4 * w + i}({IN})")
                asm("xor", "t0", "t0", x)
                asm("sb", "t0", f"{4 * w + i}({OUT})")
                if i < 3:
                    asm("srli", x, x, 8)
        asm("j", f".L{name}_next")
        asm.label(f".L{name}_tail")
        for i, x in enumerate(r):
            asm("sw", x, f"{4 * i}(sp)")
        asm("mv", "t1", "sp")
        asm.label(f".L{name}_tail_byte")
        asm("lbu", "t0", f"0({IN})")
        asm("lbu", "t2", "0(t1)")
        asm("xor", "t0", "t0", "t2")
        asm("sb", "t0", f"0({OUT})")
        asm("addi", IN, IN, 1)
        asm("addi", OUT, OUT, 1)
        asm("addi", "t1", "t1", 1)
        asm("addi", LEN, LEN, -1)
        asm("bnez", LEN, f".L{name}_tail_byte")
        asm("j", f".L{name}_done")


def emit_convert2(asm, name, key_lays, period):
    """standard round keys at rk + 256 (two words each) -> rk[4r..4r+3] in key_lays[r]; forward
    order is safe: round r's four words overlap only standard keys already converted"""
    p, n, t, m = "a5", "a6", "t0", "t1"
    regs = ["a1", "a2", "a3", "a4"]

    def one(r, src_off, dst_off):
        asm("lw", regs[0], f"{src_off}({p})", c=f"round key {r + 1}" if r >= 30 else f"round key {r + 1} + {period}k")
        asm("lw", regs[1], f"{src_off + 4}({p})")
        asm("mv", regs[2], regs[0])
        asm("mv", regs[3], regs[1])
        st = State2(regs, STD2)
        emit_network2(asm, st, key_lays[r], t, m)
        for i, x in enumerate(st.regs):
            asm("sw", x, f"{dst_off + 4 * i}(a0)")

    asm("addi", p, "a0", 256)
    asm("li", n, 30 // period)
    asm.label(f".L{name}_convert")
    for i in range(period):
        one(i, 8 * i, 16 * i)
    asm("addi", p, p, 8 * period)
    asm("addi", "a0", "a0", 16 * period)
    asm("addi", n, n, -1)
    asm("bnez", n, f".L{name}_convert")
    one(30, 0, 0)
    one(31, 8, 16)


def main():
    (HERE / "rv32i" / "present80ctr_rv32i.S").write_text(gen_ctr2().text())
    (HERE / "zbkb-zbkx" / "present80ctr_zbkb_zbkx.S").write_text(gen_ctr_nibble().text())


if __name__ == "__main__":
    main()
