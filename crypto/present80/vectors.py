"""PRESENT test cases: the published vectors for 80- and 128-bit keys, and random cases (both
key sizes) whose ciphertexts come from ref.py, the plain reference written from the paper."""
import random
import sys
from pathlib import Path

from rvlab.testcase import Case

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ref  # noqa: E402

# (key, plaintext, ciphertext), hex.  PRESENT-80: Appendix I of the CHES 2007 paper.
# PRESENT-128: the paper gives none; K=0/P=0 is in A. Poschmann's PhD thesis (2009), the four
# as a set are the ones published in answer to crypto.stackexchange question 70906 and used
# alike by independent implementations (tests/test_present80_ref.py checks ref.py on all).
PAPER_80 = [
    ("00000000000000000000", "0000000000000000", "5579c1387b228445"),
    ("ffffffffffffffffffff", "0000000000000000", "e72c46c0f5945049"),
    ("00000000000000000000", "ffffffffffffffff", "a112ffc72f68417b"),
    ("ffffffffffffffffffff", "ffffffffffffffff", "3333dcd3213210d2"),
]
PUBLISHED_128 = [
    ("00000000000000000000000000000000", "0000000000000000", "96db702a2e6900af"),
    ("ffffffffffffffffffffffffffffffff", "0000000000000000", "13238c710272a5d8"),
    ("00000000000000000000000000000000", "ffffffffffffffff", "3c6019e5e5edd563"),
    ("ffffffffffffffffffffffffffffffff", "ffffffffffffffff", "628d9fbd4218e5b4"),
]


def cases(rng: random.Random, n_random: int) -> list:
    out = []
    for name, table in (("ches2007", PAPER_80), ("present128", PUBLISHED_128)):
        for i, (k, p, c) in enumerate(table):
            out.append(Case(f"{name}#{i}", {"key": bytes.fromhex(k), "pt": bytes.fromhex(p),
                                            "ct": bytes.fromhex(c)}))
    for i in range(n_random):
        key, pt = rng.randbytes(10 if i % 2 == 0 else 16), rng.randbytes(8)
        out.append(Case(f"random#{i}:k{8 * len(key)}", {"key": key, "pt": pt,
                                                        "ct": ref.encrypt_block(key, pt)}))
    return out
