#!/usr/bin/env python3
"""I-cache conflicts of the bigint-mul kernels in a linked speed program.

The E31's I-cache (sim/README.md): 16 KiB, 2 ways, 64-byte lines, 128 sets; a miss refills a
way chosen at random (an LFSR), whatever the other way holds.  The speed program times the
second of two calls, so a line of that call's footprint that shares a set with another line of
the footprint can be evicted in the first run and miss again in the timed one (~3/4 of a
miss per such set on average).  A footprint (per bench point n) is:
  - the measuring loop of rvlab_speed that calls bigint_mul for n (from its first rdcycle to the
    branch back to it),
  - the functions the call runs: bigint_mul, the kernel the dispatch table (or compare chain)
    picks, everything that kernel calls (jal/call targets, followed), and for best the
    padding (best_pad) and recursion (best_kar) code where n goes through them.
For each footprint this lists the lines beyond one per set that are avoidable: those above
max(0, lines - 128), the unavoidable doubling of a footprint longer than one way, and the sets
holding three or more lines (never necessary below 256 lines).

For best the chains come from the linked program (its table, best_pad's entries, the calls);
for other implementations a bench point's chain is the kernel named for n (kf_mul<n> /
cfx_mul<n>) with what it calls, a diagnostic: their compare-chain dispatchers are not followed.

usage: python3 crypto/bigint-mul/layout_check.py SPEED_ELF [--all]
  prints one line per n with avoidable lines (--all: every n); exit 1 if there is one beyond
  the allowance ALLOW.  best's: n = 17 (121.4 lines of kernels, 2 more than the sets in front
  of rvlab_speed's lines), 21 (through best_pad: 6 lines on best_pad's sets), 29 and 30 (one
  set the 160-line chain leaves empty).
"""
import bisect
import collections
import re
import subprocess
import sys

LINE, SETS = 64, 128
OBJDUMP = "riscv64-unknown-elf-objdump"
NM = "riscv64-unknown-elf-nm"
MUL_N = list(range(2, 33))            # speed.c's sweeps: the "mul" loop ...
BIG_N = [40, 48, 64, 96, 128]         # ... the larger sizes ...
BITS_N = [8, 16, 32, 64]              # ... and "mul_bits" (256..2048 bits)
ALLOW = {"best": {17: 2, 21: 6, 29: 1, 30: 1}}   # avoidable lines accepted per n (usage text)


def functions(elf):
    """name -> (address, size) of the program's functions (sized text symbols)."""
    out = subprocess.run([NM, "-S", str(elf)], capture_output=True, text=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        p = line.split()
        if len(p) == 4 and p[2] in "tT":
            syms[p[3]] = (int(p[0], 16), int(p[1], 16))
    return syms


def disassembly(elf, syms):
    """name -> [(pc, mnemonic, operands)] of the program's sized functions (objdump starts a
    new block at every label; the instructions are sorted into the symbols' ranges)."""
    out = subprocess.run([OBJDUMP, "-d", "--no-show-raw-insn", str(elf)], capture_output=True,
                         text=True, check=True).stdout
    insns = []
    for line in out.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if m:
            insns.append((int(m.group(1), 16), m.group(2), m.group(3)))
    insns.sort()
    pcs = [i[0] for i in insns]
    funcs = {}
    for name, (addr, size) in syms.items():
        lo, hi = bisect.bisect_left(pcs, addr), bisect.bisect_left(pcs, addr + size)
        funcs[name] = insns[lo:hi]
    return funcs


def lines_of(addr, size):
    return set(range(addr // LINE, (addr + max(size, 1) - 1) // LINE + 1))


def avoidable(fp):
    """(avoidable lines, sets with three or more lines) of a footprint (a set of line numbers):
    the lines beyond one per set, less the max(0, lines - 128) any placement doubles."""
    per = collections.Counter(x % SETS for x in fp)
    extra = sum(c - 1 for c in per.values() if c > 1)
    return extra - max(0, len(fp) - SETS), sum(1 for c in per.values() if c > 2)


def loops(dis):
    """The measuring loops of rvlab_speed in program order: lines from the rdcycle before each
    call of bigint_mul to the branch back to it."""
    code = dis["rvlab_speed"]
    out = []
    for i, (pc, op, args) in enumerate(code):
        if op in ("jal", "call") and "<bigint_mul>" in args:
            start = max(p for p, o, _ in code[:i] if o == "rdcycle")
            end = next(p for p, o, a in code[i:] if o.startswith("b") and f"{start:x}" in a.split(",")[-1])
            out.append(lines_of(start, end + 4 - start))
    return out


def callees(dis, syms, name, seen):
    """name and every function it calls (direct jal/call, tail jumps into other functions)."""
    if name in seen or name not in syms:
        return seen
    seen.add(name)
    for pc, op, args in dis.get(name, []):
        m = re.search(r"<([^>+]+)(\+0x[0-9a-f]+)?>", args)
        if m and op in ("jal", "j", "call", "tail", "beq", "bne", "blt", "bge", "bltu", "bgeu", "beqz", "bnez"):
            target = m.group(1)
            if target != name and target in syms and target != "bigint_mul":
                callees(dis, syms, target, seen)
    return seen


def table(elf, syms, sym, entries):
    """the words of a dispatch table in the data section, as symbol names"""
    out = subprocess.run([OBJDUMP, "-s", "-j", ".data", str(elf)], capture_output=True, text=True, check=True).stdout
    data = {}
    for line in out.splitlines():
        m = re.match(r"^ ([0-9a-f]{8}) ((?:[0-9a-f]{2,8} ?){1,4})", line)
        if m:
            base = int(m.group(1), 16)
            blob = bytes.fromhex(m.group(2).replace(" ", ""))
            for k in range(len(blob)):
                data[base + k] = blob[k]
    names = {a: n for n, (a, s) in syms.items()}
    nm = subprocess.run([NM, str(elf)], capture_output=True, text=True, check=True).stdout
    at = next(int(x.split()[0], 16) for x in nm.splitlines() if x.strip() and x.split()[-1] == sym)
    words = [int.from_bytes(bytes(data[at + 4 * i + k] for k in range(4)), "little") for i in range(entries)]
    out = []
    for w in words:
        if w in names:
            out.append(names[w])
        else:    # an entry inside a function (best_pad's per-m entries): the function holding it
            out.append(next((n for n, (a, s) in syms.items() if a <= w < a + s), hex(w)))
    return out, words


def best_chains(elf, syms, dis):
    """n -> functions a call of best's bigint_mul with n limbs runs"""
    tab, words = table(elf, syms, "best_table", 33)
    # best_pad's entries: "li t1, m" at the entry address
    padm = {}
    for pc, op, args in dis.get("best_pad", []):
        if op == "li" and args.startswith("t1,"):
            padm[pc] = int(args.split(",")[1])

    def chain(n, acc):
        acc.add("bigint_mul")
        if n > 32:
            acc.add("best_kar")
            if n % 2:
                acc.add("best_pad")
                return chain(n + 1, acc)
            return chain(n // 2, acc)
        t = tab[n]
        if t == "best_pad":
            acc.add("best_pad")
            return chain(padm[words[n]], acc)
        return callees(dis, syms, t, acc)
    return {n: chain(n, set()) for n in sorted(set(MUL_N + BIG_N + BITS_N))}


def generic_chains(syms, dis):
    """n -> functions, for dispatchers that are compare chains or tables of other impls: the
    kernel named for n (kf_mul<n> / cfx_mul<n>) if there is one, with what it calls."""
    out = {}
    for n in sorted(set(MUL_N + BIG_N + BITS_N)):
        for name in (f"kf_mul{n}", f"cfx_mul{n}"):
            if name in syms:
                out[n] = callees(dis, syms, name, {"bigint_mul"})
                break
    return out


def report(elf, impl="best"):
    """[(n, loop, footprint lines, avoidable lines, sets with >= 3 lines)]"""
    syms = functions(elf)
    dis = disassembly(elf, syms)
    lp = loops(dis)
    nm = subprocess.run([NM, str(elf)], capture_output=True, text=True, check=True).stdout
    is_best = any(line.split()[-1] == "best_table" for line in nm.splitlines() if line.strip())
    chains = best_chains(elf, syms, dis) if is_best else generic_chains(syms, dis)
    out = []
    for n, fs in chains.items():
        for which, ns in (("mul", MUL_N), ("big", BIG_N), ("bits", BITS_N)):
            if n not in ns:
                continue
            loop = lp[("mul", "big", "bits").index(which)]
            fp = set(loop)
            for f in fs:
                fp |= lines_of(*syms[f])
            out.append((n, which, len(fp), *avoidable(fp), sorted(fs)))
    return out


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        print(next(x for x in __doc__.splitlines() if x.startswith("usage:")), file=sys.stderr)
        return 2
    rows = report(args[0])
    impl = "best" if any("best_pad" in r[5] for r in rows) else "other"
    bad = 0
    for n, which, size, extra, triples, fs in rows:
        over = extra > ALLOW.get(impl, {}).get(n, 0) or triples
        bad += bool(over)
        if over or extra or "--all" in argv:
            print(f"n = {n:3} ({which:4}): {size:3} lines, {extra:2} avoidable, {triples} sets with 3+"
                  f"{'  ** over the allowance' if over else ''}   [{' '.join(fs)}]")
    if not bad:
        print(f"no avoidable I-cache conflicts in {len(rows)} footprints")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
