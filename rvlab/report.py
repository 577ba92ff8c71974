"""results/bench.md from results/bench.json and reference/published.csv."""
from __future__ import annotations

import csv
import json
import re
from collections import defaultdict
from pathlib import Path

from .build import ROOT

EXTRA_SKIP = {"mul_latency", "constant_time_claimed", "dtim_bytes", "program_code_bytes"}
RECORD_KEYS = ["primitive", "impl", "isa", "core", "operation", "input_bytes", "cycles", "instret",
               "cycles_per_byte", "code_bytes", "static_bytes", "stack_bytes", "kat", "constant_time"]


class RecordError(ValueError):
    pass


def validate_record(r: dict) -> None:
    """Check one bench.json record against the format of DESIGN.md / interfaces.md §6."""
    missing = [k for k in RECORD_KEYS + ["mul_latency"] if k not in r]
    if missing:
        raise RecordError(f"record {r.get('primitive')}/{r.get('impl')} {r.get('operation')}: missing {missing}")
    for k in ("primitive", "impl", "isa", "core", "operation"):
        if not isinstance(r[k], str) or not r[k]:
            raise RecordError(f"record: '{k}' must be a non-empty string")
    for k in ("input_bytes", "cycles", "instret", "code_bytes", "static_bytes"):
        if not isinstance(r[k], int) or isinstance(r[k], bool) or r[k] < 0:
            raise RecordError(f"record {r['primitive']}/{r['impl']}: '{k}' must be a non-negative int")
    if r["stack_bytes"] is not None and (not isinstance(r["stack_bytes"], int) or r["stack_bytes"] < 0):
        raise RecordError("record: 'stack_bytes' must be a non-negative int or null")
    if r["cycles_per_byte"] is not None and not isinstance(r["cycles_per_byte"], (int, float)):
        raise RecordError("record: 'cycles_per_byte' must be a number or null")
    if r["kat"] not in ("pass", "fail"):
        raise RecordError("record: 'kat' must be \"pass\" or \"fail\"")
    if r["constant_time"] not in (True, False, None):
        raise RecordError("record: 'constant_time' must be true, false or null")
    if r["mul_latency"] is not None and not isinstance(r["mul_latency"], int):
        raise RecordError("record: 'mul_latency' must be an int or null")


def load_published(path: Path | None = None) -> list[dict]:
    path = path or ROOT / "reference" / "published.csv"
    if not Path(path).exists():
        return []
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def published_for(primitive: str, rows: list[dict]) -> list[dict]:
    """Rows whose `primitive` column is the primitive or `<primitive>-<operation>`."""
    out = []
    for r in rows:
        p = r.get("primitive", "")
        if p == primitive or (p.startswith(primitive + "-") and p[len(primitive) + 1:] in
                              ("keyexp", "encrypt", "decrypt", "keyexp_dec", "permute", "compress", "hash")):
            out.append(r)
    return out


def _extra(r: dict) -> str:
    """Extra keys of a sweep (limbs=8, ...) shown beside the operation."""
    return "".join(f", {k}={r[k]}" for k in sorted(r) if k not in RECORD_KEYS and k not in EXTRA_SKIP)


def _fmt(v, digits=1):
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:,.{digits}f}"
    if isinstance(v, int):
        return f"{v:,}"
    return str(v)


def _prim_table(rs: list[dict]) -> list[str]:
    rs = sorted(rs, key=lambda r: (r["operation"], r["input_bytes"], r["core"], r["cycles"]))
    lines = ["| impl | isa | core | operation | bytes | cycles | cycles/byte | code B | static B | stack B | KAT | CT |",
             "|---|---|---|---|--:|--:|--:|--:|--:|--:|---|---|"]
    for r in rs:
        extra = _extra(r)
        lines.append(f"| {r['impl']} | {r['isa']} | {r['core']} | {r['operation']}{extra} | {_fmt(r['input_bytes'])} | "
                     f"{_fmt(r['cycles'])} | {_fmt(r['cycles_per_byte'])} | {_fmt(r['code_bytes'])} | "
                     f"{_fmt(r['static_bytes'])} | {_fmt(r['stack_bytes'])} | {r['kat']} | "
                     f"{ {True: 'yes', False: 'NO'}.get(r['constant_time'], '–')} |")
    return lines

# ------------------------------------------------------------------ seed 000 tables (issue 4)
# seed 000 Table 1 rows: (published primitive, published implementation) -> our record
# (primitive, impl, operation, input_bytes) measured the same way
SEED000_T1 = [("aes128-keyexp", "table", ("aes128", "table", "keyexp", 16)),
              ("aes128-encrypt", "table", ("aes128", "table", "encrypt", 16)),
              ("aes128-keyexp", "bitsliced", ("aes128-ctr", "bitsliced", "keyexp", 16)),
              ("aes128-ctr", "bitsliced", ("aes128-ctr", "bitsliced", "encrypt", 4096)),
              ("chacha20", "", ("chacha20", "rv32i", "encrypt", 4096)),
              ("keccakf1600", "", ("keccakf1600", "rv32i", "permute", 200))]
# seed 000 Table 2: rv32i kernel, the record it improves, the bytes one `rotations` count
# covers (the manifest counts per block / permutation), and our Zbkb counterpart
SEED000_T2 = [("aes128", "table", "encrypt", 16, 16, None),
              ("aes128-ctr", "bitsliced", "encrypt", 4096, 16, "bitsliced-zbkb"),
              ("chacha20", "rv32i", "encrypt", 4096, 64, "zbkb"),
              ("keccakf1600", "rv32i", "permute", 200, 200, "zbkb")]
# seed 000 §7.2: "Assuming that the rotation would be possible in a single cycle": a rotation
# costs two shifts and an OR on RV32I (3 single-cycle instructions), so each saves 2 cycles
ROTATION_SAVING = 2
BOARD_BYTES = 16 * 1024           # HiFive1: 16 KiB DTIM, 16 KiB I-cache


def default_latency(records: list[dict]):
    """The multiplier latency of most records (the default run); --mul-latency runs differ."""
    counts: dict = defaultdict(int)
    for r in records:
        counts[r.get("mul_latency")] += 1
    return max(counts, key=lambda k: counts[k]) if counts else None


def _find(records, prim, impl, op, nbytes, core="e31"):
    lat = default_latency(records)
    for r in records:
        if (r["primitive"], r["impl"], r["operation"], r["input_bytes"], r["core"]) == (prim, impl, op, nbytes, core) \
                and r.get("mul_latency") == lat and not _extra(r):
            return r
    return None


def _manifest_extra(prim: str, impl: str, key: str):
    import tomllib
    mf = ROOT / "crypto" / prim / impl / "manifest.toml"
    try:
        return tomllib.loads(mf.read_text()).get(key)
    except (OSError, ValueError):
        return None


def seed000_sections(records: list[dict], published: list[dict]) -> list[str]:
    pub = {(p["primitive"], p["implementation"], p["platform"].split(" ")[0]): p for p in published
           if p.get("source") == "seed-000 Table 1"}
    out = ["## Seed 000 Table 1", "",
           "Our e31-model figures beside seed 000's measurements on the HiFive1 (E31 silicon) and its "
           "Cortex-M4 comparison, in cycles (same operations, same sizes; `best` is our fastest "
           "implementation of that operation with any ISA).", "",
           "| what | ours (impl) | ours cycles | ours c/B | E31 published | Cortex-M4 published | best of ours (impl, isa) |",
           "|---|---|--:|--:|--:|--:|---|"]
    for pprim, pimpl, (prim, impl, op, nb) in SEED000_T1:
        r = _find(records, prim, impl, op, nb)
        e31, m4 = pub.get((pprim, pimpl, "E31")), pub.get((pprim, pimpl, "Cortex-M4"))
        cands = [x for x in records if (x["primitive"], x["operation"], x["input_bytes"], x["core"]) ==
                 (prim, op, nb, "e31") and x.get("mul_latency") == default_latency(records) and x["kat"] == "pass"]
        best = min(cands, key=lambda x: x["cycles"]) if cands else None
        best_s = f"{_fmt(best['cycles'])} ({best['impl']}, {best['isa']})" if best else "–"
        out.append(f"| {pprim}{' ' + pimpl if pimpl else ''} ({nb} B) | {prim}/{impl} | {_fmt(r['cycles']) if r else '–'} | "
                   f"{_fmt(r['cycles_per_byte']) if r else '–'} | {e31['value'] if e31 else '–'} | "
                   f"{m4['value'] if m4 else '–'} | {best_s} |")
    out += ["", "## Seed 000 Table 2", "",
            f"Estimated effect of a rotate instruction on each rv32i kernel, with seed 000's assumption "
            f"(§7.2: a single-cycle rotation replaces two shifts and an OR, saving {ROTATION_SAVING} cycles "
            f"per rotation): saving = `rotations` (manifest key, per block/permutation) × {ROTATION_SAVING} × blocks, "
            f"next to what our Zbkb kernel (`ror`/`rori` and more) actually measures.", "",
            "| rv32i kernel | operation | rotations per block | block B | measured c/B | est. saving | est. c/B with rotate | measured Zbkb c/B (impl) | seed 000 est. c/B |",
            "|---|---|--:|--:|--:|--:|--:|--:|--:|"]
    t2 = {p["primitive"]: p for p in published if p.get("source") == "seed-000 Table 2"}
    t2key = {"aes128": "aes128-encrypt", "aes128-ctr": "aes128-ctr", "chacha20": "chacha20",
             "keccakf1600": "keccakf1600"}
    for prim, impl, op, nb, block, zimpl in SEED000_T2:
        r = _find(records, prim, impl, op, nb)
        rot = _manifest_extra(prim, impl, "rotations")
        z = _find(records, prim, zimpl, op, nb) if zimpl else None
        if r and isinstance(rot, int):
            saving = rot * ROTATION_SAVING * (nb // block)
            est = f"{(r['cycles'] - saving) / nb:,.1f}"
            sv = f"{saving:,} cycles ({100 * saving / r['cycles']:.1f}%)"
        else:
            est = sv = "–"
        sp = t2.get(t2key[prim])
        z_s = f"{_fmt(z['cycles_per_byte'])} ({zimpl})" if z else "–"
        out.append(f"| {prim}/{impl} | {op} {nb} B | {rot if rot is not None else '–'} | {block} | "
                   f"{_fmt(r['cycles_per_byte']) if r else '–'} | {sv} | {est} | "
                   f"{z_s} | "
                   f"{sp['value'] if sp else '–'} |")
    return out + [""]


def fits_section(records: list[dict]) -> list[str]:
    """Per speed program: code (runs from the 16 KiB I-cache) and DTIM bytes (RAM sections
    + the kernel's tables + peak stack, recorded by `rvlab bench` from the ELF and rvsim)."""
    progs: dict = {}
    for r in records:
        if r["core"] == "e31" and r.get("dtim_bytes") is not None:
            progs[(r["primitive"], r["impl"])] = r
    out = ["## Fits the board", "",
           f"HiFive1: code runs from the 16 KiB I-cache, and seed 000 keeps tables, stack and buffers in "
           f"the 16 KiB DTIM ({BOARD_BYTES:,} B each). Per speed program: the kernel's code (what the "
           f"timed loop keeps in the I-cache) and the whole program's (harness and libc's printf "
           f"included, not all of it hot), and DTIM bytes of the whole program (its input/output "
           f"buffers included) = the ELF's "
           f"RAM sections (without the linker's stack reservation) + the kernel's tables/constants "
           f"(linked to flash here) + the program's peak stack under rvsim. The linker already "
           f"refuses programs whose RAM sections exceed the DTIM.", ""]
    if not progs:
        return out + ["(no records with DTIM figures: re-run `rvlab bench`)", ""]
    out += ["| program | kernel code B | I-cache fit (kernel) | whole program code B | DTIM B | DTIM fit |",
            "|---|--:|---|--:|--:|---|"]
    for (prim, impl), r in sorted(progs.items()):
        code, dtim = r.get("program_code_bytes"), r["dtim_bytes"]
        out.append(f"| {prim}/{impl} | {_fmt(r['code_bytes'])} | {'yes' if r['code_bytes'] <= BOARD_BYTES else 'NO'} | "
                   f"{_fmt(code)} | {_fmt(dtim)} | {'yes' if dtim <= BOARD_BYTES else 'NO'} |")
    return out + [""]


def links_section(md_dir: Path | None = None) -> list[str]:
    """Links to the per-primitive notes and the extra result files (in md_dir) that exist."""
    md_dir = Path(md_dir or ROOT / "results")
    items = []
    for nf in sorted((ROOT / "crypto").glob("*/NOTES.md")):
        items.append(f"[{nf.parent.name}]({_rel(nf, md_dir)})")
    out = ["## Notes and further results", ""]
    for rf in sorted((ROOT / "crypto").glob("*/README.md")):
        items.append(f"[{rf.parent.name} (README)]({_rel(rf, md_dir)})")
    if items:
        out.append("Design notes per primitive (NOTES.md / README.md): " + ", ".join(items) + ".")
    t5 = md_dir / "polymul_table5.md"            # written by crypto/polymul-128/table5.py (PRIMITIVE_SCRIPTS)
    out.append(f"Binary-polynomial multiplication, seed Table 5 redrawn by `crypto/polymul-128/table5.py`: "
               f"[{t5.name}]({_rel(t5, md_dir)})" + ("" if t5.exists() else " (not generated yet)") + ".")
    return out + [""]


def _rel(path: Path, base: Path) -> str:
    import os
    return os.path.relpath(path, base).replace(os.sep, "/")


def render(records: list[dict], published: list[dict], md_dir: Path | None = None) -> str:
    by_prim: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        by_prim[r["primitive"]].append(r)
    cores = sorted({r["core"] for r in records})
    lat = sorted({r.get("mul_latency") for r in records if r.get("mul_latency") is not None})
    lines = ["# rvlab benchmark results", "",
             "Generated by `rvlab report` from `results/bench.json` (written by `rvlab bench`). "
             f"Core model(s): {', '.join(cores) or '–'}"
             + (f"; multiplier result latency {', '.join(map(str, lat))} cycles" if lat else "") + ". "
             "Cycles are measured with `rdcycle` around one call (warm I-cache, empty measurement "
             "subtracted, seed 000's protocol); CT is the constant-time checker's verdict (– = not checked); code/static bytes are the implementation's own "
             "sections in the linked ELF; stack is bytes below the caller's sp. "
             "Published figures are from `reference/published.csv` (see reference/README.md).", ""]
    if records:
        lines += seed000_sections(records, published) + fits_section(records) + links_section(md_dir)
    for prim in sorted(by_prim):
        lines += [f"## {prim}", ""]
        groups: dict = defaultdict(list)
        for r in by_prim[prim]:
            groups[r.get("mul_latency")].append(r)
        for gi, g in enumerate(sorted(groups, key=lambda x: (x is None, -(x or 0)))):
            if gi:
                lines.append("")
            lines += [f"Multiplier result latency: {'–' if g is None else f'{g} cycles'}"
                      + (" (a `--mul-latency` run beside the default)" if gi else "") + ".", ""]
            lines += _prim_table(groups[g])
        pub = published_for(prim, published)
        if pub:
            lines += ["", f"Published ({prim}):", "",
                      "| source | what | implementation | isa | platform | value | note |",
                      "|---|---|---|---|---|--:|---|"]
            for p in pub:
                lines.append(f"| {p['source']} | {p['primitive']} {p['metric']} | {p['implementation'] or '–'} | "
                             f"{p['isa']} | {p['platform']} | {p['value']} {p['unit']} | {p['note']} |")
        lines.append("")
    if not records:
        lines.append("(no measurements yet: run `make bench`)")
    return "\n".join(lines) + "\n"


README_BEGIN = "<!-- rvlab:results:begin -->"
README_END = "<!-- rvlab:results:end -->"


def summary_table(records: list[dict]) -> str:
    """Compact table for the README: per primitive/impl/operation the e31 record with
    the largest input."""
    best: dict[tuple, dict] = {}
    lat = default_latency(records)
    for r in records:
        if r["core"] != "e31" or r.get("mul_latency") != lat:
            continue
        k = (r["primitive"], r["impl"], r["operation"])
        if k not in best or r["input_bytes"] > best[k]["input_bytes"]:
            best[k] = r
    if not best:
        return "(no measurements yet: run `make bench`)"
    lines = ["| primitive | impl | isa | operation | bytes | cycles | cycles/byte | code B | static B | stack B | KAT |",
             "|---|---|---|---|--:|--:|--:|--:|--:|--:|---|"]
    for k in sorted(best):
        r = best[k]
        extra = _extra(r)
        lines.append(f"| {r['primitive']} | {r['impl']} | {r['isa']} | {r['operation']}{extra} | "
                     f"{_fmt(r['input_bytes'])} | {_fmt(r['cycles'])} | {_fmt(r['cycles_per_byte'])} | "
                     f"{_fmt(r['code_bytes'])} | {_fmt(r['static_bytes'])} | {_fmt(r['stack_bytes'])} | {r['kat']} |")
    return "\n".join(lines)


def update_readme(records: list[dict], readme: Path | None = None) -> bool:
    readme = readme or ROOT / "README.md"
    if not readme.exists():
        return False
    text = readme.read_text(encoding="utf-8")
    a, b = text.find(README_BEGIN), text.find(README_END)
    if a < 0 or b < a:
        return False
    new = text[:a + len(README_BEGIN)] + "\n" + summary_table(records) + "\n" + text[b:]
    if new != text:
        readme.write_text(new, encoding="utf-8")
    return True


def plot(records: list[dict], png: Path) -> bool:
    """One bar chart per primitive: cycles per byte (largest input) of each implementation
    on the e31 model. Returns False if matplotlib is missing or there is nothing to plot."""
    rows: dict[str, dict[str, float]] = defaultdict(dict)
    best: dict[tuple, dict] = {}
    lat = default_latency(records)
    for r in records:
        if r["core"] != "e31" or not r["cycles_per_byte"] or r["operation"].startswith("keyexp") \
                or r.get("mul_latency") != lat:
            continue
        k = (r["primitive"], r["impl"], r["operation"])
        if k not in best or r["input_bytes"] > best[k]["input_bytes"]:
            best[k] = r
    for (prim, impl, op), r in best.items():
        rows[f"{prim} {op}"][impl] = r["cycles_per_byte"]
    if not rows:
        return False
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    keys = sorted(rows)
    fig, axes = plt.subplots(len(keys), 1, figsize=(7, 1.2 + 0.35 * sum(len(rows[k]) for k in keys) + 0.6 * len(keys)),
                             squeeze=False)
    for ax, k in zip(axes[:, 0], keys):
        impls = sorted(rows[k], key=lambda i: -rows[k][i])
        ax.barh(impls, [rows[k][i] for i in impls], color="#4a7ab5")
        ax.set_title(k, fontsize=9, loc="left")
        ax.tick_params(labelsize=8)
        for y, i in enumerate(impls):
            ax.text(rows[k][i], y, f" {rows[k][i]:.1f}", va="center", fontsize=7)
    axes[-1, 0].set_xlabel("cycles per byte (e31 model, largest input)")
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    plt.close(fig)
    return True


def load_records(path: Path) -> list[dict]:
    """A bench JSON file as a list of validated records (RecordError with the reason if not)."""
    try:
        recs = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise RecordError(f"{path} does not exist — run `rvlab bench` first") from None
    except json.JSONDecodeError as e:
        raise RecordError(f"{path}: not valid JSON: {e}") from None
    except OSError as e:
        raise RecordError(f"{path}: cannot read ({e})") from None
    if not isinstance(recs, list) or not all(isinstance(r, dict) for r in recs):
        raise RecordError(f"{path}: not a list of bench records")
    try:
        for r in recs:
            validate_record(r)
    except RecordError as e:
        raise RecordError(f"{path}: not a list of bench records ({e})") from None
    return recs


def write_report(json_path: Path, md_path: Path) -> int:
    records = load_records(json_path)
    out_dir = Path(md_path).parent
    out_dir.mkdir(parents=True, exist_ok=True)
    made = run_primitive_scripts(Path(json_path), out_dir)
    text = render(records, load_published(), out_dir)
    png = Path(md_path).with_name(Path(md_path).stem + "-cycles-per-byte.png")
    if plot(records, png):
        text = text.replace("\n\n## ", f"\n\n![cycles per byte]({png.name})\n\n## ", 1)
    text += plots_section(made)
    Path(md_path).write_text(text)
    if Path(md_path).resolve() == (ROOT / "results" / "bench.md").resolve():
        update_readme(records)            # the README shows the summary of the committed results
    return len(records)


# The primitives' own report scripts. Each is run as `python3 SCRIPT BENCH_JSON OUT_DIR` by every
# `rvlab report` (so by `rvlab bench` and `make bench` too) and writes its files into OUT_DIR, the
# report's directory, so they always come from the run being reported:
#   crypto/bigint-mul/plot.py     seed 000 Figures 1-2 (PNGs, one set per core and multiplier latency)
#   crypto/polymul-128/table5.py  seed 004 Table 5 (polymul_table5.md: instruction mix from an rvsim
#                                 run of the current kernels, beside the bench file's cycles)
PRIMITIVE_SCRIPTS = [ROOT / "crypto" / "bigint-mul" / "plot.py",
                     ROOT / "crypto" / "polymul-128" / "table5.py",
                     ROOT / "crypto" / "cast128" / "optable.py",
                     ROOT / "crypto" / "hight" / "optable.py",
                     ROOT / "crypto" / "tdea" / "optable.py",
                     ROOT / "crypto" / "sha256" / "optable.py",
                     ROOT / "crypto" / "seed128" / "optable.py",
                     ROOT / "crypto" / "camellia128" / "optable.py"]


def run_primitive_scripts(json_path: Path, out_dir: Path) -> dict[Path, list[Path]]:
    """Run PRIMITIVE_SCRIPTS on the bench file; {script: files in out_dir it wrote}. A script that
    fails is reported as a warning (the report is still written)."""
    import subprocess
    import sys
    made = {}
    for script in PRIMITIVE_SCRIPTS:
        if not script.exists():
            continue
        before = {p: p.stat().st_mtime_ns for p in out_dir.iterdir() if p.is_file()}
        try:
            p = subprocess.run([sys.executable, str(script), str(json_path), str(out_dir)],
                               capture_output=True, text=True, timeout=600)
        except subprocess.TimeoutExpired:
            print(f"rvlab report: warning: {script.relative_to(ROOT)} timed out", file=sys.stderr)
            continue
        if p.returncode != 0:
            print(f"rvlab report: warning: {script.relative_to(ROOT)} failed: "
                  f"{(p.stderr or p.stdout).strip().splitlines()[-1:]}", file=sys.stderr)
            continue
        made[script] = sorted(q for q in out_dir.iterdir()
                              if q.is_file() and before.get(q) != q.stat().st_mtime_ns)
    return made


def plots_section(made: dict[Path, list[Path]]) -> str:
    """Markdown showing the PNGs the primitive scripts wrote (bigint-mul/plot.py: one set of
    figures per (core, mul_latency))."""
    md = []
    for script, files in made.items():
        pngs = [q for q in files if q.suffix == ".png"]
        if pngs:
            md += [f"## Plots by {script.relative_to(ROOT)}", "",
                   "One figure per core model and multiplier result latency (file suffix "
                   "`-<core>-mul<L>`), so the latency-5 and latency-2 pictures sit side by side.", ""]
            md += [f"![{q.stem}]({q.name})" for q in pngs] + [""]
    return ("\n" + "\n".join(md)) if md else ""


# ------------------------------------------------------------------ before / after
def measurement_key(r: dict) -> tuple:
    """What one record measures (not what it found): implementation, core, multiplier latency,
    operation, input size and sweep keys (limbs=8, ...)."""
    return (r.get("primitive"), r.get("impl"), r.get("core"), r.get("mul_latency"), r.get("operation"),
            r.get("input_bytes"), _extra(r))


COMPARED = ("cycles", "code_bytes", "static_bytes", "stack_bytes", "constant_time")


def compare(old: list[dict], new: list[dict], rx: re.Pattern | None = None) -> list[str]:
    """Text lines comparing two lists of bench records: every measurement whose cycles, code,
    static or stack bytes or constant-time verdict changed (largest relative cycle change
    first), then the counts of unchanged and one-sided measurements."""
    def keep(r):
        return rx is None or rx.search(f"{r.get('primitive')}/{r.get('impl')}")
    before = {measurement_key(r): r for r in old if keep(r)}
    after = {measurement_key(r): r for r in new if keep(r)}
    rows, same = [], 0
    for k in before.keys() & after.keys():
        a, b = before[k], after[k]
        if all(a.get(f) == b.get(f) for f in COMPARED):
            same += 1
            continue
        ca, cb = a.get("cycles") or 0, b.get("cycles") or 0
        rel = (cb - ca) / ca if ca else 0.0
        what = f"{k[0]}/{k[1]} {k[4]} {k[5]} B{k[6]} ({k[2]}" + (f", mul latency {k[3]})" if k[3] else ")")
        note = []
        for f, short in (("code_bytes", "code"), ("static_bytes", "static"), ("stack_bytes", "stack")):
            if a.get(f) != b.get(f):
                note.append(f"{short} {_fmt(a.get(f))} -> {_fmt(b.get(f))}")
        if a.get("constant_time") != b.get("constant_time"):
            note.append(f"constant_time {a.get('constant_time')} -> {b.get('constant_time')}")
        rows.append((-abs(rel), what, f"{what:<58} {_fmt(ca):>10} -> {_fmt(cb):>10} cycles {rel:+8.2%}"
                     + (f"   {'; '.join(note)}" if note else "")))
    rows.sort()
    lines = [r[2] for r in rows]
    only_old, only_new = len(before.keys() - after.keys()), len(after.keys() - before.keys())
    lines.append(f"{len(rows)} changed, {same} unchanged" + (f", {only_old} only before" if only_old else "")
                 + (f", {only_new} only after" if only_new else ""))
    return lines
