"""Straight-line SSA code over virtual registers, for the generators that register-allocate
their kernels (aes128-ctr/bitsliced, aes128/fixsliced, sm4/ctgen): build a block (`Block`),
run it in Python (`Block.run`, `Block.evaluate`), put it in a register-pressure-aware order
(`pressure_order`), allocate registers (`allocate`: spills to stack slots, values recomputed
instead of spilled where an instruction can make them again, a parallel move into the
live-out registers), and run the allocated code too (`run_insns`) for the generators'
self-checks. The stack frame the spill slots live in: `Frame`, `prologue`, `epilogue`.

Each generator used to carry its own copy of this; the copies differed in policy, not in
mechanism, so the policies are parameters here: which instructions may be repeated instead of
spilled (`recompute`), which value makes room when the registers are full (`evict`: one of
`furthest`, `furthest_clean`, `weighted`), the order's priority (`pressure_order`'s
`priority`), and whether register hints also steer reloads. Scheduling the result is
common/sched.py's job (`critical_path`)."""
from __future__ import annotations

import re

from common.alu import alu
from common.sched import Insn

M32 = 0xFFFFFFFF
LOADS = ("lw", "lbu")


def li_length(v: int) -> int:
    """instructions `li` takes for the 32-bit constant v (addi, or lui alone; else lui + addi)"""
    sv = v - (1 << 32) if v >> 31 else v
    return 1 if -2048 <= sv < 2048 or not v & 0xFFF else 2


class Block:
    """Straight-line SSA: values are ints. ops: dicts {op, dst, srcs, imm, mem, role}; mem =
    (base, offset) where base is a register name (a pointer the block does not write) or a
    value (then also the last of srcs). args {value: register it is in at entry}, exits [(value,
    register it must be in at the end)]; pin {value: register it lives in throughout}; readonly:
    base registers whose memory the block only reads; alts {value: [op dicts]}: other
    instructions that give the bits of a value that matter (the allocator may recompute it by
    any of them); chains: lists of values a generator groups (sm4: the xor chains)."""

    def __init__(self, zbkb=False):
        self.ops, self.n, self.zbkb = [], 0, zbkb
        self.args, self.exits, self.pin = {}, [], {}
        self.readonly, self.alts, self.chains = set(), {}, []

    def value(self, reg=None):
        """a new value (pinned to reg if given)"""
        self.n += 1
        if reg:
            self.pin[self.n] = reg
        return self.n

    def arg(self, reg):
        v = self.value()
        self.args[v] = reg
        return v

    def exit(self, v, reg):
        self.exits.append((v, reg))

    def op(self, op, srcs=(), imm=None, mem=None, dst=True, pin=None, role=None):
        d = self.value(pin) if dst else None
        self.ops.append({"op": op, "dst": d, "srcs": list(srcs), "imm": imm, "mem": mem, "role": role})
        return d

    @staticmethod
    def _base(base):
        return [base] if isinstance(base, int) else []

    def lw(self, base, off, role=None):
        return self.op("lw", self._base(base), mem=(base, off), role=role)

    def lbu(self, base, off, role=None):
        return self.op("lbu", self._base(base), mem=(base, off), role=role)

    def sw(self, v, base, off, role=None):
        self.op("sw", [v] + self._base(base), mem=(base, off), dst=False, role=role)

    def li(self, v, role=None):
        return self.op("li", imm=v & M32, role=role)

    def xor(self, a, b, pin=None, role=None): return self.op("xor", [a, b], pin=pin, role=role)
    def and_(self, a, b, role=None): return self.op("and", [a, b], role=role)
    def or_(self, a, b, role=None): return self.op("or", [a, b], role=role)
    def add(self, a, b, role=None): return self.op("add", [a, b], role=role)
    def sub(self, a, b, role=None): return self.op("sub", [a, b], role=role)
    def srli(self, a, n, role=None): return self.op("srli", [a], imm=n, role=role)
    def slli(self, a, n, role=None): return self.op("slli", [a], imm=n, role=role)
    def rori(self, a, n, role=None): return self.op("rori", [a], imm=n, role=role)
    def andi(self, a, n, role=None): return self.op("andi", [a], imm=n, role=role)
    def addi(self, a, n, role=None): return self.op("addi", [a], imm=n, role=role)
    def xori(self, a, n, role=None): return self.op("xori", [a], imm=n, role=role)

    def xor_reg(self, a, reg):
        """a ^ reg, reg a reserved register the block does not write"""
        return self.op("xorr", [a], imm=reg)

    def ror(self, a, n):
        """a rotated right by n: rori with Zbkb, else srli/slli/or"""
        n %= 32
        if n == 0:
            return a
        if self.zbkb:
            return self.rori(a, n)
        return self.or_(self.srli(a, n), self.slli(a, 32 - n))

    def swapmove(self, a, b, n, m):
        """(a', b'): the bits of b under mask m exchanged with the bits of a under m << n"""
        t = self.and_(self.xor(self.srli(a, n), b), m)
        return self.xor(a, self.slli(t, n)), self.xor(b, t)

    def count(self):
        """the instructions the ops assemble to (a long li is two)"""
        return len(self.ops) + sum(1 for o in self.ops if o["op"] == "li" and li_length(o["imm"]) == 2)

    # -------------------------------------------------------------- reference runs
    def evaluate(self, values, regs, mem):
        """execute in Python: values {value: int} known at entry, regs {register: int} for the
        register bases, mem {address: word} (updated by the stores). Returns every value."""
        val = dict(values)
        for o in self.ops:
            s = [val[x] for x in o["srcs"]]
            op = o["op"]
            if o["mem"] is not None:
                base, off = o["mem"]
                addr = (val[base] if isinstance(base, int) else regs[base]) + off
                if op == "sw":
                    mem[addr] = s[0]
                    continue
                r = mem[addr] if op == "lw" else mem[addr & ~3] >> 8 * (addr & 3) & 0xFF
            elif op == "xorr":
                r = s[0] ^ regs[o["imm"]]
            else:
                r = alu(op, s, o["imm"])
            val[o["dst"]] = r
        return val

    def run(self, regs, mem):
        """execute in Python from the registers regs (the args' and the pointers'), mem {address:
        word}: the registers after the block (the exits in theirs)"""
        val = self.evaluate({v: regs[r] for v, r in self.args.items()}, regs, mem)
        out = dict(regs)
        for v, r in self.exits:
            out[r] = val[v]
        return out


# ------------------------------------------------------------------ order
def pressure_order(B, priority, order_loads=True, location=lambda mem: mem):
    """Put B's ops in a register-pressure-aware topological order: repeatedly the ready op of
    highest priority(i, op, net, recent), where i is its index, net the values it frees (last
    uses, the exits counting as uses) less the one it makes, recent the position in the new
    order of its newest operand (-1: none). Memory: accesses of one location (location(mem))
    keep their order; with order_loads False two loads of it may swap."""
    ops = B.ops
    n = len(ops)
    prod, preds, last, seen = {}, [set() for _ in range(n)], {}, {}
    for i, o in enumerate(ops):
        for s in o["srcs"]:
            if s in prod:
                preds[i].add(prod[s])
        if o["mem"] is not None:
            key = location(o["mem"])
            if order_loads:
                if key in last:
                    preds[i].add(last[key])
                last[key] = i
            else:
                preds[i] |= {j for j in seen.get(key, []) if o["op"] == "sw" or ops[j]["op"] == "sw"}
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
    born, order = {}, []

    def key(i):
        o = ops[i]
        freed = sum(1 for s in set(o["srcs"]) if left[s] == o["srcs"].count(s))
        recent = max([born.get(s, -1) for s in o["srcs"]] + [-1])
        return priority(i, o, freed - (o["dst"] is not None), recent)
    while ready:
        i = max(ready, key=key)
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


# ------------------------------------------------------------------ eviction policies
# An eviction policy picks the register to free when none is: policy(cands, now) with cands
# a list of (next use, register, value, spilled, recomputable) in the order the registers were
# filled (next use None: no more uses), now the index of the op being allocated.
def _dist(nu):
    return 10 ** 9 if nu is None else nu


def furthest(cands, now):
    """the value used furthest ahead (Belady); the first such"""
    return max(cands, key=lambda c: _dist(c[0]))[1]


def furthest_clean(slack):
    """the value used furthest ahead, but a clean one (spilled already, or recomputable) whose
    next use is within `slack` of the way as far; recomputable ones first on ties"""
    def policy(cands, now):
        far = max(_dist(c[0]) for c in cands)
        clean = [c for c in cands if (c[3] or c[4]) and _dist(c[0]) >= far - slack * (far - now)]
        return max(clean or cands, key=lambda c: (_dist(c[0]), c[4]))[1]
    return policy


def weighted(weights):
    """the largest distance to the next use times weights[cost], cost 1 for a value that
    comes back with one instruction (a reload or a recomputation), 2 for a store and a load"""
    def policy(cands, now):
        def score(c):
            dist = 10 ** 6 if c[0] is None else c[0] - now
            return dist * weights[1 if (c[3] or c[4]) else 2]
        return max(cands, key=score)[1]
    return policy


# ------------------------------------------------------------------ register allocation
def insn_text(op, d, srcs, imm, mem=None):
    """one allocated instruction's text; mem = (base register, offset)"""
    if op in LOADS:
        return f"{op:4} {d}, {mem[1]}({mem[0]})"
    if op == "sw":
        return f"sw   {srcs[0]}, {mem[1]}({mem[0]})"
    if op == "li":
        return f"li   {d}, {imm if imm < 0x80000000 else imm - (1 << 32)}"
    if op == "xorr":
        return f"xor  {d}, {srcs[0]}, {imm}"
    if imm is not None:
        return f"{op:4} {d}, {srcs[0]}, {imm}"
    return f"{op:4} {d}, {', '.join(srcs)}"


class Allocation:
    """allocate's result: insns (Insn, in program order), regs {live-out value: register},
    natural {live-out value: register it was in before the final moves, or None}, slots (spill
    slots used)"""

    def __init__(self, insns, regs, natural, slots):
        self.insns, self.regs, self.natural, self.slots = insns, regs, natural, slots


def allocate(B, regs, spill_base, *, max_slots=None, live_in=None, live_out=None, homes=None,
             hints=None, hint_reloads=True, avoid=(), evict=furthest, recompute=lambda o: False,
             role="", spill_role=None, stats=None):
    """B's ops with registers from `regs` (in order of preference), as an Allocation.
    live_in {value: register, or None for a value in its home} (default B.args: a value never
    read gives its register back); live_out {value: register it must be in after the block, or
    None: anywhere} (default B.exits) -- the moves and reloads for them go at the end. Values
    of B.pin live in their register throughout. homes {value: frame offset}: a permanent stack
    slot (evicted for free, reloaded from it; one the block defines is there once the block
    stores it there). When no register is free, `evict` picks the value to give one up: it is
    recomputed where it is needed again if recompute(op) allows one of its recipes (its own op,
    or one of B.alts) whose sources are alive then, else stored to a spill slot (at spill_base +
    4 k; IndexError past max_slots). hints {value: register}: taken when free (by reloads too
    if hint_reloads); otherwise the first free register not in `avoid`. Roles: an op's own,
    else `role`; spill code `spill_role` (default `role`). stats (a dict): counts of spill
    stores and loads, recomputations and moves."""
    live_in = dict(B.args) if live_in is None else live_in
    if live_out is None:
        live_out = dict(B.exits)
        assert len(live_out) == len(B.exits), "a value exits in two registers"
    homes, hints = homes or {}, hints or {}
    stats = {} if stats is None else stats
    spill_role = role if spill_role is None else spill_role
    ops = B.ops
    uses, defn = {}, {}
    for k, o in enumerate(ops):
        for s in o["srcs"]:
            uses.setdefault(s, []).append(k)
        if o["dst"] is not None:
            defn[o["dst"]] = o
    for v in live_out:
        uses.setdefault(v, []).append(len(ops))
    pos = {v: 0 for v in uses}

    def next_use(v):
        u = uses.get(v, [])
        return u[pos[v]] if pos.get(v, 0) < len(u) else None

    def last_use(v):
        return uses[v][-1] if v in uses else -1
    reg_of, holder = {}, {}
    for v, r in live_in.items():
        if r is not None:
            reg_of[v], holder[r] = r, v
    free = [r for r in regs if r not in holder]
    for v, r in live_in.items():
        if r in regs and next_use(v) is None:         # an argument the block never reads
            del reg_of[v], holder[r]
            free.append(r)
    # a home value defined here is in memory once the block's own store of it has run
    pending = {v: off for v, off in homes.items() if v in defn}
    slot_of, free_slots, nslots = {v: off for v, off in homes.items() if v not in pending}, [], [0]
    remat = set()          # evicted values to be recomputed when needed
    visiting = set()
    out = []
    now = [0]

    def emit(text, dst, src, mem=None, role=None):
        out.append(Insn(text, dst, src, mem=mem, role=role or ""))

    def emit_op(o, d, srcs):
        """o with registers: d its destination, srcs its sources'"""
        mem = None
        if o["mem"] is not None:
            base, off = o["mem"]
            base = srcs[-1] if isinstance(base, int) else base
            mem = ("st" if o["op"] == "sw" else "ld", (base, off))
        src = tuple(srcs) + ((mem[1][0],) if mem and not isinstance(o["mem"][0], int) else ())
        emit(insn_text(o["op"], d, srcs, o["imm"], mem and mem[1]), (d,) if d else (), src, mem,
             o["role"] or role)

    def new_slot():
        if free_slots:
            return free_slots.pop()
        if max_slots is not None and nslots[0] >= max_slots:
            raise IndexError("out of spill slots")
        nslots[0] += 1
        return spill_base + 4 * (nslots[0] - 1)

    def recipes(v):
        return [o for o in ([defn[v]] if v in defn else []) + B.alts.get(v, []) if recompute(o)]

    def alive(s, t):
        return s in B.pin or s in homes or last_use(s) >= t

    def can_remat(v, nu):
        """v can be recomputed at its next use nu: by a recipe whose sources are alive then"""
        if v in B.pin:
            return False
        return any(all(alive(s, nu) and s != v for s in o["srcs"]) for o in recipes(v))

    def make_room(locked):
        cands = []
        for r, v in holder.items():
            if v in locked or v in B.pin:
                continue
            nu = next_use(v)
            cands.append((nu, r, v, v in slot_of, nu is not None and can_remat(v, nu)))
        r = evict(cands, now[0])
        v = holder.pop(r)
        del reg_of[v]
        nu = next_use(v)
        if nu is not None and v not in slot_of:
            if can_remat(v, nu):
                remat.add(v)
            else:
                slot_of[v] = new_slot()
                stats["spill_stores"] = stats.get("spill_stores", 0) + 1
                emit(f"sw   {r}, {slot_of[v]}(sp)", (), (r, "sp"), mem=("st", ("sp", slot_of[v])), role=spill_role)
        return r

    def get_reg(locked, hint=None):
        if hint in free:
            free.remove(hint)
            return hint
        for r in free:
            if r not in avoid:
                free.remove(r)
                return r
        return free.pop(0) if free else make_room(locked)

    def fetch(v, locked, hint=None, into=None):
        """v into a register (`into`, which must be free, or any): reload it, or recompute it"""
        def target(lk):
            if into is not None:
                if into in free:
                    free.remove(into)
                return into
            return get_reg(lk, hint)
        if v in slot_of:
            r = target(locked)
            stats["spill_loads"] = stats.get("spill_loads", 0) + 1
            emit(f"lw   {r}, {slot_of[v]}(sp)", (r,), ("sp",), mem=("ld", ("sp", slot_of[v])), role=spill_role)
        else:
            assert v in remat, f"value {v} neither in a register nor in memory"
            visiting.add(v)
            ok = [o for o in recipes(v) if all(alive(s, now[0]) and s not in visiting for s in o["srcs"])]
            assert ok, f"value {v}: no recipe"
            o = min(ok, key=lambda o: sum(s not in reg_of for s in o["srcs"]))
            lk = set(locked) | set(o["srcs"])
            for s in o["srcs"]:
                if s not in reg_of:
                    fetch(s, lk)
            visiting.discard(v)
            r = target(lk)
            stats["remat"] = stats.get("remat", 0) + 1
            emit_op(o, r, [reg_of[s] for s in o["srcs"]])
            remat.discard(v)
        reg_of[v], holder[r] = r, v

    for k, o in enumerate(ops):
        now[0] = k
        locked = set(o["srcs"])
        for s in o["srcs"]:
            if s not in reg_of:
                fetch(s, locked, hints.get(s) if hint_reloads else None)
        srcs = [reg_of[s] for s in o["srcs"]]
        for s in set(o["srcs"]):
            pos[s] += o["srcs"].count(s)
            if next_use(s) is None:
                r = reg_of.pop(s)
                del holder[r]
                if r in regs:
                    free.insert(0, r)
                if s in slot_of and s not in homes:
                    free_slots.append(slot_of.pop(s))
        d = None
        if o["dst"] is not None:
            v = o["dst"]
            if v in B.pin:
                d = B.pin[v]
                assert d not in holder, f"pinned register {d} still holds value {holder.get(d)}"
                if d in free:
                    free.remove(d)
            else:
                if next_use(v) is None:
                    raise RuntimeError(f"dead value {o}")
                d = get_reg(set(), hints.get(v))
            reg_of[v], holder[d] = d, v
        emit_op(o, d, srcs)
        if o["op"] == "sw" and o["srcs"][0] in pending and pending[o["srcs"][0]] == o["mem"][1]:
            slot_of[o["srcs"][0]] = pending.pop(o["srcs"][0])
    natural = {v: reg_of.get(v) for v in live_out}

    # the live-out values into their registers: a parallel move (a register wanted while it
    # still holds another value waits; a cycle moves one holder aside), then the reloads
    def move(v, r):
        stats["moves"] = stats.get("moves", 0) + 1
        emit(f"mv   {r}, {reg_of[v]}", (r,), (reg_of[v],), role=spill_role)
        del holder[reg_of[v]]
        if reg_of[v] in regs and reg_of[v] not in free:
            free.append(reg_of[v])
        if r in free:
            free.remove(r)
        reg_of[v], holder[r] = r, v
    want = {v: r for v, r in live_out.items() if r is not None and reg_of.get(v) != r}
    while want:
        ready = [v for v, r in want.items() if r not in holder]
        if ready:
            v = ready[0]
            r = want.pop(v)
            if v in reg_of:
                move(v, r)
            else:
                fetch(v, set(), into=r)
            continue
        b = holder[next(iter(want.values()))]
        move(b, next(r for r in regs if r not in holder and r not in want.values()))
    for v in live_out:
        if v not in reg_of:
            fetch(v, set())
    for v, r in live_out.items():
        assert r is None or reg_of[v] == r, (v, r, reg_of.get(v))
    return Allocation(out, {v: reg_of[v] for v in live_out}, natural, nslots[0])


def size(insns):
    """the machine instructions of allocated code (a long li is two)"""
    return sum(li_length(int(x.text.split(",")[1]) & M32) if x.op == "li" else 1 for x in insns)


def run_insns(insns, regs, mem):
    """execute allocated instructions (Insn texts, fences skipped) in Python: regs {name: int},
    mem {address: word} (a word never written reads as 0). Returns the registers after."""
    regs = dict(regs, zero=0)
    for x in insns:
        if x.fence:
            continue
        op, _, rest = x.text.strip().partition(" ")
        args = [a.strip() for a in rest.split(",")]
        if op in ("lw", "sw"):
            off, base = re.match(r"(-?\d+)\((\w+)\)", args[1]).groups()
            addr = regs[base] + int(off)
            if op == "lw":
                regs[args[0]] = mem.get(addr, 0)
            else:
                mem[addr] = regs[args[0]]
        elif op == "li":
            regs[args[0]] = int(args[1]) & M32
        elif op == "mv":
            regs[args[0]] = regs[args[1]]
        elif re.fullmatch(r"-?\d+", args[-1]):
            regs[args[0]] = alu(op, [regs[a] for a in args[1:-1]], int(args[-1]))
        else:
            regs[args[0]] = alu(op, [regs[a] for a in args[1:]], None)
    return regs


# ------------------------------------------------------------------ the stack frame
class Frame:
    """A function's stack frame: named 4-byte slots (fixed before the code is generated), the
    spill slots, then the saved registers (known once the code is allocated); 16-byte aligned."""

    def __init__(self, names):
        self.named = {n: 4 * k for k, n in enumerate(names)}
        self.nspill = 0
        self.saved = []

    def slot(self, name):
        return self.named[name]

    def spill_off(self, k):
        return 4 * len(self.named) + 4 * k

    def saved_off(self, j):
        return 4 * (len(self.named) + self.nspill + j)

    def size(self):
        return (self.saved_off(len(self.saved)) + 15) // 16 * 16


CALLEE_SAVED = ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "ra"]


def prologue(a, frame, used, role=None, note=None):
    """open the frame and save the callee-saved registers (and ra) among `used`"""
    frame.saved = [r for r in CALLEE_SAVED if r in used]
    if frame.size():
        a("addi", "sp", "sp", -frame.size(), role=role)
    for j, r in enumerate(frame.saved):
        a("sw", r, f"{frame.saved_off(j)}(sp)", role=role, note=note)


def epilogue(a, frame, role=None, ret_role=None):
    """restore what prologue saved, close the frame, return"""
    for j, r in enumerate(frame.saved):
        a("lw", r, f"{frame.saved_off(j)}(sp)", role=role)
    if frame.size():
        a("addi", "sp", "sp", frame.size(), role=role)
    a("ret", role=ret_role)
