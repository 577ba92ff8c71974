"""HMAC-SHA-256 test cases: RFC 4231 §4.2-4.8 (from cryptography-vectors, HMAC/rfc-4231-sha256.txt,
which leaves out §4.6's truncated tag; that one is added here as published), and random keys
and messages checked by Python's hmac module."""
import hashlib
import hmac
import os
import random
import sys

from rvlab.testcase import Case, cryptography_vectors_path, parse_nist

_HERE = os.path.dirname(os.path.abspath(__file__))
for _d in (_HERE, os.path.join(_HERE, "..", "sha256")):    # ../sha256/mdvectors.py: shared helpers
    if _d not in sys.path:
        sys.path.insert(0, _d)
from mdvectors import random_length  # noqa: E402

# the speed program's 4096-byte message, and lengths where the inner padding fills the
# last block exactly (1079: 64 + 1079 + 9 = 1152) or needs one more (1080)
LONG = [4096, 4095, 1080, 1079]
# key lengths around the block size (a key over 64 bytes is hashed first)
KEY_LENGTHS = [0, 1, 16, 31, 32, 33, 63, 64, 65, 100, 131]


def oracle(key: bytes, msg: bytes) -> bytes:
    return hmac.new(key, msg, hashlib.sha256).digest()


def cases(rng: random.Random, n_random: int) -> list:
    out = []
    for i, (_, r) in enumerate(parse_nist(cryptography_vectors_path("HMAC", "rfc-4231-sha256.txt"))):
        key, msg, mac = bytes.fromhex(r["KEY"]), bytes.fromhex(r["MSG"]), bytes.fromhex(r["MD"])
        assert oracle(key, msg) == mac, f"RFC 4231 vector {i}: the oracle disagrees"
        out.append(Case(f"RFC4231:{i}:keylen={len(key)}:len={len(msg)}", {"key": key, "msg": msg, "mac": mac}))
    key, msg = bytes([0x0c]) * 20, b"Test With Truncation"           # RFC 4231 §4.6: 128-bit tag
    mac = bytes.fromhex("a3b6167473100ee06e0c796c2955552b")
    assert oracle(key, msg)[:16] == mac
    out.append(Case("RFC4231:4.6-truncated", {"key": key, "msg": msg, "mac": mac}))
    for i in range(n_random):
        n = random_length(rng, i, n_random, LONG)
        klen = KEY_LENGTHS[i % len(KEY_LENGTHS)]
        key, msg = rng.randbytes(klen), rng.randbytes(n)
        out.append(Case(f"random#{i}:keylen={klen}:len={n}", {"key": key, "msg": msg, "mac": oracle(key, msg)}))
    return out
