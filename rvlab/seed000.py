"""Seed 000's tables in results/bench.md (K. Stoffelen, LATINCRYPT 2019): Table 1 (our e31
figures beside the HiFive1's and the Cortex-M4's), Table 2 (what a rotate instruction would
save) and whether each speed program fits the HiFive1's memories."""
from __future__ import annotations

from pathlib import Path

from .plotting import grouped_bars, plain_log_axis, pyplot, save
from .records import Record
from .tables import default_latency, find, fmt, manifest_value

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
# the published Table 2 row of each kernel
T2_PUBLISHED = {"aes128": "aes128-encrypt", "aes128-ctr": "aes128-ctr", "chacha20": "chacha20",
                "keccakf1600": "keccakf1600"}
# seed 000 §7.2: "Assuming that the rotation would be possible in a single cycle": a rotation
# costs two shifts and an OR on RV32I (3 single-cycle instructions), so each saves 2 cycles
ROTATION_SAVING = 2
BOARD_BYTES = 16 * 1024           # HiFive1: 16 KiB DTIM, 16 KiB I-cache


def _value(p: dict | None) -> float | None:
    try:
        return float(p["value"]) if p else None
    except (TypeError, ValueError):
        return None


def table1_rows(records: list[Record], published: list[dict]) -> list[dict]:
    """Per Table 1 row: the label, our rv32i record, the published E31 and Cortex-M4 rows and our
    fastest record of that operation with any ISA."""
    pub = {(p["primitive"], p["implementation"], p["platform"].split(" ")[0]): p for p in published
           if p.get("source") == "seed-000 Table 1"}
    lat = default_latency(records)
    rows = []
    for pprim, pimpl, (prim, impl, op, nb) in SEED000_T1:
        cands = [x for x in records if (x.primitive, x.operation, x.input_bytes, x.core) == (prim, op, nb, "e31")
                 and x.mul_latency == lat and x.kat == "pass"]
        rows.append({"label": f"{pprim}{' ' + pimpl if pimpl else ''} ({nb} B)", "ours_name": f"{prim}/{impl}",
                     "ours": find(records, prim, impl, op, nb), "e31": pub.get((pprim, pimpl, "E31")),
                     "m4": pub.get((pprim, pimpl, "Cortex-M4")),
                     "best": min(cands, key=lambda x: x.cycles) if cands else None})
    return rows


def table1(records: list[Record], published: list[dict]) -> list[str]:
    out = ["## Seed 000 Table 1", "",
           "Our e31-model figures beside seed 000's measurements on the HiFive1 (E31 silicon) and its "
           "Cortex-M4 comparison, in cycles (same operations, same sizes; `best` is our fastest "
           "implementation of that operation with any ISA).", "",
           "| what | ours (impl) | ours cycles | ours c/B | E31 published | Cortex-M4 published | best of ours (impl, isa) |",
           "|---|---|--:|--:|--:|--:|---|"]
    for row in table1_rows(records, published):
        r, e31, m4, best = row["ours"], row["e31"], row["m4"], row["best"]
        best_s = f"{fmt(best.cycles)} ({best.impl}, {best.isa})" if best else "–"
        out.append(f"| {row['label']} | {row['ours_name']} | {fmt(r.cycles) if r else '–'} | "
                   f"{fmt(r.cycles_per_byte) if r else '–'} | {e31['value'] if e31 else '–'} | "
                   f"{m4['value'] if m4 else '–'} | {best_s} |")
    return out


def table2_rows(records: list[Record], published: list[dict]) -> list[dict]:
    """Per Table 2 kernel: its rv32i record, the rotations count, the estimated saving and c/B
    with a rotate instruction, our Zbkb record and the seed's own estimate."""
    t2 = {p["primitive"]: p for p in published if p.get("source") == "seed-000 Table 2"}
    rows = []
    for prim, impl, op, nb, block, zimpl in SEED000_T2:
        r = find(records, prim, impl, op, nb)
        rot = manifest_value(prim, impl, "rotations")
        saving = rot * ROTATION_SAVING * (nb // block) if r and isinstance(rot, int) else None
        rows.append({"prim": prim, "impl": impl, "op": op, "nb": nb, "block": block, "zimpl": zimpl, "ours": r,
                     "rotations": rot, "saving": saving,
                     "est_cpb": (r.cycles - saving) / nb if saving is not None else None,
                     "zbkb": find(records, prim, zimpl, op, nb) if zimpl else None,
                     "seed_est": t2.get(T2_PUBLISHED[prim])})
    return rows


def table2(records: list[Record], published: list[dict]) -> list[str]:
    out = ["## Seed 000 Table 2", "",
           f"Estimated effect of a rotate instruction on each rv32i kernel, with seed 000's assumption "
           f"(§7.2: a single-cycle rotation replaces two shifts and an OR, saving {ROTATION_SAVING} cycles "
           f"per rotation): saving = `rotations` (manifest key, per block/permutation) × {ROTATION_SAVING} × blocks, "
           f"next to what our Zbkb kernel (`ror`/`rori` and more) actually measures.", "",
           "| rv32i kernel | operation | rotations per block | block B | measured c/B | est. saving | est. c/B with rotate | measured Zbkb c/B (impl) | seed 000 est. c/B |",
           "|---|---|--:|--:|--:|--:|--:|--:|--:|"]
    for row in table2_rows(records, published):
        r, z, sp, rot = row["ours"], row["zbkb"], row["seed_est"], row["rotations"]
        if row["saving"] is not None:
            est = f"{row['est_cpb']:,.1f}"
            sv = f"{row['saving']:,} cycles ({100 * row['saving'] / r.cycles:.1f}%)"
        else:
            est = sv = "–"
        z_s = f"{fmt(z.cycles_per_byte)} ({row['zimpl']})" if z else "–"
        out.append(f"| {row['prim']}/{row['impl']} | {row['op']} {row['nb']} B | {rot if rot is not None else '–'} | "
                   f"{row['block']} | {fmt(r.cycles_per_byte) if r else '–'} | {sv} | {est} | {z_s} | "
                   f"{sp['value'] if sp else '–'} |")
    return out


FIGURES = [("seed000-table1.png", "Seed 000 Table 1 as a chart: cycles, ours (e31 model) beside the published E31 and Cortex-M4"),
           ("seed000-table2.png", "Seed 000 Table 2 as a chart: cycles per byte of each rv32i kernel, with a rotate instruction "
                                  "estimated and measured (Zbkb)")]


def draw_figures(records: list[Record], published: list[dict], out_dir: Path) -> list[str]:
    """Table 1 and Table 2 as PNGs in out_dir; the file names written."""
    plt = pyplot()
    if plt is None or not records:
        return []
    written = []
    rows = table1_rows(records, published)
    if any(r["ours"] for r in rows):                # (a table of our rv32i figures: drawn when one exists)
        fig, ax = plt.subplots(figsize=(9, 5))
        grouped_bars(ax, [r["label"].replace(" (", "\n(") for r in rows],
              [("ours rv32i, e31 model", "#2171b5", [r["ours"].cycles if r["ours"] else None for r in rows]),
               ("seed 000, E31 (HiFive1)", "#9ecae1", [_value(r["e31"]) for r in rows]),
               ("seed 000, Cortex-M4", "#bdbdbd", [_value(r["m4"]) for r in rows]),
               ("ours, fastest with any ISA", "#fd8d3c", [r["best"].cycles if r["best"] else None for r in rows])],
              lambda v: f"{v:,.0f}")
        ax.set_yscale("log")
        values = [v for r in rows for v in (r["ours"] and r["ours"].cycles, _value(r["e31"]), _value(r["m4"]),
                                             r["best"] and r["best"].cycles) if v]
        ax.set_ylim(min(values) / 2, max(values) * 12)
        plain_log_axis(ax.yaxis, *ax.get_ylim())
        ax.set_ylabel("cycles (log scale)")
        ax.set_title("Seed 000 Table 1: ours beside the published E31 and Cortex-M4 cycles", fontsize=9)
        written.append(save(fig, Path(out_dir) / FIGURES[0][0]))
    rows = table2_rows(records, published)
    if any(r["ours"] for r in rows):
        fig, ax = plt.subplots(figsize=(9, 4.5))
        grouped_bars(ax, [f"{r['prim']}/{r['impl']}\n{r['op']} {r['nb']} B" for r in rows],
              [("rv32i, measured", "#2171b5", [r["ours"].cycles_per_byte if r["ours"] else None for r in rows]),
               ("rv32i + rotate, estimated (ours)", "#6baed6", [r["est_cpb"] for r in rows]),
               ("rv32i + rotate, seed 000's estimate", "#bdbdbd", [_value(r["seed_est"]) for r in rows]),
               ("Zbkb, measured", "#fd8d3c", [r["zbkb"].cycles_per_byte if r["zbkb"] else None for r in rows])],
              lambda v: f"{v:,.1f}")
        ax.set_ylim(0, ax.get_ylim()[1] * 1.25)
        ax.set_ylabel("cycles per byte (e31 model)")
        ax.set_title("Seed 000 Table 2: what a rotate instruction saves, estimated and measured", fontsize=9)
        written.append(save(fig, Path(out_dir) / FIGURES[1][0]))
    return written


def fits_the_board(records: list[Record]) -> list[str]:
    """Per speed program: code (runs from the 16 KiB I-cache) and DTIM bytes (RAM sections
    + the kernel's tables + peak stack, recorded by `rvlab bench` from the ELF and rvsim)."""
    progs: dict = {}
    for r in records:
        if r.core == "e31" and r.dtim_bytes is not None:
            progs[(r.primitive, r.impl)] = r
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
        code, dtim = r.program_code_bytes, r.dtim_bytes
        out.append(f"| {prim}/{impl} | {fmt(r.code_bytes)} | {'yes' if r.code_bytes <= BOARD_BYTES else 'NO'} | "
                   f"{fmt(code)} | {fmt(dtim)} | {'yes' if dtim <= BOARD_BYTES else 'NO'} |")
    return out + [""]


def sections(records: list[Record], published: list[dict], figures: list[str] | None = None) -> list[str]:
    """Tables 1 and 2 (each with its chart, when drawn) and the board fit, as bench.md shows them."""
    figs = [[f"![{caption}]({name})", ""] if figures and name in figures else [] for name, caption in FIGURES]
    return (table1(records, published) + [""] + figs[0] + table2(records, published) + [""] + figs[1]
            + fits_the_board(records))
