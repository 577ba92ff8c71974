"""Issue 22, the rvlab parts: bad options get one clear line, sources stay in their folders
(tests/test_manifests.py), a kernel that never returns is stopped and called so, and output
goes only where it was asked to."""
import json
import time

import pytest

from conftest import FIXTURES, rvlab

needs_rvsim = pytest.mark.usefixtures("rvsim_built")


@pytest.mark.parametrize("cmd", ["test", "bench"])
@pytest.mark.parametrize("value", ["nan", "inf", "1e400", "0", "-1", "-inf", "ten"])
def test_timeout_must_be_a_positive_finite_number(cmd, value):
    p = rvlab(cmd, "--filter", "^chacha20/ref$", "--timeout", value)
    assert p.returncode == 2 and "argument --timeout:" in p.stderr, p.stderr
    assert "Traceback" not in p.stderr and p.stdout == ""


def test_default_time_limit():
    from rvlab.cli import time_limit
    assert time_limit(200) == 130 and time_limit(5000) == 370
    assert "130 s for 200" in " ".join(rvlab("test", "--help").stdout.split())


@needs_rvsim
def test_a_kernel_that_never_returns_is_stopped_and_called_so():
    """Both runners stop at the time limit -- at the same time, not one after the other -- and
    the report says they timed out; no claim that their (empty) outputs are identical."""
    t0 = time.monotonic()
    p = rvlab("test", "--crypto-dir", FIXTURES / "hang", "--random", "1", "--timeout", "4")
    elapsed = time.monotonic() - t0
    assert p.returncode == 1
    head = p.stdout.splitlines()[0]
    assert head.startswith("FAIL chacha20/spin") and "rvsim TIMED OUT, qemu TIMED OUT, outputs not compared" in head
    assert "identical" not in p.stdout
    assert p.stdout.count("timed out after 4 s (a kernel that never returns?") == 2
    assert elapsed < 4 + 4 + 30, elapsed           # one limit (plus the build), not two
    # not silent meanwhile: a line on stderr every min(30 s, half the limit)
    assert "rvlab test: chacha20/spin still running after 2 s (limit 4 s" in p.stderr, p.stderr


def test_area_needs_a_bench_file(tmp_path):
    p = rvlab("area", "--json", tmp_path / "missing.json", "--out", tmp_path)
    assert p.returncode == 1 and "missing.json does not exist" in p.stderr
    assert not list(tmp_path.iterdir())


@needs_rvsim
def test_bench_writes_only_where_asked(tmp_path):
    """--json into a folder that does not exist: an error, nothing made. A run of unrelated
    primitives does not make the polymul table or the bigint figures beside its report."""
    p = rvlab("bench", "--filter", "^chacha20/zbkb$", "--random", "2", "--json", tmp_path / "no" / "b.json")
    assert p.returncode == 1 and "no folder" in p.stderr and not (tmp_path / "no").exists()
    p = rvlab("bench", "--filter", "^chacha20/zbkb$", "--random", "2", "--json", tmp_path / "b.json")
    assert p.returncode == 0, p.stdout + p.stderr
    assert sorted(f.name for f in tmp_path.iterdir()) == ["b-cycles-per-byte.png", "b.json", "b.md"]


def _file(path, recs):
    path.write_text(json.dumps(recs))
    return path


def test_compare_can_fail_on_regressions(tmp_path):
    base = {"primitive": "chacha20", "impl": "zbkb", "isa": "rv32i_zbkb", "core": "e31", "operation": "encrypt",
            "input_bytes": 64, "cycles": 1000, "instret": 1000, "cycles_per_byte": 15.6, "code_bytes": 100,
            "static_bytes": 0, "stack_bytes": 0, "kat": "pass", "constant_time": True, "mul_latency": 5}
    other = dict(base, impl="rv32i", isa="rv32i")
    old = _file(tmp_path / "old.json", [base, other])
    slower = _file(tmp_path / "slower.json", [dict(base, cycles=1030), dict(other, cycles=900)])
    leaky = _file(tmp_path / "leaky.json", [dict(base, constant_time=False), other])

    p = rvlab("compare", old, slower)                           # without the option: a report, exit 0
    assert p.returncode == 0 and "+3.00%" in p.stdout and "REGRESSION" not in p.stdout
    p = rvlab("compare", old, slower, "--fail-on-regression")   # any increase
    assert p.returncode == 1, p.stdout
    assert "REGRESSION chacha20/zbkb encrypt 64 B (e31, mul latency 5): cycles 1,000 -> 1,030 (+3.00%)" in p.stdout
    assert "chacha20/rv32i" not in p.stdout.split("REGRESSION", 1)[1]         # faster is not a regression
    assert p.stdout.rstrip().endswith("1 regression(s) (more than 0% more cycles, a constant-time verdict lost, "
                                      "a KAT failing or a measurement missing)")
    assert rvlab("compare", old, slower, "--fail-on-regression", "5").returncode == 0
    assert rvlab("compare", old, slower, "--fail-on-regression", "5", "--filter", "rv32i").returncode == 0
    p = rvlab("compare", old, leaky, "--fail-on-regression=50")
    assert p.returncode == 1 and "constant_time true -> false" in p.stdout and "False" not in p.stdout
    fewer = _file(tmp_path / "fewer.json", [other])             # chacha20/zbkb no longer measured
    p = rvlab("compare", old, fewer, "--fail-on-regression", "5")
    assert p.returncode == 1 and "REGRESSION chacha20/zbkb encrypt 64 B (e31, mul latency 5): measured before, " \
        "missing now" in p.stdout, p.stdout
    p = rvlab("compare", old, slower, "--fail-on-regression", "-1")
    assert p.returncode == 2 and "must be a percentage >= 0" in p.stderr


def test_compare_missing_files_say_where_records_come_from(tmp_path):
    """A missing OLD file points to where earlier records come from (git), not to `rvlab bench`."""
    old = tmp_path / "old.json"
    p = rvlab("compare", old)
    assert p.returncode == 1 and p.stdout == "" and len(p.stderr.splitlines()) == 1, p.stderr
    assert "does not exist" in p.stderr and "git show HEAD:results/bench.json" in p.stderr, p.stderr
    old.write_text("[]")
    p = rvlab("compare", old, tmp_path / "new.json")
    assert p.returncode == 1 and "does not exist — run `rvlab bench` first" in p.stderr, p.stderr


@needs_rvsim
def test_a_stack_that_grows_into_data_is_an_error():
    """A kernel whose frame is larger than the 4 KiB stack the harness links with: rvsim
    (--stack-limit auto, picolibc's __stack - __stack_size) stops the test run and names the
    function, in test and in bench."""
    p = rvlab("test", "--crypto-dir", FIXTURES / "stack", "--random", "1", "--runner", "rvsim")
    assert p.returncode == 1, p.stdout
    assert "rvsim: FAIL (stopped by rvsim; no summary)" in p.stdout, p.stdout
    assert ("rvsim stopped the run: stack overflow: chacha20_xor set sp to 0x" in p.stdout
            and "below the stack limit 0x80003000 (__stack - __stack_size" in p.stdout), p.stdout


@needs_rvsim
def test_run_tells_rvsims_errors_from_the_programs_status(tmp_path):
    """rvlab run: a program's own exit status 125 or 2 is the program's (it used to be called
    rvsim's failure); rvsim's own stop is named as such (docs/interfaces.md §1)."""
    import subprocess
    import sys
    from conftest import ROOT
    from rvlab.build import LINK_FLAGS
    src = tmp_path / "exit.c"
    src.write_text("#include <stdlib.h>\nint main(void) { exit(EXIT_CODE); }\n")
    for code in (125, 2):
        elf = tmp_path / f"exit{code}.elf"
        subprocess.run(["riscv64-unknown-elf-gcc", "-O2", *LINK_FLAGS, f"-DEXIT_CODE={code}", str(src), "-o", str(elf)],
                       check=True)
        p = subprocess.run([sys.executable, "-m", "rvlab", "run", "--isa", "rv32imac", str(elf)], cwd=ROOT,
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == code
        assert f"rvlab: the program exited with status {code}" in p.stderr, p.stderr
        assert "rvsim rejected" not in p.stderr and "rvsim stopped" not in p.stderr, p.stderr
    p = subprocess.run([sys.executable, "-m", "rvlab", "run", "--isa", "rv32imac", str(tmp_path / "exit125.elf"),
                        "--", "--max-insns", "10"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert p.returncode == 125 and "rvlab: error: rvsim stopped the run: instruction budget exceeded" in p.stderr, p.stderr
def test_primitives_with_helpers_of_the_same_name_load_in_one_process():
    """hight and present80 each import a `ref.py` beside their vectors.py: loading both in one
    rvlab process (a whole `rvlab bench`) gives each its own."""
    from conftest import ROOT
    from rvlab import build
    from rvlab.manifest import load_manifest
    for prim in ("hight", "present80", "hight"):
        impl = load_manifest(ROOT / "crypto" / prim / "rv32i" / "manifest.toml", [ROOT / "crypto"])
        assert build.load_cases(impl, 1, 2)


@pytest.mark.parametrize("args, says", [
    ([], "rvlab: error: give a command: build, test, bench"),
    (["tset"], "rvlab: error: no command 'tset' (did you mean test?); the commands: build, test"),
    (["--filter", "x", "test"], "rvlab: error: give a command before its options (--filter ...)"),
    (["test", "--filterr", "chacha20"], "rvlab test: error: unrecognized arguments: --filterr chacha20 "
                                        "(did you mean --filter?)"),
    (["bench", "--random", "-1"], "rvlab bench: error: --random must be >= 0"),
    (["run"], "rvlab run: error: the following arguments are required: elf ("),
])
def test_usage_errors_are_one_line(args, says):
    """A mistyped command or option: one line on stderr (with the closest name and where the
    options are listed, not argparse's whole usage first), exit status 2, nothing on stdout."""
    p = rvlab(*args)
    assert p.returncode == 2 and p.stdout == "" and len(p.stderr.splitlines()) == 1, p.stderr
    assert p.stderr.startswith(says) and "--help` lists the options" in p.stderr, p.stderr


def test_version():
    from rvlab import __version__
    p = rvlab("--version")
    assert p.returncode == 0 and p.stdout.strip() == f"rvlab {__version__}"


@needs_rvsim
def test_output_paths_are_checked_before_the_long_runs(tmp_path):
    """rvlab rtl --json and rvlab area --out (minutes of simulation or synthesis) refuse a path
    they could not write in one line before starting, instead of a traceback at the end."""
    (tmp_path / "afile").write_text("")
    for args, says in [(["rtl", "--filter", "^chacha20/ref$", "--json", tmp_path / "no" / "r.json"], "make it first"),
                       (["rtl", "--filter", "^chacha20/ref$", "--json", tmp_path], "is a directory"),
                       (["area", "--out", tmp_path / "afile"], "not a folder"),
                       (["area", "--out", tmp_path / "afile" / "sub"], "cannot make the folder")]:
        p = rvlab(*args, timeout=60)
        assert p.returncode == 1 and len(p.stderr.splitlines()) == 1 and says in p.stderr, p.stderr


def test_subcommand_help_says_what_it_does():
    p = rvlab("measure", "--help")
    assert p.returncode == 0 and "\ntime one function of your own assembly or C" in p.stdout, p.stdout


def test_run_takes_one_elf(tmp_path):
    """A glob that matches the ELFs of two build folders is one clear line, not rvsim's usage."""
    a, b = tmp_path / "a.elf", tmp_path / "b.elf"
    a.write_bytes(b"")
    b.write_bytes(b"")
    p = rvlab("run", a, b)
    assert p.returncode == 1 and p.stderr == (f"rvlab: error: one ELF at a time: {a} and {b} (rvsim options go "
                                              f"after --; `rvlab build` prints the current build's ELFs)\n"), p.stderr
