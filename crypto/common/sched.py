"""Instruction scheduling for the generators: the E31's result latencies and list schedulers
over straight-line code.

E31 (SiFive FE310-G000 manual, "E31 RISC-V Core"; docs/DESIGN.md): single issue, in order,
fully bypassed; an instruction that needs a result issues `latency` cycles after its
producer: LW 2, LH/LHU/LB/LBU 3, MUL/MULH/MULHU/MULHSU 5 (the multiplier also blocks until it
is done), everything else 1.
"""
from __future__ import annotations

import re

E31_LATENCY = {"lw": 2, "lh": 3, "lhu": 3, "lb": 3, "lbu": 3,
               "mul": 5, "mulh": 5, "mulhu": 5, "mulhsu": 5}
E31_MULTIPLIER = {"mul", "mulh", "mulhu", "mulhsu"}     # one operation at a time (blocks)


def latency(op: str, table: dict = E31_LATENCY) -> int:
    return table.get(op, 1)


class Insn:
    """One instruction of a block to be scheduled: its text, the registers it writes (dst) and
    reads (src), its role tag and note. A pseudo-register (e.g. "mem") orders instructions that
    share no register: a store that reads "mem" waits for the instruction that wrote it. A
    fence (text starting with "#") takes part in the scheduling and is not written out.
    mem = ("ld" | "st", location): loads and stores of one location keep their order; tie = j:
    the destination is the same register as src[j] (overwritten in place: its readers go first);
    group: critical_path issues, of the instructions ready at once, one of the lowest group
    first (e.g. the round it belongs to; 0 for all by default)."""

    def __init__(self, text, dst=(), src=(), note="", role="", op=None, mem=None, tie=None, group=0):
        self.text, self.dst, self.src, self.note, self.role = text, tuple(dst), tuple(src), note, role
        self.op = op or text.split()[0]
        self.mem, self.tie, self.group = mem, tie, group

    @property
    def fence(self) -> bool:
        return self.text.startswith("#")


class Listing:
    """Collects the Insns of a block: `lst(text, dst, src, note)` with the current `role`."""

    def __init__(self, role=""):
        self.insns: list[Insn] = []
        self.role = role

    def __call__(self, text, dst=(), src=(), note=""):
        self.insns.append(Insn(text, dst, src, note, self.role))

    def fence(self, dst, src, why):
        """a pseudo-instruction writing dst after reading src (e.g. every load of the input
        before the first store of the output: dst ("mem",), src the loaded registers)"""
        self.insns.append(Insn(f"# {why}", dst, src))


def dependences(insns, lat=latency, store_load=1):
    """For each instruction the (predecessor index, distance) pairs: read after write with the
    producer's latency; a load of a location after the store to it with `store_load`; write
    after write, write after read, and the other orders of loads and stores of one location
    with 1."""
    preds = [[] for _ in insns]
    last_def, readers, last_store, loads_since = {}, {}, {}, {}
    for i, x in enumerate(insns):
        for r in x.src:
            if r in last_def:
                j = last_def[r]
                preds[i].append((j, lat(insns[j].op)))
        if x.mem is not None:
            kind, loc = x.mem
            if loc in last_store:
                preds[i].append((last_store[loc], 1 if kind == "st" else store_load))
            if kind == "st":
                preds[i] += [(j, 1) for j in loads_since.get(loc, [])]
                last_store[loc], loads_since[loc] = i, []
            else:
                loads_since.setdefault(loc, []).append(i)
        if x.tie is not None:
            preds[i] += [(j, 1) for j in readers.get(x.src[x.tie], [])]
        for r in x.dst:
            if r in last_def:
                preds[i].append((last_def[r], 1))
            preds[i] += [(u, 1) for u in readers.get(r, []) if u != i]
        for r in x.src:
            readers.setdefault(r, []).append(i)
        for r in x.dst:
            last_def[r], readers[r] = i, []
    return preds


def path_heights(insns, preds, lat=latency):
    """The successors (index, distance) of each instruction and the length of its longest
    dependence path to the end of the block (its own latency at least)."""
    succ = [[] for _ in insns]
    for k, ps in enumerate(preds):
        for p, d in ps:
            succ[p].append((k, d))
    height = [0] * len(insns)
    for k in range(len(insns) - 1, -1, -1):
        height[k] = max([height[s] + d for s, d in succ[k]] + [lat(insns[k].op)])
    return succ, height


def earliest_first(insns, window=24, lat=latency):
    """Greedy list scheduling for a single-issue core: at each step, among the first `window`
    unscheduled instructions whose predecessors are all scheduled, the one that can issue
    earliest; program order on ties. Returns the instructions in their new order."""
    preds = dependences(insns, lat)
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


def critical_path(insns, window=None, lat=latency, blocking=E31_MULTIPLIER, pressure=None, store_load=1):
    """List scheduling for a single-issue in-order core by critical path: of the instructions
    whose predecessors are scheduled (and, with a window, within `window` of the oldest
    unscheduled one), issue one that is ready now -- one of the lowest group (Insn.group), then
    one that needs the blocking unit (the multiplier), then the longest path to the end, then
    program order -- else the one ready soonest (lowest group, longest path, program order on
    ties). pressure (optional): an object with fits(k), delta(k), issue(k) that keeps the number
    of live values bounded (see polymul-128/gen/rvgen.py) or allocates registers as it goes
    (RegisterPool). store_load: the distance from a store to a load of its location
    (dependences). Returns (order, cycles): cycles - len(order) are stall cycles."""
    preds = dependences(insns, lat, store_load)
    n = len(insns)
    succ, prio = path_heights(insns, preds, lat)
    npred = [len(p) for p in preds]
    earliest = [0] * n
    ready = set(k for k in range(n) if npred[k] == 0)
    done = [False] * n
    oldest = cycle = unit_free = 0
    order = []

    def t_of(k):
        return max(earliest[k], unit_free) if insns[k].op in blocking else earliest[k]
    while len(order) < n:
        while done[oldest]:
            oldest += 1
        cands = [k for k in ready if window is None or k < oldest + window]
        if pressure is not None:
            cands = [k for k in cands if pressure.fits(k)] or [min(cands, key=lambda k: (pressure.delta(k), k))]
        now = [k for k in cands if t_of(k) <= cycle]
        if now:
            k = max(now, key=lambda k: (-insns[k].group, insns[k].op in blocking, prio[k], -k))
        else:
            k = min(cands, key=lambda k: (t_of(k), insns[k].group, -prio[k], k))
            cycle = t_of(k)
        ready.discard(k)
        done[k] = True
        if pressure is not None:
            pressure.issue(k)
        order.append(k)
        if insns[k].op in blocking:
            unit_free = cycle + lat(insns[k].op)
        for s, d in succ[k]:
            earliest[s] = max(earliest[s], cycle + d)
            npred[s] -= 1
            if npred[s] == 0:
                ready.add(s)
        cycle += 1
    return [insns[k] for k in order], cycle


class RegisterPool:
    """A `pressure` for critical_path that allocates registers as it issues: each virtual
    register (a name starting with `prefix`, one writer each) takes the first free register of
    `pool` when its writer issues; a source read for the last time frees its register first
    (so an instruction may reuse its operand's register), and freed registers go to the back
    of the list. An instruction fits if its destination can have a register. rename(text)
    writes the physical names into an instruction's text after scheduling."""

    def __init__(self, insns, pool, prefix="%v"):
        self.insns, self.prefix = insns, prefix
        self.free = list(pool)
        self.phys = {}
        self.uses = {}
        for x in insns:
            for s in dict.fromkeys(x.src):
                if s.startswith(prefix):
                    self.uses[s] = self.uses.get(s, 0) + 1

    def _frees(self, k):
        return sum(1 for s in dict.fromkeys(self.insns[k].src) if s.startswith(self.prefix) and self.uses[s] == 1)

    def _takes(self, k):
        dst = self.insns[k].dst
        return bool(dst) and dst[0].startswith(self.prefix)

    def delta(self, k):
        return int(self._takes(k)) - self._frees(k)

    def fits(self, k):
        return not self._takes(k) or len(self.free) + self._frees(k) >= 1

    def issue(self, k):
        x = self.insns[k]
        for s in dict.fromkeys(x.src):
            if s.startswith(self.prefix):
                self.uses[s] -= 1
                if self.uses[s] == 0:
                    self.free.append(self.phys[s])
        if self._takes(k):
            assert self.free, "RegisterPool: out of registers"
            self.phys[x.dst[0]] = self.free.pop(0)

    def rename(self, text):
        return re.sub(re.escape(self.prefix) + r"\d+", lambda m: self.phys[m.group(0)], text)
