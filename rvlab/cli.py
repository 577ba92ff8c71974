"""The `rvlab` command: build | test | bench | report | compare | area | lib | measure | run."""
from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from . import __version__
from . import build as B
from . import micro as M
from . import runner as R
from .bench import cmd_bench
from .compare import compare, regressions
from .driver import default_jobs, err, filter_regex, for_each_impl, select_reported
from .lib import cmd_lib
from .measure import ARG_HELP, cmd_measure
from .records import RecordError, load_records
from .report import write_report
from .testrun import cmd_test

RESULTS = B.ROOT / "results"


# ------------------------------------------------------------------ build
def cmd_build(args) -> int:
    def work(impl):
        try:
            k = B.kernel_objects(impl)
            t = B.build_test(impl, args.seed, args.random, k)
            s = B.build_speed(impl, k)
            return t, s, B.sizes_from_map(s.speed.with_suffix(".map"), k)
        except B.BuildError as e:
            return e

    bad = 0

    def show(impl, result):
        nonlocal bad
        if isinstance(result, B.BuildError):
            bad += 1
            print(f"FAIL {impl.name}: {result}")
            return
        t, s, (code, static) = result
        print(f"ok   {impl.name:<28} {t.test}  ({t.n_cases} cases; code {code} B, static {static} B)")
        print(f"     {'':<28} {s.speed}\n     {'':<28} {s.stack}")

    selected = for_each_impl(args, "building", work, show)
    if selected is None:
        return 1
    return 1 if bad or selected[1] else 0


def cmd_compare(args) -> int:
    if not Path(args.old).exists():     # (load_records's hint, `rvlab bench`, is for the new records)
        err(f"{args.old} does not exist — the earlier records, e.g. "
            f"`git show HEAD:results/bench.json > {args.old}`")
        return 1
    try:
        old, new = load_records(args.old), load_records(args.new)
    except RecordError as e:
        err(str(e))
        return 1
    rx = filter_regex(args.filter) if args.filter else None
    for line in compare(old, new, rx):
        print(line)
    if args.fail_on_regression is None:
        return 0
    worse = regressions(old, new, args.fail_on_regression, rx)
    for line in worse:
        print(f"REGRESSION {line}")
    print(f"{len(worse)} regression(s) (more than {args.fail_on_regression:g}% more cycles, a constant-time "
          f"verdict lost, a KAT failing or a measurement missing)")
    return 1 if worse else 0


def cmd_report(args) -> int:
    try:
        n = write_report(Path(args.json), Path(args.json).with_suffix(".md"))
    except RecordError as e:
        err(str(e))
        return 1
    print(f"wrote {Path(args.json).with_suffix('.md')} from {n} records")
    if args.html:
        from .html import write_page
        page, missing = write_page(Path(args.json), Path(args.json).with_name("index.html"))
        for m in missing:
            print(f"rvlab report: warning: the report names {m}, which is not there", file=sys.stderr)
        print(f"wrote {page} (one self-contained page: open it in a browser)")
    return 0


def cmd_area(args) -> int:
    from . import area
    try:
        cores = [c for c in args.cores.split(",") if c] if args.cores else None
        lib = None if args.liberty == "none" else Path(args.liberty) if args.liberty else area.LIBERTY
        if args.liberty not in (None, "none") and not lib.is_file():
            err(f"--liberty {lib}: no such file")
            return 1
        if Path(args.out).exists() and not Path(args.out).is_dir():
            err(f"--out {args.out}: not a folder")
            return 1
        try:                        # before the synthesis runs (minutes), not after them
            Path(args.out).mkdir(parents=True, exist_ok=True)
        except OSError as e:
            err(f"--out {args.out}: cannot make the folder ({e.strerror or e})")
            return 1
        js, md = area.run(Path(args.json), Path(args.out), progress=lambda m: print(f"rvlab: {m}", file=sys.stderr),
                          cores=cores, liberty=lib)
    except (area.AreaError, RecordError) as e:
        err(str(e))
        return 1
    print(f"wrote {md}, {js}, {Path(args.out) / 'area-speedup.png'} and {Path(args.out) / 'area-speedup-custom.png'}")
    return 0


def cmd_rtl(args) -> int:
    from . import rtl
    sims = rtl.simulators()
    sim = args.sim or (sims[0] if sims else None)
    if sim is None or sim not in sims:
        err(f"{'no Verilog simulator' if sim is None else sim + ' is not installed'}: "
            "install Verilator or Icarus Verilog with `make setup`")
        return 1
    if not R.rvsim_available():
        err(f"rvsim not found at {R.RVSIM}: build it with `make setup`")
        return 1
    if args.json and (Path(args.json).is_dir() or not Path(args.json).parent.is_dir()):
        # (said before the runs, not by a traceback after them)
        err(f"--json {args.json}: " + ("is a directory, not a file" if Path(args.json).is_dir()
                                       else f"no folder {Path(args.json).parent} (make it first)"))
        return 1
    impls, errors = select_reported(args, none=None)
    bad = len(errors)
    progs = rtl.programs(impls, args.shared_sbox) + \
        rtl.random_programs(args.random, args.seed, args.random_len, args.random_iters)
    if args.filter:
        rx = filter_regex(args.filter)
        progs = [p for p in progs if rx.search(p.name)]
    if not progs:
        err(f"no program matches --filter {args.filter!r}")
        return 1
    records = []
    print(f"rvlab rtl: {sim}, core model {rtl.CORE_FILE.relative_to(B.ROOT)}", file=sys.stderr)
    for prog in progs:
        if prog.skip:
            print(f"skip {prog.name:<30} {prog.skip}")
            continue
        try:
            elf = prog.build()
        except (B.BuildError, rtl.RtlError) as e:
            bad += 1
            print(f"FAIL {prog.name}: {e}")
            continue
        o = rtl.compare(prog.name, elf, prog.cfg, sim, args.timeout)
        records.append(o.record() | {"core": prog.cfg.tag, "elf": str(elf)})
        if o.ok:
            print(f"ok   {prog.name:<30} {o.rtl_cycles:>10,} cycles  {o.rtl_instret:>10,} instructions  [{prog.cfg.tag}]")
        else:
            bad += 1
            print(f"FAIL {prog.name:<30} {o.problem}  [{prog.cfg.tag}]")
    if args.json:
        Path(args.json).write_text(json.dumps(records, indent=1) + "\n")
        print(f"wrote {args.json}", file=sys.stderr)
    print(f"{len(records) - sum(1 for r in records if r['problem'])} equal, {bad} different or failed")
    return 1 if bad else 0


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
            except FileNotFoundError:
                err(f"--board-log {args.board_log}: no such file")
                return 1
            except OSError as e:
                err(f"--board-log {args.board_log}: {e.strerror or e}")
                return 1
        chosen = [e for e in M.effects() if not pat or pat.search(e.name)]
        if not chosen:
            err(f"no microbenchmark matches --filter {args.filter!r}")
            return 1
        recs = [M.measure(e, args.core) for e in chosen]
    except (M.MicroError, B.BuildError) as e:
        err(str(e))
        return 1
    print(M.table(recs, board))
    print(f"\nELFs to run on a board (they print the model's figure beside their own): "
          f"{Path(recs[0]['elf']).parent}/*-p.elf")
    return 0


def cmd_run(args) -> int:
    if not R.rvsim_available():
        err(f"rvsim not found at {R.RVSIM}: build it with `make setup`")
        return 1
    if not Path(args.elf).is_file():
        err(f"{args.elf}: {'not a regular file' if Path(args.elf).exists() else 'no such file'}")
        return 1
    if args.rvsim_args and not args.rvsim_args[0].startswith("-"):
        # e.g. build/chacha20/rv32i-*/test-s1-r200.elf matching the build folders of two versions
        err(f"one ELF at a time: {args.elf} and {args.rvsim_args[0]} (rvsim options go after --; "
            f"`rvlab build` prints the current build's ELFs)")
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
    # the statistics file says whether rvsim stopped the run or the program exited with its own
    # status (which may be 125 or 2 as well; docs/interfaces.md §1)
    with tempfile.TemporaryDirectory(prefix="rvlab-run-") as tmp:
        stats = Path(cmd[cmd.index("--json-out") + 1]) if "--json-out" in cmd else Path(tmp) / "stats.json"
        full = cmd if "--json-out" in cmd else cmd[:-1] + ["--json-out", str(stats)] + cmd[-1:]
        stats.unlink(missing_ok=True)
        p = subprocess.run(full)
        try:
            error, ran = json.loads(stats.read_text()).get("error"), True
        except (OSError, ValueError):
            error, ran = None, False
    if not ran and p.returncode == 2:
        err("rvsim rejected the command line (see above)")
    elif not ran and p.returncode != 0:
        err(f"rvsim could not run the program (see the `rvsim: error:` line above); command: {' '.join(cmd)}")
    elif error is not None:
        err(f"rvsim stopped the run: {error}; command: {' '.join(cmd)}")
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


# ------------------------------------------------------------------ main
BASE_TIME_LIMIT, TIME_PER_CASE, MAX_TIME_LIMIT = 120.0, 0.05, 86400.0


def time_limit(n_random: int) -> float:
    """The default --timeout: a kernel that never returns is stopped after about two minutes
    (rvsim and QEMU run at the same time), while the slowest program has room on a busy machine:
    the slowest default test program (shake128/rv32i, 200 random cases) takes 1.5 s on rvsim,
    the longest optional one (sha3-256 with RVLAB_SHA3_MONTE=100: 1.5 G instructions) 28 s on
    a 2-core host at load 11, and thousands of random cases get 0.05 s each more."""
    return BASE_TIME_LIMIT + TIME_PER_CASE * n_random


def _option_value(parse, what: str, valid, rule: str):
    """An argparse type: parse the text (else "is not WHAT"), then check it (else RULE)."""
    def convert(text: str):
        try:
            v = parse(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if not valid(v):                        # (nan fails every comparison, so every check)
            raise argparse.ArgumentTypeError(f"{rule}, not {text}")
        return v
    return convert


# --timeout S: a finite number of seconds, more than 0 and at most a day
seconds = _option_value(float, "a number of seconds", lambda s: 0 < s <= MAX_TIME_LIMIT,
                        f"must be more than 0 and at most {MAX_TIME_LIMIT:g} seconds")
# --fail-on-regression PCT: a finite number >= 0
percentage = _option_value(float, "a number", lambda v: 0 <= v < float("inf"), "must be a percentage >= 0")
# -j N: a whole number >= 1
jobs_count = _option_value(int, "a whole number", lambda n: n >= 1, "must be at least 1")
# --random-len / --random-iters: a whole number >= 1
positive_count = _option_value(int, "a whole number", lambda n: n >= 1, "must be at least 1")
# --max-code BYTES: a whole number >= 0
byte_count = _option_value(int, "a whole number of bytes", lambda n: n >= 0, "must be at least 0")


class _Parser(argparse.ArgumentParser):
    """A usage error is one line, the message and where the options are listed (argparse's
    own error prints the whole usage first); the subcommands' parsers are of this class too."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (`{self.prog} --help` lists the options)\n")


def _closest(word: str, choices) -> str:
    close = difflib.get_close_matches(word, list(choices), 1)
    return f" (did you mean {close[0]}?)" if close else ""


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    ap = _Parser(prog="rvlab", description="build, test and benchmark RV32 crypto kernels")
    ap.add_argument("--version", action="version", version=f"rvlab {__version__}")
    sub = ap.add_subparsers(dest="cmd", required=True)

    def common(p, random_default=200, runs_programs=True, random_help="random cases per primitive",
               seed_help="seed of the random test cases", timeout_scales=True):
        p.add_argument("--filter", help="regular expression on primitive/impl, e.g. chacha20/rv32i")
        p.add_argument("--crypto-dir", action="append", help="folder of <primitive>/<impl>/ to use instead of crypto/ (repeatable)")
        p.add_argument("--seed", type=int, default=1, help=f"{seed_help} (default 1)")
        p.add_argument("--random", type=int, default=random_default, metavar="N",
                       help=f"{random_help} (default {random_default})")
        if runs_programs:           # (rvlab build runs none: no --timeout)
            p.add_argument("--timeout", type=seconds, metavar="S",
                           help=f"time limit of one program run, in seconds (default {BASE_TIME_LIMIT:g} + "
                                f"{TIME_PER_CASE:g} per random case: {time_limit(random_default):g} s "
                                f"for {random_default})" if timeout_scales else
                                f"time limit of one program run, in seconds (default {BASE_TIME_LIMIT:g})")
        p.add_argument("-j", "--jobs", type=jobs_count, default=default_jobs(), metavar="N",
                       help=f"implementations at a time (default: $RVLAB_JOBS, else the machine's cores; "
                            f"here {default_jobs()}); the output is the same as with -j 1")

    p = sub.add_parser("build", help="build test, speed and stack programs")
    common(p, runs_programs=False)
    p.set_defaults(fn=cmd_build)
    p = sub.add_parser("test", help="run the test programs on rvsim and QEMU and compare")
    common(p)
    p.add_argument("--runner", choices=["both", "rvsim", "qemu"], default="both",
                   help="where the test programs run: both (default: rvsim and QEMU, outputs compared), "
                        "rvsim only, or qemu only (skips custom x... extensions QEMU lacks)")
    p.add_argument("--ct", action="store_true",
                   help="also run the constant-time checker on each speed program, as rvlab bench does "
                        "(rvsim --secret on its rvlab_secret_* inputs); fails a kernel whose manifest "
                        "claims constant_time and the checker disagrees")
    p.set_defaults(fn=cmd_test)
    p = sub.add_parser("bench", help="measure cycles, sizes and stack on rvsim; write results/bench.{json,md}")
    common(p, random_default=50)
    p.add_argument("--core", default="e31", help="ideal | e31 (default; HiFive1) | hifive1-revb | core parameter file")
    p.add_argument("--mul-latency", type=int, help="override the multiplier result latency")
    p.add_argument("--json", default=str(RESULTS / "bench.json"), help="output file (default results/bench.json)")
    p.set_defaults(fn=cmd_bench)
    p = sub.add_parser("report", help="regenerate results/bench.md (and the primitives' plots and polymul_table5.md) "
                       "from results/bench.json; --html also results/index.html")
    p.add_argument("--html", action="store_true",
                   help="also write index.html beside it: one self-contained page with a sortable, filterable table "
                        "of every measurement, the seed tables and every chart")
    p.add_argument("--json", default=str(RESULTS / "bench.json"),
                   help="the bench records to report (default results/bench.json); the report, its figures "
                        "and the primitives' files are written beside it (FILE.md, ...)")
    p.set_defaults(fn=cmd_report)
    p = sub.add_parser("compare", help="before/after: the measurements that differ between two bench JSON files")
    p.add_argument("old", help="the earlier bench JSON (e.g. `git show HEAD:results/bench.json > old.json`)")
    p.add_argument("new", nargs="?", default=str(RESULTS / "bench.json"), help="default results/bench.json")
    p.add_argument("--filter", help="regular expression on primitive/impl")
    p.add_argument("--fail-on-regression", type=percentage, nargs="?", const=0.0, metavar="PCT",
                   help="exit 1 if a measurement got worse: more than PCT%% more cycles (default 0: any "
                        "increase), a constant-time verdict lost, or a KAT failing")
    p.set_defaults(fn=cmd_compare)
    p = sub.add_parser("area", help="synthesise the instruction units, seed 003's modules and the 5-stage "
                       "core's configurations with Yosys: results/area.md, gate equivalents (and area on "
                       "the OSU 0.18 um cells) next to the speed-ups in results/bench.json")
    p.add_argument("--json", default=str(RESULTS / "bench.json"), help="bench records (default results/bench.json)")
    p.add_argument("--out", default=str(RESULTS), help="folder for area.md, area.json, area-speedup*.png (default results/)")
    p.add_argument("--cores", help="5-stage core configurations to synthesise, comma-separated "
                   "(default all: rv32i,rv32i+m,rv32i+c,rv32i+zicsr,rv32imc+zicsr; minutes each, cached)")
    p.add_argument("--liberty", help="Liberty file of a standard-cell library, or `none` (default: the "
                   "OSU 0.18 um cells of the Debian package qflow-tech-osu018, if installed)")
    p.set_defaults(fn=cmd_area)
    p = sub.add_parser("rtl", help="run programs on the Verilog 5-stage core and on rvsim's model of it; "
                       "compare output, exit status and cycles")
    common(p, random_default=0, seed_help="first random program's seed", timeout_scales=False,
           random_help="also N random programs of rvsim's differential generator (RV32IMC, CSRs and the "
                       "crypto units' instructions; registers and memory printed at the end)")
    p.add_argument("--json", help="write [{program, rtl_cycles, sim_cycles, output_match, ...}] to FILE")
    p.add_argument("--sim", choices=["verilator", "icarus"], help="Verilog simulator (default: Verilator if installed)")
    p.add_argument("--shared-sbox", action="store_true",
                   help="implementations run on cores with Zkne/Zknd/Zksed on one S-box datapath")
    p.add_argument("--random-len", type=positive_count, default=600, metavar="INSNS",
                   help="instructions per random program (default 600)")
    p.add_argument("--random-iters", type=positive_count, default=20, metavar="N",
                   help="times each loop body of a random program runs (default 20)")
    p.set_defaults(fn=cmd_rtl, timeout=BASE_TIME_LIMIT)     # not scaled by --random: one program each
    p = sub.add_parser("micro", help="microbenchmarks of the core model's effects: the model's cycles, "
                       "and the ELFs that print them beside a board's (harness/micro/README.md)")
    p.add_argument("--core", default="e31", help="e31 (default; HiFive1) | hifive1-revb | core parameter file")
    p.add_argument("--filter", help="regular expression on the effect name")
    p.add_argument("--board-log", metavar="FILE", help="console output of the same programs on a board: "
                   "adds the board's cycles and the difference")
    p.set_defaults(fn=cmd_micro)
    p = sub.add_parser("lib", help="a firmware library for one -march: librvlab.a and rvlab.h with the fastest "
                       "constant-time implementation of each primitive that fits (--allow-variable-time: any)")
    p.add_argument("--march", required=True, help="your firmware's -march, e.g. rv32imac or rv32imac_zbkb_zknh "
                   "(zkn/zks/zk stand for their extensions; custom x... ones are allowed)")
    p.add_argument("--out", help="folder for librvlab.a, rvlab.h, choices.md (default build/lib/MARCH)")
    p.add_argument("--allow-variable-time", action="store_true",
                   help="also choose implementations the constant-time checker rejects (e.g. T-table AES)")
    p.add_argument("--max-code", type=byte_count, metavar="BYTES",
                   help="only implementations with at most BYTES of code (their own .text), e.g. 8192 to keep "
                        "the unrolled ones out of a small flash or I-cache")
    p.add_argument("--json",
                   help="bench records that say which is fastest (default results/bench.json); implementations "
                        "without e31 records there are measured first (kept in OUT/measured.json)")
    p.add_argument("--filter", help="regular expression on primitive/impl: only these are candidates")
    p.add_argument("--crypto-dir", action="append", help="folder of <primitive>/<impl>/ to use instead of crypto/")
    p.add_argument("-j", "--jobs", type=jobs_count, default=default_jobs(), metavar="N",
                   help="implementations measured at a time (default: $RVLAB_JOBS, else the machine's cores)")
    p.set_defaults(fn=cmd_lib)
    p = sub.add_parser("measure", help="time one function of your own assembly or C: cycles, instructions, "
                       "stalls by cause and stack bytes of a warm call on rvsim")
    p.add_argument("files", nargs="+", metavar="FILE", help=".S/.s/.c files that define the function (and what it calls)")
    p.add_argument("--function", required=True, metavar="NAME", help="the function to call (ilp32 calling convention)")
    p.add_argument("--args", nargs="+", metavar="ARG", help=f"its arguments, a0 first: each {ARG_HELP}")
    p.add_argument("--isa", default="rv32imac", help="-march for your files and rvsim's ISA, e.g. rv32imac_zbkb "
                   "(default rv32imac; custom x... extensions through ise.inc)")
    p.add_argument("--core", default="e31", help="ideal | e31 (default; HiFive1) | hifive1-revb | core parameter file")
    p.add_argument("--mul-latency", type=int, help="override the multiplier result latency")
    p.add_argument("--cflags", nargs="+", metavar="FLAG", help="for .c files (default -O2); e.g. --cflags=-Os")
    p.add_argument("--annotate", type=int, nargs="?", const=3, metavar="N",
                   help="also print rvsim's annotated disassembly of the N hottest functions (default 3)")
    p.add_argument("--json", action="store_true", help="print one JSON object (cycles, instret, stack_bytes, "
                   "stalls, ...) instead of the summary")
    p.add_argument("--timeout", type=seconds, default=BASE_TIME_LIMIT, metavar="S",
                   help=f"time limit of one program run (default {BASE_TIME_LIMIT:g} s)")
    p.set_defaults(fn=cmd_measure)
    p = sub.add_parser("run", help="run an ELF on rvsim (extra rvsim options after --)")
    p.add_argument("elf", help="an ELF built by `rvlab build` (build/<primitive>/<impl>-*/) or any RV32 ELF")
    p.add_argument("--isa", help="ISA string (default: the implementation's, from the build folder, "
                   "else the ELF's arch attribute, else rv32imac)")
    p.add_argument("--core", default="e31", help="ideal | e31 (default; HiFive1) | hifive1-revb | core parameter file")
    p.add_argument("--mul-latency", type=int, help="override the multiplier result latency")
    p.add_argument("rvsim_args", nargs=argparse.REMAINDER, help="passed to rvsim").required = False  # (may be empty)
    p.set_defaults(fn=cmd_run)
    for a in sub._choices_actions:          # `rvlab CMD --help` opens with the line `rvlab --help` gives CMD
        sub.choices[a.dest].description = a.help
    if not argv:
        ap.error(f"give a command: {', '.join(sub.choices)}")
    if argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version"):
        ap.error(f"give a command before its options ({argv[0]} ...): {', '.join(sub.choices)}")
    if not argv[0].startswith("-") and argv[0] not in sub.choices:
        ap.error(f"no command {argv[0]!r}{_closest(argv[0], sub.choices)}; the commands: {', '.join(sub.choices)}")
    args, extra = ap.parse_known_args(argv)
    if extra:                   # (argparse would name the top-level parser and suggest nothing)
        p = sub.choices[args.cmd]
        options = [o for a in p._actions for o in a.option_strings]
        p.error(f"unrecognized arguments: {' '.join(extra)}{_closest(extra[0], options)}")
    if getattr(args, "random", 0) < 0:
        sub.choices[args.cmd].error("--random must be >= 0")
    if hasattr(args, "timeout") and args.timeout is None:
        args.timeout = time_limit(args.random)
    try:
        return args.fn(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:            # e.g. `rvlab test | head`
        sys.stderr.close()
        return 1


if __name__ == "__main__":
    sys.exit(main())
