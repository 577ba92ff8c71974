"""rvlab.optable: role tags of generated kernels, and cycles per role from an rvsim run."""
import pytest

from conftest import ROOT
from rvlab.manifest import load_manifest
from rvlab.optable import OptableError, role_cycles, tagged_roles


def test_untagged_instruction_is_an_error(tmp_path):
    s = tmp_path / "k.S"
    s.write_text("    .text\nf:\n    addi a0, a0, 1    # io\n    ret\n")
    with pytest.raises(OptableError, match=r"k.S:4: instruction without a role tag: ret"):
        tagged_roles(s)


def test_tags_by_function(tmp_path):
    s = tmp_path / "k.S"
    s.write_text("/* c */\n    .data\nt:\n    .word 1\n    .text\nf:\n    # comment\n"
                 "    lw   t0, 0(a0)       # load  note\n.Lx:\n    ret                # io\ng:\n    ret # io\n")
    assert tagged_roles(s) == {"t": [], "f": ["load", "io"], "g": ["io"]}


def test_seed128_table_roles(rvsim_built):
    """Every cycle of one warm seed128_encrypt lands on a role; on the ideal core cycles =
    instructions, and the address calculation is 3 instructions for each of the 192 lookups."""
    impl = load_manifest(ROOT / "crypto" / "seed128" / "table" / "manifest.toml", [ROOT / "crypto"])
    c = role_cycles(impl, impl.path / "seed128_table.S",
                    "static uint32_t rk[SEED128_RK_WORDS]; static uint8_t b[16];",
                    "    seed128_encrypt(b, b, rk);", "ideal")["seed128_encrypt"]
    assert c["total"] == c["instructions"] == sum(v for k, v in c.items() if k not in ("total", "instructions"))
    assert c["addr"] == 3 * 192 and c["load"] == 192
