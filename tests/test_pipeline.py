"""The pipeline on deliberately wrong implementations (fixtures outside crypto/)."""
import re

from conftest import FIXTURES, rvlab


def test_wrong_output_fails_with_vector():
    p = rvlab("test", "--crypto-dir", FIXTURES / "broken", "--runner", "qemu", "--random", "70")
    assert p.returncode == 1, p.stdout + p.stderr
    out = p.stdout
    assert "FAIL chacha20/wrongbyte" in out
    # the failing official vector, with got/expected hex and where they differ
    m = re.search(r"FAIL rfc8439-A\.2#1 ct: got ([0-9a-f]+) expected ([0-9a-f]+) \(first difference at byte 64\)", out)
    assert m, out
    got, exp = bytes.fromhex(m.group(1)), bytes.fromhex(m.group(2))
    assert got[64] ^ exp[64] == 1 and got[:64] == exp[:64]
    assert "reproduce: qemu-system-riscv32" in out
    # the one-block vector passes: no FAIL line for it
    assert "FAIL rfc8439-A.2#0 " not in out
    assert "0 of 1 implementations passed" in out


def test_callee_saved_violation_is_reported():
    p = rvlab("test", "--crypto-dir", FIXTURES / "abi", "--runner", "qemu", "--random", "2")
    assert p.returncode == 1
    assert "calling convention: chacha20_xor did not preserve s3 (0x00001234, expected 0x5eed3333)" in p.stdout


def test_reference_passes_on_qemu():
    p = rvlab("test", "--filter", "^chacha20/ref$", "--runner", "qemu", "--random", "20")
    assert p.returncode == 0, p.stdout + p.stderr
    assert re.search(r"PASS chacha20/ref\s+24 cases\s+qemu ok", p.stdout)
