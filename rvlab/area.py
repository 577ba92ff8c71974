"""`rvlab area`: what an extension costs in silicon, next to what it buys in cycles.

Every Verilog unit (one per custom instruction, `ise/<name>/unit.v`) and the baseline RV32I
core (`hw/core/rv32i_core.v`) is synthesised by Yosys to a generic CMOS gate netlist
(`abc -g cmos2`: NAND2, NOR2 and inverters; flip-flops as plain D flip-flops) and measured
with `stat -tech cmos`, Yosys's transistor estimate. We report gate equivalents
GE = transistors / 4, the transistor count of a 2-input CMOS NAND (so an inverter is 0.5 GE
and a D flip-flop 4 GE). The library is thus Yosys's own CMOS cost model, not a foundry
library: absolute GE differ from a commercial library by tens of percent, ratios much less.

Beside that model, where the Debian package qflow-tech-osu018 is installed, every unit and
core is also mapped onto a real standard-cell library, the OSU 0.18 um cells
(osu018_stdcells.lib, Liberty): area in um^2, GE = area / the library's NAND2X1, and ABC's
critical-path delay with the library's timing tables.

The denominator of relative areas is the 5-stage pipelined core hw/core/rv5_core.v
configured as seed 003's (RV32I only); its M, C and Zicsr additions are synthesised as
further configurations. Seed 003's Tables 19-21 are regenerated in its grouping of
instructions into modules (SEED_GROUPS), Table 20 from rvsim's per-mnemonic counts of each
implementation's speed program.

Speed-ups come from results/bench.json: an implementation whose manifest names a
`baseline` implementation of the same primitive is compared with it at every measurement
both have (same operation, input size, core and multiplier latency).
"""
from __future__ import annotations

import hashlib
import json
import math
import re
import shutil
import subprocess
import tomllib
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from . import build as B
from . import runner as R
from .build import ROOT
from .manifest import discover
from .plotting import speedup_scatter
from .records import Record, load_records
from .rtl import CUSTOM_UNITS as CORE_CUSTOM_UNITS
from .report import load_published
from .seed003 import AREA_FIGURES
from .tables import default_latency

CORE_FILE = ROOT / "hw" / "core" / "rv32i_core.v"       # the single-cycle baseline
CORE_TOP = "rv32i_core"
RV5_FILE = ROOT / "hw" / "core" / "rv5_core.v"           # the 5-stage pipelined core
# 5-stage core configurations: (name, what it adds, parameters). The first is the
# denominator of every relative area (seed 003's core: RV32I only).
RV5_CONFIGS = [
    ("rv32i", "seed 003's core: RV32I; an exception stops it", {"M": 0, "C": 0, "ZICSR": 0}),
    ("rv32i+m", "a single-cycle 33x33 multiplier and an early-terminating divider", {"M": 1, "C": 0, "ZICSR": 0}),
    ("rv32i+c", "the compressed-instruction expander and 2-byte fetch steps", {"M": 0, "C": 1, "ZICSR": 0}),
    ("rv32i+zicsr", "machine-mode CSRs, 64-bit cycle/instret counters, precise traps", {"M": 0, "C": 0, "ZICSR": 1}),
    ("rv32imc+zicsr", "all three: the core `rvlab rtl` runs the harness ELFs on", {"M": 1, "C": 1, "ZICSR": 1}),
    ("rv32i+xpolymul", "seed 004's srliandi, sllior, muladd (with its own 32x32 multiplier), andbnexadd in "
     "EX and the third register read port (rd or rs3) with its forwarding and interlock",
     {"M": 0, "C": 0, "ZICSR": 0, "XPOLYMUL": 1}),
    ("rv32i+m+xpolymul", "the same on a core with M: muladd uses M's multiplier",
     {"M": 1, "C": 0, "ZICSR": 0, "XPOLYMUL": 1}),
]
# the configuration an addition is measured against, where it is not rv32i
RV5_ADDED_TO = {"rv32i+m+xpolymul": "rv32i+m"}
# custom extensions whose in-core cost on an ISA with M is a measured configuration pair
# (the extension's configuration, the one it is added to)
IN_M_CORE = {"xpolymul": ("rv32i+m+xpolymul", "rv32i+m")}
# A real standard-cell library (Debian qflow-tech-osu018): OSU 0.18 um cells, Liberty
LIBERTY = Path("/usr/share/qflow/tech/osu018/osu018_stdcells.lib")
LIB_NAND2 = "NAND2X1"
# ABC maps onto the cells, then buffers high-fanout nets and sizes gates (without that, a
# decoder driving a thousand inputs makes the NLDM delay meaningless), then reports timing
LIB_FLOW = ("synth -top {top} -flatten; dfflibmap -liberty {lib}; "
            "abc -liberty {lib} -script +strash;dch;map;topo;buffer,-p;upsize;dnsize;stime,-p; "
            "opt_clean; stat -liberty {lib}")
# seed 003 Table 19's modules, built from our units: (module, published.csv key, [(unit, ops or
# None for all)]). Bit re-positioning = rotations + the draft grev/shfl/unshfl (xzbp).
SEED_GROUPS = [
    ("Bit Re-positioning", "hw-bit-repositioning", [("zbkb", ["ror", "rol", "rori"]), ("xzbp", None)]),
    ("Carry-Less Multiply", "hw-carryless-multiply", [("zbkc", None)]),
    ("Crossbar Permutation", "hw-crossbar-permutation", [("zbkx", None)]),
    ("Logic With Negate", "hw-logic-with-negate", [("zbkb", ["andn", "orn", "xnor"])]),
    ("Packing", "hw-packing", [("zbkb", ["pack", "packh"])]),
    ("Hash", "hw-hash", [("zknh", None), ("zksh", None)]),
    ("AES and SM4", "hw-aes-sm4", [("zkne_zknd_zksed", None)]),
]
# our ratified-instruction counterparts of the groups the seed's draft instructions fill:
# brev8/rev8/zip/unzip are the fixed cases of grevi/shfli/unshfli that replaced them
RATIFIED_BITREPOS = [("zbkb", ["ror", "rol", "rori", "brev8", "rev8", "zip", "unzip"])]
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
    extra: tuple = ()   # further Verilog files the top instantiates
    params: tuple = ()  # (name, value) parameters of the top


@dataclass
class Area:
    name: str
    ext: str
    verilog: str
    cells: int
    flip_flops: int
    transistors: int
    ge: float
    lib_um2: float | None = None    # on the standard-cell library (LIBERTY), if installed
    lib_ge: float | None = None     # lib_um2 / the library's NAND2 area
    delay_ns: float | None = None   # ABC's critical-path delay with the library
    lib_error: str | None = None    # why the library flow gave no figure (the CMOS ones stand)


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


def _yosys(unit: Unit, flow: str, yosys: str, timeout: float) -> str:
    files = " ".join(str(f) for f in (unit.verilog, *unit.extra))
    chparam = "".join(f"chparam -set {k} {v} {unit.top}; " for k, v in unit.params)
    script = f"read_verilog {files}; {chparam}" + flow
    try:
        p = subprocess.run([yosys, "-p", script], capture_output=True, text=True, timeout=timeout)
    except FileNotFoundError:
        raise AreaError("yosys not found: install it with `make setup`") from None
    except subprocess.TimeoutExpired:
        raise AreaError(f"{unit.name}: yosys took more than {timeout:.0f} s") from None
    out = p.stdout + p.stderr
    if p.returncode != 0:
        last = [line for line in out.splitlines() if line.strip()][-3:]
        raise AreaError(f"{unit.name}: yosys failed on {unit.verilog}: {' / '.join(last)}")
    return out


def lib_nand2_area(lib: Path = LIBERTY) -> float:
    m = re.search(r"cell\s*\(\s*" + LIB_NAND2 + r"\s*\)\s*\{\s*area\s*:\s*([\d.]+)", lib.read_text())
    if not m:
        raise AreaError(f"{lib}: no {LIB_NAND2} cell with an area")
    return float(m.group(1))


_CACHE = ROOT / "build" / "area-cache"


def _cache_key(unit: Unit, liberty: Path | None) -> str:
    h = hashlib.sha256(json.dumps([unit.top, list(unit.params), YOSYS_FLOW, LIB_FLOW, str(liberty)]).encode())
    for f in (unit.verilog, *unit.extra):
        h.update(Path(f).read_bytes())
    if liberty:
        h.update(Path(liberty).read_bytes())
    return h.hexdigest()[:16]


def synthesise(unit: Unit, yosys: str = "yosys", liberty: Path | None = None, timeout: float = 3600) -> Area:
    """Yosys's CMOS model, and the standard-cell library when `liberty` is given. Results are
    cached under build/area-cache by the sources' contents (a core takes minutes)."""
    key = _cache_key(unit, liberty)
    cached = _CACHE / f"{unit.name}-{key}.json"
    if cached.is_file():
        return Area(**json.loads(cached.read_text()))
    out = _yosys(unit, YOSYS_FLOW.format(top=unit.top), yosys, timeout)
    out = out[out.rfind("Printing statistics"):] if "Printing statistics" in out else out
    t = re.findall(r"Estimated number of transistors:\s+(\d+)", out)
    c = re.findall(r"Number of cells:\s+(\d+)", out)
    if not t or not c:
        raise AreaError(f"{unit.name}: yosys printed no transistor estimate for {unit.top} "
                        f"(a cell without a CMOS cost?); flow: {YOSYS_FLOW.format(top=unit.top)}")
    ffs = sum(int(n) for n in re.findall(r"\$_DFF_[PN]_\s+(\d+)", out))
    a = Area(unit.name, unit.ext, str(unit.verilog.relative_to(ROOT) if unit.verilog.is_relative_to(ROOT)
                                      else unit.verilog),
             int(c[-1]), ffs, int(t[-1]), int(t[-1]) / TRANSISTORS_PER_GE)
    if liberty:
        try:
            lout = _yosys(unit, LIB_FLOW.format(top=unit.top, lib=liberty), yosys, timeout)
            um2 = re.findall(r"Chip area for module .*?:\s+([\d.]+)", lout)
            delay = re.findall(r"Delay\s*=\s*([\d.]+)\s*ps", lout)
            if not um2:
                raise AreaError(f"{unit.name}: yosys printed no chip area with {liberty}")
            a.lib_um2 = float(um2[-1])
            a.lib_ge = a.lib_um2 / lib_nand2_area(liberty)
            a.delay_ns = max(map(float, delay)) / 1000 if delay else None
        except AreaError as e:          # the CMOS figures stand; the report says what failed
            a.lib_error = str(e)
    _CACHE.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(asdict(a)))
    return a


# ------------------------------------------------------------------ speed-ups
_INCLUDE = re.compile(r'^\s*(?:#\s*include|\.include)\s+"([^"]+)"')
_MNEMONIC = re.compile(r"\s*(?:[.\w]+:\s*)?([a-z][a-z0-9_.]*)\s")


def in_m_core_added(rv5: list[Area]) -> dict[str, float]:
    """GE each IN_M_CORE extension adds to the 5-stage core with M (configurations synthesised)."""
    ge = {a.name: a.ge for a in rv5}
    return {ext: ge[cfg] - ge[to] for ext, (cfg, to) in IN_M_CORE.items() if cfg in ge and to in ge}


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
             core_ge: float | None, usage: dict | None = None, group_ge: dict | None = None,
             in_m_core: dict[str, float] | None = None) -> list[dict]:
    """One row per implementation with a `baseline` in its manifest: speed-up over the
    baseline at every shared measurement (e31, default multiplier latency), and the area of
    what it adds: the units of the custom instructions its sources use, the whole unit of
    each standard extension -- or, for a custom extension in `in_m_core` used on an ISA with
    M, what the 5-stage core with M grew by when the extension was built into it (its units
    share M's multiplier there, which a unit on its own cannot); and, from `usage` (Table 20),
    the area of seed 003's modules holding the instructions it executes."""
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
        custom = [e for e in exts if e.startswith("x") and e != "xzbp"]
        parts = (custom_insns_used(im, [n for n, e in ext_of.items() if e in custom])
                 + [e for e in exts if e not in custom])
        known = all(p in unit_ge for p in parts) and bool(parts) and core_ge
        ge = sum(unit_ge[p] for p in parts) if known else None
        in_core = len(custom) == 1 and "m" in im.base and custom[0] in (in_m_core or {})
        if in_core and core_ge:
            ge = in_m_core[custom[0]]
        groups = (usage or {}).get((im.primitive, im.impl), {}).get("groups", [])
        sge = sum(group_ge[g] for g in groups) if groups and group_ge and all(g in group_ge for g in groups) else None
        for op in sorted({r.operation for r, _ in pairs}):
            ratios = [b.cycles / r.cycles for r, b in pairs if r.operation == op]
            sizes = sorted(r.input_bytes for r, _ in pairs if r.operation == op)
            rows.append({"primitive": im.primitive, "impl": im.impl, "baseline": im.baseline,
                         "operation": op, "extensions": exts, "custom": bool(custom), "units": parts,
                         "sizes": len(sizes), "input_bytes": [sizes[0], sizes[-1]],
                         "speedup_min": min(ratios), "speedup_max": max(ratios),
                         "speedup_geomean": math.exp(sum(map(math.log, ratios)) / len(ratios)),
                         "ext_ge": ge, "ext_ge_in_m_core": in_core,
                         "relative_area": ge / core_ge if ge is not None else None,
                         "seed_modules": groups, "seed_modules_ge": sge,
                         "relative_area_seed_modules": sge / core_ge if sge is not None and core_ge else None})
    return rows


# ------------------------------------------------------------------ seed 003's modules
def unit_ops(verilog: Path) -> list[str]:
    """The instructions behind a standard unit's `op` input (its `// ops:` line)."""
    m = re.search(r"^//\s*ops:\s*(.+)$", Path(verilog).read_text(), re.M)
    return m.group(1).split() if m else []


def group_unit(name: str, parts: list, units_dir: Path = ROOT / "hw" / "units") -> Unit:
    """A module of `parts` [(unit, ops or None)] as one synthesis top: each unit restricted to
    its ops (the OPS parameter; absent ops give 0 and their logic is removed), outputs muxed
    by the upper op bits. Written under build/area-cache."""
    top = "grp_" + re.sub(r"\W+", "_", name.lower()).strip("_")
    files, insts, outs = [], [], []
    for i, (u, ops) in enumerate(parts):
        v = units_dir / f"{u}_unit.v"
        files.append(v)
        mask = ""
        if ops is not None:
            allops = unit_ops(v)
            bits = sum(1 << allops.index(o) for o in ops)
            mask = f" #(.OPS({len(allops)}'h{bits:x}))"
        insts.append(f"    {u}_unit{mask} u{i}(.op(op[3:0]), .a(a), .b(b), .c(c), .y(y{i}));")
        outs.append(f"y{i}")
    sel = " : ".join(f"op[7:4] == 4'd{i} ? {y}" for i, y in enumerate(outs[:-1]))
    body = "\n".join(insts)
    text = (f"// seed 003 module '{name}' from rvlab's units (generated by rvlab area)\n"
            f"module {top}(input [7:0] op, input [31:0] a, b, c, output [31:0] y);\n"
            f"    wire [31:0] {', '.join(outs)};\n{body}\n"
            f"    assign y = {(sel + ' : ') if sel else ''}{outs[-1]};\nendmodule\n")
    _CACHE.mkdir(parents=True, exist_ok=True)
    f = _CACHE / f"{top}.v"
    if not f.is_file() or f.read_text() != text:
        f.write_text(text)
    return Unit(name, "seed-003", f, top, tuple(dict.fromkeys(files)))


def group_insns(parts: list) -> set[str]:
    out = set()
    for u, ops in parts:
        out |= set(ops if ops is not None else unit_ops(ROOT / "hw" / "units" / f"{u}_unit.v"))
    return out


# the ratified fixed cases of the draft instructions of the bit re-positioning module
SEED_ALIASES = {"brev8": "Bit Re-positioning", "rev8": "Bit Re-positioning", "zip": "Bit Re-positioning",
                "unzip": "Bit Re-positioning", "sboxaddr": "Address Calculation",
                "sboxaddrw": "Address Calculation"}


def seed_module_of(insn: str) -> str | None:
    for name, _, parts in SEED_GROUPS:
        if insn in group_insns(parts):
            return name
    return SEED_ALIASES.get(insn)


def insn_usage(progress=print) -> dict:
    """Seed 003 Table 20: per implementation with extensions, the extension instructions its
    speed program executes (rvsim's per-mnemonic counts on e31), our units and seed 003's
    modules that hold them."""
    impls, _ = discover([ROOT / "crypto"], [ROOT / "crypto"])
    std = {}
    for v in sorted((ROOT / "hw" / "units").glob("*_unit.v")):
        for o in unit_ops(v):
            std.setdefault(o, []).append(v.stem[:-len("_unit")])
    custom = {}
    for toml in sorted((ROOT / "ise").glob("*/insn.toml")):
        d = tomllib.loads(toml.read_text(encoding="utf-8"))
        custom[d["name"]] = d["ext"]
    out = {}
    if not R.rvsim_available():
        progress("rvsim not built: Table 20 left out")
        return out
    for im in impls:
        if not im.extensions:
            continue
        try:
            elf = B.build_speed(im, B.kernel_objects(im)).speed
        except B.BuildError as e:
            progress(f"{im.name}: not built ({str(e).splitlines()[0]}); left out of Table 20")
            continue
        js = elf.with_name("speed-area.rvsim.json")
        p = subprocess.run(R.rvsim_cmd(elf, im.run_isa, "e31", None, js), capture_output=True, text=True)
        if p.returncode != 0 or not js.is_file():
            progress(f"{im.name}: speed program failed on rvsim; left out of Table 20")
            continue
        counts = json.loads(js.read_text())["mnemonics"]
        used, units_used = {}, []
        for mn, n in sorted(counts.items()):
            if not n:
                continue
            if mn in custom and custom[mn] in im.extensions:
                used[mn] = n
                units_used.append(mn)
            else:
                owners = [u for u in std.get(mn, []) if u in im.extensions or u == "xzbp" and "xzbp" in im.extensions]
                if owners:
                    used[mn] = n
                    units_used.append(owners[0])
        groups = sorted({g for g in map(seed_module_of, used) if g},
                        key=lambda g: [n for n, _, _ in SEED_GROUPS].index(g) if g in [n for n, _, _ in SEED_GROUPS] else 99)
        out[(im.primitive, im.impl)] = {"isa": im.isa, "insns": used, "units": sorted(set(units_used)),
                                        "groups": groups}
    return out


# ------------------------------------------------------------------ report
def _lib(a: Area | None, what: str) -> str:
    if a is None or a.lib_um2 is None:
        return "—"
    return {"um2": f"{a.lib_um2:,.0f}", "ge": f"{a.lib_ge:,.0f}",
            "ns": f"{a.delay_ns:.2f}" if a.delay_ns else "—"}[what]


def render(areas: list[Area], rows: list[dict], core: Area | None, yosys_version: str,
           rv5: list[Area] | None = None, groups: list[Area] | None = None, usage: dict | None = None,
           liberty: Path | None = None) -> str:
    rv5 = rv5 or []
    rv32i = next((a for a in rv5 if a.name == "rv32i"), None)
    base = rv32i or core
    core_ge = base.ge if base else None
    L = ["# What the extensions cost in gates and buy in cycles", "",
         "Generated by `rvlab area` (Yosys "
         f"{yosys_version}, flow `{YOSYS_FLOW.format(top='TOP')}`). "
         "GE = transistors / 4 (a 2-input CMOS NAND), from Yosys's CMOS cost model "
         "(NAND2/NOR2 4, inverter 2, D flip-flop 16 transistors) — not a foundry library.", ""]
    if liberty:
        L += [f"**Standard-cell library:** also mapped onto the OSU 0.18 µm standard cells (`{liberty}`, "
              f"Debian package qflow-tech-osu018; flow `{LIB_FLOW.format(top='TOP', lib='LIB')}`): area in µm², "
              f"GE = µm² / {lib_nand2_area(liberty):g} µm² (its {LIB_NAND2}), and ABC's critical-path delay "
              "with the library's timing tables after ABC's buffering and gate sizing (no wire load; "
              "flip-flop to flip-flop or port). "
              "None of the open PDKs the issue names (SkyWater 130, GF180MCU, IHP SG13G2, "
              "FreePDK45/Nangate) ships a Liberty file in a package we can install (hw/README.md lists "
              "what was tried).", ""]
    else:
        L += ["(The Debian package qflow-tech-osu018 is not installed: no standard-cell figures; "
              "`make setup` installs it.)", ""]
    if rv5:
        b = rv32i or rv5[0]
        L += ["## The 5-stage core and each addition", "",
              f"`{b.verilog}` (`rv5_core`): IF, ID, EX, MEM, WB with forwarding and a load-use interlock "
              "(hw/README.md). Its RV32I configuration is seed 003's core and the denominator of every "
              "relative area below.", "",
              "| configuration | what it adds | GE | added GE | flip-flops | µm² (OSU 0.18) | GE (OSU) | critical path (ns) |",
              "|---|---|---:|---:|---:|---:|---:|---:|"]
        desc = {n: d for n, d, _ in RV5_CONFIGS}
        by_name = {a.name: a for a in rv5}
        for a in rv5:
            base = by_name.get(RV5_ADDED_TO.get(a.name), b)
            add = "—" if a is b else f"{a.ge - base.ge:+,.0f}" + ("" if base is b else f" (to {base.name})")
            L.append(f"| {a.name} | {desc.get(a.name, '')} | {a.ge:,.0f} | {add} | {a.flip_flops} | "
                     f"{_lib(a, 'um2')} | {_lib(a, 'ge')} | {_lib(a, 'ns')} |")
        L.append("")
    if core:
        L += ["The single-cycle baseline `hw/core/rv32i_core.v` (no pipeline registers, combinational "
              f"memories): {core.cells} cells, {core.flip_flops} flip-flops, **{core.ge:,.0f} GE**"
              + (f", {_lib(core, 'ge')} GE on the OSU cells" if core.lib_ge else "") + ".", ""]
    L += ["## Instruction units", "",
          "One unit per custom instruction (`ise/<name>/unit.v`) and one per standard extension "
          "(`hw/units/<ext>_unit.v`, all its instructions behind an operation select; "
          "`zkne_zknd_zksed` is the three on one S-box datapath). "
          "Each is checked against rvsim's semantics on random operands (`python3 hw/units/check_units.py`).", "",
          "| unit | extension | GE | relative to the core | cells | µm² (OSU) | GE (OSU) | delay (ns) | Verilog |",
          "|---|---|---:|---:|---:|---:|---:|---:|---|"]
    for a in areas:
        rel = f"{100 * a.ge / core_ge:.1f}%" if core_ge else "—"
        L.append(f"| `{a.name}` | {a.ext} | {a.ge:,.0f} | {rel} | {a.cells} | {_lib(a, 'um2')} | "
                 f"{_lib(a, 'ge')} | {_lib(a, 'ns')} | `{a.verilog}` |")
    ge = {a.name: a for a in areas}
    sep = [ge[n] for n in ("zkne", "zknd", "zksed") if n in ge]
    if len(sep) == 3 and "zkne_zknd_zksed" in ge:
        sh = ge["zkne_zknd_zksed"]
        L += ["", f"AES + SM4 **separate** (zkne + zknd + zksed, three truth-table S-boxes): "
              f"{sum(a.ge for a in sep):,.0f} GE; **shared** (one composite-field S-box datapath, "
              f"seed 003 §6.2): {sh.ge:,.0f} GE"
              + (f" (OSU: {sum(a.lib_ge for a in sep):,.0f} vs {sh.lib_ge:,.0f} GE)" if sh.lib_ge and all(a.lib_ge for a in sep) else "")
              + "."]
        if sh.delay_ns and rv32i and rv32i.delay_ns and sh.delay_ns > rv32i.delay_ns:
            L[-1] += (f" The shared datapath is also the slowest unit: {sh.delay_ns:.2f} ns on the OSU cells "
                      f"against the 5-stage core's {rv32i.delay_ns:.2f} ns (the composite-field S-box is "
                      "deeper than a table), so as one single-cycle EX operation it would set the clock; "
                      "sharing buys area, not speed.")
    L += ["", "An implementation's added area (below) is the sum of the units of the custom instructions "
          "its sources use and of the standard extensions it adds (an upper bound: units "
          "that could share an adder or a shifter with each other or with the core's ALU are "
          "synthesised apart). `muladd` contains a 32×32 multiplier of its own; in an RV32IM core "
          "that already has one, its cost is the adder and the third register read port: for an "
          "implementation whose ISA has M, the added area of " + ", ".join(IN_M_CORE) + " is therefore "
          "what the 5-stage core with M grew by when the extension was built into it (marked ‡; "
          "that figure includes its decoder, third read port, forwarding and interlock). "
          "Otherwise decoder and register-file port costs are not included.", ""]
    if groups:
        pub = {r["primitive"]: float(r["value"]) for r in load_published() if r.get("metric") == "area"}
        L += ["## Seed 003 Table 19: its modules, rebuilt from our units", "",
              "Each seed module synthesised as one top from our units restricted to its instructions "
              "(bit re-positioning = ror/rol/rori + the draft grev/shfl/unshfl of xzbp). "
              "Seed 003 gives neither its library nor its flow (Yosys), so compare magnitudes. Our Zbkc "
              "unit is a full single-cycle 32×32 carry-less multiplier (seed 003 computes both halves "
              "with one half-size circuit, §5.2); our AES and SM4 module shares one composite-field "
              "S-box as seed 003's does.", "",
              "| module | instructions | seed 003 GE | our GE | ours / seed | GE (OSU) | delay (ns) |",
              "|---|---|---:|---:|---:|---:|---:|"]
        if rv32i and "hw-rv32i-core" in pub:
            L.append(f"| RISC-V Core | RV32I, 5 stages | {pub['hw-rv32i-core']:,.0f} | {rv32i.ge:,.0f} | "
                     f"{rv32i.ge / pub['hw-rv32i-core']:.2f} | {_lib(rv32i, 'ge')} | {_lib(rv32i, 'ns')} |")
        for (name, key, parts), a in zip(SEED_GROUPS, groups):
            insns = " ".join(sorted(group_insns(parts)))
            seed = pub.get(key)
            L.append(f"| {name} | {insns} | {seed:,.1f} | {a.ge:,.0f} | {a.ge / seed:.2f} | {_lib(a, 'ge')} | {_lib(a, 'ns')} |"
                     if seed else f"| {name} | {insns} | — | {a.ge:,.0f} | — | {_lib(a, 'ge')} | {_lib(a, 'ns')} |")
        L.append("")
    if "sboxaddr" in ge:
        seed = next((float(r["value"]) for r in load_published() if r.get("primitive") == "hw-sbox-address"), None)
        L += ["## Seed 003 Table 21: the address calculation instruction", "",
              "| module | seed 003 GE | ours | our GE | GE (OSU) |", "|---|---:|---|---:|---:|"]
        for n in ("sboxaddr", "sboxaddrw"):
            if n in ge:
                L.append(f"| Address Calculation | {seed:,.0f} | `{n}` | {ge[n].ge:,.0f} | {_lib(ge[n], 'ge')} |"
                         if seed else f"| Address Calculation | — | `{n}` | {ge[n].ge:,.0f} | {_lib(ge[n], 'ge')} |")
        L.append("")
    if usage:
        L += ["## Seed 003 Table 20: the extension instructions each implementation executes", "",
              "From rvsim's per-mnemonic counts of the speed program (e31 run): every extension "
              "instruction that executes at least once, with its count; the units of ours that hold "
              "them and seed 003's modules (Table 19 above) that would.", "",
              "| implementation | ISA | instructions executed (count) | our units | seed 003 modules |",
              "|---|---|---|---|---|"]
        for (prim, impl), u in sorted(usage.items()):
            ins = ", ".join(f"{k} ({v:,})" for k, v in sorted(u["insns"].items(), key=lambda kv: -kv[1])) or "none"
            L.append(f"| {prim}/{impl} | {u['isa']} | {ins} | {', '.join(u['units']) or '—'} | "
                     f"{', '.join(u['groups']) or '—'} |")
        L.append("")
    L += ["## Speed-up versus area (seed 003 Fig. 31 and 35)", "",
          "Cycles of the baseline implementation divided by cycles of the implementation, on the "
          "`e31` model, at every measurement both have (`results/bench.json`); relative area = added GE / "
          f"the 5-stage RV32I core ({core_ge:,.0f} GE). " if core_ge else "", "Two areas per row: our units "
          "(each standard extension's whole unit, the custom instructions the sources use) and seed 003's "
          "modules holding the instructions the speed program executes (Table 20).", "",
          "| implementation | over | operation | adds | sizes (bytes) | speed-up (geo. mean) | min – max | added GE | relative area | seed modules | their relative area |",
          "|---|---|---|---|---|---:|---|---:|---:|---|---:|"]
    for r in sorted(rows, key=lambda r: (not r["custom"], r["primitive"], r["impl"])):
        lo, hi = r["input_bytes"]
        sizes = f"{lo}" if lo == hi else f"{lo}–{hi} ({r['sizes']})"
        ge_s = (f"{r['ext_ge']:,.0f}" + (" ‡" if r.get("ext_ge_in_m_core") else "")
                if r["ext_ge"] is not None else "no unit yet")
        rel = f"{100 * r['relative_area']:.1f}%" if r["relative_area"] is not None else "—"
        srel = f"{100 * r['relative_area_seed_modules']:.1f}%" if r.get("relative_area_seed_modules") is not None else "—"
        L.append(f"| {r['primitive']}/{r['impl']} | {r['baseline']} | {r['operation']} | "
                 f"{', '.join(r['units'])} | {sizes} | {r['speedup_geomean']:.2f}× | "
                 f"{r['speedup_min']:.2f} – {r['speedup_max']:.2f} | {ge_s} | {rel} | "
                 f"{', '.join(r.get('seed_modules') or []) or '—'} | {srel} |")
    L += ["", "Fig. 31 (standard extensions):", "", "![speed-up versus relative area](area-speedup.png)", "",
          "Fig. 35 (custom instructions):", "", "![custom instructions](area-speedup-custom.png)", ""]
    L += published_section(areas, base)
    return "\n".join(L)


# published unit (reference/published.csv, metric "area") -> our units that do the same job
PUBLISHED_MATCH = {"hw-rv32i-core": ["rv32i"], "hw-carryless-multiply": ["zbkc"],
                   "hw-aes-sm4": ["zkne_zknd_zksed"], "hw-sbox-address": ["sboxaddrw"]}


def published_section(areas: list[Area], core: Area | None) -> list[str]:
    """Published area figures that Tables 19 and 21 above do not already show."""
    shown = {key for _, key, _ in SEED_GROUPS} | {"hw-rv32i-core", "hw-sbox-address"}
    rows = [r for r in load_published() if r.get("metric") == "area" and r["primitive"] not in shown]
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
    L.append("")
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


def plot_points(rows: list[dict], custom: bool | None = None) -> list[dict]:
    """One row per implementation (its bulk operation; a decrypting impl by decrypt); custom:
    only the custom-instruction ones (True), only the standard-extension ones (False), all (None)."""
    pts, seen = [], set()
    for r in sorted(rows, key=lambda r: r["operation"] != "decrypt"):
        key = (r["primitive"], r["impl"])
        if (custom is None or r["custom"] == custom) and r["relative_area"] is not None \
                and r["operation"] not in PLOT_SKIP and key not in seen:
            seen.add(key)
            pts.append(r)
    return pts


def plot(rows: list[dict], png: Path, custom: bool = False) -> bool:
    """Seed 003 Fig. 31 (custom=False: standard extensions, with seed 003's modules' area as a
    second series) or Fig. 35 (custom instructions), with the seed's claim beside ours."""
    what = "custom instructions (seed 003 Fig. 35)" if custom else "standard extensions (seed 003 Fig. 31)"
    claim = next(c for _, _, c, is_custom in AREA_FIGURES if is_custom == custom)
    return speedup_scatter(plot_points(rows, custom), png, f"rvlab: {what}, e31 model, Yosys GE", claim)


def draw_plots(rows: list[dict], out_dir: Path) -> list[str]:
    """Both charts (Fig. 31 and Fig. 35) in out_dir; the file names written."""
    return [f"{stem}.png" for stem, _, _, custom in AREA_FIGURES
            if plot(rows, Path(out_dir) / f"{stem}.png", custom=custom)]


def redraw_plots(out_dir: Path) -> list[str]:
    """Both charts again from the area.json in out_dir (none if `rvlab area` has not run there)."""
    try:
        rows = json.loads((Path(out_dir) / "area.json").read_text()).get("speedups") or []
    except (OSError, ValueError, AttributeError):
        rows = []
    return draw_plots(rows, out_dir)


def run(bench_json: Path, out_dir: Path, progress=print, cores: list[str] | None = None,
        liberty: Path | None = LIBERTY) -> tuple[Path, Path]:
    """Synthesise every unit, seed 003's modules, the single-cycle core and the 5-stage core's
    configurations (`cores`: names from RV5_CONFIGS, default all); write area.json, area.md
    and the two plots."""
    if not shutil.which("yosys"):
        raise AreaError("yosys not found: install it with `make setup`")
    records = load_records(bench_json)          # missing or bad: fail before synthesising
    liberty = liberty if liberty and Path(liberty).is_file() else None
    todo = units()
    if not todo:
        raise AreaError("no Verilog units (ise/*/unit.v) found")
    names = [n for n, _, _ in RV5_CONFIGS]
    unknown = set(cores or []) - set(names)
    if unknown:
        raise AreaError(f"no 5-stage core configuration {', '.join(sorted(unknown))} (have: {', '.join(names)})")
    areas = []
    for u in todo:
        progress(f"synthesising {u.name} ({u.verilog.relative_to(ROOT)})")
        areas.append(synthesise(u, liberty=liberty))
        if areas[-1].lib_error:
            progress(f"warning: no standard-cell figures for {u.name}: {areas[-1].lib_error}")
    groups = []
    by_unit = {a.name: a for a in areas}
    for name, _, parts in SEED_GROUPS:
        if len(parts) == 1 and parts[0][1] is None and parts[0][0] in by_unit:
            # a whole unit: its own figure (a second synthesis under the group's wrapper
            # differs by ABC's few percent of noise, and one circuit should have one area)
            groups.append(replace(by_unit[parts[0][0]], name=name))
            continue
        progress(f"synthesising seed 003's module {name!r}")
        groups.append(synthesise(group_unit(name, parts), liberty=liberty))
    core = None
    if CORE_FILE.is_file():
        progress(f"synthesising the single-cycle core ({CORE_FILE.relative_to(ROOT)})")
        core = synthesise(Unit(CORE_TOP, "core", CORE_FILE, CORE_TOP), liberty=liberty)
    rv5 = []
    unit_files = tuple(sorted((ROOT / "hw" / "units").glob("*_unit.v"))) + \
        tuple(ROOT / "ise" / n / "unit.v" for n in CORE_CUSTOM_UNITS)
    for name, _, params in RV5_CONFIGS:
        if cores is None or name in cores:
            progress(f"synthesising the 5-stage core {name} (minutes; cached in build/area-cache)")
            rv5.append(synthesise(Unit(name, "core", RV5_FILE, "rv5_core", unit_files, tuple(params.items())),
                                  liberty=liberty))
    base = rv5[0] if rv5 and rv5[0].name == "rv32i" else core
    usage = insn_usage(progress)
    # seed 003's modules by name; its Table 21 module is the byte-table address instruction
    group_ge = {a.name: a.ge for a in groups} | {"Address Calculation": a.ge for a in areas if a.name == "sboxaddr"}
    rows = speedups(records, {a.name: a.ge for a in areas}, {a.name: a.ext for a in areas},
                    base.ge if base else None, usage, group_ge, in_m_core_added(rv5))
    out_dir.mkdir(parents=True, exist_ok=True)
    js, md = out_dir / "area.json", out_dir / "area.md"
    version = _yosys_version()
    js.write_text(json.dumps({"ge_definition": "transistors / 4 (Yosys stat -tech cmos)",
                              "yosys": version, "flow": YOSYS_FLOW,
                              "liberty": str(liberty) if liberty else None,
                              "core": asdict(base) if base else None,
                              "single_cycle_core": asdict(core) if core else None,
                              "rv5": [asdict(a) for a in rv5],
                              "seed003_modules": [asdict(a) for a in groups],
                              "table20": [{"primitive": p, "impl": i, **u} for (p, i), u in sorted(usage.items())],
                              "units": [asdict(a) for a in areas], "speedups": rows},
                             indent=1) + "\n")
    draw_plots(rows, out_dir)
    md.write_text(render(areas, rows, core, version, rv5, groups, usage, liberty))
    return js, md
