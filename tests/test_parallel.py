"""`-j N`: several implementations at a time, the same output as one at a time."""
import json

import pytest

from conftest import FIXTURES, ROOT, rvlab

needs_rvsim = pytest.mark.usefixtures("rvsim_built")


# implementations that pass and that fail in different ways (wrong output, ABI violations,
# an undeclared instruction), so that they finish in another order than they start
MIXED = ["--crypto-dir", FIXTURES / "broken", "--crypto-dir", FIXTURES / "abi", "--crypto-dir", FIXTURES / "isa",
         "--crypto-dir", ROOT / "crypto", "--filter", "^chacha20/"]


@needs_rvsim
def test_test_output_does_not_depend_on_jobs():
    runs = [rvlab("test", *MIXED, "--random", "3", "-j", j) for j in (1, 2, 4)]
    assert runs[0].returncode == 1
    for line in ("FAIL chacha20/wrongbyte", "FAIL chacha20/clobber ", "FAIL chacha20/undeclared",
                 "PASS chacha20/zbkb", "3 of 7 implementations passed"):
        assert line in runs[0].stdout, runs[0].stdout
    for p in runs[1:]:
        assert p.returncode == runs[0].returncode
        assert p.stdout == runs[0].stdout


@needs_rvsim
def test_bench_output_and_records_do_not_depend_on_jobs(tmp_path):
    outs = []
    for j in (1, 2):
        js = tmp_path / f"j{j}" / "bench.json"
        js.parent.mkdir()
        p = rvlab("bench", "--filter", "^(chacha20|polymul-128)/(rv32i|zbkb|lut)$", "--random", "2", "--json", js,
                  "-j", j)
        assert p.returncode == 0, p.stdout + p.stderr
        outs.append((p.stdout.replace(str(js.parent), "DIR"), json.loads(js.read_text())))
    assert outs[0] == outs[1]
    assert {r["impl"] for r in outs[0][1]} == {"rv32i", "zbkb", "lut"}


def test_jobs_must_be_a_positive_number():
    for bad, msg in (("0", "must be at least 1, not 0"), ("-2", "must be at least 1"), ("two", "not a whole number")):
        p = rvlab("test", "--filter", "^chacha20/ref$", "-j", bad)
        assert p.returncode == 2 and msg in p.stderr and "Traceback" not in p.stderr


def test_rvlab_jobs_sets_the_default():
    import os
    import subprocess
    import sys
    def run(value, *a):
        return subprocess.run([sys.executable, "-m", "rvlab", "test", *a], cwd=ROOT, capture_output=True, text=True,
                              env=dict(os.environ, RVLAB_JOBS=value))
    assert "here 3)" in " ".join(run("3", "--help").stdout.split())
    p = run("0", "--filter", "^chacha20/ref$")
    assert p.returncode == 2 and "must be at least 1" in p.stderr
