"""crypto/sha256/optable.py (registered in rvlab.report.PRIMITIVE_SCRIPTS): the instruction mix of
one sha256/sha512/sm3 compression from rvsim runs adds up (kinds = parts = the mnemonic total),
and its arithmetic is the published lwsha_isa count plus only what a whole call adds
(the state update, the first Maj carry)."""
import re
import subprocess
import sys

from conftest import ROOT
from rvlab.report import PRIMITIVE_SCRIPTS

import pytest

SCRIPT = ROOT / "crypto" / "sha256" / "optable.py"
needs_rvsim = pytest.mark.usefixtures("rvsim_built")


def _rows(text, section):
    body = text.split(f"## {section}")[1].split("##")[0]
    out = {}
    for line in body.splitlines():
        cells = [c.strip().strip("*") for c in line.strip().strip("|").split("|")]
        vals = cells[1:]
        if cells[0] and all(re.fullmatch(r"[\d,]*", c) for c in vals) and any(vals):
            out[cells[0]] = [int(c.replace(",", "")) if c else None for c in vals]
    return out


def test_registered():
    assert SCRIPT in PRIMITIVE_SCRIPTS


@needs_rvsim
def test_tables_add_up(tmp_path):
    p = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "none.json"), str(tmp_path)],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    for prim, extra in (("sha256", 8 + 1), ("sha512", 32 + 2), ("sm3", 8)):
        text = (tmp_path / f"{prim}_optable.md").read_text()
        kinds, parts, mnems = _rows(text, "By kind"), _rows(text, "By part"), _rows(text, "Mnemonics")
        total = kinds.pop("total")
        arith = kinds.pop("arithmetic (the kinds lwsha_isa counts)")
        lwsha = next(v for k, v in kinds.items() if k.startswith("lwsha_isa"))
        kinds = {k: v for k, v in kinds.items() if not k.startswith("lwsha_isa")}
        for col in range(3):
            assert sum(v[col] for v in kinds.values()) == total[col]
            assert sum(v[col] for v in parts.values()) == total[col]
            assert sum(v[col] for v in mnems.values()) == total[col]
        assert total[0] > total[1] > total[2]                      # each extension removes work
        # SHA-2 with Zknh: exactly the published arithmetic plus the call's own; SM3 with Zksh: fewer
        if prim == "sm3":
            assert arith[2] <= lwsha[2]
        else:
            assert arith[2] == lwsha[2] + extra
