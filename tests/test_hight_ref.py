"""crypto/hight/ref.py, the oracle of the HIGHT random cases, against the specification's
vectors (TTAK.KO-12.0040/R1 Appendix I) and KISA's reference code vector, before it is
trusted for anything else; decryption inverts encryption."""
import importlib.util
import random
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent.parent / "crypto" / "hight"


def _load(name):
    spec = importlib.util.spec_from_file_location(f"hight_{name}", HERE / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


ref = _load("ref")
vectors = _load("vectors")


@pytest.mark.parametrize("name,key,pt,ct", vectors.spec_vectors())
def test_reference_matches_the_specification(name, key, pt, ct):
    assert ref.encrypt(key, pt) == ct
    assert ref.decrypt(key, ct) == pt


def test_the_delta_constants_start_as_the_specification_says():
    assert ref.DELTA[0] == 0x5A and ref.DELTA[1] == 0x6D and all(0 <= d < 128 for d in ref.DELTA)


def test_spec_byte_order_is_reversed_array_order():
    # the first vector read without reversing is a different, wrong, case
    k, p, c = (bytes.fromhex(h) for h in vectors.SPEC[0])
    assert ref.encrypt(k, p) != c


def test_decrypt_inverts_encrypt_on_random_inputs():
    rng = random.Random(19)
    for _ in range(300):
        key, pt = rng.randbytes(16), rng.randbytes(8)
        assert ref.decrypt(key, ref.encrypt(key, pt)) == pt
