"""Every shipped implementation: its test program (official vectors + random cases
against an oracle) on rvsim and on QEMU, with identical output (differential).
RVLAB_TEST_RANDOM sets the number of random cases (default 200; thousands for a long run)."""
import os

import pytest

from conftest import ROOT, rvlab
from rvlab.manifest import discover

IMPLS, _ = discover([ROOT / "crypto"], [ROOT / "crypto"])
N_RANDOM = int(os.environ.get("RVLAB_TEST_RANDOM", "200"))


@pytest.mark.parametrize("name", sorted(i.name for i in IMPLS))
def test_implementation(name):
    p = rvlab("test", "--filter", f"^{name}$", "--random", N_RANDOM, "--runner", "both")
    assert p.returncode == 0, p.stdout + p.stderr
    assert f"PASS {name}" in p.stdout
