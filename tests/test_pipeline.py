"""The pipeline on deliberately wrong implementations (fixtures outside crypto/)."""
import json
import re

from conftest import FIXTURES, rvlab


def test_wrong_output_fails_with_vector():
    p = rvlab("test", "--crypto-dir", FIXTURES / "broken", "--runner", "qemu", "--random", "70")
    assert p.returncode == 1, p.stdout + p.stderr
    out = p.stdout
    assert "FAIL chacha20/wrongbyte" in out
    # the failing official vector, with got/expected hex where they differ (375 bytes: cut to 32
    # from 8 before the first difference)
    m = re.search(r"FAIL rfc8439-A\.2#1 ct: got …([0-9a-f]+)… expected …([0-9a-f]+)… "
                  r"\(first difference at byte 64; bytes 56\.\.87 of 375 shown\)", out)
    assert m, out
    got, exp = bytes.fromhex(m.group(1)), bytes.fromhex(m.group(2))
    assert len(got) == len(exp) == 32 and got[8] ^ exp[8] == 1 and got[:8] == exp[:8] and got[9:] == exp[9:]
    assert "reproduce: qemu-system-riscv32" in out
    # the one-block vector passes: no FAIL line for it
    assert "FAIL rfc8439-A.2#0 " not in out
    assert "0 of 1 implementations passed" in out


def test_callee_saved_violation_is_reported():
    p = rvlab("test", "--crypto-dir", FIXTURES / "abi", "--runner", "qemu", "--random", "2")
    assert p.returncode == 1
    assert "calling convention: chacha20_xor did not preserve s3 (0x00001234, expected 0x5eed3333)" in p.stdout
    # tp is compared with its value before the call (and restored, so the harness survives)
    assert "calling convention: chacha20_xor did not preserve tp (0x00000077, expected 0x" in p.stdout
    assert "0 of 2 implementations passed" in p.stdout


def test_reference_passes_on_qemu():
    p = rvlab("test", "--filter", "^chacha20/ref$", "--runner", "qemu", "--random", "20")
    assert p.returncode == 0, p.stdout + p.stderr
    assert re.search(r"PASS chacha20/ref\s+24 cases\s+qemu ok", p.stdout)


def _env(**kw):
    import os
    from conftest import FIXTURES
    return dict(os.environ, RVLAB_RVSIM=str(FIXTURES / "qemu_as_rvsim.py"), **kw)


def test_differential_mismatch_is_a_failure():
    """If rvsim and QEMU print different output the test fails, showing both lines.
    (rvsim is replaced by a test double that runs QEMU and alters the digest.)"""
    import subprocess
    import sys
    from conftest import ROOT
    p = subprocess.run([sys.executable, "-m", "rvlab", "test", "--filter", "^chacha20/ref$", "--random", "3"],
                       cwd=ROOT, env=_env(RVLAB_DOUBLE_TAMPER="1"), capture_output=True, text=True, timeout=300)
    assert p.returncode == 1
    assert "outputs DIFFER" in p.stdout and "differential: rvsim and qemu printed different output" in p.stdout
    p = subprocess.run([sys.executable, "-m", "rvlab", "test", "--filter", "^chacha20/ref$", "--random", "3"],
                       cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and "rvsim ok, qemu ok, outputs identical" in p.stdout, p.stdout


def test_missing_rvsim_is_a_clear_error(tmp_path):
    import subprocess
    import sys
    import os
    from conftest import ROOT
    env = dict(os.environ, RVLAB_RVSIM=str(tmp_path / "nope"))
    p = subprocess.run([sys.executable, "-m", "rvlab", "test", "--filter", "^chacha20/ref$"], cwd=ROOT, env=env,
                       capture_output=True, text=True)
    assert p.returncode == 1 and "rvsim not found" in p.stderr and "--runner qemu" in p.stderr
    p = subprocess.run([sys.executable, "-m", "rvlab", "run", "x.elf"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert p.returncode == 1 and "rvsim not found" in p.stderr


def test_run_passes_through(tmp_path):
    import subprocess
    import sys
    from conftest import ROOT
    from rvlab.build import BUILD
    assert rvlab("build", "--filter", "^chacha20/ref$").returncode == 0
    elf = next((BUILD / "chacha20").glob("ref-*/test-s1-r200.elf"))
    p = subprocess.run([sys.executable, "-m", "rvlab", "run", str(elf)], cwd=ROOT, env=_env(),
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and "RVLAB_TEST {" in p.stdout
    p = subprocess.run([sys.executable, "-m", "rvlab", "run", str(tmp_path / "missing.elf")], cwd=ROOT, env=_env(),
                       capture_output=True, text=True)
    assert p.returncode == 1 and "no such file" in p.stderr


def test_run_finds_the_isa(tmp_path):
    """`rvlab run ELF` without --isa: a Zbkb kernel's program runs (the ISA comes from the
    build folder, or from the ELF's arch attribute for a copy elsewhere); with a narrower
    --isa it fails and rvsim's note names the instruction and the missing extension."""
    import shutil
    import subprocess
    import sys
    from conftest import ROOT
    from rvlab.build import BUILD
    assert rvlab("build", "--filter", "^chacha20/zbkb$").returncode == 0
    elf = next((BUILD / "chacha20").glob("zbkb-*/speed.elf"))
    copy = tmp_path / "speed.elf"
    shutil.copy(elf, copy)
    for e, origin in ((elf, "rvsim-isa"), (copy, "the ELF's arch attribute")):
        p = subprocess.run([sys.executable, "-m", "rvlab", "run", str(e)], cwd=ROOT,
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stderr
        assert "rvlab: --isa rv32imac_zbkb (from " in p.stderr and origin in p.stderr, p.stderr
    p = subprocess.run([sys.executable, "-m", "rvlab", "run", "--isa", "rv32imac", str(elf)], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode != 0
    assert re.search(r"rvsim: note: .* at pc 0x[0-9a-f]+ needs extension zbb or zbkb", p.stderr), p.stderr


def test_undeclared_extension_shows_the_rvsim_message():
    """A kernel executing an instruction outside its manifest's ISA: rvsim traps, rvlab
    shows rvsim's error line and the command to reproduce; QEMU (more permissive) differs."""
    p = rvlab("test", "--crypto-dir", FIXTURES / "isa", "--random", "1")
    assert p.returncode == 1
    assert "rvsim: FAIL (stopped by rvsim; no summary)" in p.stdout
    assert re.search(r"rvsim stderr: rvsim: error: .*rori.* at pc 0x[0-9a-f]+", p.stdout), p.stdout
    assert "reproduce: " in p.stdout and "--isa rv32imac " in p.stdout
    assert "outputs DIFFER" in p.stdout


def test_broken_constant_time_claim_fails_bench(tmp_path):
    """A kernel whose manifest claims constant time while it branches on the key: the
    records say constant_time false and bench exits non-zero, naming the claim."""
    out = tmp_path / "bench.json"
    p = rvlab("bench", "--crypto-dir", FIXTURES / "leaky", "--random", "2", "--json", out)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "FAIL chacha20/keybranch: claims constant_time = true, the checker found violations" in p.stdout
    recs = json.loads(out.read_text())
    assert recs and all(r["constant_time"] is False and r["constant_time_claimed"] is True for r in recs)


def test_test_ct_runs_the_constant_time_checker():
    """`rvlab test --ct`: the checker's verdict on the speed program, as bench has it; a kernel
    claiming constant time that branches on the key fails, one that keeps its claim passes."""
    p = rvlab("test", "--crypto-dir", FIXTURES / "leaky", "--ct", "--runner", "rvsim", "--random", "2")
    assert p.returncode == 1, p.stdout + p.stderr
    assert "rvsim ok, constant time: NO (claimed)" in p.stdout
    assert "constant-time: 1 violation(s), first: " in p.stdout and "'kind': 'branch'" in p.stdout
    assert "FAIL chacha20/keybranch: claims constant_time = true, the checker found violations" in p.stdout
    p = rvlab("test", "--filter", "^chacha20/zbkb$", "--ct", "--runner", "rvsim", "--random", "2")
    assert p.returncode == 0 and "rvsim ok, constant time: yes (claimed)" in p.stdout, p.stdout + p.stderr
    p = rvlab("test", "--filter", "^chacha20/zbkb$", "--runner", "rvsim", "--random", "2")
    assert "constant time" not in p.stdout                           # only when asked


def test_help_texts_and_options_that_do_something():
    test_help = " ".join(rvlab("test", "--help").stdout.split())
    assert "--runner {both,rvsim,qemu} where the test programs run" in test_help
    assert "--ct also run the constant-time checker" in test_help
    assert "--json JSON the bench records to report" in " ".join(rvlab("report", "--help").stdout.split())
    p = rvlab("build", "--filter", "^chacha20/ref$", "--timeout", "5")     # build runs no program
    assert p.returncode == 2 and "unrecognized arguments: --timeout" in p.stderr


def test_fail_lines_are_cut_around_the_difference():
    from rvlab.runner import shorten_fail
    short = "FAIL k1 ct: got 0011 expected 0012 (first difference at byte 1)"
    assert shorten_fail(short) == short                      # short values stay whole
    g, e = bytes(100), bytes(99) + b"\x01"
    line = f"FAIL k2 tag: got {g.hex()} expected {e.hex()} (first difference at byte 99)"
    assert shorten_fail(line) == (f"FAIL k2 tag: got …{bytes(9).hex()} expected …{bytes(8).hex()}01 "
                                  f"(first difference at byte 99; bytes 91..99 of 100 shown)")
    line = f"FAIL k3 out: got {bytes(40).hex()} expected {bytes(41).hex()} (length 40, expected 41)"
    assert shorten_fail(line) == (f"FAIL k3 out: got …{bytes(8).hex()} expected …{bytes(9).hex()} "
                                  f"(length 40, expected 41; first difference at byte 40; bytes 32..40 of 40 and 41 shown)")
