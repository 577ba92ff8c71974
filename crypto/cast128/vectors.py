"""CAST-128 test cases (128-bit keys only: the kernels implement the 16-round cipher).

- RFC 2144 Appendix B.1, the 128-bit key (typed from the RFC; also cryptography-vectors
  ciphers/CAST5/cast5-ecb.txt COUNT = 0).
- cryptography-vectors ciphers/CAST5/cast5-cbc.txt (128-bit keys, built by pyca from the AESVS
  MMT data and checked against CommonCrypto and Go), split into one-block ECB cases:
  ct_i = E(pt_i ^ ct_{i-1}), ct_0 = IV.
- RFC 2144 Appendix B.2, the maintenance test: a and b start as the B.1 key; per iteration
  aL = E(aL, key b), aR = E(aR, key b), bL = E(bL, key a), bR = E(bR, key a). The RFC gives a
  and b after 1,000,000 iterations; that runs with RVLAB_CAST128_MAINTENANCE=1 (about 6 G
  simulated instructions: ~40 s per implementation on rvsim). By default the first
  MAINTENANCE_SHORT iterations run, with a and b from the `cryptography` package's CAST5.
- n_random random keys and blocks, ciphertexts from `cryptography`'s CAST5 (OpenSSL; under
  cryptography.hazmat.decrepit).
"""
import os
import random
import warnings

from rvlab.testcase import Case, cryptography_vectors_path, parse_nist

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from cryptography.hazmat.decrepit.ciphers.algorithms import CAST5
from cryptography.hazmat.primitives.ciphers import Cipher, modes

RFC_KEY = bytes.fromhex("0123456712345678234567893456789A")
RFC_PT, RFC_CT = bytes.fromhex("0123456789ABCDEF"), bytes.fromhex("238B4FE5847E44B2")
# RFC 2144 B.2: a and b after 1,000,000 iterations
MAINT_A = bytes.fromhex("EEA9D0A249FD3BA6B3436FB89D6DCA92")
MAINT_B = bytes.fromhex("B2C95EB00C31AD7180AC05B8E83D696E")
MAINTENANCE_FULL = 1_000_000
MAINTENANCE_SHORT = 100

_FULL = os.environ.get("RVLAB_CAST128_MAINTENANCE", "0")
if _FULL not in ("0", "1"):
    raise ValueError(f"RVLAB_CAST128_MAINTENANCE must be 0 or 1 (1: RFC 2144's 1,000,000 iterations), "
                     f"not {_FULL!r}")


def encrypt(key: bytes, block: bytes) -> bytes:
    """ECB encryption of one or more 8-byte blocks with `cryptography`'s CAST5."""
    return Cipher(CAST5(key), modes.ECB()).encryptor().update(block)


def maintenance(n: int) -> tuple[bytes, bytes]:
    a, b = RFC_KEY, RFC_KEY
    for _ in range(n):
        a = encrypt(b, a)          # aL and aR: two ECB blocks
        b = encrypt(a, b)
    return a, b


def cases(rng: random.Random, n_random: int) -> list:
    out = []
    assert encrypt(RFC_KEY, RFC_PT) == RFC_CT
    out.append(Case("rfc2144-B.1:128-bit", {"key": RFC_KEY, "pt": RFC_PT, "ct": RFC_CT}))
    for _, r in parse_nist(cryptography_vectors_path("ciphers", "CAST5", "cast5-cbc.txt")):
        key, iv = bytes.fromhex(r["KEY"]), bytes.fromhex(r["IV"])
        pt, ct = bytes.fromhex(r["PLAINTEXT"]), bytes.fromhex(r["CIPHERTEXT"])
        if len(key) != 16:
            continue
        prev = iv
        for j in range(len(pt) // 8):
            x = bytes(p ^ q for p, q in zip(pt[8 * j:8 * j + 8], prev))
            c = ct[8 * j:8 * j + 8]
            out.append(Case(f"cast5-cbc:count={r['COUNT']}.{j}", {"key": key, "pt": x, "ct": c}))
            prev = c
    if _FULL == "1":
        n, (a, b) = MAINTENANCE_FULL, (MAINT_A, MAINT_B)
    else:
        n, (a, b) = MAINTENANCE_SHORT, maintenance(MAINTENANCE_SHORT)
    out.append(Case(f"rfc2144-B.2:maintenance:iterations={n}",
                    {"a": RFC_KEY, "b": RFC_KEY, "iterations": n.to_bytes(4, "little"),
                     "a_out": a, "b_out": b}))
    for i in range(n_random):
        key, pt = rng.randbytes(16), rng.randbytes(8)
        out.append(Case(f"random#{i}", {"key": key, "pt": pt, "ct": encrypt(key, pt)}))
    return out
