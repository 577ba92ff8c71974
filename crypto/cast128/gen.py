#!/usr/bin/env python3
"""Generates the CAST-128 (RFC 2144, 128-bit key, 16 rounds) kernels:

    rv32i/cast128.S        RV32I
    zbkb/cast128.S         RV32I + Zbkb: rol for the key-dependent rotation, rev8 for byte order
    table-xsbox/cast128.S  RV32I + seed 003's sboxaddrw (ise/sboxaddrw): an S-box address in one
                           instruction

Run: python3 gen.py   (rewrites the three files; `python3 gen.py --check` compares the Python
model below, which reads the same schedule tables the emitted code is generated from, with
the `cryptography` package's CAST5 on random keys).

Blocks and keys are big-endian (RFC 2144 §2.1: x0 is the most significant byte of the first
key word). Round i (1..16): I = (Km_i op D) <<< Kr_i, f = ((S1[Ia] o1 S2[Ib]) o2 S3[Ic]) o3 S4[Id]
(Ia the most significant byte of I), with (op, o1, o2, o3) = (+, ^, -, +), (^, -, +, ^) or
(-, +, ^, -) for rounds of type 1, 2, 3 = (i - 1) % 3 + 1.

Round-key layout (uint32_t rk[CAST128_RK_WORDS], opaque to callers):
  rv32i, table-xsbox:  rk[3i] = Km, rk[3i+1] = Kr, rk[3i+2] = -Kr      (48 words)
                       the rotation is sll by Kr, srl by -Kr (both use the low 5 bits), or;
  zbkb:                rk[2i] = Km, rk[2i+1] = Kr + 2                   (32 words)
                       rol by Kr + 2 gives J = I <<< 2, where bytes d, c, b of I sit at bits
                       9..2, 17..10, 25..18: their S-box word offsets (4 * byte) need one
                       `andi 0x3fc` (after `srli`), and byte a one `rori J, 24` first.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from sboxes import S  # noqa: E402

RV32I, ZBKB, XSBOX = "rv32i", "zbkb", "table-xsbox"
ROUNDS = 16
OPS = {1: ("add", "xor", "sub", "add"), 2: ("xor", "sub", "add", "xor"), 3: ("sub", "add", "xor", "sub")}


def rtype(i):
    """type (1, 2, 3) of round i = 1..16"""
    return (i - 1) % 3 + 1


# ---------------------------------------------------------------- the key schedule, RFC 2144 §2.4
# Bytes are named by word set ('x' or 'z') and index 0..15 (x0 = most significant byte of
# x word 0). A step is (destination, source word or None, five (S-box 5..8, byte) lookups).
def _terms(s):
    return [(int(t[0]), t[1], int(t[2], 16)) for t in s.split()]


Z_FROM_X = [("z0", "x0", "5xD 6xF 7xC 8xE 7x8"), ("z1", "x2", "5z0 6z2 7z1 8z3 8xA"),
            ("z2", "x3", "5z7 6z6 7z5 8z4 5x9"), ("z3", "x1", "5zA 6z9 7zB 8z8 6xB")]
X_FROM_Z = [("x0", "z2", "5z5 6z7 7z4 8z6 7z0"), ("x1", "z0", "5x0 6x2 7x1 8x3 8z2"),
            ("x2", "z1", "5x7 6x6 7x5 8x4 5z1"), ("x3", "z3", "5xA 6x9 7xB 8x8 6z3")]
K_GROUPS = [  # the four groups of four subkeys, in the order they are made
    "5z8 6z9 7z7 8z6 5z2|5zA 6zB 7z5 8z4 6z6|5zC 6zD 7z3 8z2 7z9|5zE 6zF 7z1 8z0 8zC",
    "5x3 6x2 7xC 8xD 5x8|5x1 6x0 7xE 8xF 6xD|5x7 6x6 7x8 8x9 7x3|5x5 6x4 7xA 8xB 8x7",
    "5z3 6z2 7zC 8zD 5z9|5z1 6z0 7zE 8zF 6zC|5z7 6z6 7z8 8z9 7z2|5z5 6z4 7zA 8zB 8z6",
    "5x8 6x9 7x7 8x6 5x3|5xA 6xB 7x5 8x4 6x7|5xC 6xD 7x3 8x2 7x8|5xE 6xF 7x1 8x0 8xD",
]


def schedule():
    """The steps making K1..K32 in order: ('word', dst, src, terms) or ('key', n, terms)."""
    steps, n = [], 1
    for half in range(2):
        for g, group in enumerate(K_GROUPS):
            for dst, src, terms in (Z_FROM_X if g % 2 == 0 else X_FROM_Z):
                steps.append(("word", dst, src, _terms(terms)))
            for terms in group.split("|"):
                steps.append(("key", n, _terms(terms)))
                n += 1
    return steps


# ---------------------------------------------------------------- Python model (for --check)
def _byte(words, i):
    return (words[i // 4] >> (24 - 8 * (i % 4))) & 0xff


def model_keys(key):
    w = {"x": [int.from_bytes(key[4 * j:4 * j + 4], "big") for j in range(4)], "z": [0] * 4}
    k = [None] * 33
    for st in schedule():
        acc = 0
        for sb, ws, i in st[-1]:
            acc ^= S[sb - 1][_byte(w[ws], i)]
        if st[0] == "word":
            w[st[1][0]][int(st[1][1])] = w[st[2][0]][int(st[2][1])] ^ acc
        else:
            k[st[1]] = acc
    return k[1:17], [v & 31 for v in k[17:33]]


def model_encrypt(key, block):
    km, kr = model_keys(key)
    M = 0xffffffff
    f = {"add": lambda a, b: (a + b) & M, "sub": lambda a, b: (a - b) & M, "xor": lambda a, b: a ^ b}
    lr = [int.from_bytes(block[:4], "big"), int.from_bytes(block[4:], "big")]
    for i in range(1, ROUNDS + 1):
        op, o1, o2, o3 = OPS[rtype(i)]
        x = f[op](km[i - 1], lr[1])
        x = ((x << kr[i - 1]) | (x >> (32 - kr[i - 1]))) & M
        v = f[o3](f[o2](f[o1](S[0][x >> 24], S[1][(x >> 16) & 255]), S[2][(x >> 8) & 255]), S[3][x & 255])
        lr = [lr[1], lr[0] ^ v]
    return lr[1].to_bytes(4, "big") + lr[0].to_bytes(4, "big")


def check(n=300):
    import random
    import warnings
    warnings.filterwarnings("ignore")
    from cryptography.hazmat.decrepit.ciphers.algorithms import CAST5
    from cryptography.hazmat.primitives.ciphers import Cipher, modes
    rng = random.Random(1)
    for _ in range(n):
        key, pt = rng.randbytes(16), rng.randbytes(8)
        want = Cipher(CAST5(key), modes.ECB()).encryptor().update(pt)
        assert model_encrypt(key, pt) == want, (key.hex(), pt.hex())
    print(f"gen.py model = cryptography CAST5 on {n} random keys")


# ---------------------------------------------------------------- emission
# What each emitted instruction is for (Table 9 of seed 003, regenerated by optable.py, sums
# rvsim's per-instruction counts by these).
ADDR, SLOAD, ROT, KEYS, ARITH, KSXOR, IO, CALL = (
    "S-box address", "S-box load", "32-bit rotate", "round-key load/store", "f: Km op D, combine, xor",
    "key schedule: xor of S-box words", "byte order (block, key)", "table base, alignment branch, ret")


class Emit:
    """Assembly lines, and per function the category (`cat` when emitted) of each instruction."""
    def __init__(self):
        self.lines = []
        self.cat = CALL
        self.func = None
        self.cats = {}

    def __call__(self, s, comment=None):
        self.lines.append(f"    {s:<40}# {comment}" if comment else "    " + s)
        self.cats.setdefault(self.func, []).append(self.cat)

    def label(self, s):
        if not s.startswith("."):
            self.func = s
        self.lines.append(s + ":")

    def raw(self, s):
        self.lines.append(s)

    def text(self):
        return "\n".join(self.lines) + "\n"


# S1..S4 (4 KiB) and S5..S8 (4 KiB) each reached from one base register at the second table
# + 1024, so that every table is within a 12-bit load offset: S(4k+j) at 1024 * j - 2048.
BASE_OFF = 2048
TABLE_OFF = [-2048, -1024, 0, 1024]

V = RV32I


def rot_words():
    return 3 if V != ZBKB else 2


def sbox_addr(e, t, src, bs, base):
    """t = base + 4 * (byte bs of src), bs = 0 least significant"""
    e.cat = ADDR
    if V == XSBOX:
        e(f"sboxaddrw {t}, {src}, {base}, {bs}")
        return
    if bs == 0:
        e(f"andi {t}, {src}, 0xff")
        e(f"slli {t}, {t}, 2")
    else:
        e(f"srli {t}, {src}, {8 * bs - 2}")
        e(f"andi {t}, {t}, 0x3fc")
    e(f"add  {t}, {t}, {base}")


def sbox_addr_j(e, t, j, bs, base):
    """ZBKB: t = base + 4 * (byte bs of I), from J = I <<< 2."""
    e.cat = ADDR
    if bs == 3:
        e(f"rori {t}, {j}, 24")
        e(f"andi {t}, {t}, 0x3fc")
    elif bs == 0:
        e(f"andi {t}, {j}, 0x3fc")
    else:
        e(f"srli {t}, {j}, {8 * bs}")
        e(f"andi {t}, {t}, 0x3fc")
    e(f"add  {t}, {t}, {base}")


# ---- encrypt / decrypt
OUT, IN, RK, B = "a0", "a1", "a2", "a3"
LR = ["a4", "a5"]
T = ["t0", "t1", "t2", "t3"]           # the four S-box words of a round
I = "t4"                               # I (J for zbkb)
KM, KR, KN = "t5", "t6", "a6"          # this round's Km, Kr (Kr + 2 for zbkb), -Kr


def key_loads(e, rnd):
    e.cat = KEYS
    w = rot_words() * (rnd - 1)
    e(f"lw   {KM}, {4 * w}({RK})", f"Km{rnd}")
    e(f"lw   {KR}, {4 * w + 4}({RK})", f"Kr{rnd}" + (" + 2" if V == ZBKB else ""))
    if V != ZBKB:
        e(f"lw   {KN}, {4 * w + 8}({RK})", f"-Kr{rnd}")


def emit_round(e, rnd, d, target, next_rnd):
    """target ^= f_rnd(d); loads the keys of round next_rnd (if any) on the way."""
    op, o1, o2, o3 = OPS[rtype(rnd)]
    e.raw(f"    # round {rnd} (type {rtype(rnd)}): {target} ^= f(Km{rnd} {dict(add='+', xor='^', sub='-')[op]} {d})")
    e.cat = ARITH
    e(f"{op:<4} {I}, {KM}, {d}")
    e.cat = ROT
    if V == ZBKB:
        e(f"rol  {I}, {I}, {KR}", "J = I <<< 2")
    else:
        e(f"sll  {T[0]}, {I}, {KR}")
        e(f"srl  {T[1]}, {I}, {KN}")
        e(f"or   {I}, {T[0]}, {T[1]}", f"I = (Km op D) <<< Kr{rnd}")
    for k, bs in enumerate((3, 2, 1, 0)):
        if V == ZBKB:
            sbox_addr_j(e, T[k], I, bs, B)
        else:
            sbox_addr(e, T[k], I, bs, B)
        e.cat = SLOAD
        e(f"lw   {T[k]}, {TABLE_OFF[k]}({T[k]})", f"S{k + 1}[I{'abcd'[k]}]")
    if next_rnd:
        key_loads(e, next_rnd)
    e.cat = ARITH
    e(f"{o1:<4} {T[0]}, {T[0]}, {T[1]}")
    e(f"{o2:<4} {T[0]}, {T[0]}, {T[2]}")
    e(f"{o3:<4} {T[0]}, {T[0]}, {T[3]}", "f")
    e(f"xor  {target}, {target}, {T[0]}")


def load_be_bytes(e, dst, src, off, tmp):
    """dst = big-endian word at src + off (any alignment); tmp: three scratch registers."""
    e.cat = IO
    a, b, c = tmp
    e(f"lbu  {dst}, {off}({src})")
    e(f"lbu  {a}, {off + 1}({src})")
    e(f"lbu  {b}, {off + 2}({src})")
    e(f"lbu  {c}, {off + 3}({src})")
    if V == ZBKB:
        e(f"packh {b}, {c}, {b}")
        e(f"packh {dst}, {a}, {dst}")
        e(f"pack {dst}, {b}, {dst}")
        return
    e(f"slli {dst}, {dst}, 24")
    e(f"slli {a}, {a}, 16")
    e(f"slli {b}, {b}, 8")
    e(f"or   {dst}, {dst}, {a}")
    e(f"or   {b}, {b}, {c}")
    e(f"or   {dst}, {dst}, {b}")


def store_be_bytes(e, src, dst, off, tmp):
    """big-endian bytes of src to dst + off (any alignment)"""
    e.cat = IO
    for k, sh in enumerate((24, 16, 8)):
        e(f"srli {tmp}, {src}, {sh}")
        e(f"sb   {tmp}, {off + k}({dst})")
    e(f"sb   {src}, {off + 3}({dst})")


def emit_block_fn(e, name, dec):
    e.raw(f"    .globl {name}")
    e.raw(f"    .type {name}, @function")
    e.raw("    .p2align 2")
    e.label(name)
    tag = "dec" if dec else "enc"
    e.cat = CALL
    e(f"lui  {B}, %hi(cast128_s1 + {BASE_OFF})")
    e(f"addi {B}, {B}, %lo(cast128_s1 + {BASE_OFF})", "S1..S4 at B - 2048, -1024, +0, +1024")
    if V == ZBKB:
        e(f"andi {T[0]}, {IN}, 3")
        e(f"bnez {T[0]}, .L{tag}_load_bytes", "in not word-aligned")
        e.cat = IO
        e(f"lw   {LR[0]}, 0({IN})")
        e(f"lw   {LR[1]}, 4({IN})")
        e(f"rev8 {LR[0]}, {LR[0]}")
        e(f"rev8 {LR[1]}, {LR[1]}", "big-endian halves L, R")
        e.label(f".L{tag}_loaded")
    else:
        load_be_bytes(e, LR[0], IN, 0, T[:3])
        load_be_bytes(e, LR[1], IN, 4, [T[3], I, KM])
    order = range(ROUNDS, 0, -1) if dec else range(1, ROUNDS + 1)
    order = list(order)
    key_loads(e, order[0])
    for n, rnd in enumerate(order):
        nxt = order[n + 1] if n + 1 < len(order) else None
        emit_round(e, rnd, LR[(n + 1) % 2], LR[n % 2], nxt)
    # after an even number of rounds LR[1] holds the first output word, LR[0] the second
    if V == ZBKB:
        e.cat = CALL
        e(f"andi {T[0]}, {OUT}, 3")
        e(f"bnez {T[0]}, .L{tag}_store_bytes", "out not word-aligned")
        e.cat = IO
        e(f"rev8 {LR[1]}, {LR[1]}")
        e(f"rev8 {LR[0]}, {LR[0]}")
        e(f"sw   {LR[1]}, 0({OUT})")
        e(f"sw   {LR[0]}, 4({OUT})")
        e.cat = CALL
        e("ret")
        e.label(f".L{tag}_load_bytes")
        load_be_bytes(e, LR[0], IN, 0, T[:3])
        load_be_bytes(e, LR[1], IN, 4, [T[3], I, KM])
        e.cat = CALL
        e(f"j    .L{tag}_loaded")
        e.label(f".L{tag}_store_bytes")
    store_be_bytes(e, LR[1], OUT, 0, T[0])
    store_be_bytes(e, LR[0], OUT, 4, T[1])
    e.cat = CALL
    e("ret")
    e.raw(f"    .size {name}, .-{name}")


# ---- key expansion
KEY_RK, KEY_IN, B2 = "a0", "a1", "a2"
XW = ["a3", "a4", "a5", "a6"]          # x0x1x2x3 .. xCxDxExF
ZW = ["a7", "t0", "t1", "t2"]          # z0z1z2z3 .. zCzDzEzF
ACC = "t3"                             # a subkey being made
KT = ["t4", "t5", "t6", "a1"]          # lookup temporaries (a1 once the key is loaded)


def lookups(e, acc, terms, init):
    """acc = init ^ the S5..S8 words of `terms` (init None: just the words). Software-pipelined:
    no lw result is used by the next instruction (the E31's load-use latency)."""
    words = {"x": XW, "z": ZW}
    pending = []
    for n, (sb, ws, i) in enumerate(terms):
        t = KT[n % len(KT)]
        sbox_addr(e, t, words[ws][i // 4], 3 - i % 4, B2)
        if len(pending) >= 2:
            combine(e, acc, *pending.pop(0))
        if n == 0 and init is None:
            e.cat = SLOAD
            e(f"lw   {acc}, {TABLE_OFF[sb - 5]}({t})", f"S{sb}[{ws}{i:X}]")
            continue
        e.cat = SLOAD
        e(f"lw   {t}, {TABLE_OFF[sb - 5]}({t})", f"S{sb}[{ws}{i:X}]")
        pending.append((t, init if n == 0 else acc))
    for p in pending:
        combine(e, acc, *p)


def combine(e, acc, t, other):
    e.cat = KSXOR
    e(f"xor  {acc}, {other}, {t}")


def emit_keyexp(e):
    name = "cast128_keyexp_enc"
    e.raw(f"    .globl {name}")
    e.raw(f"    .type {name}, @function")
    e.raw("    .p2align 2")
    e.label(name)
    e.cat = CALL
    if V == ZBKB:
        # the byte path first: at the end of this 6.6 KB function a branch could not reach it
        e(f"andi t0, {KEY_IN}, 3")
        e("beqz t0, .Lkx_load_words", "key word-aligned")
        for j, r in enumerate(XW):
            load_be_bytes(e, r, KEY_IN, 4 * j, ["t0", "t1", "t2"])
        e.cat = CALL
        e("j    .Lkx_loaded")
        e.label(".Lkx_load_words")
        e.cat = IO
        for j, r in enumerate(XW):
            e(f"lw   {r}, {4 * j}({KEY_IN})")
        for r in XW:
            e(f"rev8 {r}, {r}")
        e.label(".Lkx_loaded")
    else:
        for j, r in enumerate(XW):
            load_be_bytes(e, r, KEY_IN, 4 * j, ["t0", "t1", "t2"])
    e.cat = CALL
    e(f"lui  {B2}, %hi(cast128_s5 + {BASE_OFF})")
    e(f"addi {B2}, {B2}, %lo(cast128_s5 + {BASE_OFF})", "S5..S8 at B2 - 2048, -1024, +0, +1024")
    words = {"x": XW, "z": ZW}
    for st in schedule():
        if st[0] == "word":
            _, dst, src, terms = st
            e.raw(f"    # {dst[0]} word {dst[1]} = {src[0]} word {src[1]} ^ five S-box words")
            # RFC 2144: a step overwrites a whole x (or z) set; no step reads the word it makes
            lookups(e, words[dst[0]][int(dst[1])], terms, words[src[0]][int(src[1])])
            continue
        _, n, terms = st
        e.raw(f"    # K{n}")
        lookups(e, ACC, terms, None)
        e.cat = KEYS
        if n <= 16:
            e(f"sw   {ACC}, {4 * rot_words() * (n - 1)}({KEY_RK})", f"Km{n}")
        elif V == ZBKB:
            e(f"addi {ACC}, {ACC}, 2")
            e(f"sw   {ACC}, {4 * (2 * (n - 17) + 1)}({KEY_RK})", f"Kr{n - 16} + 2 (rol uses bits 4..0)")
        else:
            e(f"sw   {ACC}, {4 * (3 * (n - 17) + 1)}({KEY_RK})", f"Kr{n - 16} (sll uses bits 4..0)")
            e(f"sub  {ACC}, zero, {ACC}")
            e(f"sw   {ACC}, {4 * (3 * (n - 17) + 2)}({KEY_RK})", f"-Kr{n - 16} (srl: 32 - Kr mod 32)")
    e.cat = CALL
    e("ret")
    e.raw(f"    .size {name}, .-{name}")


def tables(e):
    e.raw('    .section .data.cast128_sboxes, "aw"')
    e.raw("    .p2align 2")
    for k in range(8):
        if k in (0, 4):
            e.raw(f"    .globl cast128_s{k + 1}")
        e.raw(f"cast128_s{k + 1}:")
        for i in range(0, 256, 8):
            e.raw("    .word " + ", ".join("0x%08x" % v for v in S[k][i:i + 8]))


HEADER = {
    RV32I: "RV32I: rotation = sll, srl, or; S-box address = srli/andi (or andi/slli), add",
    ZBKB: "RV32I + Zbkb: rol (J = I <<< 2) and rori for the rotation, rev8 for byte order",
    XSBOX: "RV32I + seed 003's sboxaddrw (ise/sboxaddrw): S-box address in one instruction",
}


def generate(variant):
    return emit(variant).text()


def categories(variant):
    """{function: [category of its k-th instruction]} (every instruction is 4 bytes)"""
    return emit(variant).cats


def emit(variant):
    global V
    V = variant
    e = Emit()
    e.raw(f"/* CAST-128 (RFC 2144), 128-bit key, 16 rounds. {HEADER[variant]}.")
    e.raw("   GENERATED by ../gen.py -- edit the generator, not this file.")
    e.raw(f"   Round keys: {rot_words() * 16} words (see gen.py). S1..S8 (8 KiB) in .data (DTIM). */")
    if variant == XSBOX:
        e.raw('#include "ise.inc"')
    tables(e)
    e.raw("    .text")
    emit_keyexp(e)
    emit_block_fn(e, "cast128_encrypt", dec=False)
    emit_block_fn(e, "cast128_decrypt", dec=True)
    return e


def main():
    if "--check" in sys.argv:
        check()
        return
    for variant in (RV32I, ZBKB, XSBOX):
        path = os.path.join(HERE, variant, "cast128.S")
        with open(path, "w") as f:
            f.write(generate(variant))


if __name__ == "__main__":
    main()
