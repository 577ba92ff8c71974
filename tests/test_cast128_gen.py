"""crypto/cast128/gen.py: its key-schedule tables (RFC 2144 §2.4, from which the kernels are
generated) agree with the `cryptography` package's CAST5, and optable.py (seed 003 Table 9)
accounts for every instruction rvsim executes."""
import importlib.util
import subprocess
import sys

from conftest import ROOT

# by path, under its own name: several primitives have a gen.py
sys.path.insert(0, str(ROOT / "crypto" / "cast128"))            # gen.py imports sboxes.py
_spec = importlib.util.spec_from_file_location("cast128_gen", ROOT / "crypto" / "cast128" / "gen.py")
gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen)


def test_schedule_shape():
    steps = gen.schedule()
    keys = [s[1] for s in steps if s[0] == "key"]
    assert keys == list(range(1, 33))
    assert sum(len(s[-1]) for s in steps) == 320          # S-box reads of the key schedule


def test_model_matches_cryptography():
    gen.check(200)


def test_optable_counts_every_instruction(rvsim_built, tmp_path):
    p = subprocess.run([sys.executable, str(ROOT / "crypto" / "cast128" / "optable.py"),
                        str(tmp_path / "none.json"), str(tmp_path)], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    md = (tmp_path / "cast128_optable.md").read_text()
    assert "| S-box address | 1,152 | 1,152 | 1,152 |" in md         # the seed's row beside ours
    # the rv32i kernels are straight-line: one call executes each instruction once
    n_enc = len(gen.categories("rv32i")["cast128_encrypt"])
    n_key = len(gen.categories("rv32i")["cast128_keyexp_enc"])
    total_rows = [l for l in md.splitlines() if l.startswith("| **total")]
    assert f"**{n_key + n_enc:,}**" in total_rows[0].split("|")[4]
    assert f"**{n_enc:,}**" in total_rows[1].split("|")[4]
