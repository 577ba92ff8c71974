"""Tiny straight-line RV32 code generator used to write the polymul kernels.

Kernels are written as a list of instructions over *virtual* registers (names starting
with '%'); this module
  1. list-schedules them for the E31 pipeline (LW result latency 2, MUL 5 and blocking,
     everything else 1) inside a bounded look-ahead window,
  2. assigns physical registers by linear scan over the scheduled order (no spilling:
     a kernel that needs too many registers is an error, fix the window),
  3. wraps the result in a function with an ilp32 prologue/epilogue that saves exactly
     the callee-saved registers it uses.
The output is plain assembly; the generator is only a writing aid.
"""

LAT = {"lw": 2, "lh": 3, "lhu": 3, "lb": 3, "lbu": 3, "mul": 5, "mulhu": 5, "mulh": 5,
       "mulhsu": 5, "muladd": 5}
MULOPS = {"mul", "mulh", "mulhu", "mulhsu", "muladd"}

# allocatable registers (a0-a2 are bound to the arguments at entry)
POOL = ["a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "t0", "t1", "t2", "t3", "t4", "t5",
        "t6", "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "ra"]
CALLEE = ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "ra"]


class Insn:
    __slots__ = ("op", "dst", "srcs", "fmt", "mem", "idx", "lat", "tie")

    def __init__(self, op, dst, srcs, fmt, mem=None, tie=None):
        self.op, self.dst, self.srcs, self.fmt, self.mem = op, dst, srcs, fmt, mem
        self.lat = LAT.get(op, 1)
        self.tie = tie  # index of the source that is also the destination (rd accumulates)


class Block:
    """Collects instructions. fmt uses {d} for the destination and {s0},{s1},.. for sources."""

    def __init__(self):
        self.insns = []
        self.n = 0

    def v(self, hint="v"):
        self.n += 1
        return "%%%s%d" % (hint, self.n)

    def emit(self, op, dst, srcs, fmt, mem=None, tie=None):
        self.insns.append(Insn(op, dst, list(srcs), fmt, mem, tie))
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


def schedule(insns, window=40, maxlive=28, bound=()):
    """Greedy list scheduling for a single-issue in-order core, keeping at most `maxlive`
    values live (so that linear-scan allocation never runs out). Returns (order, cycles)."""
    n = len(insns)
    uses = {}
    for ins in insns:
        for s in ins.srcs:
            if s.startswith("%"):
                uses[s] = uses.get(s, 0) + 1
    live = len(bound)
    deps = [[] for _ in range(n)]  # (pred, min distance)
    last_w, readers, last_st, loads_since = {}, {}, {}, {}
    for k, ins in enumerate(insns):
        ins.idx = k
        for s in ins.srcs:
            if s in last_w:
                deps[k].append((last_w[s], insns[last_w[s]].lat))
        if ins.mem:
            kind, reg = ins.mem
            if reg in last_st:
                deps[k].append((last_st[reg], 1))
            if kind == "st":
                for l in loads_since.get(reg, []):
                    deps[k].append((l, 1))
                last_st[reg] = k
                loads_since[reg] = []
            else:
                loads_since.setdefault(reg, []).append(k)
        if ins.tie is not None:
            # the tied source is overwritten in place: every earlier reader goes first
            for rd in readers.get(ins.srcs[ins.tie], []):
                deps[k].append((rd, 1))
        if ins.dst is not None:
            d = ins.dst
            if d in last_w:
                deps[k].append((last_w[d], 1))
            for rd in readers.get(d, []):
                deps[k].append((rd, 1))
            readers[d] = []
        for s in ins.srcs:
            readers.setdefault(s, []).append(k)
        if ins.dst is not None:
            last_w[ins.dst] = k
    succ = [[] for _ in range(n)]
    for k in range(n):
        for p, lat in deps[k]:
            succ[p].append((k, lat))
    prio = [0] * n
    for k in range(n - 1, -1, -1):
        prio[k] = max([prio[s] + l for s, l in succ[k]] + [insns[k].lat])
    npred = [len(deps[k]) for k in range(n)]
    earliest = [0] * n
    ready = set(k for k in range(n) if npred[k] == 0)
    done = [False] * n
    oldest = 0
    cycle = 0
    mul_free = 0
    order = []
    while len(order) < n:
        while done[oldest]:
            oldest += 1
        cands = [k for k in ready if k < oldest + window]
        def t_of(k):
            t = earliest[k]
            if insns[k].op in MULOPS:
                t = max(t, mul_free)
            return t
        def delta(k):
            ins = insns[k]
            d = 1 if (ins.dst is not None and ins.dst.startswith("%")) else 0
            for s in dict.fromkeys(ins.srcs):
                if s.startswith("%") and uses[s] == ins.srcs.count(s):
                    d -= 1
            return d
        okc = [k for k in cands if live + delta(k) <= maxlive]
        if okc:
            cands = okc
        else:
            cands = [min(cands, key=lambda k: (delta(k), k))]
        now = [k for k in cands if t_of(k) <= cycle]
        if now:
            # the multiplier is the scarce resource: feed it whenever it is free
            k = max(now, key=lambda k: (insns[k].op in MULOPS, prio[k], -k))
        else:
            k = min(cands, key=lambda k: (t_of(k), -prio[k], k))
            cycle = t_of(k)
        ready.discard(k)
        done[k] = True
        live += delta(k)
        for s_ in insns[k].srcs:
            if s_.startswith("%"):
                uses[s_] -= 1
        order.append(k)
        if insns[k].op in MULOPS:
            mul_free = cycle + insns[k].lat
        for s, lat in succ[k]:
            earliest[s] = max(earliest[s], cycle + lat)
            npred[s] -= 1
            if npred[s] == 0:
                ready.add(s)
        cycle += 1
    return [insns[k] for k in order], cycle


def allocate(seq, bound, pool=POOL):
    """Linear-scan register assignment over the scheduled sequence.
    bound: dict virtual -> physical for live-in values (the arguments)."""
    last_use = {}
    for k, ins in enumerate(seq):
        for s in ins.srcs:
            last_use[s] = k
        if ins.dst is not None and ins.dst not in last_use:
            last_use[ins.dst] = k
    phys = dict(bound)
    free = [r for r in pool if r not in bound.values()]
    used = set(bound.values())
    out = []
    for k, ins in enumerate(seq):
        srcp = []
        for s in ins.srcs:
            if s.startswith("%"):
                if s not in phys:
                    raise RuntimeError("use before definition: " + s)
                srcp.append(phys[s])
            else:
                srcp.append(s)
        pre = ""
        tied = ins.srcs[ins.tie] if ins.tie is not None else None
        # free sources whose last use is here (dst may reuse them)
        for s in dict.fromkeys(ins.srcs):
            if s.startswith("%") and last_use.get(s) == k and s in phys and s != tied:
                free.insert(0, phys.pop(s))
        d = ins.dst
        dp = None
        if tied is not None:
            if last_use.get(tied) == k:
                dp = phys.pop(tied)
            else:
                if not free:
                    raise RuntimeError("out of registers at %d: %s" % (k, ins.fmt))
                cand = [r for r in free if r not in srcp]
                if not cand:
                    raise RuntimeError("out of registers at %d: %s" % (k, ins.fmt))
                dp = cand[0]
                free.remove(dp)
                used.add(dp)
                pre = "mv %s, %s\n\t" % (dp, phys[tied])
            phys[d] = dp
            if last_use.get(d) == k:
                free.insert(0, phys.pop(d))
        elif d is not None:
            if d.startswith("%"):
                if d in phys:
                    dp = phys[d]
                else:
                    if not free:
                        raise RuntimeError("out of registers at %d: %s" % (k, ins.fmt))
                    dp = free.pop(0)
                    phys[d] = dp
                    used.add(dp)
                if last_use.get(d) == k:  # dead value
                    free.insert(0, phys.pop(d))
            else:
                dp = d
        text = pre + ins.fmt.format(d=dp, **{"s%d" % j: r for j, r in enumerate(srcp)})
        out.append(text)
    return out, used


def function(name, body_lines, used, frame_extra=0, comment=""):
    """Wrap scheduled body in a function. frame_extra bytes at 0(sp) are for the kernel."""
    saves = [r for r in CALLEE if r in used]
    frame = frame_extra + 4 * len(saves)
    frame = (frame + 15) & ~15
    L = []
    if comment:
        L += ["/* " + c + " */" for c in comment.splitlines()]
    L += ["\t.text", "\t.globl %s" % name, "\t.type %s, @function" % name, "\t.p2align 2",
          "%s:" % name]
    if frame:
        L.append("\taddi sp, sp, -%d" % frame)
    for j, r in enumerate(saves):
        L.append("\tsw %s, %d(sp)" % (r, frame_extra + 4 * j))
    L += ["\t" + x for x in body_lines]
    for j, r in enumerate(saves):
        L.append("\tlw %s, %d(sp)" % (r, frame_extra + 4 * j))
    if frame:
        L.append("\taddi sp, sp, %d" % frame)
    L += ["\tret", "\t.size %s, .-%s" % (name, name), ""]
    return "\n".join(L)


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
