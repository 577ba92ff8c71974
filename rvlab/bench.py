"""`rvlab bench`: measure each implementation -- sizes from the linked ELF, cycles from the speed
program, stack from the stack program, the KAT, the constant-time check -- as Records, and
merge the run's records into the bench file."""
from __future__ import annotations

import json
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from . import build as B
from . import runner as R
from .compare import compare
from .driver import err, for_each_impl
from .micro import BUILTIN_CORES, MicroError, code_base
from .manifest import Impl
from .records import FIELDS, Record, RecordError, dump_records, load_records
from .report import write_report

COMPARE_SHOWN = 15          # changed measurements printed at the end of a run
NOT_CHECKED = ("  constant-time: not checked (no rvlab_secret_* symbol in the speed program, "
               "or this rvsim has no --secret)")


def secret_symbols(elf: Path) -> list[str]:
    """Global data symbols named rvlab_secret_* in the speed program (speed.c marks its
    secret inputs that way); they are passed to rvsim's constant-time checker."""
    p = subprocess.run([B.CC.replace("gcc", "nm"), "--defined-only", str(elf)], capture_output=True, text=True)
    return sorted({l.split()[-1] for l in p.stdout.splitlines()
                   if len(l.split()) == 3 and l.split()[-1].startswith("rvlab_secret_")})


def run_tag(core: str, mul_latency: int | None) -> str:
    """Names rvsim's statistics files of this run: core, multiplier latency and process, so
    concurrent runs (other --core/--mul-latency, rvlab test --ct) never read each other's files."""
    core = re.sub(r"[^A-Za-z0-9_.-]", "_", Path(core).name)
    lat = "" if mul_latency is None else f"-mul{mul_latency}"
    return f"{core}{lat}.{os.getpid()}"


def check_constant_time(impl: Impl, elf: Path, timeout: float, core: str = "e31",
                        mul_latency: int | None = None) -> tuple[bool | None, str | None]:
    """Run the speed program under rvsim --secret: (verdict, note). (None, None) if nothing
    is marked secret or this rvsim has no checker."""
    secrets = secret_symbols(elf)
    if not secrets:
        return None, None
    out = elf.with_name(f"ct-{run_tag(core, mul_latency)}.rvsim.json")
    cmd = R.rvsim_cmd(elf, impl.run_isa, core, mul_latency, out)
    for s in secrets:
        cmd[1:1] = ["--secret", s]
    out.unlink(missing_ok=True)
    r = R.run("rvsim", cmd, timeout)
    if r.returncode == 2:
        return None, None                       # this rvsim has no --secret (usage error)
    try:
        j = json.loads(out.read_text())
    except (OSError, ValueError):
        return None, f"  constant-time check gave no JSON (exit {r.returncode}); reproduce: {r.reproduce}"
    finally:
        out.unlink(missing_ok=True)              # per-run file (see run_tag)
    ct = j.get("constant_time")
    if ct is False:
        v = j.get("ct_violations") or []
        return False, f"  constant-time: {len(v)} violation(s), first: {v[0] if v else '?'}"
    return (ct if isinstance(ct, bool) else None), None


# ------------------------------------------------------------------ one implementation
@dataclass
class Sizes:
    code: int               # the kernel's .text
    static: int             # the kernel's .rodata/.data/.bss
    ram_static: int         # the whole program's DTIM sections (without the stack reservation)
    flash_tables: int       # the kernel's read-only data (linked to flash here)
    program_code: int       # the whole program's executable bytes


def program_sizes(speed_elf: Path, kobjs: list[Path]) -> Sizes:
    mp = speed_elf.with_suffix(".map")
    code, static = B.sizes_from_map(mp, kobjs)
    return Sizes(code, static, B.ram_static_bytes(speed_elf), B.sizes_from_map(mp, kobjs, B._RODATA)[1],
                 B.program_code_bytes(speed_elf))


@dataclass
class SpeedRun:
    results: list[dict]             # the RVLAB_RESULT lines
    mul_latency: int | None         # as rvsim reports it (the core file's when not overridden)
    peak_stack: int | None          # the program's deepest stack under rvsim


def run_speed(impl: Impl, elf: Path, args) -> SpeedRun:
    stats = elf.with_name(f"speed-{run_tag(args.core, args.mul_latency)}.rvsim.json")
    sp = R.run("rvsim", R.rvsim_cmd(elf, impl.run_isa, args.core, args.mul_latency, stats), args.timeout)
    try:
        if sp.returncode != 0:
            raise R.RunError("speed program failed:\n" + "\n".join(sp.describe_failure()))
        if not sp.results():
            raise R.RunError(f"speed program printed no RVLAB_RESULT line\n    reproduce: {sp.reproduce}")
        mul_latency, peak_stack = args.mul_latency, None
        try:
            sj = json.loads(stats.read_text())
            if isinstance(sj.get("mul_latency"), int):
                mul_latency = sj["mul_latency"]
            if isinstance(sj.get("max_stack_bytes"), int):
                peak_stack = sj["max_stack_bytes"]
        except (OSError, ValueError):
            pass
        return SpeedRun(sp.results(), mul_latency, peak_stack)
    finally:
        stats.unlink(missing_ok=True)            # per-run file (see run_tag)


def _ident(r: dict) -> tuple:
    """A measurement's identity in a program's output: operation, size and any extra keys."""
    return tuple(sorted((k, str(v)) for k, v in r.items() if k not in ("stack_bytes", "cycles", "instret")))


def run_stack(impl: Impl, elf: Path, args) -> dict[tuple, int]:
    st = R.run("rvsim", R.rvsim_cmd(elf, impl.run_isa, args.core, args.mul_latency), args.timeout)
    if st.returncode != 0:
        raise R.RunError("stack program failed:\n" + "\n".join(st.describe_failure()))
    return {_ident(r): r["stack_bytes"] for r in st.results()}


def run_kat(impl: Impl, args, kobjs: list[Path]) -> tuple[str, list[str]]:
    """The test program on rvsim: "pass" or "fail", and the failure's lines."""
    t = B.build_test(impl, args.seed, args.random, kobjs)
    tr = R.run("rvsim", R.rvsim_cmd(t.test, impl.run_isa, "e31"), args.timeout)
    s = tr.summary()
    if tr.returncode == 0 and s and s["failures"] == 0:
        return "pass", []
    return "fail", [f"  KAT FAILED: {l}" for l in tr.describe_failure()]


def bench_one(impl: Impl, args) -> tuple[list[Record], list[str]]:
    """The records of one implementation and the notes to print under them. Raises BuildError
    or RunError."""
    k = B.kernel_objects(impl)
    progs = B.build_speed(impl, k, flash=code_base(args.core))   # where that board runs user code
    sizes = program_sizes(progs.speed, k)
    speed = run_speed(impl, progs.speed, args)
    stack = run_stack(impl, progs.stack, args)
    kat, notes = run_kat(impl, args, k)
    constant_time, ct_note = check_constant_time(impl, progs.speed, args.timeout, args.core, args.mul_latency)
    if ct_note:
        notes.append(ct_note)
    elif constant_time is None:
        notes.append(NOT_CHECKED + "; the records get constant_time null")
    recs = []
    for r in speed.results:
        recs.append(Record(
            primitive=impl.primitive, impl=impl.impl, isa=impl.isa, core=args.core,
            operation=r["operation"], input_bytes=r["input_bytes"], cycles=r["cycles"], instret=r["instret"],
            cycles_per_byte=round(r["cycles"] / r["input_bytes"], 2) if r["input_bytes"] else None,
            code_bytes=sizes.code, static_bytes=sizes.static, stack_bytes=stack.get(_ident(r)),
            kat=kat, constant_time=constant_time, mul_latency=speed.mul_latency,
            constant_time_claimed=impl.constant_time,
            # does it fit the board (seed 000: code runs from the 16 KiB I-cache, tables, stack and
            # buffers live in the 16 KiB DTIM): the speed program's RAM sections + the kernel's
            # read-only tables/constants (linked to flash here, in DTIM in the seed) + the
            # program's peak stack under rvsim
            program_code_bytes=sizes.program_code,
            dtim_bytes=None if speed.peak_stack is None else sizes.ram_static + sizes.flash_tables + speed.peak_stack,
            extra={key: v for key, v in r.items() if key not in FIELDS}))
    return recs, notes


def merge(old: list[Record], new: list[Record]) -> list[Record]:
    """A new run replaces the records of the same implementation, core and multiplier latency
    only (a --mul-latency 2 run keeps the latency-5 records beside its own)."""
    replaced = {r.merge_key for r in new}
    return sorted([r for r in old if r.merge_key not in replaced] + new, key=lambda r: r.sort_key)


# ------------------------------------------------------------------ the command
def _check_options(args) -> tuple[Path, list[Record]] | None:
    """The bench file and its records, or None after an error message."""
    if not R.rvsim_available():
        err(f"rvsim not found at {R.RVSIM}: build it with `make setup` (cargo build --release in sim/)")
        return None
    json_path = Path(args.json)
    old = []
    if json_path.is_dir():
        err(f"--json {json_path}: is a directory, not a file")
        return None
    if not json_path.parent.is_dir():
        # the report and the primitives' files are written beside it: not into a folder a typo made
        err(f"--json {json_path}: no folder {json_path.parent} (make it first)")
        return None
    if json_path.exists():
        # the new records are merged into the old ones: a file that cannot be read as a
        # list of records would be overwritten and lose them, so stop before measuring
        try:
            old = load_records(json_path)
        except RecordError as e:
            err(f"{e}; fix or remove it first (the new records are merged into it)")
            return None
    if args.mul_latency is not None and not 1 <= args.mul_latency <= 1000:
        err(f"--mul-latency must be 1..1000, not {args.mul_latency}")
        return None
    if args.core == "ideal" and args.mul_latency is not None:
        err("--mul-latency has no effect on the ideal core (one cycle per instruction)")
        return None
    if args.core not in ("ideal",) + BUILTIN_CORES and not Path(args.core).is_file():
        err(f"--core {args.core!r}: not {', '.join(BUILTIN_CORES)}, ideal or a core parameter file")
        return None
    try:
        code_base(args.core)                # bench_one links there: a core file that cannot say fails here
    except MicroError as e:
        err(str(e))
        return None
    return json_path, old


def cmd_bench(args) -> int:
    checked = _check_options(args)
    if checked is None:
        return 1
    json_path, old = checked
    new: list[Record] = []
    bad = 0

    def work(impl):
        try:
            return bench_one(impl, args)
        except (B.BuildError, R.RunError) as e:
            return e

    def show(impl, result):
        nonlocal bad
        if isinstance(result, Exception):
            bad += 1
            print(f"FAIL {impl.name}: {result}", flush=True)
            return
        recs, notes = result
        new.extend(recs)
        for r in recs:
            print(f"{'ok  ' if r.kat == 'pass' else 'FAIL'} {impl.name:<26} {r.operation:<10} {r.input_bytes:>6} B {r.cycles:>10} cycles"
                  f"  {'' if r.cycles_per_byte is None else format(r.cycles_per_byte, '.1f') + ' c/B'}"
                  f"  kat {r.kat}", flush=True)
        for n in notes:
            print(n)
        bad += any(r.kat != "pass" for r in recs)
        # a kernel that claims constant time and the checker disagrees is a failure
        ct_broken = [r for r in recs if r.constant_time_claimed is True and r.constant_time is False]
        if ct_broken:
            bad += 1
            print(f"FAIL {impl.name}: claims constant_time = true, the checker found violations "
                  f"({len(ct_broken)} record(s); see the constant-time line above)", flush=True)

    selected = for_each_impl(args, "benchmarking", work, show)
    if selected is None:
        return 1
    bad += len(selected[1])
    recs = merge(old, new)
    dump_records(recs, json_path)
    md = json_path.with_suffix(".md")
    write_report(json_path, md)
    print(f"wrote {json_path} ({len(recs)} records) and {md}")
    # what this run changed against the records it replaced (the speed work's before/after)
    replaced = {r.merge_key for r in new}
    replaced_old = [r for r in old if r.merge_key in replaced]
    if replaced_old:
        diff = compare(replaced_old, new)
        shown = diff[:-1][:COMPARE_SHOWN]
        for line in shown:
            print("  " + line)
        more = len(diff) - 1 - len(shown)
        print(f"against the records it replaced: {diff[-1]}"
              + (f" ({more} more not shown: rvlab compare OLD.json {json_path})" if more else ""))
    return 1 if bad else 0
