#!/usr/bin/env python3
"""Seed 003 Table 10, regenerated for our HIGHT kernels: where one encryption's cycles go, by
operation, beside the seed's figures.

    python3 crypto/hight/optable.py [BENCH_JSON [OUT_DIR]]   (defaults: results/bench.json, results/)
    -> OUT_DIR/hight_optable.md

How: the generator tags every instruction of the kernels with its operation (`# [F lookup]`,
`# [mask]`, ...: gen.py). This script links a small driver that runs key expansion + encryption
CALLS times, runs it on rvsim with --annotate (per-instruction execution counts and stall
cycles), once with CALLS = 1 and once with CALLS = 2, and takes the difference: exactly one warm
key expansion and one warm encryption, call and return included. Each instruction's count goes to
the operation its source line is tagged with (addr2line maps addresses to lines). Counts are
instructions (= cycles on `--core ideal`, seed 003's 1-CPI model); the e31 columns add the stall
cycles rvsim charges to each instruction. `measure` is shared with crypto/tdea/optable.py.
"""
from __future__ import annotations

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

DRIVER = r"""
#include <stdint.h>
#include "api.h"
static uint32_t rk[RK_WORDS];
static uint8_t key[KEY_BYTES], in[8], out[8];
int main(void)
{
    for (int i = 0; i < KEY_BYTES; i++) key[i] = (uint8_t)(37 * i + 11);
    for (int i = 0; i < 8; i++) in[i] = (uint8_t)(91 * i + 5);
    for (volatile int c = 0; c < CALLS; c++) {
        KEYEXP(rk, key);
        ENCRYPT(out, in, rk);
    }
    return out[0] & 0;
}
"""
OTHER = "call, return"
ROW = re.compile(r"^\s*(\d+)\s+(\d+)\s+([0-9a-f]+):")
TAG = re.compile(r"#\s*\[([^\]]+)\]")


def impl_of(primitive_dir: Path, name: str):
    return load_manifest(primitive_dir / name / "manifest.toml", [primitive_dir.parent])


def _annotate(elf: Path, isa: str, core: str) -> dict[int, tuple[int, int]]:
    cmd = rr.rvsim_cmd(elf, isa, core=core)
    cmd = cmd[:-1] + ["--annotate", "40"] + cmd[-1:]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"optable: rvsim failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr[-2000:]}")
    out = {}
    for line in p.stderr.splitlines():
        m = ROW.match(line)
        if m:
            out[int(m.group(3), 16)] = (int(m.group(1)), int(m.group(2)))
    return out


def _line_tags(elf: Path, addrs: list[int]) -> dict[int, tuple[str, str]]:
    """address -> (source file name, the [tag] on its line: OTHER when the line has none)"""
    p = subprocess.run(["riscv64-unknown-elf-addr2line", "-e", str(elf)] + [hex(a) for a in addrs],
                       capture_output=True, text=True, check=True)
    tags, cache = {}, {}
    for a, loc in zip(addrs, p.stdout.splitlines()):
        path, _, num = loc.rpartition(":")
        num = num.split()[0] if num else ""
        tag = OTHER
        if path.endswith(".S") and num.isdigit() and Path(path).is_file():
            if path not in cache:
                cache[path] = Path(path).read_text().splitlines()
            m = TAG.search(cache[path][int(num) - 1])
            tag = m.group(1) if m else OTHER
        tags[a] = (Path(path).name, tag)
    return tags


def measure(impl, keyexp: str, encrypt: str, rk_words: int, key_bytes: int, kernel_file: str) \
        -> dict[str, dict[str, int]]:
    """{core: {operation tag: cycles}} of one warm key expansion + encryption (see the docstring);
    only addresses inside kernel_file count (the driver's loop is not the kernel's)."""
    kobjs = rb.kernel_objects(impl)
    bd = rb.impl_build_dir(impl) / "optable"
    bd.mkdir(parents=True, exist_ok=True)
    src = bd / "driver.c"
    src.write_text(DRIVER)
    defs = [f"-DRK_WORDS={rk_words}", f"-DKEY_BYTES={key_bytes}", f"-DKEYEXP={keyexp}", f"-DENCRYPT={encrypt}"]
    elfs = []
    for calls in (1, 2):
        obj = rb._compile(src, bd / f"driver{calls}.o",
                          [f"-march={rb.HARNESS_MARCH}", "-O1", f"-I{impl.primitive_dir}", f"-DCALLS={calls}"]
                          + defs + rb.COMMON, [], "optable driver")
        elfs.append(rb._link([obj] + kobjs, bd / f"driver{calls}.elf", "optable driver link"))
    result = {}
    for core in ("ideal", "e31"):
        one, two = (_annotate(e, impl.run_isa, core) for e in elfs)
        tags = _line_tags(elfs[1], sorted(two))
        per = collections.Counter()
        for a, (n2, s2) in two.items():
            n1, s1 = one.get(a, (0, 0))
            fname, tag = tags[a]
            if fname == kernel_file:
                per[tag] += (n2 - n1) + (0 if core == "ideal" else s2 - s1)
        result[core] = {k: v for k, v in per.items() if v}
    return result


def bench_cycles(path: Path, primitive: str) -> dict[tuple[str, str], int]:
    """{(impl, core): encrypt cycles} from a bench file ({} if it is missing)"""
    try:
        recs = json.loads(Path(path).read_text())
    except FileNotFoundError:
        return {}
    except json.JSONDecodeError as e:
        raise ValueError(f"{path} is not valid JSON: {e}") from None
    if not isinstance(recs, list):
        raise ValueError(f"{path} must hold a JSON list of records")
    return {(r.get("impl"), r.get("core")): r.get("cycles") for r in recs
            if isinstance(r, dict) and r.get("primitive") == primitive and r.get("operation") == "encrypt"}


def table(rows: list[str], seed_cols: list[str], seed: dict[str, list], impls: list[str],
          mix: dict[str, dict[str, dict[str, int]]], core: str, saved: tuple[str, str] | None) -> list[str]:
    """markdown: one row per operation; seed columns, ours per impl, and what `saved` = (base, ext) saves"""
    head = ["operation"] + [f"seed {c}" for c in seed_cols] + impls + ([f"{saved[0]} - {saved[1]}"] if saved else [])
    out = ["| " + " | ".join(head) + " |", "|" + "---|" + "---:|" * (len(head) - 1)]
    for op in rows:
        ours = [mix[i][core].get(op, 0) for i in impls]
        cells = [op] + [f"{v:,}" if isinstance(v, int) else v for v in seed.get(op, [""] * len(seed_cols))]
        cells += [f"{v:,}" if v else "–" for v in ours]
        if saved:
            cells.append(f"{mix[saved[0]][core].get(op, 0) - mix[saved[1]][core].get(op, 0):,}")
        out.append("| " + " | ".join(cells) + " |")
    return out


HIGHT_IMPLS = ["rv32i", "rv32i-ct", "zbkb"]
# seed 003 Table 10 (1-CPI simulator): the 8-bit rotations of F0/F1, rv32i and rv32i+crypto (grev)
SEED_T10 = {"8-bit rotations (seed) / F0, F1 (ours)": [1408, 1280]}
SEED_T4 = [4528, 4400]


def main():
    bench_json = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "results" / "bench.json"
    out_dir = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "results"
    bench = bench_cycles(bench_json, "hight")
    mix = {}
    for name in HIGHT_IMPLS:
        mix[name] = measure(impl_of(HERE, name), "hight_keyexp_enc", "hight_encrypt", 136, 16, "hight.S")
    for m in mix.values():                  # seed's row: the F evaluations, however done
        for core in m:
            f = m[core].pop("F lookup", 0) + m[core].pop("F0/F1 (8-bit rotations)", 0)
            m[core]["8-bit rotations (seed) / F0, F1 (ours)"] = f
    ops = ["8-bit rotations (seed) / F0, F1 (ours)", "round key load", "key add", "state update", "mask",
           "lane swap", "whitening", "io", OTHER, "keyexp"]
    lines = ["# Seed 003 Table 10, regenerated: HIGHT, where the cycles go", "",
             "One warm key expansion and one warm encryption of an 8-byte block, counted per operation by "
             "`crypto/hight/optable.py` from rvsim's per-instruction counts (`--annotate`; a run with two "
             "calls minus a run with one). Operations are the tags gen.py writes on every instruction. "
             "Seed 003 Table 10 gives only the 8-bit rotations of F0/F1 (its rv32i+crypto column uses "
             "grev); our rv32i reads F0/F1 from 1 KiB tables instead (one `lbu` each, the state bytes "
             "being table pointers), rv32i-ct and zbkb compute both F of two bytes at once by shifts.", "",
             "## Cycles on `--core ideal` (1 instruction = 1 cycle, seed 003's model)", ""]
    enc_ops = [o for o in ops if o != "keyexp"]
    lines += table(ops, ["rv32i", "rv32i+crypto"], SEED_T10, HIGHT_IMPLS, mix, "ideal", ("rv32i-ct", "zbkb"))
    tot = lambda core, i: sum(mix[i][core].get(o, 0) for o in enc_ops)
    lines.append("| **encryption (without keyexp)** | %s | %s | %s | %s |" % (
        f"{SEED_T4[0]:,}", f"{SEED_T4[1]:,}", " | ".join(f"{tot('ideal', i):,}" for i in HIGHT_IMPLS),
        f"{tot('ideal', 'rv32i-ct') - tot('ideal', 'zbkb'):,}"))
    lines.append("| *`rvlab bench` encrypt, ideal (%s)* |  |  | %s |  |" % (
        bench_json.name, " | ".join(f"{bench[(i, 'ideal')]:,}" if (i, "ideal") in bench else "–" for i in HIGHT_IMPLS)))
    lines += ["", "## Cycles on `--core e31` (instructions + the stall cycles rvsim charges to them)", ""]
    lines += table(ops, [], {}, HIGHT_IMPLS, mix, "e31", ("rv32i-ct", "zbkb"))
    lines.append("| **encryption (without keyexp)** | %s | %s |" % (
        " | ".join(f"{tot('e31', i):,}" for i in HIGHT_IMPLS), f"{tot('e31', 'rv32i-ct') - tot('e31', 'zbkb'):,}"))
    lines.append("| *`rvlab bench` encrypt, e31 (%s)* | %s |  |" % (
        bench_json.name, " | ".join(f"{bench[(i, 'e31')]:,}" if (i, "e31") in bench else "–" for i in HIGHT_IMPLS)))
    lines += ["", "The seed's 4,528 / 4,400 (Table 4) is its encryption; whether it includes the key "
              "schedule is not stated (Table 10 lists only the rotations). The last column is what Zbkb "
              "saves per operation: `rori` for the lane swap (3 instructions -> 1) and `pack` when the "
              "input bytes are paired. The bench figure includes the caller's argument set-up and `jal`.", ""]
    out = out_dir / "hight_optable.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines))
    print("\n".join(lines))
    print(f"wrote {out}", file=sys.stderr)


if __name__ == "__main__":
    try:
        main()
    except (ManifestError, rb.BuildError, OSError, ValueError, KeyError, subprocess.CalledProcessError) as e:
        sys.exit(f"hight optable: error: {e}")
