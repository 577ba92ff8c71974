#!/usr/bin/env python3
"""Before/after check of rvsim: run two rvsim binaries on the same programs and compare
everything they report -- exit status, the program's output, rvsim's stderr (messages,
--stats, --annotate, constant-time report), the trace, and the --json-out statistics object,
exactly.  For a change to the engine that must not change any figure.

Programs (from the repository root):
  * every ELF `python3 -m rvlab build` left under build/ (test, speed and stack programs of
    each implementation, with the run ISA from its rvsim-isa file, and --stop-on-trap as rvlab
    runs them); speed programs with rvlab_secret_* symbols also under --secret, as `rvlab
    bench` runs the constant-time checker.  Build the test fixtures too for the error paths:
    for f in abi broken isa leaky measure; do python3 -m rvlab build --crypto-dir tests/fixtures/$f; done
  * the machine-mode trap programs of tests/test_machine_mode.py (built here);
  * the loops in sim/benches/*.S (built here with a small iteration count).
Each runs on --core e31 and --core ideal; the new binary also with --no-blocks (the
per-instruction loop, against the old binary's block-engine run).  The small stack programs
also run with --stats --annotate and --trace.

usage: python3 sim/benches/compare_stats.py OLD_RVSIM [NEW_RVSIM] [--filter REGEX] [--jobs N]
Exit status 0 when every run is identical, 1 otherwise (each difference is listed).
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from programs import ROOT, SIM, build_loops, rvlab_builds, secret_symbols  # noqa: E402
CORES = ("e31", "ideal")


def rvlab_programs(build: Path) -> list[tuple[str, Path, list[str]]]:
    """(name, elf, rvsim options) of every program rvlab built."""
    progs = []
    for folder, isa in rvlab_builds(build):
        for elf in sorted(folder.glob("*.elf")):
            name = str(elf.relative_to(build))
            base = ["--isa", isa, "--stop-on-trap"]
            progs.append((name, elf, base))
            if elf.name == "speed.elf":
                secrets = [a for s in secret_symbols(elf) for a in ("--secret", s)]
                if secrets:
                    progs.append((name + " --secret", elf, base + secrets))
            if elf.name == "stack.elf":
                progs.append((name + " --stats --annotate", elf, base + ["--stats", "--annotate", "3"]))
                progs.append((name + " --trace", elf, base + ["--trace", "TRACE"]))
    return progs


def machine_mode_programs(tmp: Path) -> list[tuple[str, Path, list[str]]]:
    """The trap-handler programs of tests/test_machine_mode.py, built with its own recipe."""
    sys.path.insert(0, str(ROOT / "tests"))
    import test_machine_mode as mm
    progs = []
    for variant, (_, _, _, layout, isa, _) in sorted(mm.VARIANTS.items()):
        memory = "e31" if layout is mm.BOARD else "flat"
        for spec in (False, True):
            elf = mm.build(variant, tmp, spec_only=spec)
            progs.append((f"machine_mode/{variant}{'-spec' if spec else ''}", elf, ["--isa", isa, "--memory", memory]))
    return progs


def bench_programs(tmp: Path) -> list[tuple[str, Path, list[str]]]:
    """The loops of sim/benches/ (speed_vs.py builds them), with a small iteration count."""
    progs = []
    for name, elf, opts, secret in build_loops(tmp, 0.0005):
        progs.append((f"benches/{name}", elf, opts))
        progs.append((f"benches/{name} --secret", elf, opts + secret))
    return progs


def run(binary: str, opts: list[str], core: str, elf: Path, tmp: Path) -> dict:
    """One run: its exit status, stdout, stderr, JSON object and trace text."""
    fd, jpath = tempfile.mkstemp(suffix=".json", dir=tmp)
    os.close(fd)
    tpath = jpath[:-5] + ".trace"
    opts = [tpath if o == "TRACE" else o for o in opts]
    p = subprocess.run([binary, *opts, "--core", core, "--json-out", jpath, str(elf)],
                       capture_output=True, text=True, errors="replace", timeout=600, stdin=subprocess.DEVNULL)
    text = Path(jpath).read_text()
    trace = Path(tpath).read_text() if os.path.exists(tpath) else None
    for f in (jpath, tpath):
        if os.path.exists(f):
            os.unlink(f)
    return {"status": p.returncode, "stdout": p.stdout, "stderr": p.stderr,
            "json": json.loads(text) if text else None, "trace": trace}


def differences(a: dict, b: dict) -> list[str]:
    out = []
    for k in ("status", "stdout", "stderr", "trace"):
        if a[k] != b[k]:
            out.append(f"{k}: {str(a[k])[:300]!r} -> {str(b[k])[:300]!r}")
    ja, jb = a["json"], b["json"]
    if ja != jb:
        if isinstance(ja, dict) and isinstance(jb, dict):
            for k in sorted(set(ja) | set(jb)):
                if ja.get(k) != jb.get(k):
                    out.append(f"json[{k!r}]: {str(ja.get(k))[:300]} -> {str(jb.get(k))[:300]}")
        else:
            out.append(f"json: {ja!r:.300} -> {jb!r:.300}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old", help="the rvsim binary before the change")
    ap.add_argument("new", nargs="?", default=str(SIM / "target" / "release" / "rvsim"), help="after (default: sim/target/release/rvsim)")
    ap.add_argument("--build", default=os.environ.get("RVLAB_BUILD", str(ROOT / "build")), help="rvlab's build folder")
    ap.add_argument("--filter", default="", help="regular expression on the program names")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="rvsim-compare-") as tmpdir:
        tmp = Path(tmpdir)
        progs = rvlab_programs(Path(args.build)) + machine_mode_programs(tmp) + bench_programs(tmp)
        progs = [p for p in progs if re.search(args.filter, p[0])]
        if not progs:
            print("no programs: run `python3 -m rvlab build` first", file=sys.stderr)
            return 2
        jobs = [(name, elf, core, opts) for name, elf, opts in progs for core in CORES]

        def one(job):
            """The old binary once; the new one as it is and (except where the options run
            instruction by instruction anyway) with --no-blocks."""
            name, elf, core, opts = job
            before = run(args.old, opts, core, elf, tmp)
            variants = [("", opts)]
            if "--trace" not in opts and "--annotate" not in opts:
                variants.append((", new --no-blocks", opts + ["--no-blocks"]))
            return [(f"{name} [{core}{tag}]", differences(before, run(args.new, o, core, elf, tmp))) for tag, o in variants]

        bad = 0
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
            results = [r for rs in ex.map(one, jobs) for r in rs]
            for label, diff in results:
                if diff:
                    bad += 1
                    print(f"DIFFERENT {label}")
                    for d in diff:
                        print(f"    {d}")
        print(f"{len(results)} comparisons ({len(progs)} programs x {len(CORES)} cores): {'all identical' if not bad else f'{bad} differ'}")
        return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
