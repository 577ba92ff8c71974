#!/usr/bin/env python3
"""Generates the SM4 (GB/T 32907-2016; draft-ribose-cfrg-sm4-10) kernels:

    table/sm4.S   RV32I, T-tables: four 1 KiB encryption tables T0..T3 and four key-schedule
                  tables (L' instead of L), 8 KiB in .data (DTIM)
    zksed/sm4.S   RV32I + Zksed (sm4ed, sm4ks) + Zbkb (packh/pack on the unaligned path):
                  no tables but FK/CK, constant time
    rv32i-ct/sm4.S, zbkb-ct/sm4.S   constant time without Zksed: a bitsliced S-box circuit,
                  written by ctgen.py (its docstring and ctsbox.py's say how)

Run: python3 gen.py   (rewrites the four files).

table and zksed work on "swapped" words: w' = the little-endian word `lw` reads from the standard's
big-endian word W (w' = bswap(W)), so blocks, keys and round keys need no byte reversal.
The round function X4 = X0 ^ T(X1 ^ X2 ^ X3 ^ rk), T = L(tau(.)), becomes
    x4' = x0' ^ T'0[b0] ^ T'1[b1] ^ T'2[b2] ^ T'3[b3],   bj = byte j (bits 8j+7..8j) of
    x1' ^ x2' ^ x3' ^ rk',   T'j[b] = bswap(L(S(b) << 8(3 - j))) = rol(bswap(L(S(b) << 24)), 8j),
which is exactly what `sm4ed x, x, t, j` adds (RISC-V scalar crypto v1.0, sm4ed); the key
schedule uses L'(B) = B ^ (B <<< 13) ^ (B <<< 23) the same way (sm4ks).
Two rounds share X2 ^ X3: t_i = (X2 ^ X3) ^ X1 ^ rk_i, t_{i+1} = (X2 ^ X3) ^ X4 ^ rk_{i+1}.

Round keys: uint32_t rk[SM4_RK_WORDS] = rk_0' .. rk_31' (decryption reads them backwards).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from common.asm import Asm, header  # noqa: E402
from common.buffers import store_le_words_bytes  # noqa: E402
from common.tables import table_address  # noqa: E402
from common.gf256 import inverse  # noqa: E402

TABLE, ZKSED = "table", "zksed"
SBOX_POLY = 0x1F5                        # x^8 + x^7 + x^6 + x^5 + x^4 + x^2 + 1


# ---------------------------------------------------------------- constants (GB/T 32907 §6, §7.3)
def _affine(x):
    """bit i = parity(x & (0xa7 <<< i)) ^ bit i of 0xd3 (the affine map around the inverse)"""
    r = 0
    for i in range(8):
        m = ((0xa7 << i) | (0xa7 >> (8 - i))) & 0xff
        r |= (bin(x & m).count("1") & 1) << i
    return r ^ 0xd3


SBOX = [_affine(inverse(_affine(x), SBOX_POLY)) for x in range(256)]
# the standard's table, first row (§6.2): typed from GB/T 32907 to check the algebra
assert SBOX[:16] == [0xd6, 0x90, 0xe9, 0xfe, 0xcc, 0xe1, 0x3d, 0xb7,
                     0x16, 0xb6, 0x14, 0xc2, 0x28, 0xfb, 0x2c, 0x05]
FK = [0xA3B1BAC6, 0x56AA3350, 0x677D9197, 0xB27022DC]
CK = [int.from_bytes(bytes((28 * i + 7 * j) & 0xff for j in range(4)), "big") for i in range(32)]
assert CK[0] == 0x00070E15 and CK[31] == 0x646B7279


def rol(x, n):
    return ((x << n) | (x >> (32 - n))) & 0xffffffff


def bswap(x):
    return int.from_bytes(x.to_bytes(4, "big"), "little")


def L(b):
    return b ^ rol(b, 2) ^ rol(b, 10) ^ rol(b, 18) ^ rol(b, 24)


def L_key(b):
    return b ^ rol(b, 13) ^ rol(b, 23)


def tables(lin):
    return [[bswap(lin(SBOX[b] << (8 * (3 - j)))) for b in range(256)] for j in range(4)]


T_ENC, T_KEY = tables(L), tables(L_key)


def model_encrypt(key, block):
    """the swapped-word computation the kernels do (checked against `cryptography` in check)"""
    def t(tab, x):
        return tab[0][x & 255] ^ tab[1][(x >> 8) & 255] ^ tab[2][(x >> 16) & 255] ^ tab[3][x >> 24]
    k = [int.from_bytes(key[4 * i:4 * i + 4], "little") ^ bswap(FK[i]) for i in range(4)]
    for i in range(32):
        k.append(k[i] ^ t(T_KEY, k[i + 1] ^ k[i + 2] ^ k[i + 3] ^ bswap(CK[i])))
    x = [int.from_bytes(block[4 * i:4 * i + 4], "little") for i in range(4)]
    for i in range(32):
        x.append(x[i] ^ t(T_ENC, x[i + 1] ^ x[i + 2] ^ x[i + 3] ^ k[i + 4]))
    return b"".join(v.to_bytes(4, "little") for v in x[:31:-1])


def check():
    import random
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    rng = random.Random(2)
    for _ in range(200):
        key, pt = rng.randbytes(16), rng.randbytes(16)
        assert model_encrypt(key, pt) == Cipher(algorithms.SM4(key), modes.ECB()).encryptor().update(pt)


# ---------------------------------------------------------------- emission
TABLE_OFF = [-2048, -1024, 0, 1024]      # T'j at B + TABLE_OFF[j], B = T'0 + 2048
TMP = ["t2", "t3", "t4", "t5"]


def f_add(e, x, t, base, key):
    """x ^= T'(t) (T2' for the key schedule): four lookups, or four sm4ed/sm4ks"""
    if e.has("zksed"):
        op = "sm4ks" if key else "sm4ed"
        for j in range(4):
            e(f"{op} {x}, {x}, {t}, {j}")
        return
    for j in range(4):
        r = TMP[j]
        table_address(e, r, t, j, base, 4)
        e(f"lw   {r}, T{j}_AT({r})", note=f"T{'K' if key else ''}{j}[byte {j}]")
    for j in range(4):
        e(f"xor  {x}, {x}, {TMP[j]}")


def rounds(e, x, words, base, key, store=None):
    """32 rounds on the four registers x (x[k] = X_{i+k}); round i's key from `words(i)` =
    (register loaded ahead, load instruction text) -- see the callers. `store(i, reg)` is
    called after round i with the register holding X_{i+4}."""
    s, t = "t1", "t0"
    for i in range(32):
        x0, x1, x2, x3 = x[i % 4], x[(i + 1) % 4], x[(i + 2) % 4], x[(i + 3) % 4]
        kreg = words(e, i)
        e.comment(f"round {i}: {x0} ^= T({x1} ^ {x2} ^ {x3} ^ rk{i})")
        if i % 2 == 0:
            e(f"xor  {s}, {x2}, {x3}", note="shared by this round and the next")
            e(f"xor  {t}, {s}, {x1}")
        else:
            e(f"xor  {t}, {s}, {x3}")
        e(f"xor  {t}, {t}, {kreg}")
        f_add(e, x0, t, base, key)
        if store:
            store(i, x0)


def load_words(e, regs, src, tag):
    """regs = the four words at src as `lw` reads them; an unaligned src takes byte loads"""
    e(f"andi t0, {src}, 3")
    e(f"bnez t0, .L{tag}_load_bytes", note="not word-aligned")
    for j, r in enumerate(regs):
        e(f"lw   {r}, {4 * j}({src})")
    e.label(f".L{tag}_loaded")


def load_words_bytes(e, regs, src, tag):
    e.label(f".L{tag}_load_bytes")
    for j, r in enumerate(regs):
        b = [r, "t2", "t3", "t4"]
        for k in range(4):
            e(f"lbu  {b[k]}, {4 * j + k}({src})")
        if e.has("zksed"):
            e(f"packh {r}, {r}, t2")
            e("packh t3, t3, t4")
            e(f"pack {r}, {r}, t3")
        else:
            for k in range(1, 4):
                e(f"slli {b[k]}, {b[k]}, {8 * k}")
            e(f"or   {r}, {r}, t2")
            e("or   t3, t3, t4")
            e(f"or   {r}, {r}, t3")
    e(f"j    .L{tag}_loaded")


def gen_block(e, name, dec):
    """sm4_encrypt / sm4_decrypt(out a0, in a1, rk a2)"""
    e.begin_function(name, doc="(out, in, rk)")
    tag = "dec" if dec else "enc"
    x = ["a4", "a5", "a6", "a7"]
    base, kr = "a3", "t6"
    if not e.has("zksed"):
        e(f"lui  {base}, %hi(sm4_t0 + 2048)")
        e(f"addi {base}, {base}, %lo(sm4_t0 + 2048)", note="T'0..T'3 at B - 2048, -1024, +0, +1024")
    load_words(e, x, "a1", tag)

    def words(e, i):
        # rk_i (encryption) or rk_{31-i} (decryption), loaded one round ahead into a1/t6
        reg = [kr, "a1"][i % 2]
        if i == 0:
            e(f"lw   {reg}, {4 * (31 if dec else 0)}(a2)")
        if i < 31:
            nxt = 31 - (i + 1) if dec else i + 1
            e(f"lw   {[kr, 'a1'][(i + 1) % 2]}, {4 * nxt}(a2)", note=f"rk{nxt} for the next round")
        return reg
    rounds(e, x, words, base, key=False)
    # X32..X35 are in x[0..3]; the output is X35, X34, X33, X32
    e("andi t0, a0, 3")
    e(f"bnez t0, .L{tag}_store_bytes", note="out not word-aligned")
    for j in range(4):
        e(f"sw   {x[3 - j]}, {4 * j}(a0)")
    e("ret")
    e.label(f".L{tag}_store_bytes")
    store_le_words_bytes(e, x[::-1], "a0", "t1")
    e("ret")
    load_words_bytes(e, x, "a1", tag)
    e.end_function()


def gen_keyexp(e):
    """sm4_keyexp_enc(rk a0, key a1): rk_i' = K_{i+4}', K_i' = MK_i' ^ FK_i'"""
    e.begin_function("sm4_keyexp_enc", doc="(rk, key)")
    x = ["a4", "a5", "a6", "a7"]
    base, consts, kr = "a3", "a2", "t6"
    e(f"lui  {consts}, %hi(sm4_fk_ck)")
    e(f"addi {consts}, {consts}, %lo(sm4_fk_ck)", note="FK'0..3, CK'0..31")
    if not e.has("zksed"):
        e(f"lui  {base}, %hi(sm4_tk0 + 2048)")
        e(f"addi {base}, {base}, %lo(sm4_tk0 + 2048)", note="key-schedule tables TK'0..3")
    load_words(e, x, "a1", "kx")
    for j in range(4):
        e(f"lw   t{j}, {4 * j}({consts})", note=f"FK'{j}")
    for j in range(4):
        e(f"xor  {x[j]}, {x[j]}, t{j}")

    def words(e, i):
        reg = [kr, "a1"][i % 2]
        if i == 0:
            e(f"lw   {reg}, 16({consts})", note="CK'0")
        if i < 31:
            e(f"lw   {[kr, 'a1'][(i + 1) % 2]}, {16 + 4 * (i + 1)}({consts})", note=f"CK'{i + 1} for the next round")
        return reg

    def store(i, reg):
        e(f"sw   {reg}, {4 * i}(a0)", note=f"rk{i}")
    rounds(e, x, words, base, key=True, store=store)
    e("ret")
    load_words_bytes(e, x, "a1", "kx")
    e.end_function()


def data(e):
    e.section(".data.sm4_tables")
    e.directive(".p2align 2")
    e.label("sm4_fk_ck", "FK'0..3, CK'0..31 (byte-swapped: what lw gives for the standard's words)")
    e.words([bswap(v) for v in FK + CK])
    if e.has("zksed"):
        return
    for name, tabs, what in (("sm4_t", T_ENC, "L"), ("sm4_tk", T_KEY, "L'")):
        for j in range(4):
            e.label(f"{name}{j}", f"bswap({what}(S(b) << {8 * (3 - j)}))")
            e.words(tabs[j])


HEADER = {TABLE: "RV32I, T-tables (8 KiB in .data = DTIM)",
          ZKSED: "RV32I + Zksed (sm4ed, sm4ks) + Zbkb (pack, packh on the unaligned path)"}


def generate(variant):
    e = Asm({"zksed", "zbkb"} if variant == ZKSED else ())
    e.raw(header(f"SM4 (GB/T 32907-2016), {HEADER[variant]}.", "../gen.py",
                 ["Words are held byte-swapped (as lw reads the standard's big-endian words); see gen.py."]).rstrip())
    data(e)
    e.section(".text")
    if not e.has("zksed"):
        e.comment("T-table offsets from B (a3) = T'0 + 2048 (TK'0 + 2048 in the key schedule)")
        for j in range(4):
            e.equ(f"T{j}_AT", TABLE_OFF[j])
    gen_keyexp(e)
    gen_block(e, "sm4_encrypt", dec=False)
    gen_block(e, "sm4_decrypt", dec=True)
    return e.text()


def main():
    import ctgen
    if "--check" in sys.argv:
        check()
        print("gen.py model = cryptography SM4 on 200 random keys")
        ctgen.check()
        print("ctgen.py model (bitsliced circuit, folded constants) = cryptography SM4 on 100 random keys")
        return
    for variant in (TABLE, ZKSED):
        with open(os.path.join(HERE, variant, "sm4.S"), "w") as f:
            f.write(generate(variant))
    for variant in (ctgen.RV32I_CT, ctgen.ZBKB_CT):
        text, _ = ctgen.generate(variant)
        with open(os.path.join(HERE, variant, "sm4.S"), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
