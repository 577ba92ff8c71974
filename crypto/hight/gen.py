#!/usr/bin/env python3
"""Generator of the HIGHT kernels: rv32i/hight.S (F0/F1 tables), rv32i-ct/hight.S and
zbkb/hight.S (no tables: two bytes per register, F0/F1 by shifts).

Run: python3 gen.py            (rewrites the three .S files)
     python3 gen.py --stats    (static instruction counts per function)

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
import ref  # noqa: E402

LAT = {"lw": 2, "lbu": 3, "lb": 3, "lh": 3, "lhu": 3}      # E31 result latencies (others 1)


# ------------------------------------------------------------------ instruction list + scheduler
class Insn:
    def __init__(self, text, dst=(), src=(), comment=""):
        self.text, self.dst, self.src, self.comment = text, tuple(dst), tuple(src), comment
        self.op = text.split()[0]


def schedule(insns, window=24):
    """Greedy list scheduling for the E31 (one issue per cycle; a load's result is ready 2-3
    cycles later): at each step the earliest-ready instruction in a window, program order on
    ties. Register dependences (RAW with the producer's latency, WAR, WAW) are kept; the
    pseudo-register "mem" orders the loads of the input before the stores of the output."""
    preds = [[] for _ in insns]
    last_def, readers = {}, {}
    for i, x in enumerate(insns):
        for r in x.src:
            if r in last_def:
                j = last_def[r]
                preds[i].append((j, LAT.get(insns[j].op, 1)))
        for r in x.dst:
            if r in last_def:
                preds[i].append((last_def[r], 1))
            for u in readers.get(r, []):
                if u != i:
                    preds[i].append((u, 1))
        for r in x.src:
            readers.setdefault(r, []).append(i)
        for r in x.dst:
            last_def[r], readers[r] = i, []
    issued, order, cycle, todo = {}, [], 0, list(range(len(insns)))
    while todo:
        best, best_t = None, None
        for i in todo[:window]:
            if all(p in issued for p, _ in preds[i]):
                t = max([issued[p] + d for p, d in preds[i]] + [cycle])
                if best is None or t < best_t:
                    best, best_t = i, t
        issued[best] = best_t
        cycle = best_t + 1
        order.append(insns[best])
        todo.remove(best)
    return order


def render(insns):
    out = []
    for x in insns:
        line = "    " + x.text
        if x.comment:
            line = line.ljust(34) + "# " + x.comment
        out.append(line)
    return out


def byte_table(name, vals):
    lines = [f"{name}:"]
    for i in range(0, len(vals), 16):
        lines.append("    .byte " + ", ".join("0x%02x" % v for v in vals[i:i + 16]))
    return lines


def function(name, body, comment):
    return ["", f"# {comment}", f"    .globl {name}", f"    .type {name}, @function", f"{name}:"] + \
        body + ["    ret", f"    .size {name}, .-{name}"]


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
    ins, tmp = [], ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "a2", "a3", "a4", "a5", "a6", "a7"]
    tmp = [t for t in tmp if t not in offset_regs.values() and t not in reserved]
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
        self.dec, self.ins = dec, []
        self.layout = [None] * (RK_SK + 128)
        self.base, self.bound = {}, {}
        self.nt = 0

    def e(self, text, dst=(), src=(), comment=""):
        self.ins.append(Insn(text, dst, src, comment))

    def temps(self):
        self.nt += 1
        k = 2 * (self.nt % 2)
        return self.TMP[k], self.TMP[k + 1]

    def mask(self, r):
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
        self.e(f"lbu  {f}, 0({idx})", [f], [idx], f"{fname}")
        self.e(f"lw   {k}, {4 * (RK_SK + sk)}(a2)", [k], ["a2"], f"SK{sk}")
        self.e(f"{'add ' if op == 'xor' else 'xor '} {f}, {f}, {k}", [f], [f, k])
        self.e(f"{op:<4} {dst}, {dst}, {f}", [dst], [dst, f])
        self.base[dst], self.bound[dst] = target, nb

    def body(self):
        S = self.STATE
        for i in range(8):
            self.e(f"lbu  {S[i]}, {i}(a1)", [S[i]], ["a1"], f"{'C' if self.dec else 'P'}{i}")
        # a pseudo-instruction (dropped after scheduling): the stores to out come after these loads
        self.ins.append(Insn("# loads of in done", ["mem"], [S[i] for i in range(8)]))
        self.e("la   t3, hight_f1", ["t3"])
        self.e("ori  t3, t3, 0x4ff", ["t3"], ["t3"], "M = T | 0x4ff")
        for r in S:
            self.base[r], self.bound[r] = None, 255
        x = list(S)                               # x[i] = register of state byte i
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
            for k, (p, op) in enumerate([(0, "add"), (2, "xor"), (4, "add"), (6, "xor")]):
                self.layout[RK_WK_OUT + k] = ([(0, "wk", 4 + k, False)], (0, 0))
                self.e(f"lw   t4, {4 * (RK_WK_OUT + k)}(a2)", ["t4"], ["a2"], f"WK{4 + k}")
                self.e(f"{op:<4} {x[p]}, {x[p]}, t4", [x[p]], [x[p], "t4"])
        else:
            # Y0 = C0 - WK4 (as C0 + (256 - WK4)), Y2 = C2 ^ WK5, ...; then the last round's missing rotation
            for k, (p, op, tgt) in enumerate([(0, "add", "B1"), (2, "xor", "B0"), (4, "add", "B1"), (6, "xor", "B0")]):
                self.layout[RK_WK_IN + k] = ([(0, "wk", 4 + k, op == "add")], sub_base(base_val(tgt), (0, 0)))
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
            for k, (p, op) in enumerate([(0, "sub"), (2, "xor"), (4, "sub"), (6, "xor")]):
                self.layout[RK_WK_OUT + k] = ([(0, "wk", k, False)], (0, 0))
                self.e(f"lw   t4, {4 * (RK_WK_OUT + k)}(a2)", ["t4"], ["a2"], f"WK{k}")
                self.e(f"{op:<4} {x[p]}, {x[p]}, t4", [x[p]], [x[p], "t4"])
        for i in range(8):
            self.e(f"sb   {x[i]}, {i}(a0)", [], [x[i], "a0", "mem"], f"{'P' if self.dec else 'C'}{i}")
        return [l for l in render(schedule(self.ins)) if not l.lstrip().startswith("#")]


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
        return render(schedule(pre + keyexp_body(layout, regs, ["t5"])))
    lines = header("RV32I, F0/F1 tables (2 KiB in .data)", "rv32i")
    lines += ["    .section .data.hight_tables, \"aw\"", "    .p2align 11",
              "# F1(x & 0xff) for x < 1024 at T, F0(x & 0xff) at T + 1024 (T 2048-aligned)",
              "    .globl hight_f1"]
    lines += byte_table("hight_f1", [ref.f1(i & 0xFF) for i in range(WIN)])
    lines += byte_table("hight_f0", [ref.f0(i & 0xFF) for i in range(WIN)])
    lines += ["    .text", "    .p2align 2"]
    lines += function("hight_keyexp_enc", kx(enc.layout),
                      "rk[0..3] = WK0..3 + table bases, rk[4..7] = WK4..7, rk[8+i] = SK_i + base offsets")
    lines += function("hight_keyexp_dec", kx(dec.layout),
                      "rk[0..3] = 256 - WK4 / WK5 ... + table bases, rk[4..7] = WK0..3, rk[8+i] = SK_i + offsets")
    lines += function("hight_encrypt", enc_body, "a0 = out, a1 = in, a2 = rk (of hight_keyexp_enc)")
    lines += function("hight_decrypt", dec_body, "a0 = out, a1 = in, a2 = rk (of hight_keyexp_dec)")
    return "\n".join(lines) + "\n"


def header(what, isa):
    return [f"/* HIGHT (ISO/IEC 18033-3), {what}. Generated by ../gen.py: edit the generator. */",
            f"/* ISA: {isa}. Straight-line code; byte loads/stores: any alignment, out may equal in. */"]


if __name__ == "__main__":
    with open(os.path.join(HERE, "rv32i", "hight.S"), "w") as f:
        f.write(gen_table())
