"""`rvlab micro`: one small program per effect of the core model (harness/micro/), each timed
on rvsim with a core and rebuilt with the model's figure inside, so that the same ELF run on a
board prints what the model predicts next to what the board measured (harness/micro/README.md)."""
from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from . import build as B
from . import runner as R

MICRO = B.HARNESS / "micro"
SIM_CORES = B.ROOT / "sim" / "cores"
BUILTIN_CORES = ("e31", "hifive1-revb")     # rvsim's built-in pipeline models (sim/cores/NAME.toml)
TAG = "RVLAB_MICRO"


class MicroError(Exception):
    """A micro program could not be built or run, or its result is not what rvlab expects."""


@dataclass
class Effect:
    name: str
    src: Path
    what: str          # the `// micro:` line: what it times and what the model says


def effects() -> list[Effect]:
    out = []
    for src in sorted(MICRO.glob("*.S")):
        first = src.read_text().splitlines()[0]
        what = first.removeprefix("// micro:").strip() if first.startswith("// micro:") else ""
        out.append(Effect(src.stem, src, what))
    return out


def core_file(core: str) -> Path:
    """The parameter file of a built-in core name or the path given."""
    return SIM_CORES / f"{core}.toml" if core in BUILTIN_CORES else Path(core)


def code_base(core: str) -> int:
    """Where the board's boot loader starts user code ([board] code_base of the core file; the
    HiFive1's for `ideal`, which models no board)."""
    if core == "ideal":
        return B.FLASH
    try:
        params = tomllib.loads(core_file(core).read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise MicroError(f"--core {core!r}: cannot read its core file: {e}") from None
    return int(params.get("board", {}).get("code_base", B.FLASH))


def build(e: Effect, core: str, predicted_x100: int | None) -> Path:
    out = B.BUILD / "micro" / re.sub(r"[^A-Za-z0-9_.-]", "_", Path(core).stem)
    flags = ["-march=rv32imac_zicsr", "-O2"] + B.COMMON + [f"-I{MICRO}"]
    main_flags = flags + ([f"-DMICRO_PREDICTED={predicted_x100}"] if predicted_x100 is not None else [])
    tag = "" if predicted_x100 is None else "-p"
    objs = [B._compile(MICRO / "micro_main.c", out / f"main-{e.name}{tag}.o", main_flags, [],
                       f"micro: compiling micro_main.c for {e.name}"),
            B._compile(e.src, out / f"{e.name}.o", flags, [MICRO / "micro.inc"], f"micro: assembling {e.src.name}")]
    return B._link(objs, out / f"{e.name}{tag}.elf", f"micro: linking {e.name}", flash=code_base(core))


def run(elf: Path, core: str) -> dict:
    r = R.run("rvsim", R.rvsim_cmd(elf, "rv32imac", core), 120)
    recs = [json.loads(l[len(TAG) + 1:]) for l in r.stdout.splitlines() if l.startswith(TAG + " ")]
    if r.returncode != 0 or len(recs) != 1:
        raise MicroError(f"{elf.name} on rvsim --core {core}: exit {r.returncode}, {len(recs)} {TAG} lines\n{r.stderr.strip()}")
    return recs[0]


def measure(e: Effect, core: str) -> dict:
    """Time the effect on rvsim, then rebuild it with that figure as the prediction and check
    that the rebuilt program (the one to flash) measures the same on rvsim."""
    first = run(build(e, core, None), core)
    elf = build(e, core, first["measured_x100"])
    rec = run(elf, core)
    if rec["measured_x100"] != rec["predicted_x100"]:
        raise MicroError(f"{e.name}: the program with the prediction built in measured {rec['measured_x100']} "
                         f"on rvsim, not {rec['predicted_x100']}")
    return rec | {"elf": str(elf), "what": e.what}


def parse_log(text: str) -> dict[str, dict]:
    """The RVLAB_MICRO lines of a board's console log, by effect (the last line of each wins)."""
    out = {}
    for line in text.splitlines():
        i = line.find(TAG + " ")
        if i >= 0:
            try:
                rec = json.loads(line[i + len(TAG) + 1:])
                out[rec["effect"]] = rec
            except (json.JSONDecodeError, KeyError, TypeError):
                raise MicroError(f"board log: unreadable line: {line.strip()}") from None
    return out


def _x100(v: int) -> str:
    return f"{v / 100:.2f}"


def table(recs: list[dict], board: dict[str, dict] | None) -> str:
    head = "| effect | reps | model cycles/rep |" + (" board cycles/rep | board - model |" if board is not None else "") + " what it times |"
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in recs:
        row = f"| {r['effect']} | {r['reps']} | {_x100(r['predicted_x100'])} |"
        if board is not None:
            b = board.get(r["effect"])
            row += (f" {_x100(b['measured_x100'])} | {_x100(b['measured_x100'] - r['predicted_x100'])} |" if b
                    else " – | – |")
        lines.append(row + f" {r['what']} |")
    return "\n".join(lines)
