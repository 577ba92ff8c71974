"""best's bigint kernels are laid out without avoidable I-cache conflicts in any footprint the
speed program times (crypto/bigint-mul/layout_check.py on the linked speed program: the E31's
I-cache refills a random way, so two lines of one call in one set can miss in the timed call),
and the check itself finds a conflict when there is one."""
import importlib.util
import subprocess
import sys

from conftest import ROOT
from rvlab import build as B
from rvlab.manifest import discover

CHECK = ROOT / "crypto" / "bigint-mul" / "layout_check.py"
_spec = importlib.util.spec_from_file_location("layout_check", CHECK)
lc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lc)


def test_best_has_no_avoidable_conflicts():
    impls, _ = discover([ROOT / "crypto"], [ROOT / "crypto"])
    (one,) = [i for i in impls if i.name == "bigint-mul/best"]
    elf = B.build_speed(one).speed
    p = subprocess.run([sys.executable, str(CHECK), str(elf)], capture_output=True, text=True)
    assert p.returncode == 0 and "no avoidable I-cache conflicts" in p.stdout, p.stdout + p.stderr
    rows = lc.report(elf)
    # every bench point has a footprint, the long chains included
    assert {n for n, *_ in rows} >= set(lc.MUL_N + lc.BIG_N + lc.BITS_N)
    assert any(size > lc.SETS for _, _, size, *_ in rows)


def test_the_check_counts_avoidable_lines():
    loop = lc.lines_of(0x20400340, 0x40)                           # one line, set 13
    way = lc.SETS * lc.LINE
    assert lc.avoidable(loop | lc.lines_of(0x20400000 + way + 0x300, 0x100)) == (1, 0)  # sets 12..15
    assert lc.avoidable(loop | lc.lines_of(0x20400000 + way + 0x400, 0x100)) == (0, 0)  # sets 16..19
    chain = lc.lines_of(0x20400000 + way + 0x400, 200 * lc.LINE)   # 200 lines: sets 16..87 twice
    assert lc.avoidable(chain) == (0, 0)
    assert lc.avoidable(chain | lc.lines_of(0x20400000 + 0x800, 4)) == (0, 1)   # set 32: three lines
    assert lc.avoidable(chain | loop) == (0, 0)                    # set 13: covered once
