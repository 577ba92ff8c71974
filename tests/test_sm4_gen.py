"""crypto/sm4/gen.py: the algebraic S-box (checked against the standard's first row when the
module loads) is a permutation, and the byte-swapped T-table computation the kernels are
generated from equals the `cryptography` package's SM4."""
import importlib.util

from conftest import ROOT

# by path, under its own name: several primitives have a gen.py
_spec = importlib.util.spec_from_file_location("sm4_gen", ROOT / "crypto" / "sm4" / "gen.py")
gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen)


def test_sbox_is_a_permutation():
    assert sorted(gen.SBOX) == list(range(256))


def test_tables_are_sm4ed_words():
    # sm4ed's per-byte word (scalar crypto v1.0): rol(bswap(L(S(b) << 24)), 8j) for bs = j
    for j in range(4):
        for b in (0, 1, 0x5a, 0xff):
            assert gen.T_ENC[j][b] == gen.rol(gen.bswap(gen.L(gen.SBOX[b] << 24)), 8 * j)


def test_model_matches_cryptography():
    gen.check()
