"""Tiny straight-line RV32 code generator used to write the polymul kernels.

Kernels are written as a list of instructions over *virtual* registers (names starting
with '%'); this module
  1. list-schedules them for the E31 pipeline (crypto/common/sched.py: critical path, LW
     result latency 2, MUL 5 and blocking) inside a bounded look-ahead window, keeping at
     most `maxlive` values live,
  2. assigns physical registers by linear scan over the scheduled order (no spilling:
     a kernel that needs too many registers is an error, fix the window),
  3. wraps the result in a function with an ilp32 prologue/epilogue that saves exactly
     the callee-saved registers it uses (crypto/common/asm.py writes it).
The output is plain assembly; the generator is only a writing aid.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from common.asm import Asm  # noqa: E402,F401  (gen_kara.py writes with it too)
from common.sched import E31_LATENCY, E31_MULTIPLIER, Insn, critical_path  # noqa: E402

# muladd (ise/muladd: uses_multiplier) times and blocks like MUL
LAT = {**E31_LATENCY, "muladd": E31_LATENCY["mul"]}
MULOPS = E31_MULTIPLIER | {"muladd"}


def latency(op):
    return LAT.get(op, 1)


# allocatable registers (a0-a2 are bound to the arguments at entry)
POOL = ["a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "t0", "t1", "t2", "t3", "t4", "t5",
        "t6", "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "ra"]
CALLEE = ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "ra"]


def out(ins):
    """the virtual (or physical) register an instruction writes, None for a store"""
    return ins.dst[0] if ins.dst else None


class Block:
    """Collects instructions. fmt uses {d} for the destination and {s0},{s1},.. for sources."""

    def __init__(self):
        self.insns = []
        self.n = 0

    def v(self, hint="v"):
        self.n += 1
        return "%%%s%d" % (hint, self.n)

    def emit(self, op, dst, srcs, fmt, mem=None, tie=None):
        """fmt: the instruction with {d} for the destination, {s0}, {s1}, .. for the sources"""
        self.insns.append(Insn(fmt, () if dst is None else (dst,), srcs, op=op, mem=mem, tie=tie))
        return dst

    # helpers returning the destination
    def r(self, op, a, b, d=None):
        d = d or self.v()
        return self.emit(op, d, [a, b], op + " {d}, {s0}, {s1}")

    def i(self, op, a, imm, d=None):
        d = d or self.v()
        return self.emit(op, d, [a], op + " {d}, {s0}, %d" % imm)

    def xor(self, a, b, d=None): return self.r("xor", a, b, d)
    def and_(self, a, b, d=None): return self.r("and", a, b, d)
    def or_(self, a, b, d=None): return self.r("or", a, b, d)
    def slli(self, a, s, d=None): return self.i("slli", a, s, d)
    def srli(self, a, s, d=None): return self.i("srli", a, s, d)
    def srai(self, a, s, d=None): return self.i("srai", a, s, d)
    def andi(self, a, s, d=None): return self.i("andi", a, s, d)

    def li(self, imm, d=None):
        d = d or self.v()
        return self.emit("li", d, [], "li {d}, %d" % imm)

    def lw(self, base, off, region, d=None):
        d = d or self.v()
        return self.emit("lw", d, [base], "lw {d}, %d({s0})" % off, mem=("ld", region))

    def sw(self, val, base, off, region):
        return self.emit("sw", None, [val, base], "sw {s0}, %d({s1})" % off, mem=("st", region))

    def custom(self, op, srcs, fmt, tie=None):
        """custom instruction; with tie=j the destination is the same register as srcs[j]"""
        return self.emit(op, self.v(), srcs, fmt, None, tie)


class LiveValues:
    """The register pressure of a schedule: values (virtual registers) defined and not yet
    read for the last time. An instruction fits if issuing it keeps them within maxlive."""

    def __init__(self, insns, maxlive, bound):
        self.insns, self.maxlive, self.live = insns, maxlive, len(bound)
        self.uses = {}
        for ins in insns:
            for v in ins.src:
                if v.startswith("%"):
                    self.uses[v] = self.uses.get(v, 0) + 1

    def delta(self, k):
        ins = self.insns[k]
        d = 1 if (out(ins) is not None and out(ins).startswith("%")) else 0
        for v in dict.fromkeys(ins.src):
            if v.startswith("%") and self.uses[v] == ins.src.count(v):
                d -= 1
        return d

    def fits(self, k):
        return self.live + self.delta(k) <= self.maxlive

    def issue(self, k):
        self.live += self.delta(k)
        for v in self.insns[k].src:
            if v.startswith("%"):
                self.uses[v] -= 1


def schedule(insns, window=40, maxlive=28, bound=()):
    """Critical-path list scheduling (common/sched.py) keeping at most `maxlive` values live
    (so that linear-scan allocation never runs out). Returns (order, cycles)."""
    return critical_path(insns, window, latency, MULOPS, LiveValues(insns, maxlive, bound))


def allocate(seq, bound, pool=POOL):
    """Linear-scan register assignment over the scheduled sequence.
    bound: dict virtual -> physical for live-in values (the arguments)."""
    last_use = {}
    for k, ins in enumerate(seq):
        for s in ins.src:
            last_use[s] = k
        if out(ins) is not None and out(ins) not in last_use:
            last_use[out(ins)] = k
    phys = dict(bound)
    free = [r for r in pool if r not in bound.values()]
    used = set(bound.values())
    lines = []
    for k, ins in enumerate(seq):
        srcp = []
        for s in ins.src:
            if s.startswith("%"):
                if s not in phys:
                    raise RuntimeError("use before definition: " + s)
                srcp.append(phys[s])
            else:
                srcp.append(s)
        pre = ""
        tied = ins.src[ins.tie] if ins.tie is not None else None
        # free sources whose last use is here (dst may reuse them)
        for s in dict.fromkeys(ins.src):
            if s.startswith("%") and last_use.get(s) == k and s in phys and s != tied:
                free.insert(0, phys.pop(s))
        d = out(ins)
        dp = None
        if tied is not None:
            if last_use.get(tied) == k:
                dp = phys.pop(tied)
            else:
                if not free:
                    raise RuntimeError("out of registers at %d: %s" % (k, ins.text))
                cand = [r for r in free if r not in srcp]
                if not cand:
                    raise RuntimeError("out of registers at %d: %s" % (k, ins.text))
                dp = cand[0]
                free.remove(dp)
                used.add(dp)
                pre = "mv %s, %s" % (dp, phys[tied])
            phys[d] = dp
            if last_use.get(d) == k:
                free.insert(0, phys.pop(d))
        elif d is not None:
            if d.startswith("%"):
                if d in phys:
                    dp = phys[d]
                else:
                    if not free:
                        raise RuntimeError("out of registers at %d: %s" % (k, ins.text))
                    dp = free.pop(0)
                    phys[d] = dp
                    used.add(dp)
                if last_use.get(d) == k:  # dead value
                    free.insert(0, phys.pop(d))
            else:
                dp = d
        if pre:
            lines.append(pre)
        lines.append(ins.text.format(d=dp, **{"s%d" % j: r for j, r in enumerate(srcp)}))
    return lines, used


def function(name, body_lines, used, frame_extra=0, comment=""):
    """Wrap scheduled body in a function. frame_extra bytes at 0(sp) are for the kernel."""
    saves = [r for r in CALLEE if r in used]
    frame = frame_extra + 4 * len(saves)
    frame = (frame + 15) & ~15
    a = Asm()
    for c in comment.splitlines():
        a.raw("/* " + c + " */")
    a.section(".text")
    with a.function(name):
        if frame:
            a("addi", "sp", "sp", -frame)
        for j, r in enumerate(saves):
            a("sw", r, "%d(sp)" % (frame_extra + 4 * j))
        for x in body_lines:
            a(x)
        for j, r in enumerate(saves):
            a("lw", r, "%d(sp)" % (frame_extra + 4 * j))
        if frame:
            a("addi", "sp", "sp", frame)
        a("ret")
    return a.text()


def build(name, blk, bound, window=40, frame_extra=0, comment="", pool=POOL, maxlive=None):
    seq, cyc = schedule(blk.insns, window, maxlive or len(pool), bound)
    body, used = allocate(seq, bound, pool)
    return function(name, body, used, frame_extra, comment), cyc, len(seq)


def run_main(main, usage):
    """Run a generator's main(argv) with clear errors: bad arguments -> usage, exit 2;
    a kernel that cannot be scheduled/allocated -> one error line, exit 1."""
    import sys
    try:
        main(sys.argv[1:])
    except (ValueError, IndexError) as e:
        sys.stderr.write("error: %s\nusage: %s\n" % (e, usage))
        sys.exit(2)
    except RuntimeError as e:
        sys.stderr.write("error: %s (try a smaller scheduling window)\n" % e)
        sys.exit(1)
