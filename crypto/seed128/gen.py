#!/usr/bin/env python3
"""Writes the SEED kernels (RV32 assembly) of the implementations:

  table/seed128_table.S         four 8->32 SS tables (4 KiB, DTIM): G = 4 lookups of 4 instructions
                                (extract the byte already scaled by 4, add the base, lw) + 3 xor
  table-small/seed128_small.S   only the two 8x8 S-boxes (512 B): G = 4 lbu lookups, then the
                                masked byte mixing of the SS tables done on packed words
  table-xsbox/seed128_xsbox.S   `table` with seed 003's sboxaddrw (base + byte * 4 in one
                                instruction): a lookup is 2 instructions

  rv32i-ct/, zbkb-ct/seed128_ct.S   constant time: written by ctkernel.py (circuit: ctcircuit.py, which
                                gen.py runs its exhaustive checks of first)

Run: python3 gen.py   (writes them all; scripts/regen-kernels.sh runs it).
Every instruction carries a role tag in its comment (`# [addr]`, `# [load]`, ...): optable.py
counts cycles per role from an rvsim run (seed 003 Table 7). Tables come from ref.py.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))
import ref  # noqa: E402
from common.asm import Asm, header  # noqa: E402
from common.buffers import load_be_words, store_be_words  # noqa: E402
from common.tables import table_address  # noqa: E402

# role tags (optable.py reads them; keep in step with its ROLES)
ADDR = "addr"       # S-box address calculation (extract a byte, scale, add the table base)
LOAD = "load"       # the S-box / SS-table load itself
MIX = "mix"         # G's combination of the four lookups (xor; table-small: pack and mask)
ROUND = "round"     # F outside G: round-key loads, key xor, the three additions, Feistel xor
KEYS = "keysched"   # key schedule outside G: A+C-KC, B-D+KC, the 64-bit rotations, stores
IO = "io"           # block/key bytes in and out (big-endian words from bytes), set-up, return

# register roles of encrypt/decrypt: a0 out, a1 in, a2 round keys
OUT, IN, RK, BASE = "a0", "a1", "a2", "a3"
STATE = ["a4", "a5", "a6", "a7"]          # L0 L1 R0 R1 (renamed, not moved, at each swap)
T0, T1 = "t0", "t1"

SS_BYTES = 4 * 256 * 4
KC_BYTES = 64
# table layout (table, table-xsbox): KC[16] then SS0..SS3, BASE = KC + 2048: KC at -2048,
# SS_j at SS_OFF[j]; every offset fits a 12-bit load immediate
SS_OFF = [KC_BYTES - 2048 + 1024 * j for j in range(4)]
# table-small: S1, S2 (256 B each) then KC; BASE = S1
S2_OFF, KC_SMALL_OFF = 256, 512
# table-small G masks (see g_small): mask register names and values
MASKS = {"s0": 0xFCCFCFFC, "s1": 0x3F3FF3F3, "s2": 0xCFFCFCCF, "s3": 0xF3F33F3F}


class Seed:
    """One implementation's kernels. variant: 'table', 'small' or 'xsbox'."""

    def __init__(self, variant):
        self.v = variant
        self.a = Asm({"xsbox"} if variant == "xsbox" else ())

    # ------------------------------------------------------------------ G
    def g(self, x, dst, u):
        """dst = G(x); u: 4 temporaries (dst may be x)."""
        if self.v == "small":
            return self.g_small(x, dst, u)
        e = self.a
        for j in range(4):                      # issue order keeps each lw 3+ slots from its use
            t = u[j]
            table_address(e, t, x, j, BASE, 4, role=ADDR, note=f"SS{j} entry of byte {j}")
            e(f"lw   {t}, SS{j}_AT({t})", role=LOAD)
        e(f"xor  {dst}, {u[0]}, {u[1]}", role=MIX)
        e(f"xor  {dst}, {dst}, {u[2]}", role=MIX)
        e(f"xor  {dst}, {dst}, {u[3]}", role=MIX)

    def g_small(self, x, dst, u):
        """G from the two S-boxes. With a = S1[x0], b = S2[x1], c = S1[x2], d = S2[x3], byte k
        of G is a&m[k] ^ b&m[k+1] ^ c&m[k+2] ^ d&m[k+3] (RFC 4269 §2.2, indices mod 4). The
        words [a,b,a,b] and [b,a,b,a] (byte 0 first) hold a and b at every byte position, so
        two ANDs with constant masks pick the right m for each: 19 instructions for all four
        bytes instead of 4 x (replicate + mask)."""
        e = self.a
        a, b, c, d = u[:4]
        w = u[4]
        for k, (r, box) in enumerate(((a, "S1"), (b, "S2"), (c, "S1"), (d, "S2"))):
            table_address(e, r, x, k, BASE, 1, role=ADDR)
            e(f"lbu  {r}, {'0' if box == 'S1' else 'S2_AT'}({r})", role=LOAD, note=f"{box}[x{k}]")
        k1, k2, k3, k4 = MASKS
        for lo, hi, ka, kb in ((a, b, k1, k2), (c, d, k3, k4)):
            e(f"slli {w}, {hi}, 8", role=MIX)
            e(f"or   {lo}, {lo}, {w}", role=MIX)
            e(f"slli {w}, {lo}, 16", role=MIX)
            e(f"or   {lo}, {lo}, {w}", role=MIX, note="[lo,hi,lo,hi]")
            e(f"slli {w}, {lo}, 8", role=MIX)
            e(f"or   {w}, {w}, {hi}", role=MIX, note="[hi,lo,hi,lo]")
            e(f"and  {lo}, {lo}, {ka}", role=MIX)
            e(f"and  {w}, {w}, {kb}", role=MIX)
            e(f"xor  {lo}, {lo}, {w}", role=MIX)
        e(f"xor  {dst}, {a}, {c}", role=MIX)

    def temps(self):
        return ["t2", "t3", "t4", "t5", "t6"]

    # ------------------------------------------------------------ block I/O
    def load_be(self, src, dsts, role=IO):
        """dsts[j] = big-endian word of bytes 4j..4j+3 of src (any alignment)"""
        load_be_words(self.a, src, dsts, [["t0", "t1", "t2", "t3"], ["t4", "t5", "t6", BASE]], role)

    def store_be(self, regs):
        store_be_words(self.a, regs, OUT, role=IO)

    def load_base(self, reg=BASE):
        sym = "seed128_small_sbox" if self.v == "small" else "seed128_kc + 2048"
        self.a(f"lui  {reg}, %hi({sym})", role=IO)
        self.a(f"addi {reg}, {reg}, %lo({sym})", role=IO)

    def small_prologue(self):
        """table-small needs 4 more registers for G's masks: s0..s3, saved on the stack."""
        e = self.a
        e("addi sp, sp, -16", role=IO)
        for i, r in enumerate(MASKS):
            e(f"sw   {r}, {4 * i}(sp)", role=IO)
        for r, v in MASKS.items():
            e.lui_addi(r, v, role=IO)

    def small_epilogue(self):
        e = self.a
        for i, r in enumerate(MASKS):
            e(f"lw   {r}, {4 * i}(sp)", role=IO)
        e("addi sp, sp, 16", role=IO)

    # ------------------------------------------------------------ cipher
    def function(self, name, body):
        with self.a.function(name):
            body()
            self.a("ret", role=IO)

    def crypt(self, dec):
        """16 Feistel rounds on (L0, L1, R0, R1); decryption takes the round keys backwards."""
        e = self.a
        if self.v == "small":
            self.small_prologue()
        self.load_be(IN, STATE)
        self.load_base()
        l0, l1, r0, r1 = STATE
        u = self.temps()
        for n in range(16):
            i = 15 - n if dec else n
            e.comment(f"round {n + 1}: L ^= F(R, K{i + 1})")
            e(f"lw   t2, {8 * i}({RK})", role=ROUND, note=f"K{i + 1},0")
            e(f"lw   t3, {8 * i + 4}({RK})", role=ROUND, note=f"K{i + 1},1")
            e(f"xor  {T0}, {r0}, t2", role=ROUND)
            e(f"xor  {T1}, {r1}, t3", role=ROUND)
            e(f"xor  {T1}, {T1}, {T0}", role=ROUND)
            self.g(T1, T1, u)
            e(f"add  {T0}, {T0}, {T1}", role=ROUND)
            self.g(T0, T0, u)
            e(f"add  {T1}, {T1}, {T0}", role=ROUND)
            self.g(T1, T1, u)
            e(f"add  {T0}, {T0}, {T1}", role=ROUND)
            e(f"xor  {l0}, {l0}, {T0}", role=ROUND)
            e(f"xor  {l1}, {l1}, {T1}", role=ROUND)
            if n != 15:
                l0, l1, r0, r1 = r0, r1, l0, l1
        self.store_be([l0, l1, r0, r1])
        if self.v == "small":
            self.small_epilogue()

    def keyexp(self):
        """K_{i,0} = G(A + C - KC_i), K_{i,1} = G(B - D + KC_i); then A||B >>> 8 (i even) or
        C||D <<< 8 (i odd), i = 0..15 (RFC 4269 §2.3)."""
        e = self.a
        if self.v == "small":
            self.small_prologue()
        # a0 = rk, a1 = key; A B C D in a4..a7
        ka, kb, kc, kd = STATE
        self.load_be("a1", STATE)
        self.load_base()
        u = self.temps()
        # table-small: a loop of 8 x 2 rounds (its unrolled key schedule would take the kernel's
        # code past the E31's 16 KiB I-cache); KC pointer a1, its end a2, rk pointer a0 advance
        loop = self.v == "small"
        if loop:
            e(f"addi a1, {BASE}, KC_AT", role=KEYS)
            e(f"addi a2, {BASE}, KC_AT + 64", role=KEYS)
            e.label(".Lkx_loop")
        for i in range(2 if loop else 16):
            kc_at = f"{4 * i}(a1)" if loop else f"KC_AT + {4 * i}({BASE})"
            e.comment(f"K{i + 1}" + (" (K2j+1 in the loop)" if loop and i == 0 else " (K2j+2)" if loop else ""))
            e(f"lw   t0, {kc_at}", role=KEYS, note=f"KC{i}" if not loop else "KC")
            e(f"add  t1, {ka}, {kc}", role=KEYS)
            e("sub  t1, t1, t0", role=KEYS)
            self.g("t1", "t1", u)
            e(f"sw   t1, {8 * i}(a0)", role=KEYS)
            e(f"sub  t1, {kb}, {kd}", role=KEYS)
            e("add  t1, t1, t0", role=KEYS)
            self.g("t1", "t1", u)
            e(f"sw   t1, {8 * i + 4}(a0)", role=KEYS)
            if i == 15:
                break
            hi, lo = (ka, kb) if i % 2 == 0 else (kc, kd)
            right = i % 2 == 0                  # A||B right by 8, C||D left by 8
            sh1, sh2 = ("srli", "slli") if right else ("slli", "srli")
            e(f"{sh1} t0, {hi}, 8", role=KEYS)
            e(f"{sh2} t1, {lo}, 24", role=KEYS)
            e(f"{sh1} t2, {lo}, 8", role=KEYS)
            e(f"{sh2} t3, {hi}, 24", role=KEYS)
            e(f"or   {hi}, t0, t1", role=KEYS)
            e(f"or   {lo}, t2, t3", role=KEYS)
        if loop:
            e("addi a0, a0, 16", role=KEYS)
            e("addi a1, a1, 8", role=KEYS)
            e("bne  a1, a2, .Lkx_loop", role=KEYS)
        if self.v == "small":
            self.small_epilogue()

    # ------------------------------------------------------------ file
    def source(self):
        e = self.a
        what = {"table": "four 8->32 SS tables (4 KiB) in DTIM",
                "small": "the two 8x8 S-boxes (512 B) in DTIM",
                "xsbox": "four SS tables in DTIM, addresses by sboxaddrw (seed 003 §7.5)"}[self.v]
        e.raw(header(f"SEED (RFC 4269) encryption, decryption and key schedule, RV32I{' + xsbox' if self.v == 'xsbox' else ''}:",
                     "../gen.py", [f"{what}; fully unrolled{' (the key schedule: 8 x 2 rounds)' if self.v == 'small' else ''}.",
                                   "Comments: the [role] of each instruction (optable.py counts them)."]).rstrip())
        if self.v == "xsbox":
            e.raw('#include "ise.inc"')
        e.section(".data.seed128_tables")
        e.directive(".p2align 8")
        if self.v == "small":
            e.label("seed128_small_sbox", "S1 (RFC 4269 Appendix A), then S2, then KC")
            e.bytes(ref.S1)
            e.bytes(ref.S2)
            e.words(ref.KC)
        else:
            e.label("seed128_kc", "KC_0..KC_15, then SS0..SS3")
            e.words(ref.KC)
            for j in range(4):
                e.label(f"seed128_ss{j}")
                e.words(ref.SS[j])
        e.section(".text")
        e.comment("table offsets from the base register a3 (a3 = S1 in table-small, KC + 2048 otherwise)")
        if self.v == "small":
            e.equ("S2_AT", S2_OFF)
            e.equ("KC_AT", KC_SMALL_OFF)
        else:
            for j in range(4):
                e.equ(f"SS{j}_AT", SS_OFF[j])
            e.equ("KC_AT", -2048)
        self.function("seed128_encrypt", lambda: self.crypt(False))
        self.function("seed128_decrypt", lambda: self.crypt(True))
        self.function("seed128_keyexp_enc", self.keyexp)
        return e.text()


FILES = {"table": "table/seed128_table.S", "small": "table-small/seed128_small.S",
         "xsbox": "table-xsbox/seed128_xsbox.S"}


def main():
    for v, path in FILES.items():
        with open(os.path.join(HERE, path), "w") as f:
            f.write(Seed(v).source())
    import ctkernel                     # rv32i-ct: constant time (ctkernel.py, ctcircuit.py)
    ctkernel.ctcircuit.check()
    ctkernel.ctcircuit.check_g()
    ctkernel.check_model()
    for variant in ctkernel.VARIANTS:
        text, _ = ctkernel.generate(variant)
        os.makedirs(os.path.join(HERE, variant), exist_ok=True)
        with open(os.path.join(HERE, variant, "seed128_ct.S"), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
