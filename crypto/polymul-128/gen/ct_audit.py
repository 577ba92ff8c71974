"""Static constant-time audit of the generated straight-line kernels.

Checks, for each .S given: no branch or jump except the final `ret` (and direct calls to a
fixed symbol, as the Karatsuba glue makes); no DIV/REM (the only
variable-latency instructions of the E31); every load/store address is an argument pointer
(a0/a1/a2 as passed in) or sp plus a constant -- a register that has been written since entry
is no longer a pointer (unless it is reloaded from the stack slot a pointer was spilled to),
so no address can depend on data. Independent of rvsim's dynamic
taint checker (which decides the `constant_time` record); this one needs no simulator.
usage: python3 ct_audit.py FILE.S [...]; exit status 1 if any file fails.
"""
import re
import sys

BRANCH = re.compile(r"^(beq|bne|blt|bge|bltu|bgeu|beqz|bnez|blez|bgez|bltz|bgtz|j|jal|jr|jalr|call|tail)$")
VARLAT = re.compile(r"^(div|divu|rem|remu)$")
MEM = re.compile(r"^(lw|lh|lhu|lb|lbu|sw|sh|sb)$")


def audit_function(body):
    errs = []
    ptr = {"a0", "a1", "a2", "sp"}
    slots = set()          # sp offsets that hold a spilled argument pointer
    for n, l in enumerate(body):
        op, _, rest = l.partition(" ")
        args = [a.strip() for a in rest.split(",")] if rest else []
        if op == "ret":
            if n != len(body) - 1:
                errs.append("ret before the end: " + l)
            continue
        if op == "call" and len(args) == 1 and re.match(r"^[A-Za-z_]\w*$", args[0]):
            # direct call to a fixed symbol (the Karatsuba glue): not data dependent; the
            # callee is audited on its own. Caller-saved registers are dead afterwards.
            ptr -= {r for r in ptr if r[0] in "at"}
            continue
        if BRANCH.match(op):
            errs.append("branch/jump: " + l)
        if VARLAT.match(op):
            errs.append("variable-latency instruction: " + l)
        if MEM.match(op):
            m = re.match(r"^-?\d+\((\w+)\)$", args[1])
            if not m or m.group(1) not in ptr:
                errs.append("data-dependent address: " + l)
            base_off = args[1]
            if op.startswith("s") and m and m.group(1) == "sp":
                if args[0] in ptr:
                    slots.add(base_off)
                else:
                    slots.discard(base_off)
            if op.startswith("l"):
                if m and m.group(1) == "sp" and base_off in slots:
                    ptr.add(args[0])          # reloading a spilled pointer
                elif args[0] != "sp":
                    ptr.discard(args[0])
            continue
        if args:
            d = args[0]
            if d == "sp" and op == "addi":
                continue
            if (op == "mv" or op == "addi") and args[1] in ptr:
                ptr.add(d)                    # pointer plus a constant
                continue
            ptr.discard(d)
    return errs


def audit(path):
    """audit every function (a label followed by straight-line code ending in ret)"""
    errs, body, name = [], [], None
    for raw in open(path):
        l = raw.split("/*")[0].split("#")[0].strip()   # comments: /* */ and #
        if not l or l.startswith((".", "#")):
            continue
        if l.endswith(":"):
            if body:
                errs += ["%s: %s" % (name, e) for e in audit_function(body)]
            name, body = l[:-1], []
            continue
        body.append(l)
    if body:
        errs += ["%s: %s" % (name, e) for e in audit_function(body)]
    return errs


bad = 0
for f in sys.argv[1:]:
    e = audit(f)
    print("%-60s %s" % (f, "ok" if not e else "FAIL"))
    for x in e[:10]:
        print("   ", x)
    bad |= bool(e)
sys.exit(bad)
