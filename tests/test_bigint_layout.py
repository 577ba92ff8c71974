"""The straight-line bigint kernels are laid out without I-cache conflicts against their
callers (crypto/bigint-mul/layout_check.py on the linked speed programs), and the check
itself finds a conflict when there is one."""
import importlib.util
import subprocess
import sys

import pytest

from conftest import ROOT
from rvlab import build as B
from rvlab.manifest import discover

CHECK = ROOT / "crypto" / "bigint-mul" / "layout_check.py"
_spec = importlib.util.spec_from_file_location("layout_check", CHECK)
lc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lc)


@pytest.mark.parametrize("impl", ["best", "karatsuba-fixed", "comba-fixed"])
def test_no_chain_conflicts_with_its_callers(impl):
    impls, _ = discover([ROOT / "crypto"], [ROOT / "crypto"])
    (one,) = [i for i in impls if i.name == f"bigint-mul/{impl}"]
    elf = B.build_speed(one).speed
    p = subprocess.run([sys.executable, str(CHECK), str(elf)], capture_output=True, text=True)
    assert p.returncode == 0 and "no I-cache conflicts" in p.stdout, p.stdout + p.stderr


def test_a_wrapping_chain_over_the_callers_sets_is_reported():
    way = lc.SIZE // lc.WAYS
    syms = {"rvlab_speed": (0x20400300, 0x1c0), "bigint_mul": (0x204004c0, 0x40),
            # 10 KiB kernel starting one way before the callers' sets: wraps onto them
            "kf_mul18": (0x20400000 + way - 0x100, 10 * 1024)}
    assert lc.excess_lines(syms, ["rvlab_speed", "bigint_mul", "kf_mul18"]) > 0
    syms["kf_mul18"] = (0x20400000 + 0x600, 10 * 1024)            # wraps onto 0x600.. only
    assert lc.excess_lines(syms, ["rvlab_speed", "bigint_mul", "kf_mul18"]) == 0
