#!/usr/bin/env python3
"""Where one compression's instructions go, for sha256, sha512 and sm3: per implementation
the executed instructions by mnemonic and by part of the kernel (loads, rounds, schedule,
state update, frame), and what each extension removes.

For each implementation this builds two drivers with identical call sites -- the compression
of one block, then either the same call again or a call to an empty function -- runs both on
rvsim (`--core ideal --json`) and takes the difference: exactly one `compress` call (the
`compress` record's work) by mnemonic (rvsim's counts) and by part (rvsim's per-function
counts; the kernels mark their parts with local function symbols).  The `compress` records
of BENCH_JSON (ideal and e31, where present) are printed under them.

    python3 crypto/sha256/optable.py [BENCH_JSON [OUT_DIR]]
    (defaults: results/bench.json, results/ -> results/{sha256,sha512,sm3}_optable.md)
"""
from __future__ import annotations

import argparse
import collections
import json
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

PRIMS = {"sha256": ["rv32i", "zbkb", "zknh"], "sha512": ["rv32i", "zbkb", "zknh"],
         "sm3": ["rv32i", "zbkb", "zksh"]}
BLOCK = {"sha256": 64, "sha512": 128, "sm3": 64}
# published arithmetic-only instruction counts (reference/published.csv, lwsha_isa)
LWSHA = {"sha256": ("zknh", 1200), "sha512": ("zknh", 4544), "sm3": ("zksh", 1788)}
# mnemonic classes, in table order; lwsha_isa counts the "arithmetic" ones only
CLASSES = [
    ("loads, stores", {"lw", "sw", "lbu"}, False),
    ("adds", {"add"}, True),
    ("carries (sltu)", {"sltu"}, True),
    ("logic (xor, and, or)", {"xor", "and", "or", "andn"}, True),
    ("shifts (slli, srli)", {"slli", "srli"}, True),
    ("rotations (rori)", {"rori"}, True),
    ("hash instructions", None, True),          # sha256*, sha512*, sm3p*
    ("byte order (rev8, pack, packh)", {"rev8", "pack", "packh"}, False),
    ("loop, frame, calls (addi, branches, jumps, la)", {"addi", "andi", "beq", "bne", "bnez", "beqz",
                                                        "jal", "jalr", "auipc", "lui"}, False),
]

DRIVER = r"""
#include <stddef.h>
#include <stdint.h>
void COMPRESS(void *state, const uint8_t *in, size_t nblocks);
void optable_empty(void *state, const uint8_t *in, size_t nblocks);
__asm__(".text\n.globl optable_empty\noptable_empty:\n ret\n");
static uint64_t st[8];
static uint8_t blk[128] __attribute__((aligned(4)));
int main(void)
{
    for (int i = 0; i < 128; i++)
        blk[i] = (uint8_t)(37 * i + 1);
    COMPRESS(st, blk, 1);
    SECOND(st, blk, 1);
    return (int)(st[0] & 0);
}
"""


def one_call(prim, name):
    """({mnemonic: count}, {part: instructions}) of one compress call on rvsim's ideal core"""
    impl = load_manifest(HERE.parent / prim / name / "manifest.toml", [HERE.parent])
    kobjs = rb.kernel_objects(impl)
    bd = rb.impl_build_dir(impl) / "optable"
    bd.mkdir(parents=True, exist_ok=True)
    src = bd / "driver.c"
    src.write_text(DRIVER)
    fn = f"{prim}_compress"
    runs = []
    for reps, second in ((1, "optable_empty"), (2, fn)):
        obj = rb._compile(src, bd / f"driver{reps}.o", [f"-march={rb.HARNESS_MARCH}", "-O1",
                          f"-DCOMPRESS={fn}", f"-DSECOND={second}"] + rb.COMMON, [], "optable driver")
        elf = rb._link([obj] + kobjs, bd / f"driver{reps}.elf", "optable driver link")
        js = bd / f"driver{reps}.json"
        cmd = rr.rvsim_cmd(elf, impl.run_isa, core="ideal", json_out=js)
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            raise SystemExit(f"optable: rvsim failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr}")
        runs.append(json.loads(js.read_text()))
    mix = collections.Counter(runs[1]["mnemonics"])
    mix.subtract(runs[0]["mnemonics"])
    mix["jalr"] += 1                          # the empty function's ret that the subtraction removed
    parts = {}
    f0, f1 = dict(runs[0]["functions"]), dict(runs[1]["functions"])
    for part, v in f1.items():
        n = v["instret"] - f0.get(part, {}).get("instret", 0)
        if part.startswith(prim + "_") and n:
            parts[part] = n
    if any(v < 0 for v in mix.values()):
        raise SystemExit(f"optable: negative counts for {impl.name}: {dict(mix)}")
    return collections.Counter({k: v for k, v in mix.items() if v}), parts


def classify(mix):
    out = collections.Counter()
    for mn, n in mix.items():
        for label, names, _ in CLASSES:
            if names is None and mn.startswith(("sha256", "sha512", "sm3")) or names and mn in names:
                out[label] += n
                break
        else:
            out[f"other ({mn})"] += n
    return out


def bench_records(path):
    try:
        recs = json.loads(Path(path).read_text())
    except FileNotFoundError:
        return {}
    return {(r["primitive"], r["impl"], r["core"]): r["cycles"] for r in recs
            if isinstance(r, dict) and r.get("operation") == "compress" and r.get("primitive") in PRIMS}


def table(prim, impls, bench, bench_name):
    got = {n: one_call(prim, n) for n in impls}
    cls = {n: classify(got[n][0]) for n in impls}
    labels = [c[0] for c in CLASSES] + sorted({k for c in cls.values() for k in c} - {c[0] for c in CLASSES})
    head = "| | " + " | ".join(impls) + " |"
    rule = "|---|" + "---:|" * len(impls)
    lines = [f"# {prim}: one compression ({BLOCK[prim]}-byte block), instruction by instruction", "",
             "Generated by `crypto/sha256/optable.py` from rvsim runs (ideal core: a cycle per "
             "instruction): one `compress` call, frame included.", "",
             "## By kind", "", head, rule]
    for lab in labels:
        lines.append(f"| {lab} | " + " | ".join(f"{cls[n].get(lab, 0):,}" for n in impls) + " |")
    arith = {n: sum(cls[n].get(c[0], 0) for c in CLASSES if c[2]) for n in impls}
    lines.append("| **total** | " + " | ".join(f"**{sum(cls[n].values()):,}**" for n in impls) + " |")
    lines.append("| arithmetic (the kinds lwsha_isa counts) | " + " | ".join(f"{arith[n]:,}" for n in impls) + " |")
    ref_impl, ref = LWSHA[prim]
    lines.append(f"| lwsha_isa, arithmetic only ({ref_impl}-style instructions) | "
                 + " | ".join(f"{ref:,}" if n == ref_impl else "" for n in impls) + " |")
    lines += ["", "## By part (rvsim per-function counts; the kernel's local symbols)", "", head, rule]
    parts = sorted({p for n in impls for p in got[n][1]}, key=lambda p: (p != f"{prim}_compress", p))
    for p in parts:
        label = "entry, exit, block loop" if p == f"{prim}_compress" else \
            re.sub(r"(\d+)_(\d+)", r"\1-\2", p[len(prim) + 1:]).replace("_", " ")
        lines.append(f"| {label} | " + " | ".join(f"{got[n][1].get(p, 0):,}" for n in impls) + " |")
    lines += ["", "## Mnemonics", "", head, rule]
    for mn in sorted({m for n in impls for m in got[n][0]}):
        lines.append(f"| {mn} | " + " | ".join(str(got[n][0].get(mn, 0)) for n in impls) + " |")
    for core in ("ideal", "e31"):
        row = [bench.get((prim, n, core)) for n in impls]
        if any(row):
            lines.append(f"| *`compress` record, {core} ({bench_name})* | "
                         + " | ".join("–" if v is None else f"*{v:,}*" for v in row) + " |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bench_json", nargs="?", default=str(ROOT / "results" / "bench.json"))
    ap.add_argument("out_dir", nargs="?", default=str(ROOT / "results"))
    args = ap.parse_args()
    if not rr.rvsim_available():
        raise SystemExit("optable: rvsim is not built (cd sim && cargo build --release)")
    bench = bench_records(args.bench_json)
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for prim, impls in PRIMS.items():
        text = table(prim, impls, bench, Path(args.bench_json).name)
        (out / f"{prim}_optable.md").write_text(text)
        print(text)
        print(f"wrote {out / f'{prim}_optable.md'}", file=sys.stderr)


if __name__ == "__main__":
    try:
        main()
    except (ManifestError, rb.BuildError, OSError, ValueError, KeyError) as e:
        sys.exit(f"optable: error: {e}")
