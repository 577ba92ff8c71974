"""Where a kernel's cycles go, by role: for the seed-003 per-operation tables (Tables 7-12).

A kernel generator writes each instruction with its role in brackets in a trailing comment
(`    srli t2, t1, 6    # [addr] note`: crypto/common/asm.py). `role_cycles` builds a small driver
that runs `setup` (C statements, e.g. the key schedule) once, then a C statement sequence `body`
(e.g. one block, or key expansion then one block) on rvsim with `--annotate`, once and twice, and
takes the difference of the per-instruction counts and stall cycles: exactly the second (warm)
execution of `body`. Each instruction's cycles (issues + stalls) go to its role.

What "warm" means on the e31 core depends on `body`: its second execution finds in the
instruction cache and the branch predictor what the first one left there. With body = key
expansion then encryption, the key schedule's code runs between the two encryptions and can
evict encryption lines (2-way, random replacement, 8 KiB per way: kernels 8 KiB apart share
sets), so that encryption pays I-cache misses that `rvlab bench` (repeated calls of one
operation, the last one timed) does not. To measure one operation the way bench does, put what
it needs in `setup` and only the operation in `body`.
"""
from __future__ import annotations

import collections
import re
import subprocess
from pathlib import Path

from . import build as rb
from . import runner as rr
from .manifest import Impl

ROLE_TAG = re.compile(r"#\s*\[([^\]]+)\]")       # the role in an instruction's comment
_INSN = re.compile(r"^\s+[a-z][\w.]*\b")
_FUNC = re.compile(r"^([A-Za-z_]\w*):")
_HEAD = re.compile(r"^== (\S+) \(0x([0-9a-f]+)\.\.0x([0-9a-f]+)\)")
_LINE = re.compile(r"^\s*(\d+)\s+(\d+)\s+([0-9a-f]{8}):")


class OptableError(Exception):
    pass


def tagged_roles(asm: Path) -> dict[str, list[str]]:
    """{function: [role of each instruction in program order]} of a generated .S file; every
    instruction line of a function must carry a tag."""
    out: dict[str, list[str]] = {}
    cur = None
    for n, line in enumerate(asm.read_text().splitlines(), 1):
        m = _FUNC.match(line)
        if m and not m.group(1).startswith("."):
            cur = out.setdefault(m.group(1), [])
            continue
        s = line.strip()
        if cur is None or not s or s.startswith(("#", ".", "/*", "*")) or s.endswith(":"):
            continue
        t = ROLE_TAG.search(line) if _INSN.match(line) else None
        if not t:
            raise OptableError(f"{asm}:{n}: instruction without a role tag: {s}")
        cur.append(t.group(1))
    return out


def _driver(impl: Impl, prelude: str, setup: str, body: str, reps: int, bd: Path) -> Path:
    """The driver running `setup` once and `body` `reps` times. The repetition count is a volatile
    global, so the drivers for 1 and 2 repetitions have the same code at the same addresses (the
    same I-cache sets and predictor indices): their difference is the second execution, not a
    layout change."""
    src = bd / f"driver{reps}.c"
    src.write_text(f'#include <stdint.h>\n#include "api.h"\n{prelude}\n'
                   f"volatile int rvlab_optable_reps = {reps};\nint main(void)\n{{\n"
                   + (setup + "\n" if setup else "")
                   + f"    for (int rvlab_i_ = 0; rvlab_i_ < rvlab_optable_reps; rvlab_i_++) {{\n{body}\n    }}\n"
                   + "    return 0;\n}\n")
    obj = rb._compile(src, bd / f"driver{reps}.o", [f"-march={rb.HARNESS_MARCH}", "-O1"] + rb.COMMON
                      + [f"-I{impl.primitive_dir}"], [impl.primitive_dir / "api.h"], "optable driver")
    return rb._link([obj] + rb.kernel_objects(impl), bd / f"driver{reps}.elf", "optable driver link")


def _annotated(elf: Path, impl: Impl, core: str) -> dict[str, tuple[int, list[tuple[int, int]]]]:
    """{function: (start address, [(count, stall cycles) per instruction])} from rvsim --annotate."""
    cmd = rr.rvsim_cmd(elf, impl.run_isa, core=core)
    cmd[-1:-1] = ["--annotate", "200"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise OptableError(f"rvsim failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr[-2000:]}")
    out, cur = {}, None
    for line in p.stderr.splitlines():
        h = _HEAD.match(line)
        if h:
            cur = out[h.group(1)] = (int(h.group(2), 16), [])
            continue
        m = _LINE.match(line)
        if m and cur is not None:
            cur[1].append((int(m.group(1)), int(m.group(2))))
    return out


def role_cycles(impl: Impl, asm: Path, prelude: str, body: str, core: str,
                setup: str = "") -> dict[str, collections.Counter]:
    """{kernel function: Counter(role -> cycles)} of the second (warm) execution of `body` (C
    statements calling the kernels; `prelude` declares what they use), run after `setup` (C
    statements run once, not counted: e.g. the key schedule before a repeated encryption), on
    rvsim core `core`. Counter key "total" holds the function's cycles, "instructions" its
    instruction count."""
    import hashlib
    roles = tagged_roles(asm)
    # one directory per driver, so that the ELFs of different drivers stay inspectable
    tag = hashlib.sha1(f"{prelude}\0{setup}\0{body}".encode()).hexdigest()[:8]
    bd = rb.impl_build_dir(impl) / "optable" / tag
    bd.mkdir(parents=True, exist_ok=True)
    runs = [_annotated(_driver(impl, prelude, setup, body, reps, bd), impl, core) for reps in (1, 2)]
    out = {}
    for fn, tags in roles.items():
        if fn not in runs[1]:
            continue
        once = runs[0].get(fn, (0, [(0, 0)] * len(tags)))[1]
        twice = runs[1][fn][1]
        if len(twice) != len(tags) or len(once) != len(tags):
            raise OptableError(f"{asm.name}: {fn} has {len(tags)} tagged instructions but rvsim shows "
                               f"{len(twice)} (compressed or macro-expanded instructions?)")
        c = collections.Counter()
        for role, (c1, s1), (c2, s2) in zip(tags, once, twice):
            cyc = (c2 - c1) + (s2 - s1)
            c[role] += cyc
            c["total"] += cyc
            c["instructions"] += c2 - c1
        out[fn] = c
    return out


def bench_records(path: Path, primitive: str) -> list[dict]:
    """One primitive's records in a bench file ([] if the file is missing; a malformed file is
    a ValueError): what the per-primitive tables print beside their own figures."""
    import json
    try:
        recs = json.loads(Path(path).read_text())
    except FileNotFoundError:
        return []
    except json.JSONDecodeError as e:
        raise ValueError(f"{path} is not valid JSON: {e}") from None
    if not isinstance(recs, list):
        raise ValueError(f"{path} must hold a JSON list of records")
    return [r for r in recs if isinstance(r, dict) and r.get("primitive") == primitive]


def bench_cycles(path: Path, primitive: str) -> dict:
    """{(impl, operation, core): cycles} of one primitive's records in a bench file ({} if the
    file is missing)."""
    return {(r.get("impl"), r.get("operation"), r.get("core")): r.get("cycles") for r in bench_records(path, primitive)}


def gap_note(gaps: list[int]) -> str:
    """"4 cycles" or "3 to 5 cycles": how far bench figures are from the figures beside them."""
    lo, hi = min(gaps), max(gaps)
    return f"{lo:,} cycles" if lo == hi else f"{lo:,} to {hi:,} cycles"


def fmt(v) -> str:
    return "–" if v is None else f"{v:,}"


def script_args(doc: str, root: Path):
    """BENCH_JSON and OUT_DIR, the two arguments `rvlab report` passes to a PRIMITIVE_SCRIPTS entry."""
    import argparse
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("bench_json", nargs="?", default=str(root / "results" / "bench.json"),
                    help="bench records for the `rvlab bench` rows (default results/bench.json)")
    ap.add_argument("out_dir", nargs="?", default=str(root / "results"), help="where the table is written")
    args = ap.parse_args()
    if not rr.rvsim_available():
        raise SystemExit(f"rvsim is not built ({rr.RVSIM}): cd sim && cargo build --release")
    return Path(args.bench_json), Path(args.out_dir)


def write_table(out_dir: Path, name: str, lines: list[str]) -> Path:
    import sys
    out = out_dir / name
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines))
    print("\n".join(lines))
    print(f"wrote {out}", file=sys.stderr)
    return out
