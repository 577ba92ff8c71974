#!/usr/bin/env python3
"""Generator for the bitsliced AES-128-CTR and AES-256-CTR kernels (8 blocks in parallel,
"barrel-shiftrows" layout).  Writes, for AES-128, aes128ctr_bitsliced.S (rv32i) and
../bitsliced-zbkb/aes128ctr_bitsliced_zbkb.S, and for AES-256
../../aes256-ctr/bitsliced/aes256ctr_bitsliced.S and
../../aes256-ctr/bitsliced-zbkb/aes256ctr_bitsliced_zbkb.S.  The two key sizes share every
block of the data path (the rounds only differ in number); they differ in the key schedule
(KEYSIZES below).

Layout: 32 words W[r][b] (row r = 0..3, bit b = 0..7 of the byte, b = 0 the LSB); bit 8*c + k of
W[r][b] is bit b of byte 4*c + r (column c) of block k.  ShiftRows is then a rotation of
W[r][*] right by 8*r; MixColumns is XORs between words.  The straight-line parts (S-box
rows, MixColumns, packing, unpacking, key schedule) are written as SSA code over virtual
registers, register-allocated with common/ssa.py (furthest-next-use eviction, spills to the
stack) and list-scheduled for the E31 load latency.  Run: python3 gen.py
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from bpsbox import GATES, circuit
from mcslp import SLP as MC_GATES
from common.asm import Asm, header
from common.sched import critical_path
from common.ssa import Block, allocate, pressure_order
MC_SLP = os.environ.get("MC_SLP", "0") == "1"   # 92-XOR MixColumns: more spills than it saves here

def sbox(B, u):
    """u[b] = bit b (LSB = 0) words; returns s[b] words of S(x) ^ 0x63."""
    return circuit(B, GATES, u)

# ----------------------------------------------------------- register allocation
ALLOC_REGS = ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7",
              "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11",
              "ra"]
SPILL_BASE = 640            # the stack areas below it: see "the pieces"
SPILL_SLOTS = 32

def allocate_block(B, reserved=()):
    """B allocated (common/ssa.py) to the registers but `reserved`: furthest-next-use eviction,
    spills to the stack, constants re-made by li instead of spilled"""
    regs = [r for r in ALLOC_REGS if r not in reserved]
    return allocate(B, regs, SPILL_BASE, max_slots=SPILL_SLOTS, recompute=lambda o: o["op"] == "li").insns

def reorder(B, rng=None):
    """Register-pressure-aware topological order of the SSA ops (common/ssa.py): repeatedly
    take the ready op that frees the most values (last uses) net of the value it creates; ties
    keep the original order (or a random one with rng; HEUR picks other tie-breaks).  Memory
    ops keep their order per address (base a1 aliases sp)."""
    tie = [rng.random() for _ in B.ops] if rng is not None else None

    def priority(i, o, net, recent):
        if rng is not None:
            return (net, tie[i])
        if HEUR == 1:
            return (net, -i)
        if HEUR == 2:
            return (net, recent, -i)
        if HEUR == 3:
            return (o["op"] != "lw", net, recent, -i)
        return (-i,)
    pressure_order(B, priority, location=lambda mem: ("sp", mem[1]) if mem[0] == "a1" else mem)

REORDER = True
HEUR = int(os.environ.get('HEUR', '1'))

TRIALS = int(os.environ.get("TRIALS", "40"))
CLIMB = int(os.environ.get("CLIMB", "0"))

def climb(B, reserved, iters, rng):
    """hill-climb over topological orders: move one op within its dependency window, keep
    the move if the allocated code does not get longer."""
    ops = list(B.ops)
    best = len(allocate_block(B, reserved))
    for _ in range(iters):
        i = rng.randrange(len(ops))
        # window: after the last predecessor, before the first successor
        o = ops[i]
        lo = 0
        prodpos = {}
        for k, q in enumerate(ops):
            if q["dst"] is not None:
                prodpos[q["dst"]] = k
        for s in o["srcs"]:
            lo = max(lo, prodpos[s] + 1)
        hi = len(ops) - 1
        if o["dst"] is not None:
            for k in range(i + 1, len(ops)):
                if o["dst"] in ops[k]["srcs"]:
                    hi = k - 1
                    break
        if o["mem"] is not None:
            continue
        if hi <= lo:
            continue
        j = rng.randrange(lo, hi + 1)
        if j == i:
            continue
        cand = ops[:i] + ops[i + 1:]
        cand.insert(j if j < i else j, o)
        B.ops = cand
        try:
            n = len(allocate_block(B, reserved))
        except IndexError:
            n = 10 ** 9
        if n <= best:
            best, ops = n, cand
    B.ops = ops

def compile_block(B, reserved=(), name=""):
    """reorder (pressure-aware; plus TRIALS random tie-breaks, deterministic seeds), allocate,
    schedule; keep the variant with the fewest cycles.  A block already compiled (the same ops
    and reserved registers: AES-256 reuses AES-128's data path) is taken from COMPILED, which
    gives the same result (the search is deterministic) in no time."""
    import random
    orig = list(B.ops)
    key = (repr(orig), tuple(reserved))
    if key in COMPILED:
        STATS[name] = COMPILED[key][1]
        return COMPILED[key][0]
    best = None
    for t in range(TRIALS + 1):
        B.ops = list(orig)
        if REORDER:
            reorder(B, random.Random(t) if t else None)
        if CLIMB and t == 0:
            climb(B, reserved, CLIMB, random.Random(12345))
        try:
            code = allocate_block(B, reserved)
        except IndexError:          # out of spill slots: skip this order
            continue
        sched, cycles = critical_path(code)
        if best is None or cycles < best[1]:
            best = (sched, cycles, code)
    sched, cycles, code = best
    STATS[name] = (len(code), cycles)
    COMPILED[key] = (sched, STATS[name])
    return sched

STATS = {}
COMPILED = {}

# ----------------------------------------------------------------- the pieces
# stack areas: state, packed counter (round 1's input), keystream, temp, round-1 cache
ST, CT, KS, VT, RC = 0, 128, 256, 384, 512
# MISC words: out, in, len, rk, round count, n (bytes this batch), counter (of the batch's
# block 0), tag (counter >> 8 of the batch RC was filled for), fill (1: the round loop is
# filling RC)
MISC = SPILL_BASE + 4 * SPILL_SLOTS          # 768
SAVE = MISC + 48                             # saved callee-saved registers
FRAME = SAVE + 64                            # 880

def w_off(r, b):
    return 4 * (8 * r + b)

def round_block(zbkb):
    """a full round: ARK + SubBytes + ShiftRows for the 4 rows, then MixColumns, with the
    rows' outputs handed to MixColumns in registers (spilled only where needed)."""
    B = Block(zbkb)
    out = []
    for r in range(4):
        u = [B.xor(B.lw("sp", ST + w_off(r, b)), B.lw("a0", w_off(r, b))) for b in range(8)]
        s = sbox(B, u)
        out.append([B.ror(s[b], 8 * r) for b in range(8)])
    mixcolumns(B, out)
    return compile_block(B, ("a0",), "round")

def round1_block(zbkb):
    """round 1 from the cache RC, which holds round 1 as computed with row 3 of its input
    (counter byte 15 and iv bytes 3, 7, 11) taken as S^-1(0) (the xor function fills it):
    ARK, SubBytes and ShiftRows of row 3 only, then the state = RC ^ row 3's share of MixColumns
    (out_r = 2 a_r ^ 3 a_r+1 ^ a_r+2 ^ a_r+3: a3 goes to rows 0 and 1, 3 a3 to row 2, 2 a3 to
    row 3)."""
    B = Block(zbkb)
    u = [B.xor(B.lw("sp", CT + w_off(3, b)), B.lw("a0", w_off(3, b))) for b in range(8)]
    s = sbox(B, u)
    a3 = [B.ror(s[b], 24) for b in range(8)]
    # xtime in the bitsliced form: bit b of 2x is bit b - 1 of x, plus bit 7 of x at bits 0, 1, 3, 4
    x2 = [a3[7]] + [B.xor(a3[b - 1], a3[7]) if b in (1, 3, 4) else a3[b - 1] for b in range(1, 8)]
    share = [a3, a3, [B.xor(x2[b], a3[b]) for b in range(8)], x2]
    for r in range(4):
        for b in range(8):
            B.sw(B.xor(B.lw("sp", RC + w_off(r, b)), share[r][b]), "sp", ST + w_off(r, b))
    return compile_block(B, ("a0",), "round1")

def mixcolumns(B, vals):
    """MixColumns of the rows' outputs vals[r][b] (in registers), the result stored to ST."""
    if MC_SLP:
        v = {"x%d" % (8 * r + b): vals[r][b] for r in range(4) for b in range(8)}
        for d, x, y in MC_GATES:
            v[d] = B.xor(v[x], v[y])
        for r in range(4):
            for b in range(8):
                B.sw(v["y%d" % (8 * r + b)], "sp", ST + w_off(r, b))
        return
    a = [[None] * 8 for _ in range(4)]
    t = [[None] * 8 for _ in range(4)]
    def load(b):
        for r in range(4):
            a[r][b] = vals[r][b]
        for r in range(4):
            t[r][b] = B.xor(a[r][b], a[(r + 1) % 4][b])
    load(7)
    for b in range(8):
        if b != 7:
            load(b)
        for r in range(4):
            x = B.xor(t[(r + 1) % 4][b], a[(r + 3) % 4][b])
            x = B.xor(x, t[r][b - 1] if b > 0 else t[r][7])
            if b in (1, 3, 4):
                x = B.xor(x, t[r][7])
            B.sw(x, "sp", ST + w_off(r, b))

def bytetr(B, x, m8, m16):
    """4x4 byte transpose: byte j of x[i] <-> byte i of x[j]."""
    x = list(x)
    x[0], x[1] = B.swapmove(x[0], x[1], 8, m8)
    x[2], x[3] = B.swapmove(x[2], x[3], 8, m8)
    x[0], x[2] = B.swapmove(x[0], x[2], 16, m16)
    x[1], x[3] = B.swapmove(x[1], x[3], 16, m16)
    return x

def bittr(B, x, m1, m2, m4):
    """in every byte lane: bit j of x[i] <-> bit i of x[j] (8x8 bit transpose)."""
    x = list(x)
    for d, m in ((1, m1), (2, m2), (4, m4)):
        for i in range(8):
            if i & d == 0:
                x[i], x[i + d] = B.swapmove(x[i], x[i + d], d, m)
    return x

def masks(B):
    return (B.li(0x55555555), B.li(0x33333333), B.li(0x0f0f0f0f),
            B.li(0x00ff00ff), B.li(0x0000ffff))

def last_round_block(zbkb):
    """the last round (10 or 14: ARK, SubBytes, ShiftRows) and the unpacking: the S-box outputs
    of each row are bit-transposed in registers (X_r[k]: byte c = byte 4c+r of block k), then
    each block's 4 words are byte-transposed into its columns, the last round key is added in
    byte form (4 words at a0 + 128, the key schedule writes them) and out (a2) = in (a1) ^
    keystream."""
    B = Block(zbkb)
    m1, m2, m4 = B.li(0x55555555), B.li(0x33333333), B.li(0x0f0f0f0f)
    for r in range(4):
        u = [B.xor(B.lw("sp", ST + w_off(r, b)), B.lw("a0", w_off(r, b))) for b in range(8)]
        s = sbox(B, u)
        x = bittr(B, [B.ror(s[b], 8 * r) for b in range(8)], m1, m2, m4)
        for k in range(8):
            B.sw(x[k], "sp", VT + 4 * (4 * k + r))
    m8, m16 = B.li(0x00ff00ff), B.li(0x0000ffff)
    klast = [B.lw("a0", 128 + 4 * c) for c in range(4)]
    for k in range(8):
        y = bytetr(B, [B.lw("sp", VT + 4 * (4 * k + r)) for r in range(4)], m8, m16)
        for c in range(4):
            B.sw(B.xor(B.xor(y[c], klast[c]), B.lw("a1", 16 * k + 4 * c)), "a2", 16 * k + 4 * c)
    return compile_block(B, ("a0", "a1", "a2"), "lastround")

def pack_phase():
    """the 8 counter blocks (the iv at a3, any alignment, with counter + k in block k) straight
    to the packed form CT.  In W[r][b], bytes 0..2 (columns 0..2: iv bytes 4c + r, the same in
    every block) are bit b of that iv byte replicated into the 8 lanes; byte 3 (column 3) has in
    lane k bit b of counter byte r (big endian) of block k: an 8x8 bit transpose of the 8
    counter values.  Also stores the counter (block 0's) at MISC + 24."""
    B = Block()
    iv = [B.lbu("a3", i) for i in range(16)]
    ctr = B.or_(B.or_(B.slli(iv[12], 24), B.slli(iv[13], 16)), B.or_(B.slli(iv[14], 8), iv[15]))
    B.sw(ctr, "sp", MISC + 24)
    m1, m2, m4 = B.li(0x55555555), B.li(0x33333333), B.li(0x0f0f0f0f)
    # v[b]: byte j, bit k = bit 8j + b of counter + k (mod 2^32)
    v = bittr(B, [ctr] + [B.addi(ctr, k) for k in range(1, 8)], m1, m2, m4)
    m3, top = B.li(0x00010101), B.li(0xff000000)
    for r in range(4):
        row = B.or_(B.or_(iv[r], B.slli(iv[4 + r], 8)), B.slli(iv[8 + r], 16))
        for b in range(8):
            x = B.and_(B.srli(row, b) if b else row, m3)
            cols = B.sub(B.slli(x, 8), x)                      # 0xff in byte c where the bit is set
            if r == 3:
                c3 = B.slli(v[b], 24)
            else:                                             # counter byte r is byte 3 - r of v[b]
                c3 = B.and_(B.slli(v[b], 8 * r) if r else v[b], top)
            B.sw(B.or_(cols, c3), "sp", CT + w_off(r, b))
    return compile_block(B, ("a3",), "pack")

def increment_phase():
    """add 8 to the 32-bit big-endian counter of every block (column 3 lane of CT): a
    ripple-carry adder on the counter's bits 3..31 (bits 0..2 do not change)."""
    B = Block()
    c = B.li(0xff000000)
    for k in range(3, 32):
        r, b = 3 - k // 8, k % 8
        w = B.lw("sp", CT + w_off(r, b))
        B.sw(B.xor(w, c), "sp", CT + w_off(r, b))
        if k < 31:
            c = B.and_(w, c)
    return compile_block(B, ("a0", "a1"), "increment")

# ----------------------------------------------------------------- key schedule
# The two key sizes (FIPS 197): nk key words, nr rounds.  The rounds are the same code; the key
# schedule differs: AES-128 makes each round key from the previous one (SubWord(RotWord) +
# rcon on its last word), AES-256 each from the two before it, SubWord(RotWord) + rcon for the
# even round keys (word index i mod 8 == 0) and SubWord alone for the odd ones (i mod 8 == 4).
KEYSIZES = {128: {"nk": 4, "nr": 10}, 256: {"nk": 8, "nr": 14}}

def key_conv_block():
    """round key i, byte form at sp+0..15 -> W form at a0, with the S-box constant at MISC+4
    (0 for round key 0, 0x63636363 after) folded in: row words R_r (byte c = byte 4c+r), then
    each bit replicated into the 8 block lanes."""
    conv = Block()
    m01, m8, m16 = conv.li(0x01010101), conv.li(0x00ff00ff), conv.li(0x0000ffff)
    rows = bytetr(conv, [conv.lw("sp", 4 * j) for j in range(4)], m8, m16)
    c = conv.lw("sp", MISC + 4)
    for r in range(4):
        row = conv.xor(rows[r], c)
        for b in range(8):
            x = conv.and_(conv.srli(row, b) if b else row, m01)
            conv.sw(conv.sub(conv.slli(x, 8), x), "a0", w_off(r, b))
    return conv

def key_next_block(zbkb, nk, rot):
    """the next round key in byte form.  AES-128 (nk 4): from round key i at sp+0..15, stored
    back there.  AES-256 (nk 8): from round keys i (sp+0..15) and i + 1 (sp+16..31); the window
    moves on: i + 1 to sp+0..15, the new i + 2 to sp+16..31.  rot: SubWord(RotWord(w)) ^ rcon
    (rcon in a1), else SubWord(w) alone (AES-256's odd round keys).  SubWord runs the S-box
    circuit on the 4 bytes of the word at once (bit b of every byte in one word)."""
    nxt = Block(zbkb)
    w = [nxt.lw("sp", 4 * j) for j in range(4)]
    prev = w if nk == 4 else [nxt.lw("sp", 16 + 4 * j) for j in range(4)]
    m01 = nxt.li(0x01010101)
    t = nxt.ror(prev[3], 8) if rot else prev[3]
    u = [nxt.and_(nxt.srli(t, b) if b else t, m01) for b in range(8)]
    sb = sbox(nxt, u)
    y = sb[0]
    for b in range(1, 8):
        y = nxt.or_(y, nxt.slli(sb[b], b))
    y = nxt.xor(y, nxt.li(0x63636363))       # the circuit leaves out the S-box constant
    if rot:
        y = nxt.xor_reg(y, "a1")
    n = [nxt.xor(w[0], y)]
    for j in range(1, 4):
        n.append(nxt.xor(w[j], n[-1]))
    if nk == 8:
        for j in range(4):
            nxt.sw(prev[j], "sp", 4 * j)
    for j in range(4):
        nxt.sw(n[j], "sp", 4 * (nk - 4) + 4 * j)
    return nxt

def key_last_block(nk):
    """round key nr in byte form, with the constant, at a0 + 128 (a0 = where round key nr - 1
    went): the last round adds it after unpacking.  It is at sp+0 (AES-128) or sp+16
    (AES-256: the window's second half)."""
    last = Block()
    c63 = last.li(0x63636363)
    for j in range(4):
        last.sw(last.xor(last.lw("sp", 4 * (nk - 4) + 4 * j), c63), "a0", 128 + 4 * j)
    return last

def keyexp_blocks(zbkb, nk):
    """the key schedule's blocks, each emitted once, compiled: conversion, next round key
    (AES-256: with and without RotWord + rcon), the last round key's store.  rk[32*i + 8*r + b]
    = W[r][b] of round key i for i = 0..nr-1 (1..nr-1 with the S-box constant 0x63 folded in);
    round key nr (constant folded in) in byte form at rk[32*nr .. 32*nr + 3]."""
    blocks = {"conv": compile_block(key_conv_block(), ("a0", "a1"), "keyconv"),
              "next": compile_block(key_next_block(zbkb, nk, True), ("a0", "a1"), "keynext")}
    if nk == 8:
        blocks["next_sub"] = compile_block(key_next_block(zbkb, nk, False), ("a0", "a1"), "keynextsub")
    blocks["last"] = compile_block(key_last_block(nk), ("a0", "a1"), "key%d" % KEYSIZES[32 * nk]["nr"])
    return blocks

# ----------------------------------------------------------------- the functions
def gen(zbkb, bits=128):
    """the .S text of aes<bits>ctr_keyexp and aes<bits>ctr_xor"""
    nk, nr = KEYSIZES[bits]["nk"], KEYSIZES[bits]["nr"]
    name = f"aes{bits}ctr"
    a = Asm({"zbkb"} if zbkb else ())
    isa = "rv32i_zbkb" if zbkb else "rv32i"
    a.raw(header(f"AES-{bits}-CTR, bitsliced (8 blocks in parallel, barrel-shiftrows), {isa}.",
                 "crypto/aes128-ctr/bitsliced/gen.py",
                 ["Straight-line blocks register-allocated and list-scheduled by the generator."]).rstrip())
    a.section(".text")
    saved = ["ra"] + ["s%d" % i for i in range(12)]

    def prologue():
        a(f"li   t0, -{FRAME}")
        a("add  sp, sp, t0")
        for i, r in enumerate(saved):
            a(f"sw   {r}, {SAVE + 4 * i}(sp)")

    def copy_words(src, dst, nbytes):
        """nbytes from src to dst ((register, offset) each), a word at a time: a loop, for
        the paths a call takes once or a few times"""
        a(f"addi t0, {src[0]}, {src[1]}")
        a(f"addi t1, {dst[0]}, {dst[1]}")
        a(f"addi t2, t0, {nbytes}")
        a.label("4")
        a("lw   t3, 0(t0)")
        a("addi t0, t0, 4")
        a("sw   t3, 0(t1)")
        a("addi t1, t1, 4")
        a("bne  t0, t2, 4b")

    def epilogue():
        for i, r in enumerate(saved):
            a(f"lw   {r}, {SAVE + 4 * i}(sp)")
        a(f"li   t0, {FRAME}")
        a("add  sp, sp, t0")
        a("ret")
    # ---- keyexp
    with a.function(f"{name}_keyexp", doc="(rk, key)"):
        prologue()
        for i in range(4 * nk):     # key bytes -> stack words 0..nk-1 (little endian)
            a(f"lbu  t0, {i}(a1)")
            a(f"sb   t0, {i}(sp)")
        kb = keyexp_blocks(zbkb, nk)
        a(f"sw   zero, {MISC + 4}(sp)", note="round key 0: no constant to fold in")
        a("li   a1, 1", note="rcon")
        a(f"addi t0, a0, {128 * (nr - 1)}")
        a(f"sw   t0, {MISC}(sp)", note=f"rk + 128*{nr - 1}: where round key {nr - 1} goes")
        if nk == 8:
            a(f"sw   a0, {MISC + 8}(sp)", note="rk: bit 7 of a0 - rk is i mod 2")
        a.label(".Lk_round")
        a.comment("round key i -> W form at a0")
        a.insns(kb["conv"])
        a("li   t0, 0x63636363")
        a(f"sw   t0, {MISC + 4}(sp)", note=f"round keys 1..{nr} carry the S-box constant")

        def rcon_update():
            a("slli a1, a1, 1", note="rcon = xtime(rcon)")
            a("srli t0, a1, 8")
            a("sub  t0, zero, t0")
            a("andi t0, t0, 0x11b")
            a("xor  a1, a1, t0")
        if nk == 4:
            a.comment("round key i + 1 in byte form")
            a.insns(kb["next"])
            rcon_update()
            a(f"lw   t0, {MISC}(sp)")
            a("beq  a0, t0, .Lk_done", note=f"the key just made is round key {nr}")
        else:
            # round key i + 2 from i and i + 1; round key nr is made at i = nr - 2, so the
            # loop ends right after converting round key nr - 1
            a(f"lw   t0, {MISC}(sp)")
            a(f"lw   t1, {MISC + 8}(sp)")
            a("beq  a0, t0, .Lk_done", note=f"round key {nr - 1} was the last in W form")
            a("sub  t1, a0, t1")
            a("andi t1, t1, 128")
            a("bnez t1, .Lk_sub", note="i odd: round key i + 2 is odd (SubWord alone)")
            a.comment("round key i + 2 (even) in byte form: SubWord(RotWord(w)) ^ rcon")
            a.insns(kb["next"])
            rcon_update()
            a("j    .Lk_next")
            a.label(".Lk_sub")
            a.comment("round key i + 2 (odd) in byte form: SubWord(w)")
            a.insns(kb["next_sub"])
            a.label(".Lk_next")
        a("addi a0, a0, 128")
        a("j    .Lk_round")
        a.label(".Lk_done")
        a.insns(kb["last"])
        epilogue()
    # ---- xor
    with a.function(f"{name}_xor", doc="(out, in, len, iv, rk)"):
        a("beqz a2, .Lx_ret0")
        prologue()
        a(f"sw   a0, {MISC + 0}(sp)")
        a(f"sw   a1, {MISC + 4}(sp)")
        a(f"sw   a2, {MISC + 8}(sp)")
        a(f"sw   a4, {MISC + 12}(sp)")
        a("li   t0, -1")
        a(f"sw   t0, {MISC + 28}(sp)", note="tag of RC: nothing cached yet (no counter >> 8 is -1)")
        a(f"sw   zero, {MISC + 32}(sp)", note="not filling")
        a.comment("the 8 counter blocks in the bitsliced form")
        a.insns(pack_phase())
        a.label(".Lx_batch")
        a.comment("Round 1 is cheaper from the cache RC: RC depends on the iv, the key and counter")
        a.comment("bytes 12..14 only, and it is valid for a batch whose 8 blocks all have the bytes")
        a.comment("of the tag.  The counter is public (it goes with the ciphertext): these branches")
        a.comment("depend on it and on the length, never on the key or the data.")
        a(f"lw   a0, {MISC + 12}(sp)", note="round key 0")
        a(f"lw   t0, {MISC + 24}(sp)")
        a(f"lw   t1, {MISC + 28}(sp)")
        a("addi t2, t0, 7")
        a("srli t0, t0, 8", note="counter bytes 12..14 of block 0")
        a("srli t2, t2, 8", note="... of block 7")
        a("bne  t0, t2, .Lx_full", note="they differ within the batch: round 1 in full")
        a("beq  t0, t1, .Lx_round1", note="RC is valid for this batch")
        a(f"lw   t2, {MISC + 8}(sp)")
        a("li   t3, 128")
        a("bleu t2, t3, .Lx_full", note="the last batch: no later batch would use RC")
        a(f"sw   t0, {MISC + 28}(sp)", note="tag")
        a.comment("fill RC: one pass of the round loop on rows 0-2 of CT and, as row 3, round key")
        a.comment("0's row 3 (ARK makes that row 0, and the S-box circuit maps 0 to S(0) ^ 0x63 = 0,")
        a.comment("so MixColumns gets rows 0-2's S-box outputs alone); .Lx_filled copies ST to RC")
        copy_words(("sp", CT), ("sp", ST), 96)
        copy_words(("a0", 96), ("sp", ST + 96), 32)
        a("li   t0, 1")
        a(f"sw   t0, {MISC + 32}(sp)", note="fill")
        a(f"sw   t0, {MISC + 16}(sp)", note="one round")
        a("j    .Lx_round")
        a.label(".Lx_full", "round 1 in full, from CT")
        copy_words(("sp", CT), ("sp", ST), 128)
        a(f"li   t0, {nr - 1}")
        a(f"sw   t0, {MISC + 16}(sp)")
        a("j    .Lx_round")
        a.label(".Lx_round1", "round 1: row 3, and RC for rows 0-2")
        a.insns(round1_block(zbkb))
        a("addi a0, a0, 128")
        a(f"li   t0, {nr - 2}")
        a(f"sw   t0, {MISC + 16}(sp)")
        a.label(".Lx_round", f"rounds 2..{nr - 1} (1..{nr - 1} in full): ARK, SubBytes, ShiftRows, MixColumns")
        a.insns(round_block(zbkb))
        a(f"lw   t0, {MISC + 16}(sp)", note="(one instruction before its use: no stall)")
        a("addi a0, a0, 128")
        a("addi t0, t0, -1")
        a(f"sw   t0, {MISC + 16}(sp)")
        a("bnez t0, .Lx_round")
        a(f"lw   t1, {MISC + 32}(sp)")
        a("bnez t1, .Lx_filled")
        a.label(".Lx_last")
        a.comment("n = min(len, 128); the fast path (aligned, n = 128) works on in/out directly,")
        a.comment("otherwise the n bytes go through KS.")
        a(f"lw   a2, {MISC + 0}(sp)", note="out")
        a(f"lw   a1, {MISC + 4}(sp)", note="in")
        a(f"lw   t2, {MISC + 8}(sp)", note="len")
        a("li   t0, 128")
        a("mv   t1, t2")
        a("bltu t2, t0, 1f")
        a("mv   t1, t0")
        a.label("1")
        a("sub  t2, t2, t1")
        a(f"sw   t2, {MISC + 8}(sp)", note="remaining after this batch")
        a(f"sw   t1, {MISC + 20}(sp)", note="n")
        a("or   t3, a1, a2")
        a("andi t3, t3, 3")
        a("bnez t3, .Lx_slow")
        a("beq  t1, t0, .Lx_unpack")
        a.label(".Lx_slow")
        a(f"addi t2, sp, {KS}")
        a("add  t4, t2, t1")
        a.label("2")
        a("lbu  t5, 0(a1)")
        a("addi a1, a1, 1")
        a("sb   t5, 0(t2)")
        a("addi t2, t2, 1")
        a("bne  t2, t4, 2b")
        a(f"addi a1, sp, {KS}")
        a("mv   a2, a1")
        a.label(".Lx_unpack", f"round {nr}, unpacking, out = in ^ keystream")
        a.insns(last_round_block(zbkb))
        a(f"lw   a0, {MISC + 0}(sp)", note="out")
        a(f"lw   a1, {MISC + 4}(sp)", note="in")
        a(f"lw   t1, {MISC + 20}(sp)", note="n")
        a("add  a1, a1, t1")
        a(f"addi t2, sp, {KS}")
        a("beq  a2, t2, .Lx_copyout")
        a("add  a0, a0, t1")
        a("j    .Lx_next")
        a.label(".Lx_copyout")
        a("add  t4, a0, t1")
        a.label("3")
        a("lbu  t5, 0(t2)")
        a("addi t2, t2, 1")
        a("sb   t5, 0(a0)")
        a("addi a0, a0, 1")
        a("bne  a0, t4, 3b")
        a.label(".Lx_next")
        a(f"sw   a0, {MISC + 0}(sp)")
        a(f"sw   a1, {MISC + 4}(sp)")
        a(f"lw   a2, {MISC + 8}(sp)")
        a("beqz a2, .Lx_done")
        a.comment("the next 8 counter values")
        a.insns(increment_phase())
        a(f"lw   t0, {MISC + 24}(sp)")
        a("addi t0, t0, 8")
        a(f"sw   t0, {MISC + 24}(sp)")
        a("j    .Lx_batch")
        a.label(".Lx_filled", "ST holds round 1 of rows 0-2 alone: to RC, then round 1 of this batch")
        a(f"sw   zero, {MISC + 32}(sp)")
        copy_words(("sp", ST), ("sp", RC), 128)
        a(f"lw   a0, {MISC + 12}(sp)", note="round key 0")
        a("j    .Lx_round1")
        a.label(".Lx_done")
        epilogue()
        a.label(".Lx_ret0")
        a("ret")
    return a.text()

# the files written: (key bits, zbkb) -> path relative to this folder
OUTPUTS = {(128, False): "aes128ctr_bitsliced.S",
           (128, True): "../bitsliced-zbkb/aes128ctr_bitsliced_zbkb.S",
           (256, False): "../../aes256-ctr/bitsliced/aes256ctr_bitsliced.S",
           (256, True): "../../aes256-ctr/bitsliced-zbkb/aes256ctr_bitsliced_zbkb.S"}

if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    for (bits, zbkb), rel in OUTPUTS.items():
        path = os.path.normpath(os.path.join(here, rel))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        STATS.clear()
        with open(path, "w") as f:
            f.write(gen(zbkb, bits))
        for k, v in STATS.items():
            print("aes%d %-5s %-12s %5d insns, ~%5d cycles (schedule)"
                  % (bits, "zbkb" if zbkb else "rv32i", k, v[0], v[1]))
