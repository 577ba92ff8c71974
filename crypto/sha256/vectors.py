"""SHA-224/SHA-256 test cases: the FIPS 180-2 examples (Appendix B; RFC 3874 §3 for SHA-224),
NIST CAVP SHA-224/SHA-256 ShortMsg, LongMsg and Monte Carlo (byte-oriented, SHAVS; from
cryptography-vectors), and random messages checked by hashlib.  The digest length (28 or 32
bytes) tells test.c which of the two to run."""
import hashlib
import os
import random
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
for _d in (_HERE, os.path.join(_HERE, "..", "sha256")):    # ../sha256/mdvectors.py: shared helpers
    if _d not in sys.path:
        sys.path.insert(0, _d)
from mdvectors import sha2_cases  # noqa: E402

# the last random cases, whatever --random is: the speed program's 4096 bytes (64 blocks and a
# padding block), 4095, and 1079/1080 (the padding fills the last block exactly / needs one more)
LONG = [4096, 4095, 1080, 1079]

TWO_BLOCK = b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
EXAMPLES = {   # (label, message, repeat, digest) as published
    "224": [("abc", b"abc", 1, "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"),
            ("448bit", TWO_BLOCK, 1, "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525"),
            ("million-a", b"a" * 1000, 1000, "20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67")],
    "256": [("abc", b"abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ("448bit", TWO_BLOCK, 1, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
            ("million-a", b"a" * 1000, 1000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")],
}
ORACLES = {"224": lambda m: hashlib.sha224(m).digest(), "256": lambda m: hashlib.sha256(m).digest()}


def cases(rng: random.Random, n_random: int) -> list:
    return sha2_cases(rng, n_random, EXAMPLES, ORACLES, LONG)
