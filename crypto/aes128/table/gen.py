#!/usr/bin/env python3
"""Generates aes_table_enc.S and aes_table_dec.S (RV32I, T-tables in .data) here, and the
same kernels with seed 003's S-box address instructions (sboxaddr, sboxaddrw: a table base
plus one selected state byte, scaled by 1 or 4, in one instruction) in ../table-xsbox/.

Run: python3 gen.py   (writes the .S files of both implementations).
State column j is the little-endian word of bytes 4j..4j+3 (row 0 in bits 0..7).
"""
import os

def xt(a):
    a <<= 1
    return (a ^ 0x11b) if a & 0x100 else a

def gmul(a, b):
    r = 0
    while b:
        if b & 1:
            r ^= a
        a = xt(a)
        b >>= 1
    return r

def sbox_table():
    s = []
    for x in range(256):
        inv = 0 if x == 0 else next(y for y in range(1, 256) if gmul(x, y) == 1)
        b = inv
        r = b
        for i in range(1, 5):
            r ^= ((b << i) | (b >> (8 - i))) & 0xff
        s.append(r ^ 0x63)
    return s

SBOX = sbox_table()
ISBOX = [0] * 256
for i, v in enumerate(SBOX):
    ISBOX[v] = i

def rotl(w, n):
    n %= 32
    return ((w << n) | (w >> (32 - n))) & 0xffffffff if n else w

def col(b0, b1, b2, b3):
    return b0 | b1 << 8 | b2 << 16 | b3 << 24

TE0 = [col(gmul(s, 2), s, s, gmul(s, 3)) for s in SBOX]
TD0 = [col(gmul(s, 14), gmul(s, 9), gmul(s, 13), gmul(s, 11)) for s in ISBOX]

def words(name, vals):
    out = []
    for i in range(0, len(vals), 8):
        out.append("    .word " + ", ".join("0x%08x" % v for v in vals[i:i + 8]))
    return "\n".join(out)

def halves(vals):
    out = []
    for i in range(0, len(vals), 16):
        out.append("    .half " + ", ".join("0x%04x" % v for v in vals[i:i + 16]))
    return "\n".join(out)

def last_round_tables(sbox):
    """S[x] << 8 as halfwords and S[x] << 16 as words, right behind the four T-tables: the
    last round reads output bytes 1 and 2 already in place (no shift). xsbox reads byte 1
    from the S-box (sboxaddrw cannot scale by 2), so it has only the S << 16 table."""
    s16 = words("s16", [v << 16 for v in sbox])
    return [s16] if XSBOX else [halves([v << 8 for v in sbox]), s16]

def bytes_(vals):
    out = []
    for i in range(0, len(vals), 16):
        out.append("    .byte " + ", ".join("0x%02x" % v for v in vals[i:i + 16]))
    return "\n".join(out)

class Emit:
    def __init__(self):
        self.lines = []
    def __call__(self, s):
        self.lines.append("    " + s)
    def label(self, s):
        self.lines.append(s + ":")
    def raw(self, s):
        self.lines.append(s)
    def text(self):
        return "\n".join(self.lines) + "\n"

# The 256-byte S-box sits right before the 4 KiB of T-tables; B = T0 + BASE_OFF reaches the
# S-box (B - 2048) and the four T-tables (B + 1024k - BASE_OFF) with 12-bit load offsets.
BASE_OFF = 1792

# register roles (all caller-saved: no stack needed)
OUT, IN, RK, B = "a0", "a1", "a2", "a3"
S = ["a4", "a5", "a6", "a7"]
N = ["t0", "t1", "t2", "t3"]
T = ["t4", "t5", "t6", "a1"]          # a1 is free once the input is loaded

XSBOX = False    # set by generate(): emit sboxaddr/sboxaddrw instead of extract-and-add


def byte_addr(e, t, src, k, base, scale):
    """t = base + byte k of src, times scale (1 or 4): the S-box/T-table address of a lookup.
    RV32I: shift, mask (pre-scaled by 4 where scale is 4) and add; xsbox: one instruction."""
    if XSBOX:
        e(f"{'sboxaddrw' if scale == 4 else 'sboxaddr '} {t}, {src}, {base}, {k}")
        return
    if scale == 4:
        if k == 0:
            e(f"andi {t}, {src}, 0xff")
            e(f"slli {t}, {t}, 2")
        elif k == 3:
            e(f"srli {t}, {src}, 22")
            e(f"andi {t}, {t}, 0x3fc")
        else:
            e(f"srli {t}, {src}, {8 * k - 2}")
            e(f"andi {t}, {t}, 0x3fc")
    elif k == 0:
        e(f"andi {t}, {src}, 0xff")
    elif k == 3:
        e(f"srli {t}, {src}, 24")
    else:
        e(f"srli {t}, {src}, {8 * k}")
        e(f"andi {t}, {t}, 0xff")
    e(f"add  {t}, {t}, {base}")

def emit_rounds(e, dec):
    """Emit the 9 full T-table rounds followed by the last (S-box) round.
    Expects the state (already xored with round key 0) in S; B = T0 + BASE_OFF,
    RK = round key pointer.  Leaves the output in N."""
    cur, nxt = S, N
    # each lookup: (dst column, source reg, byte k); table k at offset 1024*k - BASE_OFF
    for r in range(1, 10):
        lookups = []
        for j in range(4):
            for k in range(4):
                src = (j + k) % 4 if not dec else (j - k) % 4
                lookups.append((j, cur[src], k))
        # round key loads first into the accumulators
        for j in range(4):
            e(f"lw   {nxt[j]}, {16 * r + 4 * j}({RK})")
        # software pipeline: address for lookup i computed while lookup i-1 loads
        temps = T
        pending = []  # (tmpreg, dst) loaded, awaiting xor
        for i, (j, src, k) in enumerate(lookups):
            t = temps[i % 4]
            byte_addr(e, t, src, k, B, 4)
            # retire older pending xor (loaded 2 lookups ago -> no stall)
            if len(pending) >= 2:
                pt, pd = pending.pop(0)
                e(f"xor  {pd}, {pd}, {pt}")
            e(f"lw   {t}, {1024 * k - BASE_OFF}({t})")
            pending.append((t, nxt[j]))
        for pt, pd in pending:
            e(f"xor  {pd}, {pd}, {pt}")
        cur, nxt = nxt, cur
    return cur, nxt

# the last round's byte-position tables, as offsets from B2 = B + 2047 (B + 2304: S << 8, then S << 16)
B2_OFF = 2047
S8_OFF = 4096 - BASE_OFF - B2_OFF
S16_OFF = S8_OFF + 512                  # xsbox: S8_OFF (no S << 8 table)

def emit_last_round(e, cur, nxt, sbox_reg, dec):
    """Last round and the output stores: output byte 0 from the S-box (lbu at sbox_reg - 2048), bytes 1 and 2 from the
    S << 8 (lhu) and S << 16 (lw) tables behind the T-tables (no shift), byte 3 from the S-box
    and one shift: per column 4 + 5 + 5 + 5 instructions."""
    for j in range(4):
        e(f"lw   {nxt[j]}, {160 + 4 * j}({RK})")
    b2 = RK                                   # the round keys are loaded: RK is free
    e(f"addi {b2}, {sbox_reg}, {B2_OFF}")
    lookups = []
    for j in range(4):
        for k in range(4):
            src = (j + k) % 4 if not dec else (j - k) % 4
            lookups.append((j, cur[src], k))
    pending = []
    temps = T
    for i, (j, src, k) in enumerate(lookups):
        t = temps[i % 4]
        if XSBOX and k != 2:
            # the byte from the S-box, shifted into place below (k = 1 and 3)
            byte_addr(e, t, src, k, sbox_reg, 1)
        elif XSBOX:
            byte_addr(e, t, src, k, b2, 4)
        elif k == 0:
            e(f"andi {t}, {src}, 0xff")
            e(f"add  {t}, {t}, {sbox_reg}")
        elif k == 1:
            e(f"srli {t}, {src}, 7")
            e(f"andi {t}, {t}, 0x1fe")
            e(f"add  {t}, {t}, {b2}")
        elif k == 2:
            e(f"srli {t}, {src}, 14")
            e(f"andi {t}, {t}, 0x3fc")
            e(f"add  {t}, {t}, {b2}")
        else:
            e(f"srli {t}, {src}, 24")
            e(f"add  {t}, {t}, {sbox_reg}")
        if len(pending) >= 2:
            pt, pd, pk = pending.pop(0)
            emit_place(e, pt, pk)
            e(f"xor  {pd}, {pd}, {pt}")
        if k == 1 and not XSBOX:
            e(f"lhu  {t}, {S8_OFF}({t})")
        elif k == 2:
            e(f"lw   {t}, {S8_OFF if XSBOX else S16_OFF}({t})")
        else:
            e(f"lbu  {t}, -2048({t})")
        pending.append((t, nxt[j], k))
    # the last lookup (column 3) was just issued: store columns 0..2 while it loads
    for n_left, (pt, pd, pk) in enumerate(pending):
        if n_left == len(pending) - 1:
            emit_store_out(e, nxt[:3])
        emit_place(e, pt, pk)
        e(f"xor  {pd}, {pd}, {pt}")
    e(f"sw   {nxt[3]}, 12({OUT})")

def emit_place(e, t, k):
    """Shift a last-round S-box byte loaded with lbu into output byte k."""
    if k == 3 or (XSBOX and k == 1):
        e(f"slli {t}, {t}, {8 * k}")

def emit_load_in(e, tag):
    """Load input into S and xor with rk[0..3].  Handles unaligned in/out."""
    e(f"or   t0, {OUT}, {IN}")
    e("andi t0, t0, 3")
    e(f"bnez t0, .L{tag}_unaligned")
    e(f"lw   {S[0]}, 0({IN})")
    e(f"lw   {S[1]}, 4({IN})")
    e(f"lw   {S[2]}, 8({IN})")
    e(f"lw   {S[3]}, 12({IN})")
    e(f"lw   t0, 0({RK})")
    e(f"lw   t1, 4({RK})")
    e(f"lw   t2, 8({RK})")
    e(f"lw   t3, 12({RK})")
    for j in range(4):
        e(f"xor  {S[j]}, {S[j]}, t{j}")

def emit_unaligned(e, tag, fn):
    """Slow path: copy the input to the stack, call the aligned entry, copy back."""
    e.label(f".L{tag}_unaligned")
    e("addi sp, sp, -48")
    e("sw   ra, 44(sp)")
    e("sw   a0, 40(sp)")
    for i in range(16):
        e(f"lbu  t0, {i}({IN})")
        e(f"sb   t0, {i}(sp)")
    e("addi a0, sp, 16")
    e("mv   a1, sp")
    e(f"call {fn}")
    e("lw   a0, 40(sp)")
    for i in range(16):
        e(f"lbu  t0, {16 + i}(sp)")
        e(f"sb   t0, {i}(a0)")
    e("lw   ra, 44(sp)")
    e("addi sp, sp, 48")
    e("ret")

def emit_store_out(e, regs):
    for j, r in enumerate(regs):
        e(f"sw   {r}, {4 * j}({OUT})")

def gen_enc():
    e = Emit()
    e.raw("/* AES-128 encryption, RV32I, T-tables in DTIM (.data). Generated by gen.py. */")
    e.raw("    .section .data.aes128_table_enc, \"aw\"")
    e.raw("    .p2align 8")
    e.raw("    .globl aes128_table_sbox")
    e.raw("aes128_table_sbox:")
    e.raw(bytes_(SBOX))
    e.raw("aes128_table_te:")
    for k in range(4):
        e.raw(words("te%d" % k, [rotl(v, 8 * k) for v in TE0]))
    e.raw("aes128_table_enc_last:")
    for t in last_round_tables(SBOX):
        e.raw(t)
    e.raw("    .text")
    # ---- encrypt
    e.raw("    .globl aes128_encrypt")
    e.raw("    .type aes128_encrypt, @function")
    e.raw("    .p2align 2")
    e.label("aes128_encrypt")
    e(f"lui  {B}, %hi(aes128_table_te + {BASE_OFF})")
    e(f"addi {B}, {B}, %lo(aes128_table_te + {BASE_OFF})")
    emit_load_in(e, "enc")
    cur, nxt = emit_rounds(e, dec=False)
    emit_last_round(e, cur, nxt, B, dec=False)
    e("ret")
    emit_unaligned(e, "enc", "aes128_encrypt")
    e.raw("    .size aes128_encrypt, .-aes128_encrypt")
    # ---- key expansion
    e.raw("    .globl aes128_keyexp_enc")
    e.raw("    .type aes128_keyexp_enc, @function")
    e.raw("    .p2align 2")
    e.label("aes128_keyexp_enc")
    # a0 = rk, a1 = key (any alignment handled by byte loads if unaligned)
    e("andi t0, a1, 3")
    e("bnez t0, .Lkx_unaligned")
    e("lw   a4, 0(a1)")
    e("lw   a5, 4(a1)")
    e("lw   a6, 8(a1)")
    e("lw   a7, 12(a1)")
    e.label(".Lkx_go")
    e("lui  a3, %hi(aes128_table_sbox)")
    e("addi a3, a3, %lo(aes128_table_sbox)")
    e("sw   a4, 0(a0)")
    e("sw   a5, 4(a0)")
    e("sw   a6, 8(a0)")
    e("sw   a7, 12(a0)")
    rcon = 1
    for i in range(1, 11):
        # w0 ^= SubWord(RotWord(w3)) ^ rcon ; out byte p = S(byte p+1 of w3)
        # S(b1) -> pos0, S(b2) -> pos1, S(b3) -> pos2, S(b0) -> pos3
        for t, k in (("t0", 1), ("t1", 2), ("t2", 3), ("t3", 0)):
            byte_addr(e, t, "a7", k, "a3", 1)
        e("lbu  t0, 0(t0)")
        e("lbu  t1, 0(t1)")
        e("lbu  t2, 0(t2)")
        e("lbu  t3, 0(t3)")
        e(f"xori a4, a4, {rcon}")
        e("xor  a4, a4, t0")
        e("slli t1, t1, 8")
        e("xor  a4, a4, t1")
        e("slli t2, t2, 16")
        e("xor  a4, a4, t2")
        e("slli t3, t3, 24")
        e("xor  a4, a4, t3")
        e("xor  a5, a5, a4")
        e(f"sw   a4, {16 * i}(a0)")
        e("xor  a6, a6, a5")
        e(f"sw   a5, {16 * i + 4}(a0)")
        e("xor  a7, a7, a6")
        e(f"sw   a6, {16 * i + 8}(a0)")
        e(f"sw   a7, {16 * i + 12}(a0)")
        rcon = xt(rcon)
    e("ret")
    e.label(".Lkx_unaligned")
    for r, off in zip(["a4", "a5", "a6", "a7"], [0, 4, 8, 12]):
        e(f"lbu  {r}, {off}(a1)")
        for b in range(1, 4):
            e(f"lbu  t0, {off + b}(a1)")
            e(f"slli t0, t0, {8 * b}")
            e(f"or   {r}, {r}, t0")
    e("j    .Lkx_go")
    e.raw("    .size aes128_keyexp_enc, .-aes128_keyexp_enc")
    return e.text()

def gen_dec():
    e = Emit()
    e.raw("/* AES-128 decryption (equivalent inverse cipher), RV32I, T-tables in DTIM (.data).")
    e.raw("   Generated by gen.py.  keyexp_dec calls aes128_keyexp_enc (aes_table_enc.S). */")
    e.raw("    .section .data.aes128_table_dec, \"aw\"")
    e.raw("    .p2align 8")
    e.raw("aes128_table_isbox:")
    e.raw(bytes_(ISBOX))
    e.raw("aes128_table_td:")
    for k in range(4):
        e.raw(words("td%d" % k, [rotl(v, 8 * k) for v in TD0]))
    e.raw("aes128_table_dec_last:")
    for t in last_round_tables(ISBOX):
        e.raw(t)
    e.raw("    .text")
    e.raw("    .globl aes128_decrypt")
    e.raw("    .type aes128_decrypt, @function")
    e.raw("    .p2align 2")
    e.label("aes128_decrypt")
    e(f"lui  {B}, %hi(aes128_table_td + {BASE_OFF})")
    e(f"addi {B}, {B}, %lo(aes128_table_td + {BASE_OFF})")
    emit_load_in(e, "dec")
    cur, nxt = emit_rounds(e, dec=True)
    emit_last_round(e, cur, nxt, B, dec=True)
    e("ret")
    emit_unaligned(e, "dec", "aes128_decrypt")
    e.raw("    .size aes128_decrypt, .-aes128_decrypt")
    # ---- decryption key schedule: encryption schedule, rounds reversed,
    # InvMixColumns applied to round keys 1..9 (via Td[S[x]]).
    e.raw("    .globl aes128_keyexp_dec")
    e.raw("    .type aes128_keyexp_dec, @function")
    e.raw("    .p2align 2")
    e.label("aes128_keyexp_dec")
    e("addi sp, sp, -16")
    e("sw   ra, 12(sp)")
    e("sw   a0, 8(sp)")
    e("call aes128_keyexp_enc")
    e("lw   a0, 8(sp)")
    e("lw   ra, 12(sp)")
    e("addi sp, sp, 16")
    e(f"lui  a3, %hi(aes128_table_td + {BASE_OFF})")
    e(f"addi a3, a3, %lo(aes128_table_td + {BASE_OFF})")
    e("lui  a2, %hi(aes128_table_sbox)")
    e("addi a2, a2, %lo(aes128_table_sbox)")
    # swap round keys 0 and 10 (plain)
    for j in range(4):
        e(f"lw   t0, {4 * j}(a0)")
        e(f"lw   t1, {160 + 4 * j}(a0)")
        e(f"sw   t1, {4 * j}(a0)")
        e(f"sw   t0, {160 + 4 * j}(a0)")
    # words of rounds 1..9: pointer a4 walks up from rk+16, a5 down from rk+144
    e("addi a4, a0, 16")
    e("addi a5, a0, 144")
    e("li   a7, 4")           # 4 pairs of rounds, then round 5 alone
    e.label(".Lkd_pair")
    for j in range(4):
        e(f"lw   a6, {4 * j}(a4)")
        e("jal  t0, .Lkd_imc")
        e(f"mv   t5, a1")
        e(f"lw   a6, {4 * j}(a5)")
        e("jal  t0, .Lkd_imc")
        e(f"sw   a1, {4 * j}(a4)")
        e(f"sw   t5, {4 * j}(a5)")
    e("addi a4, a4, 16")
    e("addi a5, a5, -16")
    e("addi a7, a7, -1")
    e("bnez a7, .Lkd_pair")
    for j in range(4):
        e(f"lw   a6, {4 * j}(a4)")
        e("jal  t0, .Lkd_imc")
        e(f"sw   a1, {4 * j}(a4)")
    e("ret")
    # a1 = InvMixColumns(a6); uses t1..t4; link in t0 (x5: an alternate link register, so
    # the return-address stack predicts the jr back to each of the twelve call sites)
    e.label(".Lkd_imc")
    for k, t in enumerate(["t1", "t2", "t3", "t4"]):
        byte_addr(e, t, "a6", k, "a2", 1)
    for t in ["t1", "t2", "t3", "t4"]:
        e(f"lbu  {t}, 0({t})")
    for t in ["t1", "t2", "t3", "t4"]:
        if XSBOX:
            byte_addr(e, t, t, 0, "a3", 4)
        else:                                 # already a byte: scale and add
            e(f"slli {t}, {t}, 2")
            e(f"add  {t}, {t}, a3")
    for k, t in enumerate(["t1", "t2", "t3", "t4"]):
        e(f"lw   {t}, {1024 * k - BASE_OFF}({t})")
    e("xor  a1, t1, t2")
    e("xor  a1, a1, t3")
    e("xor  a1, a1, t4")
    e("jr   t0")
    e.raw("    .size aes128_keyexp_dec, .-aes128_keyexp_dec")
    return e.text()

def generate(folder, xsbox):
    global XSBOX
    XSBOX = xsbox
    for name, text in (("aes_table_enc.S", gen_enc()), ("aes_table_dec.S", gen_dec())):
        if xsbox:
            text = text.replace("RV32I,", "RV32I + xsbox (sboxaddr, sboxaddrw),", 1)
            text = text.replace("*/", "*/\n#include \"ise.inc\"", 1)
        with open(os.path.join(folder, name), "w") as f:
            f.write(text)

if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    generate(here, False)
    generate(os.path.join(here, "..", "table-xsbox"), True)
