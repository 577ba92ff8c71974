"""Bit layouts of the PRESENT state in two 32-bit registers, and the moves between them.

The 64 state bits have a 6-bit index I (bit I of the state, I5 the most significant index
bit).  A *layout* says where each bit sits: physical index q (q5 = which register, q4..q0 =
bit position in it) is obtained from I by permuting and complementing the six index bits.
It is a tuple of six (label, complement) pairs: physical index bit p holds logical index bit
`label` XOR `complement`.

Why layouts: PRESENT's pLayer sends bit I to 16*I mod 63, i.e. it *rotates the 6-bit index*
by two places (I5..I0 -> I1 I0 I5 I4 I3 I2).  A kernel therefore never has to move bits for
the pLayer: it renames the logical index bits of the layout (`relabel`), and only moves the
few bits the next S-box layer needs in place (a swap of two index bits, a zip/unzip, ...).
The round keys are stored in each round's layout by the key schedule, so the data path never
converts; only the input and output are converted, to and from the layout of lw/sw (LW).
"""
from __future__ import annotations

Layout = tuple  # six (label, complement) pairs, physical index bit 0..5

STD = tuple((i, 0) for i in range(6))   # words as integers: register 0 = bits 31..0, 1 = bits 63..32
# lw of the big-endian block: word 0 = bytes 0..3 = state bits 63..32, and within a word the
# byte order is reversed: q5 = ~I5, (q4, q3) = ~(I4, I3), q2..q0 = I2..I0
LW = ((0, 0), (1, 0), (2, 0), (3, 1), (4, 1), (5, 1))
MASK0 = [0x55555555, 0x33333333, 0x0F0F0F0F, 0x00FF00FF, 0x0000FFFF]  # positions with bit k = 0


def relabel(lay: Layout) -> Layout:
    """the pLayer as a renaming: old index bit L is new index bit (L + 4) mod 6"""
    return tuple(((l + 4) % 6, c) for l, c in lay)


def unrelabel(lay: Layout) -> Layout:
    return tuple(((l + 2) % 6, c) for l, c in lay)


def swap(lay: Layout, a: int, b: int) -> Layout:
    """exchange physical index bits a and b (a delta swap moves the bits, the labels follow)"""
    l = list(lay)
    l[a], l[b] = l[b], l[a]
    return tuple(l)


def flip(lay: Layout, p: int) -> Layout:
    l = list(lay)
    l[p] = (l[p][0], l[p][1] ^ 1)
    return tuple(l)


def where(lay: Layout, label: int) -> int:
    return next(p for p in range(6) if lay[p][0] == label)


def position(lay: Layout, i: int) -> int:
    """physical index (0..63) of logical state bit i"""
    return sum((((i >> l) & 1) ^ c) << p for p, (l, c) in enumerate(lay))


def permute(value: int, src: Layout, dst: Layout) -> int:
    """a 64-bit value (register 1 in the high half) from layout src to layout dst"""
    out = 0
    for i in range(64):
        out |= ((value >> position(src, i)) & 1) << position(dst, i)
    return out


def network(src: Layout, dst: Layout) -> list:
    """moves from src to dst: ('x5', k) swaps q5 and qk across the registers, ('xw', a, b)
    swaps qa and qb inside both registers, ('c', k) complements qk inside both registers,
    ('c', 5) exchanges the registers."""
    cur, ops = src, []
    for p in (5, 4, 3, 2, 1, 0):
        q = where(cur, dst[p][0])
        if q != p:
            ops.append(("x5", q) if p == 5 else ("xw", p, q))
            cur = swap(cur, p, q)
    for p in (5, 4, 3, 2, 1, 0):
        if cur[p][1] != dst[p][1]:
            ops.append(("c", p))
            cur = flip(cur, p)
    assert cur == dst
    return ops


def network_cost(ops) -> int:
    cost = {"x5": 6, "xw": 14, "c": 12}   # instructions, mask loads included
    return sum(0 if op == ("c", 5) else cost[op[0]] for op in ops)
