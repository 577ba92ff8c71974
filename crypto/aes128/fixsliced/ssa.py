"""Straight-line SSA code over virtual registers for the fixsliced AES generator: build it
(`Block`), run it in Python (`Block.run`, the generator checks every function against FIPS 197
before it writes anything), allocate registers (`allocate`: furthest-next-use eviction, spills
to stack slots, loads from read-only memory and constants re-materialised instead of spilled),
check the allocated code by running it too (`run_code`), and list-schedule it for the E31
(`schedule`, common/sched.py)."""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from common.alu import alu  # noqa: E402
from common.sched import Insn, critical_path  # noqa: E402

M32 = 0xFFFFFFFF


class Block:
    """ops: dicts {op, dst, srcs, imm, mem}; mem = (base, offset) where base is a register name
    (a pointer the block does not write) or a value; args: values that are in a register at
    entry (the pointer arguments)."""

    def __init__(self, zbkb=False):
        self.ops, self.n, self.zbkb = [], 0, zbkb
        self.args = {}              # value -> register it is in at entry
        self.exits = []             # (value, register) it must be in at the end
        self.readonly = set()       # base registers whose memory the block only reads

    def _op(self, op, srcs=(), imm=None, mem=None, dst=True):
        d = None
        if dst:
            self.n += 1
            d = self.n
        self.ops.append({"op": op, "dst": d, "srcs": list(srcs), "imm": imm, "mem": mem})
        return d

    def arg(self, reg):
        self.n += 1
        self.args[self.n] = reg
        return self.n

    def exit(self, v, reg):
        self.exits.append((v, reg))

    def lw(self, base, off):
        return self._op("lw", [base] if isinstance(base, int) else [], mem=(base, off))

    def sw(self, v, base, off):
        self._op("sw", [v] + ([base] if isinstance(base, int) else []), mem=(base, off), dst=False)

    def li(self, v):
        return self._op("li", imm=v & M32)

    def xor(self, a, b): return self._op("xor", [a, b])
    def and_(self, a, b): return self._op("and", [a, b])
    def or_(self, a, b): return self._op("or", [a, b])
    def srli(self, a, n): return self._op("srli", [a], imm=n)
    def slli(self, a, n): return self._op("slli", [a], imm=n)
    def xori(self, a, n): return self._op("xori", [a], imm=n)
    def andi(self, a, n): return self._op("andi", [a], imm=n)

    def ror(self, a, n):
        """a rotated right by n: rori with Zbkb, else srli/slli/or"""
        n %= 32
        if n == 0:
            return a
        if self.zbkb:
            return self._op("rori", [a], imm=n)
        return self.or_(self.srli(a, n), self.slli(a, 32 - n))

    def swapmove(self, a, b, n, m):
        """(a', b'): the bits of b under mask m exchanged with the bits of a under m << n"""
        t = self.and_(self.xor(self.srli(a, n), b), m)
        return self.xor(a, self.slli(t, n)), self.xor(b, t)

    def count(self):
        return len(self.ops) + sum(1 for o in self.ops if o["op"] == "li" and _li_len(o["imm"]) == 2)

    # -------------------------------------------------------------- reference run
    def run(self, regs, mem):
        """execute in Python: regs {register: value} for the pointers, mem {address: word}"""
        val = {v: regs[r] for v, r in self.args.items()}

        def addr(m):
            base, off = m
            return (val[base] if isinstance(base, int) else regs[base]) + off
        for o in self.ops:
            s = [val[x] for x in o["srcs"]]
            op, imm = o["op"], o["imm"]
            if op == "lw":
                r = mem[addr(o["mem"])]
            elif op == "sw":
                mem[addr(o["mem"])] = s[0]
                continue
            else:
                r = alu(op, s, imm)
            val[o["dst"]] = r
        out = dict(regs)
        for v, r in self.exits:
            out[r] = val[v]
        return out


def _li_len(v):
    sv = v - (1 << 32) if v >> 31 else v
    return 1 if -2048 <= sv < 2048 or not v & 0xFFF else 2


# ------------------------------------------------------------------ order
def reorder(B, rng=None):
    """a register-pressure-aware topological order of B's ops: repeatedly the ready op that
    frees the most values net of the one it makes (ties: the one whose operands were made
    last, then a random or the original order). Memory ops keep their order per location."""
    import random as _r
    ops = B.ops
    n = len(ops)
    prod, preds, seen = {}, [set() for _ in range(n)], {}
    for i, o in enumerate(ops):
        for s in o["srcs"]:
            if s in prod:
                preds[i].add(prod[s])
        if o["mem"] is not None:
            key = o["mem"]
            for j in seen.get(key, []):
                if o["op"] == "sw" or ops[j]["op"] == "sw":
                    preds[i].add(j)
            seen.setdefault(key, []).append(i)
        if o["dst"] is not None:
            prod[o["dst"]] = i
    succs = [[] for _ in range(n)]
    for i in range(n):
        for j in preds[i]:
            succs[j].append(i)
    left = {}
    for o in ops:
        for s in o["srcs"]:
            left[s] = left.get(s, 0) + 1
    for v, _ in B.exits:
        left[v] = left.get(v, 0) + 1
    npred = [len(p) for p in preds]
    ready = [i for i in range(n) if npred[i] == 0]
    tie = [rng.random() for _ in range(n)] if rng else [-i for i in range(n)]
    born, order = {}, []
    while ready:
        def score(i):
            o = ops[i]
            freed = sum(1 for s in set(o["srcs"]) if left[s] == o["srcs"].count(s))
            recent = max([born.get(s, -1) for s in o["srcs"]] + [-1])
            return (freed - (o["dst"] is not None), recent, tie[i])
        i = max(ready, key=score)
        ready.remove(i)
        if ops[i]["dst"] is not None:
            born[ops[i]["dst"]] = len(order)
        order.append(ops[i])
        for s in ops[i]["srcs"]:
            left[s] -= 1
        for k in succs[i]:
            npred[k] -= 1
            if npred[k] == 0:
                ready.append(k)
    assert len(order) == n
    B.ops = order


# ------------------------------------------------------------------ register allocation
def allocate(B, regs, spill_base, spill_slots, slack=0.0):
    """B's ops with registers: a list of (op, dst, srcs, imm, mem) with register names; the
    spill slots used (count). Eviction: the value whose next use is furthest; a constant or a
    load from read-only memory (a reserved pointer register in B.readonly) is re-made, not
    spilled."""
    ops = B.ops
    uses = {}
    for i, o in enumerate(ops):
        for s in o["srcs"]:
            uses.setdefault(s, []).append(i)
    for v, _ in B.exits:
        uses.setdefault(v, []).append(len(ops))
    ptr = {v: 0 for v in uses}

    def next_use(v):
        u = uses.get(v, [])
        p = ptr.get(v, 0)
        return u[p] if p < len(u) else None
    assert set(B.args.values()) <= set(regs), "an argument in a register the block may not use"
    free = [r for r in regs if r not in B.args.values()]
    reg_of, val_in = {}, {}
    for v, r in B.args.items():
        if next_use(v) is None:
            free.append(r)
        else:
            reg_of[v], val_in[r] = r, v
    slot_of, free_slots, used_slots = {}, list(range(spill_slots)), set()
    remat = {}
    out = []

    def evict(locked):
        """the value used furthest ahead; with `slack`, a clean one (in a slot already, or
        re-made by one instruction) whose next use is almost as far"""
        cand = [(next_use(v), r, v) for r, v in val_in.items() if v not in locked]
        far = max(c[0] for c in cand)
        clean = [c for c in cand if (c[2] in slot_of or c[2] in remat) and c[0] >= far - slack * (far - i)]
        best = max(clean or cand, key=lambda c: (c[0], c[2] in remat))[1]
        v = val_in.pop(best)
        del reg_of[v]
        if v not in slot_of and v not in remat:
            slot_of[v] = free_slots.pop(0)
            used_slots.add(slot_of[v])
            out.append(("sw", None, [best], None, ("sp", spill_base + 4 * slot_of[v])))
        return best

    hint = dict(B.exits)
    targets = set(hint.values())

    def get_reg(locked, v=None):
        """a free register (for an exit value its own if free; others keep off the exit
        registers while they can), else one made free"""
        if free:
            if v in hint and hint[v] in free:
                free.remove(hint[v])
                return hint[v]
            for r in free:
                if r not in targets:
                    free.remove(r)
                    return r
            return free.pop(0)
        return evict(locked)

    for i, o in enumerate(ops):
        locked = set(o["srcs"])
        for s in o["srcs"]:
            if s not in reg_of:
                r = get_reg(locked)
                if s in remat:
                    kind, x = remat[s]
                    out.append(("li", r, [], x, None) if kind == "li" else ("lw", r, [], None, x))
                else:
                    out.append(("lw", r, [], None, ("sp", spill_base + 4 * slot_of[s])))
                reg_of[s], val_in[r] = r, s
        sregs = [reg_of[s] for s in o["srcs"]]
        mem = o["mem"]
        if mem is not None and isinstance(mem[0], int):
            mem = (reg_of[mem[0]], mem[1])
        for s in o["srcs"]:
            ptr[s] += 1
        for s in set(o["srcs"]):
            if next_use(s) is None:
                r = reg_of.pop(s)
                del val_in[r]
                free.insert(0, r)
                if s in slot_of:
                    free_slots.insert(0, slot_of.pop(s))
        d = None
        if o["dst"] is not None:
            if next_use(o["dst"]) is None:
                raise RuntimeError(f"dead value {o}")
            d = get_reg(set(), o["dst"])
            reg_of[o["dst"]], val_in[d] = d, o["dst"]
            if o["op"] == "li" and _li_len(o["imm"]) == 1:
                remat[o["dst"]] = ("li", o["imm"])
            elif o["op"] == "lw" and isinstance(o["mem"][0], str) and o["mem"][0] in B.readonly:
                remat[o["dst"]] = ("lw", o["mem"])
        if o["op"] == "sw":
            out.append(("sw", None, sregs[:1], None, mem))
        else:
            out.append((o["op"], d, sregs, o["imm"], mem))
    # the exit values into their registers (a parallel move; a cycle goes through a free register)
    B.natural = {v: reg_of.get(v) for v, _ in B.exits}      # where they are before the moves
    want = dict((r, v) for v, r in B.exits)
    moves = []                                   # (dst reg, src reg or None = reload, value)
    for r, v in want.items():
        if v in reg_of:
            if reg_of[v] != r:
                moves.append((r, reg_of[v], v))
        else:
            moves.append((r, None, v))
    spare = [r for r in regs if r not in val_in and r not in want]
    while moves:
        srcs = {m[1] for m in moves if m[1] is not None}
        ready = [m for m in moves if m[0] not in srcs]
        if ready:
            d, s, v = ready[0]
            moves.remove(ready[0])
            if s is None:
                kind, x = remat.get(v, (None, None))
                if kind == "li":
                    out.append(("li", d, [], x, None))
                elif kind == "lw":
                    out.append(("lw", d, [], None, x))
                else:
                    out.append(("lw", d, [], None, ("sp", spill_base + 4 * slot_of[v])))
            else:
                out.append(("or", d, [s, "zero"], None, None))
            continue
        d, s, v = moves[0]                      # a cycle: move its source aside
        t = spare[0]
        out.append(("or", t, [s, "zero"], None, None))
        moves = [(d2, t if s2 == s else s2, v2) for d2, s2, v2 in moves]
    return out, len(used_slots) and max(used_slots) + 1


def run_code(code, regs, mem):
    """execute allocated code (register names) in Python"""
    regs = dict(regs)
    regs["zero"] = 0
    for op, d, s, imm, m in code:
        if op == "lw":
            regs[d] = mem[regs[m[0]] + m[1]]
        elif op == "sw":
            mem[regs[m[0]] + m[1]] = regs[s[0]]
        else:
            regs[d] = alu(op, [regs[x] for x in s], imm)
    return regs


# ------------------------------------------------------------------ scheduling
def insn_text(op, d, srcs, imm, mem):
    if op == "lw":
        return f"lw   {d}, {mem[1]}({mem[0]})"
    if op == "sw":
        return f"sw   {srcs[0]}, {mem[1]}({mem[0]})"
    if op == "li":
        v = imm if imm < 0x80000000 else imm - (1 << 32)
        return f"li   {d}, {v}"
    if op == "or" and srcs[1] == "zero":
        return f"mv   {d}, {srcs[0]}"
    if imm is not None:
        return f"{op:4} {d}, {srcs[0]}, {imm}"
    return f"{op:4} {d}, {srcs[0]}, {srcs[1]}"


def schedule(code, role=None):
    """the allocated code as Insns in critical-path order (E31 latencies), and the cycles the
    schedule expects. Memory: a location is (base register, offset); stores to the output
    (a register not otherwise written) come after every load by data dependence."""
    insns = []
    for c in code:
        mem = None
        if c[4] is not None:
            mem = ("ld" if c[0] == "lw" else "st", c[4])
        insns.append(Insn(insn_text(*c), () if c[1] is None else (c[1],),
                          tuple(c[2]) + ((c[4][0],) if c[4] is not None else ()), role=role, mem=mem))
    return critical_path(insns)
