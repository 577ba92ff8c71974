#!/usr/bin/env python3
"""Markdown tables of the bigint measurements for NOTES.md, from the bench records.

usage: python3 crypto/bigint-mul/tables.py [BENCH_JSON]   (default: results/bench.json)

Prints, per multiplier latency found: multiplication cycles by limb count (every impl, with
10n^2 = two 5-cycle multiplies per limb product) and at equal integer size; then, at latency 5,
addition/normalisation cycles by limb count and at equal integer size, and the sizes.  Exit status 1 with a message on a missing or malformed file.
"""
import sys
from pathlib import Path

from plot import ROOT, load, series

MUL_COLS = [("schoolbook", "sb"), ("schoolbook-carry", "sb-carry"), ("schoolbook-reduced", "sb-red"),
            ("karatsuba", "kar"), ("karatsuba-carry", "kar-carry"), ("karatsuba-reduced", "kar-red"),
            ("comba", "comba"), ("comba-carry", "comba-carry"), ("comba-fixed", "comba-fixed"),
            ("karatsuba-rec", "kar-rec"), ("karatsuba-fixed", "kar-fixed"), ("best", "best")]
MUL_ROWS = (2, 4, 6, 7, 8, 10, 12, 14, 16, 18, 20, 22, 24, 28, 30, 32, 40, 48, 64, 96, 128)
ADD_ROWS = (2, 4, 8, 12, 16, 20, 24, 28, 32)


def fmt(v):
    return "—" if v is None else f"{v:,}"


def table(head, rows):
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---:" for _ in head) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()


def main(argv):
    recs = load(Path(argv[1]) if len(argv) > 1 else ROOT / "results" / "bench.json")
    for lat in sorted({r.get("mul_latency") for r in recs if r.get("core") == "e31"}, key=str):
        rs = [r for r in recs if r.get("core") == "e31" and r.get("mul_latency") == lat]
        mul = {k: dict(v) for k, v in series(rs, "bigint-mul", "mul", "limbs").items()}
        cols = [(k, h) for k, h in MUL_COLS if k in mul]
        print(f"#### multiplication, e31, multiplier latency {lat}: cycles (n x n limbs)\n")
        table(["n", "10n²"] + [h for _, h in cols],
              [[str(n), fmt(10 * n * n)] + [fmt(mul[k].get(n)) for k, _ in cols] for n in MUL_ROWS])
        bits = {k: dict(v) for k, v in series(rs, "bigint-mul", "mul_bits", "bits").items()}
        if bits:
            cols_b = [(k, h) for k, h in MUL_COLS if k in bits]
            widths = sorted({b for v in bits.values() for b in v})
            print(f"#### multiplication at equal integer size, latency {lat} "
                  "(reduced radix: limb count and k from speed.c)\n")
            table(["bits"] + [h for _, h in cols_b], [[str(b)] + [fmt(bits[k].get(b)) for k, _ in cols_b]
                                                     for b in widths])
    rs = [r for r in recs if r.get("core") == "e31" and r.get("mul_latency") == 5] or recs
    add = {k: dict(v) for k, v in series(rs, "bigint-add", "add", "limbs").items()}
    norm = {k: dict(v) for k, v in series(rs, "bigint-add", "normalize", "limbs").items()}.get("reduced", {})
    if add:
        print("#### addition, e31: cycles (no multiplies: the latency does not matter)\n")
        full = add.get("full", {})
        table(["n", "full", "carry", "reduced", "full - 4n (seed estimate for carry)", "normalize (radix 2^28)"],
              [[str(n), fmt(full.get(n)), fmt(add.get("carry", {}).get(n)), fmt(add.get("reduced", {}).get(n)),
                fmt(full[n] - 4 * n if n in full else None), fmt(norm.get(n))] for n in ADD_ROWS])
        addb = {k: dict(v) for k, v in series(rs, "bigint-add", "add_bits", "bits").items()}
        if addb:
            print("#### addition at equal integer size, e31\n")
            table(["bits", "full (bits/32 limbs)", "carry", "reduced, k = 28, add + normalize (ceil(bits/28) limbs)"],
                  [[str(b), fmt(addb.get("full", {}).get(b)), fmt(addb.get("carry", {}).get(b)),
                    fmt(addb.get("reduced", {}).get(b))] for b in sorted({b for v in addb.values() for b in v})])
    sizes(rs)
    return 0


def sizes(rs):
    """Code and static bytes of each implementation and its stack at n = 8 / 32 / 128 (mul) or
    n = 32 (add)."""
    code, static, stack = {}, {}, {}
    for r in rs:
        if r["primitive"] in ("bigint-add", "bigint-mul") and r.get("operation") in ("add", "mul"):
            name = f"{r['primitive']}/{r['impl']}"
            code[name] = r.get("code_bytes")
            static[name] = r.get("static_bytes")
            stack.setdefault(name, {})[r.get("limbs")] = r.get("stack_bytes")
    if not code:
        return
    print("#### sizes\n")
    table(["impl", "code bytes", "static bytes", "stack bytes at n = 8 / 32 / 128"],
          [[name, fmt(code[name]), fmt(static[name]), " / ".join(fmt(stack[name].get(n)) for n in (8, 32, 128)
                                                                 if n in stack[name])]
           for name in sorted(code)])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
