#!/usr/bin/env python3
"""Camellia's S-boxes as one word-level circuit for the constant-time kernel (rv32i-ct), its
model of F, and their exhaustive checks.

The algebra (found and checked here, not taken from anywhere): Camellia's SBOX1 is affine
equivalent to inversion in the AES field GF(2)[y]/(0x11b):
    s1(x) = LOUT * inv_aes(LIN * (x ^ 0xc5)) ^ 0x6e
with LIN, LOUT linear maps of GF(2)^8 (`decompose` finds them: s1(0xc5) = 0x6e is where the
inversion sees 0, and the linear-equivalence propagation of Biryukov et al. -- guess LIN on two
points, extend LIN and LOUT by linearity through inv and s1, keep what is consistent -- fixes
the rest; LIN(1) = 1 removes the constant-factor freedom). As in SM4's ctsbox.py, inv(u) =
C * inv(C * u) for any C != 0, so the top layer may be C * LIN and the bottom LOUT * C; the
middle is the Boyar-Matthews-Peralta AES circuit's (32 AND + 30 XOR, with SM4's 4 masks at the
GF(2^4) bottleneck: crypto/common/sboxcircuit.py MIDDLE_GATES).

Word layout: EIGHT S-boxes in one circuit, a nibble lane per S-box. F's input is two words
a = x1 x2 x3 x4 and b = x5 x6 x7 x8 (big-endian); one swapmove (t = ((a >> 4) ^ b) & 0x0f0f0f0f,
b ^= t, a ^= t << 4) makes v = a hold bits 0..3 of all eight bytes and v' = b bits 4..7, byte k
of a in nibble 2k, byte k of b in nibble 2k + 1. Signals live at bit 0 of each nibble; bit j of
a nibble of v is U_j (input bit j), of v' U_{4+j}, so `w >> k` moves every term U_b of w to
U_{b+k}: valid while no term leaves its half (degree + k <= 3 in each of the two halves), and
xor is always valid -- TOP is a shift-XOR program over 8-bit masks (low nibble: the v part,
high nibble: the v' part), bits above bit 0 of a nibble are garbage and never reach bit 0. The
garbage is removed at the GF(2^4) inversion's four inputs (AND 0x11111111); the 18 products Z
are then clean, and BOTTOM builds the output's low nibbles (bits 0..3 of each S-box output)
and high nibbles (bits 4..7) as two clean words with left shifts (Horner) from the eight
output bit planes, an XOR program over the Z's. The same swapmove turns (low, high) back into
two words of bytes u1 u2 u3 u4 and u5 u6 u7 u8.

SBOX2 = s1 <<< 1, SBOX3 = s1 >>> 1, SBOX4 = s1(x <<< 1) are byte rotations around the one
circuit (f_kernel): the circuit is lane-uniform, so the bytes may sit in any lanes, and one byte
swapmove (swapmove_bytes) turns x1 x2 x3 x4 | x5 x6 x7 x8 into x1 x7 x8 x4 | x5 x6 x2 x3: the
two SBOX4 inputs x7, x4 in the alternate lanes 2, 0 of one word (rotated left together, 7
instructions; their constant 0xc5 becomes 0xc5 >>> 1 in the folded key), and the outputs come
out as u1 u7 u8 u4 | u5 u6 u2 u3, the second word holding exactly the four to rotate (u5, u2
left, u6, u3 right: 11 instructions); the same swapmove restores the order for P. The input
constant goes into the round keys (FOLD, per byte); leaving the output constant D out changes F
by the constant DELTA (P is linear), which ctkernel.py folds into the keys as well.

Run: python3 ctcircuit.py      (checks the circuit on all 256 inputs in each of the 8 lanes and
                                the model of F against ref.f)
"""
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))
import ref  # noqa: E402
from common.gf256 import inverse  # noqa: E402
# the generic machinery (byte maps, BMP's circuit in three with the 4 masks, the program searches,
# the transpose): shared with SM4's and SEED's circuits
from common.sboxcircuit import (MIDDLE_GATES, ZS, apply, bottom_rows, bottom_targets, compose,  # noqa: E402,F401
                                eval_gates as run_gates, lane_shift, mul_map, shift_xor_program, top_rows,
                                transpose, xor_program)

X0 = 0xc5                   # s1(X0) = D: where the inversion's input is 0
D = ref.SBOX1[X0]
assert D == 0x6e
MASK = 0x11111111           # bit 0 of each nibble
M32 = 0xffffffff
INV = [inverse(u) if u else 0 for u in range(256)]


# ---------------------------------------------------------------- the affine equivalence
def decompose():
    """(LIN, LOUT) as column lists: s1(x) = LOUT inv(LIN (x ^ X0)) ^ D, LIN(1) = 1"""
    g = [ref.SBOX1[y ^ X0] ^ D for y in range(256)]
    ginv = [0] * 256
    for y in range(256):
        ginv[g[y]] = y

    def add(mp, y, m):                     # extend a linear map known on a subspace
        if y in mp:
            return mp[y] == m
        new = {yy ^ y: mm ^ m for yy, mm in mp.items()}
        if any(k in mp and mp[k] != v for k, v in new.items()):
            return False
        mp.update(new)
        return True

    for guess in range(2, 256):
        lin, lout = {0: 0}, {0: 0}
        ok = add(lin, 1, 1) and add(lin, 2, guess)
        grown = ok
        while ok and grown:
            grown = False
            for y, m in list(lin.items()):         # lout(inv(lin y)) = g(y)
                if lout.get(INV[m]) != g[y]:
                    ok = INV[m] not in lout and add(lout, INV[m], g[y])
                    grown = True
                    if not ok:
                        break
            for z, w in list(lout.items()) if ok else []:   # lin(g^-1(lout z)) = inv(z)
                if lin.get(ginv[w]) != INV[z]:
                    ok = ginv[w] not in lin and add(lin, ginv[w], INV[z])
                    grown = True
                    if not ok:
                        break
        if ok and len(lin) == 256 and len(lout) == 256:
            assert all(lout[INV[lin[y]]] == g[y] for y in range(256))
            return [lin[1 << i] for i in range(8)], [lout[1 << i] for i in range(8)]
    raise AssertionError("SBOX1 is not affine equivalent to inversion?")


LIN, LOUT = decompose()
assert all(apply(LOUT, INV[apply(LIN, x ^ X0)]) ^ D == ref.SBOX1[x] for x in range(256))


def linear_layers(c):
    """TOP {Y: mask over the input bits of x ^ X0}, BOTTOM [mask over the Z's] per output bit"""
    mulc = mul_map(c)
    return top_rows(compose(mulc, LIN)), bottom_rows(compose(LOUT, mulc))


# ---------------------------------------------------------------- TOP and BOTTOM programs
# TOP: a shift-XOR program from v = 0x01 and v' = 0x10 (common/sboxcircuit.py shift_xor_program,
# two nibble lanes); BOTTOM: the transpose of one for the Z's polynomials (LOW from the root
# 0x01, HIGH from 0x10), or Paar's XOR program plus a Horner recombination of the 8 bit planes.
def nib_shift(s, k):
    """the mask of `w >> k` for a signal w of mask s, or None if a term would leave its half"""
    return lane_shift(s, k, 4)


def _greedy(targets, rng):
    return shift_xor_program(targets, rng, starts=(0x01, 0x10), width=4)


def _transpose(prog, targets):
    return transpose(prog, targets, {0x01: "LOW", 0x10: "HIGH"})[0]


def programs(c, tries=40, seed=1):
    top, bottom = linear_layers(c)
    rng = random.Random(seed)
    best_t = min((_greedy(top.values(), rng) for _ in range(tries)), key=len)
    best_b = min((xor_program(bottom, 18, rng) for _ in range(tries)), key=lambda p: len(p[0]))
    tt = bottom_targets(bottom)
    best_tb = min((_transpose(_greedy(tt, rng), tt) for _ in range(tries)), key=len)
    return top, bottom, best_t, best_b, best_tb


C = 0x08                    # the constant factor (`--search` compares the 255)
TOP_ROWS, BOTTOM_ROWS, TOP_PROG, (BOTTOM_PROG, BOTTOM_OUT), BOTTOM_T = programs(C)


# ---------------------------------------------------------------- the circuit as gates
def gates():
    """The whole circuit (v, v' -> low, high) as gates (dst, op, a, b) on named words:
    op in ^ & >> <<; inputs `v`, `vh`, `MASK`; outputs `LOW`, `HIGH`"""
    out = []
    name = {0x01: "v", 0x10: "vh"}
    k = 0
    for res, op, a, b in TOP_PROG:
        ys = [s for s, m in TOP_ROWS.items() if m == res and s not in name.values()]
        if res in name:
            continue
        k += 1
        name[res] = ys[0] if ys else f"T{k}"
        out.append((name[res], op, name[a], b if op == ">>" else name[b]))
    # a Y whose row equals another's (or an input's) is that signal: renamed in the middle
    alias = {s: name[m] for s, m in TOP_ROWS.items() if s not in name.values()}
    out += [(d, op, alias.get(a, a), alias.get(b, b)) for d, op, a, b in MIDDLE_GATES]
    if len(BOTTOM_T) <= len(BOTTOM_PROG) + 12:       # the transposed shift-XOR program
        return out + BOTTOM_T
    zname = {i: z for i, z in enumerate(ZS)}
    for new, a, b in BOTTOM_PROG:
        zname[new] = f"B{new}"
        out.append((zname[new], "^", zname[a], zname[b]))
    o = [zname[i] for i in BOTTOM_OUT]
    for half, bits in (("LOW", o[:4]), ("HIGH", o[4:])):
        acc = bits[3]
        for j in (2, 1, 0):
            out.append((f"{half}s{j}", "<<", acc, 1))
            out.append((f"{half}{j}" if j else half, "^", f"{half}s{j}", bits[j]))
            acc = f"{half}{j}" if j else half
    return out


GATES = gates()


def eval_gates(v, vh, gs=None):
    w = run_gates(gs or GATES, {"v": v, "vh": vh, "MASK": MASK})
    return w["LOW"], w["HIGH"]


def swapmove(a, b, n=4, mask=0x0f0f0f0f):
    """the bits of a at mask << n <-> the bits of b at mask (default: high nibbles of a, low of b)"""
    t = ((a >> n) ^ b) & mask
    return a ^ ((t << n) & M32), b ^ t


def sbox_words(a, b, gs=None):
    """the circuit on two words of bytes (each byte x ^ X0): s1(x) ^ D in every byte"""
    v, vh = swapmove(a, b)
    low, high = eval_gates(v, vh, gs)
    return swapmove(low, high)


def check(gs=None):
    """all 256 inputs in each of the 8 lanes, the other lanes varying, against SBOX1"""
    for x in range(256):
        for r in range(8):
            lanes = [(x * 7 + 13 * r + 1) & 255, (x * 29 + 11 * r) & 255, (x ^ 0x5a) * (r + 1) & 255,
                     (x * 3 + r) & 255, (x * 101 + 5) & 255, ((x >> 1) ^ (r * 37)) & 255, (x * 53 + r) & 255]
            lanes.insert(r, x)
            a = int.from_bytes(bytes(lanes[:4]), "big")
            b = int.from_bytes(bytes(lanes[4:]), "big")
            xa, xb = sbox_words(a ^ X0 * 0x01010101, b ^ X0 * 0x01010101, gs)
            got = xa.to_bytes(4, "big") + xb.to_bytes(4, "big")
            assert got == bytes(ref.SBOX1[v] ^ D for v in lanes), (x, r)
    return True


# ---------------------------------------------------------------- F as the kernel computes it
# folded into the round keys: X0 in every byte, X0 >>> 1 in x4 and x7 (rotated before the circuit)
FOLD = (int.from_bytes(bytes([X0, X0, X0, ref.rotl8(X0, 7)]), "big"),
        int.from_bytes(bytes([X0, X0, ref.rotl8(X0, 7), X0]), "big"))
DW = D * 0x01010101


def p_words(A, B):
    """RFC 3713's P on A = t1 t2 t3 t4, B = t5 t6 t7 t8 (table-small's three rotations):
    (y1..y4, y5..y8)"""
    def z(w, n):
        return ((w << 8 * n) | (w >> (32 - 8 * n))) & M32
    V = A ^ z(B, 2)
    T = V ^ B
    Y = V ^ z(T, 1)
    return T ^ z(Y, 2), Y


def swapmove_bytes(a, b):
    """bytes 1, 2 of a (counting from the least significant) <-> bytes 0, 1 of b: from
    x1 x2 x3 x4 | x5 x6 x7 x8 to x1 x7 x8 x4 | x5 x6 x2 x3 (and back: an involution)"""
    return swapmove(a, b, 8, 0x0000ffff)


def rot_lanes(w, mask, left):
    """the byte lanes of mask (0x00ff00ff or 0xff00ff00: no two adjacent) rotated by one within
    their byte, the others cleared: (e << 1 | e >> 7) & mask with e = w & mask"""
    e = w & mask
    r = (e << 1 | e >> 7) if left else (e >> 1 | e << 7)
    return r & mask


def f_kernel(h, l, kh, kl, d=True):
    """F(h || l, k) with the folded key words (kh, kl) = k ^ FOLD: the kernel's data flow.
    The S-box lanes are lane-uniform, so the bytes may be anywhere: one byte swapmove puts the
    two SBOX4 inputs x7, x4 in the alternate lanes 2, 0 of one word (rotated together) and
    brings the S-box outputs out as u1 u7 u8 u4 | u5 u6 u2 u3, whose second word is exactly the
    four outputs to rotate (u5, u2 left, u6, u3 right); the same swapmove restores the order
    for P."""
    a, b = swapmove_bytes(h ^ kh, l ^ kl)                 # x1 x7 x8 x4 | x5 x6 x2 x3
    a = (a & 0xff00ff00) | rot_lanes(a, 0x00ff00ff, True)  # x7, x4 <<< 1 (SBOX4)
    ua, ub = sbox_words(a, b)
    if d:                                                 # the kernels leave D out: DELTA
        ua ^= DW
        ub ^= DW
    ub = rot_lanes(ub, 0xff00ff00, True) | rot_lanes(ub, 0x00ff00ff, False)  # u5, u2 <<< 1; u6, u3 >>> 1
    A, B = swapmove_bytes(ua, ub)                         # t1 t2 t3 t4 | t5 t6 t7 t8
    return p_words(A, B)


def _delta():
    """what leaving D out of the S-box outputs does to F: a constant (P is linear), checked"""
    rng = random.Random(3)
    ds = set()
    for _ in range(20):
        args = [rng.getrandbits(32) for _ in range(4)]
        with_d, without = f_kernel(*args), f_kernel(*args, d=False)
        ds.add((with_d[0] ^ without[0], with_d[1] ^ without[1]))
    assert len(ds) == 1
    return ds.pop()


DELTA = _delta()


def check_f(n=2000, seed=5):
    rng = random.Random(seed)
    for _ in range(n):
        x, k = rng.getrandbits(64), rng.getrandbits(64)
        yh, yl = f_kernel(x >> 32, x & M32, (k >> 32) ^ FOLD[0], (k & M32) ^ FOLD[1])
        assert (yh << 32 | yl) == ref.f(x, k)
    return True


def counts():
    return {"top": len(TOP_PROG), "middle": len(MIDDLE_GATES),
            "bottom": min(len(BOTTOM_T), len(BOTTOM_PROG) + 12), "total": len(GATES),
            "and": sum(g[1] == "&" for g in GATES)}


def search(tries=20):
    """every constant factor C: the greedy programs' lengths (top, bottom: transposed
    shift-XOR program, or XOR program + 12 for the recombination)"""
    res = []
    for c in range(1, 256):
        _, _, tp, (bp, _), tb = programs(c, tries)
        nb = min(len(tb), len(bp) + 12)
        res.append((len(tp) + nb, len(tp), nb, c))
        print(f"C = 0x{c:02x}: top {len(tp)}, bottom {nb}", flush=True)
    print("best:", sorted(res)[:5])


if __name__ == "__main__":
    if "--search" in sys.argv:
        search()
    else:
        check()
        check_f()
        print("Camellia S-box circuit = SBOX1 on all 256 inputs in each of 8 lanes; F model = ref.f;", counts())
