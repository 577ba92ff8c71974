"""rvlab.optable: role tags of generated kernels, and cycles per role from an rvsim run."""
import pytest

from conftest import ROOT
from rvlab.manifest import load_manifest
from rvlab.optable import OptableError, role_cycles, tagged_roles


def test_untagged_instruction_is_an_error(tmp_path):
    s = tmp_path / "k.S"
    s.write_text("    .text\nf:\n    addi a0, a0, 1    # [io]\n    ret\n")
    with pytest.raises(OptableError, match=r"k.S:4: instruction without a role tag: ret"):
        tagged_roles(s)


def test_tags_by_function(tmp_path):
    s = tmp_path / "k.S"
    s.write_text("/* c */\n    .data\nt:\n    .word 1\n    .text\nf:\n    # comment\n"
                 "    lw   t0, 0(a0)       # [load] note\n.Lx:\n    ret                # [io]\ng:\n"
                 "    ret # [call, return]\n")
    assert tagged_roles(s) == {"t": [], "f": ["load", "io"], "g": ["call, return"]}


def test_seed128_table_roles(rvsim_built):
    """Every cycle of one warm seed128_encrypt lands on a role; on the ideal core cycles =
    instructions, and the address calculation is 3 instructions for each of the 192 lookups."""
    impl = load_manifest(ROOT / "crypto" / "seed128" / "table" / "manifest.toml", [ROOT / "crypto"])
    c = role_cycles(impl, impl.path / "seed128_table.S",
                    "static uint32_t rk[SEED128_RK_WORDS]; static uint8_t b[16];",
                    "    seed128_encrypt(b, b, rk);", "ideal")["seed128_encrypt"]
    assert c["total"] == c["instructions"] == sum(v for k, v in c.items() if k not in ("total", "instructions"))
    assert c["addr"] == 3 * 192 and c["load"] == 192


def _call_alone_vs_bench(md: str) -> list[tuple[int, int]]:
    """(call alone, bench) pairs of every numeric cell of each "call alone" row and the `rvlab
    bench` row right after it in a per-primitive optable."""
    rows = [[c.strip().replace(",", "") for c in line.strip().strip("|").split("|")]
            for line in md.splitlines() if line.startswith("|")]
    pairs = []
    for row, nxt in zip(rows, rows[1:]):
        if "call alone" in row[0] and "`rvlab bench`" in nxt[0]:
            assert len(row) == len(nxt), (row, nxt)
            pairs += [(int(a), int(b)) for a, b in zip(row[1:], nxt[1:]) if a.isdigit() and b.isdigit()]
    return pairs


@pytest.mark.parametrize("prim, n_cells", [("seed128", 6), ("camellia128", 8), ("hight", 6), ("tdea", 8)])
def test_call_alone_is_bench(rvsim_built, tmp_path, prim, n_cells):
    """The "call alone" figures of the per-primitive optables (ideal and e31) are within a few
    cycles of `rvlab bench`'s records: bench times warm repeated calls of one operation, and so
    must the table (a figure taken after the key schedule ran in between pays I-cache misses on
    the e31: seed128 table encrypt 1,443 against bench's 1,147)."""
    import subprocess
    import sys
    p = subprocess.run([sys.executable, str(ROOT / "crypto" / prim / "optable.py"),
                        str(ROOT / "results" / "bench.json"), str(tmp_path)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    pairs = _call_alone_vs_bench((tmp_path / f"{prim}_optable.md").read_text())
    assert len(pairs) >= n_cells, pairs
    assert all(0 <= bench - alone <= 10 for alone, bench in pairs), pairs
