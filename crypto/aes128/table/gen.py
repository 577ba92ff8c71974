#!/usr/bin/env python3
"""Generates aes_table_enc.S and aes_table_dec.S (RV32I, T-tables in .data) here, and the
same kernels with seed 003's S-box address instructions (sboxaddr, sboxaddrw: a table base
plus one selected state byte, scaled by 1 or 4, in one instruction) in ../table-xsbox/.

Run: python3 gen.py   (writes the .S files of both implementations).
State column j is the little-endian word of bytes 4j..4j+3 (row 0 in bits 0..7).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from common.asm import Asm, header  # noqa: E402
from common.buffers import call_on_aligned_copy, load_le_words_bytes  # noqa: E402
from common.tables import table_address  # noqa: E402
from common.gf256 import AES_INV_SBOX as ISBOX, AES_SBOX as SBOX, aes_rcon, mul as gmul  # noqa: E402

def rotl(w, n):
    n %= 32
    return ((w << n) | (w >> (32 - n))) & 0xffffffff if n else w

def col(b0, b1, b2, b3):
    return b0 | b1 << 8 | b2 << 16 | b3 << 24

TE0 = [col(gmul(s, 2), s, s, gmul(s, 3)) for s in SBOX]
TD0 = [col(gmul(s, 14), gmul(s, 9), gmul(s, 13), gmul(s, 11)) for s in ISBOX]

# The 256-byte S-box sits right before the 4 KiB of T-tables; B = T0 + BASE_OFF reaches the
# S-box (B - 2048) and the four T-tables (B + 1024k - BASE_OFF) with 12-bit load offsets.
BASE_OFF = 1792

# register roles (all caller-saved: no stack needed)
OUT, IN, RK, B = "a0", "a1", "a2", "a3"
S = ["a4", "a5", "a6", "a7"]
N = ["t0", "t1", "t2", "t3"]
T = ["t4", "t5", "t6", "a1"]          # a1 is free once the input is loaded

# the last round's byte-position tables, as offsets from B2 = B + 2047 (B + 2304: S << 8, then S << 16)
B2_OFF = 2047
S8_OFF = 4096 - BASE_OFF - B2_OFF
S16_OFF = S8_OFF + 512                  # xsbox: S8_OFF (no S << 8 table)


def table_offsets(a):
    """.equ names of the table offsets the loads use: T<k>_AT and SBOX_AT from B, S8_AT and
    S16_AT from B2 (xsbox: only S16_AT, at S8_OFF)"""
    a.comment(f"table offsets: from B = T0 + {BASE_OFF} (a3; the S-box right before T0), from B2 = B + {B2_OFF}")
    for k in range(4):
        a.equ(f"T{k}_AT", 1024 * k - BASE_OFF)
    a.equ("SBOX_AT", -2048)
    if a.has("xsbox"):
        a.equ("S16_AT", S8_OFF)
    else:
        a.equ("S8_AT", S8_OFF)
        a.equ("S16_AT", S16_OFF)


def last_round_tables(a, sbox):
    """S[x] << 8 as halfwords and S[x] << 16 as words, right behind the four T-tables: the
    last round reads output bytes 1 and 2 already in place (no shift). xsbox reads byte 1
    from the S-box (sboxaddrw cannot scale by 2), so it has only the S << 16 table."""
    if not a.has("xsbox"):
        a.halves([v << 8 for v in sbox])
    a.words([v << 16 for v in sbox])


def byte_addr(e, t, src, k, base, scale):
    """t = base + byte k of src, times scale (1 or 4): the S-box/T-table address of a lookup.
    RV32I: shift, mask (pre-scaled by 4 where scale is 4) and add; xsbox: one instruction."""
    table_address(e, t, src, k, base, scale, mask_first=True)


def emit_rounds(e, dec):
    """Emit the 9 full T-table rounds followed by the last (S-box) round.
    Expects the state (already xored with round key 0) in S; B = T0 + BASE_OFF,
    RK = round key pointer.  Leaves the output in N."""
    cur, nxt = S, N
    # each lookup: (dst column, source reg, byte k); table k at offset 1024*k - BASE_OFF
    for r in range(1, 10):
        e.comment(f"round {r}: {' '.join(nxt)} = rk[{4 * r}..{4 * r + 3}] ^ four T-table words each, "
                  f"from the bytes of {' '.join(cur)}")
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
            e(f"lw   {t}, T{k}_AT({t})")
            pending.append((t, nxt[j]))
        for pt, pd in pending:
            e(f"xor  {pd}, {pd}, {pt}")
        cur, nxt = nxt, cur
    return cur, nxt

def emit_last_round(e, cur, nxt, sbox_reg, dec):
    """Last round and the output stores: output byte 0 from the S-box (lbu at sbox_reg - 2048), bytes 1 and 2 from the
    S << 8 (lhu) and S << 16 (lw) tables behind the T-tables (no shift), byte 3 from the S-box
    and one shift: per column 4 + 5 + 5 + 5 instructions."""
    e.comment(f"round 10: {' '.join(nxt)} = rk[40..43] ^ S-box bytes of {' '.join(cur)} in place; stores")
    for j in range(4):
        e(f"lw   {nxt[j]}, {160 + 4 * j}({RK})")
    b2 = RK                                   # the round keys are loaded: RK is free
    e(f"addi {b2}, {sbox_reg}, {B2_OFF}", note="B2")
    lookups = []
    for j in range(4):
        for k in range(4):
            src = (j + k) % 4 if not dec else (j - k) % 4
            lookups.append((j, cur[src], k))
    pending = []
    temps = T
    xsbox = e.has("xsbox")
    for i, (j, src, k) in enumerate(lookups):
        t = temps[i % 4]
        # byte 2 from the S << 16 table, byte 1 from S << 8 (xsbox: from the S-box, shifted
        # below), bytes 0 and 3 from the S-box
        if k == 2:
            byte_addr(e, t, src, k, b2, 4)
        elif k == 1 and not xsbox:
            table_address(e, t, src, k, b2, 2)
        else:
            byte_addr(e, t, src, k, sbox_reg, 1)
        if len(pending) >= 2:
            pt, pd, pk = pending.pop(0)
            emit_place(e, pt, pk)
            e(f"xor  {pd}, {pd}, {pt}")
        if k == 1 and not xsbox:
            e(f"lhu  {t}, S8_AT({t})")
        elif k == 2:
            e(f"lw   {t}, S16_AT({t})")
        else:
            e(f"lbu  {t}, SBOX_AT({t})")
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
    if k == 3 or (e.has("xsbox") and k == 1):
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

def emit_store_out(e, regs):
    for j, r in enumerate(regs):
        e(f"sw   {r}, {4 * j}({OUT})")

ISA_NOTE = {False: "RV32I", True: "RV32I + xsbox (sboxaddr, sboxaddrw)"}


def tables(e, name, sbox, t0, doc):
    """the S-box (or inverse), its four T-tables and the last round's tables, in .data (DTIM)"""
    e.section(f".data.aes128_table_{name}")
    e.directive(".p2align 8")
    if name == "enc":
        e.directive(".globl aes128_table_sbox", "the key expansion of both files reads it")
    e.label(f"aes128_table_{'sbox' if name == 'enc' else 'isbox'}")
    e.bytes(sbox)
    e.label(f"aes128_table_{'te' if name == 'enc' else 'td'}", doc)
    for k in range(4):
        e.words([rotl(v, 8 * k) for v in t0])
    e.label(f"aes128_table_{name}_last", "S << 8 (halfwords; not xsbox), S << 16 (words)")
    last_round_tables(e, sbox)
    e.section(".text")
    table_offsets(e)


def block_function(e, dec):
    """aes128_encrypt / aes128_decrypt (out, in, rk): the T-table rounds; an unaligned in or
    out takes the aligned path on a copy"""
    name, tag = ("aes128_decrypt", "dec") if dec else ("aes128_encrypt", "enc")
    with e.function(name, doc="(out, in, rk)"):
        e.la_split(B, f"aes128_table_{'td' if dec else 'te'} + {BASE_OFF}", note="B")
        emit_load_in(e, tag)
        cur, nxt = emit_rounds(e, dec)
        emit_last_round(e, cur, nxt, B, dec)
        e("ret")
        call_on_aligned_copy(e, f".L{tag}_unaligned", name)


def start_file(xsbox, title, dec, notes=()):
    """A file's header, its T-tables and its block function (aes128_encrypt or _decrypt)."""
    e = Asm({"xsbox"} if xsbox else ())
    e.raw(header(f"{title}, {ISA_NOTE[xsbox]}, T-tables in DTIM (.data).",
                 "../table/gen.py" if xsbox else "gen.py", notes).rstrip())
    if xsbox:
        e.raw('#include "ise.inc"')
    if dec:
        tables(e, "dec", ISBOX, TD0, "Td0..Td3: Td_k[x] = (14S', 9S', 13S', 11S')[x] rotated left by 8k")
    else:
        tables(e, "enc", SBOX, TE0, "Te0..Te3: Te_k[x] = (2S, S, S, 3S)[x] rotated left by 8k")
    block_function(e, dec=dec)
    return e


def gen_enc(xsbox):
    e = start_file(xsbox, "AES-128 encryption and key expansion", dec=False)
    with e.function("aes128_keyexp_enc", doc="(rk, key)"):
        # a0 = rk, a1 = key (any alignment handled by byte loads if unaligned)
        e("andi t0, a1, 3")
        e("bnez t0, .Lkx_unaligned", note="key not word-aligned")
        for j in range(4):
            e(f"lw   a{4 + j}, {4 * j}(a1)")
        e.label(".Lkx_go")
        e.la_split("a3", "aes128_table_sbox")
        for j in range(4):
            e(f"sw   a{4 + j}, {4 * j}(a0)")
        for i, rcon in enumerate(aes_rcon(10), 1):
            # w0 ^= SubWord(RotWord(w3)) ^ rcon ; out byte p = S(byte p+1 of w3)
            # S(b1) -> pos0, S(b2) -> pos1, S(b3) -> pos2, S(b0) -> pos3
            e.comment(f"round key {i}: w0 ^= SubWord(RotWord(w3)) ^ {rcon:#x}, then w1, w2, w3")
            for t, k in (("t0", 1), ("t1", 2), ("t2", 3), ("t3", 0)):
                byte_addr(e, t, "a7", k, "a3", 1)
            for t in ("t0", "t1", "t2", "t3"):
                e(f"lbu  {t}, 0({t})")
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
        e("ret")
        e.label(".Lkx_unaligned")
        load_le_words_bytes(e, S, "a1")
        e("j    .Lkx_go")
    return e.text()


def gen_dec(xsbox):
    e = start_file(xsbox, "AES-128 decryption (equivalent inverse cipher) and its key schedule", dec=True,
                   notes=["keyexp_dec calls aes128_keyexp_enc (aes_table_enc.S)."])
    # ---- decryption key schedule: encryption schedule, rounds reversed,
    # InvMixColumns applied to round keys 1..9 (via Td[S[x]]).
    with e.function("aes128_keyexp_dec", doc="(rk, key): keyexp_enc, reversed, InvMixColumns on 1..9"):
        e("addi sp, sp, -16")
        e("sw   ra, 12(sp)")
        e("sw   a0, 8(sp)")
        e("call aes128_keyexp_enc")
        e("lw   a0, 8(sp)")
        e("lw   ra, 12(sp)")
        e("addi sp, sp, 16")
        e.la_split("a3", f"aes128_table_td + {BASE_OFF}")
        e.la_split("a2", "aes128_table_sbox")
        e.comment("swap round keys 0 and 10 (plain)")
        for j in range(4):
            e(f"lw   t0, {4 * j}(a0)")
            e(f"lw   t1, {160 + 4 * j}(a0)")
            e(f"sw   t1, {4 * j}(a0)")
            e(f"sw   t0, {160 + 4 * j}(a0)")
        e.comment("words of rounds 1..9: pointer a4 walks up from rk+16, a5 down from rk+144")
        e("addi a4, a0, 16")
        e("addi a5, a0, 144")
        e("li   a7, 4", note="4 pairs of rounds, then round 5 alone")
        e.label(".Lkd_pair")
        for j in range(4):
            e(f"lw   a6, {4 * j}(a4)")
            e("jal  t0, .Lkd_imc")
            e("mv   t5, a1")
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
        # link in t0 (x5: an alternate link register, so the return-address stack predicts the
        # jr back to each of the twelve call sites)
        e.label(".Lkd_imc", "a1 = InvMixColumns(a6) = Td0[S[b0]] ^ .. ^ Td3[S[b3]]; t1..t4; link t0")
        for k, t in enumerate(["t1", "t2", "t3", "t4"]):
            byte_addr(e, t, "a6", k, "a2", 1)
        for t in ["t1", "t2", "t3", "t4"]:
            e(f"lbu  {t}, 0({t})")
        for t in ["t1", "t2", "t3", "t4"]:
            if xsbox:
                byte_addr(e, t, t, 0, "a3", 4)
            else:                                 # already a byte: scale and add
                e(f"slli {t}, {t}, 2")
                e(f"add  {t}, {t}, a3")
        for k, t in enumerate(["t1", "t2", "t3", "t4"]):
            e(f"lw   {t}, T{k}_AT({t})")
        e("xor  a1, t1, t2")
        e("xor  a1, a1, t3")
        e("xor  a1, a1, t4")
        e("jr   t0")
    return e.text()


def generate(folder, xsbox):
    for name, text in (("aes_table_enc.S", gen_enc(xsbox)), ("aes_table_dec.S", gen_dec(xsbox))):
        with open(os.path.join(folder, name), "w") as f:
            f.write(text)


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    generate(here, False)
    generate(os.path.join(here, "..", "table-xsbox"), True)
