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
sys.path.insert(0, os.path.join(HERE, ".."))
from common.asm import Asm, header  # noqa: E402
from common.tables import table_address  # noqa: E402
from sboxes import S  # noqa: E402

RV32I, ZBKB, XSBOX = "rv32i", "zbkb", "table-xsbox"
EXT = {RV32I: (), ZBKB: {"zbkb"}, XSBOX: {"xsbox"}}       # what each variant's Asm may use
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


# S1..S4 (4 KiB) and S5..S8 (4 KiB) each reached from one base register at the second table
# + 1024, so that every table is within a 12-bit load offset: S(4k+j) at 1024 * j - 2048.
BASE_OFF = 2048
TABLE_OFF = [-2048, -1024, 0, 1024]


def rot_words(e):
    """round-key words per round: Km, Kr, -Kr (Zbkb: Km, Kr + 2)"""
    return 2 if e.has("zbkb") else 3


def sbox_addr(e, t, src, bs, base):
    """t = base + 4 * (byte bs of src), bs = 0 least significant"""
    e.role = ADDR
    table_address(e, t, src, bs, base, 4, mask_first=True)


def sbox_addr_j(e, t, j, bs, base):
    """ZBKB: t = base + 4 * (byte bs of I), from J = I <<< 2."""
    e.role = ADDR
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
    e.role = KEYS
    w = rot_words(e) * (rnd - 1)
    e(f"lw   {KM}, {4 * w}({RK})", note=f"Km{rnd}")
    e(f"lw   {KR}, {4 * w + 4}({RK})", note=f"Kr{rnd}" + (" + 2" if e.has("zbkb") else ""))
    if not e.has("zbkb"):
        e(f"lw   {KN}, {4 * w + 8}({RK})", note=f"-Kr{rnd}")


def emit_round(e, rnd, d, target, next_rnd):
    """target ^= f_rnd(d); loads the keys of round next_rnd (if any) on the way."""
    op, o1, o2, o3 = OPS[rtype(rnd)]
    e.comment(f"round {rnd} (type {rtype(rnd)}): {target} ^= f(Km{rnd} {dict(add='+', xor='^', sub='-')[op]} {d})")
    e.role = ARITH
    e(f"{op:<4} {I}, {KM}, {d}")
    e.role = ROT
    if e.has("zbkb"):
        e(f"rol  {I}, {I}, {KR}", note="J = I <<< 2")
    else:
        e(f"sll  {T[0]}, {I}, {KR}")
        e(f"srl  {T[1]}, {I}, {KN}")
        e(f"or   {I}, {T[0]}, {T[1]}", note=f"I = (Km op D) <<< Kr{rnd}")
    for k, bs in enumerate((3, 2, 1, 0)):
        if e.has("zbkb"):
            sbox_addr_j(e, T[k], I, bs, B)
        else:
            sbox_addr(e, T[k], I, bs, B)
        e.role = SLOAD
        e(f"lw   {T[k]}, S{k + 1}_AT({T[k]})", note=f"S{k + 1}[I{'abcd'[k]}]")
    if next_rnd:
        key_loads(e, next_rnd)
    e.role = ARITH
    e(f"{o1:<4} {T[0]}, {T[0]}, {T[1]}")
    e(f"{o2:<4} {T[0]}, {T[0]}, {T[2]}")
    e(f"{o3:<4} {T[0]}, {T[0]}, {T[3]}", note="f")
    e(f"xor  {target}, {target}, {T[0]}")


def load_be_bytes(e, dst, src, off, tmp):
    """dst = big-endian word at src + off (any alignment); tmp: three scratch registers."""
    e.role = IO
    a, b, c = tmp
    e(f"lbu  {dst}, {off}({src})")
    e(f"lbu  {a}, {off + 1}({src})")
    e(f"lbu  {b}, {off + 2}({src})")
    e(f"lbu  {c}, {off + 3}({src})")
    if e.has("zbkb"):
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
    e.role = IO
    for k, sh in enumerate((24, 16, 8)):
        e(f"srli {tmp}, {src}, {sh}")
        e(f"sb   {tmp}, {off + k}({dst})")
    e(f"sb   {src}, {off + 3}({dst})")


def emit_block_fn(e, name, dec):
    e.begin_function(name, doc="(out, in, rk)")
    tag = "dec" if dec else "enc"
    e.role = CALL
    e(f"lui  {B}, %hi(cast128_s1 + {BASE_OFF})")
    e(f"addi {B}, {B}, %lo(cast128_s1 + {BASE_OFF})", note="S1..S4 at B - 2048, -1024, +0, +1024")
    if e.has("zbkb"):
        e(f"andi {T[0]}, {IN}, 3")
        e(f"bnez {T[0]}, .L{tag}_load_bytes", note="in not word-aligned")
        e.role = IO
        e(f"lw   {LR[0]}, 0({IN})")
        e(f"lw   {LR[1]}, 4({IN})")
        e(f"rev8 {LR[0]}, {LR[0]}")
        e(f"rev8 {LR[1]}, {LR[1]}", note="big-endian halves L, R")
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
    if e.has("zbkb"):
        e.role = CALL
        e(f"andi {T[0]}, {OUT}, 3")
        e(f"bnez {T[0]}, .L{tag}_store_bytes", note="out not word-aligned")
        e.role = IO
        e(f"rev8 {LR[1]}, {LR[1]}")
        e(f"rev8 {LR[0]}, {LR[0]}")
        e(f"sw   {LR[1]}, 0({OUT})")
        e(f"sw   {LR[0]}, 4({OUT})")
        e.role = CALL
        e("ret")
        e.label(f".L{tag}_load_bytes")
        load_be_bytes(e, LR[0], IN, 0, T[:3])
        load_be_bytes(e, LR[1], IN, 4, [T[3], I, KM])
        e.role = CALL
        e(f"j    .L{tag}_loaded")
        e.label(f".L{tag}_store_bytes")
    store_be_bytes(e, LR[1], OUT, 0, T[0])
    store_be_bytes(e, LR[0], OUT, 4, T[1])
    e.role = CALL
    e("ret")
    e.end_function(name)


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
            e.role = SLOAD
            e(f"lw   {acc}, S{sb}_AT({t})", note=f"S{sb}[{ws}{i:X}]")
            continue
        e.role = SLOAD
        e(f"lw   {t}, S{sb}_AT({t})", note=f"S{sb}[{ws}{i:X}]")
        pending.append((t, init if n == 0 else acc))
    for p in pending:
        combine(e, acc, *p)


def combine(e, acc, t, other):
    e.role = KSXOR
    e(f"xor  {acc}, {other}, {t}")


def emit_keyexp(e):
    name = "cast128_keyexp_enc"
    e.begin_function(name, doc="(rk, key)")
    e.role = CALL
    if e.has("zbkb"):
        # the byte path first: at the end of this 6.6 KB function a branch could not reach it
        e(f"andi t0, {KEY_IN}, 3")
        e("beqz t0, .Lkx_load_words", note="key word-aligned")
        for j, r in enumerate(XW):
            load_be_bytes(e, r, KEY_IN, 4 * j, ["t0", "t1", "t2"])
        e.role = CALL
        e("j    .Lkx_loaded")
        e.label(".Lkx_load_words")
        e.role = IO
        for j, r in enumerate(XW):
            e(f"lw   {r}, {4 * j}({KEY_IN})")
        for r in XW:
            e(f"rev8 {r}, {r}")
        e.label(".Lkx_loaded")
    else:
        for j, r in enumerate(XW):
            load_be_bytes(e, r, KEY_IN, 4 * j, ["t0", "t1", "t2"])
    e.role = CALL
    e(f"lui  {B2}, %hi(cast128_s5 + {BASE_OFF})")
    e(f"addi {B2}, {B2}, %lo(cast128_s5 + {BASE_OFF})", note="S5..S8 at B2 - 2048, -1024, +0, +1024")
    words = {"x": XW, "z": ZW}
    for st in schedule():
        if st[0] == "word":
            _, dst, src, terms = st
            e.comment(f"{dst[0]} word {dst[1]} = {src[0]} word {src[1]} ^ five S-box words")
            # RFC 2144: a step overwrites a whole x (or z) set; no step reads the word it makes
            lookups(e, words[dst[0]][int(dst[1])], terms, words[src[0]][int(src[1])])
            continue
        _, n, terms = st
        e.comment(f"K{n}")
        lookups(e, ACC, terms, None)
        e.role = KEYS
        if n <= 16:
            e(f"sw   {ACC}, {4 * rot_words(e) * (n - 1)}({KEY_RK})", note=f"Km{n}")
        elif e.has("zbkb"):
            e(f"addi {ACC}, {ACC}, 2")
            e(f"sw   {ACC}, {4 * (2 * (n - 17) + 1)}({KEY_RK})", note=f"Kr{n - 16} + 2 (rol uses bits 4..0)")
        else:
            e(f"sw   {ACC}, {4 * (3 * (n - 17) + 1)}({KEY_RK})", note=f"Kr{n - 16} (sll uses bits 4..0)")
            e(f"sub  {ACC}, zero, {ACC}")
            e(f"sw   {ACC}, {4 * (3 * (n - 17) + 2)}({KEY_RK})", note=f"-Kr{n - 16} (srl: 32 - Kr mod 32)")
    e.role = CALL
    e("ret")
    e.end_function(name)


def tables(e):
    e.section(".data.cast128_sboxes")
    e.directive(".p2align 2")
    for k in range(8):
        if k in (0, 4):
            e.directive(f".globl cast128_s{k + 1}")
        e.label(f"cast128_s{k + 1}")
        e.words(S[k])


HEADER = {
    RV32I: "RV32I: rotation = sll, srl, or; S-box address = srli/andi (or andi/slli), add",
    ZBKB: "RV32I + Zbkb: rol (J = I <<< 2) and rori for the rotation, rev8 for byte order",
    XSBOX: "RV32I + seed 003's sboxaddrw (ise/sboxaddrw): S-box address in one instruction",
}


def generate(variant):
    return emit(variant).text()


def categories(variant):
    """{function: [category of its k-th instruction]} (every instruction is 4 bytes)"""
    return emit(variant).roles


def emit(variant):
    e = Asm(EXT[variant])
    e.raw(header(f"CAST-128 (RFC 2144), 128-bit key, 16 rounds. {HEADER[variant]}.", "../gen.py",
                 [f"Round keys: {rot_words(e) * 16} words (see gen.py). S1..S8 (8 KiB) in .data (DTIM).",
                  "Comments: the [role] of each instruction (optable.py counts cycles by them)."]).rstrip())
    if variant == XSBOX:
        e.raw('#include "ise.inc"')
    tables(e)
    e.section(".text")
    e.comment(f"S-box offsets: S1..S4 from B (a3) = S1 + {BASE_OFF}, S5..S8 from B2 (a2) = S5 + {BASE_OFF}")
    for k in range(8):
        e.equ(f"S{k + 1}_AT", TABLE_OFF[k % 4])
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
