"""Generated kernel files are what their generators write today: a generator edited without
regenerating (or a hand edit of generated code) fails here.  scripts/regen-kernels.sh, the one
list of generators, runs on a copy of crypto/; the copy must come out identical."""
import filecmp
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def differing(cmp, prefix=""):
    out = [prefix + f for f in cmp.diff_files + cmp.left_only + cmp.right_only + cmp.funny_files]
    for name, sub in cmp.subdirs.items():
        out += differing(sub, f"{prefix}{name}/")
    return out


def test_every_generated_file_is_fresh(tmp_path):
    copy = tmp_path / "crypto"
    shutil.copytree(ROOT / "crypto", copy, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run(["sh", str(ROOT / "scripts" / "regen-kernels.sh"), str(copy)], check=True,
                   capture_output=True)
    shutil.rmtree(copy / "polymul-128" / "gen" / "__pycache__", ignore_errors=True)
    cmp = filecmp.dircmp(ROOT / "crypto", copy, ignore=["__pycache__"])
    stale = differing(cmp)
    assert not stale, f"stale generated files (run scripts/regen-kernels.sh): {stale}"
