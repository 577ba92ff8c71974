#!/usr/bin/env python3
"""Plots for the bigint primitives (seed 000, Figures 1 and 2, redrawn from measurements).

usage: python3 crypto/bigint-mul/plot.py [BENCH_JSON] [OUT_DIR]
       (defaults: results/bench.json and results/ of the repository)

Reads the records of primitives `bigint-add` and `bigint-mul` (operations add, add_bits,
mul, mul_bits; see ../bigint-add/speed.c and speed.c) and writes, per core and multiplier
latency found in the records:
  bigint-add[-<core>-mul<L>].png    cycles vs limbs: full, reduced, carry instruction, and the
                                    seed's estimate "full minus 4n cycles" (Fig. 1)
  bigint-mul[-...].png              cycles vs limbs: schoolbook and Karatsuba, full / reduced /
                                    carry, Comba and recursive Karatsuba, and the seed's estimates
                                    schoolbook - 2n^2 and karatsuba - (27n/2 + 6(n/2)^2) (Fig. 2)
  bigint-bits[-...].png             cycles at equal integer size (256..2048 bits), reduced radix
                                    with its extra limbs and the carry normalisation included
(the suffix names the core and the multiplier latency of the run, so runs with
--mul-latency 5 and 2 sit side by side; bigint-mul-large[-...].png extends the sweep to n = 128).
Exit status: 0 on success (also when there are no bigint records: nothing to draw, says so),
1 with a message on a missing or malformed bench file.
"""
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

ADD_STYLE = {"full": ("full radix (ADD+SLTU)", "C0", "o-"),
             "reduced": ("reduced radix (no carries)", "C1", "s-"),
             "carry": ("full radix, addc instruction", "C2", "^-")}
MUL_STYLE = {"schoolbook": ("schoolbook", "C0", "o-"),
             "schoolbook-reduced": ("schoolbook, reduced radix", "C1", "s-"),
             "schoolbook-carry": ("schoolbook, addc", "C2", "^-"),
             "karatsuba": ("Karatsuba (1 level)", "C3", "o--"),
             "karatsuba-reduced": ("Karatsuba, reduced radix", "C4", "s--"),
             "karatsuba-carry": ("Karatsuba, addc", "C5", "^--"),
             "comba": ("Comba (product scanning)", "C6", "D-"),
             "comba-carry": ("Comba, addc", "C7", "v-"),
             "karatsuba-rec": ("Karatsuba, recursive", "C8", "x-"),
             # labels of the two straight-line implementations: _fixed_labels() below, from their generators
             "comba-fixed": ("Comba, straight line", "C9", "*-"),
             "karatsuba-fixed": ("Karatsuba, straight line", "navy", "P-"),
             "best": ("best per n (dispatch)", "k", "-")}


def _ranges(ns):
    """(2, 3, 4, 5, 7, 9, 10, 11) -> '2..5, 7, 9..11'."""
    out, ns = [], sorted(ns)
    i = 0
    while i < len(ns):
        j = i
        while j + 1 < len(ns) and ns[j + 1] == ns[j] + 1:
            j += 1
        out.append(f"{ns[i]}..{ns[j]}" if j - i >= 2 else ", ".join(map(str, ns[i:j + 1])))
        i = j + 1
    return ", ".join(out)


def _fixed_labels():
    """Legend labels of comba-fixed and karatsuba-fixed with the limb counts their generators
    (comba-fixed/gen.py, karatsuba-fixed/gen.py: SIZES, FUSED) emit kernels for, so that the
    legend follows the code; the plain labels if a generator cannot be loaded."""
    import importlib.util
    here = Path(__file__).resolve().parent
    try:
        mods = {}
        for impl in ("comba-fixed", "karatsuba-fixed"):
            spec = importlib.util.spec_from_file_location(f"{impl.replace('-', '_')}_gen", here / impl / "gen.py")
            mods[impl] = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mods[impl])
        cfx, kf = mods["comba-fixed"], mods["karatsuba-fixed"]
        fused = sorted(kf.FUSED)
        level = sorted(set(kf.SIZES) - set(fused))
    except Exception:                       # noqa: BLE001 - a label is not worth failing the plot
        return
    MUL_STYLE["comba-fixed"] = (f"Comba, straight line for n = {_ranges(cfx.SIZES)}",) + MUL_STYLE["comba-fixed"][1:]
    MUL_STYLE["karatsuba-fixed"] = (f"Karatsuba, straight line for n = {', '.join(map(str, fused))} (fused), "
                                    f"and {', '.join(map(str, level))}",) \
        + MUL_STYLE["karatsuba-fixed"][1:]


_fixed_labels()


def load(path):
    try:
        recs = json.loads(Path(path).read_text())
    except FileNotFoundError:
        sys.exit(f"plot.py: error: {path} not found (run `rvlab bench --filter bigint` first)")
    except json.JSONDecodeError as e:
        sys.exit(f"plot.py: error: {path} is not valid JSON: {e}")
    if not isinstance(recs, list):
        sys.exit(f"plot.py: error: {path} must hold a JSON list of records")
    return [r for r in recs if isinstance(r, dict) and r.get("primitive") in ("bigint-add", "bigint-mul")
            and isinstance(r.get("cycles"), (int, float))]


def series(recs, primitive, operation, key):
    """{impl: sorted [(x, cycles)]} for one primitive/operation, x = record[key]."""
    out = defaultdict(dict)
    for r in recs:
        if r["primitive"] == primitive and r.get("operation") == operation and key in r:
            out[r["impl"]][int(r[key])] = r["cycles"]
    return {k: sorted(v.items()) for k, v in out.items()}


def draw(ax, data, styles, max_x=None, even_only=()):
    for impl, pts in sorted(data.items(), key=lambda kv: list(styles).index(kv[0]) if kv[0] in styles else 99):
        if impl in even_only:
            pts = [p for p in pts if p[0] % 2 == 0]
        if max_x:
            pts = [p for p in pts if p[0] <= max_x]
        if not pts:
            continue
        label, color, fmt = styles.get(impl, (impl, None, ".-"))
        ax.plot([p[0] for p in pts], [p[1] for p in pts], fmt, color=color, label=label, markersize=3)


def estimate(ax, pts, fn, label, color, even_only=False):
    pts = [p for p in pts if not even_only or p[0] % 2 == 0]
    if pts:
        ax.plot([p[0] for p in pts], [c - fn(n) for n, c in pts], ":", color=color, label=label, linewidth=2)


def main(argv):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bench = Path(argv[1]) if len(argv) > 1 else ROOT / "results" / "bench.json"
    outdir = Path(argv[2]) if len(argv) > 2 else ROOT / "results"
    recs = load(bench)
    if not recs:
        print(f"plot.py: no bigint-add/bigint-mul records in {bench}: nothing to plot")
        return 0
    outdir.mkdir(parents=True, exist_ok=True)
    groups = defaultdict(list)
    for r in recs:
        groups[(r.get("core", "?"), r.get("mul_latency"))].append(r)
    written = []
    for (core, lat), rs in sorted(groups.items(), key=lambda kv: (str(kv[0][0]), str(kv[0][1]))):
        suffix = f"-{core}-mul{lat}" if lat is not None else f"-{core}"
        title = f"core {core}, multiplier latency {lat if lat is not None else '?'}"

        add = series(rs, "bigint-add", "add", "limbs")
        if add:
            fig, ax = plt.subplots(figsize=(7, 4.5))
            draw(ax, add, ADD_STYLE)
            if "full" in add:
                estimate(ax, add["full"], lambda n: 4 * n, "seed estimate: full - 4n", "C2")
            ax.set(xlabel="limbs n", ylabel="cycles", title=f"bigint addition ({title})")
            ax.grid(alpha=0.3)
            ax.legend(fontsize=8)
            p = outdir / f"bigint-add{suffix}.png"
            fig.tight_layout(); fig.savefig(p, dpi=120); plt.close(fig); written.append(p)

        mul = series(rs, "bigint-mul", "mul", "limbs")
        if mul:
            karas = ("karatsuba", "karatsuba-reduced", "karatsuba-carry")
            for maxn, tag in ((32, ""), (None, "-large")):
                fig, ax = plt.subplots(figsize=(8, 5.5))
                draw(ax, mul, MUL_STYLE, max_x=maxn, even_only=karas)
                if maxn:
                    if "schoolbook" in mul:
                        estimate(ax, [p for p in mul["schoolbook"] if p[0] <= maxn],
                                 lambda n: 2 * n * n, "seed estimate: schoolbook - 2n^2", "C2")
                    if "karatsuba" in mul:
                        estimate(ax, [p for p in mul["karatsuba"] if p[0] <= maxn],
                                 lambda n: 27 * n / 2 + 6 * (n / 2) ** 2,
                                 "seed estimate: karatsuba - (27n/2 + 6(n/2)^2)", "C5", even_only=True)
                else:
                    ax.set_xscale("log", base=2)
                    ax.set_yscale("log")
                ax.set(xlabel="limbs n", ylabel="cycles", title=f"bigint multiplication ({title})")
                ax.grid(alpha=0.3)
                ax.legend(fontsize=7)
                p = outdir / f"bigint-mul{tag}{suffix}.png"
                fig.tight_layout(); fig.savefig(p, dpi=120); plt.close(fig); written.append(p)

        addb = series(rs, "bigint-add", "add_bits", "bits")
        mulb = series(rs, "bigint-mul", "mul_bits", "bits")
        if addb or mulb:
            fig, axs = plt.subplots(1, 2, figsize=(11, 4.5))
            draw(axs[0], addb, ADD_STYLE)
            axs[0].set(xlabel="integer size (bits)", ylabel="cycles",
                       title="addition at equal size (reduced: + normalisation)")
            draw(axs[1], mulb, MUL_STYLE)
            axs[1].set(xlabel="integer size (bits)", ylabel="cycles",
                       title="multiplication at equal size")
            for ax in axs:
                ax.set_xscale("log", base=2)
                ax.set_yscale("log")
                ax.grid(alpha=0.3)
                ax.legend(fontsize=7)
            fig.suptitle(title)
            p = outdir / f"bigint-bits{suffix}.png"
            fig.tight_layout(); fig.savefig(p, dpi=120); plt.close(fig); written.append(p)
    for p in written:
        print(f"plot.py: wrote {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
