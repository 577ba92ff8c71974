"""Seed 004's Table 6 in results/bench.md (Seo et al., "All the Polynomial Multiplication You Need
on RISC-V"): cycles of 128/256/512-bit binary polynomial multiplication on the HiFive1 (E31
silicon), the table-lookup (López-Dahab) and constant-time "secure branch" methods, beside ours on
the e31 model, as a table and a chart. (Its Table 5, instruction counts, is
crypto/polymul-128/table5.py's polymul_table5.md.)"""
from __future__ import annotations

from pathlib import Path

from .plotting import grouped_bars, plain_log_axis, pyplot, save
from .records import Record
from .tables import find, fmt

SIZES = [("polymul-128", 32), ("polymul-256", 64), ("polymul-512", 128)]     # primitive, input bytes
# the seed's methods (published.csv `implementation`) and ours that do the same thing on rv32i(m)
METHODS = [("lut", "lut", "table lookup (López-Dahab)"), ("secure-branch", "ct", "constant time (secure branch)")]
# ours with extensions, beside them: custom instructions of seed 004 §3.3, and Zbkc's clmul
EXTENDED = [("lut-x", "lut + seed 004's instructions"), ("ct-x", "ct + seed 004's instructions"),
            ("zbkc", "Zbkc (clmul/clmulh)")]
FIGURE = "seed004-table6.png"


def _published(published: list[dict], prim: str, method: str) -> float | None:
    for p in published:
        if p.get("source") == "seed-004 Table 6" and (p["primitive"], p["implementation"]) == (prim, method):
            try:
                return float(p["value"])
            except ValueError:
                return None
    return None


def rows(records: list[Record], published: list[dict]) -> list[dict]:
    out = []
    for prim, nb in SIZES:
        row = {"prim": prim, "nb": nb}
        for method, impl, _ in METHODS:
            row[("seed", method)] = _published(published, prim, method)
            row[("ours", method)] = find(records, prim, impl, "mul", nb)
        for impl, _ in EXTENDED:
            row[impl] = find(records, prim, impl, "mul", nb)
        out.append(row)
    return out


def section(records: list[Record], published: list[dict], figures: list[str] | None = None) -> list[str]:
    rs = rows(records, published)
    if not any(r[("ours", m)] for r in rs for m, _, _ in METHODS):
        return []
    out = ["## Seed 004 Table 6", "",
           "Binary polynomial multiplication, cycles: seed 004 on the HiFive1 (E31 silicon, Table 6) beside ours "
           "on the e31 model (speed-up = seed / ours), and ours with extensions. Its Table 5 (instruction "
           "counts of one 128-bit multiplication) is [polymul_table5.md](polymul_table5.md).", "",
           "| size | seed LUT | ours lut | speed-up | seed secure branch | ours ct | speed-up | "
           + " | ".join(f"ours {impl}" for impl, _ in EXTENDED) + " |",
           "|---|--:|--:|--:|--:|--:|--:|" + "--:|" * len(EXTENDED)]
    for r in rs:
        cells = []
        for method, _, _ in METHODS:
            s, o = r[("seed", method)], r[("ours", method)]
            cells += [fmt(int(s)) if s else "–", fmt(o.cycles) if o else "–",
                      f"{s / o.cycles:.2f}×" if s and o else "–"]
        cells += [fmt(r[impl].cycles) if r[impl] else "–" for impl, _ in EXTENDED]
        out.append(f"| {r['nb'] * 4} bits | " + " | ".join(cells) + " |")
    out.append("")
    if figures and FIGURE in figures:
        out += [f"![Seed 004 Table 6 as a chart: cycles per multiplication, the seed's beside ours]({FIGURE})", ""]
    return out


def draw_figure(records: list[Record], published: list[dict], out_dir: Path) -> list[str]:
    plt = pyplot()
    rs = rows(records, published)
    if plt is None or not any(r[("ours", m)] for r in rs for m, _, _ in METHODS):
        return []
    series = [("seed 004 LUT (E31)", "#9ecae1", [r[("seed", "lut")] for r in rs]),
              ("ours lut", "#2171b5", [r[("ours", "lut")] and r[("ours", "lut")].cycles for r in rs]),
              ("seed 004 secure branch (E31)", "#fdae6b", [r[("seed", "secure-branch")] for r in rs]),
              ("ours ct", "#d94801", [r[("ours", "secure-branch")] and r[("ours", "secure-branch")].cycles for r in rs])]
    series += [(f"ours {impl}: {what}", color, [r[impl] and r[impl].cycles for r in rs])
               for (impl, what), color in zip(EXTENDED, ("#6baed6", "#fd8d3c", "#74c476"))]
    fig, ax = plt.subplots(figsize=(9, 5))
    grouped_bars(ax, [f"{r['nb'] * 4}-bit" for r in rs], series, lambda v: f"{v:,.0f}")
    values = [v for _, _, vs in series for v in vs if v]
    ax.set_yscale("log")
    ax.set_ylim(min(values) / 2, max(values) * 10)
    plain_log_axis(ax.yaxis, *ax.get_ylim())
    ax.set_ylabel("cycles (log scale); ours on the e31 model")
    ax.set_title("Seed 004 Table 6: binary polynomial multiplication, the seed's E31 cycles beside ours", fontsize=9)
    ax.legend(fontsize=7, ncol=2, loc="upper left")
    return [save(fig, Path(out_dir) / FIGURE)]
