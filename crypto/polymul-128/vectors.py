"""polymul-128 test cases: edge operands (zero, all-ones, single bits, limb boundaries) and
random operands; expected products from the plain Python GF(2)[x] oracle in polymul_vectors.py."""
import importlib.util
import pathlib
import random

from rvlab.testcase import Case

BITS = 128
_spec = importlib.util.spec_from_file_location(
    "polymul_vectors", pathlib.Path(__file__).resolve().parents[1] / "polymul-128" / "polymul_vectors.py")
_pv = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_pv)


def cases(rng: random.Random, n_random: int) -> list[Case]:
    return _pv.make_cases(Case, BITS, rng, n_random)
