"""Generated kernel files are what their generator writes today: a generator edited without
regenerating (or a hand edit of generated code) fails here."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STDOUT_GENERATORS = [
    ("crypto/bigint-mul/comba-fixed/gen.py", "crypto/bigint-mul/comba-fixed/kernels.inc"),
    ("crypto/bigint-mul/karatsuba-fixed/gen.py", "crypto/bigint-mul/karatsuba-fixed/kernels.inc"),
]


@pytest.mark.parametrize("gen,out", STDOUT_GENERATORS, ids=[g for g, _ in STDOUT_GENERATORS])
def test_generated_file_is_fresh(gen, out):
    fresh = subprocess.run([sys.executable, str(ROOT / gen)], capture_output=True, text=True,
                           check=True).stdout
    assert fresh == (ROOT / out).read_text(), f"{out} is stale: run python3 {gen} > {out}"
