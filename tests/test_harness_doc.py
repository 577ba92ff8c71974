"""harness/README.md's "Building a program by hand" block, run as written: it must build a
program that measures exactly what rvlab's own build of it measures."""
import os
import re
import subprocess

from conftest import ROOT, RVSIM
from rvlab import build as B
from rvlab.manifest import load_manifest


def _block() -> str:
    text = (ROOT / "harness" / "README.md").read_text()
    section = text[text.index("## Building a program by hand"):]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1)


def test_the_documented_commands_build_rvlabs_program(tmp_path, rvsim_built):
    env = dict(os.environ, OUT=str(tmp_path), PATH=f"{RVSIM.parent}:{os.environ['PATH']}")
    p = subprocess.run(["sh", "-e", "-c", _block()], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    by_hand = [l for l in p.stdout.splitlines() if l.startswith("RVLAB_RESULT")]
    impl = load_manifest(ROOT / "crypto" / "chacha20" / "rv32i" / "manifest.toml", [ROOT / "crypto"])
    ours = subprocess.run([str(RVSIM), "--isa", "rv32imac", str(B.build_speed(impl).speed)],
                          capture_output=True, text=True, timeout=300).stdout
    assert by_hand and by_hand == [l for l in ours.splitlines() if l.startswith("RVLAB_RESULT")]
    # the flags are rvlab's: the link line holds every one of build.LINK_FLAGS
    block = " ".join(_block().replace("\\\n", " ").split())
    assert all(f in block for f in B.LINK_FLAGS)
