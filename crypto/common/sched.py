"""Instruction scheduling for the generators: the E31's result latencies and list schedulers
over straight-line code.

E31 (SiFive FE310-G000 manual, "E31 RISC-V Core"; docs/DESIGN.md): single issue, in order,
fully bypassed; an instruction that needs a result issues `latency` cycles after its
producer: LW 2, LH/LHU/LB/LBU 3, MUL/MULH/MULHU/MULHSU 5 (the multiplier also blocks until it
is done), everything else 1.
"""
from __future__ import annotations

E31_LATENCY = {"lw": 2, "lh": 3, "lhu": 3, "lb": 3, "lbu": 3,
               "mul": 5, "mulh": 5, "mulhu": 5, "mulhsu": 5}


def latency(op: str, table: dict = E31_LATENCY) -> int:
    return table.get(op, 1)


class Insn:
    """One instruction of a block to be scheduled: its text, the registers it writes (dst) and
    reads (src), its role tag and note. A pseudo-register (e.g. "mem") orders instructions that
    share no register: a store that reads "mem" waits for the instruction that wrote it. A
    fence (text starting with "#") takes part in the scheduling and is not written out."""

    def __init__(self, text, dst=(), src=(), note="", role=""):
        self.text, self.dst, self.src, self.note, self.role = text, tuple(dst), tuple(src), note, role
        self.op = text.split()[0]

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


def dependences(insns, lat=latency):
    """For each instruction the (predecessor index, distance) pairs: read after write with the
    producer's latency, write after write and write after read with 1."""
    preds = [[] for _ in insns]
    last_def, readers = {}, {}
    for i, x in enumerate(insns):
        for r in x.src:
            if r in last_def:
                j = last_def[r]
                preds[i].append((j, lat(insns[j].op)))
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
    return preds


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
