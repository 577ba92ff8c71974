"""`rvlab area`: what an extension costs in silicon, next to what it buys in cycles.

Every Verilog unit (one per custom instruction, `ise/<name>/unit.v`) and the baseline RV32I
core (`hw/core/rv32i_core.v`) is synthesised by Yosys to a generic CMOS gate netlist
(`abc -g cmos2`: NAND2, NOR2 and inverters; flip-flops as plain D flip-flops) and measured
with `stat -tech cmos`, Yosys's transistor estimate. We report gate equivalents
GE = transistors / 4, the transistor count of a 2-input CMOS NAND (so an inverter is 0.5 GE
and a D flip-flop 4 GE). The library is thus Yosys's own CMOS cost model, not a foundry
library: absolute GE differ from a commercial library by tens of percent, ratios much less.

Speed-ups come from results/bench.json: an implementation whose manifest names a
`baseline` implementation of the same primitive is compared with it at every measurement
both have (same operation, input size, core and multiplier latency).
"""
from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
import tomllib
from dataclasses import asdict, dataclass
from pathlib import Path

from .build import ROOT
from .manifest import discover
from .records import Record, load_records
from .report import load_published
from .tables import default_latency

CORE_FILE = ROOT / "hw" / "core" / "rv32i_core.v"
CORE_TOP = "rv32i_core"
TRANSISTORS_PER_GE = 4          # 2-input CMOS NAND
# plain D flip-flops only, so that `stat -tech cmos` knows every cell (it has no cost for
# flip-flops with enable or reset; dffunmap turns those into a flip-flop and gates)
YOSYS_FLOW = "synth -top {top} -flatten; dffunmap; abc -g cmos2; opt_clean; stat -tech cmos"
# -q keeps Yosys quiet; the statistics are copied to stdout by tee
QUIET_STAT = "tee -q -o /dev/stdout stat -tech cmos"


class AreaError(Exception):
    """Synthesis could not run or gave no figure; the message says which unit and why."""


@dataclass
class Unit:
    name: str           # instruction name, or "rv32i_core"
    ext: str            # extension name (x...), or "core"
    verilog: Path
    top: str


@dataclass
class Area:
    name: str
    ext: str
    verilog: str
    cells: int
    flip_flops: int
    transistors: int
    ge: float


def units(root: Path = ROOT) -> list[Unit]:
    """The custom-instruction units (ise/<name>/unit.v, one instruction each) and the
    standard-extension units (hw/units/<ext>_unit.v, all of the extension's instructions
    in one module), sorted by extension and name."""
    out = []
    for toml in sorted((root / "ise").glob("*/insn.toml")):
        v = toml.parent / "unit.v"
        if v.is_file():
            d = tomllib.loads(toml.read_text(encoding="utf-8"))
            out.append(Unit(d["name"], d["ext"], v, f"{d['name']}_unit"))
    for v in sorted((root / "hw" / "units").glob("*_unit.v")):
        ext = v.stem[:-len("_unit")]
        out.append(Unit(ext, ext, v, v.stem))
    return sorted(out, key=lambda u: (u.ext.startswith("z"), u.ext, u.name))


def synthesise(unit: Unit, yosys: str = "yosys") -> Area:
    script = f"read_verilog {unit.verilog}; " + YOSYS_FLOW.format(top=unit.top)
    quiet = script.replace("stat -tech cmos", QUIET_STAT)
    try:
        p = subprocess.run([yosys, "-q", "-p", quiet],
                           capture_output=True, text=True, timeout=600)
    except FileNotFoundError:
        raise AreaError("yosys not found: install it with `make setup`") from None
    except subprocess.TimeoutExpired:
        raise AreaError(f"{unit.name}: yosys took more than 600 s") from None
    out = p.stdout + p.stderr
    if p.returncode != 0:
        last = [line for line in out.splitlines() if line.strip()][-3:]
        raise AreaError(f"{unit.name}: yosys failed on {unit.verilog}: {' / '.join(last)}")
    t = re.findall(r"Estimated number of transistors:\s+(\d+)", out)
    c = re.findall(r"Number of cells:\s+(\d+)", out)
    if not t or not c:
        raise AreaError(f"{unit.name}: yosys printed no transistor estimate for {unit.top} "
                        f"(a cell without a CMOS cost?); run: yosys -p \"{script}\"")
    ffs = sum(int(n) for n in re.findall(r"\$_DFF_[PN]_\s+(\d+)", out))
    return Area(unit.name, unit.ext, str(unit.verilog.relative_to(ROOT) if unit.verilog.is_relative_to(ROOT)
                                         else unit.verilog),
                int(c[-1]), ffs, int(t[-1]), int(t[-1]) / TRANSISTORS_PER_GE)


# ------------------------------------------------------------------ speed-ups
_INCLUDE = re.compile(r'^\s*(?:#\s*include|\.include)\s+"([^"]+)"')
_MNEMONIC = re.compile(r"\s*(?:[.\w]+:\s*)?([a-z][a-z0-9_.]*)\s")


def custom_insns_used(impl, names: list[str]) -> list[str]:
    """The custom instructions (macro names from ise/) an implementation's sources use as
    mnemonics, following the sources' includes (except ise.inc, which defines them all)."""
    used, seen = set(), set()
    todo = [impl.path / src for src in impl.sources]
    while todo:
        f = todo.pop().resolve()
        if f in seen or not f.is_file():
            continue
        seen.add(f)
        for line in f.read_text(encoding="utf-8", errors="replace").splitlines():
            inc = _INCLUDE.match(line)
            if inc and Path(inc.group(1)).name != "ise.inc":
                todo.append(f.parent / inc.group(1))
            m = _MNEMONIC.match(line + " ")
            if m and m.group(1) in names:
                used.add(m.group(1))
    return sorted(used)


def speedups(records: list[Record], unit_ge: dict[str, float], ext_of: dict[str, str],
             core_ge: float | None) -> list[dict]:
    """One row per implementation with a `baseline` in its manifest: speed-up over the
    baseline at every shared measurement (e31, default multiplier latency), and the area of
    what it adds: the units of the custom instructions its sources use, the whole unit of
    each standard extension."""
    impls, _ = discover([ROOT / "crypto"], [ROOT / "crypto"])
    by_name = {(im.primitive, im.impl): im for im in impls}
    lat = default_latency(records)
    by_key = {}
    for r in records:
        if r.core == "e31" and r.mul_latency in (lat, None):
            by_key[(r.primitive, r.impl, r.operation, r.input_bytes)] = r
    rows = []
    for im in impls:
        if not im.baseline:
            continue
        pairs = [(r, by_key.get((r.primitive, im.baseline, r.operation, r.input_bytes)))
                 for k, r in by_key.items() if k[0] == im.primitive and k[1] == im.impl]
        pairs = [(r, b) for r, b in pairs if b]
        if not pairs:
            continue
        # what the implementation adds over its baseline, and its area (per implementation)
        exts = [e for e in im.extensions if e not in by_name[(im.primitive, im.baseline)].extensions]
        custom = [e for e in exts if e.startswith("x")]
        parts = (custom_insns_used(im, [n for n, e in ext_of.items() if e in custom])
                 + [e for e in exts if not e.startswith("x")])
        known = all(p in unit_ge for p in parts) and bool(parts) and core_ge
        ge = sum(unit_ge[p] for p in parts) if known else None
        for op in sorted({r.operation for r, _ in pairs}):
            ratios = [b.cycles / r.cycles for r, b in pairs if r.operation == op]
            sizes = sorted(r.input_bytes for r, _ in pairs if r.operation == op)
            rows.append({"primitive": im.primitive, "impl": im.impl, "baseline": im.baseline,
                         "operation": op, "extensions": exts, "custom": bool(custom), "units": parts,
                         "sizes": len(sizes), "input_bytes": [sizes[0], sizes[-1]],
                         "speedup_min": min(ratios), "speedup_max": max(ratios),
                         "speedup_geomean": math.exp(sum(map(math.log, ratios)) / len(ratios)),
                         "ext_ge": ge, "relative_area": ge / core_ge if ge is not None else None})
    return rows


# ------------------------------------------------------------------ report
def render(areas: list[Area], rows: list[dict], core: Area | None, yosys_version: str) -> str:
    core_ge = core.ge if core else None
    L = ["# What the extensions cost in gates and buy in cycles", "",
         "Generated by `rvlab area` (Yosys "
         f"{yosys_version}, flow `{YOSYS_FLOW.format(top='TOP')}`). "
         "GE = transistors / 4 (a 2-input CMOS NAND), from Yosys's CMOS cost model "
         "(NAND2/NOR2 4, inverter 2, D flip-flop 16 transistors) — not a foundry library.", ""]
    if core:
        L += ["## Baseline core", "",
              f"`{core.verilog}` (`{CORE_TOP}`): {core.cells} cells, {core.flip_flops} flip-flops, "
              f"{core.transistors} transistors = **{core.ge:,.0f} GE**. "
              "It is the denominator of every relative area below (hw/README.md says what it holds).", ""]
    L += ["## Instruction units", "",
          "One unit per custom instruction (`ise/<name>/unit.v`) and one per standard extension "
          "(`hw/units/<ext>_unit.v`, all its instructions behind an operation select). "
          "Each is checked against rvsim's semantics on random operands (`python3 hw/units/check_units.py`).", "",
          "| unit | extension | GE | relative to the core | cells | Verilog |",
          "|---|---|---:|---:|---:|---|"]
    for a in areas:
        rel = f"{100 * a.ge / core_ge:.1f}%" if core_ge else "—"
        L.append(f"| `{a.name}` | {a.ext} | {a.ge:,.0f} | {rel} | {a.cells} | `{a.verilog}` |")
    L += ["", "An implementation's added area (below) is the sum of the units of the custom instructions "
          "its sources use and of the standard extensions it adds (an upper bound: units "
          "that could share an adder or a shifter with each other or with the core's ALU are "
          "synthesised apart). `muladd` contains a 32×32 multiplier of its own; in an RV32IM core "
          "that already has one, its cost is the adder and the third register read port. The AES "
          "S-boxes of Zkne/Zknd are truth tables minimised by ABC, not a composite-field circuit "
          "(which would be smaller). Decoder and register-file port costs are not included.", ""]
    L += ["## Speed-up versus area", "",
          "Cycles of the baseline implementation divided by cycles of the implementation, on the "
          "`e31` model, at every measurement both have (`results/bench.json`).", "",
          "| implementation | over | operation | adds | sizes (bytes) | speed-up (geo. mean) | min – max | added GE | relative area |",
          "|---|---|---|---|---|---:|---|---:|---:|"]
    for r in sorted(rows, key=lambda r: (not r["custom"], r["primitive"], r["impl"])):
        lo, hi = r["input_bytes"]
        sizes = f"{lo}" if lo == hi else f"{lo}–{hi} ({r['sizes']})"
        ge = f"{r['ext_ge']:,.0f}" if r["ext_ge"] is not None else "no unit yet"
        rel = f"{100 * r['relative_area']:.1f}%" if r["relative_area"] is not None else "—"
        L.append(f"| {r['primitive']}/{r['impl']} | {r['baseline']} | {r['operation']} | "
                 f"{', '.join(r['units'])} | {sizes} | {r['speedup_geomean']:.2f}× | "
                 f"{r['speedup_min']:.2f} – {r['speedup_max']:.2f} | {ge} | {rel} |")
    L += ["", "![speed-up versus relative area](area-speedup.png)", ""]
    L += published_section(areas, core)
    return "\n".join(L)


# published unit (reference/published.csv, metric "area") -> our units that do the same job
PUBLISHED_MATCH = {"hw-rv32i-core": ["rv32i_core"], "hw-carryless-multiply": ["zbkc"],
                   "hw-aes-sm4": ["zkne", "zknd"], "hw-sbox-address": ["sboxaddrw"]}


def published_section(areas: list[Area], core: Area | None) -> list[str]:
    rows = [r for r in load_published() if r.get("metric") == "area"]
    if not rows:
        return []
    ge = {a.name: a.ge for a in areas} | ({core.name: core.ge} if core else {})
    L = ["## Published figures", "",
         "Seed 003 synthesised its own units with Yosys (library and flow not stated), so compare "
         "orders of magnitude, not percent.", "",
         "| published unit | extension | instructions | published GE | source | ours | our GE |",
         "|---|---|---|---:|---|---|---:|"]
    for r in rows:
        mine = [n for n in PUBLISHED_MATCH.get(r["primitive"], []) if n in ge]
        ours = f"{sum(ge[n] for n in mine):,.0f}" if mine else "—"
        L.append(f"| {r['primitive']} | {r['isa']} | {r['note'] or r['implementation']} | "
                 f"{float(r['value']):,.0f} | {r['source']} | {' + '.join(mine) or '—'} | {ours} |")
    L += ["", "Our Zkne/Zknd units hold two S-box truth tables and no SM4 (seed 003 shares one "
          "S-box datapath between AES encryption, decryption and SM4); our Zbkc unit is a full "
          "single-cycle 32×32 carry-less multiplier; our core is single-cycle (theirs has five "
          "pipeline stages and their registers).", ""]
    return L


def _yosys_version() -> str:
    try:
        p = subprocess.run(["yosys", "-V"], capture_output=True, text=True)
        m = re.search(r"Yosys (\S+)", p.stdout)
        return m.group(1) if m else "?"
    except OSError:
        return "?"


# the operation a plot point stands for: the bulk operation, not key set-up or conversions
PLOT_SKIP = {"keyexp", "keyexp_dec", "to_internal", "from_internal", "add_bits", "mul_bits"}


def plot(rows: list[dict], png: Path) -> bool:
    """One point per implementation (its bulk operation; a decrypting impl by decrypt)."""
    pts, seen = [], set()
    for r in sorted(rows, key=lambda r: r["operation"] != "decrypt"):
        key = (r["primitive"], r["impl"])
        if r["relative_area"] is not None and r["operation"] not in PLOT_SKIP and key not in seen:
            seen.add(key)
            pts.append(r)
    if not pts:
        return False
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(8, 5.5))
    for r in pts:
        x, y = 100 * r["relative_area"], r["speedup_geomean"]
        ax.plot([x, x], [r["speedup_min"], r["speedup_max"]], color="0.75", lw=1)
        ax.plot(x, y, "o")
        ax.annotate(f"{r['primitive']}/{r['impl']} {r['operation']}", (x, y), textcoords="offset points",
                    xytext=(5, -3), fontsize=7)
    ax.axhline(1, color="0.5", lw=0.8, ls="--")
    ax.set_yscale("log")
    ax.set_xscale("log")
    ax.set_xlabel("extension area relative to the baseline RV32I core (%)")
    ax.set_ylabel("speed-up (geometric mean over sizes; bar = range)")
    ax.set_title("rvlab: what an extension buys vs what it costs (e31 model, Yosys GE)", fontsize=10)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    plt.close(fig)
    return True


def run(bench_json: Path, out_dir: Path, progress=print) -> tuple[Path, Path]:
    """Synthesise every unit and the core; write area.json, area.md and area-speedup.png."""
    if not shutil.which("yosys"):
        raise AreaError("yosys not found: install it with `make setup`")
    records = load_records(bench_json)          # missing or bad: fail before synthesising
    todo = units()
    if not todo:
        raise AreaError("no Verilog units (ise/*/unit.v) found")
    areas = []
    for u in todo:
        progress(f"synthesising {u.name} ({u.verilog.relative_to(ROOT)})")
        areas.append(synthesise(u))
    core = None
    if CORE_FILE.is_file():
        progress(f"synthesising the baseline core ({CORE_FILE.relative_to(ROOT)})")
        core = synthesise(Unit(CORE_TOP, "core", CORE_FILE, CORE_TOP))
    rows = speedups(records, {a.name: a.ge for a in areas}, {a.name: a.ext for a in areas},
                    core.ge if core else None)
    out_dir.mkdir(parents=True, exist_ok=True)
    js, md = out_dir / "area.json", out_dir / "area.md"
    version = _yosys_version()
    js.write_text(json.dumps({"ge_definition": "transistors / 4 (Yosys stat -tech cmos)",
                              "yosys": version, "flow": YOSYS_FLOW,
                              "core": asdict(core) if core else None,
                              "units": [asdict(a) for a in areas], "speedups": rows},
                             indent=1) + "\n")
    plot(rows, out_dir / "area-speedup.png")
    md.write_text(render(areas, rows, core, version))
    return js, md
