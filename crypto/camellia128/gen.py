#!/usr/bin/env python3
"""Writes the Camellia-128 kernels (RV32 assembly; the four table ones fully unrolled) of six
implementations:

  table/camellia128_table.S         four 8->32 SP tables (4 KiB, DTIM): F = 8 lookups of 4
                                    instructions (extract the byte scaled by 4, add, lw), 6 xor,
                                    and one rotation by 8 for the right word (RFC 3713 P in words)
  table-small/camellia128_small.S   one 256-byte S-box: SBOX2/SBOX3 are rotations of SBOX1's
                                    output, SBOX4 a rotation of its input; P on two packed words
  table-xsbox/camellia128_xsbox.S   `table` with seed 003's sboxaddrw (a lookup in 2 instructions)
  zbkb/camellia128_zbkb.S           `table` with Zbkb: rori for the rotations, rev8 for the
                                    big-endian block on aligned buffers, packh/pack otherwise
  rv32i-ct/, zbkb-ct/camellia128_ct.S   constant time: written by ctkernel.py (circuit: ctcircuit.py)

Run: python3 gen.py   (writes all six; scripts/regen-kernels.sh runs it).
Every instruction carries a role tag in its comment (`# [addr]`, `# [rot32]`, ...): optable.py
counts cycles per role from an rvsim run (seed 003 Table 8). Tables come from ref.py.

State: D1 = (a4, a5), D2 = (a6, a7), big-endian words (word 0 of a half = its bytes 0..3).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))
import ref  # noqa: E402
from common.asm import Asm, header  # noqa: E402
from common.buffers import load_be_words, store_be_words  # noqa: E402
from common.sched import Insn, RegisterPool, critical_path  # noqa: E402
from common.tables import table_address  # noqa: E402

# role tags (optable.py reads them; keep in step with its ROLES)
ADDR = "addr"       # S-box address calculation (extract a byte, scale, add the base)
LOAD = "load"       # the S-box / SP-table load
ROT8 = "rot8"       # 8-bit rotations (SBOX2/3 outputs, SBOX4 input), with their placement
ROT32 = "rot32"     # 32-bit rotations: FL/FLINV's <<< 1, P's rotation of a word by 8
ROT128 = "rot128"   # the key schedule's 128-bit rotations
MIX = "mix"         # the P-function: xors (table-small: packing t1..t8 into words)
ROUND = "round"     # round-key loads and xors, the Feistel xor into the other half
FL = "fl"           # FL/FLINV without the rotation (and, or, xor, key loads)
WHITE = "whiten"    # kw1..kw4
KEYS = "keysched"   # key schedule: Sigma loads, KA's xors, subkey stores
IO = "io"           # block/key bytes in and out, set-up, return

OUT, IN, RK, BASE = "a0", "a1", "a2", "a3"
D1, D2 = ("a4", "a5"), ("a6", "a7")
# table layout (table, xsbox, zbkb): SIGMA1..4 (32 B) then SP1110, SP0222, SP3033, SP4404;
# BASE = SIGMA + 2048, so every table starts at a 12-bit load offset from it
SIGMA_OFF = -2048
SP_NAMES = ["1110", "0222", "3033", "4404"]
SP_OFF = {n: -2048 + 32 + 1024 * i for i, n in enumerate(SP_NAMES)}
# table-small layout: SBOX1 (256 B) then SIGMA; BASE = SBOX1
SMALL_SIGMA_OFF = 256
# F's lookups in the word formulation: (half, byte position from the LSB, SP table, into zL/zR)
LOOKUPS = [(0, 3, "1110", 0), (0, 2, "0222", 0), (0, 1, "3033", 0), (0, 0, "4404", 0),
           (1, 0, "1110", 1), (1, 3, "0222", 1), (1, 2, "3033", 1), (1, 1, "4404", 1)]

# subkeys in rk, 2 words each, in the order encryption uses them
RK_ORDER = (["kw1", "kw2"] + [f"k{r}" for r in range(1, 7)] + ["ke1", "ke2"] + [f"k{r}" for r in range(7, 13)]
            + ["ke3", "ke4"] + [f"k{r}" for r in range(13, 19)] + ["kw3", "kw4"])
RK_INDEX = {n: 2 * i for i, n in enumerate(RK_ORDER)}
RK_WORDS = 2 * len(RK_ORDER)


def plus4(off):
    """the offset of a key's second word: a number, or an expression on a .equ name"""
    if isinstance(off, int):
        return off + 4
    sym, _, n = off.partition(" + ")
    return f"{sym} + {int(n or 0) + 4}"


# ---------------------------------------------------------------- table-small's code block
class VBlock:
    """Straight-line code on virtual registers (table-small), scheduled for the E31 and
    register-allocated in one pass by common.sched: an instruction is a common.sched Insn (text
    with %vN / fixed register names, dst, srcs, at most one stack-word access) whose group is the
    round it belongs to; virtual registers have one writer each; fixed registers (the state, rk,
    the table base, sp) and stack words order the rest (common.sched.dependences). run():
    critical_path with a RegisterPool -- of the instructions ready now, the one of the lowest
    group, then the longest latency path to the end; a destination takes a free register of
    `pool` (a source read for the last time frees its register first). No instruction is ever
    padded in: a cycle with nothing ready is a stall, counted (the generator asserts there are
    none)."""

    # a load issues at least ST_LD slots after a store to its word: the E31's DTIM replays a
    # load that reads a word still in its store buffer (sim/README.md; rvsim does not model it)
    ST_LD = 3

    def __init__(self, pool):
        self.pool = list(pool)
        self.insns = []
        self.nv = 0
        self.group = 0

    def v(self):
        self.nv += 1
        return f"%v{self.nv}"

    def __call__(self, text, dst=None, src=(), mem=(), role=None, note=None):
        """text: the instruction with its operands written in (virtual names %vN); dst: the
        register written (None for a store); src: registers read; mem: () or one
        ("ld"|"st", stack word) access."""
        self.insns.append(Insn(text, () if dst is None else (dst,), src, note, role,
                               mem=mem[0] if mem else None, group=self.group))
        return dst

    def run(self, asm, st_ld=ST_LD):
        """Schedule, allocate and write out (asm) what it holds, a load ST_LD (or st_ld) slots
        after a store to its word at the earliest; the number of stall cycles."""
        regs = RegisterPool(self.insns, self.pool)
        order, cycles = critical_path(self.insns, pressure=regs, store_load=st_ld)
        for x in order:
            asm(regs.rename(x.text), role=x.role, note=x.note)
        self.insns = []
        return cycles - len(order)


class Camellia:
    """One implementation's kernels. variant: 'table', 'small', 'xsbox' or 'zbkb'."""

    def __init__(self, variant):
        self.v = variant
        self.a = Asm({variant} & {"zbkb", "xsbox"})
        self.zbkb = variant == "zbkb"

    # ---------------------------------------------------------------- helpers
    def rotl(self, dst, src, n, tmp, role):
        """dst = src <<< n (32-bit); tmp is clobbered on RV32I."""
        self.a.rotl(dst, src, n % 32, tmp, role=role)

    # ---------------------------------------------------------------- F
    def f(self, src, dst, key, temps):
        """dst ^= F(src, key): key = (base register, offset) of its two words."""
        if self.v == "small":
            return self.f_small(src, dst, key, temps)
        e = self.a
        kreg, koff = key
        xh, xl, zl, zr = temps[:4]
        pool = temps[4:]
        e(f"lw   {xh}, {koff}({kreg})", role=ROUND)
        e(f"lw   {xl}, {plus4(koff)}({kreg})", role=ROUND)
        e(f"xor  {xh}, {xh}, {src[0]}", role=ROUND)
        e(f"xor  {xl}, {xl}, {src[1]}", role=ROUND)
        pending = []                              # (temp, accumulator) loaded, xor not yet done
        for i, (half, byte, table, acc) in enumerate(LOOKUPS):
            x = (xh, xl)[half]
            first = i in (0, 4)                   # the first lookup of zL/zR loads into it
            t = (zl, zr)[acc] if first else next(r for r in pool if r not in [p for p, _ in pending])
            table_address(e, t, x, byte, BASE, 4, role=ADDR)
            if len(pending) == 2 or (self.v == "xsbox" and pending):
                pt, pa = pending.pop(0)
                e(f"xor  {pa}, {pa}, {pt}", role=MIX)
            e(f"lw   {t}, SP{table}_AT({t})", role=LOAD)
            if not first:
                pending.append((t, (zl, zr)[acc]))
        # y1..y4 = zL ^ zR into dst[0]; y5..y8 = that ^ (zL >>> 8) into dst[1]. zL >>> 8 (or its
        # first half) goes first, into a free temporary, so the last lw is not used right away
        w = next(r for r in pool if r not in [p for p, _ in pending])
        if self.zbkb:
            e(f"rori {w}, {zl}, 8", role=ROT32)
        else:
            e(f"srli {w}, {zl}, 8", role=ROT32)
        for pt, pa in pending:
            e(f"xor  {pa}, {pa}, {pt}", role=MIX)
        e(f"xor  {zr}, {zr}, {zl}", role=MIX)
        e(f"xor  {dst[0]}, {dst[0]}, {zr}", role=ROUND)
        e(f"xor  {dst[1]}, {dst[1]}, {zr}", role=ROUND)
        e(f"xor  {dst[1]}, {dst[1]}, {w}", role=ROT32)
        if not self.zbkb:
            e(f"slli {zl}, {zl}, 24", role=ROT32)
            e(f"xor  {dst[1]}, {dst[1]}, {zl}", role=ROT32)

    def f_small(self, src, dst, key, temps=None):
        """dst ^= F(src, key) with SBOX1 only, on the scheduler self.vs. x = src ^ key goes to the
        stack (two sw) so that the middle bytes are one lbu each; the SBOX4 inputs x4 (byte 0 of
        the left word) and x7 (byte 1 of the right word) are rotated through a halfword holding
        the byte twice (sb of the byte over its neighbour, lhu, srli 7, andi 0xff). The S-box
        outputs u1..u8 are stored as bytes into two stack words A = t1 t2 t3 t4 and
        B = t5 t6 t7 t8 (big-endian), t2 = u2 <<< 1, t3 = u3 >>> 1, t5 = u5 <<< 1, t6 = u6 >>> 1
        (SBOX2, SBOX3) taking 3 instructions each: sb keeps only the low byte, so the rotated
        byte may carry garbage above bit 7. Then RFC 3713's P with three word rotations
        (z = <<< 8):
          V = A ^ z^2 B,  T = V ^ B,  Y = V ^ z T:   y5..y8 = Y,  y1..y4 = T ^ z^2 Y
        (15 instructions with the xors into dst; tests/test_camellia128_ref.py checks it)."""
        S = self.vs
        v = S.v
        kreg, koff = key
        XB = self.buf
        PB = XB + 8
        self.buf ^= 16                            # the next F uses the other 16 bytes
        S.group += 1

        def ld(off, n):                           # memory order by stack word (the replay
            return ("ld", off // 4)               # hazard is per word)

        def st(off, n):
            return ("st", off // 4)

        def op(text_fn, src_, role, mem=(), note=None, store=False):
            d = None if store else v()
            S(text_fn(d), d, src_, mem, role, note)
            return d
        k0 = op(lambda d: f"lw   {d}, {koff}({kreg})", [kreg], ROUND)
        k1 = op(lambda d: f"lw   {d}, {plus4(koff)}({kreg})", [kreg], ROUND)
        xh = op(lambda d: f"xor  {d}, {src[0]}, {k0}", [src[0], k0], ROUND, note="x1 x2 x3 x4")
        xl = op(lambda d: f"xor  {d}, {src[1]}, {k1}", [src[1], k1], ROUND, note="x5 x6 x7 x8")
        op(lambda d: f"sw   {xh}, {XB}(sp)", [xh, "sp"], ADDR, [st(XB, 4)], store=True)
        op(lambda d: f"sw   {xl}, {XB + 4}(sp)", [xl, "sp"], ADDR, [st(XB + 4, 4)], store=True)
        idx = {}
        idx[1] = op(lambda d: f"srli {d}, {xh}, 24", [xh], ADDR, note="x1")
        idx[2] = op(lambda d: f"lbu  {d}, {XB + 2}(sp)", ["sp"], ADDR, [ld(XB + 2, 1)], note="x2")
        idx[3] = op(lambda d: f"lbu  {d}, {XB + 1}(sp)", ["sp"], ADDR, [ld(XB + 1, 1)], note="x3")
        op(lambda d: f"sb   {xh}, {XB + 1}(sp)", [xh, "sp"], ROT8, [st(XB + 1, 1)], store=True,
           note="x4 over x3: halfword x4 x4")
        h4 = op(lambda d: f"lhu  {d}, {XB}(sp)", ["sp"], ROT8, [ld(XB, 2)])
        j4 = op(lambda d: f"srli {d}, {h4}, 7", [h4], ROT8)
        idx[4] = op(lambda d: f"andi {d}, {j4}, 0xff", [j4], ROT8, note="x4 <<< 1")
        idx[5] = op(lambda d: f"srli {d}, {xl}, 24", [xl], ADDR, note="x5")
        idx[6] = op(lambda d: f"lbu  {d}, {XB + 6}(sp)", ["sp"], ADDR, [ld(XB + 6, 1)], note="x6")
        idx[8] = op(lambda d: f"andi {d}, {xl}, 0xff", [xl], ADDR, note="x8")
        s7 = op(lambda d: f"srli {d}, {xl}, 8", [xl], ROT8)
        op(lambda d: f"sb   {s7}, {XB + 4}(sp)", [s7, "sp"], ROT8, [st(XB + 4, 1)], store=True,
           note="x7 over x8: halfword x7 x7")
        h7 = op(lambda d: f"lhu  {d}, {XB + 4}(sp)", ["sp"], ROT8, [ld(XB + 4, 2)])
        j7 = op(lambda d: f"srli {d}, {h7}, 7", [h7], ROT8)
        idx[7] = op(lambda d: f"andi {d}, {j7}, 0xff", [j7], ROT8, note="x7 <<< 1")
        u = {}
        for i in range(1, 9):
            a = op(lambda d, i=i: f"add  {d}, {idx[i]}, {BASE}", [idx[i], BASE], ADDR)
            u[i] = op(lambda d, a=a: f"lbu  {d}, 0({a})", [a], LOAD, note=f"u{i}")

        def rot(ui, left, note):
            p = op(lambda d: f"{'slli' if left else 'srli'} {d}, {ui}, 1", [ui], ROT8, note=note)
            q = op(lambda d: f"{'srli' if left else 'slli'} {d}, {ui}, 7", [ui], ROT8)
            return op(lambda d: f"or   {d}, {p}, {q}", [p, q], ROT8)
        t = {1: u[1], 4: u[4], 7: u[7], 8: u[8]}
        t[2] = rot(u[2], True, "t2 = u2 <<< 1 (bits 0-7)")
        t[3] = rot(u[3], False, "t3 = u3 >>> 1 (bits 0-7)")
        t[5] = rot(u[5], True, "t5 = u5 <<< 1 (bits 0-7)")
        t[6] = rot(u[6], False, "t6 = u6 >>> 1 (bits 0-7)")
        # A = t1 t2 t3 t4 at PB (t1 the high byte), B = t5 t6 t7 t8 at PB + 4
        for i, off in ((4, 0), (3, 1), (2, 2), (1, 3), (8, 4), (7, 5), (6, 6), (5, 7)):
            op(lambda d, i=i, off=off: f"sb   {t[i]}, {PB + off}(sp)", [t[i], "sp"], MIX,
               [st(PB + off, 1)], store=True, note=f"t{i}")
        wa = op(lambda d: f"lw   {d}, {PB}(sp)", ["sp"], MIX, [ld(PB, 4)], note="A = t1 t2 t3 t4")
        wb = op(lambda d: f"lw   {d}, {PB + 4}(sp)", ["sp"], MIX, [ld(PB + 4, 4)], note="B = t5 t6 t7 t8")
        r1 = op(lambda d: f"slli {d}, {wb}, 16", [wb], MIX)
        s1 = op(lambda d: f"srli {d}, {wb}, 16", [wb], MIX)
        v0 = op(lambda d: f"xor  {d}, {wa}, {r1}", [wa, r1], MIX)
        vv = op(lambda d: f"xor  {d}, {v0}, {s1}", [v0, s1], MIX, note="V = A ^ B <<< 16")
        tt = op(lambda d: f"xor  {d}, {vv}, {wb}", [vv, wb], MIX, note="T = V ^ B")
        r2 = op(lambda d: f"slli {d}, {tt}, 8", [tt], MIX)
        s2 = op(lambda d: f"srli {d}, {tt}, 24", [tt], MIX)
        y0 = op(lambda d: f"xor  {d}, {vv}, {r2}", [vv, r2], MIX)
        yy = op(lambda d: f"xor  {d}, {y0}, {s2}", [y0, s2], MIX, note="Y = V ^ T <<< 8 = y5..y8")
        S(f"xor  {dst[1]}, {dst[1]}, {yy}", dst[1], [dst[1], yy], (), ROUND)
        S(f"xor  {dst[0]}, {dst[0]}, {tt}", dst[0], [dst[0], tt], (), ROUND)
        r3 = op(lambda d: f"slli {d}, {yy}, 16", [yy], MIX)
        s3 = op(lambda d: f"srli {d}, {yy}, 16", [yy], MIX)
        S(f"xor  {dst[0]}, {dst[0]}, {r3}", dst[0], [dst[0], r3], (), ROUND)
        S(f"xor  {dst[0]}, {dst[0]}, {s3}", dst[0], [dst[0], s3], (), ROUND,
          "y1..y4 = T ^ Y <<< 16")

    def fl_pair_small(self, k_fl, k_flinv):
        """fl_pair on the scheduler: D1 = FL(D1, k_fl), D2 = FLINV(D2, k_flinv)"""
        S = self.vs
        v = S.v
        S.group += 1
        (x1, x2), (y1, y2) = D1, D2

        def op(text_fn, src_, role, note=None):
            d = v()
            S(text_fn(d), d, src_, (), role, note)
            return d

        def upd(reg, val, role):
            S(f"xor  {reg}, {reg}, {val}", reg, [reg, val], (), role)

        def rotl1(w):
            p = op(lambda d: f"slli {d}, {w}, 1", [w], ROT32)
            q = op(lambda d: f"srli {d}, {w}, 31", [w], ROT32)
            return op(lambda d: f"or   {d}, {p}, {q}", [p, q], ROT32)
        a = op(lambda d: f"lw   {d}, {4 * k_fl}({RK})", [RK], FL, "FL k1")
        b = op(lambda d: f"lw   {d}, {4 * k_fl + 4}({RK})", [RK], FL, "FL k2")
        c = op(lambda d: f"lw   {d}, {4 * k_flinv + 4}({RK})", [RK], FL, "FLINV k2")
        d_ = op(lambda d: f"lw   {d}, {4 * k_flinv}({RK})", [RK], FL, "FLINV k1")
        a2 = op(lambda d: f"and  {d}, {a}, {x1}", [a, x1], FL)
        upd(x2, rotl1(a2), FL)
        c2 = op(lambda d: f"or   {d}, {c}, {y2}", [c, y2], FL)
        upd(y1, c2, FL)
        d2 = op(lambda d: f"and  {d}, {d_}, {y1}", [d_, y1], FL)
        upd(y2, rotl1(d2), FL)
        b2 = op(lambda d: f"or   {d}, {b}, {x2}", [b, x2], FL)
        upd(x1, b2, FL)

    def whiten_small(self, regs, koff_a, koff_b):
        S = self.vs
        S.group += 1
        for reg, off in zip(regs, [koff_a, koff_a + 1, koff_b, koff_b + 1]):
            k = S.v()
            S(f"lw   {k}, {4 * off}({RK})", k, [RK], (), WHITE)
            S(f"xor  {reg}, {reg}, {k}", reg, [reg, k], (), WHITE)

    # ---------------------------------------------------------------- FL
    def fl_pair(self, k_fl, k_flinv, tmp):
        """D1 = FL(D1, k_fl), D2 = FLINV(D2, k_flinv); keys are rk offsets."""
        e = self.a
        (x1, x2), (y1, y2) = D1, D2
        a, b, c, d, t = tmp[:5]
        e(f"lw   {a}, {4 * k_fl}({RK})", role=FL, note="FL k1")
        e(f"lw   {c}, {4 * k_flinv + 4}({RK})", role=FL, note="FLINV k2")
        e(f"lw   {b}, {4 * k_fl + 4}({RK})", role=FL, note="FL k2")
        e(f"lw   {d}, {4 * k_flinv}({RK})", role=FL, note="FLINV k1")
        e(f"and  {a}, {a}, {x1}", role=FL)
        e(f"or   {c}, {c}, {y2}", role=FL)
        self.rotl(a, a, 1, t, ROT32)
        e(f"xor  {y1}, {y1}, {c}", role=FL)
        e(f"xor  {x2}, {x2}, {a}", role=FL)
        e(f"and  {d}, {d}, {y1}", role=FL)
        e(f"or   {b}, {b}, {x2}", role=FL)
        self.rotl(d, d, 1, t, ROT32)
        e(f"xor  {x1}, {x1}, {b}", role=FL)
        e(f"xor  {y2}, {y2}, {d}", role=FL)

    def whiten(self, regs, koff_a, koff_b, tmp):
        """regs[0:2] ^= subkey at koff_a, regs[2:4] ^= subkey at koff_b (rk word offsets)."""
        e = self.a
        for j, (reg, off) in enumerate(zip(regs, [koff_a, koff_a + 1, koff_b, koff_b + 1])):
            e(f"lw   {tmp[j]}, {4 * off}({RK})", role=WHITE)
        for j, reg in enumerate(regs):
            e(f"xor  {reg}, {reg}, {tmp[j]}", role=WHITE)

    # ---------------------------------------------------------------- block I/O
    def load_be(self, src, dsts, temps, role=IO):
        """dsts[j] = big-endian word of bytes 4j..4j+3 of src (any alignment)"""
        load_be_words(self.a, src, dsts, [temps[:4], temps[4:8]], role)

    def store_be(self, regs, dst=OUT):
        store_be_words(self.a, regs, dst, role=IO)

    def load_block(self, tag):
        """The input block into D1, D2. zbkb: lw + rev8 when in and out are both aligned (t6 = 0),
        else bytes; RV32I: bytes (10 instructions a word, as fast as lw + an RV32I byte swap)."""
        e = self.a
        temps = ["t0", "t1", "t2", "t3", "t4", "t5", "t6", BASE]
        if not self.zbkb:
            self.load_be(IN, D1 + D2, temps)
            return
        e(f"or   t6, {OUT}, {IN}", role=IO)
        e("andi t6, t6, 3", role=IO)
        e(f"bnez t6, .L{tag}_bytes_in", role=IO)
        for j, r in enumerate(D1 + D2):
            e(f"lw   {r}, {4 * j}({IN})", role=IO)
        for r in D1 + D2:
            e(f"rev8 {r}, {r}", role=IO)
        e.label(f".L{tag}_loaded")
        e(f"mv   {IN}, t6", role=IO, note="a1 = 0: in and out aligned")
        self.tail_code.append((f".L{tag}_bytes_in", lambda: (self.load_be(IN, D1 + D2, temps),
                                                              e("li   t6, 1", role=IO), e(f"j    .L{tag}_loaded", role=IO))))

    def store_block(self, regs, tag):
        e = self.a
        if not self.zbkb:
            self.store_be(regs)
            return
        e(f"bnez {IN}, .L{tag}_bytes_out", role=IO)
        for r in regs:
            e(f"rev8 {r}, {r}", role=IO)
        for j, r in enumerate(regs):
            e(f"sw   {r}, {4 * j}({OUT})", role=IO)
        self.tail_code.append((f".L{tag}_bytes_out", lambda: (self.store_be(regs), e("ret", role=IO))))

    def load_base(self, reg=BASE):
        sym = "camellia128_sbox1" if self.v == "small" else "camellia128_sigma + 2048"
        self.a(f"lui  {reg}, %hi({sym})", role=IO)
        self.a(f"addi {reg}, {reg}, %lo({sym})", role=IO)

    # table-small: a 32-byte stack frame, two 16-byte halves used by alternate F functions
    # (x = src ^ key at +0, the packed S-box outputs at +8); F's temporaries are SMALL_POOL
    SMALL_FRAME = 32
    SMALL_POOL = ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "a1"]

    def prologue(self):
        if self.v != "small":
            return
        self.a(f"addi sp, sp, -{self.SMALL_FRAME}", role=IO)
        self.vs = VBlock(self.SMALL_POOL)
        self.buf = 0

    def epilogue(self):
        if self.v != "small":
            return
        self.a(f"addi sp, sp, {self.SMALL_FRAME}", role=IO)

    def flush(self, st_ld=VBlock.ST_LD):
        """table-small: schedule and write out what the scheduler holds (no stall allowed)"""
        stalls = self.vs.run(self.a, st_ld)
        assert stalls == 0, f"table-small: {stalls} stall cycles on the E31"

    def f_temps(self):
        return ["t0", "t1", "t2", "t3", "t4", "t5", "t6"]      # a1 (in) stays for the zbkb store

    # ---------------------------------------------------------------- cipher
    def crypt(self, dec, tag):
        """RFC 3713 §2.3: prewhitening, 3 x 6 rounds with FL/FLINV between, postwhitening;
        decryption is the same network with the subkeys in reverse order (§2.3.2)."""
        e = self.a
        small = self.v == "small"
        self.prologue()
        self.load_block(tag)
        self.load_base()
        # (kw in, FL/FLINV subkey pairs, kw out) -- decryption: the same network, subkeys reversed
        kw_in, fls, kw_out = ((("kw1", "kw2"), [("ke1", "ke2"), ("ke3", "ke4")], ("kw3", "kw4")) if not dec else
                              (("kw3", "kw4"), [("ke4", "ke3"), ("ke2", "ke1")], ("kw1", "kw2")))
        rounds = [f"k{r}" for r in (range(18, 0, -1) if dec else range(1, 19))]
        out_regs = list(D2 + D1)                 # C = D2 || D1, after D2 ^= kw, D1 ^= kw
        if small:
            e.comment("whitening, 18 rounds (D2 ^= F(D1, k), D1 ^= F(D2, k), ...), FL/FLINV after "
                      "rounds 6 and 12, whitening: list-scheduled across rounds")
            self.whiten_small(D1 + D2, RK_INDEX[kw_in[0]], RK_INDEX[kw_in[1]])
        else:
            self.whiten(D1 + D2, RK_INDEX[kw_in[0]], RK_INDEX[kw_in[1]], ["t0", "t1", "t2", "t3"])
        temps = self.f_temps()
        for i, kname in enumerate(rounds):
            src, dst = (D1, D2) if i % 2 == 0 else (D2, D1)
            if not small:
                e.comment(f"round {i + 1}: {'D2' if i % 2 == 0 else 'D1'} ^= F({'D1' if i % 2 == 0 else 'D2'}, {kname})")
            self.f(src, dst, (RK, 4 * RK_INDEX[kname]), temps)
            if i in (5, 11):
                k_fl, k_inv = fls[i // 6]
                if small:
                    self.fl_pair_small(RK_INDEX[k_fl], RK_INDEX[k_inv])
                    continue
                e.comment(f"FL(D1, {k_fl}), FLINV(D2, {k_inv})")
                self.fl_pair(RK_INDEX[k_fl], RK_INDEX[k_inv], ["t0", "t1", "t2", "t3", "t4"])
        if small:
            self.whiten_small(out_regs, RK_INDEX[kw_out[0]], RK_INDEX[kw_out[1]])
            self.flush()
        else:
            self.whiten(out_regs, RK_INDEX[kw_out[0]], RK_INDEX[kw_out[1]], ["t0", "t1", "t2", "t3"])
        self.store_block(out_regs, tag)
        self.epilogue()

    def keyexp(self):
        """RFC 3713 §2.2 for a 128-bit key: KA from KL with four F rounds on SIGMA1..4, then the
        26 subkeys as 64-bit halves of KL and KA rotated left by 0..111 bits (rk layout:
        RK_ORDER). KL stays in rk[0..3] (kw1 || kw2 = KL) while KA is computed."""
        e = self.a
        self.prologue()
        # a0 = rk, a1 = key: KL into D1 (left half), D2 (right half), stored as kw1, kw2
        temps8 = ["t0", "t1", "t2", "t3", "t4", "t5", "t6", BASE]
        self.load_be(IN, D1 + D2, temps8)
        self.load_base()
        for j, r in enumerate(D1 + D2):
            e(f"sw   {r}, {4 * j}(a0)", role=KEYS, note="kw1 || kw2 = KL")
        sig = "SIGMA_AT"
        temps = self.f_temps()
        e.comment("KA: D2 ^= F(D1, SIGMA1), D1 ^= F(D2, SIGMA2), (D1, D2) ^= KL, D2 ^= F(D1, SIGMA3), D1 ^= F(D2, SIGMA4)")
        self.f(D1, D2, (BASE, sig), temps)
        self.f(D2, D1, (BASE, f"{sig} + 8"), temps)
        if self.v == "small":
            S = self.vs
            S.group += 1
            for j, r in enumerate(D1 + D2):
                k = S.v()
                S(f"lw   {k}, {4 * j}(a0)", k, ["a0"], (), KEYS)
                S(f"xor  {r}, {r}, {k}", r, [r, k], (), KEYS)
        else:
            for j, r in enumerate(D1 + D2):
                e(f"lw   t{j}, {4 * j}(a0)", role=KEYS)
            for j, r in enumerate(D1 + D2):
                e(f"xor  {r}, {r}, t{j}", role=KEYS)
        self.f(D1, D2, (BASE, f"{sig} + 16"), temps)
        self.f(D2, D1, (BASE, f"{sig} + 24"), temps)
        if self.v == "small":
            self.flush(st_ld=2)     # 3 would cost one stall cycle here
        ka = list(D1 + D2)
        kl = ["t3", "t4", "t5", "t6"]
        for j, r in enumerate(kl):
            e(f"lw   {r}, {4 * j}(a0)", role=KEYS, note="KL")
        # every subkey: the 64-bit half of (src <<< rot)
        for name in RK_ORDER:
            if name in ("kw1", "kw2"):
                continue
            _, src, rot, half = next(s for s in ref.SCHEDULE if s[0] == name)
            w = ka if src == "KA" else kl
            q, s = divmod(rot, 32)
            for j in range(2):
                i = 2 * half + j                        # word of the rotated 128-bit value
                dst_off = 4 * (RK_INDEX[name] + j)
                hi, lo = w[(i + q) % 4], w[(i + q + 1) % 4]
                if s == 0:
                    e(f"sw   {hi}, {dst_off}(a0)", role=KEYS, note=f"{name} = {src} <<< {rot}")
                    continue
                e(f"slli t0, {hi}, {s}", role=ROT128, note=f"{name} = {src} <<< {rot}")
                e(f"srli t1, {lo}, {32 - s}", role=ROT128)
                e("or   t0, t0, t1", role=ROT128)
                e(f"sw   t0, {dst_off}(a0)", role=KEYS)
        self.epilogue()

    # ---------------------------------------------------------------- file
    def function(self, name, body):
        """a function: body, ret, then the out-of-line paths body asked for (tail_code)"""
        e = self.a
        self.tail_code = []
        with e.function(name):
            body()
            e("ret", role=IO)
            for label, emit in self.tail_code:
                e.label(label)
                emit()

    def source(self):
        e = self.a
        what = {"table": "RV32I, four 8->32 SP tables (4 KiB) in DTIM",
                "small": "RV32I, one 256-byte S-box (SBOX1) in DTIM and rotations",
                "xsbox": "RV32I + xsbox, four SP tables in DTIM, addresses by sboxaddrw (seed 003 §7.5)",
                "zbkb": "RV32I + Zbkb, four SP tables in DTIM, rori/rev8/packh/pack"}[self.v]
        e.raw(header("Camellia-128 (RFC 3713) encryption, decryption and key schedule,", "../gen.py",
                     [f"{what}; fully unrolled.",
                      "Comments: the [role] of each instruction (optable.py counts them)."]).rstrip())
        if self.v == "xsbox":
            e.raw('#include "ise.inc"')
        e.section(".data.camellia128_tables")
        e.directive(".p2align 8")
        sigma = []
        for s in ref.SIGMA:
            sigma += [s >> 32, s & 0xFFFFFFFF]
        if self.v == "small":
            e.label("camellia128_sbox1", "SBOX1 (RFC 3713 §2.4.4), then SIGMA1..4")
            e.bytes(ref.SBOX1)
            e.words(sigma)
        else:
            e.label("camellia128_sigma", "SIGMA1..4 (RFC 3713 §2.2), then the SP tables")
            e.words(sigma)
            sp = ref.sp_tables()
            for n in SP_NAMES:
                e.label(f"camellia128_sp{n}")
                e.words(sp[n])
        e.section(".text")
        e.comment("table offsets from the base register a3 (a3 = SBOX1 in table-small, SIGMA + 2048 otherwise)")
        e.equ("SIGMA_AT", SMALL_SIGMA_OFF if self.v == 'small' else SIGMA_OFF)
        if self.v != "small":
            for n in SP_NAMES:
                e.equ(f"SP{n}_AT", SP_OFF[n])
        self.function("camellia128_encrypt", lambda: self.crypt(False, "enc"))
        self.function("camellia128_decrypt", lambda: self.crypt(True, "dec"))
        self.function("camellia128_keyexp_enc", self.keyexp)
        return e.text()


FILES = {"table": "table/camellia128_table.S", "small": "table-small/camellia128_small.S",
         "xsbox": "table-xsbox/camellia128_xsbox.S", "zbkb": "zbkb/camellia128_zbkb.S"}


def main():
    for v, path in FILES.items():
        with open(os.path.join(HERE, path), "w") as f:
            f.write(Camellia(v).source())
    import ctkernel                     # rv32i-ct, zbkb-ct: constant time (ctkernel.py, ctcircuit.py)
    for variant in (ctkernel.RV32I_CT, ctkernel.ZBKB_CT):
        text, _ = ctkernel.generate(variant)
        with open(os.path.join(HERE, variant, "camellia128_ct.S"), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
