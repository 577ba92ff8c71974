#!/usr/bin/env python3
"""Generates the MISTY1 (RFC 2994, 8 rounds) kernels:

    rv32i/misty1.S   RV32I
    zbkb/misty1.S    RV32I + Zbkb: rev8 and pack for the big-endian block (aligned path)

Run: python3 gen.py   (rewrites both files).

Representation: every 16-bit value v (the four block halves, the expanded key EK[0..15], the
FO/FI intermediates) is held as 4v. Then a 9- or 7-bit field of a value is a table word
offset after one `andi` (plus one `srli` for a high field), and the tables' words are 4x too.

FI (RFC 2994 §2.3) in three word lookups. With x = a << 7 | b (a 9 bits, b 7 bits):
    d9 = S9[a] ^ b,  d7 = S7[b] ^ (d9 & 0x7f)          so y = d7 << 9 | d9 is
    y  = TA[a] ^ TB[b],  TA[a] = (S9[a] & 0x7f) << 9 | S9[a],  TB[b] = (S7[b] ^ b) << 9 | b;
    y ^= KI (d7 ^= KI >> 9, d9 ^= KI & 0x1ff at once);  with c = y & 0x1ff:
    out = (y & 0xfe00) | (S9[c] ^ y >> 9) = y ^ TC[c] ^ (y >> 9),  TC[c] = S9[c] ^ c.
Scaled by 4, (4y >> 9) = 4(y >> 9) ^ (c >> 7) (bits 8..7 of y drop into bits 1..0), so the
table holds TC4[c] = 4 TC[c] ^ (c >> 7) and the kernel needs no mask there:
    srli, andi, add, lw (TA) | andi, add, lw (TB) | lw KI | xor, xor | andi, add, lw (TC) |
    srli, xor, xor  =  16 instructions per FI.

Round keys (uint32_t rk[MISTY1_RK_WORDS], opaque to callers): rk[i] = 4 EK[i], i = 0..15
(EK[8..15] = KI, the FI keys; FL and FO read EK[0..7] and EK[8..15] as the RFC does).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ref  # noqa: E402

RV32I, ZBKB = "rv32i", "zbkb"
V = RV32I

TA = [4 * (((s & 0x7f) << 9) | s) for s in ref.S9]
TB = [4 * (((ref.S7[b] ^ b) << 9) | b) for b in range(128)]
TC = [4 * (ref.S9[c] ^ c) ^ (c >> 7) for c in range(512)]


def fi_model(x4, k4):
    """FI on 4x values, as the kernel computes it (checked against ref.fi in check_tables)"""
    y = TA[(x4 >> 9) & 0x1ff] ^ TB[(x4 >> 2) & 0x7f] ^ k4
    return y ^ TC[(y >> 2) & 0x1ff] ^ (y >> 9)


def check_tables():
    import random
    rng = random.Random(3)
    for _ in range(20000):
        x, k = rng.getrandbits(16), rng.getrandbits(16)
        assert fi_model(4 * x, 4 * k) == 4 * ref.fi(x, k), (x, k)


class Emit:
    def __init__(self):
        self.lines = []

    def __call__(self, s, comment=None):
        self.lines.append(f"    {s:<40}# {comment}" if comment else "    " + s)

    def label(self, s):
        self.lines.append(s + ":")

    def raw(self, s):
        self.lines.append(s)

    def text(self):
        return "\n".join(self.lines) + "\n"


# Tables TA (2 KiB) | TB (512 B) | TC (2 KiB) in .data; BA = TA + 2048 reaches TA and TB,
# BC = BA + 2047 reaches TC, with 12-bit load offsets.
OFF_A, OFF_B, OFF_C = -2048, 0, 512 - 2047

OUT, IN, RK, BA, BC = "a0", "a1", "a2", "a3", "a4"
D0H, D0L, D1H, D1L = "a5", "a6", "a7", "t0"
U, W = "t1", "t2"                    # FO's t0 and t1
TA_, TB_ = "t3", "t4"                # FI temporaries
K1, K2 = "t5", "t6"                  # round keys loaded ahead of their use


def fi(e, x, ki, ki_in_reg=False, src=None):
    """x = FI(src, KI) (4x values; src defaults to x); KI is rk word `ki`, or a register if
    ki_in_reg. 16 instructions with the KI load (15 without); no load result is used by the
    next instruction."""
    src = src or x
    e(f"srli {TA_}, {src}, 7")
    e(f"andi {TB_}, {src}, 0x1fc", "4 * (x & 0x7f)")
    e(f"andi {TA_}, {TA_}, 0x7fc", "4 * (x >> 7)")
    e(f"add  {TB_}, {TB_}, {BA}")
    e(f"add  {TA_}, {TA_}, {BA}")
    e(f"lw   {TB_}, {OFF_B}({TB_})", "TB[x & 0x7f]")
    if ki_in_reg:
        e(f"lw   {TA_}, {OFF_A}({TA_})", "TA[x >> 7]")
        e(f"xor  {x}, {ki}, {TB_}")
    else:
        e(f"lw   {x}, {4 * ki}({RK})", f"KI = EK[{ki}]")
        e(f"lw   {TA_}, {OFF_A}({TA_})", "TA[x >> 7]")
        e(f"xor  {x}, {x}, {TB_}")
    e(f"xor  {x}, {x}, {TA_}", "y = TA ^ TB ^ KI")
    e(f"andi {TB_}, {x}, 0x7fc")
    e(f"add  {TB_}, {TB_}, {BC}")
    e(f"lw   {TB_}, {OFF_C}({TB_})", "TC[y & 0x1ff]")
    e(f"srli {TA_}, {x}, 9")
    e(f"xor  {x}, {x}, {TA_}")
    e(f"xor  {x}, {x}, {TB_}", "FI")


def fo(e, k, sh, sl, dh, dl):
    """(dh, dl) ^= FO((sh, sl), k) -- RFC 2994 §2.3 with EK[(k+7)%8] and EK[(k+4)%8] loaded
    while the first two FIs run."""
    e.raw(f"    # FO{k}: ({dh}, {dl}) ^= FO(({sh}, {sl}))")
    e(f"lw   {K1}, {4 * k}({RK})", f"EK[{k}]")
    e(f"lw   {K2}, {4 * ((k + 2) % 8)}({RK})", f"EK[{(k + 2) % 8}]")
    e(f"xor  {U}, {sh}, {K1}")
    e(f"xor  {W}, {sl}, {K2}")
    fi(e, U, (k + 5) % 8 + 8)
    e(f"lw   {K1}, {4 * ((k + 7) % 8)}({RK})", f"EK[{(k + 7) % 8}]")
    e(f"lw   {K2}, {4 * ((k + 4) % 8)}({RK})", f"EK[{(k + 4) % 8}]")
    e(f"xor  {U}, {U}, {sl}", "t0")
    fi(e, W, (k + 1) % 8 + 8)
    e(f"xor  {W}, {W}, {U}", "t1")
    e(f"xor  {U}, {U}, {K1}")
    fi(e, U, (k + 3) % 8 + 8)
    e(f"xor  {U}, {U}, {W}", "t0")
    e(f"xor  {W}, {W}, {K2}", "t1")
    e(f"xor  {dh}, {dh}, {W}")
    e(f"xor  {dl}, {dl}, {U}")


def fl(e, k, h, l, inv):
    ka, ko = fl_key_index(k)
    e.raw(f"    # FL{'INV' if inv else ''}{k} on ({h}, {l})")
    loads = [(K1, ka), (K2, ko)]
    for r, i in (loads[::-1] if inv else loads):     # the key used first is loaded first
        e(f"lw   {r}, {4 * i}({RK})", f"EK[{i}]")
    if not inv:
        e(f"and  {K1}, {K1}, {h}")
        e(f"xor  {l}, {l}, {K1}", "d1 ^= d0 & k")
        e(f"or   {K2}, {K2}, {l}")
        e(f"xor  {h}, {h}, {K2}", "d0 ^= d1 | k'")
    else:
        e(f"or   {K2}, {K2}, {l}")
        e(f"xor  {h}, {h}, {K2}", "d0 ^= d1 | k'")
        e(f"and  {K1}, {K1}, {h}")
        e(f"xor  {l}, {l}, {K1}", "d1 ^= d0 & k")


def fl_key_index(k):
    """rk word indices of FL number k's AND key and OR key (RFC 2994 §2.3)"""
    if k % 2 == 0:
        return k // 2, (k // 2 + 6) % 8 + 8
    return ((k - 1) // 2 + 2) % 8 + 8, ((k - 1) // 2 + 4) % 8


def load_halves_bytes(e, dsts, src, off):
    """dsts[j] = 4 * big-endian halfword at src + off + 2j (any alignment), two at a time so
    that no lbu result is used within its 3-cycle latency on the E31"""
    tmp = [TA_, TB_]
    for j in range(0, len(dsts), 2):
        pair = dsts[j:j + 2]
        for k, d in enumerate(pair):
            e(f"lbu  {d}, {off + 2 * (j + k)}({src})")
            e(f"lbu  {tmp[k]}, {off + 2 * (j + k) + 1}({src})")
        for k, d in enumerate(pair):
            e(f"slli {d}, {d}, 10")
            e(f"slli {tmp[k]}, {tmp[k]}, 2")
            e(f"or   {d}, {d}, {tmp[k]}")


def load_words_halves(e, halves, src):
    """ZBKB, word-aligned src: halves = 4 * the big-endian halfwords (lw, rev8, split)"""
    lows = halves[1::2]
    for j, l in enumerate(lows):
        e(f"lw   {l}, {4 * j}({src})")
    for h, l in zip(halves[0::2], lows):
        e(f"rev8 {l}, {l}")
        e(f"srli {h}, {l}, 14")
        e(f"andi {h}, {h}, -4", "4 * high half")
        e(f"slli {l}, {l}, 16")
        e(f"srli {l}, {l}, 14", "4 * low half")


def store_half_bytes(e, src, dst, off, tmp):
    """big-endian bytes of src / 4 to dst + off (any alignment)"""
    e(f"srli {tmp}, {src}, 10")
    e(f"sb   {tmp}, {off}({dst})")
    e(f"srli {tmp}, {src}, 2")
    e(f"sb   {tmp}, {off + 1}({dst})")


def load_block(e, halves, tag):
    """halves (4 registers) = 4 * the block's big-endian halfwords"""
    if V == ZBKB:
        e(f"andi {K1}, {IN}, 3")
        e(f"bnez {K1}, .L{tag}_load_bytes", "in not word-aligned")
        load_words_halves(e, halves, IN)
        e.label(f".L{tag}_loaded")
        return
    load_halves_bytes(e, halves, IN, 0)


def store_block(e, halves, tag, load_halves):
    """the block from halves; for ZBKB also the byte-wise load path of load_block"""
    if V == ZBKB:
        e(f"andi {K1}, {OUT}, 3")
        e(f"bnez {K1}, .L{tag}_store_bytes", "out not word-aligned")
        for j in range(2):
            h, l = halves[2 * j], halves[2 * j + 1]
            e(f"srli {h}, {h}, 2")
            e(f"srli {l}, {l}, 2")
            e(f"pack {h}, {l}, {h}")
            e(f"rev8 {h}, {h}")
            e(f"sw   {h}, {4 * j}({OUT})")
        e("ret")
        e.label(f".L{tag}_store_bytes")
    for j, r in enumerate(halves):
        store_half_bytes(e, r, OUT, 2 * j, TA_)
    e("ret")
    if V == ZBKB:
        e.label(f".L{tag}_load_bytes")
        load_halves_bytes(e, load_halves, IN, 0)
        e(f"j    .L{tag}_loaded")


def tables_setup(e):
    e(f"lui  {BA}, %hi(misty1_ta + 2048)")
    e(f"addi {BA}, {BA}, %lo(misty1_ta + 2048)", "TA at BA - 2048, TB at BA")
    e(f"addi {BC}, {BA}, 2047", f"TC at BC + {OFF_C}")


def function(e, name):
    e.raw(f"    .globl {name}")
    e.raw(f"    .type {name}, @function")
    e.raw("    .p2align 2")
    e.label(name)


def gen_encrypt(e):
    function(e, "misty1_encrypt")
    tables_setup(e)
    load_block(e, [D0H, D0L, D1H, D1L], "enc")
    for r in range(0, 8, 2):
        fl(e, r, D0H, D0L, False)
        fl(e, r + 1, D1H, D1L, False)
        fo(e, r, D0H, D0L, D1H, D1L)
        fo(e, r + 1, D1H, D1L, D0H, D0L)
    fl(e, 8, D0H, D0L, False)
    fl(e, 9, D1H, D1L, False)
    store_block(e, [D1H, D1L, D0H, D0L], "enc", [D0H, D0L, D1H, D1L])
    e.raw("    .size misty1_encrypt, .-misty1_encrypt")


def gen_decrypt(e):
    function(e, "misty1_decrypt")
    tables_setup(e)
    load_block(e, [D1H, D1L, D0H, D0L], "dec")
    fl(e, 8, D0H, D0L, True)
    fl(e, 9, D1H, D1L, True)
    for r in range(6, -1, -2):
        fo(e, r + 1, D1H, D1L, D0H, D0L)
        fo(e, r, D0H, D0L, D1H, D1L)
        fl(e, r, D0H, D0L, True)
        fl(e, r + 1, D1H, D1L, True)
    store_block(e, [D0H, D0L, D1H, D1L], "dec", [D1H, D1L, D0H, D0L])
    e.raw("    .size misty1_decrypt, .-misty1_decrypt")


def gen_keyexp(e):
    """rk[0..7] = 4 * the key's big-endian halfwords, rk[8 + i] = FI(rk[i], rk[(i + 1) % 8])"""
    function(e, "misty1_keyexp_enc")
    rk, key = "a0", "a1"
    ek = ["a5", "a6", "a7", "t0", "t1", "t2", "t5", "t6"]
    e(f"lui  {BA}, %hi(misty1_ta + 2048)")
    e(f"addi {BA}, {BA}, %lo(misty1_ta + 2048)")
    e(f"addi {BC}, {BA}, 2047")
    if V == ZBKB:
        e(f"andi {TA_}, {key}, 3")
        e(f"bnez {TA_}, .Lkx_load_bytes", "key not word-aligned")
        load_words_halves(e, ek, key)
        e.label(".Lkx_loaded")
    else:
        load_halves_bytes(e, ek, key, 0)
    for i, r in enumerate(ek):
        e(f"sw   {r}, {4 * i}({rk})", f"EK[{i}]")
    x = "a2"
    for i in range(8):
        fi(e, x, ek[(i + 1) % 8], ki_in_reg=True, src=ek[i])
        e(f"sw   {x}, {4 * (8 + i)}({rk})", f"EK[{8 + i}] = FI(EK[{i}], EK[{(i + 1) % 8}])")
    e("ret")
    if V == ZBKB:
        e.label(".Lkx_load_bytes")
        load_halves_bytes(e, ek, key, 0)
        e("j    .Lkx_loaded")
    e.raw("    .size misty1_keyexp_enc, .-misty1_keyexp_enc")


def words(vals):
    return "\n".join("    .word " + ", ".join("0x%05x" % v for v in vals[i:i + 8]) for i in range(0, len(vals), 8))


HEADER = {RV32I: "RV32I: byte loads and stores for the big-endian block (any alignment)",
          ZBKB: "RV32I + Zbkb: lw/rev8 for a word-aligned in, pack/rev8/sw for a word-aligned out"}


def generate(variant):
    global V
    V = variant
    e = Emit()
    e.raw(f"/* MISTY1 (RFC 2994), 8 rounds. {HEADER[variant]}.")
    e.raw("   GENERATED by ../gen.py -- edit the generator, not this file. 16-bit values are held")
    e.raw("   times 4 (see gen.py); FI = three lookups in TA, TB, TC (4.5 KiB, .data = DTIM). */")
    e.raw('    .section .data.misty1_tables, "aw"')
    e.raw("    .p2align 2")
    e.raw("misty1_ta:   # 4 * ((S9[a] & 0x7f) << 9 | S9[a])")
    e.raw(words(TA))
    e.raw("misty1_tb:   # 4 * ((S7[b] ^ b) << 9 | b)")
    e.raw(words(TB))
    e.raw("misty1_tc:   # 4 * (S9[c] ^ c) ^ (c >> 7)")
    e.raw(words(TC))
    e.raw("    .text")
    gen_keyexp(e)
    gen_encrypt(e)
    gen_decrypt(e)
    return e.text()


def main():
    check_tables()
    for variant in (RV32I, ZBKB):
        with open(os.path.join(HERE, variant, "misty1.S"), "w") as f:
            f.write(generate(variant))


if __name__ == "__main__":
    main()
