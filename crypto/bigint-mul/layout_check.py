#!/usr/bin/env python3
"""I-cache conflicts of the straight-line bigint kernels in a linked program.

A kernel chain longer than one way of the E31 I-cache (16 KiB, 2 ways, 32-byte lines: 8 KiB per
way) fills both ways of the sets it wraps onto; if the caller's lines (the measuring loop, the
dispatcher) also map there, every call misses on them again.  This lists, for each fixed-size
chain (kf_mul<n> with its half-size kernel, cfx_mul<n>), the lines beyond two per set.

usage: python3 crypto/bigint-mul/layout_check.py SPEED_ELF   (exit 1 if any chain conflicts)
"""
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

LINE, WAYS, SIZE = 32, 2, 16384
SETS = SIZE // WAYS // LINE
CALLERS = ["rvlab_speed", "bigint_mul", "best_kar", "best_pad"]   # those present are counted

_spec = importlib.util.spec_from_file_location("kf_gen", Path(__file__).resolve().parent / "karatsuba-fixed" / "gen.py")
_kf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_kf)


def functions(elf):
    """name -> (address, size) of the program's functions."""
    out = subprocess.run(["riscv64-unknown-elf-nm", "-S", str(elf)], capture_output=True, text=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        p = line.split()
        if len(p) == 4 and p[2] in "tT":
            syms[p[3]] = (int(p[0], 16), int(p[1], 16))
    return syms


def excess_lines(syms, names):
    """Lines beyond WAYS per set when all of `names` are cached together."""
    per_set = {}
    for name in names:
        addr, size = syms[name]
        for line in range(addr // LINE, (addr + max(size, 1) - 1) // LINE + 1):
            per_set.setdefault(line % SETS, set()).add(line)
    return sum(len(v) - WAYS for v in per_set.values() if len(v) > WAYS)


def chains(syms):
    """n -> the kernels a call with n limbs runs, for every fixed-size kernel in the program."""
    out = {}
    for name in syms:
        m = re.fullmatch(r"(kf|cfx)_mul(\d+)", name)
        if m:
            n = int(m.group(2))
            base = _kf.BASE.get(n, "inline") if m.group(1) == "kf" else "inline"
            out[name] = [name] + ([base] if base != "inline" and base in syms else [])
    return out


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    syms = functions(argv[1])
    callers = [c for c in CALLERS if c in syms]
    bad = {k: x for k, c in sorted(chains(syms).items()) if (x := excess_lines(syms, callers + c))}
    for k, x in bad.items():
        print(f"{k}: {x} lines beyond {WAYS} per set (with {', '.join(callers)})")
    if not bad:
        print(f"no I-cache conflicts in {len(chains(syms))} chains")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
