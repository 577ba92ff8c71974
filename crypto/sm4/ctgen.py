"""The constant-time SM4 kernels: rv32i-ct/sm4.S (RV32I) and zbkb-ct/sm4.S (RV32I + Zbkb),
written by crypto/sm4/gen.py through `generate(variant)`.

No table is indexed by data and no branch depends on it: the four S-boxes of a round are one
evaluation of the circuit of ctsbox.py on whole words (a byte lane per S-box, bit b of the
four input bytes = `t >> b` at bit 0 of each byte), then the linear layer on the recombined
word. Everything else is the T-table kernels' data flow, on big-endian words W (what the
standard calls words; L is then rotations), so the 16-byte block is loaded and stored
big-endian: byte loads and stores on rv32i (any alignment, no branch), lw + rev8 on an
aligned block with Zbkb.

Per round (encryption): the round key (1 lw), t = X1 ^ X2 ^ X3 ^ rk (3 xors; sharing X2 ^ X3
between two rounds saves half an xor but keeps one more value alive: ORDERS says which), TOP
26, MIDDLE 66 (32 AND, 30 XOR, 4 masks), BOTTOM 38, then X0 ^= L(S) = q ^ rol(q ^ rol(S, 8), 10)
with q = S ^ rol(S, 24): three rotations (2 shifts each, xored in, on rv32i; one rori with
Zbkb) and the xors: 13 instructions, 7 with Zbkb. L needs three rotations: two give at most
four terms ((1 + z^a)(1 + z^b)), L has five. The key schedule has L'(S) = S ^ rol(S, 13) ^
rol(S, 23) (9; 5 with Zbkb), a constant load instead of the round key, and a store.

Constants. The circuit computes S0(x') = S(x) ^ D for x' = x ^ ALPHA (ctsbox.py), per byte.
ALPHA goes into the round keys (rk'_i = rk_i ^ A, A = ALPHA in every byte). D would add
LD = L(D in every byte) to every new state word; the kernels leave it out, so their state
words are X'_j = X_j ^ e_j with e_j = 0 (j < 4), e_{j+4} = e_j ^ LD, i.e. e_j = LD when
floor(j / 4) is odd; round i must then see X_{i+1} ^ X_{i+2} ^ X_{i+3} and gets
X'_{i+1} ^ X'_{i+2} ^ X'_{i+3}: the round key absorbs e_{i+1} ^ e_{i+2} ^ e_{i+3} as well.
e_32..35 = e_0..3 = 0, so the output needs no correction, and the offsets of round i and
of round 31 - i are equal (checked in `check`), so decryption uses the same keys backwards.
The key schedule does the same with L' (offsets f_j, LD' = L'(D...)): its round constant
CK''_i = CK_i ^ A ^ f_{i+1} ^ f_{i+2} ^ f_{i+3}, and the word it stores is
K_{i+4} ^ A ^ e_{i+1} ^ e_{i+2} ^ e_{i+3} = W_{i+4} ^ C_i: one table of (CK''_i, C_i) pairs.
The round keys are thus encryption's, constants folded in (api.h: rk is opaque).

Code generation: each loop body (4 rounds, 8 iterations; 4 rounds bring the state registers
back to their places) is SSA over values, put in a register-pressure-aware order (`reorder`),
register-allocated (the key pointer pinned; the rest by furthest next use, with recomputation
of values one instruction away instead of a store and a load, spilling to the stack) and
list-scheduled for the E31's 2-cycle lw. The four S-boxes need up to 27 live values and RV32
has 27 registers to give (all but zero, sp, gp, tp and the key pointer), so the state words
spend the S-boxes in the stack: about 3.5 instructions a round go to spills, reloads and
recomputations. `check_body` runs every allocated loop against its SSA on random inputs.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))
import ctsbox  # noqa: E402
from common.asm import header  # noqa: E402
from common.buffers import load_be_block, store_be_block  # noqa: E402
from common.sched import Insn, critical_path  # noqa: E402
from common.ssa import Block, Frame, allocate, epilogue, pressure_order, prologue, run_insns, weighted  # noqa: E402

RV32I_CT, ZBKB_CT = "rv32i-ct", "zbkb-ct"
M32 = 0xffffffff
FK = [0xA3B1BAC6, 0x56AA3350, 0x677D9197, 0xB27022DC]
CK = [int.from_bytes(bytes((28 * i + 7 * j) & 0xff for j in range(4)), "big") for i in range(32)]


def rol(x, n):
    n %= 32
    return ((x << n) | (x >> (32 - n))) & M32


def L(b):
    return b ^ rol(b, 2) ^ rol(b, 10) ^ rol(b, 18) ^ rol(b, 24)


def L_key(b):
    return b ^ rol(b, 13) ^ rol(b, 23)


A = ctsbox.ALPHA * 0x01010101
DW = ctsbox.D * 0x01010101


def offsets(lin):
    """e_j (j = 0..35): the constant the kernels' state word j differs from the standard's by"""
    return [lin(DW) if (j // 4) % 2 else 0 for j in range(36)]


E = offsets(L)
F = offsets(L_key)
RK_FOLD = [A ^ E[i + 1] ^ E[i + 2] ^ E[i + 3] for i in range(32)]
CK2 = [CK[i] ^ A ^ F[i + 1] ^ F[i + 2] ^ F[i + 3] for i in range(32)]
C_OUT = [F[i + 4] ^ RK_FOLD[i] for i in range(32)]
assert all(RK_FOLD[i] == RK_FOLD[31 - i] for i in range(32)), "decryption needs symmetric offsets"


# ---------------------------------------------------------------- model of the kernels
def tau0(x):
    return ctsbox.eval_word(x)


def model_keyexp(key):
    w = [int.from_bytes(key[4 * i:4 * i + 4], "big") ^ FK[i] for i in range(4)]
    rk = []
    for i in range(32):
        w.append(w[i] ^ L_key(tau0(w[i + 1] ^ w[i + 2] ^ w[i + 3] ^ CK2[i])))
        rk.append(w[i + 4] ^ C_OUT[i])
    return rk


def model_crypt(rk, block):
    x = [int.from_bytes(block[4 * i:4 * i + 4], "big") for i in range(4)]
    for i in range(32):
        x.append(x[i] ^ L(tau0(x[i + 1] ^ x[i + 2] ^ x[i + 3] ^ rk[i])))
    return b"".join(v.to_bytes(4, "big") for v in x[:31:-1])


def check(n=100):
    import random
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    ctsbox.check()
    rng = random.Random(3)
    for _ in range(n):
        key, pt = rng.randbytes(16), rng.randbytes(16)
        rk = model_keyexp(key)
        ct = model_crypt(rk, pt)
        assert ct == Cipher(algorithms.SM4(key), modes.ECB()).encryptor().update(pt)
        assert model_crypt(rk[::-1], ct) == pt


# ---------------------------------------------------------------- SSA blocks (common/ssa.py)
def sbox(B, t, mask):
    """ctsbox's circuit on t: returns S' (clean word); Z products emitted where BOTTOM first
    needs them (fewer live values)"""
    v = {"t": t, "MASK": mask}
    ops = {"^": B.xor, "&": B.and_}
    for d, op, a, b in ctsbox.TOP_GATES:
        v[d] = B.srli(v[a], int(b), role="sbox") if op == ">>" else B.xor(v[a], v[b], role="sbox")
    zdefs = {}
    for d, op, a, b in ctsbox.MIDDLE_GATES:
        if d.startswith("Z"):
            zdefs[d] = (a, b)
            continue
        v[d] = ops[op](v[a], v[b], role="sbox")

    def get(name):
        if name not in v:
            a, b = zdefs[name]
            v[name] = B.and_(v[a], v[b], role="sbox")
        return v[name]
    for d, op, a, b in ctsbox.BOTTOM_GATES:
        v[d] = B.slli(get(a), int(b), role="sbox") if op == "<<" else B.xor(get(a), get(b), role="sbox")
    # the Y operands of the products: each is the xor of two others (and some a shift of one),
    # as offset-0 bits; only those bits matter (a product with a clean N), so the allocator may
    # recompute one from any of these instead of keeping it
    for y, alts in ctsbox.Y_ALTERNATIVES.items():
        B.alts[v[y]] = [{"op": "xor" if op == "^" else "srli", "srcs": [v[a]] + ([v[b]] if op == "^" else []),
                         "imm": None if op == "^" else b, "mem": None, "role": "sbox"} for op, a, b in alts]
    return v[ctsbox.BOTTOM_OUT]


def rotl(B, zbkb, x, n):
    """rol(x, n) as a value: rori, or the two shifts (returned as a pair to be xored in)"""
    if zbkb:
        return [B.rori(x, (32 - n) % 32, role="linear")]
    return [B.slli(x, n, role="linear"), B.srli(x, 32 - n, role="linear")]


def xor_in(B, acc, terms, chain=None):
    for x in terms:
        acc = B.xor(acc, x, role="linear")
        if chain is not None:
            chain.append(acc)
    return acc


def round_ssa(B, key, zbkb, x, i, shared, kword, mask):
    """One round on the state values x = [X_i, X_{i+1}, X_{i+2}, X_{i+3}]; kword: the round key
    (or CK'') value. Returns (X_{i+4}, shared X_{i+2} ^ X_{i+3} for the next round or None)."""
    if shared is None:
        s = B.xor(x[2], x[3], role="xor")
        t = B.xor(s, x[1], role="xor")
    else:
        s, t = None, B.xor(shared, x[3], role="xor")
    t = B.xor(t, kword, role="xor")
    S = sbox(B, t, mask)
    chain = []
    B.chains.append(chain)
    if key:
        # X0 ^= S ^ rol(S, 13) ^ rol(S, 23)
        new = xor_in(B, x[0], [S] + rotl(B, zbkb, S, 13) + rotl(B, zbkb, S, 23), chain)
    else:
        q = xor_in(B, S, rotl(B, zbkb, S, 24))
        u = xor_in(B, q, rotl(B, zbkb, S, 8))
        new = xor_in(B, x[0], [q] + rotl(B, zbkb, u, 10), chain)
    return new, s


# ---------------------------------------------------------------- register allocation
REGS = ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7",
        "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "ra"]


FRAME_SLOTS = ["end", "out", "mask", "x0", "x1", "x2", "x3"]
REMAT_OPS = {"xor", "and", "srli", "slli", "rori", "lw"}


def allocate_loop(B, live_in, live_out, free_regs, frame, stats, homes, hints, weight):
    """B allocated (common/ssa.py) with spills to the frame's spill slots: values pinned to
    their registers, loop invariants in their homes, values one instruction away (an ALU
    operation or a load of a word that does not change, including B.alts' ways to the bits
    that matter) recomputed, eviction by distance to the next use times weight[cost] (cost 1:
    one instruction brings the value back; 2: a store and a load). Returns (Insns, {live-out
    value: register})."""
    alloc = allocate(B, free_regs, frame.spill_off(0), live_in=live_in, live_out=live_out, homes=homes,
                     hints=hints, evict=weighted(weight), recompute=lambda o: o["op"] in REMAT_OPS,
                     spill_role="spill", stats=stats)
    frame.nspill = max(frame.nspill, alloc.slots)
    stats["slots"] = alloc.slots
    return alloc.insns, alloc.regs


# ---------------------------------------------------------------- functions
STATE = ["s0", "s1", "s2", "s3"]
PTR = "a2"
ROUNDS = 4          # rounds per loop iteration (a multiple of 4: the state comes back to its registers)


def loop_body(variant, key, dec, share, state_slots=None):
    """SSA of ROUNDS rounds. Returns (block, state values in, state values out, key pointer, the
    output pointer (key schedule) or None, mask, sp)"""
    zbkb = variant == ZBKB_CT
    B = Block()
    x = [B.value() for _ in STATE]
    ptr, sp, mask = B.value(PTR), B.value("sp"), B.value()
    outp = B.value("a0") if key else None
    shared = None
    for i in range(ROUNDS):
        if key:
            kword = B.lw(ptr, 8 * i, role="key")
        else:
            kword = B.lw(ptr, 4 * (ROUNDS - 1 - i) if dec else 4 * i, role="key")
        new, s = round_ssa(B, key, zbkb, x[i:i + 4], i, shared, kword, mask)
        shared = s if share else None
        x.append(new)
        if state_slots:
            B.sw(new, sp, state_slots[i % 4], role="state")
        if key:
            cout = B.lw(ptr, 8 * i + 4, role="key")
            B.sw(B.xor(new, cout, role="key"), outp, 4 * i, role="key")
    return B, x[:4], x[ROUNDS:], ptr, outp, mask, sp


# How each loop is ordered and allocated, found by `python3 ctgen.py --search-orders` (the
# schedule's cycles, 8 iterations, plus 8 for memstate's stores and loads around the loop):
# share X2 ^ X3 between two rounds; keep the state words in stack slots at the loop's ends
# (memstate); the eviction weight of a value that costs one instruction to bring back (vs a
# store and a load); and `tweak`, changes to the priority `reorder` gives some ops (index in
# the SSA as loop_body writes it), from a local search (pruned to the changes that matter).
_ENC = dict(share=False, memstate=False, weight=3,
            tweak={28: -1.2, 43: 0.3, 57: -1.2, 147: -1.2, 175: -1.2, 176: -1.2, 182: -0.6, 294: -1.2,
                   314: -1.2, 318: -1.2, 323: -0.6, 428: -0.6, 438: 0.6, 441: -1.2, 461: -1.2,
                   466: -0.6, 470: -1.2, 482: -1.2, 484: 1.2})
_ENC_ZBKB = dict(share=False, memstate=False, weight=3,
                 tweak={28: -1.2, 29: -1.2, 43: 0.3, 57: -1.2, 141: -1.2, 156: -1.2, 157: -0.6, 174: 0.3,
                        181: 0.3, 199: -0.6, 201: -0.3, 282: -1.2, 309: -1.2, 317: 0.3, 318: -1.2,
                        339: -1.2, 423: -1.2, 446: -1.2, 452: -1.2})
ORDERS = {
    (RV32I_CT, "enc"): _ENC,            # 605 cycles a loop iteration
    (RV32I_CT, "dec"): _ENC,            # the same code but for the key offsets
    (RV32I_CT, "keyexp"): dict(share=False, memstate=False, weight=3,      # 604
                               tweak={24: -0.6, 25: -0.3, 41: -0.6, 60: -0.6, 75: -0.6, 118: -1.2, 143: -1.2,
                                      146: -0.3, 174: -0.6, 175: -0.6, 176: -0.3, 179: -0.3, 189: 1.2,
                                      206: -0.6, 289: -0.6, 292: -0.3, 307: -0.6, 315: -0.6, 321: -0.6,
                                      435: -0.3, 438: -0.3, 448: -1.2, 454: -0.6, 462: -0.6, 466: -0.6,
                                      467: -1.2, 471: 0.6, 495: -0.6, 512: -1.2, 513: -1.2, 575: 0.6,
                                      581: -1.2}),
    (ZBKB_CT, "enc"): _ENC_ZBKB,        # 581
    (ZBKB_CT, "dec"): _ENC_ZBKB,
    (ZBKB_CT, "keyexp"): dict(share=False, memstate=False, weight=3,      # 589
                              tweak={24: -0.6, 29: -0.6, 67: 1.2, 75: -0.6, 139: -0.6, 142: -0.3, 157: -0.6,
                                     171: -0.3, 172: 0.6, 175: 0.6, 281: -0.6, 284: -1.2, 312: -0.6,
                                     313: -1.2, 314: -0.3, 317: -0.3, 325: -0.6, 344: -1.2, 423: -1.2,
                                     426: -1.2, 447: -1.2, 453: -0.3, 454: -1.2, 455: -1.2, 483: -1.2,
                                     565: -1.2}),
}


def emit_loop(a, variant, key, dec, frame, stats, share=False, memstate=False, weight=3, tweak=None):
    slots = [frame.slot(f"x{j}") for j in range(4)] if memstate else None
    stats["memstate"] = memstate
    B, xin, xout, ptr, outp, mask, sp = loop_body(variant, key, dec, share, slots)
    reorder(B, tweak or {})
    nptr = B.op("addi", [ptr], imm=-4 * ROUNDS if dec else (8 if key else 4) * ROUNDS, pin=PTR, role="loop")
    homes = {mask: frame.slot("mask")}
    if memstate:
        # the state words live in their stack slots at the loop's ends: X_{j+4} is stored over X_j
        live_in = {v: None for v in xin}
        live_out = {}
        homes.update({v: s for v, s in zip(xin, slots)})
        homes.update({o["srcs"][0]: o["mem"][1] for o in B.ops if o["role"] == "state"})
    else:
        live_in = {v: r for v, r in zip(xin, STATE)}
        live_out = {v: r for v, r in zip(xout, STATE)}
    live_in.update({ptr: PTR, sp: "sp", mask: None})
    live_out[nptr] = PTR
    if key:
        live_in[outp] = "a0"
        live_out[B.op("addi", [outp], imm=4 * ROUNDS, pin="a0", role="loop")] = "a0"
    # X_{i+4} = X_i ^ ... (a chain of xors) in X_i's register, so that the state comes back to
    # STATE after 4 rounds without moves
    hints = {v: STATE[j % 4] for j, chain in enumerate(B.chains) for v in chain}
    reserved = {PTR, "sp"} | ({"a0"} if key else set())
    free_regs = [r for r in REGS if r not in reserved]
    insns, regs = allocate_loop(B, live_in, live_out, free_regs, frame, stats, homes, hints, {1: weight, 2: 1})
    # the loop bound, into a register no live-out value is in, the one free soonest
    last = {}
    for k, x in enumerate(insns):
        for r in x.dst + x.src:
            last[r] = k
    taken = set(regs.values())
    end = min((r for r in free_regs if r not in taken), key=lambda r: last.get(r, -1))
    insns.append(Insn(f"lw   {end}, {frame.slot('end')}(sp)", (end,), ("sp",), mem=("ld", ("sp", "end")),
                      role="loop"))
    # the branch and the next iteration's first uses: the scheduler keeps loads away from them
    insns.append(Insn("# loop back", (), tuple(taken | {end})))
    order, cycles = critical_path(insns, window=48)
    check_body(B, live_in, live_out, homes, order)
    stats["body_insns"] = len(order)
    stats["body_cycles"] = cycles
    stats["used"] = sorted({r for i in insns for r in i.dst} | set(STATE))
    a.label(f".L{fname(key, dec)}_loop")
    a.insns(order)
    a("bne", PTR, end, f".L{fname(key, dec)}_loop", role="loop")


def loop_asm(a, name, variant, key, dec, frame, stats):
    """the loop, generated first (it sizes the frame) into its own Asm, counted 8 times"""
    from common.asm import Asm
    body = Asm(a.ext)
    body.func, body.weight = name, 32 // ROUNDS
    emit_loop(body, variant, key, dec, frame, stats, **ORDERS[(variant, fname(key, dec))])
    return body


def state_to_slots(a, frame, stats):
    """the loop keeps the state words in stack slots at its ends (ORDERS' memstate)"""
    if stats["memstate"]:
        for j, r in enumerate(STATE):
            a("sw", r, f"{frame.slot(f'x{j}')}(sp)", role="state")


def state_from_slots(a, frame, stats):
    if stats["memstate"]:
        for j, r in enumerate(STATE):
            a("lw", r, f"{frame.slot(f'x{j}')}(sp)", role="state")


def merge(a, body):
    a.lines += body.lines
    a.tally.update(body.tally)
    a.count.update(body.count)
    a.roles.setdefault(a.func, []).extend(body.roles.get(a.func, []))


def fname(key, dec):
    return "keyexp" if key else ("dec" if dec else "enc")


def load_block(a, src, tag):
    """STATE = the four big-endian words at src; returns the Zbkb unaligned path's emitter (or None)"""
    return load_be_block(a, src, STATE, (["t0", "t1", "t2", "t3"], ["t4", "t5", "t6", "a3"]), tag, "t0", role="io")


def gen_crypt(a, variant, dec):
    name = "sm4_decrypt" if dec else "sm4_encrypt"
    tag = fname(False, dec)
    frame = Frame(FRAME_SLOTS)
    stats = {}
    body = loop_asm(a, name, variant, False, dec, frame, stats)
    a.begin_function(name, doc="(out a0, in a1, rk a2)")
    prologue(a, frame, set(stats["used"]), role="frame")
    a("sw", "a0", f"{frame.slot('out')}(sp)", role="frame")
    slow = load_block(a, "a1", tag)
    if dec:
        a("addi", "t0", "a2", -4 * ROUNDS, role="loop", note="end")
        a("addi", "a2", "a2", 128 - 4 * ROUNDS, role="loop", note="the last round keys first")
    else:
        a("addi", "t0", "a2", 128, role="loop", note="end: rk + 128")
    a("sw", "t0", f"{frame.slot('end')}(sp)", role="loop")
    a.li("t0", ctsbox.MASK, role="sbox", note="bit 0 of each byte")
    a("sw", "t0", f"{frame.slot('mask')}(sp)", role="sbox", note="the mask's home: loaded where the circuit needs it")
    state_to_slots(a, frame, stats)
    merge(a, body)
    state_from_slots(a, frame, stats)
    a("lw", "a0", f"{frame.slot('out')}(sp)", role="io")
    store_be_block(a, STATE[::-1], "a0", tag, "t0", lambda: epilogue(a, frame, role="frame"), role="io")
    if slow:
        slow()
    a.end_function()
    return stats


def gen_keyexp(a, variant):
    name = "sm4_keyexp_enc"
    frame = Frame(FRAME_SLOTS)
    stats = {}
    body = loop_asm(a, name, variant, True, False, frame, stats)
    a.begin_function(name, doc="(rk a0, key a1)")
    prologue(a, frame, set(stats["used"]), role="frame")
    slow = load_block(a, "a1", "kx")
    a.la_split(PTR, "sm4_ct_fk", role="key", note="FK, then (CK'', C) per round")
    for j, r in enumerate(STATE):
        a("lw", "t0", f"{4 * j}({PTR})", role="key")
        a("xor", r, r, "t0", role="key", note=f"K{j} = MK{j} ^ FK{j}")
    a("addi", PTR, PTR, 16, role="key")
    a("addi", "t0", PTR, 256, role="loop", note="end of the (CK'', C) pairs")
    a("sw", "t0", f"{frame.slot('end')}(sp)", role="loop")
    a.li("t0", ctsbox.MASK, role="sbox", note="bit 0 of each byte")
    a("sw", "t0", f"{frame.slot('mask')}(sp)", role="sbox", note="the mask's home: loaded where the circuit needs it")
    state_to_slots(a, frame, stats)
    merge(a, body)
    epilogue(a, frame, role="frame")
    if slow:
        slow()
    a.end_function()
    return stats


def data(a):
    a.section(".data.sm4_ct")
    a.directive(".p2align 2")
    a.label("sm4_ct_fk", "FK0..3, then per round CK''_i (CK_i with the S-box constants folded in) and C_i")
    a.words(FK)
    a.words([w for i in range(32) for w in (CK2[i], C_OUT[i])])


def generate(variant):
    from common.asm import Asm
    a = Asm({"zbkb"} if variant == ZBKB_CT else ())
    what = "RV32I + Zbkb" if variant == ZBKB_CT else "RV32I"
    a.raw(header(f"SM4 (GB/T 32907-2016), {what}, constant time: bitsliced S-box circuit.", "../gen.py",
                 ["Four S-boxes per round as one circuit on whole words; see ctgen.py and ctsbox.py."]).rstrip())
    data(a)
    a.section(".text")
    stats = {"keyexp": gen_keyexp(a, variant), "encrypt": gen_crypt(a, variant, False),
             "decrypt": gen_crypt(a, variant, True)}
    return a.text(), stats


LOAD_DELAY = 0.5


def reorder(B, tweak):
    """A register-pressure-aware topological order of B's ops (common/ssa.py): repeatedly the
    ready op that ends the most live ranges net of the value it starts (a load counting
    LOAD_DELAY more: it waits until nothing else is ready, the scheduler hoists it), plus
    tweak[its index] (ties: program order). Loads and stores of one location keep their order."""
    pressure_order(B, lambda i, o, net, recent:
                   (net - (LOAD_DELAY if o["op"] == "lw" else 0) + tweak.get(i, 0), -i))


# ---------------------------------------------------------------- self-check of the allocation
def check_body(B, live_in, live_out, homes, insns, seed=1):
    """The scheduled, allocated instructions compute what B's SSA does: the same live-out
    values in the required registers and the same stores, from random inputs (the allocator's
    spills, recomputations and fix-up moves and the scheduler's reordering are checked here)."""
    import random
    rng = random.Random(seed)
    base = {"sp": 0x1000, PTR: 0x2000, "a0": 0x3000}
    env, regs, mem_s, mem_i = {}, {}, {}, {}
    for v, r in live_in.items():
        env[v] = base[r] if r in base else rng.getrandbits(32)
        if r is not None:
            regs[r] = env[v]
        else:
            mem_i[base["sp"] + homes[v]] = env[v]
    for o in B.ops:            # whatever the block loads (round keys, slots), random
        if o["op"] == "lw":
            addr = env[o["mem"][0]] + o["mem"][1]
            mem_s[addr] = mem_i.setdefault(addr, rng.getrandbits(32))
    e = B.evaluate(env, {}, mem_s)
    got = run_insns(insns, regs, mem_i)
    for v, r in live_out.items():
        if r is not None:
            assert got[r] == e[v], f"live-out value in {r} differs"
    for addr, w in mem_s.items():
        assert mem_i[addr] == w, "a store differs"


def search_orders(only=None, steps=8000, seed=2):
    """ORDERS for each loop (or the loop `only` = (variant, fname)): the best of share, memstate
    and weight with no tweak, then a local search on the tweak (random changes of 1 to 6 ops'
    priorities, kept when the cost does not grow), pruned to the changes the cost needs. Prints
    the entries. Minutes per loop."""
    import random
    from common.asm import Asm

    def cost(variant, key, dec, cfg):
        frame, stats = Frame(FRAME_SLOTS), {}
        emit_loop(Asm(), variant, key, dec, frame, stats, **cfg)
        return stats["body_cycles"] * 32 // ROUNDS + (8 if cfg["memstate"] else 0)
    for variant in (RV32I_CT, ZBKB_CT):
        for key, dec in ((False, False), (False, True), (True, False)):
            if only and only != (variant, fname(key, dec)):
                continue
            grid = [dict(share=s, memstate=m, weight=w, tweak={})
                    for s in (True, False) for m in (False, True) for w in (2, 3)]
            c, cfg = min(((cost(variant, key, dec, g), g) for g in grid), key=lambda x: x[0])
            rng = random.Random(seed)
            n = len(loop_body(variant, key, dec, cfg["share"])[0].ops)
            for _ in range(steps):
                tw = dict(cfg["tweak"])
                for _ in range(rng.randint(1, 6)):
                    tw[rng.randrange(n)] = rng.choice([0.0, 0.3, -0.3, 0.6, -0.6, 1.2, -1.2])
                tw = {k: v for k, v in tw.items() if v}
                c2 = cost(variant, key, dec, dict(cfg, tweak=tw))
                if c2 <= c:
                    c, cfg = c2, dict(cfg, tweak=tw)
            for k in sorted(cfg["tweak"]):
                tw = {a: b for a, b in cfg["tweak"].items() if a != k}
                if cost(variant, key, dec, dict(cfg, tweak=tw)) <= c:
                    cfg = dict(cfg, tweak=tw)
            print(f"    ({'RV32I_CT' if variant == RV32I_CT else 'ZBKB_CT'}, \"{fname(key, dec)}\"): {cfg},  # {c}",
                  flush=True)


if __name__ == "__main__":
    if "--search-orders" in sys.argv:
        rest = sys.argv[sys.argv.index("--search-orders") + 1:]
        search_orders(only=tuple(rest[:2]) if rest else None)
    else:
        check()
        print("model of the kernels = cryptography's SM4; decryption with the same round keys")
