#!/usr/bin/env python3
"""Writes the Camellia-128 kernels (RV32 assembly, fully unrolled) of four implementations:

  table/camellia128_table.S         four 8->32 SP tables (4 KiB, DTIM): F = 8 lookups of 4
                                    instructions (extract the byte scaled by 4, add, lw), 6 xor,
                                    and one rotation by 8 for the right word (RFC 3713 P in words)
  table-small/camellia128_small.S   one 256-byte S-box: SBOX2/SBOX3 are rotations of SBOX1's
                                    output, SBOX4 a rotation of its input; P on two packed words
  table-xsbox/camellia128_xsbox.S   `table` with seed 003's sboxaddrw (a lookup in 2 instructions)
  zbkb/camellia128_zbkb.S           `table` with Zbkb: rori for the rotations, rev8 for the
                                    big-endian block on aligned buffers, packh/pack otherwise

Run: python3 gen.py   (writes all four; scripts/regen-kernels.sh runs it).
Every instruction carries a role tag in its comment (`# addr`, `# rot32`, ...): optable.py
counts cycles per role from an rvsim run (seed 003 Table 8). Tables come from ref.py.

State: D1 = (a4, a5), D2 = (a6, a7), big-endian words (word 0 of a half = its bytes 0..3).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ref  # noqa: E402

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


class Asm:
    """Lines of a generated .S file; each instruction with its role tag."""

    def __init__(self):
        self.lines = []

    def __call__(self, ins, role, note=""):
        self.lines.append(f"    {ins:<30} # {role}" + (f"  {note}" if note else ""))

    def raw(self, s):
        self.lines.append(s)

    def text(self):
        return "\n".join(self.lines) + "\n"


def data_words(vals, per=8):
    return ["    .word " + ", ".join("0x%08x" % v for v in vals[i:i + per]) for i in range(0, len(vals), per)]


def data_bytes(vals, per=16):
    return ["    .byte " + ", ".join("0x%02x" % v for v in vals[i:i + per]) for i in range(0, len(vals), per)]


def plus4(off):
    """the offset of a key's second word: a number, or an expression on a .equ name"""
    if isinstance(off, int):
        return off + 4
    sym, _, n = off.partition(" + ")
    return f"{sym} + {int(n or 0) + 4}"


def li(e, reg, v, role):
    """reg = 32-bit constant v (lui + addi, or one of them)."""
    hi, lo = ((v + 0x800) >> 12) & 0xFFFFF, ((v & 0xFFF) ^ 0x800) - 0x800
    if hi:
        e(f"lui  {reg}, 0x{hi:x}", role)
    if lo or not hi:
        e(f"addi {reg}, {reg if hi else 'zero'}, {lo}", role)


class Camellia:
    """One implementation's kernels. variant: 'table', 'small', 'xsbox' or 'zbkb'."""

    def __init__(self, variant):
        self.v = variant
        self.a = Asm()
        self.zbkb = variant == "zbkb"

    # ---------------------------------------------------------------- helpers
    def rotl(self, dst, src, n, tmp, role):
        """dst = src <<< n (32-bit); tmp is clobbered on RV32I."""
        e = self.a
        n %= 32
        if self.zbkb:
            e(f"rori {dst}, {src}, {32 - n}", role)
            return
        e(f"slli {tmp}, {src}, {n}", role)
        e(f"srli {dst}, {src}, {32 - n}", role)
        e(f"or   {dst}, {dst}, {tmp}", role)

    # ---------------------------------------------------------------- F
    def f(self, src, dst, key, temps):
        """dst ^= F(src, key): key = (base register, offset) of its two words."""
        if self.v == "small":
            return self.f_small(src, dst, key, temps)
        e = self.a
        kreg, koff = key
        xh, xl, zl, zr = temps[:4]
        pool = temps[4:]
        e(f"lw   {xh}, {koff}({kreg})", ROUND)
        e(f"lw   {xl}, {plus4(koff)}({kreg})", ROUND)
        e(f"xor  {xh}, {xh}, {src[0]}", ROUND)
        e(f"xor  {xl}, {xl}, {src[1]}", ROUND)
        pending = []                              # (temp, accumulator) loaded, xor not yet done
        for i, (half, byte, table, acc) in enumerate(LOOKUPS):
            x = (xh, xl)[half]
            first = i in (0, 4)                   # the first lookup of zL/zR loads into it
            t = (zl, zr)[acc] if first else next(r for r in pool if r not in [p for p, _ in pending])
            if self.v == "xsbox":
                e(f"sboxaddrw {t}, {x}, {BASE}, {byte}", ADDR)
            else:
                if byte == 0:
                    e(f"slli {t}, {x}, 2", ADDR)
                else:
                    e(f"srli {t}, {x}, {8 * byte - 2}", ADDR)
                e(f"andi {t}, {t}, 0x3fc", ADDR)
                e(f"add  {t}, {t}, {BASE}", ADDR)
            if len(pending) == 2 or (self.v == "xsbox" and pending):
                pt, pa = pending.pop(0)
                e(f"xor  {pa}, {pa}, {pt}", MIX)
            e(f"lw   {t}, SP{table}_AT({t})", LOAD)
            if not first:
                pending.append((t, (zl, zr)[acc]))
        # y1..y4 = zL ^ zR into dst[0]; y5..y8 = that ^ (zL >>> 8) into dst[1]. zL >>> 8 (or its
        # first half) goes first, into a free temporary, so the last lw is not used right away
        w = next(r for r in pool if r not in [p for p, _ in pending])
        if self.zbkb:
            e(f"rori {w}, {zl}, 8", ROT32)
        else:
            e(f"srli {w}, {zl}, 8", ROT32)
        for pt, pa in pending:
            e(f"xor  {pa}, {pa}, {pt}", MIX)
        e(f"xor  {zr}, {zr}, {zl}", MIX)
        e(f"xor  {dst[0]}, {dst[0]}, {zr}", ROUND)
        e(f"xor  {dst[1]}, {dst[1]}, {zr}", ROUND)
        e(f"xor  {dst[1]}, {dst[1]}, {w}", ROT32)
        if not self.zbkb:
            e(f"slli {zl}, {zl}, 24", ROT32)
            e(f"xor  {dst[1]}, {dst[1]}, {zl}", ROT32)

    def f_small(self, src, dst, key, temps):
        """dst ^= F(src, key) with SBOX1 only. u_i = SBOX1 outputs; t2 = u2 <<< 1, t3 = u3 >>> 1,
        t5 = u5 <<< 1, t6 = u6 >>> 1 (SBOX2, SBOX3); t4, t7 = SBOX1 of the input byte <<< 1
        (SBOX4). Packed as big-endian words A = t1 t2 t3 t4 and Q = t8 t5 t6 t7 (= t5..t8 <<< 24),
        RFC 3713's P is
          zL = A ^ (S <<< 16), S = A ^ (A <<< 8);  zR = Q ^ (Q2 <<< 16), Q2 = Q ^ (Q <<< 8)
          y1..y4 = zL ^ zR,  y5..y8 = y1..y4 ^ (zL >>> 8) = zR ^ S
        (zL = A ^ A<<<16 ^ A<<<24 and zR = B<<<8 ^ B<<<16 ^ B<<<24 for B = t5..t8, regrouped).
        A rotated byte costs 3 instructions more than a plain one: (u << 17 | u << 9) & 0x00ff0000
        puts u <<< 1 in byte 2. temps: 7 registers; self.m16 = 0x00ff0000, self.m8 = 0x0000ff00."""
        e = self.a
        kreg, koff = key
        xh, xl, p, q, r, s, w = temps
        m16, m8 = self.m16, self.m8

        def lookup(dst_, x, byte, note):
            if byte == 3:
                e(f"srli {dst_}, {x}, 24", ADDR)
            elif byte == 0:
                e(f"andi {dst_}, {x}, 0xff", ADDR)
            else:
                e(f"srli {dst_}, {x}, {8 * byte}", ADDR)
                e(f"andi {dst_}, {dst_}, 0xff", ADDR)
            e(f"add  {dst_}, {dst_}, {BASE}", ADDR)
            e(f"lbu  {dst_}, 0({dst_})", LOAD, note)

        def lookup_rotl(dst_, x, byte, note):
            """SBOX1[(byte of x) <<< 1] (SBOX4)"""
            if byte == 0:
                e(f"slli {dst_}, {x}, 25", ROT8, "SBOX4 input <<< 1")
                e(f"srli {dst_}, {dst_}, 24", ROT8)
            else:
                e(f"srli {dst_}, {x}, {8 * byte - 1}", ROT8, "SBOX4 input <<< 1")
                e(f"andi {dst_}, {dst_}, 0xfe", ROT8)
            e(f"srli {w}, {x}, {8 * byte + 7}", ROT8)
            e(f"andi {w}, {w}, 1", ROT8)
            e(f"or   {dst_}, {dst_}, {w}", ROT8)
            e(f"add  {dst_}, {dst_}, {BASE}", ADDR)
            e(f"lbu  {dst_}, 0({dst_})", LOAD, note)

        def place_rot(acc, u, byte, left, note):
            """acc (|)= (u <<< 1 if left else u >>> 1) << 8*byte, byte 1 or 2 (mask m8/m16)"""
            n = 8 * byte + (1 if left else -1)      # bits 0..6 (left) / 1..7 (right) into place
            e(f"slli {w}, {u}, {n - 8 if left else n + 8}", ROT8, note)
            e(f"slli {u}, {u}, {n}", ROT8)
            e(f"or   {u}, {u}, {w}", ROT8)
            e(f"and  {u}, {u}, {m16 if byte == 2 else m8}", ROT8)
            e(f"or   {acc}, {acc}, {u}", MIX)

        e(f"lw   {p}, {koff}({kreg})", ROUND)
        e(f"lw   {q}, {plus4(koff)}({kreg})", ROUND)
        e(f"xor  {xh}, {src[0]}, {p}", ROUND)
        e(f"xor  {xl}, {src[1]}, {q}", ROUND)
        lookup(p, xh, 3, "u1 = t1")
        lookup(q, xh, 2, "u2")
        lookup(r, xh, 1, "u3")
        lookup_rotl(s, xh, 0, "u4 = t4")
        e(f"slli {xh}, {p}, 24", MIX, "A = t1 t2 t3 t4")
        place_rot(xh, q, 2, True, "t2 = u2 <<< 1")
        place_rot(xh, r, 1, False, "t3 = u3 >>> 1")
        e(f"or   {xh}, {xh}, {s}", MIX)
        lookup(p, xl, 3, "u5")
        lookup(s, xl, 0, "u8 = t8")
        lookup(q, xl, 2, "u6")
        lookup_rotl(r, xl, 1, "u7 = t7")
        e(f"slli {xl}, {s}, 24", MIX, "Q = t8 t5 t6 t7")
        place_rot(xl, p, 2, True, "t5 = u5 <<< 1")
        place_rot(xl, q, 1, False, "t6 = u6 >>> 1")
        e(f"or   {xl}, {xl}, {r}", MIX)
        a_, q_ = xh, xl
        e(f"slli {p}, {a_}, 8", MIX)
        e(f"srli {q}, {a_}, 24", MIX)
        e(f"xor  {p}, {p}, {q}", MIX)
        e(f"xor  {p}, {p}, {a_}", MIX, "S = A ^ A <<< 8")
        e(f"slli {q}, {q_}, 8", MIX)
        e(f"srli {r}, {q_}, 24", MIX)
        e(f"xor  {q}, {q}, {r}", MIX)
        e(f"xor  {q}, {q}, {q_}", MIX, "Q2 = Q ^ Q <<< 8")
        e(f"slli {r}, {q}, 16", MIX)
        e(f"srli {q}, {q}, 16", MIX)
        e(f"xor  {q}, {q}, {r}", MIX)
        e(f"xor  {q}, {q}, {q_}", MIX, "zR = Q ^ Q2 <<< 16")
        e(f"xor  {dst[0]}, {dst[0]}, {a_}", ROUND)
        e(f"xor  {dst[0]}, {dst[0]}, {q}", ROUND)
        e(f"slli {r}, {p}, 16", MIX)
        e(f"xor  {dst[0]}, {dst[0]}, {r}", ROUND)
        e(f"srli {r}, {p}, 16", MIX)
        e(f"xor  {dst[0]}, {dst[0]}, {r}", ROUND, "y1..y4 = A ^ S <<< 16 ^ zR")
        e(f"xor  {dst[1]}, {dst[1]}, {q}", ROUND)
        e(f"xor  {dst[1]}, {dst[1]}, {p}", ROUND, "y5..y8 = zR ^ S")

    # ---------------------------------------------------------------- FL
    def fl_pair(self, k_fl, k_flinv, tmp):
        """D1 = FL(D1, k_fl), D2 = FLINV(D2, k_flinv); keys are rk offsets."""
        e = self.a
        (x1, x2), (y1, y2) = D1, D2
        a, b, c, d, t = tmp[:5]
        e(f"lw   {a}, {4 * k_fl}({RK})", FL, "FL k1")
        e(f"lw   {c}, {4 * k_flinv + 4}({RK})", FL, "FLINV k2")
        e(f"lw   {b}, {4 * k_fl + 4}({RK})", FL, "FL k2")
        e(f"lw   {d}, {4 * k_flinv}({RK})", FL, "FLINV k1")
        e(f"and  {a}, {a}, {x1}", FL)
        e(f"or   {c}, {c}, {y2}", FL)
        self.rotl(a, a, 1, t, ROT32)
        e(f"xor  {y1}, {y1}, {c}", FL)
        e(f"xor  {x2}, {x2}, {a}", FL)
        e(f"and  {d}, {d}, {y1}", FL)
        e(f"or   {b}, {b}, {x2}", FL)
        self.rotl(d, d, 1, t, ROT32)
        e(f"xor  {x1}, {x1}, {b}", FL)
        e(f"xor  {y2}, {y2}, {d}", FL)

    def whiten(self, regs, koff_a, koff_b, tmp):
        """regs[0:2] ^= subkey at koff_a, regs[2:4] ^= subkey at koff_b (rk word offsets)."""
        e = self.a
        for j, (reg, off) in enumerate(zip(regs, [koff_a, koff_a + 1, koff_b, koff_b + 1])):
            e(f"lw   {tmp[j]}, {4 * off}({RK})", WHITE)
        for j, reg in enumerate(regs):
            e(f"xor  {reg}, {reg}, {tmp[j]}", WHITE)

    # ---------------------------------------------------------------- block I/O
    def load_be(self, src, dsts, temps, role=IO):
        """dsts[j] = big-endian word of bytes 4j..4j+3 of src (any alignment); two sets of four
        temporaries alternate so that no lbu result is used within its latency."""
        e = self.a
        sets = [temps[:4], temps[4:8]]

        def loads(j):
            for b, t in enumerate(sets[j % 2]):
                e(f"lbu  {t}, {4 * j + b}({src})", role)

        def combine(j):
            t = sets[j % 2]
            if self.zbkb:
                e(f"packh {t[0]}, {t[1]}, {t[0]}", role)
                e(f"packh {t[2]}, {t[3]}, {t[2]}", role)
                e(f"pack {dsts[j]}, {t[2]}, {t[0]}", role)
                return
            e(f"slli {t[0]}, {t[0]}, 24", role)
            e(f"slli {t[1]}, {t[1]}, 16", role)
            e(f"slli {t[2]}, {t[2]}, 8", role)
            e(f"or   {t[0]}, {t[0]}, {t[1]}", role)
            e(f"or   {t[2]}, {t[2]}, {t[3]}", role)
            e(f"or   {dsts[j]}, {t[0]}, {t[2]}", role)
        loads(0)
        loads(1)
        combine(0)
        loads(2)
        combine(1)
        loads(3)
        combine(2)
        combine(3)

    def store_be(self, regs, dst=OUT):
        e = self.a
        for j, r in enumerate(regs):
            e(f"sb   {r}, {4 * j + 3}({dst})", IO)
            for b, t in ((2, "t0"), (1, "t1"), (0, "t2")):
                e(f"srli {t}, {r}, {24 - 8 * b}", IO)
            for b, t in ((2, "t0"), (1, "t1"), (0, "t2")):
                e(f"sb   {t}, {4 * j + b}({dst})", IO)

    def load_block(self, tag):
        """The input block into D1, D2. zbkb: lw + rev8 when in and out are both aligned (t6 = 0),
        else bytes; RV32I: bytes (10 instructions a word, as fast as lw + an RV32I byte swap)."""
        e = self.a
        temps = ["t0", "t1", "t2", "t3", "t4", "t5", "t6", BASE]
        if not self.zbkb:
            self.load_be(IN, D1 + D2, temps)
            return
        e(f"or   t6, {OUT}, {IN}", IO)
        e("andi t6, t6, 3", IO)
        e(f"bnez t6, .L{tag}_bytes_in", IO)
        for j, r in enumerate(D1 + D2):
            e(f"lw   {r}, {4 * j}({IN})", IO)
        for r in D1 + D2:
            e(f"rev8 {r}, {r}", IO)
        e.raw(f".L{tag}_loaded:")
        e(f"mv   {IN}, t6", IO, "a1 = 0: in and out aligned")
        self.tail_code.append((f".L{tag}_bytes_in", lambda: (self.load_be(IN, D1 + D2, temps),
                                                              e("li   t6, 1", IO), e(f"j    .L{tag}_loaded", IO))))

    def store_block(self, regs, tag):
        e = self.a
        if not self.zbkb:
            self.store_be(regs)
            return
        e(f"bnez {IN}, .L{tag}_bytes_out", IO)
        for r in regs:
            e(f"rev8 {r}, {r}", IO)
        for j, r in enumerate(regs):
            e(f"sw   {r}, {4 * j}({OUT})", IO)
        self.tail_code.append((f".L{tag}_bytes_out", lambda: (self.store_be(regs), e("ret", IO))))

    def load_base(self, reg=BASE):
        sym = "camellia128_sbox1" if self.v == "small" else "camellia128_sigma + 2048"
        self.a(f"lui  {reg}, %hi({sym})", IO)
        self.a(f"addi {reg}, {reg}, %lo({sym})", IO)

    # table-small keeps two masks and needs more temporaries: s0, s1 saved on the stack
    SMALL_SAVED = ["s0", "s1"]

    def prologue(self):
        if self.v != "small":
            return
        e = self.a
        e(f"addi sp, sp, -{4 * len(self.SMALL_SAVED)}", IO)
        for i, r in enumerate(self.SMALL_SAVED):
            e(f"sw   {r}, {4 * i}(sp)", IO)
        self.m16, self.m8 = "s0", "s1"
        li(e, self.m16, 0x00FF0000, IO)
        li(e, self.m8, 0x0000FF00, IO)

    def epilogue(self):
        if self.v != "small":
            return
        e = self.a
        for i, r in enumerate(self.SMALL_SAVED):
            e(f"lw   {r}, {4 * i}(sp)", IO)
        e(f"addi sp, sp, {4 * len(self.SMALL_SAVED)}", IO)

    def f_temps(self):
        return ["t0", "t1", "t2", "t3", "t4", "t5", "t6"]      # a1 (in) stays for the zbkb store

    # ---------------------------------------------------------------- cipher
    def crypt(self, dec, tag):
        """RFC 3713 §2.3: prewhitening, 3 x 6 rounds with FL/FLINV between, postwhitening;
        decryption is the same network with the subkeys in reverse order (§2.3.2)."""
        e = self.a
        self.prologue()
        self.load_block(tag)
        self.load_base()
        # (kw in, FL/FLINV subkey pairs, kw out) -- decryption: the same network, subkeys reversed
        kw_in, fls, kw_out = ((("kw1", "kw2"), [("ke1", "ke2"), ("ke3", "ke4")], ("kw3", "kw4")) if not dec else
                              (("kw3", "kw4"), [("ke4", "ke3"), ("ke2", "ke1")], ("kw1", "kw2")))
        rounds = [f"k{r}" for r in (range(18, 0, -1) if dec else range(1, 19))]
        self.whiten(D1 + D2, RK_INDEX[kw_in[0]], RK_INDEX[kw_in[1]], ["t0", "t1", "t2", "t3"])
        temps = self.f_temps()
        for i, kname in enumerate(rounds):
            src, dst = (D1, D2) if i % 2 == 0 else (D2, D1)
            e.raw(f"    # round {i + 1}: {'D2' if i % 2 == 0 else 'D1'} ^= F({'D1' if i % 2 == 0 else 'D2'}, {kname})")
            self.f(src, dst, (RK, 4 * RK_INDEX[kname]), temps)
            if i in (5, 11):
                k_fl, k_inv = fls[i // 6]
                e.raw(f"    # FL(D1, {k_fl}), FLINV(D2, {k_inv})")
                self.fl_pair(RK_INDEX[k_fl], RK_INDEX[k_inv], ["t0", "t1", "t2", "t3", "t4"])
        out_regs = list(D2 + D1)                 # C = D2 || D1, after D2 ^= kw, D1 ^= kw
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
            e(f"sw   {r}, {4 * j}(a0)", KEYS, "kw1 || kw2 = KL")
        sig = "SIGMA_AT"
        temps = self.f_temps()
        e.raw("    # KA: D2 ^= F(D1, SIGMA1), D1 ^= F(D2, SIGMA2), (D1, D2) ^= KL, D2 ^= F(D1, SIGMA3), D1 ^= F(D2, SIGMA4)")
        self.f(D1, D2, (BASE, sig), temps)
        self.f(D2, D1, (BASE, f"{sig} + 8"), temps)
        for j, r in enumerate(D1 + D2):
            e(f"lw   t{j}, {4 * j}(a0)", KEYS)
        for j, r in enumerate(D1 + D2):
            e(f"xor  {r}, {r}, t{j}", KEYS)
        self.f(D1, D2, (BASE, f"{sig} + 16"), temps)
        self.f(D2, D1, (BASE, f"{sig} + 24"), temps)
        ka = list(D1 + D2)
        kl = ["t3", "t4", "t5", "t6"]
        for j, r in enumerate(kl):
            e(f"lw   {r}, {4 * j}(a0)", KEYS, "KL")
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
                    e(f"sw   {hi}, {dst_off}(a0)", KEYS, f"{name} = {src} <<< {rot}")
                    continue
                e(f"slli t0, {hi}, {s}", ROT128, f"{name} = {src} <<< {rot}")
                e(f"srli t1, {lo}, {32 - s}", ROT128)
                e(f"or   t0, t0, t1", ROT128)
                e(f"sw   t0, {dst_off}(a0)", KEYS)
        self.epilogue()

    # ---------------------------------------------------------------- file
    def function(self, name, body):
        e = self.a
        self.tail_code = []
        e.raw(f"    .globl {name}")
        e.raw(f"    .type {name}, @function")
        e.raw("    .p2align 2")
        e.raw(f"{name}:")
        body()
        e("ret", IO)
        for label, emit in self.tail_code:
            e.raw(f"{label}:")
            emit()
        e.raw(f"    .size {name}, .-{name}")

    def source(self):
        e = self.a
        what = {"table": "RV32I, four 8->32 SP tables (4 KiB) in DTIM",
                "small": "RV32I, one 256-byte S-box (SBOX1) in DTIM and rotations",
                "xsbox": "RV32I + xsbox, four SP tables in DTIM, addresses by sboxaddrw (seed 003 §7.5)",
                "zbkb": "RV32I + Zbkb, four SP tables in DTIM, rori/rev8/packh/pack"}[self.v]
        e.raw("/* Camellia-128 (RFC 3713) encryption, decryption and key schedule,")
        e.raw(f"   {what}; fully unrolled. Generated by ../gen.py -- do not edit.")
        e.raw("   Comments: the role of each instruction (optable.py counts them). */")
        if self.v == "xsbox":
            e.raw('#include "ise.inc"')
        e.raw("    .section .data.camellia128_tables, \"aw\"")
        e.raw("    .p2align 8")
        sigma = []
        for s in ref.SIGMA:
            sigma += [s >> 32, s & 0xFFFFFFFF]
        if self.v == "small":
            e.raw("camellia128_sbox1:                   # SBOX1 (RFC 3713 §2.4.4), then SIGMA1..4")
            e.lines += data_bytes(list(ref.SBOX1)) + data_words(sigma)
        else:
            e.raw("camellia128_sigma:                   # SIGMA1..4 (RFC 3713 §2.2), then the SP tables")
            e.lines += data_words(sigma)
            sp = ref.sp_tables()
            for n in SP_NAMES:
                e.raw(f"camellia128_sp{n}:")
                e.lines += data_words(sp[n])
        e.raw("    .text")
        e.raw("    # table offsets from the base register a3 (a3 = SBOX1 in table-small, SIGMA + 2048 otherwise)")
        e.raw(f"    .equ SIGMA_AT, {SMALL_SIGMA_OFF if self.v == 'small' else SIGMA_OFF}")
        if self.v != "small":
            for n in SP_NAMES:
                e.raw(f"    .equ SP{n}_AT, {SP_OFF[n]}")
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


if __name__ == "__main__":
    main()
