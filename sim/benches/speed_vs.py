#!/usr/bin/env python3
"""Speed of rvsim against another rvsim binary (e.g. the one built from an older commit), on
the same workloads in the same run: old and new alternate run by run, so a change in the
machine's load hits both.  Times are CPU seconds (user + sys) of each rvsim process, the
median of --runs runs; `new/old` is the median of the run-by-run ratios.

Workloads (sim/benches/*.S, built here): alu_loop (10-instruction ALU loop, 500 M
instructions), keccak_loop (the Keccak-f[1600] permutation of crypto/keccakf1600/rv32i,
40,000 times: 460 M instructions), mix_loop (loads, stores, a multiply, a data-dependent
branch: 200 M instructions); and the speed programs of a few kernels from build/ (after
`python3 -m rvlab build`; short runs, start-up included).  Each on --core e31 and --core ideal,
and again with the constant-time checker on (--secret): its overhead is ct/plain per binary.

--host-insns: instead of CPU seconds, the host instructions each run executes (valgrind's
cachegrind tool without cache simulation, `apt-get install valgrind`; one run each, as they do not vary; millions), a
deterministic figure on a host whose speed wanders; with it use a --scale of about 0.02, as
valgrind is some 50 times slower than a plain run.

usage: python3 sim/benches/speed_vs.py OLD_RVSIM [NEW_RVSIM] [--runs N] [--scale F] [--filter RE] [--host-insns]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from programs import ROOT, SIM, build_loops, rvlab_builds, secret_symbols  # noqa: E402

KERNELS = ["keccakf1600/rv32i", "sha3-256/rv32i", "chacha20/rv32i", "aes128/table", "bigint-mul/karatsuba"]


def kernel_programs(build: Path) -> list[tuple[str, Path, list[str], list[str]]]:
    """The speed programs of KERNELS that rvlab built (as `rvlab bench` runs them)."""
    out = []
    for k in KERNELS:
        for folder, isa in rvlab_builds(build, f"{k}-*")[:1]:
            elf = folder / "speed.elf"
            out.append((f"{k} speed", elf, ["--isa", isa, "--stop-on-trap"], [a for s in secret_symbols(elf) for a in ("--secret", s)]))
    return out


def cpu_run(cmd: list[str]) -> tuple[float, str]:
    """CPU seconds of one run of cmd, and its stderr (the JSON)."""
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, stdin=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read().decode(errors="replace")
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit status {p.returncode}\n{text}")
    return ru.ru_utime + ru.ru_stime, text


def host_insns_run(cmd: list[str]) -> tuple[float, str]:
    """Host instructions (millions) of one run of cmd under valgrind's cachegrind without its
    cache simulation (the same count as lackey's, several times faster; its report in a file,
    so that stderr is rvsim's own, as for cpu_run), and that stderr."""
    with tempfile.NamedTemporaryFile("r", suffix=".cg") as out, tempfile.NamedTemporaryFile("r", suffix=".log") as log:
        try:
            p = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={out.name}",
                                f"--log-file={log.name}", *cmd], capture_output=True, text=True, stdin=subprocess.DEVNULL)
        except FileNotFoundError:
            sys.exit("--host-insns needs valgrind (apt-get install valgrind)")
        m = re.search(r"I\s+refs:\s*([\d,]+)", log.read())
    if p.returncode != 0 or not m:
        sys.exit(f"valgrind {' '.join(cmd)}: exit status {p.returncode}\n{p.stderr[-2000:]}")
    return int(m.group(1).replace(",", "")) / 1e6, p.stderr


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new", nargs="?", default=str(SIM / "target" / "release" / "rvsim"))
    ap.add_argument("--runs", type=int, default=5, help="runs of each binary per measurement (default 5)")
    ap.add_argument("--scale", type=float, default=1.0, help="scale the loops' iteration counts")
    ap.add_argument("--filter", default="", help="regular expression on the workload names")
    ap.add_argument("--build", default=os.environ.get("RVLAB_BUILD", str(ROOT / "build")))
    ap.add_argument("--host-insns", action="store_true", help="count host instructions (valgrind) instead of timing")
    args = ap.parse_args()
    run = host_insns_run if args.host_insns else cpu_run
    if args.host_insns:
        args.runs = 1
    with tempfile.TemporaryDirectory(prefix="rvsim-speed-") as td:
        progs = build_loops(Path(td), args.scale) + kernel_programs(Path(args.build))
        measure = "host instructions (valgrind cachegrind)" if args.host_insns else "CPU seconds (median)"
        print(f"# {time.strftime('%Y-%m-%d %H:%M')}, load average {os.getloadavg()[0]:.1f}, {args.runs} runs each, "
              f"{measure}; new/old = median of the run-by-run ratios")
        unit, rate = ("M host", "host/insn") if args.host_insns else ("s", "new MIPS")
        print(f"{'workload':22s} {'core':6s} {'ct':3s} {'M insns':>8s} {'old ' + unit:>10s} {'new ' + unit:>10s} {'new/old':>7s} {rate:>9s}")
        plain = {}
        for name, elf, opts, secret in progs:
            for core in ("e31", "ideal"):
                for ct in (False, True):
                    label = f"{name:22s} {core:6s} {'ct' if ct else '':3s}"
                    if not re.search(args.filter, label) or (ct and not secret):
                        continue
                    cmd = [*opts, *(secret if ct else []), "--core", core, "--json", str(elf)]
                    olds, news, ratios = [], [], []
                    for _ in range(args.runs):
                        o, _ = run([args.old, *cmd])
                        n, j = run([args.new, *cmd])
                        olds.append(o)
                        news.append(n)
                        ratios.append(n / o)
                    instret = int(re.search(r'"instret":(\d+)', j).group(1))
                    mo, mn = statistics.median(olds), statistics.median(news)
                    extra = ""
                    if ct and (name, core) in plain:
                        po, pn = plain[(name, core)]
                        extra = f"   checker overhead: old {mo / po:.2f}x, new {mn / pn:.2f}x"
                    else:
                        plain[(name, core)] = (mo, mn)
                    per = mn * 1e6 / instret if args.host_insns else instret / mn / 1e6
                    print(f"{label} {instret / 1e6:8.1f} {mo:10.3f} {mn:10.3f} {statistics.median(ratios):7.3f} {per:9.1f}{extra}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
