#!/usr/bin/env python3
"""Seed 004 Table 5, regenerated: the instruction mix of one 128-bit multiplication.

For each 128-bit implementation (lut, lut-x, ct, ct-comb, ct-x) this builds two drivers that make
two calls through identical call sites -- `polymul_128` then `polymul_128` again, or then an
empty function (`ret` only) -- runs both on rvsim (--json) and takes the difference of the
per-mnemonic counts plus the empty function's `ret`: exactly one kernel call, prologue, epilogue
and `ret` included, the caller's argument set-up and `jal` excluded. The seed's own counts are
printed next to ours, and under our cycles those `rvlab bench` measured for the same kernels
(BENCH_JSON, the e31 records at the same multiplier latency), so both figures come from the
run the report is made from.

    python3 crypto/polymul-128/table5.py [BENCH_JSON [OUT_DIR]] [--out FILE] [--static]
    (defaults: results/bench.json, results/ -> results/polymul_table5.md)

`rvlab report` (and so `rvlab bench` and `make bench`) runs this script on the bench file it
reports, with the report's directory as OUT_DIR.

--static (or no rvsim binary yet) counts the disassembled kernel instead: the kernels are
straight-line code (no branch, no loop), so every instruction executes exactly once and the
static count equals the dynamic one; the output says which method produced it.
rvsim and objdump name machine instructions: the seed's pseudo-instructions `li`/`mv` appear
as addi/lui, `j` as jal.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT))

from rvlab import build as rb            # noqa: E402
from rvlab import runner as rr           # noqa: E402
from rvlab.manifest import ManifestError, load_manifest  # noqa: E402
from rvlab.optable import bench_records, write_table  # noqa: E402

# seed 004, Table 5 (instruction counts of the 128-bit kernels; "w" = with the proposed
# instructions). Columns: LUT, LUT^w, Secure (branch), Secure^w.
SEED = {
    "slli": (69, 20, 249, 32), "srli": (86, 62, 248, 248), "or": (65, 16, 217, 0),
    "xor": (215, 215, 1024, 1024), "mul": (32, 0, 0, 0), "add": (32, 0, 128, 0),
    "addi": (4, 4, 4, 4), "lw": (181, 181, 22, 22), "sw": (101, 101, 22, 22),
    "and": (0, 0, 128, 0), "andi": (28, 4, 0, 0), "li": (12, 12, 9, 9), "mv": (1, 1, 2, 2),
    "bnez": (0, 0, 128, 0), "j": (0, 0, 256, 256), "srliandi": (0, 24, 0, 0),
    "muladd": (0, 32, 0, 0), "sllior": (0, 49, 0, 217), "andbnexadd": (0, 0, 0, 128),
}
SEED_TOTAL = (826, 721, 2437, 1964)
IMPLS = [("lut", "LUT"), ("lut-x", "LUT^w"), ("ct", "Secure"), ("ct-comb", "Secure"), ("ct-x", "Secure^w")]
MUL_LATENCY = 5          # the E31's (rvsim's default); the bench row uses the records of this latency

DRIVER = r"""
#include <stdint.h>
void polymul_128(uint32_t r[8], const uint32_t a[4], const uint32_t b[4]);
void table5_empty(uint32_t r[8], const uint32_t a[4], const uint32_t b[4]);
__asm__(".text\n.globl table5_empty\ntable5_empty:\n ret\n");
static uint32_t a[4] = {0x01234567u, 0x89abcdefu, 0xfedcba98u, 0x76543210u};
static uint32_t b[4] = {0xdeadbeefu, 0x0badf00du, 0x8badf00du, 0xcafebabeu};
static uint32_t r[8];
int main(void)
{
    polymul_128(r, a, b);
    SECOND(r, a, b);
    return (int)(r[0] & 0);
}
"""

# custom-2 (0x5B) xpolymul encodings, for the static count (objdump prints them as .4byte)
CUSTOM2 = {0: "srliandi", 1: "sllior", 2: "muladd", 3: "andbnexadd"}
CYCLES = {}


def impl_of(name):
    return load_manifest(HERE / name / "manifest.toml", [HERE.parent])


def rvsim_mix(impl) -> collections.Counter:
    kobjs = rb.kernel_objects(impl)
    bd = rb.impl_build_dir(impl) / "table5"
    bd.mkdir(parents=True, exist_ok=True)
    src = bd / "driver.c"
    src.write_text(DRIVER)
    mixes, cyc = [], []
    for reps, second in ((1, "table5_empty"), (2, "polymul_128")):
        obj = rb._compile(src, bd / f"driver{reps}.o", [f"-march={rb.HARNESS_MARCH}", "-O1", f"-DSECOND={second}"]
                          + rb.COMMON, [], "table5 driver")
        elf = rb._link([obj] + kobjs, bd / f"driver{reps}.elf", "table5 driver link")
        js = bd / f"driver{reps}.json"
        cmd = rr.rvsim_cmd(elf, impl.run_isa, mul_latency=MUL_LATENCY, json_out=js)
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            raise SystemExit(f"table5: rvsim failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr}")
        j = json.loads(js.read_text())
        mixes.append(collections.Counter(j["mnemonics"]))
        cyc.append(j.get("functions", {}).get("polymul_128", {}).get("cycles"))
    # cycles of the second (I-cache warm) call: polymul_128's cycles in the 2-call run minus the 1-call run
    CYCLES[impl.impl] = cyc[1] - cyc[0] if None not in cyc else None
    d = mixes[1]
    d.subtract(mixes[0])
    d["jalr"] += 1          # the empty function's ret that the subtraction removed
    if any(v < 0 for v in d.values()):
        raise SystemExit(f"table5: negative counts in the difference for {impl.name}: {dict(d)}")
    return collections.Counter({k: v for k, v in d.items() if v})


def static_mix(impl) -> collections.Counter:
    kobjs = rb.kernel_objects(impl)
    out = subprocess.run(["riscv64-unknown-elf-objdump", "-d", "-M", "no-aliases"] + [str(o) for o in kobjs],
                         capture_output=True, text=True, check=True).stdout
    mix = collections.Counter()
    for line in out.splitlines():
        m = re.match(r"^\s+[0-9a-f]+:\s+([0-9a-f]+)\s+(\S+)", line)
        if not m:
            continue
        word, mn = int(m.group(1), 16), m.group(2)
        if mn == ".4byte" or mn == ".word":
            if word & 0x7F == 0x5B:
                mn = CUSTOM2.get((word >> 12) & 7, "custom-2?")
        mix[mn.replace("c.", "")] += 1
    return mix


def bench_cycles(path: Path) -> dict:
    """{impl: cycles} of the polymul-128 `mul` records (e31, MUL_LATENCY) in a bench file;
    {} when the file is missing (a malformed one is an error)."""
    return {r.get("impl"): r.get("cycles") for r in bench_records(path, "polymul-128")
            if r.get("operation") == "mul" and r.get("core") == "e31" and r.get("mul_latency") == MUL_LATENCY}


def _fmt(v) -> str:
    return "–" if v is None else f"{v:,}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bench_json", nargs="?", default=str(ROOT / "results" / "bench.json"),
                    help="bench records for the `rvlab bench` row (default results/bench.json)")
    ap.add_argument("out_dir", nargs="?", default=str(ROOT / "results"),
                    help="where polymul_table5.md is written (default results/)")
    ap.add_argument("--out", help="the output file (default OUT_DIR/polymul_table5.md)")
    ap.add_argument("--static", action="store_true", help="count the straight-line kernel, not an rvsim run")
    args = ap.parse_args()
    bench = bench_cycles(Path(args.bench_json))
    use_rvsim = rr.rvsim_available() and not args.static
    bench_name = os.path.relpath(Path(args.bench_json).resolve(), ROOT).replace(os.sep, "/")
    if bench_name.startswith(".."):
        bench_name = Path(args.bench_json).name
    mixes = {}
    for name, _ in IMPLS:
        impl = impl_of(name)
        mixes[name] = rvsim_mix(impl) if use_rvsim else static_mix(impl)
    names = list(SEED)
    extra = sorted({m for mx in mixes.values() for m in mx} - set(names))
    lines = ["# Seed 004 Table 5, regenerated: instruction mix of one 128-bit multiplication", "",
             ("Ours: per-mnemonic counts of one `polymul_128` call from rvsim (`--json`: a run with two "
              "kernel calls minus a run whose second call, from an identical call site, goes to an empty "
              "function). They equal the static counts of the straight-line kernels." if use_rvsim else
              "Ours: **static** count of the disassembled kernels (rvsim was not available when this "
              "file was written; the kernels are straight-line code, so each instruction runs once "
              "per call). Regenerate with rvsim: `python3 crypto/polymul-128/table5.py`."),
             "Machine mnemonics (`li`/`mv` are addi/lui, `j` is jal; `ret` is jalr). "
             "Seed columns are the paper's (its Secure = the branch-based method, ours = `ct`, "
             "the MUL-based constant-time method; `ct-comb` is the masked comb without MUL, the closest "
             "analogue of the seed's method and the algorithm `ct-x` accelerates).", "",
             "| instruction | seed LUT | seed LUT^w | seed Secure | seed Secure^w | lut | lut-x | ct | ct-comb | ct-x |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for mn in names + extra:
        s = SEED.get(mn, ("", "", "", ""))
        ours = [mixes[n].get(mn, 0) for n, _ in IMPLS]
        lines.append("| %s | %s | %s |" % (mn, " | ".join(str(x) for x in s),
                                          " | ".join(str(x) for x in ours)))
    tot = [sum(mixes[n].values()) for n, _ in IMPLS]
    lines.append("| **total** | %s | %s |" % (" | ".join(str(x) for x in SEED_TOTAL),
                                              " | ".join(str(x) for x in tot)))
    if use_rvsim:
        lines.append("| *e31 cycles, the call alone (rvsim per-function, warm call)* | *1,026 (silicon, Table 6)* |  "
                     "| *1,989 (silicon)* |  | %s |" % " | ".join(_fmt(CYCLES.get(n)) for n, _ in IMPLS))
    lines.append("| *e31 cycles, `rvlab bench` (%s)* |  |  |  |  | %s |"
                 % (bench_name, " | ".join(_fmt(bench.get(n)) for n, _ in IMPLS)))
    red = lambda a, b: "%.1f%%" % (100.0 * (a - b) / a)
    lines += ["", "Reduction by the proposed instructions: seed LUT %s, seed Secure %s; "
              "ours lut -> lut-x %s, ct-comb -> ct-x %s."
              % (red(SEED_TOTAL[0], SEED_TOTAL[1]), red(SEED_TOTAL[2], SEED_TOTAL[3]),
                 red(tot[0], tot[1]), red(tot[3], tot[4])), "",
              "Cycles at multiplier latency %d. The call alone is `polymul_128`'s own cycles in rvsim's "
              "per-function counts (second call of the driver, I-cache warm); `rvlab bench` times the "
              "call site with `rdcycle` (empty measurement subtracted), so it includes the argument set-up "
              "and the `jal` (4 instructions), and a stall at the boundary may fall on either side."
              % MUL_LATENCY, ""]
    out = Path(args.out) if args.out else Path(args.out_dir) / "polymul_table5.md"
    write_table(out.parent, out.name, lines)


if __name__ == "__main__":
    try:
        main()
    except (ManifestError, rb.BuildError, OSError, ValueError, KeyError) as e:
        sys.exit(f"table5: error: {e}")
