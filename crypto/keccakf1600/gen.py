#!/usr/bin/env python3
"""Generator of the Keccak-f[1600] RV32 assembly kernels (rv32i/keccakf1600.S, zbkb/keccakf1600.S).

Usage: python3 gen.py            (rewrites both .S files next to this script)
       python3 gen.py --stats    (prints per-round instruction and rotation counts)

Representation: 25 lanes, lane (x, y) at index x + 5*y, each lane as two 32-bit words
(bit-interleaved): word 2*i holds the even bits, word 2*i+1 the odd bits.  A 64-bit
rotation by r becomes two 32-bit rotations (by r/2 each for even r; for odd r the halves
swap: even' = rot(odd, (r+1)/2), odd' = rot(even, (r-1)/2)).

rv32i additionally stores the eight lanes of P_COMPLEMENT complemented ("lane
complementing", Keccak implementation overview §2.2), which removes most NOTs from chi; the chi formulas for each lane are derived below by exhaustive
search over and/or with optional complemented operands, checked on the full truth table.
The masks are applied/removed by keccakf1600_to_internal/from_internal (keccak_io.c).

Round structure (both ISAs): the column parities C[x] of the state are kept in 10
registers.  One round = compute D[x] from C (10 registers), then for each output plane
y and each half: load the 5 source words (pi), xor D, rotate (rho), chi (+ iota on lane
0), store to the other buffer, and xor the result into the new column parities.  So the
theta parity never re-reads the state.  Two buffers are used (the caller's state and a
200-byte stack buffer), swapping every round; the 24 rounds are a loop of 12 x 2 rounds.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common.asm import Asm, header  # noqa: E402

RHO = [[0, 36, 3, 41, 18], [1, 44, 10, 45, 2], [62, 6, 43, 15, 61],
       [28, 55, 25, 21, 56], [27, 20, 39, 8, 14]]  # RHO[x][y]
# lanes stored complemented on rv32i.  Not the Keccak team's P = {(1,0),(2,0),(3,1),(2,2),
# (2,3),(0,4)} (58 logic instructions per plane set and half): an exhaustive search over all
# 2^25 masks (x 2^5 optional complemented D words) with the chi formula search below finds 56
# as the minimum, reached by this mask (one of 4), saving 4 NOTs per round.
P_COMPLEMENT = [(0, 0), (4, 0), (3, 1), (4, 1), (3, 2), (4, 2), (3, 3), (0, 4)]


def round_constants():
    """the 24 iota constants of FIPS 202 (rc(t) LFSR)"""
    out = []
    R = 1
    def rc_bit():
        nonlocal R
        b = R & 1
        R <<= 1
        if R & 0x100:
            R ^= 0x171
        return b
    for _ in range(24):
        c = 0
        for j in range(7):
            if rc_bit():
                c |= 1 << ((1 << j) - 1)
        out.append(c)
    return out


def interleave(v):
    e = o = 0
    for i in range(32):
        e |= ((v >> (2 * i)) & 1) << i
        o |= ((v >> (2 * i + 1)) & 1) << i
    return e, o


# ---------------------------------------------------------------- complement masks
def masks(complementing):
    M = [[0] * 5 for _ in range(5)]  # M[x][y]
    if complementing:
        for (x, y) in P_COMPLEMENT:
            M[x][y] = 1
    Cm = [M[x][0] ^ M[x][1] ^ M[x][2] ^ M[x][3] ^ M[x][4] for x in range(5)]
    Dm = [Cm[(x - 1) % 5] ^ Cm[(x + 1) % 5] for x in range(5)]
    TM = [[M[x][y] ^ Dm[x] for y in range(5)] for x in range(5)]
    MB = [[TM[(X + 3 * Y) % 5][X] for Y in range(5)] for X in range(5)]  # MB[X][Y]
    return M, MB


def chi_formula(mb0, mb1, mb2, mout):
    """cheapest out = b0 ^ c ^ f(s1 ^ n1, s2 ^ n2), f in (and, or), given that the stored
    values are b_i ^ mb_i and the stored output must be true_out ^ mout.
    Returns (cost, f, n1, n2, c)."""
    best = None
    for f in ("and", "or"):
        for n1 in (0, 1):
            for n2 in (0, 1):
                if n1 and n2:
                    continue
                for c in (0, 1):
                    ok = True
                    for v in range(8):
                        a0, a1, a2 = v & 1, (v >> 1) & 1, (v >> 2) & 1   # true values
                        s0, s1, s2 = a0 ^ mb0, a1 ^ mb1, a2 ^ mb2            # stored values
                        want = a0 ^ ((1 - a1) & a2) ^ mout
                        u, w = s1 ^ n1, s2 ^ n2
                        g = (u & w) if f == "and" else (u | w)
                        if s0 ^ g ^ c != want:
                            ok = False
                            break
                    if ok:
                        cost = 2 + n1 + n2 + c
                        if best is None or cost < best[0]:
                            best = (cost, f, n1, n2, c)
    assert best is not None
    return best


# ---------------------------------------------------------------- registers
CREG = ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9"]      # C[x][h] = CREG[2x+h]
DREG = ["s10", "s11", "a7", "t1", "t2", "t3", "t4", "t5", "t6", "ra"]    # D[x][h] = DREG[2x+h]
BREG = ["a2", "a3", "a4", "a5", "a6"]
T = "t0"
RCP = "a1"
STATE = "a0"
FRAME = 256          # 200-byte second buffer + 13 saved registers, 16-aligned
SAVED = ["ra"] + ["s%d" % i for i in range(12)]


class Gen:
    def __init__(self, zbkb):
        self.zbkb = zbkb
        self.a = Asm({"zbkb"} if zbkb else ())
        self.i, self.raw = self.a, self.a.raw
        self.rot = 0
        self.M, self.MB = masks(not zbkb)

    def rotl(self, r, n, tmp=T, dst=None):
        """dst = rotl(r, n) (dst defaults to r)"""
        dst = dst or r
        n %= 32
        if n == 0:
            if dst != r:
                self.i("mv", dst, r)
            return
        self.rot += 1
        self.a.rotl(dst, r, n, tmp)

    def theta_d(self):
        # D[x].e = C[x-1].e ^ rot(C[x+1].o, 1);  D[x].o = C[x-1].o ^ C[x+1].e
        self.a.comment("theta: D[x] = C[x-1] ^ (C[x+1] <<< 1) from the column parities C (s0..s9)")
        for x in range(5):
            cm, cp = (x - 1) % 5, (x + 1) % 5
            de, do = DREG[2 * x], DREG[2 * x + 1]
            self.rotl(CREG[2 * cp + 1], 1, dst=de)
            self.i("xor", de, de, CREG[2 * cm])
            self.i("xor", do, CREG[2 * cm + 1], CREG[2 * cp])

    def plane_half(self, Y, h, src, dst, rc_off):
        # sources (pi) and rotation amounts (rho), in interleaved form
        srcs = []
        for X in range(5):
            xs, ys = (X + 3 * Y) % 5, X
            r = RHO[xs][ys]
            if r % 2 == 0:
                word, amt = h, r // 2
            elif h == 0:
                word, amt = 1, (r + 1) // 2
            else:
                word, amt = 0, (r - 1) // 2
            srcs.append((xs, ys, word, amt % 32))
        self.a.comment(f"plane y = {Y}, {'odd' if h else 'even'} words: B = rho(pi(A ^ D)), "
                       f"A' = chi(B){' ^ RC (iota)' if Y == 0 else ''}, C ^= A'")
        for X, (xs, ys, word, amt) in enumerate(srcs):
            self.i("lw", BREG[X], "%d(%s)" % (4 * (2 * (xs + 5 * ys) + word), src))
        for X, (xs, ys, word, amt) in enumerate(srcs):
            self.i("xor", BREG[X], BREG[X], DREG[2 * xs + word])
            self.rotl(BREG[X], amt)
        # chi; order 3, 4, 2, (rc load), 1, 0 so that BREG[4] is free for the round constant
        order = [3, 4, 2, 1, 0]
        for X in order:
            if X == 1 and Y == 0:
                self.i("lw", BREG[4], "%d(%s)" % (rc_off + 4 * h, RCP))
            b0, b1, b2 = BREG[X], BREG[(X + 1) % 5], BREG[(X + 2) % 5]
            out = CREG[2 * X + h] if Y == 0 else T
            if self.zbkb:
                self.i("andn", out, b2, b1)
                self.i("xor", out, out, b0)
            else:
                cost, f, n1, n2, c = chi_formula(self.MB[X][Y], self.MB[(X + 1) % 5][Y],
                                                 self.MB[(X + 2) % 5][Y], self.M[X][Y])
                if n1:
                    self.i("not", out, b1)
                    self.i(f, out, out, b2)
                elif n2:
                    self.i("not", out, b2)
                    self.i(f, out, out, b1)
                else:
                    self.i(f, out, b1, b2)
                if c:
                    self.i("not", out, out)
                self.i("xor", out, out, b0)
            if X == 0 and Y == 0:
                self.i("xor", out, out, BREG[4])
            self.i("sw", out, "%d(%s)" % (4 * (2 * (X + 5 * Y) + h), dst))
            if Y != 0:
                self.i("xor", CREG[2 * X + h], CREG[2 * X + h], T)

    def round(self, src, dst, rc_off):
        self.theta_d()
        for Y in range(5):
            for h in (0, 1):
                self.plane_half(Y, h, src, dst, rc_off)

    def permute(self):
        g = self
        g.a.section(".text")
        g.a.begin_function("keccakf1600_permute", doc="(state[50])")
        g.i("addi", "sp", "sp", str(-FRAME))
        for k, r in enumerate(SAVED):
            g.i("sw", r, "%d(sp)" % (200 + 4 * k))
        # column parities of the input state
        tmp = DREG + BREG
        for x in range(5):
            for y in range(5):
                for h in (0, 1):
                    g.i("lw", tmp[2 * y + h], "%d(%s)" % (4 * (2 * (x + 5 * y) + h), STATE))
            for h in (0, 1):
                c = CREG[2 * x + h]
                g.i("xor", c, tmp[h], tmp[2 + h])
                for y in range(2, 5):
                    g.i("xor", c, c, tmp[2 * y + h])
        g.i("la", RCP, "keccakf1600_rc")
        g.a.label("1", "two rounds: state -> stack buffer -> state")
        cnt0 = sum(g.a.count.values())
        rot0 = g.rot
        g.round(STATE, "sp", 0)
        g.stats_round = (sum(g.a.count.values()) - cnt0, g.rot - rot0)
        g.round("sp", STATE, 8)
        g.i("addi", RCP, RCP, "16")
        g.i("la", T, "keccakf1600_rc_end")
        g.i("bne", RCP, T, "1b")
        for k, r in enumerate(SAVED):
            g.i("lw", r, "%d(sp)" % (200 + 4 * k))
        g.i("addi", "sp", "sp", str(FRAME))
        g.i("ret")
        g.a.end_function()
        g.raw("")
        g.a.section(".data")
        g.a.directive(".p2align 2")
        g.a.label("keccakf1600_rc", "iota constants, bit-interleaved (even, odd)")
        g.a.words([w for c in round_constants() for w in interleave(c)], per=2)
        g.a.label("keccakf1600_rc_end")


def kernel_header(zbkb):
    isa = "RV32I + Zbkb (rori, andn)" if zbkb else "RV32I (lane complementing)"
    return header(f"Keccak-f[1600] permutation, bit-interleaved lanes, {isa}.", "../gen.py", [
        "void keccakf1600_permute(uint32_t state[50]);  state in internal form",
        "(see keccak_io.c: keccakf1600_to_internal / keccakf1600_from_internal).",
        f"Stack: {FRAME} bytes (200-byte second state buffer + saved registers)."])


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    for zbkb in (False, True):
        g = Gen(zbkb)
        g.permute()
        name = "zbkb" if zbkb else "rv32i"
        n, rots = g.stats_round
        if "--stats" in sys.argv:
            print("%s: %d instructions per round (loop body/2 incl. nothing else), %d 32-bit "
                  "rotations per round (5 in theta), total rotations per permutation %d"
                  % (name, n, rots, 24 * rots))
            continue
        with open(os.path.join(here, name, "keccakf1600.S"), "w") as f:
            f.write(kernel_header(zbkb))
            f.write(g.a.text())


if __name__ == "__main__":
    main()
