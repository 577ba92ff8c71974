"""What the report's charts share: matplotlib without a display, log axes with plain tick labels
(1, 2, 5, 10, 20, ... -- not 2x10^0), point labels placed apart (adjustText), and the scatter of
speed-up against relative area that `rvlab area` and seed 003's Fig. 31/35 draw."""
from __future__ import annotations

import math
from pathlib import Path


def pyplot():
    """matplotlib.pyplot on the Agg back end, or None if matplotlib is missing."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def _plain(v: float, _pos=None) -> str:
    return f"{v:,.0f}" if v >= 10 else f"{v:.3g}"


def plain_log_axis(axis, lo: float, hi: float) -> None:
    """A log-scale axis (ax.xaxis / ax.yaxis) from lo to hi with ticks at 1, 2, 5 x 10^k written
    as plain numbers, and no minor tick labels."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter
    ticks = [m * 10 ** k for k in range(math.floor(math.log10(lo)) - 1, math.ceil(math.log10(hi)) + 1)
             for m in (1, 2, 5) if lo <= m * 10 ** k <= hi]
    if len(ticks) < 4:                      # a narrow range: finer steps
        ticks = [m * 10 ** k for k in range(math.floor(math.log10(lo)) - 1, math.ceil(math.log10(hi)) + 1)
                 for m in (1, 1.2, 1.5, 2, 3, 4, 5, 6, 8) if lo <= m * 10 ** k <= hi]
    axis.set_major_locator(FixedLocator(ticks))
    axis.set_major_formatter(FuncFormatter(_plain))
    axis.set_minor_formatter(NullFormatter())


def grouped_bars(ax, groups: list[str], series: list[tuple[str, str, list]], fmt_value) -> None:
    """Grouped bars: series = (label, colour, one value or None per group), each bar labelled
    with fmt_value(value)."""
    n = len(series)
    width = 0.8 / n
    for j, (label, color, values) in enumerate(series):
        xs = [i - 0.4 + width * (j + 0.5) for i, v in enumerate(values) if v]
        ys = [v for v in values if v]
        if not xs:
            continue
        ax.bar(xs, ys, width, label=label, color=color, edgecolor="0.3", linewidth=0.4)
        for x, y in zip(xs, ys):
            ax.text(x, y, " " + fmt_value(y), rotation=90, ha="center", va="bottom", fontsize=6.5)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, fontsize=7.5)
    ax.legend(fontsize=7, loc="upper left")
    ax.grid(axis="y", alpha=0.3)


def save(fig, png: Path) -> str:
    """Write the figure (110 dpi) and close it; its file name."""
    import matplotlib.pyplot as plt
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    plt.close(fig)
    return Path(png).name


def place_labels(ax, texts: list) -> None:
    """Move the labels of a scatter plot apart (adjustText), with a thin line to their point."""
    if not texts:
        return
    try:
        from adjustText import adjust_text
    except ImportError:                     # labels stay where they are
        return
    adjust_text(texts, ax=ax, expand=(1.15, 1.4), arrowprops=dict(arrowstyle="-", color="0.55", lw=0.5))


def speedup_scatter(points: list[dict], png: Path, title: str, note: str = "") -> bool:
    """One point per row of area.json's speed-ups (relative_area, speedup_min/max/geomean): the
    speed-up an extension buys against its area relative to the baseline RV32I core; each point
    numbered, the names in a key beside the axes.
    Returns False if matplotlib is missing or there is nothing to draw."""
    plt = pyplot()
    pts = [p for p in points if p.get("relative_area")]
    if plt is None or not pts:
        return False
    fig, (ax, kax) = plt.subplots(1, 2, figsize=(13, 6.5), gridspec_kw={"width_ratios": [2.3, 1]})
    kax.axis("off")
    labels: dict[tuple, list[str]] = {}     # points that coincide (within 1%) share one number
    for p in pts:
        x, y = 100 * p["relative_area"], p["speedup_geomean"]
        ax.plot([x, x], [p["speedup_min"], p["speedup_max"]], color="0.75", lw=1)
        ax.plot(x, y, "o", color="#d94801" if p.get("custom") else "#2171b5", ms=5)
        at = next((k for k in labels if abs(k[0] / x - 1) < 0.01 and abs(k[1] / y - 1) < 0.01), (x, y))
        labels.setdefault(at, []).append(f"{p['primitive']}/{p['impl']} {p['operation']}")
    # a number beside each point and the names in a key to the right: dozens of names would
    # cover each other (and the points) wherever they were put inside the axes
    order = sorted(labels, key=lambda k: (-k[1], k[0]))
    texts = [ax.text(x, y, str(i), fontsize=7, fontweight="bold") for i, (x, y) in enumerate(order, 1)]
    key = [f"{i:>2}  " + "\n    ".join(labels[k]) for i, k in enumerate(order, 1)]
    kax.text(0, 1, "\n".join(key), fontsize=7.5, family="monospace", va="top", ha="left", transform=kax.transAxes)
    seed_mod = [p for p in pts if p.get("relative_area_seed_modules")]
    for p in seed_mod:                      # the same speed-up at the area of seed 003's module
        ax.plot(100 * p["relative_area_seed_modules"], p["speedup_geomean"], "s", mfc="none", color="0.35", ms=5)
    xs = [100 * p["relative_area"] for p in pts] + [100 * p["relative_area_seed_modules"] for p in seed_mod]
    ys = [v for p in pts for v in (p["speedup_min"], p["speedup_max"])] + [1.0]
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(min(xs) / 1.5, max(xs) * 1.8)
    ax.set_ylim(min(ys) / 1.25, max(ys) * 1.4)
    plain_log_axis(ax.xaxis, *ax.get_xlim())
    plain_log_axis(ax.yaxis, *ax.get_ylim())
    ax.axhline(1, color="0.5", lw=0.8, ls="--")
    ax.set_xlabel("extension area relative to the baseline RV32I core (%, log scale)")
    ax.set_ylabel("speed-up (×, log scale; geometric mean over sizes, bar = range)")
    ax.set_title(title + (f"\n{note}" if note else ""), fontsize=9)
    ax.plot([], [], "o", color="#2171b5", label="standard extension")
    ax.plot([], [], "o", color="#d94801", label="custom instruction")
    if seed_mod:
        ax.plot([], [], "s", mfc="none", color="0.35", label="the same, at the area of seed 003's module")
    ax.legend(fontsize=7, loc="upper left")
    ax.grid(alpha=0.3)
    place_labels(ax, texts)
    save(fig, png)
    return True
