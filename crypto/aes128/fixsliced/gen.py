#!/usr/bin/env python3
"""Generator for the fixsliced one-block AES-128 kernels: writes fixsliced/aes128_fixsliced.S
(rv32i) and ../fixsliced-zbkb/aes128_fixsliced_zbkb.S (the rotations as rori).

Representation (NOTES.md has the derivation). One block, eight 32-bit "planes" W[b] (b = bit of
the byte, 0 = LSB): byte r of W[b] is row r of the state, and bit j of that byte (j = 0..7) is
bit b of the byte in column j mod 4 -- every row is stored twice in its byte ("periodic"), so
that a column shift by s within a row is a shift of the byte by s bits, and the row shift plus
the column shift that MixColumns needs in a fixsliced round is ONE 32-bit rotation.
Fixslicing: ShiftRows is never applied; after i rounds the stored byte (r, j) holds the true
byte (r, j - i*r mod 4) ("drift" k = i mod 4), MixColumns of round i uses rotations by
8 + k (row + 1) and 16 + 2k (row + 2), and round key i is stored with the same drift. The
byte shift leaves junk in the top (or bottom) bits of each byte, so MixColumns' output is valid
only in one nibble of each byte; the S-box works on any nibble, and after it the valid nibble is
copied to the other one (3 instructions a plane). After 10 rounds the drift is 2: the output
swaps rows 1 and 3 between columns 0/2 and 1/3 (the ciphertext input of decryption likewise).
Round keys: 4 words each, "nibble form": plane b in the low and plane b + 4 in the high nibble
of word b (b = 0..3), with the drift of the round they are added in and the S-box constant 0x63
folded into keys 1..10; decryption uses the same keys (the direct inverse cipher drifts back
through the same 4 layouts), so keyexp_dec is keyexp_enc.

Run: python3 gen.py   (checks every function in Python against FIPS 197 / the S-box tables
first, then writes the .S files; prints the instruction counts)"""
from __future__ import annotations

import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, "..", "..", "aes128-ctr", "bitsliced"))
from bpsbox import GATES113, circuit  # noqa: E402  (the verified 113-gate circuit; circuit() applies one)
from common.asm import Asm, header  # noqa: E402
from common.buffers import call_on_aligned_copy  # noqa: E402
from common.gf256 import AES_SBOX, aes_rcon, mul  # noqa: E402
from slp import invsbox_gates, linear_program  # noqa: E402
from common.sched import critical_path  # noqa: E402
from common.ssa import (Block, Frame, allocate, epilogue, furthest_clean, li_length,  # noqa: E402
                        pressure_order, prologue, run_insns, size)

RCON = aes_rcon(10)


# ------------------------------------------------------------------ S-boxes on planes
def sbox(B, w):
    """S(x) ^ 0x63 of every byte lane (the constant is in the round keys)"""
    return circuit(B, GATES113, w)


INV_GATES = invsbox_gates(GATES113)


def invsbox(B, w):
    """InvS(x ^ 0x63) of every byte lane (the constant is in the round keys)"""
    return circuit(B, INV_GATES, w)


# ------------------------------------------------------------------ layout conversions
def to_nibble_form(B, d, m55, m33):
    """four column words d[j] (byte r = row r) -> four words x[b]: bit 8r + j = bit b of byte
    (r, j), bit 8r + 4 + j = bit b + 4 of it (SWAPMOVE transposition)"""
    e01, o01 = B.swapmove(d[0], d[1], 1, m55)
    e23, o23 = B.swapmove(d[2], d[3], 1, m55)
    x0, x2 = B.swapmove(e01, e23, 2, m33)
    x1, x3 = B.swapmove(o01, o23, 2, m33)
    return [x0, x1, x2, x3]


def from_nibble_form(B, x, m55, m33):
    """the inverse of to_nibble_form (SWAPMOVE is an involution)"""
    e01, e23 = B.swapmove(x[0], x[2], 2, m33)
    o01, o23 = B.swapmove(x[1], x[3], 2, m33)
    d0, d1 = B.swapmove(e01, o01, 1, m55)
    d2, d3 = B.swapmove(e23, o23, 1, m55)
    return [d0, d1, d2, d3]


def periodic(B, x, high, mask):
    """the valid nibble of each byte of x (low, or high if `high`) copied to the other one"""
    y = B.and_(x, mask)
    return B.or_(y, B.srli(y, 4) if high else B.slli(y, 4))


def swap_rows13(B, c, m):
    """rows 1 and 3 of columns 0<->2 and 1<->3 exchanged (ShiftRows^2 on column words);
    m = 0xff00ff00"""
    c = list(c)
    for j in (0, 1):
        t = B.and_(B.xor(c[j], c[j + 2]), m)
        c[j], c[j + 2] = B.xor(c[j], t), B.xor(c[j + 2], t)
    return c


def drift(B, c, k, consts):
    """column words of a true state -> column words of the layout with drift k: stored column j,
    row r = true column (j - k*r) mod 4. Rows 2 and 3 move by 2 columns (one swap), then for odd
    k rows 1 and 3 by one more column (-1 for k = 1, +1 for k = 3)."""
    if k == 0:
        return list(c)
    if k == 2:
        return swap_rows13(B, c, consts("ff00ff00"))
    m23 = consts("ffff0000")
    c = list(c)
    for j in (0, 1):
        t = B.and_(B.xor(c[j], c[j + 2]), m23)
        c[j], c[j + 2] = B.xor(c[j], t), B.xor(c[j + 2], t)
    m13 = consts("ff00ff00")
    step = -1 if k == 1 else 1
    return [B.xor(c[j], B.and_(B.xor(c[j], c[(j + step) % 4]), m13)) for j in range(4)]


# ------------------------------------------------------------------ MixColumns
# rotation amounts for a drift k: P (row + 1, column + k) and P^2 (row + 2, column + 2k); which
# nibble of the result is valid (MixColumns reads periodic planes; a right shift of s bits within
# the byte loses the top s bits, a left shift the bottom ones)
ROT1 = {0: 8, 1: 9, 2: 10, 3: 7}
ROT2 = {0: 16, 1: 18, 2: 16, 3: 14}
HIGH = {0: False, 1: False, 2: False, 3: True}


def mixcolumns(B, a, k):
    """MixColumns in drift k (planes periodic unless k = 0): out = 2a + 3Pa + P^2 a + P^3 a
    = xtime(t) + Pa + P^2 t with t = a + Pa (27 XOR, 16 rotations)"""
    pa = [B.ror(a[b], ROT1[k]) for b in range(8)]
    t = [B.xor(a[b], pa[b]) for b in range(8)]
    p2t = [B.ror(t[b], ROT2[k]) for b in range(8)]
    xt = [t[7], B.xor(t[0], t[7]), t[1], B.xor(t[2], t[7]), B.xor(t[3], t[7]), t[4], t[5], t[6]]
    return [B.xor(B.xor(xt[b], pa[b]), p2t[b]) for b in range(8)]


def gf_planes(c):
    """the linear map y = c * x on bit planes: for each output bit, the set of input bits"""
    out = []
    for ob in range(8):
        out.append(frozenset(ib for ib in range(8) if mul(c, 1 << ib) >> ob & 1))
    return out


def inv_mixcolumns(B, a, k):
    """InvMixColumns in drift k: out = 0E a + 0B Pa + P^2 (0D a + 09 Pa) (16 rotations; the two
    linear maps of a and Pa as one shared XOR program)"""
    pa = [B.ror(a[b], ROT1[k]) for b in range(8)]
    names = {("a", b): a[b] for b in range(8)} | {("p", b): pa[b] for b in range(8)}
    targets = []
    for c1, c2 in ((0x0D, 0x09), (0x0E, 0x0B)):
        m1, m2 = gf_planes(c1), gf_planes(c2)
        for b in range(8):
            targets.append(frozenset({("a", i) for i in m1[b]} | {("p", i) for i in m2[b]}))
    vals = linear_program(B, names, targets)
    g, h = vals[:8], vals[8:]
    return [B.xor(h[b], B.ror(g[b], ROT2[k])) for b in range(8)]


# ------------------------------------------------------------------ the functions as SSA
class Consts:
    """32-bit constants made once per block (li), by hex name"""

    def __init__(self, B):
        self.B, self.v = B, {}

    def __call__(self, name):
        if name not in self.v:
            self.v[name] = self.B.li(int(name, 16))
        return self.v[name]


def load_columns(B, base, off=0):
    return [B.lw(base, off + 4 * j) for j in range(4)]


KEY_REGS = ["a2", "a3", "a4", "a5", "a6"]        # the key columns and rcon between the blocks


def key_convert(B, K, c, i, rk, off):
    """round key i (columns c) -> nibble form with drift i mod 4 (0x63 folded in for i > 0),
    stored at rk + off"""
    w = c if i == 0 else [B.xor(x, K("63636363")) for x in c]
    x = to_nibble_form(B, drift(B, w, i % 4, K), K("55555555"), K("33333333"))
    for b in range(4):
        B.sw(x[b], rk, off + 4 * b)


def key_next(B, K, c, rcon):
    """the next round key's columns: SubWord(RotWord(c3)) with the S-box circuit on one word
    (bit b of the 4 bytes in the lanes 8r of word b), + rcon (a value), prefix XOR"""
    t = B.ror(c[3], 8)                                      # RotWord
    m = K("01010101")
    u = [B.and_(B.srli(t, b) if b else t, m) for b in range(8)]
    s = sbox(B, u)                                          # S ^ 0x63 in lanes 8r
    f = s[0]
    for b in range(1, 8):
        f = B.or_(f, B.slli(s[b], b))
    f = B.xor(f, K("63636363"))                             # the circuit's missing constant
    f = B.xor(f, rcon)
    c0 = B.xor(c[0], f)
    c1 = B.xor(c[1], c0)
    c2 = B.xor(c[2], c1)
    return [c0, c1, c2, B.xor(c[3], c2)]


def keyexp_blocks(zbkb):
    """aes128_keyexp_enc(rk = a0, key = a1), key word-aligned: round key i (0..10) at rk[4i..4i+3]
    in nibble form with drift i mod 4 (keys 1..10 with the S-box constant 0x63 in every byte).
    Three blocks: `pre` (round key 0; rcon = 1), `body` (round keys 4t+1..4t+4 made and stored;
    run twice, a0 += 64, rcon <<= 4), `post` (round keys 9, 10). rcon of key 4t + j + 1 is
    rcon << j (no reduction before 0x80); keys 9 and 10 use 0x1b, 0x36."""
    pre = Block(zbkb)
    K = Consts(pre)
    c = load_columns(pre, pre.arg("a1"))
    key_convert(pre, K, c, 0, "a0", 0)
    for j in range(4):
        pre.exit(c[j], KEY_REGS[j])
    pre.exit(pre.li(1), KEY_REGS[4])

    body = Block(zbkb)
    K = Consts(body)
    c = [body.arg(r) for r in KEY_REGS[:4]]
    rc = body.arg(KEY_REGS[4])
    rk = body.arg("a0")                     # a value like any other: spilled if need be
    for j in range(4):
        c = key_next(body, K, c, body.slli(rc, j) if j else rc)
        key_convert(body, K, c, j + 1, rk, 16 * (j + 1))
    for j in range(4):
        body.exit(c[j], KEY_REGS[j])
    body.exit(body.slli(rc, 4), KEY_REGS[4])
    body.exit(rk, "a0")

    post = Block(zbkb)
    K = Consts(post)
    c = [post.arg(r) for r in KEY_REGS[:4]]
    post.arg(KEY_REGS[4])                   # rcon: not used here (keeps the loop-state order)
    rk = post.arg("a0")
    for i in (9, 10):
        c = key_next(post, K, c, post.li(RCON[i - 1]))
        key_convert(post, K, c, i, rk, 16 * (i - 8))
    return pre, body, post


def run_keyexp(blocks, regs, mem, runs=None):
    pre, body, post = blocks
    r = (runs[0] if runs else pre.run)(dict(regs), mem)
    for _ in range(2):
        r = (runs[1] if runs else body.run)(r, mem)
        r["a0"] += 64
    (runs[2] if runs else post.run)(r, mem)


def ark(B, w, base, off, high):
    """w ^= round key (nibble form at base + off) on the valid nibble of each plane"""
    x = load_columns(B, base, off)
    out = list(w)
    for b in range(4):
        if high:
            out[b] = B.xor(w[b], B.slli(x[b], 4))
            out[b + 4] = B.xor(w[b + 4], x[b])
        else:
            out[b] = B.xor(w[b], x[b])
            out[b + 4] = B.xor(w[b + 4], B.srli(x[b], 4))
    return out


PLANE_REGS = ["a3", "a4", "a5", "a6", "a7", "t3", "t4", "t5"]   # the state between the blocks
# the frames' named slots, the spill slots after them: keyexp's holds a copy of a key that is not
# word-aligned; the ciphers' the out pointer and the round-key pointer after the loop
KEY_FRAME = ["key0", "key1", "key2", "key3"]
CIPHER_FRAME = ["out", "bound"]
OUT_SLOT, BOUND_SLOT = Frame(CIPHER_FRAME).slot("out"), Frame(CIPHER_FRAME).slot("bound")


def cipher_round(B, K, w, i, high, dec, koff):
    """one round (1..9) of encryption or decryption on planes w whose valid nibble is `high`;
    the round key at a2 + koff. Returns (planes, their valid nibble). MixColumns with drift 0
    rotates by whole bytes (each bit stays in its place in the byte): it needs no periodic
    input, and its output is valid in the nibble its input was."""
    k = i % 4
    out_high = high if k == 0 else HIGH[k]

    def prep(s):
        if k == 0:
            return s
        m = K("f0f0f0f0" if high else "0f0f0f0f")
        return [periodic(B, s[b], high, m) for b in range(8)]
    if dec:
        s = invsbox(B, w)
        s = ark(B, s, "a2", koff, high)
        return inv_mixcolumns(B, prep(s), k), out_high
    s = sbox(B, w)
    w = mixcolumns(B, prep(s), k)
    return ark(B, w, "a2", koff, out_high), out_high


def cipher_blocks(zbkb, dec):
    """aes128_encrypt / aes128_decrypt (out = a0, in = a1, rk = a2), word-aligned buffers, as
    three blocks: `pre` (load, pack, first key, the state to PLANE_REGS), `body` (4 rounds, run
    twice: rounds 1-4, 5-8 / 9-6, 5-2; a2 moves by +-64 between them) and `post` (round 9 / 1,
    the last round, unpack, store). Encryption: a2 = rk throughout pre, rk + 64t in iteration t,
    rk + 128 in post; decryption: rk in pre, rk + 64 - 64t, then rk - 64."""
    pre = Block(zbkb)
    pre.readonly = {"a1", "a2"}
    K = Consts(pre)
    d = load_columns(pre, "a1")
    if dec:
        d = swap_rows13(pre, d, K("ff00ff00"))              # the ciphertext has drift 2
    x = to_nibble_form(pre, d, K("55555555"), K("33333333"))
    kx = load_columns(pre, "a2", 160 if dec else 0)
    x = [pre.xor(x[b], kx[b]) for b in range(4)]
    # the planes in the nibble the body starts from (encryption: high, decryption: low); the
    # other nibble is junk, as after any round
    w = [None] * 8
    for b in range(4):
        w[b], w[b + 4] = (pre.slli(x[b], 4), x[b]) if not dec else (x[b], pre.srli(x[b], 4))
    for b in range(8):
        pre.exit(w[b], PLANE_REGS[b])

    body = Block(zbkb)
    body.readonly = {"a2"}
    K = Consts(body)
    w = [body.arg(r) for r in PLANE_REGS]
    high = not dec        # the window at the body's entry: the same in both passes
    for j in range(4):
        if dec:
            i = 9 - j                                        # key offset: a2 = rk + 16 * 5 in t = 0
            w, high = cipher_round(body, K, w, i, high, True, 16 * (i - 4))
        else:
            i = 1 + j
            w, high = cipher_round(body, K, w, i, high, False, 16 * i)
    assert high == (not dec)
    for b in range(8):
        body.exit(w[b], PLANE_REGS[b])

    post = Block(zbkb)
    post.readonly = {"a2"}
    K = Consts(post)
    w = [post.arg(r) for r in PLANE_REGS]
    if dec:
        w, high = cipher_round(post, K, w, 1, False, True, 16 + 64)
        s = invsbox(post, w)
        kx = load_columns(post, "a2", 64)
    else:
        w, high = cipher_round(post, K, w, 9, True, False, 16)
        s = sbox(post, w)
        kx = load_columns(post, "a2", 32)
    m = K("f0f0f0f0" if high else "0f0f0f0f")
    x = []
    for b in range(4):                                      # nibble form from the valid nibble
        if high:
            lo = post.srli(post.and_(s[b], m), 4)
            hi = post.and_(s[b + 4], m)
        else:
            lo = post.and_(s[b], m)
            hi = post.slli(post.and_(s[b + 4], m), 4)
        x.append(post.xor(post.xor(lo, hi), kx[b]))
    d = from_nibble_form(post, x, K("55555555"), K("33333333"))
    if not dec:
        d = swap_rows13(post, d, K("ff00ff00"))             # drift 10 = 2 back to 0
    out = post.lw("sp", OUT_SLOT)
    for j in range(4):
        post.sw(d[j], out, 4 * j)
    return pre, body, post


def run_cipher(blocks, dec, regs, mem, runs=None):
    """the three blocks as the assembly runs them (Python check)"""
    pre, body, post = blocks
    r = dict(regs)
    mem[r["sp"] + OUT_SLOT] = r["a0"]
    r = (runs[0] if runs else pre.run)(r, mem)
    if dec:
        r["a2"] += 64
    for _ in range(2):
        r = (runs[1] if runs else body.run)(r, mem)
        r["a2"] += -64 if dec else 64
    (runs[2] if runs else post.run)(r, mem)


# ------------------------------------------------------------------ checks in Python
def words(bs):
    return [int.from_bytes(bs[4 * j:4 * j + 4], "little") for j in range(len(bs) // 4)]


def to_bytes(ws):
    return b"".join(w.to_bytes(4, "little") for w in ws)


def py_keyexp(blocks, key, runs=None):
    mem = {0x1000 + 4 * j: w for j, w in enumerate(words(key))}
    regs = {"a0": 0x2000, "a1": 0x1000, "sp": 0x8000}
    run_keyexp(blocks, regs, mem, runs)
    return [mem[0x2000 + 4 * i] for i in range(44)]


def py_cipher(blocks, dec, rk, block, runs=None):
    mem = {0x1000 + 4 * j: w for j, w in enumerate(words(block))}
    mem.update({0x3000 + 4 * i: w for i, w in enumerate(rk)})
    regs = {"a0": 0x2000, "a1": 0x1000, "a2": 0x3000, "sp": 0x8000}
    run_cipher(blocks, dec, regs, mem, runs)
    return to_bytes([mem[0x2000 + 4 * j] for j in range(4)])


def check(kb, eb, db, runs=None):
    """FIPS 197 C.1 and random blocks against the textbook AES below: encryption, decryption
    of the ciphertext, with the round keys of keyexp (runs: the allocated code instead)"""
    runs = runs or {}
    rng = random.Random(197)
    cases = [(bytes(range(16)), bytes.fromhex("00112233445566778899aabbccddeeff"),
              bytes.fromhex("69c4e0d86a7b0430d8cdb78070b4c55a"))]
    for _ in range(8):
        k, p = rng.randbytes(16), rng.randbytes(16)
        cases.append((k, p, ref_encrypt(k, p)))
    for k, p, c in cases:
        rk = py_keyexp(kb, k, runs.get("k"))
        got = py_cipher(eb, False, rk, p, runs.get("e"))
        assert got == c, (k.hex(), p.hex(), got.hex(), c.hex())
        got = py_cipher(db, True, rk, c, runs.get("d"))
        assert got == p, (k.hex(), c.hex(), got.hex(), p.hex())


def ref_encrypt(key, pt):
    """textbook AES-128 (FIPS 197 5.1, 5.2) for the generator's own check"""
    w = [list(key[4 * i:4 * i + 4]) for i in range(4)]
    for i in range(4, 44):
        t = list(w[i - 1])
        if i % 4 == 0:
            t = [AES_SBOX[x] for x in t[1:] + t[:1]]
            t[0] ^= RCON[i // 4 - 1]
        w.append([a ^ b for a, b in zip(w[i - 4], t)])
    s = [pt[i] ^ w[i // 4][i % 4] for i in range(16)]
    for r in range(1, 11):
        s = [AES_SBOX[x] for x in s]
        s = [s[4 * ((c + (i % 4)) % 4) + i % 4] for c in range(4) for i in range(4)]  # ShiftRows
        s = [s[4 * c + i] for c in range(4) for i in range(4)]
        if r < 10:
            n = []
            for c in range(4):
                col = s[4 * c:4 * c + 4]
                n += [mul(2, col[i]) ^ mul(3, col[(i + 1) % 4]) ^ col[(i + 2) % 4] ^ col[(i + 3) % 4]
                      for i in range(4)]
            s = n
        s = [s[i] ^ w[4 * r + i // 4][i % 4] for i in range(16)]
    return bytes(s)


# ------------------------------------------------------------------ assembly
CALLER = ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7"]
CALLEE = ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "ra"]
SPILL_SLOTS = 32
TRIALS = int(os.environ.get("TRIALS", "8"))   # orders tried per block (deterministic seeds)
STATS = {}


def reorder(B, rng=None):
    """a register-pressure-aware order of B's ops (common/ssa.py): the ready op that frees the
    most values net of the one it makes; ties: the one whose operands were made last, then a
    random or the original order. Two loads of one location may swap."""
    tie = [rng.random() for _ in B.ops] if rng else [-i for i in range(len(B.ops))]
    pressure_order(B, lambda i, o, net, recent: (net, recent, tie[i]), order_loads=False)


def recomputable(B, o):
    """re-made instead of spilled: a one-instruction constant, a load from read-only memory
    (a reserved pointer register in B.readonly)"""
    if o["op"] == "li":
        return li_length(o["imm"]) == 1
    return o["op"] == "lw" and isinstance(o["mem"][0], str) and o["mem"][0] in B.readonly


def allocate_block(B, regs, spill_base, slack=0.0, role=""):
    """B allocated (common/ssa.py): furthest-next-use eviction, preferring a clean value (one
    that needs no store) within `slack`; the exit values' registers kept for them while others
    can go elsewhere"""
    exits = dict(B.exits)
    return allocate(B, regs, spill_base, max_slots=SPILL_SLOTS, hints=exits, hint_reloads=False,
                    avoid=set(exits.values()), evict=furthest_clean(slack),
                    recompute=lambda o: recomputable(B, o), role=role)


def compile_block(B, reserved, name, role, spill_base=0):
    """allocate (registers other than the reserved pointers) and schedule; returns (allocated
    code, scheduled insns, callee-saved registers used, spill slots used)"""
    regs = [r for r in CALLER + CALLEE if r not in reserved]
    orig = list(B.ops)
    best = None
    for trial in range(TRIALS + 1):
        B.ops = list(orig)
        if trial:
            reorder(B, random.Random(trial) if trial > 1 else None)
        for slack in (0.0, 0.1, 0.25):
            try:
                alloc = allocate_block(B, regs, spill_base, slack, role)
            except IndexError:
                continue
            n = size(alloc.insns)
            if best is None or n < best[0]:
                best = (n, alloc, list(B.ops))
    _, alloc, B.ops = best
    code = alloc.insns
    sched, cycles = critical_path(code)
    used = {r for x in code for r in x.dst + x.src} & set(CALLEE)
    STATS[name] = (B.count(), len(code), cycles, alloc.slots)
    return code, sched, used, alloc.slots


def loop_registers(blocks, regs0, reserved, spill_base, rounds=4):
    """the registers that carry the loop state (body args = body exits = pre exits = post args,
    the first len(regs0) of each; others keep theirs): start from regs0, then repeatedly take the
    registers the body's exit values end up in, so that few moves close the loop; the choice
    with the shortest allocated body"""
    pre, body, post = blocks
    n = len(regs0)
    args, fixed_args = list(body.args)[:n], list(body.args.items())[n:]
    exits, fixed_exits = [v for v, _ in body.exits[:n]], body.exits[n:]
    regs = [r for r in CALLER + CALLEE if r not in reserved]
    best, cur = None, list(regs0)

    def setregs(cur):
        body.args = dict(list(zip(args, cur)) + fixed_args)
        body.exits = list(zip(exits, cur)) + fixed_exits
    for _ in range(rounds):
        setregs(cur)
        alloc = allocate_block(body, regs, spill_base)
        if best is None or len(alloc.insns) < best[0]:
            best = (len(alloc.insns), list(cur))
        nat = [alloc.natural[v] for v in exits]
        if None in nat or len(set(nat)) < len(nat) or nat == cur or set(nat) & {r for _, r in fixed_exits}:
            break
        cur = nat
    cur = best[1]
    setregs(cur)
    pre.exits = [(v, r) for (v, _), r in zip(pre.exits[:n], cur)] + pre.exits[n:]
    post.args = dict(list(zip(list(post.args)[:n], cur)) + list(post.args.items())[n:])
    return cur


def frame_of(names, nslots):
    """the stack frame: the named slots, the spill slots (prologue adds the saved registers)"""
    frame = Frame(names)
    frame.nspill = nslots
    return frame


def code_runner(code):
    return lambda regs, mem: run_insns(code, regs, mem)


def gen(zbkb):
    a = Asm({"zbkb"} if zbkb else ())
    isa = "rv32i_zbkb" if zbkb else "rv32i"
    a.raw(header(f"AES-128, one block, fixsliced bitsliced representation, constant time, {isa}.",
                 "crypto/aes128/fixsliced/gen.py",
                 ["Straight-line code register-allocated and list-scheduled by the generator;",
                  "the representation and the counts are in crypto/aes128/fixsliced/NOTES.md."]).rstrip())
    a.section(".text")
    kb = keyexp_blocks(zbkb)
    eb, db = cipher_blocks(zbkb, False), cipher_blocks(zbkb, True)
    check(kb, eb, db)                       # the SSA code, before allocation
    key_spill, cipher_spill = Frame(KEY_FRAME).spill_off(0), Frame(CIPHER_FRAME).spill_off(0)
    key_regs = loop_registers(kb, KEY_REGS, (), key_spill)
    kc = [compile_block(b, res, f"key-{part}", f"key-{part}", key_spill)
          for b, part, res in zip(kb, ("pre", "body", "post"), (("a0",), (), ()))]
    comp = {}
    for tag, blocks in (("enc", eb), ("dec", db)):
        loop_registers(blocks, PLANE_REGS, ("a2",), cipher_spill)
        comp[tag] = [compile_block(b, res, f"{tag}-{part}", f"{tag}-{part}", cipher_spill)
                     for b, part, res in zip(blocks, ("pre", "body", "post"),
                                             (("a1", "a2"), ("a2",), ("a2",)))]
    check(kb, eb, db, {"k": [code_runner(c[0]) for c in kc],    # the allocated code
                       "e": [code_runner(c[0]) for c in comp["enc"]],
                       "d": [code_runner(c[0]) for c in comp["dec"]]})

    # The slow paths for unaligned buffers sit before their function: a short backward branch
    # that is not taken for aligned buffers (a forward one past a 5 KB function would be a
    # taken branch over a jump on every aligned call: 3 cycles of misprediction on the E31).
    a.comment("aes128_keyexp_enc's key not word-aligned: copy it into the frame (after its prologue)")
    a.label(".Lk_unaligned")
    for i in range(16):
        a(f"lbu  t0, {i}(a1)")
        a(f"sb   t0, {i}(sp)")
    a("mv   a1, sp")
    a("j    .Lk_body")
    with a.function("aes128_keyexp_enc", doc="(rk, key): 11 round keys, 44 words"):
        (_, pre, u1, n1), (_, body, u2, n2), (_, post, u3, n3) = kc
        frame = frame_of(KEY_FRAME, max(n1, n2, n3))
        prologue(a, frame, u1 | u2 | u3, note="callee-saved")
        a("andi t0, a1, 3")
        a("bnez t0, .Lk_unaligned", note="key not word-aligned: copy it")
        a.label(".Lk_body")
        a.insns(pre)
        a.label(".Lk_keys", "round keys 4t..4t+3 stored, the next four made; t = 0, 1")
        a.insns(body)
        a("li   t0, 0x100", note="rcon after the two passes")
        a("addi a0, a0, 64")
        a(f"bne  {key_regs[4]}, t0, .Lk_keys")
        a.insns(post)
        epilogue(a, frame)
    with a.function("aes128_keyexp_dec", doc="(rk, key): the direct inverse cipher uses the encryption round keys"):
        a("j    aes128_keyexp_enc")
    for name, tag in (("aes128_encrypt", "enc"), ("aes128_decrypt", "dec")):
        dec = tag == "dec"
        (_, pre, u1, n1), (_, body, u2, n2), (_, post, u3, n3) = comp[tag]
        a.comment(f"{name} with in or out not word-aligned: on an aligned copy")
        call_on_aligned_copy(a, f".L{tag}_unaligned", name)
        with a.function(name, doc="(out, in, rk)"):
            a("or   t0, a0, a1")
            a("andi t0, t0, 3")
            a(f"bnez t0, .L{tag}_unaligned", note="in or out not word-aligned")
            frame = frame_of(CIPHER_FRAME, max(n1, n2, n3))
            prologue(a, frame, u1 | u2 | u3, note="callee-saved")
            a(f"sw   a0, {OUT_SLOT}(sp)", note="out, for the last block")
            a.insns(pre)
            if dec:
                a("addi a2, a2, 64", note="rounds 9..6 read rk + 64 + 16 * (i - 4)")
            a(f"addi t0, a2, {-128 if dec else 128}")
            a(f"sw   t0, {BOUND_SLOT}(sp)", note="a2 after the two passes")
            a.label(f".L{tag}_rounds", "4 rounds (drift 1, 2, 3, 0 / 1, 0, 3, 2), twice")
            a.insns(body)
            a(f"lw   t0, {BOUND_SLOT}(sp)")
            a(f"addi a2, a2, {-64 if dec else 64}")
            a(f"bne  a2, t0, .L{tag}_rounds")
            a.insns(post)
            epilogue(a, frame)
    return a.text()


if __name__ == "__main__":
    out = {False: os.path.join(HERE, "aes128_fixsliced.S"),
           True: os.path.join(HERE, "..", "fixsliced-zbkb", "aes128_fixsliced_zbkb.S")}
    for zbkb in (False, True):
        STATS.clear()
        text = gen(zbkb)
        os.makedirs(os.path.dirname(out[zbkb]), exist_ok=True)
        with open(out[zbkb], "w") as f:
            f.write(text)
        for k, (ops, n, cyc, slots) in STATS.items():
            print("%-6s %-8s %5d SSA ops, %5d instructions allocated, ~%5d cycles scheduled, %2d spill slots"
                  % ("zbkb" if zbkb else "rv32i", k, ops, n, cyc, slots))
