#!/usr/bin/env python3
"""Generator of the HIGHT kernels: rv32i/hight.S (F0/F1 tables), rv32i-ct/hight.S and
zbkb/hight.S (no tables: two bytes per register, F0/F1 by shifts).

Run: python3 gen.py            (rewrites the three .S files)

The algorithm is ref.py's (the plain reference written from the specification). All three
kernels are straight-line code (32 rounds unrolled), byte loads and stores only, so key, in
and out may have any alignment and out may equal in (every load of `in` precedes every store).

rv32i (tables, 2 KiB in .data): F1 at T and F0 at T + 1024, T 2048-aligned, each 1024 bytes
holding F(x & 0xff). A state byte is kept as a *pointer* into the table that it will index:
value v (0 <= v < 1024, v mod 256 = the byte) plus the base of that table, so F(x) is one
`lbu t, 0(reg)` with no address arithmetic. The combining add/xor keeps the low 8 bits right
whatever the high bits are (the bases are multiples of 1024), and the round keys carry the
difference between the operand's base and the base the result needs next round (for an xor:
the bases' xor; for the additions: their difference). The garbage v - (byte) grows by at most
255 per addition; the generator tracks every register's bound and masks (one `and` with
T | 0x4ff, which keeps the base) only where the bound would leave the 1024-byte window: about
one mask per round. So a round is 4 x (lbu F, lw key, 2 ALU) plus ~1 mask.

rv32i-ct / zbkb (no secret-indexed load or branch): 16-bit lanes, two state bytes per
register, the pairs (X_i, X_{i+4}) together: A = F1 inputs (X0, X4), B = F0 inputs (X2, X6),
C = add operands (X1, X5), D = xor operands (X3, X7). F0 and F1 of both lanes at once from
d = x | x << 8 (rotl8(x, k) = bits 8-k.. of d):  F0 = (d>>1) ^ ((d ^ d>>1) >> 6),
F1 = (d>>2) ^ ((d ^ d>>1) >> 4), masked with 0x00ff00ff. The byte rotation of the state turns
the pair (X3, X7) into (X4, X0): one half-word swap per round (3 instructions on rv32i, one
`rori` on zbkb; zbkb also packs the input with `pack`).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))
import ref  # noqa: E402
from common.asm import Asm, header  # noqa: E402
from common.sched import Insn, Listing, earliest_first  # noqa: E402


# ------------------------------------------------------------------ key expansion (both kinds)
def keyexp_body(layout, offset_regs, reserved=()):
    """Round keys from the 16 key bytes (a1) into rk (a0). layout: one entry per rk word, a list
    of lanes (bit position, kind, index, negate) and a table-base offset (kT, c); kind "sk" is
    SK_index = MK + delta (mod 256), "wk" WK_index; negate stores 256 - value (decryption's
    subtractions). offset_regs: {(kT, c): register} preloaded with kT*T + c."""
    mk_of_sk = {}
    for i in range(8):
        for j in range(8):
            mk_of_sk[16 * i + j] = (j - i) % 8
            mk_of_sk[16 * i + j + 8] = (j - i) % 8 + 8
    mk_of_wk = [12, 13, 14, 15, 0, 1, 2, 3]
    ins = []
    tmp = [t for t in ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "a2", "a3", "a4", "a5", "a6", "a7"]
           if t not in offset_regs.values() and t not in reserved]
    n = 0

    def fresh():
        nonlocal n
        n += 1
        return tmp[n % len(tmp)]
    for w, (lanes, (kt, c)) in enumerate(layout):
        acc = None
        for pos, kind, idx, neg in lanes:
            t = fresh()
            mk = mk_of_sk[idx] if kind == "sk" else mk_of_wk[idx]
            ins.append(Insn(f"lbu  {t}, {mk}(a1)", [t], ["a1"], f"MK{mk}"))
            if kind == "sk":
                ins.append(Insn(f"addi {t}, {t}, {ref.DELTA[idx]}", [t], [t], f"SK{idx} = MK{mk} + delta{idx}"))
                ins.append(Insn(f"andi {t}, {t}, 0xff", [t], [t]))
            if neg:
                ins.append(Insn(f"sub  {t}, zero, {t}", [t], [t]))
                ins.append(Insn(f"addi {t}, {t}, 256", [t], [t], "256 - key byte"))
            if pos:
                ins.append(Insn(f"slli {t}, {t}, {pos}", [t], [t]))
            if acc is None:
                acc = t
            else:
                ins.append(Insn(f"or   {acc}, {acc}, {t}", [acc], [acc, t]))
        if kt:
            r = offset_regs[(kt, c)]
            ins.append(Insn(f"add  {acc}, {acc}, {r}", [acc], [acc, r], "+ table base offset"))
        elif c:
            ins.append(Insn(f"addi {acc}, {acc}, {c}", [acc], [acc], "+ table base offset"))
        ins.append(Insn(f"sw   {acc}, {4 * w}(a0)", ["mem_rk%d" % w], [acc, "a0"]))
    for x in ins:
        x.role = "keyexp"
    return ins


# ------------------------------------------------------------------ rv32i: F0/F1 tables
WIN = 1024                       # bytes per table; every kept value v stays below WIN
T_REL = {"B1": 0, "B0": 1024}    # F1 at T, F0 at T + 1024 (T is 2048-aligned)
RK_WK_IN, RK_WK_OUT, RK_SK = 0, 4, 8


def base_val(b):
    """a base as (kT, c): None = no base, else T + T_REL[b]"""
    return (0, 0) if b is None else (1, T_REL[b])


def xor_base(a, b):
    (ka, ca), (kb, cb) = a, b
    return (ka ^ kb, ca ^ cb)        # valid: T is 2048-aligned and every c < 2048


def sub_base(a, b):
    return (a[0] - b[0], a[1] - b[1])


class TableKernel:
    """Encrypt or decrypt of the table kernel; fills self.layout (the rk words it reads)."""
    STATE = ["a3", "a4", "a5", "a6", "a7", "t0", "t1", "t2"]
    TMP = ["t4", "t5", "t6", "a1"]
    M = "t3"                                   # T | 0x4ff: masks v to its low byte, keeps the base

    def __init__(self, dec):
        self.dec, self.e = dec, Listing("io")
        self.layout = [None] * (RK_SK + 128)
        self.base, self.bound = {}, {}
        self.nt = 0

    def temps(self):
        self.nt += 1
        k = 2 * (self.nt % 2)
        return self.TMP[k], self.TMP[k + 1]

    def mask(self, r):
        self.e.role = "mask"
        self.e(f"and  {r}, {r}, {self.M}", [r], [r, self.M], "back to the low byte (base kept)")
        self.bound[r] = 255

    def branch(self, dst, idx, table, op, sk, target):
        """dst = dst op (F_table(idx) op' SK): op 'xor' (F + SK), 'add' (F ^ SK) or 'sub'
        (F ^ SK, decryption); the result must be based on `target` next."""
        assert self.base[idx] == table, (idx, self.base[idx], table)
        b = self.bound[dst]
        if op in ("add", "sub") and b + 256 >= WIN:
            self.mask(dst)
            b = 255
        ob, tb = base_val(self.base[dst]), base_val(target)
        if target is None:
            off, tb = (0, 0), None
        if op == "xor":
            if target is not None:
                off = xor_base(ob, tb)
            nb = max(b, 510).bit_length()
            nb = (1 << nb) - 1
        elif op == "add":
            if target is not None:
                off = sub_base(tb, ob)
            nb = b + 255
        else:
            if target is not None:
                off = sub_base(sub_base(ob, tb), (0, 256))
            nb = b + 256
        self.layout[RK_SK + sk] = ([(0, "sk", sk, False)], off)
        f, k = self.temps()
        fname = "F0" if table == "B0" else "F1"
        self.e.role = "F lookup"
        self.e(f"lbu  {f}, 0({idx})", [f], [idx], f"{fname}")
        self.e.role = "round key load"
        self.e(f"lw   {k}, {4 * (RK_SK + sk)}(a2)", [k], ["a2"], f"SK{sk}")
        self.e.role = "key add"
        self.e(f"{'add ' if op == 'xor' else 'xor '} {f}, {f}, {k}", [f], [f, k])
        self.e.role = "state update"
        self.e(f"{op:<4} {dst}, {dst}, {f}", [dst], [dst, f])
        self.base[dst], self.bound[dst] = target, nb

    def body(self):
        S = self.STATE
        for i in range(8):
            self.e(f"lbu  {S[i]}, {i}(a1)", [S[i]], ["a1"], f"{'C' if self.dec else 'P'}{i}")
        # a pseudo-instruction (dropped after scheduling): the stores to out come after these loads
        self.e.fence(["mem"], [S[i] for i in range(8)], "loads of in done")
        self.e("la   t3, hight_f1", ["t3"])
        self.e("ori  t3, t3, 0x4ff", ["t3"], ["t3"], "M = T | 0x4ff")
        for r in S:
            self.base[r], self.bound[r] = None, 255
        x = list(S)                               # x[i] = register of state byte i
        self.e.role = "whitening"
        if not self.dec:
            # X0 = P0 + WK0, X2 = P2 ^ WK1, X4 = P4 + WK2, X6 = P6 ^ WK3; bases for F1 (X0, X4), F0 (X2, X6)
            for k, (p, op, tgt) in enumerate([(0, "add", "B1"), (2, "xor", "B0"), (4, "add", "B1"), (6, "xor", "B0")]):
                self.layout[RK_WK_IN + k] = ([(0, "wk", k, False)], base_val(tgt))
                self.e(f"lw   t4, {4 * (RK_WK_IN + k)}(a2)", ["t4"], ["a2"], f"WK{k} + base")
                self.e(f"{op:<4} {x[p]}, {x[p]}, t4", [x[p]], [x[p], "t4"])
                self.base[x[p]], self.bound[x[p]] = tgt, 510 if op == "add" else 255
            for r in range(32):
                last = r == 31
                tg = (lambda t: None if last else t)
                # Y0 = X7 ^ (F0(X6) + SK4r+3) ... in the order their inputs became ready
                br = {0: (7, 6, "B0", "xor", 4 * r + 3, tg("B1")), 2: (1, 0, "B1", "add", 4 * r, tg("B0")),
                      4: (3, 2, "B0", "xor", 4 * r + 1, tg("B1")), 6: (5, 4, "B1", "add", 4 * r + 2, tg("B0"))}
                for y in ([0, 2, 4, 6] if r % 2 == 0 else [2, 4, 6, 0]):
                    d, i, tab, op, sk, tgt = br[y]
                    self.branch(x[d], x[i], tab, op, sk, tgt)
                if not last:                      # Y_{i+1} = X_i (odd), Y0 = new X7, Y2 = new X1, ...
                    x = [x[7]] + x[:7]
            self.e.role = "whitening"
            for k, (p, op) in enumerate([(0, "add"), (2, "xor"), (4, "add"), (6, "xor")]):
                self.layout[RK_WK_OUT + k] = ([(0, "wk", 4 + k, False)], (0, 0))
                self.e(f"lw   t4, {4 * (RK_WK_OUT + k)}(a2)", ["t4"], ["a2"], f"WK{4 + k}")
                self.e(f"{op:<4} {x[p]}, {x[p]}, t4", [x[p]], [x[p], "t4"])
        else:
            # Y0 = C0 - WK4 (as C0 + (256 - WK4)), Y2 = C2 ^ WK5, ...; then the last round's missing rotation
            for k, (p, op, tgt) in enumerate([(0, "add", "B1"), (2, "xor", "B0"), (4, "add", "B1"), (6, "xor", "B0")]):
                self.layout[RK_WK_IN + k] = ([(0, "wk", 4 + k, op == "add")], base_val(tgt))
                self.e(f"lw   t4, {4 * (RK_WK_IN + k)}(a2)", ["t4"], ["a2"], f"-WK{4 + k} + base" if op == "add" else f"WK{4 + k} + base")
                self.e(f"{op:<4} {x[p]}, {x[p]}, t4", [x[p]], [x[p], "t4"])
                self.base[x[p]], self.bound[x[p]] = tgt, 511 if op == "add" else 255
            y = [x[(i - 1) % 8] for i in range(8)]   # redo the last round's missing rotation
            for r in range(31, -1, -1):
                first = r == 0
                tg = (lambda t: None if first else t)
                # X7 = Y0 ^ (F0(Y7) + SK), X1 = Y2 - (F1(Y1) ^ SK), X3 = Y4 ^ ..., X5 = Y6 - ...
                br = {7: (0, 7, "B0", "xor", 4 * r + 3, tg("B0")), 1: (2, 1, "B1", "sub", 4 * r, tg("B1")),
                      3: (4, 3, "B0", "xor", 4 * r + 1, tg("B0")), 5: (6, 5, "B1", "sub", 4 * r + 2, tg("B1"))}
                for xi in ([7, 1, 3, 5] if r % 2 else [1, 3, 5, 7]):
                    d, i, tab, op, sk, tgt = br[xi]
                    self.branch(y[d], y[i], tab, op, sk, tgt)
                # X_{i} = Y_{i+1}: new X0 = Y1, ..., X7 = (new value in Y0's register)
                y = y[1:] + y[:1]
            x = y
            self.e.role = "whitening"
            for k, (p, op) in enumerate([(0, "sub"), (2, "xor"), (4, "sub"), (6, "xor")]):
                self.layout[RK_WK_OUT + k] = ([(0, "wk", k, False)], (0, 0))
                self.e(f"lw   t4, {4 * (RK_WK_OUT + k)}(a2)", ["t4"], ["a2"], f"WK{k}")
                self.e(f"{op:<4} {x[p]}, {x[p]}, t4", [x[p]], [x[p], "t4"])
        self.e.role = "io"
        for i in range(8):
            self.e(f"sb   {x[i]}, {i}(a0)", [], [x[i], "a0", "mem"], f"{'P' if self.dec else 'C'}{i}")
        return earliest_first(self.e.insns)


def function(a, name, body, comment):
    """a function of straight-line scheduled code (body: Insns) and its ret"""
    a.raw("")
    a.comment(comment)
    a.begin_function(name, align=None)
    a.insns(body)
    a("ret")
    a.end_function()


def start(what, isa):
    a = Asm({"zbkb"} if "zbkb" in isa else ())
    a.raw(header(f"HIGHT (ISO/IEC 18033-3), {what}.", "../gen.py",
                 [f"ISA: {isa}. Straight-line code; byte loads/stores: any alignment, out may equal in.",
                  "Comments: the [operation] of each instruction (optable.py counts cycles by them)."]).rstrip())
    return a


def gen_table():
    enc, dec = TableKernel(False), TableKernel(True)
    enc_body, dec_body = enc.body(), dec.body()
    offs = sorted({off for _, off in enc.layout + dec.layout if off[0]})
    assert len(offs) <= 4, offs
    regs = dict(zip(offs, ["a5", "a6", "a7", "t6"]))

    def kx(layout):
        pre = [Insn("la   t5, hight_f1", ["t5"], [], "T")]
        for (kt, c), r in regs.items():
            if any(off == (kt, c) for _, off in layout):
                if kt == 1:
                    pre.append(Insn(f"addi {r}, t5, {c}", [r], ["t5"], f"T + {c}"))
                else:
                    pre.append(Insn(f"sub  {r}, zero, t5", [r], ["t5"]))
                    pre.append(Insn(f"addi {r}, {r}, {c}", [r], [r], f"-T + {c}"))
        for x in pre:
            x.role = "keyexp"
        return earliest_first(pre + keyexp_body(layout, regs, ["t5"]))
    a = start("RV32I, F0/F1 tables (2 KiB in .data)", "rv32i")
    a.section(".data.hight_tables")
    a.directive(".p2align 11")
    a.comment("F1(x & 0xff) for x < 1024 at T, F0(x & 0xff) at T + 1024 (T 2048-aligned)")
    a.label("hight_f1")
    a.bytes([ref.f1(i & 0xFF) for i in range(WIN)])
    a.label("hight_f0")
    a.bytes([ref.f0(i & 0xFF) for i in range(WIN)])
    a.section(".text")
    a.directive(".p2align 2")
    function(a, "hight_keyexp_enc", kx(enc.layout),
             "rk[0..3] = WK0..3 + table bases, rk[4..7] = WK4..7, rk[8+i] = SK_i + base offsets")
    function(a, "hight_keyexp_dec", kx(dec.layout),
             "rk[0..3] = 256 - WK4 / WK5 ... + table bases, rk[4..7] = WK0..3, rk[8+i] = SK_i + offsets")
    function(a, "hight_encrypt", enc_body, "a0 = out, a1 = in, a2 = rk (of hight_keyexp_enc)")
    function(a, "hight_decrypt", dec_body, "a0 = out, a1 = in, a2 = rk (of hight_keyexp_dec)")
    return a.text()


# ------------------------------------------------------------------ rv32i-ct / zbkb: 16-bit lanes
RK_CT_WIN, RK_CT_WOUT, RK_CT_ROUND = 0, 2, 4      # rk words: whitening in (2), out (2), 2 per round


class CtKernel:
    """Encrypt or decrypt of the lane kernel; self.layout = the rk words it reads."""
    WORDS = ["a3", "a4", "a5", "a6"]
    TMP = ["t0", "t1", "t2", "t3", "t4", "t5", "a1"]
    M, H = "a7", "t6"                            # 0x00ff00ff; 0x01000100 (decrypt: no borrow across lanes)

    def __init__(self, dec, zbkb):
        self.dec, self.zbkb, self.e, self.nt = dec, zbkb, Listing("io"), 0
        self.layout = [None] * (RK_CT_ROUND + 64)
        self.lab = {}                            # register -> [label of lane 0, label of lane 1]

    def tmp(self):
        self.nt += 1
        return self.TMP[self.nt % len(self.TMP)]

    def word(self, labels):
        return next(r for r, l in self.lab.items() if set(l) == set(labels))

    def swap(self, r):
        self.e.role = "lane swap"
        if self.zbkb:
            self.e(f"rori {r}, {r}, 16", [r], [r], "swap the lanes")
        else:
            t = self.tmp()
            self.e(f"srli {t}, {r}, 16", [t], [r], "swap the lanes")
            self.e(f"slli {r}, {r}, 16", [r], [r])
            self.e(f"or   {r}, {r}, {t}", [r], [r, t])
        self.lab[r] = self.lab[r][::-1]

    def align(self, src, dst):
        """dst's lane l must hold label (src's lane l) + 1"""
        if [(l + 1) % 8 for l in self.lab[src]] != self.lab[dst]:
            self.swap(dst)
        assert [(l + 1) % 8 for l in self.lab[src]] == self.lab[dst]

    def f(self, which, w):
        """F0 or F1 of both lanes of w (clean bytes) into a temp, masked"""
        d, t = self.tmp(), self.tmp()
        e = self.e
        self.e.role = "F0/F1 (8-bit rotations)"
        e(f"slli {d}, {w}, 8", [d], [w], f"{which}: d = x | x << 8 per lane")
        e(f"or   {d}, {d}, {w}", [d], [d, w])
        e(f"srli {t}, {d}, 1", [t], [d])
        if which == "F0":                        # (d>>1) ^ ((d ^ d>>1) >> 6)
            e(f"xor  {d}, {d}, {t}", [d], [d, t])
            e(f"srli {d}, {d}, 6", [d], [d])
            e(f"xor  {t}, {t}, {d}", [t], [t, d])
            e(f"and  {t}, {t}, {self.M}", [t], [t, self.M])
            return t
        e(f"xor  {t}, {d}, {t}", [t], [d, t])    # (d>>2) ^ ((d ^ d>>1) >> 4)
        e(f"srli {t}, {t}, 4", [t], [t])
        e(f"srli {d}, {d}, 2", [d], [d])
        e(f"xor  {d}, {d}, {t}", [d], [d, t])
        e(f"and  {d}, {d}, {self.M}", [d], [d, self.M])
        return d

    def key(self, w, lanes, note):
        self.layout[w] = (lanes, (0, 0))
        k = self.tmp()
        self.e.role = "round key load" if w >= RK_CT_ROUND else "whitening"
        self.e(f"lw   {k}, {4 * w}(a2)", [k], ["a2"], note)
        return k

    def round_key(self, w, r, x, sk):
        """Load the round-key word w: SK lanes of round r for the bytes of word x (sk: label -> SK index)."""
        lanes = [(16 * i, "sk", sk[l], False) for i, l in enumerate(self.lab[x])]
        return self.key(w, lanes, f"round {r}: SK{sk[self.lab[x][0]]} | SK{sk[self.lab[x][1]]} << 16")

    def whiten(self, w, r, wk_of_label, op, neg=False):
        lanes = [(16 * i, "wk", wk_of_label[l], neg) for i, l in enumerate(self.lab[r])]
        k = self.key(w, lanes, "whitening " + "/".join(f"{'-' if neg else ''}WK{wk_of_label[l]}" for l in self.lab[r]))
        self.e.role = "whitening"
        self.e(f"{op:<4} {r}, {r}, {k}", [r], [r, k])

    def body(self):
        e, W = self.e, self.WORDS
        byte_regs = W + ["t0", "t1", "t2", "t3"]
        for i in range(8):
            e(f"lbu  {byte_regs[i]}, {i}(a1)", [byte_regs[i]], ["a1"], f"{'C' if self.dec else 'P'}{i}")
        self.e.fence(["mem"], byte_regs, "loads of in done")
        for i in range(4):                       # W[i] = byte i | byte i+4 << 16
            lo, hi = byte_regs[i], byte_regs[i + 4]
            if self.zbkb:
                e(f"pack {lo}, {lo}, {hi}", [lo], [lo, hi], f"X{i} | X{i + 4} << 16")
            else:
                e(f"slli {hi}, {hi}, 16", [hi], [hi])
                e(f"or   {lo}, {lo}, {hi}", [lo], [lo, hi], f"X{i} | X{i + 4} << 16")
            self.lab[lo] = [i, i + 4]
        e(f"li   {self.M}, 0x00ff00ff", [self.M])
        if self.dec:
            e(f"li   {self.H}, 0x01000100", [self.H])
        ra, rb = self.word([0, 4]), self.word([2, 6])
        if not self.dec:
            self.whiten(RK_CT_WIN, ra, {0: 0, 4: 2}, "add")
            self.whiten(RK_CT_WIN + 1, rb, {2: 1, 6: 3}, "xor")
            self.e.role = "whitening"
            e(f"and  {ra}, {ra}, {self.M}", [ra], [ra, self.M])
            for r in range(32):
                a, c, b, d = (self.word(x) for x in ([0, 4], [1, 5], [2, 6], [3, 7]))
                self.align(a, c)
                self.align(b, d)
                sk = {0: 4 * r, 4: 4 * r + 2, 2: 4 * r + 1, 6: 4 * r + 3}
                fa = self.f("F1", a)
                ka = self.round_key(RK_CT_ROUND + 2 * r, r, a, sk)
                self.e.role = "key add"
                e(f"xor  {fa}, {fa}, {ka}", [fa], [fa, ka])
                self.e.role = "state update"
                e(f"add  {c}, {c}, {fa}", [c], [c, fa], "X1 + (F1(X0) ^ SK)")
                fb = self.f("F0", b)
                kb = self.round_key(RK_CT_ROUND + 2 * r + 1, r, b, sk)
                self.e.role = "key add"
                e(f"add  {fb}, {fb}, {kb}", [fb], [fb, kb])
                self.e.role = "state update"
                e(f"xor  {d}, {d}, {fb}", [d], [d, fb], "X3 ^ (F0(X2) + SK)")
                if r < 31:
                    self.e.role = "mask"
                    for x in (c, d):
                        e(f"and  {x}, {x}, {self.M}", [x], [x, self.M])
                    for x in self.lab:
                        self.lab[x] = [(l + 1) % 8 for l in self.lab[x]]
            self.whiten(RK_CT_WOUT, self.word([0, 4]), {0: 4, 4: 6}, "add")
            self.whiten(RK_CT_WOUT + 1, self.word([2, 6]), {2: 5, 6: 7}, "xor")
        else:
            self.whiten(RK_CT_WIN, ra, {0: 4, 4: 6}, "add", neg=True)
            self.whiten(RK_CT_WIN + 1, rb, {2: 5, 6: 7}, "xor")
            self.e.role = "whitening"
            e(f"and  {ra}, {ra}, {self.M}", [ra], [ra, self.M])
            for x in self.lab:                   # redo the rotation the last round left out
                self.lab[x] = [(l + 1) % 8 for l in self.lab[x]]
            for r in range(31, -1, -1):
                a, c, b, d = (self.word(x) for x in ([1, 5], [2, 6], [3, 7], [0, 4]))
                self.align(a, c)
                self.align(b, d)
                sk = {1: 4 * r, 5: 4 * r + 2, 3: 4 * r + 1, 7: 4 * r + 3}
                fa = self.f("F1", a)
                ka = self.round_key(RK_CT_ROUND + 2 * r, r, a, sk)
                self.e.role = "key add"
                e(f"xor  {fa}, {fa}, {ka}", [fa], [fa, ka])
                self.e.role = "state update"
                e(f"or   {c}, {c}, {self.H}", [c], [c, self.H], "+ 256 per lane: no borrow")
                e(f"sub  {c}, {c}, {fa}", [c], [c, fa], "Y2 - (F1(X0) ^ SK)")
                fb = self.f("F0", b)
                kb = self.round_key(RK_CT_ROUND + 2 * r + 1, r, b, sk)
                self.e.role = "key add"
                e(f"add  {fb}, {fb}, {kb}", [fb], [fb, kb])
                self.e.role = "state update"
                e(f"xor  {d}, {d}, {fb}", [d], [d, fb], "Y0 ^ (F0(X6) + SK)")
                if r > 0:
                    self.e.role = "mask"
                    for x in (c, d):
                        e(f"and  {x}, {x}, {self.M}", [x], [x, self.M])
                for x in self.lab:
                    self.lab[x] = [(l - 1) % 8 for l in self.lab[x]]
            self.whiten(RK_CT_WOUT, self.word([0, 4]), {0: 0, 4: 2}, "add", neg=True)
            self.whiten(RK_CT_WOUT + 1, self.word([2, 6]), {2: 1, 6: 3}, "xor")
        self.e.role = "io"
        for r, (l0, l1) in self.lab.items():
            t = self.tmp()
            e(f"sb   {r}, {l0}(a0)", [], [r, "a0", "mem"], f"byte {l0}")
            e(f"srli {t}, {r}, 16", [t], [r])
            e(f"sb   {t}, {l1}(a0)", [], [t, "a0", "mem"], f"byte {l1}")
        return earliest_first(self.e.insns)


def gen_ct(zbkb):
    enc, dec = CtKernel(False, zbkb), CtKernel(True, zbkb)
    enc_body, dec_body = enc.body(), dec.body()
    a = start("no tables, two bytes per register" + (", Zbkb (rori, pack)" if zbkb else ""),
              "rv32i_zbkb" if zbkb else "rv32i")
    a.section(".text")
    a.directive(".p2align 2")
    function(a, "hight_keyexp_enc", earliest_first(keyexp_body(enc.layout, {})),
             "rk[0..1] = WK0..3 packed per lane, rk[2..3] = WK4..7, rk[4+2r], rk[5+2r] = round r's SK pairs")
    if dec.layout != enc.layout:
        function(a, "hight_keyexp_dec", earliest_first(keyexp_body(dec.layout, {})),
                 "rk[0..1] = 256 - WK4, WK5 ... packed per lane, rk[2..3] = 256 - WK0, WK1 ..., rk[4+2r..] as for encryption")
    function(a, "hight_encrypt", enc_body, "a0 = out, a1 = in, a2 = rk (of hight_keyexp_enc)")
    function(a, "hight_decrypt", dec_body, "a0 = out, a1 = in, a2 = rk (of hight_keyexp_dec)")
    return a.text(), dec.layout != enc.layout


if __name__ == "__main__":
    with open(os.path.join(HERE, "rv32i", "hight.S"), "w") as f:
        f.write(gen_table())
    for impl, zbkb in (("rv32i-ct", False), ("zbkb", True)):
        text, _ = gen_ct(zbkb)
        os.makedirs(os.path.join(HERE, impl), exist_ok=True)
        with open(os.path.join(HERE, impl, "hight.S"), "w") as f:
            f.write(text)
