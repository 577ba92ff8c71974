"""MISTY1 test cases: RFC 2994's test data (typed from the RFC), and n_random random keys and
blocks whose ciphertexts come from crypto/misty1/ref.py, a plain Python reference written
from RFC 2994 (neither `cryptography` nor pycryptodome has MISTY1; tests/test_misty1_ref.py
checks ref.py against the RFC's test data)."""
import importlib.util
import random
from pathlib import Path

from rvlab.testcase import Case

# ref.py by path, under its own name (another primitive's vectors.py may import a `ref` too)
_spec = importlib.util.spec_from_file_location("misty1_ref", Path(__file__).with_name("ref.py"))
ref = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ref)

RFC_KEY = bytes.fromhex("00112233445566778899aabbccddeeff")
RFC = [("0123456789abcdef", "8b1da5f56ab3d07c"), ("fedcba9876543210", "04b68240b13be95d")]


def cases(rng: random.Random, n_random: int) -> list:
    out = []
    for n, (pt, ct) in enumerate(RFC):
        pt, ct = bytes.fromhex(pt), bytes.fromhex(ct)
        assert ref.encrypt(RFC_KEY, pt) == ct
        out.append(Case(f"rfc2994-test-data#{n}", {"key": RFC_KEY, "pt": pt, "ct": ct}))
    for i in range(n_random):
        key, pt = rng.randbytes(16), rng.randbytes(8)
        out.append(Case(f"random#{i}", {"key": key, "pt": pt, "ct": ref.encrypt(key, pt)}))
    return out
