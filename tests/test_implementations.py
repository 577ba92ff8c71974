"""Every shipped implementation: its test program (official vectors + random cases
against an oracle) on rvsim and on QEMU, with identical output (differential).
RVLAB_TEST_RANDOM sets the number of random cases (default 200; thousands for a long run).
One `rvlab test` runs them all, $RVLAB_JOBS at a time (its -j default: `make test JOBS=N`; else
every core); each implementation's test checks its own part of the report."""
import os
import re

import pytest

from conftest import ROOT, rvlab
from rvlab.manifest import discover

IMPLS, _ = discover([ROOT / "crypto"], [ROOT / "crypto"])
N_RANDOM = int(os.environ.get("RVLAB_TEST_RANDOM", "200"))
_HEAD = re.compile(r"^(PASS|FAIL|SKIP) ([^\s:]+)")


def by_implementation(report: str) -> dict[str, str]:
    """`rvlab test`'s report split per implementation: its head line and the indented lines
    (and a build failure's message) after it."""
    parts: dict[str, list[str]] = {}
    name = None
    for line in report.splitlines():
        m = _HEAD.match(line)
        if m:
            name = m.group(2)
            parts[name] = []
        if name:
            parts[name].append(line)
    return {n: "\n".join(lines) for n, lines in parts.items()}


@pytest.fixture(scope="module")
def report():
    p = rvlab("test", "--random", N_RANDOM, "--runner", "both", timeout=7200)
    return p, by_implementation(p.stdout)


@pytest.mark.parametrize("name", sorted(i.name for i in IMPLS))
def test_implementation(name, report):
    p, parts = report
    assert name in parts, f"no line for {name}:\n{p.stdout}{p.stderr}"
    assert parts[name].startswith(f"PASS {name} "), parts[name]


def test_every_implementation_passed(report):
    p, parts = report
    assert p.returncode == 0, p.stdout + p.stderr
    assert f"{len(IMPLS)} of {len(IMPLS)} implementations passed" in p.stdout
