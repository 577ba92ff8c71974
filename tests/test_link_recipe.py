"""The E31 link recipe is rvlab/build.py's board_link_flags() (from harness/board.toml); the
copies a user reads and runs without rvlab -- examples/hifive1/Makefile, the firmware link in
README.md and harness/README.md's build by hand -- must say exactly the same --defsym flags, in
the same order, with picolibc's semihosting link flags, so they cannot drift from it."""
import re

import pytest

from conftest import ROOT
from rvlab import build as B

COPIES = ["examples/hifive1/Makefile", "README.md", "harness/README.md"]


def link_lines(path):
    """the logical lines (backslash continuations joined) that hold a -Wl,--defsym"""
    text = (ROOT / path).read_text().replace("\\\n", " ")
    return [" ".join(line.split()) for line in text.splitlines() if "-Wl,--defsym" in line]


@pytest.mark.parametrize("path", COPIES)
def test_the_copies_link_as_board_link_flags(path):
    lines = link_lines(path)
    assert len(lines) == 1, f"{path}: one link command with -Wl,--defsym, found {len(lines)}"
    line = lines[0]
    assert re.findall(r"-Wl,--defsym=\S+", line) == B.board_link_flags(), f"{path}: {line}"
    tokens = line.split()
    for flag in ["-mabi=ilp32"] + B.PICOLIBC_SEMIHOST:
        assert flag in tokens, f"{path}: {flag} missing from {line}"
    if path.endswith(".md"):       # the documented commands link for the harness's rv32imac
        assert all(f in tokens for f in B.LINK_BASE), f"{path}: {line}"
