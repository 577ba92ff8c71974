"""crypto/present80/ref.py, the oracle of present80 and present80-ctr, against the published
vectors (CHES 2007 Appendix I for PRESENT-80; the PRESENT-128 set of vectors.py) and the
round keys published for the all-zero 80-bit key, before it checks any kernel."""
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "crypto" / "present80"))
import ref  # noqa: E402
import vectors  # noqa: E402


@pytest.mark.parametrize("key, pt, ct", vectors.PAPER_80 + vectors.PUBLISHED_128)
def test_published_vectors(key, pt, ct):
    key, pt, ct = bytes.fromhex(key), bytes.fromhex(pt), bytes.fromhex(ct)
    assert ref.encrypt_block(key, pt) == ct
    assert ref.decrypt_block(key, ct) == pt


def test_round_keys_of_the_zero_80_bit_key():
    # K1..K4 and K32 of the all-zero key, as published with intermediate values
    # (crypto.stackexchange question 26037, consistent with the CHES 2007 vector above)
    rk = ref.round_keys_80(bytes(10))
    assert rk[:4] == [0, 0xC000000000000000, 0x5000180000000001, 0x60000A0003000001]
    assert rk[31] == 0x6DAB31744F41D700


def test_player_is_the_specified_permutation():
    assert sorted(ref.p_position(i) for i in range(64)) == list(range(64))
    assert [ref.p_position(i) for i in (0, 1, 2, 4, 16, 62, 63)] == [0, 16, 32, 1, 4, 47, 63]
    s = random.Random(1).getrandbits(64)
    assert ref.p_layer_inv(ref.p_layer(s)) == s


def test_ctr_is_ecb_of_the_counter():
    rng = random.Random(2)
    key, data = rng.randbytes(10), rng.randbytes(29)
    iv = (2**64 - 2).to_bytes(8, "big")            # wraps after two blocks
    ks = b"".join(ref.encrypt_block(key, ((2**64 - 2 + j) % 2**64).to_bytes(8, "big")) for j in range(4))
    assert ref.ctr_xor(key, iv, data) == bytes(a ^ b for a, b in zip(data, ks))


def test_bad_key_length_is_an_error():
    with pytest.raises(ValueError):
        ref.round_keys_80(bytes(16))
    with pytest.raises(ValueError):
        ref.round_keys_128(bytes(10))
