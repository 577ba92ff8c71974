"""crypto/present80/optable.py (seed 003 Table 12 for PRESENT): the per-part instruction tally
the generator keeps adds up to the instructions the kernels execute, and the script writes the
table from a bench file (the check line says = when the bench's instret agrees)."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "crypto" / "present80"))
import optable  # noqa: E402


def test_tally_is_the_round_structure():
    t = optable.tallies()
    # 31 rounds: 4 instructions of key addition each, plus the final key addition
    assert all(v["addRoundKey"] == 4 * 32 for v in t.values())
    # xperm4 S-box layer: xor, xperm4, xperm4, or per register, 2 registers, 31 rounds
    assert t["zbkb-zbkx"]["sBoxLayer"] == t["xzbp"]["sBoxLayer"] == 31 * 8
    # bitsliced: 2 shifts + 17 gates + 8 packing per round, 6 packing in the 10 rounds whose
    # nibble bits sit at q5, q4 (two of every six)
    assert t["rv32i-ct"]["sBoxLayer"] == 31 * 27 - 10 * 2


def test_table_from_a_bench_file(tmp_path):
    t = optable.tallies()
    recs = [{"primitive": "present80", "impl": n, "core": "ideal", "operation": "encrypt",
             "cycles": sum(v.values()) + 4, "instret": sum(v.values()) + 4} for n, v in t.items()]
    recs.append({"primitive": "present80", "impl": "rv32i", "core": "e31", "operation": "encrypt",
                 "cycles": 4321, "instret": 1})
    (tmp_path / "b.json").write_text(json.dumps(recs))
    p = subprocess.run([sys.executable, str(ROOT / "crypto" / "present80" / "optable.py"),
                        str(tmp_path / "b.json"), str(tmp_path)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    md = (tmp_path / "present80_optable.md").read_text()
    assert "| sBoxLayer | 5,766 | 248 |" in md
    assert "4,321" in md and "≠" not in md


def test_bad_bench_file_is_an_error(tmp_path):
    (tmp_path / "b.json").write_text("{not json")
    p = subprocess.run([sys.executable, str(ROOT / "crypto" / "present80" / "optable.py"),
                        str(tmp_path / "b.json"), str(tmp_path)], capture_output=True, text=True)
    assert p.returncode != 0 and "not valid JSON" in p.stderr
