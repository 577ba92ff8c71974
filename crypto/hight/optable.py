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

On the e31, an encryption that follows a key expansion pays I-cache misses that repeated
encryptions do not (the key schedule's code shares I-cache sets with the encryption's: 2 ways,
random replacement). `rvlab bench` times repeated calls of one operation, so the "call alone"
rows come from a second driver (`measure(..., mode="encrypt")`): key expansion once, then the
encryption twice, the second call counted.
"""
from __future__ import annotations

import collections
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
from rvlab.optable import ROLE_TAG as TAG, bench_records, write_table  # noqa: E402

DRIVER = r"""
#include <stdint.h>
#include "api.h"
static uint32_t rk[RK_WORDS];
static uint8_t key[KEY_BYTES], in[8], out[8];
/* a volatile global, not a constant: the CALLS = 1 and CALLS = 2 drivers have the same code at
   the same addresses (I-cache sets, predictor indices), so their difference is the second call */
volatile int rvlab_optable_calls = CALLS;
int main(void)
{
    for (int i = 0; i < KEY_BYTES; i++) key[i] = (uint8_t)(37 * i + 11);
    for (int i = 0; i < 8; i++) in[i] = (uint8_t)(91 * i + 5);
#if MODE == 1
    KEYEXP(rk, key);                /* encryption alone: the key schedule once, not counted */
#endif
    for (int c = 0; c < rvlab_optable_calls; c++) {
#if MODE != 1
        KEYEXP(rk, key);
#endif
#if MODE != 2
        ENCRYPT(out, in, rk);
#endif
    }
    return out[0] & 0;
}
"""
MODES = {"both": 0, "encrypt": 1, "keyexp": 2}
OTHER = "call, return"
OTHER_KEYEXP = "call, return (keyexp)"
ROW = re.compile(r"^\s*(\d+)\s+(\d+)\s+([0-9a-f]+):")


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


def _function_range(elf: Path, name: str) -> tuple[int, int]:
    """[start, next global text symbol) of function `name` in elf"""
    p = subprocess.run(["riscv64-unknown-elf-nm", "-n", str(elf)], capture_output=True, text=True, check=True)
    syms = [(int(a, 16), n) for a, t, n in (line.split() for line in p.stdout.splitlines() if line.count(" ") == 2)
            if t == "T"]
    for (a, n), nxt in zip(syms, syms[1:] + [(1 << 32, "")]):
        if n == name:
            return a, nxt[0]
    raise ValueError(f"{elf}: no function {name}")


def measure(impl, keyexp: str, encrypt: str, rk_words: int, key_bytes: int, kernel_file: str,
            mode: str = "both") -> dict[str, dict[str, int]]:
    """{core: {operation tag: cycles}} of one warm key expansion + encryption (mode "both", see the
    docstring), or of one encryption (mode "encrypt": the second of two back-to-back calls after one
    key expansion) or key expansion (mode "keyexp") warm on its own, as `rvlab bench` times them;
    only addresses inside kernel_file count (the driver's loop is not the kernel's)."""
    kobjs = rb.kernel_objects(impl)
    bd = rb.impl_build_dir(impl) / "optable" / mode
    bd.mkdir(parents=True, exist_ok=True)
    src = bd / "driver.c"
    src.write_text(DRIVER)
    defs = [f"-DRK_WORDS={rk_words}", f"-DKEY_BYTES={key_bytes}", f"-DKEYEXP={keyexp}", f"-DENCRYPT={encrypt}",
            f"-DMODE={MODES[mode]}"]
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
        kx_lo, kx_hi = _function_range(elfs[1], keyexp)
        per = collections.Counter()
        for a, (n2, s2) in two.items():
            n1, s1 = one.get(a, (0, 0))
            fname, tag = tags[a]
            if tag == OTHER and kx_lo <= a < kx_hi:
                tag = OTHER_KEYEXP              # the key expansion's return is the key expansion's
            if fname == kernel_file:
                per[tag] += (n2 - n1) + (0 if core == "ideal" else s2 - s1)
        result[core] = {k: v for k, v in per.items() if v}
    return result


def bench_cycles(path: Path, primitive: str) -> dict[tuple[str, str], int]:
    """{(impl, core): encrypt cycles} from a bench file ({} if it is missing)"""
    return {(r.get("impl"), r.get("core")): r.get("cycles") for r in bench_records(path, primitive)
            if r.get("operation") == "encrypt"}


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


def _signed(vals: list[int]) -> str:
    lo, hi = min(vals), max(vals)
    return f"{lo:+,}" if lo == hi else f"{lo:+,} to {hi:+,}"


def notes(bench: dict, alone: dict, in_run: dict, what: str) -> str:
    """The footnote on the call-alone rows: the measured gap to bench, and how the operation's
    cycles inside the keyexp + encryption run differ. bench: {(impl, core): cycles};
    alone, in_run: {impl: {core: cycles}}."""
    from rvlab.optable import gap_note
    gaps = [bench[i, c] - alone[i][c] for i in alone for c in ("ideal", "e31") if (i, c) in bench]
    out = (f"For the {what}, `rvlab bench` (which includes the caller's argument set-up and `jal`, empty "
           f"measurement subtracted) is {gap_note(gaps)} above the call alone. " if gaps else "")
    extra = {c: [in_run[i][c] - alone[i][c] for i in alone] for c in ("ideal", "e31")}
    if not any(extra["ideal"] + extra["e31"]):
        return out + f"Inside the keyexp + encryption run the {what} costs the same as alone on both cores."
    out += (f"Inside the keyexp + encryption run the {what} costs the same as alone on `ideal` "
            if not any(extra["ideal"]) else f"Inside the keyexp + encryption run the {what} differs from "
            f"the call alone by {_signed(extra['ideal'])} cycles on `ideal` ")
    out += f"and {_signed(extra['e31'])} cycles on `e31`"
    if not any(extra["ideal"]) and all(e > 0 and e % 20 == 0 for e in extra["e31"]):
        out += (": instruction-cache misses (20 cycles each), the other operation's code running between "
                "two calls and, sharing I-cache sets with it (2 ways, random replacement), evicting some of "
                "its lines.")
    else:
        out += (": the other operation, running between two calls, leaves different I-cache and "
                "branch-predictor state.")
    return out


HIGHT_IMPLS = ["rv32i", "rv32i-ct", "zbkb"]
# seed 003 Table 10 (1-CPI simulator): the 8-bit rotations of F0/F1, rv32i and rv32i+crypto (grev)
SEED_T10 = {"8-bit rotations (seed) / F0, F1 (ours)": [1408, 1280]}
SEED_T4 = [4528, 4400]


def main():
    bench_json = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "results" / "bench.json"
    out_dir = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "results"
    bench = bench_cycles(bench_json, "hight")
    mix, alone = {}, {}
    for name in HIGHT_IMPLS:
        args = (impl_of(HERE, name), "hight_keyexp_enc", "hight_encrypt", 136, 16, "hight.S")
        mix[name] = measure(*args)
        alone[name] = {core: sum(c.values()) for core, c in measure(*args, mode="encrypt").items()}
    for m in mix.values():                  # seed's row: the F evaluations, however done
        for core in m:
            f = m[core].pop("F lookup", 0) + m[core].pop("F0/F1 (8-bit rotations)", 0)
            m[core]["8-bit rotations (seed) / F0, F1 (ours)"] = f
            m[core]["keyexp"] = m[core].get("keyexp", 0) + m[core].pop(OTHER_KEYEXP, 0)
    ops = ["8-bit rotations (seed) / F0, F1 (ours)", "round key load", "key add", "state update", "mask",
           "lane swap", "whitening", "io", OTHER, "keyexp"]
    lines = ["# Seed 003 Table 10, regenerated: HIGHT, where the cycles go", "",
             "One warm key expansion and one warm encryption of an 8-byte block, counted per operation by "
             "`crypto/hight/optable.py` from rvsim's per-instruction counts (`--annotate`; a run with two "
             "calls minus a run with one). Operations are the tags gen.py writes on every instruction. "
             "The per-operation rows are that key expansion + encryption run; the **call alone** row is "
             "the encryption warm on its own (key expansion once, then two encryptions, the second "
             "counted), the way `rvlab bench` times it. "
             "Seed 003 Table 10 gives only the 8-bit rotations of F0/F1 (its rv32i+crypto column uses "
             "grev); our rv32i reads F0/F1 from 1 KiB tables instead (one `lbu` each, the state bytes "
             "being table pointers), rv32i-ct and zbkb compute both F of two bytes at once by shifts.", "",
             "## Cycles on `--core ideal` (1 instruction = 1 cycle, seed 003's model)", ""]
    enc_ops = [o for o in ops if o != "keyexp"]
    lines += table(ops, ["rv32i", "rv32i+crypto"], SEED_T10, HIGHT_IMPLS, mix, "ideal", ("rv32i-ct", "zbkb"))
    tot = lambda core, i: sum(mix[i][core].get(o, 0) for o in enc_ops)
    lines.append("| **encryption (without keyexp), in the keyexp + encryption run** | %s | %s | %s | %s |" % (
        f"{SEED_T4[0]:,}", f"{SEED_T4[1]:,}", " | ".join(f"{tot('ideal', i):,}" for i in HIGHT_IMPLS),
        f"{tot('ideal', 'rv32i-ct') - tot('ideal', 'zbkb'):,}"))
    lines.append("| **encryption, the call alone** |  |  | %s | %s |" % (
        " | ".join(f"{alone[i]['ideal']:,}" for i in HIGHT_IMPLS),
        f"{alone['rv32i-ct']['ideal'] - alone['zbkb']['ideal']:,}"))
    lines.append("| *`rvlab bench` encrypt, ideal (%s)* |  |  | %s |  |" % (
        bench_json.name, " | ".join(f"{bench[(i, 'ideal')]:,}" if (i, "ideal") in bench else "–" for i in HIGHT_IMPLS)))
    lines += ["", "## Cycles on `--core e31` (instructions + the stall cycles rvsim charges to them)", ""]
    lines += table(ops, [], {}, HIGHT_IMPLS, mix, "e31", ("rv32i-ct", "zbkb"))
    lines.append("| **encryption (without keyexp), in the keyexp + encryption run** | %s | %s |" % (
        " | ".join(f"{tot('e31', i):,}" for i in HIGHT_IMPLS), f"{tot('e31', 'rv32i-ct') - tot('e31', 'zbkb'):,}"))
    lines.append("| **encryption, the call alone** | %s | %s |" % (
        " | ".join(f"{alone[i]['e31']:,}" for i in HIGHT_IMPLS),
        f"{alone['rv32i-ct']['e31'] - alone['zbkb']['e31']:,}"))
    lines.append("| *`rvlab bench` encrypt, e31 (%s)* | %s |  |" % (
        bench_json.name, " | ".join(f"{bench[(i, 'e31')]:,}" if (i, "e31") in bench else "–" for i in HIGHT_IMPLS)))
    lines += ["", "The seed's 4,528 / 4,400 (Table 4) is its encryption; whether it includes the key "
              "schedule is not stated (Table 10 lists only the rotations). The last column is what Zbkb "
              "saves per operation: `rori` for the lane swap (3 instructions -> 1) and `pack` when the "
              "input bytes are paired. " + notes(bench, alone, {i: {c: tot(c, i) for c in ("ideal", "e31")}
                                                                for i in HIGHT_IMPLS}, "encryption"), ""]
    write_table(out_dir, "hight_optable.md", lines)


if __name__ == "__main__":
    try:
        main()
    except (ManifestError, rb.BuildError, OSError, ValueError, KeyError, subprocess.CalledProcessError) as e:
        sys.exit(f"hight optable: error: {e}")
