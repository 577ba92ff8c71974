"""Exact checks of the speed and stack programs on fixture kernels whose cost is known."""
import json
import subprocess
import sys

import pytest

from conftest import FIXTURES, ROOT


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    out = tmp_path_factory.mktemp("measure") / "bench.json"
    p = subprocess.run([sys.executable, "-m", "rvlab", "bench", "--crypto-dir", FIXTURES / "measure",
                        "--core", "ideal", "--json", out, "--random", "2"], cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    # both kernels compute nothing, so their KAT fails and bench says so
    assert p.returncode == 1 and "KAT FAILED" in p.stdout, p.stdout + p.stderr
    return {(r["impl"], r["input_bytes"]): r for r in json.loads(out.read_text())}


def test_stack_bytes_exact(records):
    for n in (64, 4096):
        r = records[("stack256", n)]
        assert r["stack_bytes"] == 256
        assert r["kat"] == "fail"
    assert records[("empty", 64)]["stack_bytes"] == 0


def test_empty_call_costs_only_the_call(records):
    """On the ideal core (1 cycle per instruction) an empty kernel costs the argument
    set-up, the call and the return: a handful of instructions once the empty
    measurement is subtracted — and never a negative (wrapped) number."""
    for n in (64, 4096):
        r = records[("empty", n)]
        assert r["cycles"] == r["instret"]
        assert 2 <= r["instret"] <= 12, r
    assert records[("stack256", 64)]["instret"] == records[("empty", 64)]["instret"] + 3
