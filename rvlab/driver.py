"""The loop `rvlab build`, `rvlab test` and `rvlab bench` share: select the implementations
(--crypto-dir, --filter), report manifest errors and "no implementation matches", run one
piece of work per implementation -- `-j N` at a time -- and show each result in selection
order, so the output of -j N is the output of -j 1. (The shape of mupq.py's select-and-progress
loop that pqm4's benchmarks reuse.) `rvlab lib` and `rvlab rtl` run their own loops after the
same selection and report (select_reported)."""
from __future__ import annotations

import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor, wait
from pathlib import Path
from typing import Callable, Iterator, TypeVar

from . import build as B
from .manifest import Impl, discover

T = TypeVar("T")


def err(msg: str) -> None:
    print(f"rvlab: error: {msg}", file=sys.stderr)


def cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:                      # not on Linux
        return max(1, os.cpu_count() or 1)


def default_jobs() -> str:
    """-j's default: $RVLAB_JOBS (what `make test JOBS=N` sets for every rvlab the tests run),
    else the cores."""
    return os.environ.get("RVLAB_JOBS") or str(cores())


def filter_regex(pattern: str) -> re.Pattern:
    try:
        return re.compile(pattern)
    except re.error as e:
        raise SystemExit(f"rvlab: error: --filter {pattern!r} is not a regular expression: {e}")


def select(args) -> tuple[list[Impl], list[str]]:
    """The implementations under --crypto-dir (default crypto/) that --filter matches, and the
    errors of the manifests it matches (by path)."""
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
    """A one-line progress bar on a terminal (stderr); nothing otherwise."""

    def __init__(self, total: int, what: str):
        self.total, self.done, self.what = total, 0, what
        self.tty = sys.stderr.isatty()

    def show(self, label: str) -> None:
        if self.tty:
            w = 30
            fill = int(w * self.done / max(self.total, 1))
            sys.stderr.write(f"\r[{'#' * fill}{'.' * (w - fill)}] {self.done}/{self.total} {self.what} {label:<40.40}")
            sys.stderr.flush()

    def clear(self) -> None:
        if self.tty:
            sys.stderr.write("\r" + " " * 100 + "\r")
            sys.stderr.flush()


def _results(impls: list[Impl], work: Callable[[Impl], T], jobs: int, prog: Progress) -> Iterator[tuple[Impl, T]]:
    """(impl, work(impl)) in the order of impls, computed by `jobs` threads (the work is mostly
    compilers and simulators in subprocesses)."""
    if jobs <= 1 or len(impls) <= 1:
        for impl in impls:
            prog.show(impl.name)
            result = work(impl)
            prog.done += 1
            yield impl, result
        return
    pool = ThreadPoolExecutor(max_workers=jobs)
    futures = [pool.submit(work, impl) for impl in impls]
    try:
        for impl, f in zip(impls, futures):
            while not f.done():
                prog.done = sum(x.done() for x in futures)
                prog.show(impl.name)
                wait([f], timeout=0.5)
            yield impl, f.result()          # the work's exception, if it raised one
    finally:
        # on an error or ^C: start nothing new, let the running programs end (each has a time limit)
        pool.shutdown(wait=True, cancel_futures=True)


def map_impls(impls: list[Impl], work: Callable[[Impl], T], jobs: int, what: str) -> Iterator[tuple[Impl, T]]:
    """(impl, work(impl)) for given implementations, `jobs` at a time, in their order, with the
    progress bar (for commands that choose the implementations themselves, e.g. `rvlab lib`)."""
    prog = Progress(len(impls), what)
    try:
        for impl, result in _results(impls, work, jobs, prog):
            prog.clear()
            yield impl, result
    finally:
        prog.clear()


def select_reported(args, none: str | None = "matched") -> tuple[list[Impl], list[str]] | None:
    """select(args), printing each selected manifest's error (FAIL manifest: ...). None, after
    `no implementation matches --filter ...`, when there is nothing to run: none="matched"
    (build, test, bench) if --filter matched neither an implementation nor a manifest with
    errors; none="working" (lib) if --filter matched no working implementation; none=None
    (rtl, whose --filter then picks among its programs) never."""
    impls, errors = select(args)
    for e in errors:
        print(f"FAIL manifest: {e}")
    empty = {"matched": not impls and not errors, "working": bool(args.filter) and not impls, None: False}[none]
    if empty:
        err(f"no implementation matches --filter {args.filter!r}")
        return None
    return impls, errors


def for_each_impl(args, what: str, work: Callable[[Impl], T],
                  show: Callable[[Impl, T], None]) -> tuple[list[Impl], list[str]] | None:
    """Select (select_reported), run work(impl) on every implementation (args.jobs at a time)
    and call show(impl, result) in selection order. Returns (implementations, manifest
    errors); None, after an error message, if --filter matched nothing at all."""
    selected = select_reported(args)
    if selected is None:
        return None
    impls, errors = selected
    for impl, result in map_impls(impls, work, getattr(args, "jobs", 1), what):
        show(impl, result)
    return impls, errors
