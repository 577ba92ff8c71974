"""SM3 test cases: the GB/T 32905-2016 Appendix A examples, the SM3 vectors of
cryptography-vectors (hashes/SM3/oscca.txt, from the OSCCA specification and the Linux
kernel's testmgr.h), and random messages checked by hashlib's sm3 (OpenSSL) or, where the
local OpenSSL lacks it, the plain Python SM3 in sm3_ref.py -- either is first checked against
the standard's examples."""
import hashlib
import os
import random
import sys

from rvlab.testcase import Case, cryptography_vectors_path, parse_nist

_HERE = os.path.dirname(os.path.abspath(__file__))
for _d in (_HERE, os.path.join(_HERE, "..", "sha256")):    # ../sha256/mdvectors.py: shared helpers
    if _d not in sys.path:
        sys.path.insert(0, _d)

from mdvectors import example_cases, random_cases  # noqa: E402
from sm3_ref import sm3 as ref_sm3  # noqa: E402

# the last random cases: the speed program's 4096 bytes, 4095, and 1079/1080 (the padding
# fills the last block exactly / needs one more)
LONG = [4096, 4095, 1080, 1079]

EXAMPLES = [   # GB/T 32905-2016 Appendix A: (label, message, repeat, digest) as published
    ("A.1", b"abc", 1, "66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0"),
    ("A.2", b"abcd", 16, "debe9ff92275b8a138604889c18e5a4d6fdb70e5387e5765293dcba39c0c5732"),
]


def _oracle():
    try:
        h = hashlib.new("sm3")
    except ValueError:
        return ref_sm3
    del h
    return lambda m: hashlib.new("sm3", m).digest()


def cases(rng: random.Random, n_random: int) -> list:
    oracle = _oracle()
    out = example_cases("GBT32905", EXAMPLES, oracle)        # also checks the oracle
    for _, r in parse_nist(cryptography_vectors_path("hashes", "SM3", "oscca.txt")):
        nbits = int(r["LEN"])
        msg = bytes.fromhex(r["MSG"])[:nbits // 8]
        md = bytes.fromhex(r["MD"])
        assert oracle(msg) == md, f"oscca.txt len={nbits}: the oracle disagrees"
        out.append(Case(f"oscca:len={nbits}", {"msg": msg, "md": md}))
    return out + random_cases(rng, n_random, LONG, [("SM3", oracle)])
