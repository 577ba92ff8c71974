"""Static constant-time audit of the generated straight-line kernels.

Checks, for each .S given: no branch or jump except the final `ret`; no DIV/REM (the only
variable-latency instructions of the E31); every load/store address is an argument pointer
(a0/a1/a2 as passed in) or sp plus a constant -- a register that has been written since entry
is no longer a pointer, so no address can depend on data. Independent of rvsim's dynamic
taint checker (which decides the `constant_time` record); this one needs no simulator.
usage: python3 ct_audit.py FILE.S [...]; exit status 1 if any file fails.
"""
import re
import sys

BRANCH = re.compile(r"^(beq|bne|blt|bge|bltu|bgeu|beqz|bnez|blez|bgez|bltz|bgtz|j|jal|jr|jalr|call|tail)$")
VARLAT = re.compile(r"^(div|divu|rem|remu)$")
MEM = re.compile(r"^(lw|lh|lhu|lb|lbu|sw|sh|sb)$")


def audit(path):
    errs = []
    ptr = {"a0", "a1", "a2", "sp"}
    lines = [l.split("/*")[0].strip() for l in open(path)]
    body = [l for l in lines if l and not l.startswith((".", "#")) and not l.endswith(":")]
    for n, l in enumerate(body):
        op, _, rest = l.partition(" ")
        args = [a.strip() for a in rest.split(",")] if rest else []
        if op == "ret":
            if n != len(body) - 1:
                errs.append("ret before the end: " + l)
            continue
        if BRANCH.match(op):
            errs.append("branch/jump: " + l)
        if VARLAT.match(op):
            errs.append("variable-latency instruction: " + l)
        if MEM.match(op):
            m = re.match(r"^-?\d+\((\w+)\)$", args[1])
            if not m or m.group(1) not in ptr:
                errs.append("data-dependent address: " + l)
            if op.startswith("l") and args[0] in ptr and args[0] != "sp":
                ptr.discard(args[0])
            continue
        if args:
            d = args[0]
            if d == "sp" and op == "addi":
                continue
            ptr.discard(d)
    return errs


bad = 0
for f in sys.argv[1:]:
    e = audit(f)
    print("%-60s %s" % (f, "ok" if not e else "FAIL"))
    for x in e[:10]:
        print("   ", x)
    bad |= bool(e)
sys.exit(bad)
