"""`rvlab test`: each implementation's test program (official vectors and oracle-checked random
cases) on rvsim and on QEMU, and the two outputs compared (differential)."""
from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor, wait

# a kernel that never returns is silent until its time limit: say so meanwhile (on stderr, so
# the results on stdout stay the same with any -j)
HEARTBEAT_S = 30

from . import build as B
from . import runner as R
from .bench import NOT_CHECKED, check_constant_time
from .driver import err, for_each_impl
from .manifest import Impl


def test_one(impl: Impl, args) -> tuple[str, list[str]]:
    """Status ("pass", "fail" or "skip": no runner could execute it) and report lines."""
    lines: list[str] = []
    try:
        progs = B.build_test(impl, args.seed, args.random)
    except B.BuildError as e:
        return "fail", [f"FAIL {impl.name}: build: {e}"]
    cmds: list[tuple[str, list[str]]] = []
    notes = []
    if args.runner in ("both", "rvsim"):
        cmds.append(("rvsim", R.rvsim_cmd(progs.test, impl.run_isa, core="e31")))
    if args.runner in ("both", "qemu"):
        unsup = R.qemu_unsupported(impl.extensions)
        if unsup:
            notes.append(f"qemu skipped ({', '.join(unsup)} not in QEMU)")
        else:
            cmds.append(("qemu", R.qemu_cmd(progs.test, impl.extensions)))
    # both at once: a kernel that never returns costs one time limit, not two
    with ThreadPoolExecutor(max_workers=2) as pool:
        futs = [pool.submit(R.run, runner, cmd, args.timeout) for runner, cmd in cmds]
        beat, waited = min(HEARTBEAT_S, max(1, args.timeout / 2)), 0
        while wait(futs, timeout=beat).not_done:
            waited += beat
            print(f"rvlab test: {impl.name} still running after {waited:g} s "
                  f"(limit {args.timeout:g} s; --timeout sets it)", file=sys.stderr, flush=True)
        runs = [f.result() for f in futs]
    ok = True
    parts = []
    for run in runs:
        s = run.summary()
        good = run.returncode == 0 and s is not None and s.get("failures") == 0
        if not good:
            ok = False
            what = f"{s['failures']} failures in {s['failed_cases']} of {s['cases']} cases" if s else "no summary"
            how = "timed out" if run.timed_out else "stopped by rvsim" if run.rvsim_error else f"exit {run.returncode}"
            lines.append(f"  {run.runner}: FAIL ({how}; {what})")
            lines += run.describe_failure()
        parts.append(f"{run.runner} ok" if good else f"{run.runner} {'TIMED OUT' if run.timed_out else 'FAIL'}")
    if len(runs) == 2 and any(r.summary() is None for r in runs) and runs[0].stdout == runs[1].stdout:
        # nothing to compare: neither program got as far as its summary line (no claim either way)
        parts.append("outputs not compared")
    elif len(runs) == 2 and runs[0].stdout != runs[1].stdout:
        ok = False
        a, b = runs[0].stdout.splitlines(), runs[1].stdout.splitlines()
        idx = next((i for i in range(max(len(a), len(b))) if (a[i:i + 1] or [None]) != (b[i:i + 1] or [None])), 0)
        lines.append(f"  differential: rvsim and qemu printed different output (first difference at line {idx + 1}):")
        lines.append(f"    rvsim: {a[idx] if idx < len(a) else '(no line)'}")
        lines.append(f"    qemu:  {b[idx] if idx < len(b) else '(no line)'}")
        parts.append("outputs DIFFER")
    elif len(runs) == 2:
        parts.append("outputs identical")
    if args.ct:
        ok &= constant_time(impl, args, parts, lines)
    if not runs:
        # nothing executed (e.g. --runner qemu for an extension QEMU lacks): not a pass
        head = f"SKIP {impl.name:<26} {progs.n_cases:>5} cases  " + ", ".join(notes)
        return "skip", [head] + lines
    head = f"{'PASS' if ok else 'FAIL'} {impl.name:<26} {progs.n_cases:>5} cases  " + ", ".join(parts + notes)
    return ("pass" if ok else "fail"), [head] + lines


def constant_time(impl: Impl, args, parts: list[str], lines: list[str]) -> bool:
    """--ct: the constant-time checker on the speed program, as `rvlab bench` runs it (rvsim
    --secret on its rvlab_secret_* symbols). False (a failure) if the manifest claims constant
    time and the checker disagrees; a verdict of no on a kernel that does not claim it is reported,
    not failed."""
    try:
        elf = B.build_speed(impl).speed
    except B.BuildError as e:
        parts.append("constant time: not checked")
        lines.append(f"  constant-time: the speed program did not build: {e}")
        return False
    verdict, note = check_constant_time(impl, elf, args.timeout)
    claim = " (claimed)" if impl.constant_time else ""
    if verdict is True:
        parts.append(f"constant time: yes{claim}")
    elif verdict is False:
        parts.append(f"constant time: NO{claim or ' (not claimed)'}")
    else:
        parts.append("constant time: not checked")
    if note:
        lines.append(note)
    elif verdict is None:
        lines.append(NOT_CHECKED)
    if verdict is False and impl.constant_time:
        lines.append(f"  FAIL {impl.name}: claims constant_time = true, the checker found violations")
        return False
    return True


def cmd_test(args) -> int:
    if args.runner in ("both", "rvsim") and not R.rvsim_available():
        err(f"rvsim not found at {R.RVSIM}: build it with `make setup` (cargo build --release in sim/), "
            f"or test on QEMU only with --runner qemu")
        return 1
    if args.runner in ("both", "qemu") and not R.qemu_available():
        err(f"{R.QEMU} not found: run `make setup`, or test on rvsim only with --runner rvsim")
        return 1
    count = {"pass": 0, "fail": 0, "skip": 0}

    def show(impl, result):
        status, lines = result
        print("\n".join(lines), flush=True)
        count[status] += 1

    try:
        selected = for_each_impl(args, "testing", lambda impl: test_one(impl, args), show)
    except R.RunnerMissing as e:
        err(str(e))
        return 1
    if selected is None:
        return 1
    impls, errors = selected
    passed, skipped = count["pass"], count["skip"]
    bad = count["fail"] + len(errors)
    print(f"{passed} of {len(impls)} implementations passed" + (f", {skipped} skipped (not run by any runner)" if skipped else "")
          + (f"; {len(errors)} manifest error(s)" if errors else ""))
    if not passed and not bad:
        # every selected implementation was skipped: a green exit would claim a test happened
        err("nothing was tested: no runner can execute the selected implementations "
            "(use --runner rvsim or both for custom instructions)")
        return 1
    return 1 if bad else 0
