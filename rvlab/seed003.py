"""Seed 003's tables and figures in results/bench.md (G. Nişancı, P. G. Flikkema, T. Yalçın,
"Symmetric Cryptography on RISC-V", Cryptography 6(3):41, 2022): its one-block cycle counts on a
1-CPI model (Tables 4-6), program bytes (Tables 13-15) and data bytes (Tables 16-18) from
reference/published.csv beside ours on `ideal` (the same 1-CPI ground) and `e31`, its Fig. 29
(block ciphers) and Fig. 30 (hashes) redrawn from our runs, and its §7.5 claim for the S-box
address instruction.

Data-driven: VARIANTS maps each of the seed's algorithms/versions to our primitive and names
which of our implementations do what the seed's rv32i one does ("base") and which use the
ratified scalar crypto extensions the seed's "rv32i+crypto" stands for (Zbkb, Zbkx, Zkn*, Zks*,
or the seed's own draft set). A row appears for every seed figure and for every record of ours
that exists; implementations not measured yet are simply absent."""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from .plotting import plain_log_axis, pyplot, save
from .records import Record
from .tables import ct_mark, default_latency, fmt, manifest_value

BASE, CRYPTO = "rv32i", "rv32i+crypto"          # the seed's two ISAs (published.csv `isa`)


@dataclass(frozen=True)
class Variant:
    """One column of seed 003's Tables 4-6: an algorithm, or one version of it."""
    table: str                  # the seed table it belongs to: "Table 4", "Table 5" or "Table 6"
    label: str                  # as the seed names it
    published: str | None       # published.csv `primitive` (None: not in the seed)
    versions: tuple             # published.csv `implementation` values of this version
    primitive: str              # ours
    operation: str
    input_bytes: int            # one block
    base: tuple = ()            # our rv32i implementations
    crypto: tuple = ()          # ours with the scalar crypto extensions
    with_keyexp: bool = False   # the seed's count includes its key schedule (its own per-operation
                                # tables say so; the primitive's NOTES.md, "like for like", shows how)


# SEED: the seed's prose (§4.2, §7.1) says V1 uses the two 8x8 S-boxes and V2 the four 8x32 SS
# tables, but its own Tables 5, 7, 14 and 17 say the opposite: V1 is the fast one (2,133 cycles)
# with 4,176 data bytes (four 1 KiB SS tables + constants), V2 the slow one (4,533) with 576 bytes
# (two 256-byte S-boxes + constants), and the xperm4 crypto version (8x8 S-box addresses, §4.2)
# is V2's. We follow the tables: V1 = seed128/table, V2 = seed128/table-small (as issue 18 does).
# CAMELLIA: V1 stores four 8x8 S-boxes, V2 one S-box and rotations (§4.3).
# AES: the seed's rv32i version is a T-table one (§4.1), its crypto one aes32esmi/aes32esi (Zkne);
# beside the T-table one our constant-time fixsliced kernel (its Zbkb variant is no stand-in for
# the AES instructions, so the crypto row is Zkne's alone).
# SHA3-256: one block = what SHA-256's compress is to SHA-256: one 136-byte rate block absorbed
# (XOR into the state, one Keccak-f[1600]), crypto/sha3-256's `compress` record.
VARIANTS = [
    Variant("Table 4", "TDEA", "tdea-encrypt", ("",), "tdea", "encrypt", 8, ("rv32i",), ("zbkb",), with_keyexp=True),
    Variant("Table 4", "MISTY1", "misty1-encrypt", ("",), "misty1", "encrypt", 8, ("rv32i",), ("zbkb",)),
    Variant("Table 4", "CAST-128", "cast128-encrypt", ("",), "cast128", "encrypt", 8, ("rv32i",), ("zbkb",), with_keyexp=True),
    Variant("Table 4", "HIGHT", "hight-encrypt", ("",), "hight", "encrypt", 8, ("rv32i", "rv32i-ct"), ("zbkb",)),
    Variant("Table 4", "PRESENT", "present-encrypt", ("",), "present80", "encrypt", 8,
            ("rv32i", "rv32i-ct"), ("zbkb-zbkx", "xzbp")),
    Variant("Table 5", "AES", "aes128-encrypt", ("", "ttable"), "aes128", "encrypt", 16, ("table", "fixsliced"),
            ("zkne",)),
    Variant("Table 5", "CAMELLIA V1", "camellia128-encrypt", ("v1",), "camellia128", "encrypt", 16,
            ("table",), ("zbkb",), with_keyexp=True),
    Variant("Table 5", "CAMELLIA V2", "camellia128-encrypt", ("v2",), "camellia128", "encrypt", 16,
            ("table-small",), (), with_keyexp=True),
    Variant("Table 5", "SEED V1", "seed-encrypt", ("v1",), "seed128", "encrypt", 16, ("table",), (), with_keyexp=True),
    Variant("Table 5", "SEED V2", "seed-encrypt", ("v2",), "seed128", "encrypt", 16, ("table-small",), ("zbkb-ct",),
            with_keyexp=True),
    Variant("Table 5", "SM4 (not in the seed)", None, (), "sm4", "encrypt", 16, ("table", "rv32i-ct"),
            ("zksed", "zbkb-ct")),
    Variant("Table 6", "SHA-256", "sha256-compress", ("",), "sha256", "compress", 64, ("rv32i",), ("zknh", "zbkb")),
    Variant("Table 6", "SHA-512", "sha512-compress", ("",), "sha512", "compress", 128, ("rv32i",), ("zknh", "zbkb")),
    Variant("Table 6", "SHA3-256", "sha3-256", ("",), "sha3-256", "compress", 136, ("rv32i",), ("zbkb",)),
    Variant("Table 6", "SM3 (not in the seed)", None, (), "sm3", "compress", 64, ("rv32i",), ("zksh", "zbkb")),
]
TABLES = {"Table 4": "64-bit block ciphers (Tables 4, 13, 16)",
          "Table 5": "128-bit block ciphers (Tables 5, 14, 17)",
          "Table 6": "hash functions (Tables 6, 15, 18)"}
# the figures redrawn: file name stem, seed figure, the seed tables it draws
FIGURES = [("seed003-fig29-block-ciphers", "Fig. 29: cycles per block cipher", ("Table 4", "Table 5")),
           ("seed003-fig30-hashes", "Fig. 30: cycles per hash", ("Table 6",))]
# Fig. 31 and 35 (acceleration vs relative hardware cost) are `rvlab area`'s two charts (drawn by
# rvlab/area.py from area.json): file name stem, title, the seed's claim (§7.3, §7.5), and
# whether the chart shows the custom instructions
AREA_FIGURES = [("area-speedup", "Fig. 31: speed-up vs relative area, standard crypto extensions",
                 "seed 003: 1.5-8.6x faster for less than 9% more area (its rv32i+crypto set, 1-CPI model)",
                 False),
                ("area-speedup-custom", "Fig. 35: speed-up vs relative area, custom instructions",
                 "seed 003: 1.2-1.6x faster for less than 1.5% more area (its S-box address instruction)",
                 True)]
# §7.5: the S-box address instruction (our `table-xsbox` kernels, custom ISA xsbox) over the kernel
# it extends (its manifest's `baseline`); the seed claims 1.2-1.6x on four S-box-heavy ciphers
XSBOX_IMPL = "table-xsbox"


# ------------------------------------------------------------------ lookups
def published_figure(published: list[dict], v: Variant, table: str, metric: str, isa: str) -> str | None:
    """The seed's value for one variant, ISA and metric ("cycles", "program_bytes", "static_bytes")."""
    if v.published is None:
        return None
    for p in published:
        if (p.get("source", "").startswith(f"seed-003 {table}") and p["primitive"] == v.published
                and p["implementation"] in v.versions and p["isa"] == isa and p["metric"] == metric):
            return p["value"]
    return None


def seed_cycles(published, v, isa):
    return published_figure(published, v, v.table, "cycles", isa)


def seed_program_bytes(published, v, isa):
    table = {"Table 4": "Table 13", "Table 5": "Table 14", "Table 6": "Table 15"}[v.table]
    return published_figure(published, v, table, "program_bytes", isa)


def seed_data_bytes(published, v):
    return published_figure(published, v, "Tables 16-18", "static_bytes", "any")


def _record(records: list[Record], prim: str, impl: str, op: str, core: str,
            input_bytes: int | None = None) -> Record | None:
    """Our record of one operation (of input_bytes, if given) by prim/impl on core, at the
    core's default multiplier latency."""
    lat = default_latency(records, core)
    return next((r for r in records if (r.primitive, r.impl, r.operation, r.core) == (prim, impl, op, core)
                 and input_bytes in (None, r.input_bytes) and r.mul_latency == lat and not r.extra), None)


def ours(records: list[Record], v: Variant, impl: str, core: str) -> Record | None:
    """Our record of the variant's one-block operation by impl on core."""
    return _record(records, v.primitive, impl, v.operation, core, v.input_bytes)


def keyexp_record(records: list[Record], v: Variant, impl: str, core: str) -> Record | None:
    """Our key schedule record of the variant's implementation on core."""
    return _record(records, v.primitive, impl, "keyexp", core)


def impls_of(v: Variant, isa: str) -> tuple:
    return v.base if isa == BASE else v.crypto


def fastest(records: list[Record], v: Variant, isa: str, core: str) -> Record | None:
    """Our fastest passing implementation of the variant in the ISA class, on core."""
    rs = [r for r in (ours(records, v, i, core) for i in impls_of(v, isa)) if r and r.kat == "pass"]
    return min(rs, key=lambda r: r.cycles) if rs else None


def _num(s: str | None) -> float | None:
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def _speedup(seed: str | None, r: Record | None) -> str:
    s = _num(seed)
    return f"{s / r.cycles:.2f}×" if s and r and r.cycles else "–"


# ------------------------------------------------------------------ tables
def _rows(records: list[Record], published: list[dict], v: Variant) -> list[str]:
    out = []
    data = seed_data_bytes(published, v)
    for isa in (BASE, CRYPTO):
        cyc = seed_cycles(published, v, isa)
        prog = seed_program_bytes(published, v, isa)
        mine = [(i, ours(records, v, i, "ideal"), ours(records, v, i, "e31")) for i in impls_of(v, isa)]
        mine = [m for m in mine if m[1] or m[2]]
        if not mine and cyc is None:
            continue                    # neither the seed nor we have this one
        seed_cells = (f"{isa} | {fmt(int(cyc)) if cyc else ('NC' if v.published else '—')} | "
                      f"{fmt(int(prog)) if prog else '–'} | {fmt(int(data)) if data else '–'}")
        if not mine:
            out.append(f"| {v.label} | {seed_cells} | – | – | – | – | – | – | – | – | – | – |")
        for impl, ri, re in mine:
            any_r = ri or re
            kx = keyexp_record(records, v, impl, "ideal") if ri else None
            both = f"{fmt(ri.cycles + kx.cycles)}" if kx else "–"
            like = (f"{_num(cyc) / (ri.cycles + kx.cycles):.2f}×" if kx and v.with_keyexp and _num(cyc)
                    else "–")
            out.append(f"| {v.label} | {seed_cells} | {v.primitive}/{impl} ({any_r.isa}) | "
                       f"{fmt(ri.cycles) if ri else '–'} | {fmt(re.cycles) if re else '–'} | "
                       f"{_speedup(cyc, ri)} | {_speedup(cyc, re)} | {both} | {like} | {fmt(any_r.code_bytes)} | "
                       f"{fmt(any_r.static_bytes)} | {ct_mark(any_r)} |")
    return out


def _xsbox_rows(records: list[Record]) -> list[str]:
    """Our S-box address instruction kernels against their baselines, on both cores."""
    out = []
    prims = sorted({v.primitive for v in VARIANTS})
    for prim in prims:
        base = manifest_value(prim, XSBOX_IMPL, "baseline")
        for op in ("encrypt", "decrypt"):
            cells = []
            for core in ("ideal", "e31"):
                lat = default_latency(records, core)
                pick = {r.impl: r for r in records if (r.primitive, r.operation, r.core) == (prim, op, core)
                        and r.impl in (XSBOX_IMPL, base) and r.mul_latency == lat and not r.extra}
                x, b = pick.get(XSBOX_IMPL), pick.get(base)
                cells.append((x, b))
            if not any(x and b for x, b in cells):
                continue
            row = f"| {prim} | {op} | {base} |"
            for x, b in cells:
                row += (f" {fmt(b.cycles)} → {fmt(x.cycles)} | {b.cycles / x.cycles:.2f}× |" if x and b else " – | – |")
            out.append(row)
    return out


def section(records: list[Record], published: list[dict], md_dir: Path | None = None,
            figures: list[str] | None = None) -> list[str]:
    """The "Seed 003" section of bench.md (figures: the PNG file names drawn beside it)."""
    out = ["## Seed 003", "",
           "Seed 003 measured one block of each cipher (one compression of each hash) on a 1-CPI "
           "5-stage model, in rv32i and in rv32i+crypto (the scalar crypto extension's instructions, "
           "as drafted then). Beside each of its figures: ours on `ideal` (one cycle per instruction: "
           "the seed's own ground) and on `e31` (what the HiFive1 would take), the speed-up = seed "
           "cycles / our cycles, and sizes. Ours are `encrypt` with the round keys ready (the key "
           "schedule is measured on its own) "
           "or `compress` (SHA3-256: one 136-byte block absorbed, XOR and one Keccak-f[1600]). Seed program "
           "bytes (Tables 13-15) are its instruction count × 4, ours the implementation's whole "
           "`.text` (key schedule, encryption and decryption); seed data bytes (Tables 16-18) its "
           "constants and S-boxes, ours the implementation's tables. NC: the seed has no crypto "
           "version. Which of our implementations stands for the seed's rv32i and rv32i+crypto "
           "versions: `rvlab/seed003.py` (SEED V1/V2 follow the seed's tables, not its prose). "
           "**Key schedules:** for TDEA, CAST-128, CAMELLIA and SEED the seed's own per-operation "
           "tables (7, 8, 9, 11) count key-schedule work in its one-block figure (each primitive's "
           "NOTES.md, \"like for like\", shows how), so there the last speed-up column sets our "
           "key schedule + encryption (`ideal`) against it: that is the like-for-like figure, the "
           "encrypt-only speed-up beside it is not. For the other ciphers the seed does not say; "
           "our keyexp + encrypt is given for reference.", ""]
    for table, title in TABLES.items():
        rows = [row for v in VARIANTS if v.table == table for row in _rows(records, published, v)]
        out += [f"### {title}", "",
                "| algorithm | seed ISA | seed cycles | seed program B | seed data B | ours (isa) | ideal cycles | "
                "e31 cycles | speed-up (ideal) | speed-up (e31) | ideal keyexp + one block | "
                "speed-up with key schedule (ideal) | our code B | our data B | CT |",
                "|---|---|--:|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|---|"] + rows + [""]
    for stem, title, _ in FIGURES:
        name = f"{stem}.png"
        if figures and name in figures:
            out += [f"![Seed 003 {title}, redrawn]({name})", ""]
    if not figures:
        out += ["(Fig. 29 and Fig. 30 are redrawn when there are records of their primitives.)", ""]
    for stem, title, claim, _ in AREA_FIGURES:
        if figures and f"{stem}.png" in figures:
            out += [f"![Seed 003 {title} ({claim}); ours from `rvlab area`]({stem}.png)", ""]
    xs = _xsbox_rows(records)
    if xs:
        out += ["### The S-box address instruction (§7.5)", "",
                "Seed 003 claims 1.2-1.6× from its S-box address instruction on four S-box-heavy ciphers. "
                "Ours (`table-xsbox`, custom ISA `xsbox`) against the kernel it extends:", "",
                "| primitive | operation | over | ideal cycles | ideal speed-up | e31 cycles | e31 speed-up |",
                "|---|---|---|--:|--:|--:|--:|"] + xs + [""]
    if md_dir is not None:
        tables = [(v.primitive, Path(md_dir) / f"{v.primitive}_optable.md") for v in VARIANTS]
        tables = list(dict.fromkeys((p, f) for p, f in tables if f.exists()))
        if tables:
            out += ["Where the cycles go (seed 003 Tables 7-12 for ours): "
                    + ", ".join(f"[{p}]({f.name})" for p, f in tables) + ".", ""]
    return out


# ------------------------------------------------------------------ figures
def figure_data(records: list[Record], published: list[dict], tables: tuple) -> list[tuple]:
    """Per variant of the tables: (label, {bar: (cycles, impl)}) for the seed's and our bars."""
    out = []
    for v in VARIANTS:
        if v.table not in tables:
            continue
        bars = {}
        for isa in (BASE, CRYPTO):
            s = _num(seed_cycles(published, v, isa))
            if s:
                bars[("seed", isa)] = (s, "")
            for core in ("ideal", "e31"):
                r = fastest(records, v, isa, core)
                if r:
                    bars[(core, isa)] = (r.cycles, r.impl)
        if bars:
            out.append((v.label + (" *" if v.with_keyexp else ""), bars))
    return out


BAR_STYLE = [(("seed", BASE), "seed 003 rv32i", "#9ecae1", "//"),
             (("ideal", BASE), "ours rv32i, ideal", "#2171b5", None),
             (("e31", BASE), "ours rv32i, e31", "#6baed6", None),
             (("seed", CRYPTO), "seed 003 rv32i+crypto", "#fdae6b", "//"),
             (("ideal", CRYPTO), "ours +crypto, ideal", "#d94801", None),
             (("e31", CRYPTO), "ours +crypto, e31", "#fd8d3c", None)]


def draw_figures(records: list[Record], published: list[dict], out_dir: Path) -> list[str]:
    """Fig. 29 and Fig. 30 as PNGs in out_dir (when we have a record of one of their primitives);
    the file names written."""
    written = []
    for stem, title, tables in FIGURES:
        data = figure_data(records, published, tables)
        if not any(k[0] != "seed" for _, bars in data for k in bars):
            continue
        if _plot(data, title, Path(out_dir) / f"{stem}.png"):
            written.append(f"{stem}.png")
    return written


def _plot(data: list[tuple], title: str, png: Path) -> bool:
    plt = pyplot()
    if plt is None:
        return False
    n = len(BAR_STYLE)
    width = 0.8 / n
    fig, ax = plt.subplots(figsize=(max(6.0, 1.1 * len(data) + 2), 5.2))
    for j, (key, label, color, hatch) in enumerate(BAR_STYLE):
        xs, ys, names = [], [], []
        for i, (_, bars) in enumerate(data):
            if key in bars:
                xs.append(i - 0.4 + width * (j + 0.5))
                ys.append(bars[key][0])
                names.append(bars[key][1])
        if not xs:
            continue
        ax.bar(xs, ys, width, label=label, color=color, hatch=hatch, edgecolor="0.3", linewidth=0.4)
        for x, y, impl in zip(xs, ys, names):
            ax.text(x, y * 1.08, f"{y:,.0f}" + (f" {impl}" if impl else ""), rotation=90, ha="center",
                    va="bottom", fontsize=6)
    ax.set_yscale("log")
    values = [b[0] for _, bars in data for b in bars.values()]
    ax.set_ylim(10 ** math.floor(math.log10(min(values) / 2)), max(values) * 8)
    plain_log_axis(ax.yaxis, *ax.get_ylim())
    ax.set_xticks(range(len(data)))
    ax.set_xticklabels([label for label, _ in data], rotation=20, ha="right", fontsize=8)
    ax.set_ylabel("cycles (log scale)")
    starred = any(label.endswith(" *") for label, _ in data)
    ax.set_title(f"Seed 003 {title}, redrawn\nthe seed's bars (hatched) beside ours (fastest implementation "
                 f"per ISA class, one block)"
                 + ("\n* the seed's figure includes its key schedule (bench.md: like-for-like column)" if starred else ""),
                 fontsize=9)
    ax.legend(fontsize=7, ncol=2, loc="upper right")
    ax.grid(axis="y", alpha=0.3)
    save(fig, png)
    return True
