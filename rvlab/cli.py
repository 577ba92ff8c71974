"""The `rvlab` command: build | test | bench | report | compare | area | run."""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from . import build as B
from . import runner as R
from . import micro as M
from .manifest import Impl, discover
from .report import RecordError, compare, load_records, validate_record, write_report

RESULTS = B.ROOT / "results"


def err(msg: str) -> None:
    print(f"rvlab: error: {msg}", file=sys.stderr)


# ------------------------------------------------------------------ selection
def filter_regex(pattern: str) -> re.Pattern:
    try:
        return re.compile(pattern)
    except re.error as e:
        raise SystemExit(f"rvlab: error: --filter {pattern!r} is not a regular expression: {e}")


def select(args) -> tuple[list[Impl], list[str]]:
    crypto_dirs = [Path(d) for d in (args.crypto_dir or [B.ROOT / "crypto"])]
    for d in crypto_dirs:
        if not d.is_dir():
            raise SystemExit(f"rvlab: error: --crypto-dir {d}: no such directory")
    prim_roots = list(dict.fromkeys([d.resolve() for d in crypto_dirs] + [B.ROOT / "crypto"]))
    impls, errors = discover(crypto_dirs, prim_roots)
    if args.filter:
        rx = filter_regex(args.filter)
        impls = [i for i in impls if rx.search(i.name)]
        errors = [e for e in errors if rx.search(e)]
    return impls, errors


class Progress:
    """A one-line progress bar on a terminal; plain lines otherwise."""

    def __init__(self, total: int, what: str):
        self.total, self.done, self.what = total, 0, what
        self.tty = sys.stderr.isatty()

    def step(self, label: str) -> None:
        if self.tty:
            w = 30
            fill = int(w * self.done / max(self.total, 1))
            sys.stderr.write(f"\r[{'#' * fill}{'.' * (w - fill)}] {self.done}/{self.total} {self.what} {label:<40.40}")
            sys.stderr.flush()

    def advance(self) -> None:
        self.done += 1

    def close(self) -> None:
        if self.tty:
            sys.stderr.write("\r" + " " * 100 + "\r")
            sys.stderr.flush()


def _manifest_errors(errors: list[str]) -> int:
    for e in errors:
        print(f"FAIL manifest: {e}")
    return len(errors)


# ------------------------------------------------------------------ build
def cmd_build(args) -> int:
    impls, errors = select(args)
    bad = _manifest_errors(errors)
    if not impls and not errors:
        err(f"no implementation matches --filter {args.filter!r}")
        return 1
    for impl in impls:
        try:
            k = B.kernel_objects(impl)
            t = B.build_test(impl, args.seed, args.random, k)
            s = B.build_speed(impl, k)
            code, static = B.sizes_from_map(s.speed.with_suffix(".map"), k)
            print(f"ok   {impl.name:<28} {t.test}  ({t.n_cases} cases; code {code} B, static {static} B)")
            print(f"     {'':<28} {s.speed}\n     {'':<28} {s.stack}")
        except B.BuildError as e:
            bad += 1
            print(f"FAIL {impl.name}: {e}")
    return 1 if bad else 0


# ------------------------------------------------------------------ test
def _summary(run: R.Run) -> dict | None:
    r = run.results("RVLAB_TEST")
    return r[-1] if r else None


def _describe_failure(run: R.Run, max_lines: int = 12) -> list[str]:
    out = []
    fails = [l for l in run.stdout.splitlines() if l.startswith("FAIL")]
    for l in fails[:max_lines]:
        out.append(f"    {l}")
    if len(fails) > max_lines:
        out.append(f"    ... {len(fails) - max_lines} more FAIL lines")
    if run.timed_out:
        out.append(f"    {run.stderr.strip()}")
    elif run.stderr.strip():
        for l in run.stderr.strip().splitlines()[-5:]:
            out.append(f"    {run.runner} stderr: {l}")
    if _summary(run) is None and not run.timed_out:
        out.append(f"    {run.runner}: the program ended (exit status {run.returncode}) without its summary line "
                   f"(crash, trap or early exit)")
    out.append(f"    reproduce: {run.reproduce}")
    return out


def test_one(impl: Impl, args) -> tuple[str, list[str]]:
    """Status ("pass", "fail" or "skip": no runner could execute it) and report lines."""
    lines: list[str] = []
    try:
        progs = B.build_test(impl, args.seed, args.random)
    except B.BuildError as e:
        return "fail", [f"FAIL {impl.name}: build: {e}"]
    runs: list[R.Run] = []
    notes = []
    if args.runner in ("both", "rvsim"):
        runs.append(R.run("rvsim", R.rvsim_cmd(progs.test, impl.run_isa, core="e31"), args.timeout))
    if args.runner in ("both", "qemu"):
        unsup = R.qemu_unsupported(impl.extensions)
        if unsup:
            notes.append(f"qemu skipped ({', '.join(unsup)} not in QEMU)")
        else:
            runs.append(R.run("qemu", R.qemu_cmd(progs.test, impl.extensions), args.timeout))
    ok = True
    parts = []
    for run in runs:
        s = _summary(run)
        good = run.returncode == 0 and s is not None and s.get("failures") == 0
        if not good:
            ok = False
            what = f"{s['failures']} failures in {s['failed_cases']} of {s['cases']} cases" if s else "no summary"
            lines.append(f"  {run.runner}: FAIL (exit {run.returncode}; {what})")
            lines += _describe_failure(run)
        parts.append(f"{run.runner} ok" if good else f"{run.runner} FAIL")
    if len(runs) == 2 and runs[0].stdout != runs[1].stdout:
        ok = False
        a, b = runs[0].stdout.splitlines(), runs[1].stdout.splitlines()
        idx = next((i for i in range(max(len(a), len(b))) if (a[i:i + 1] or [None]) != (b[i:i + 1] or [None])), 0)
        lines.append(f"  differential: rvsim and qemu printed different output (first difference at line {idx + 1}):")
        lines.append(f"    rvsim: {a[idx] if idx < len(a) else '(no line)'}")
        lines.append(f"    qemu:  {b[idx] if idx < len(b) else '(no line)'}")
        parts.append("outputs DIFFER")
    elif len(runs) == 2:
        parts.append("outputs identical")
    if not runs:
        # nothing executed (e.g. --runner qemu for an extension QEMU lacks): not a pass
        head = f"SKIP {impl.name:<26} {progs.n_cases:>5} cases  " + ", ".join(notes)
        return "skip", [head] + lines
    head = f"{'PASS' if ok else 'FAIL'} {impl.name:<26} {progs.n_cases:>5} cases  " + ", ".join(parts + notes)
    return ("pass" if ok else "fail"), [head] + lines


def cmd_test(args) -> int:
    impls, errors = select(args)
    bad = _manifest_errors(errors)
    if not impls and not errors:
        err(f"no implementation matches --filter {args.filter!r}")
        return 1
    if args.runner in ("both", "rvsim") and not R.rvsim_available():
        err(f"rvsim not found at {R.RVSIM}: build it with `make setup` (cargo build --release in sim/), "
            f"or test on QEMU only with --runner qemu")
        return 1
    if args.runner in ("both", "qemu") and not R.qemu_available():
        err(f"{R.QEMU} not found: run `make setup`, or test on rvsim only with --runner rvsim")
        return 1
    prog = Progress(len(impls), "testing")
    passed = skipped = 0
    for impl in impls:
        prog.step(impl.name)
        try:
            status, lines = test_one(impl, args)
        except R.RunnerMissing as e:
            prog.close()
            err(str(e))
            return 1
        prog.advance()
        prog.close()
        print("\n".join(lines), flush=True)
        skipped += status == "skip"
        passed += status == "pass"
        bad += status == "fail"
    print(f"{passed} of {len(impls)} implementations passed" + (f", {skipped} skipped (not run by any runner)" if skipped else "")
          + (f"; {len(errors)} manifest error(s)" if errors else ""))
    if not passed and not bad:
        # every selected implementation was skipped: a green exit would claim a test happened
        err("nothing was tested: no runner can execute the selected implementations "
            "(use --runner rvsim or both for custom instructions)")
        return 1
    return 1 if bad else 0


# ------------------------------------------------------------------ bench
def secret_symbols(elf: Path) -> list[str]:
    """Global data symbols named rvlab_secret_* in the speed program (speed.c marks its
    secret inputs that way); they are passed to rvsim's constant-time checker."""
    p = subprocess.run([B.CC.replace("gcc", "nm"), "--defined-only", str(elf)], capture_output=True, text=True)
    return sorted({l.split()[-1] for l in p.stdout.splitlines()
                   if len(l.split()) == 3 and l.split()[-1].startswith("rvlab_secret_")})


def _run_tag(args) -> str:
    """Names rvsim's statistics files of this run: core, multiplier latency and process, so
    concurrent bench runs (other --core/--mul-latency) never read each other's files."""
    core = re.sub(r"[^A-Za-z0-9_.-]", "_", Path(args.core).name)
    lat = "" if args.mul_latency is None else f"-mul{args.mul_latency}"
    return f"{core}{lat}.{os.getpid()}"


def check_constant_time(impl: Impl, elf: Path, args) -> tuple[bool | None, str | None]:
    """Run the speed program under rvsim --secret; None if there is nothing marked secret
    or the checker is unavailable."""
    secrets = secret_symbols(elf)
    if not secrets:
        return None, None
    out = elf.with_name(f"ct-{_run_tag(args)}.rvsim.json")
    cmd = R.rvsim_cmd(elf, impl.run_isa, args.core, args.mul_latency, out)
    for s in secrets:
        cmd[1:1] = ["--secret", s]
    out.unlink(missing_ok=True)
    r = R.run("rvsim", cmd, args.timeout)
    if r.returncode == 2:
        return None, None                       # this rvsim has no --secret (usage error)
    try:
        j = json.loads(out.read_text())
    except (OSError, ValueError):
        return None, f"  constant-time check gave no JSON (exit {r.returncode}); reproduce: {r.reproduce}"
    finally:
        out.unlink(missing_ok=True)              # per-run file (see _run_tag)
    ct = j.get("constant_time")
    if ct is False:
        v = j.get("ct_violations") or []
        return False, f"  constant-time: {len(v)} violation(s), first: {v[0] if v else '?'}"
    return (ct if isinstance(ct, bool) else None), None


def bench_one(impl: Impl, args) -> tuple[list[dict], list[str]]:
    k = B.kernel_objects(impl)
    progs = B.build_speed(impl, k)
    code, static = B.sizes_from_map(progs.speed.with_suffix(".map"), k)
    ram_static = B.ram_static_bytes(progs.speed)
    flash_tables = B.sizes_from_map(progs.speed.with_suffix(".map"), k, B._RODATA)[1]
    prog_code = B.program_code_bytes(progs.speed)
    stats = progs.speed.with_name(f"speed-{_run_tag(args)}.rvsim.json")
    sp = R.run("rvsim", R.rvsim_cmd(progs.speed, impl.run_isa, args.core, args.mul_latency, stats), args.timeout)
    if sp.returncode != 0:
        raise B.BuildError("speed program failed:\n" + "\n".join(_describe_failure(sp)))
    st = R.run("rvsim", R.rvsim_cmd(progs.stack, impl.run_isa, args.core, args.mul_latency), args.timeout)
    if st.returncode != 0:
        raise B.BuildError("stack program failed:\n" + "\n".join(_describe_failure(st)))
    def ident(r):  # a measurement's identity: operation, size and any extra keys (limbs, ...)
        return tuple(sorted((k, str(v)) for k, v in r.items() if k not in ("stack_bytes", "cycles", "instret")))
    stack = {ident(r): r["stack_bytes"] for r in st.results()}
    t = B.build_test(impl, args.seed, args.random, k)
    tr = R.run("rvsim", R.rvsim_cmd(t.test, impl.run_isa, "e31"), args.timeout)
    s = _summary(tr)
    kat = "pass" if tr.returncode == 0 and s and s["failures"] == 0 else "fail"
    notes = [] if kat == "pass" else [f"  KAT FAILED: {l}" for l in _describe_failure(tr)]
    constant_time, ct_note = check_constant_time(impl, progs.speed, args)
    if ct_note:
        notes.append(ct_note)
    elif constant_time is None:
        notes.append("  constant-time: not checked (no rvlab_secret_* symbol in the speed program, "
                     "or this rvsim has no --secret); the records get constant_time null")
    mul_latency = args.mul_latency
    peak_stack = None
    try:
        sj = json.loads(stats.read_text())
        if isinstance(sj.get("mul_latency"), int):
            mul_latency = sj["mul_latency"]
        if isinstance(sj.get("max_stack_bytes"), int):
            peak_stack = sj["max_stack_bytes"]
    except (OSError, ValueError):
        pass
    finally:
        stats.unlink(missing_ok=True)            # per-run file (see _run_tag)
    recs = []
    for r in sp.results():
        rec = {"primitive": impl.primitive, "impl": impl.impl, "isa": impl.isa, "core": args.core,
               "operation": r["operation"], "input_bytes": r["input_bytes"], "cycles": r["cycles"],
               "instret": r["instret"],
               "cycles_per_byte": round(r["cycles"] / r["input_bytes"], 2) if r["input_bytes"] else None,
               "code_bytes": code, "static_bytes": static,
               "stack_bytes": stack.get(ident(r)),
               "kat": kat, "constant_time": constant_time, "mul_latency": mul_latency,
               "constant_time_claimed": impl.constant_time}
        # does it fit the board (seed 000: code runs from the 16 KiB I-cache, tables, stack and
        # buffers live in the 16 KiB DTIM): the speed program's RAM sections + the kernel's
        # read-only tables/constants (linked to flash here, in DTIM in the seed) + the
        # program's peak stack under rvsim
        rec["program_code_bytes"] = prog_code
        rec["dtim_bytes"] = None if peak_stack is None else ram_static + flash_tables + peak_stack
        for key, v in r.items():
            if key not in rec:
                rec[key] = v
        validate_record(rec)
        recs.append(rec)
    if not recs:
        raise B.BuildError(f"speed program printed no RVLAB_RESULT line\n    reproduce: {sp.reproduce}")
    return recs, notes


def merge_key(r: dict) -> tuple:
    """Records of one bench run of one implementation: what a new run replaces in bench.json."""
    return (r.get("primitive"), r.get("impl"), r.get("core"), r.get("mul_latency"))


def cmd_bench(args) -> int:
    impls, errors = select(args)
    bad = _manifest_errors(errors)
    if not impls and not errors:
        err(f"no implementation matches --filter {args.filter!r}")
        return 1
    if not R.rvsim_available():
        err(f"rvsim not found at {R.RVSIM}: build it with `make setup` (cargo build --release in sim/)")
        return 1
    json_path = Path(args.json)
    old = []
    if json_path.is_dir():
        err(f"--json {json_path}: is a directory, not a file")
        return 1
    if json_path.exists():
        # the new records are merged into the old ones: a file that cannot be read as a
        # list of records would be overwritten and lose them, so stop before measuring
        try:
            old = load_records(json_path)
        except RecordError as e:
            err(f"{e}; fix or remove it first (the new records are merged into it)")
            return 1
    if args.mul_latency is not None and not 1 <= args.mul_latency <= 1000:
        err(f"--mul-latency must be 1..1000, not {args.mul_latency}")
        return 1
    if args.core == "ideal" and args.mul_latency is not None:
        err("--mul-latency has no effect on the ideal core (one cycle per instruction)")
        return 1
    if args.core not in ("ideal",) + M.BUILTIN_CORES and not Path(args.core).is_file():
        err(f"--core {args.core!r}: not {', '.join(M.BUILTIN_CORES)}, ideal or a core parameter file")
        return 1
    prog = Progress(len(impls), "benchmarking")
    new, done = [], set()
    for impl in impls:
        prog.step(impl.name)
        try:
            recs, notes = bench_one(impl, args)
            prog.advance()
            prog.close()
            new += recs
            done.add((impl.primitive, impl.impl))
            for r in recs:
                print(f"{'ok  ' if r['kat'] == 'pass' else 'FAIL'} {impl.name:<26} {r['operation']:<10} {r['input_bytes']:>6} B {r['cycles']:>10} cycles"
                      f"  {'' if r['cycles_per_byte'] is None else format(r['cycles_per_byte'], '.1f') + ' c/B'}"
                      f"  kat {r['kat']}", flush=True)
            for n in notes:
                print(n)
            bad += any(r["kat"] != "pass" for r in recs)
            # a kernel that claims constant time and the checker disagrees is a failure
            ct_broken = [r for r in recs if r.get("constant_time_claimed") is True and r.get("constant_time") is False]
            if ct_broken:
                bad += 1
                print(f"FAIL {impl.name}: claims constant_time = true, the checker found violations "
                      f"({len(ct_broken)} record(s); see the constant-time line above)", flush=True)
        except B.BuildError as e:
            prog.advance()
            prog.close()
            bad += 1
            print(f"FAIL {impl.name}: {e}", flush=True)
    # merge: a new run replaces the records of the same implementation, core and multiplier
    # latency only (a --mul-latency 2 run keeps the latency-5 records beside its own)
    replaced = {merge_key(r) for r in new}
    kept = [r for r in old if merge_key(r) not in replaced]
    recs = sorted(kept + new, key=lambda r: (r["primitive"], r["impl"], r["core"], r.get("mul_latency") or 0,
                                             r["operation"], r["input_bytes"]))
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(recs, indent=1) + "\n")
    md = json_path.with_suffix(".md")
    write_report(json_path, md)
    print(f"wrote {json_path} ({len(recs)} records) and {md}")
    # what this run changed against the records it replaced (the speed work's before/after)
    replaced_old = [r for r in old if merge_key(r) in replaced]
    if replaced_old:
        diff = compare(replaced_old, new)
        shown = diff[:-1][:COMPARE_SHOWN]
        for line in shown:
            print("  " + line)
        more = len(diff) - 1 - len(shown)
        print(f"against the records it replaced: {diff[-1]}"
              + (f" ({more} more not shown: rvlab compare OLD.json {json_path})" if more else ""))
    return 1 if bad else 0


COMPARE_SHOWN = 15


def cmd_compare(args) -> int:
    try:
        old, new = load_records(args.old), load_records(args.new)
    except RecordError as e:
        err(str(e))
        return 1
    for line in compare(old, new, filter_regex(args.filter) if args.filter else None):
        print(line)
    return 0


def cmd_report(args) -> int:
    try:
        n = write_report(Path(args.json), Path(args.json).with_suffix(".md"))
    except RecordError as e:
        err(str(e))
        return 1
    print(f"wrote {Path(args.json).with_suffix('.md')} from {n} records")
    return 0


def cmd_area(args) -> int:
    from . import area
    try:
        js, md = area.run(Path(args.json), Path(args.out), progress=lambda m: print(f"rvlab: {m}", file=sys.stderr))
    except (area.AreaError, RecordError) as e:
        err(str(e))
        return 1
    print(f"wrote {md}, {js} and {Path(args.out) / 'area-speedup.png'}")
    return 0


def elf_arch_isa(elf: Path) -> str | None:
    """The ELF's Tag_RISCV_arch (the union of its objects' -march) as an rvsim ISA string:
    version numbers dropped, names rvsim implies or folds into a/m/c left out."""
    try:
        p = subprocess.run([B.CC.replace("gcc", "readelf"), "-A", str(elf)], capture_output=True, text=True)
    except OSError:             # no cross binutils: fall back to the default
        return None
    m = re.search(r'Tag_RISCV_arch: "([^"]+)"', p.stdout)
    if p.returncode != 0 or not m:
        return None
    parts = [re.sub(r"\d+p\d+$", "", x) for x in m.group(1).lower().split("_")]
    letters = "".join(x for x in parts[1:] if len(x) == 1)          # m, a, c, ...
    implied = {"zicsr", "zifencei", "zmmul", "zaamo", "zalrsc", "zca"}
    multi = [x for x in parts[1:] if len(x) > 1 and x not in implied]
    return "_".join([parts[0] + letters] + multi)


def run_isa_for(elf: Path) -> tuple[str, str]:
    """--isa for `rvlab run ELF` without one, and where it came from: the manifest's ISA that
    `rvlab build` wrote beside its programs (custom x... extensions included), else the ELF's
    own arch attribute, else rv32imac."""
    f = elf.parent / B.ISA_FILE
    if f.is_file() and f.read_text().strip():
        return f.read_text().strip(), str(f)
    isa = elf_arch_isa(elf)
    if isa:
        return isa, "the ELF's arch attribute"
    return "rv32imac", "default"


def cmd_run(args) -> int:
    if not R.rvsim_available():
        err(f"rvsim not found at {R.RVSIM}: build it with `make setup`")
        return 1
    if not Path(args.elf).is_file():
        err(f"{args.elf}: {'not a regular file' if Path(args.elf).exists() else 'no such file'}")
        return 1
    isa = args.isa
    if isa is None:
        isa, origin = run_isa_for(Path(args.elf))
        print(f"rvlab: --isa {isa} (from {origin}; give --isa to override)", file=sys.stderr)
    cmd = [str(R.RVSIM), "--isa", isa, "--core", args.core]
    if args.mul_latency is not None:
        cmd += ["--mul-latency", str(args.mul_latency)]
    extra = args.rvsim_args[1:] if args.rvsim_args[:1] == ["--"] else args.rvsim_args
    cmd += extra + ([] if "--stats" in extra or "--json" in extra else ["--stats"])
    cmd.append(args.elf)
    p = subprocess.run(cmd)
    if p.returncode == 125:
        err(f"rvsim stopped with an error (see the `rvsim: error:` line above); command: {' '.join(cmd)}")
    elif p.returncode == 2:
        err("rvsim rejected the command line (see above)")
    elif p.returncode != 0:
        print(f"rvlab: the program exited with status {p.returncode}", file=sys.stderr)
    return p.returncode


def rvsim_main() -> int:
    """`rvsim` on PATH (installed by the set-up): replaces itself with the binary cargo built
    in sim/, so arguments, output and exit status are rvsim's own."""
    if not R.rvsim_available():
        err(f"rvsim not found at {R.RVSIM}: build it with `make setup`")
        return 1
    os.execv(R.RVSIM, [str(R.RVSIM)] + sys.argv[1:])


def cmd_micro(args) -> int:
    if args.core not in M.BUILTIN_CORES and not Path(args.core).is_file():
        err(f"--core {args.core!r}: not {', '.join(M.BUILTIN_CORES)} or a core parameter file")
        return 1
    if not R.rvsim_available():
        err(f"rvsim not found at {R.RVSIM}: build it with `make setup` (cargo build --release in sim/)")
        return 1
    try:
        pat = re.compile(args.filter) if args.filter else None
    except re.error as e:
        err(f"--filter {args.filter!r}: {e}")
        return 1
    board = None
    try:
        if args.board_log:
            try:
                board = M.parse_log(Path(args.board_log).read_text(errors="replace"))
            except OSError as e:
                err(f"--board-log: {e}")
                return 1
        chosen = [e for e in M.effects() if not pat or pat.search(e.name)]
        if not chosen:
            err(f"no microbenchmark matches --filter {args.filter!r}")
            return 1
        recs = []
        for e in chosen:
            recs.append(M.measure(e, args.core))
    except (M.MicroError, B.BuildError) as e:
        err(str(e))
        return 1
    print(M.table(recs, board))
    print(f"\nELFs to run on a board (they print the model's figure beside their own): "
          f"{Path(recs[0]['elf']).parent}/*-p.elf")
    return 0


# ------------------------------------------------------------------ main
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="rvlab", description="build, test and benchmark RV32 crypto kernels")
    sub = ap.add_subparsers(dest="cmd", required=True)

    def common(p, random_default=200):
        p.add_argument("--filter", help="regular expression on primitive/impl, e.g. chacha20/rv32i")
        p.add_argument("--crypto-dir", action="append", help="folder of <primitive>/<impl>/ to use instead of crypto/ (repeatable)")
        p.add_argument("--seed", type=int, default=1, help="seed of the random test cases (default 1)")
        p.add_argument("--random", type=int, default=random_default, metavar="N",
                       help=f"random cases per primitive (default {random_default})")
        p.add_argument("--timeout", type=float, default=300, help="seconds per program run (default 300)")

    p = sub.add_parser("build", help="build test, speed and stack programs")
    common(p)
    p.set_defaults(fn=cmd_build)
    p = sub.add_parser("test", help="run the test programs on rvsim and QEMU and compare")
    common(p)
    p.add_argument("--runner", choices=["both", "rvsim", "qemu"], default="both")
    p.set_defaults(fn=cmd_test)
    p = sub.add_parser("bench", help="measure cycles, sizes and stack on rvsim; write results/bench.{json,md}")
    common(p, random_default=50)
    p.add_argument("--core", default="e31", help="ideal | e31 (default; HiFive1) | hifive1-revb | core parameter file")
    p.add_argument("--mul-latency", type=int, help="override the multiplier result latency")
    p.add_argument("--json", default=str(RESULTS / "bench.json"), help="output file (default results/bench.json)")
    p.set_defaults(fn=cmd_bench)
    p = sub.add_parser("report", help="regenerate results/bench.md (and the primitives' plots and polymul_table5.md) from results/bench.json")
    p.add_argument("--json", default=str(RESULTS / "bench.json"))
    p.set_defaults(fn=cmd_report)
    p = sub.add_parser("compare", help="before/after: the measurements that differ between two bench JSON files")
    p.add_argument("old", help="the earlier bench JSON (e.g. `git show HEAD:results/bench.json > old.json`)")
    p.add_argument("new", nargs="?", default=str(RESULTS / "bench.json"), help="default results/bench.json")
    p.add_argument("--filter", help="regular expression on primitive/impl")
    p.set_defaults(fn=cmd_compare)
    p = sub.add_parser("area", help="synthesise the instruction units and the baseline core with Yosys; "
                       "gate equivalents next to the speed-ups in results/bench.json")
    p.add_argument("--json", default=str(RESULTS / "bench.json"), help="bench records (default results/bench.json)")
    p.add_argument("--out", default=str(RESULTS), help="folder for area.md, area.json, area-speedup.png (default results/)")
    p.set_defaults(fn=cmd_area)
    p = sub.add_parser("micro", help="microbenchmarks of the core model's effects: the model's cycles, "
                       "and the ELFs that print them beside a board's (harness/micro/README.md)")
    p.add_argument("--core", default="e31", help="e31 (default; HiFive1) | hifive1-revb | core parameter file")
    p.add_argument("--filter", help="regular expression on the effect name")
    p.add_argument("--board-log", metavar="FILE", help="console output of the same programs on a board: "
                   "adds the board's cycles and the difference")
    p.set_defaults(fn=cmd_micro)
    p = sub.add_parser("run", help="run an ELF on rvsim (extra rvsim options after --)")
    p.add_argument("elf", help="an ELF built by `rvlab build` (build/<primitive>/<impl>-*/) or any RV32 ELF")
    p.add_argument("--isa", help="ISA string (default: the implementation's, from the build folder, "
                   "else the ELF's arch attribute, else rv32imac)")
    p.add_argument("--core", default="e31", help="ideal | e31 (default) | core parameter file")
    p.add_argument("--mul-latency", type=int, help="override the multiplier result latency")
    p.add_argument("rvsim_args", nargs=argparse.REMAINDER, help="passed to rvsim")
    p.set_defaults(fn=cmd_run)
    args = ap.parse_args(argv)
    if getattr(args, "random", 0) < 0:
        ap.error("--random must be >= 0")
    try:
        return args.fn(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:            # e.g. `rvlab test | head`
        sys.stderr.close()
        return 1


if __name__ == "__main__":
    sys.exit(main())
