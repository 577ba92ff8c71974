"""`rvlab lib --march MARCH`: a firmware library, librvlab.a + rvlab.h, of the fastest
implementation of every primitive whose ISA fits MARCH (constant-time ones only unless
--allow-variable-time), under the function names of each primitive's api.h.

What "fastest" means comes from bench records (results/bench.json, e31 core at its default
multiplier latency); a candidate without records there is measured first, exactly as `rvlab
bench` does, and its records are kept in the output folder's measured.json. Nothing here names
a primitive: the primitives, their functions and their implementations are read from the
manifests, so a new primitive is in the next library without a change here.

A function of the primitive's api.h that the chosen implementation lacks (bigint-add/reduced has
no bigint_add) comes from the other candidate that runs it in the fewest e31 cycles; that one
goes in with only those functions global.

Each chosen implementation goes into the archive as one relocatable object (ld -r of its kernel
objects, built exactly as for the tests) in which only its api.h entry points stay global: the
helpers an implementation carries (e.g. sha3-256's own Keccak-f, hmac-sha256's own SHA-256)
become local and cannot clash with another primitive's."""
from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

from . import build as B
from . import runner as R
from .bench import bench_one, merge
from .driver import err, map_impls, select_reported
from .manifest import Impl
from .records import Record, RecordError, dump_records, load_records
from .tables import default_latency, fmt

CORE = "e31"
MEASURED = "measured.json"      # in --out: records of candidates results/bench.json lacked
# the ISA names that stand for several extensions (RISC-V scalar crypto spec, v1.0.1 §2.12-2.16)
SHORTHANDS = {"zkn": {"zbkb", "zbkc", "zbkx", "zkne", "zknd", "zknh"},
              "zks": {"zbkb", "zbkc", "zbkx", "zksed", "zksh"},
              "zk": {"zbkb", "zbkc", "zbkx", "zkne", "zknd", "zknh", "zkr", "zkt"}}
_MARCH_RE = re.compile(r"^rv32([a-z]+)((?:_[a-z][a-z0-9]*)*)$")


class LibError(Exception):
    """Bad --march or a failed library step; the message says which and why."""


# ------------------------------------------------------------------ what fits MARCH
def march_features(march: str) -> set[str]:
    """The extensions of an -march string: single letters (i, m, a, c; g = imafd) and the
    multi-letter names, shorthands expanded. Version numbers (2p0) are allowed and dropped."""
    m = _MARCH_RE.match(re.sub(r"\d+p\d+", "", march.strip().lower()))
    if not m:
        raise LibError(f"--march {march!r} is not an RV32 -march string like rv32imac or rv32imac_zbkb_zknh")
    letters = m.group(1).replace("g", "imafd")
    if letters[0] not in "ie" and not m.group(1).startswith("g"):
        raise LibError(f"--march {march!r}: the base must be rv32i, rv32e or rv32g")
    if set(letters) & set("fdq"):
        raise LibError(f"--march {march!r}: the library is built for -mabi=ilp32 (no floating-point "
                       f"registers in the ABI); leave f/d out of MARCH (the kernels use none)")
    feats = set(letters)
    for ext in (e for e in m.group(2).split("_") if e):
        feats |= {ext} | SHORTHANDS.get(ext, set())
    return feats


def gcc_march(march: str) -> str:
    """MARCH for gcc: without the custom x... extensions (used through .insn macros)."""
    return "_".join(p for p in march.split("_") if not p.startswith("x"))


def fits(impl: Impl, feats: set[str]) -> bool:
    """The implementation's ISA needs nothing MARCH lacks (rv32e has 16 registers: no kernel fits)."""
    return "i" in feats and set(impl.base) <= feats and set(impl.extensions) <= feats


# ------------------------------------------------------------------ which implementation
@dataclass
class Choice:
    """The library's pick for one primitive (impl None: nothing fits, reason says why)."""
    primitive: str
    functions: list[str]                    # the API's functions: every entry point of its implementations
    impl: Impl | None = None
    records: list[Record] = field(default_factory=list)     # the chosen one's e31 records
    reason: str = ""                        # how it was chosen, or why there is none
    header: Path | None = None              # its api.h
    # functions the chosen one lacks, each from the candidate that runs it fastest (see choose):
    # (implementation, its functions taken, its e31 records)
    extra: list[tuple[Impl, list[str], list[Record]]] = field(default_factory=list)

    def parts(self) -> list[tuple[Impl, list[str], list[Record]]]:
        """What goes into the library: the chosen implementation's functions, then the extras."""
        return ([(self.impl, self.impl.entry_points, self.records)] if self.impl else []) + self.extra


def _by_impl(records: list[Record]) -> dict[str, list[Record]]:
    lat = default_latency(records, CORE)
    out: dict[str, list[Record]] = {}
    for r in records:
        if r.core == CORE and r.mul_latency == lat:
            out.setdefault(r.name, []).append(r)
    return out


def is_constant_time(recs: list[Record]) -> bool:
    """The checker said yes for every measured operation (a claim alone is not enough)."""
    return bool(recs) and all(r.constant_time is True for r in recs)


def _score(recs: list[Record], keys: set) -> int:
    return sum(r.cycles for r in recs if r.measurement_key[4:] in keys)


def choose(impls: list[Impl], records: list[Record], feats: set[str], allow_variable_time: bool,
           max_code: int | None = None) -> list[Choice]:
    """One Choice per primitive, in name order. Among the implementations that fit, pass their
    KAT, (unless allow_variable_time) are constant time by the checker and (with max_code) have
    at most that many bytes of code: the most entry points (aes128/zknd over zkne, which has no
    decryption, though zkne's encryption is a cycle faster), then the least e31 cycles summed
    over the measurements (operation, size) they all have, then the least code."""
    recs = _by_impl(records)
    prims: dict[str, list[Impl]] = {}
    for i in impls:
        prims.setdefault(i.primitive, []).append(i)
    out = []
    for prim, group in sorted(prims.items()):
        functions = list(dict.fromkeys(e for i in group for e in i.entry_points))
        c = Choice(prim, functions, header=group[0].primitive_dir / "api.h")
        fit = [i for i in group if fits(i, feats)]
        ok = [i for i in fit if recs.get(i.name) and all(r.kat == "pass" for r in recs[i.name])]
        timing_ok = ok if allow_variable_time else [i for i in ok if is_constant_time(recs[i.name])]
        cands = [i for i in timing_ok if max_code is None or recs[i.name][0].code_bytes <= max_code]
        if not cands:
            if not fit:
                c.reason = f"none fits (ISAs: {', '.join(sorted({i.isa for i in group}))})"
            elif not ok:
                c.reason = "none that fits passes its KAT"
            elif timing_ok:
                smallest = min(timing_ok, key=lambda i: recs[i.name][0].code_bytes)
                c.reason = (f"none has at most {fmt(max_code)} code bytes (--max-code; smallest: "
                            f"{smallest.impl}, {fmt(recs[smallest.name][0].code_bytes)})")
            else:
                c.reason = (f"none constant-time fits (variable-time: "
                            f"{', '.join(i.impl for i in ok)}; --allow-variable-time takes them)")
            out.append(c)
            continue
        common = set.intersection(*({r.measurement_key[4:] for r in recs[i.name]} for i in cands))

        def cycles(i: Impl) -> int:
            return _score(recs[i.name], common) if common else sum(r.cycles for r in recs[i.name])

        most = max(len(i.entry_points) for i in cands)
        cands.sort(key=lambda i: (-len(i.entry_points), cycles(i), recs[i.name][0].code_bytes, i.impl))
        c.impl, c.records = cands[0], recs[cands[0].name]
        others = [f"{i.impl} {fmt(cycles(i))}" + ("" if len(i.entry_points) == most else " (fewer functions)")
                  for i in cands[1:]]
        c.reason = (f"{'least' if common else 'least total'} e31 cycles over {len(common) or len(c.records)} "
                    f"measurement(s) among those with the most functions: {fmt(cycles(cands[0]))}"
                    + (f" (vs {', '.join(others)})" if others else ""))
        # what it lacks, each function from the other candidate that runs it in the fewest e31
        # cycles (one that does not time it: after those that do, in the order above); their
        # own helpers stay local, so two implementations of one primitive sit side by side
        taken: dict[str, list[str]] = {}
        for fn in functions:
            if fn in c.impl.entry_points:
                continue
            timed = [(function_cycles(i, recs[i.name], prim, fn), i) for i in cands[1:] if fn in i.entry_points]
            if timed:
                _, best = min(timed, key=lambda ci: (ci[0] is None, ci[0] or 0))
                taken.setdefault(best.name, []).append(fn)
        c.extra = [(i, taken[i.name], recs[i.name]) for i in cands[1:] if i.name in taken]
        if c.extra:
            c.reason += "; " + "; ".join(f"{', '.join(fns)} from {i.impl}" for i, fns, _ in c.extra)
        out.append(c)
    return out


# ------------------------------------------------------------------ function <-> operation
def _suffix(fn: str) -> str:
    """A function's name without its primitive's prefix: what follows the first underscore
    (aes128_keyexp_enc -> keyexp_enc, bigint_add_reduced -> add_reduced)."""
    return fn.split("_", 1)[1] if "_" in fn else fn


def function_of(op: str, primitive: str, entry_points: list[str]) -> str | None:
    """The entry point a speed-program operation times (interfaces.md §7 names): the same name
    (keyexp -> *_keyexp, *_keyexp_enc), the one-shot function named after the primitive for
    "hash" and "mac", the stream function (*_xor) for "encrypt", a *_bits sweep's function, or the only
    entry point. The first rule that names exactly one function decides; None if none does."""
    sfx = {fn: _suffix(fn) for fn in entry_points}
    base = op[:-len("_bits")] if op.endswith("_bits") else op
    rules = [lambda f, s: s == op, lambda f, s: s == base, lambda f, s: s == base + "_enc",
             lambda f, s: s.startswith(base + "_"),
             lambda f, s: op in ("hash", "mac") and f == primitive.replace("-", "_"),
             lambda f, s: op == "encrypt" and s == "xor"]
    for rule in rules:
        hits = [f for f, s in sfx.items() if rule(f, s)]
        if len(hits) == 1:
            return hits[0]
    return entry_points[0] if len(entry_points) == 1 else None


def function_cycles(impl: Impl, recs: list[Record], primitive: str, fn: str) -> int | None:
    """e31 cycles of `fn` in `impl`: summed over the operations that time it, each at its largest
    input (None: no operation times it)."""
    hits = [r.cycles for r in _largest(recs).values() if function_of(r.operation, primitive, impl.entry_points) == fn]
    return sum(hits) if hits else None


def _largest(recs: list[Record]) -> dict[tuple, Record]:
    """Per operation and sweep keys except the size: the record with the largest input."""
    out: dict[tuple, Record] = {}
    for r in recs:
        k = (r.operation, tuple(sorted((k, v) for k, v in r.extra.items() if k not in ("limbs", "bits"))))
        if k not in out or r.input_bytes > out[k].input_bytes:
            out[k] = r
    return dict(sorted(out.items()))


TABLE_HEAD = ["| function | implementation | isa | CT | code B | table B | stack B | e31 cycles (operation, input) |",
              "|---|---|---|---|--:|--:|--:|---|"]


def choice_table(choices: list[Choice], march: str, allow_variable_time: bool) -> list[str]:
    """Markdown: per function the implementation chosen and its figures (code and table bytes are
    the implementation's, shared by its functions; stack and cycles the function's own, largest
    input measured)."""
    out = [f"librvlab.a for -march={march}: the fastest {'' if allow_variable_time else 'constant-time '}"
           f"implementation of each primitive that fits (e31 model; CT = the constant-time checker's verdict).", ""]
    out += TABLE_HEAD
    for c in choices:
        if c.impl is None:
            out.append(f"| {', '.join(c.functions)} | none: {c.reason} | – | – | – | – | – | – |")
            continue
        # per function the part that supplies it (the chosen implementation first), and per part
        # its timed operations by function (an operation no function names: "(operation)")
        owner: dict[str, tuple[Impl, list[Record]]] = {}
        timed: dict[tuple[str, str], list[Record]] = {}
        for impl, fns, recs in c.parts():
            for fn in fns:
                owner.setdefault(fn, (impl, recs))
            for r in _largest(recs).values():
                fn = function_of(r.operation, c.primitive, impl.entry_points) or f"({r.operation})"
                timed.setdefault((impl.name, fn), []).append(r)
        unnamed = [f for (n, f) in timed if n == c.impl.name and f not in c.functions]
        for fn in c.functions + unnamed:
            if fn not in owner and fn in c.functions:
                out.append(f"| {fn} | not in {c.primitive}/{c.impl.impl} | – | – | – | – | – | – |")
                continue
            impl, recs = owner.get(fn, (c.impl, c.records))
            r0, ct = recs[0], "yes" if is_constant_time(recs) else "NO"
            for r in timed.get((impl.name, fn)) or [None]:
                out.append(f"| {fn} | {c.primitive}/{impl.impl} | {impl.isa} | {ct} | {fmt(r0.code_bytes)} | "
                           f"{fmt(r0.static_bytes)} | {fmt(r.stack_bytes) if r else '–'} | "
                           + (f"{fmt(r.cycles)} ({r.operation}{r.extra_label}, {fmt(r.input_bytes)} B)" if r else "–")
                           + " |")
    out += ["", "How each was chosen:", ""]
    out += [f"- {c.primitive}: {c.impl.impl + ', ' if c.impl else ''}{c.reason}" for c in choices]
    return out


# ------------------------------------------------------------------ the archive and the header
def _tool(name: str) -> str:
    return B.CC.replace("gcc", name)


def _run(cmd: list[str], what: str) -> None:
    try:
        p = subprocess.run(cmd, capture_output=True, text=True)
    except FileNotFoundError:
        raise LibError(f"{what}: {cmd[0]} not found — run `make setup`") from None
    if p.returncode != 0:
        raise LibError(f"{what} failed:\n  $ {' '.join(cmd)}\n{(p.stderr + p.stdout).rstrip()}")


def impl_object(impl: Impl, out_dir: Path, functions: list[str]) -> Path:
    """One relocatable object of the implementation in which only `functions` (its entry points
    or some of them) are global."""
    objs = B.kernel_objects(impl)
    obj = out_dir / "obj" / f"{impl.primitive}--{impl.impl}.o"
    obj.parent.mkdir(parents=True, exist_ok=True)
    keep = obj.with_suffix(".globals")
    keep.write_text("\n".join(functions) + "\n")
    _run([_tool("ld"), "-m", "elf32lriscv", "-r", "-o", str(obj)] + [str(o) for o in objs], f"{impl.name}: ld -r")
    _run([_tool("objcopy"), f"--keep-global-symbols={keep}", str(obj)], f"{impl.name}: objcopy")
    keep.unlink()
    return obj


def defined_globals(obj: Path) -> set[str]:
    p = subprocess.run([_tool("nm"), "--defined-only", "-g", str(obj)], capture_output=True, text=True)
    return {l.split()[-1] for l in p.stdout.splitlines() if len(l.split()) == 3}


def _api_text(header: Path, seen: set[Path]) -> str:
    """api.h with the other primitives' api.h it includes ("../x/api.h") written out in place,
    each once."""
    header = header.resolve()
    if header in seen:
        return ""
    seen.add(header)
    out = []
    for line in header.read_text().splitlines():
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if m and (header.parent / m.group(1)).is_file():
            out.append(_api_text(header.parent / m.group(1), seen))
        else:
            out.append(line)
    return "\n".join(out) + "\n"


def header_text(choices: list[Choice], march: str, table: list[str]) -> str:
    chosen = [c for c in choices if c.impl]
    lines = ["/* rvlab.h -- generated by `rvlab lib --march " + march + "`; do not edit.",
             " * The functions of librvlab.a: each primitive's api.h (crypto/<primitive>/api.h), from the",
             " * implementation below. RVLAB_HAS_<FUNCTION> is defined for every function the library has.",
             f" * Compile with -march={gcc_march(march)} -mabi=ilp32 -I<this folder>; link with",
             f" * -march={march.split('_')[0]} (picolibc's variant) ... -L<this folder> -lrvlab: README.md, \"Linking your firmware\".",
             " *"] + [" * " + l.replace("*/", "* /") for l in table] + [" */",
             "#ifndef RVLAB_LIB_H", "#define RVLAB_LIB_H", f'#define RVLAB_LIB_MARCH "{march}"', ""]
    for c in chosen:
        for impl, fns, _ in c.parts():
            lines.append(f"/* {c.primitive}: {impl.impl} ({impl.isa}) */")
            lines += [f"#define RVLAB_HAS_{e.upper()} 1" for e in fns]
    lines.append("")
    seen: set[Path] = set()
    for c in chosen:
        lines.append(f"/* ---- {c.primitive} ({c.header.relative_to(B.ROOT) if c.header.is_relative_to(B.ROOT) else c.header}) ---- */")
        lines.append(_api_text(c.header, seen))
    lines.append("#endif /* RVLAB_LIB_H */")
    return "\n".join(lines) + "\n"


def write_library(choices: list[Choice], march: str, out_dir: Path, table: list[str]) -> tuple[Path, Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    objs, owner = [], {}
    for c in choices:
        for impl, fns, _ in c.parts():
            o = impl_object(impl, out_dir, fns)
            for sym in defined_globals(o):
                if sym in owner:
                    raise LibError(f"{sym} is an entry point of both {owner[sym]} and {impl.name}: "
                                   f"one library cannot hold both (leave one out with --filter)")
                owner[sym] = impl.name
            objs.append(o)
    lib = out_dir / "librvlab.a"
    lib.unlink(missing_ok=True)
    if objs:
        _run([_tool("ar"), "rcs", str(lib)] + [str(o) for o in objs], "ar")
    hdr = out_dir / "rvlab.h"
    hdr.write_text(header_text(choices, march, table))
    return lib, hdr


# ------------------------------------------------------------------ the command
def measure_missing(impls: list[Impl], records: list[Record], measured_file: Path, jobs: int) -> list[Record]:
    """Bench (as `rvlab bench` on e31 does) the implementations without e31 records; their
    records are merged into measured_file, which later runs read too."""
    from .cli import time_limit             # (cli imports this module)
    have = set(_by_impl(records))
    todo = [i for i in impls if i.name not in have]
    if not todo:
        return []
    print(f"rvlab lib: measuring {len(todo)} implementation(s) without e31 records "
          f"({', '.join(i.name for i in todo)})", flush=True)
    args = SimpleNamespace(core=CORE, mul_latency=None, seed=1, random=50, timeout=time_limit(50))

    def work(impl):
        try:
            return bench_one(impl, args)[0]
        except (B.BuildError, R.RunError) as e:
            return e
    new: list[Record] = []
    for impl, res in map_impls(todo, work, jobs, "measuring"):
        if isinstance(res, Exception):
            print(f"rvlab lib: {impl.name} left out: {str(res).splitlines()[0]}")
        else:
            new += res
    old = load_records(measured_file) if measured_file.exists() else []
    dump_records(merge(old, new), measured_file)
    return new


def cmd_lib(args) -> int:
    try:
        feats = march_features(args.march)
    except LibError as e:
        err(str(e))
        return 1
    out_dir = Path(args.out or B.BUILD / "lib" / args.march)
    if out_dir.exists() and not out_dir.is_dir():
        err(f"--out {out_dir}: not a folder")
        return 1
    selected = select_reported(args, none="working")
    if selected is None:
        return 1
    impls, errors = selected
    measured_file = out_dir / MEASURED
    # without bench records (a fresh clone: no results/bench.json) every candidate is measured;
    # a --json FILE that is not there is a mistake, not a reason to measure them all
    bench_json = Path(args.json) if args.json else B.ROOT / "results" / "bench.json"
    if args.json and not bench_json.exists():
        err(f"--json {args.json}: no such file")
        return 1
    try:
        records = load_records(bench_json) if bench_json.exists() else []
        out_dir.mkdir(parents=True, exist_ok=True)
        # an earlier lib run's measurements, of the implementations the bench file still lacks
        benched = {r.name for r in records}
        if measured_file.exists():
            records += [r for r in load_records(measured_file) if r.name not in benched]
    except RecordError as e:
        err(str(e))
        return 1
    except OSError as e:
        err(f"--out {out_dir}: cannot make the folder ({e.strerror or e})")
        return 1
    records += measure_missing([i for i in impls if fits(i, feats)], records, measured_file, args.jobs)
    choices = choose(impls, records, feats, args.allow_variable_time, args.max_code)
    table = choice_table(choices, args.march, args.allow_variable_time)
    try:
        lib, hdr = write_library(choices, args.march, out_dir, table)
    except (LibError, B.BuildError) as e:
        err(str(e))
        return 1
    md = out_dir / "choices.md"
    md.write_text("\n".join(table) + "\n")
    print("\n".join(table))
    n = sum(1 for c in choices if c.impl)
    print(f"\nwrote {lib} ({n} of {len(choices)} primitives), {hdr} and {md}")
    return 1 if errors else 0
