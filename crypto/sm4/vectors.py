"""SM4 test cases.

- GB/T 32907-2016 example 1 (key = plaintext = 0123456789abcdeffedcba9876543210), typed from the
  standard's Appendix A, and the draft-ribose-cfrg-sm4-10 vectors in cryptography-vectors
  (ciphers/SM4: the ECB file whole, multi-block plaintexts split into blocks; the CBC file as
  one-block ECB cases, ct_i = E(pt_i ^ ct_{i-1}), ct_0 = IV).
- GB/T 32907 example 2: that plaintext encrypted 1,000,000 times with that key gives
  595298c7c6fd271f0402f804c33d3f66; it runs with RVLAB_SM4_MILLION=1 (about 0.3 G (zksed),
  0.8 G (table) and 5 G (the constant-time rv32i-ct, zbkb-ct) simulated instructions). By
  default the first ITER_SHORT iterations run, their result from the `cryptography` package's SM4.
- n_random random keys and blocks, ciphertexts from `cryptography`'s SM4 (OpenSSL).
"""
import os
import random

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from rvlab.testcase import Case, cryptography_vectors_path, parse_nist

GB_KEY = bytes.fromhex("0123456789abcdeffedcba9876543210")
GB_CT1 = bytes.fromhex("681edf34d206965e86b3e94f536e4246")
GB_CT_MILLION = bytes.fromhex("595298c7c6fd271f0402f804c33d3f66")
ITER_FULL, ITER_SHORT = 1_000_000, 1000

_FULL = os.environ.get("RVLAB_SM4_MILLION", "0")
if _FULL not in ("0", "1"):
    raise ValueError(f"RVLAB_SM4_MILLION must be 0 or 1 (1: GB/T 32907's 1,000,000 encryptions), not {_FULL!r}")


def encrypt(key: bytes, data: bytes) -> bytes:
    return Cipher(algorithms.SM4(key), modes.ECB()).encryptor().update(data)


def cases(rng: random.Random, n_random: int) -> list:
    out = []
    assert encrypt(GB_KEY, GB_KEY) == GB_CT1
    out.append(Case("gbt32907:example-1", {"key": GB_KEY, "pt": GB_KEY, "ct": GB_CT1}))
    for fn, chained in (("draft-ribose-cfrg-sm4-10-ecb.txt", False), ("draft-ribose-cfrg-sm4-10-cbc.txt", True)):
        for _, r in parse_nist(cryptography_vectors_path("ciphers", "SM4", fn)):
            key, pt, ct = (bytes.fromhex(r[k]) for k in ("KEY", "PLAINTEXT", "CIPHERTEXT"))
            prev = bytes.fromhex(r["IV"]) if chained else bytes(16)
            for j in range(len(pt) // 16):
                x = bytes(p ^ q for p, q in zip(pt[16 * j:16 * j + 16], prev))
                c = ct[16 * j:16 * j + 16]
                out.append(Case(f"{fn[:-4]}:count={r['COUNT']}.{j}", {"key": key, "pt": x, "ct": c}))
                prev = c if chained else prev
    if _FULL == "1":
        n, ct = ITER_FULL, GB_CT_MILLION
    else:
        n, ct = ITER_SHORT, GB_KEY
        enc = Cipher(algorithms.SM4(GB_KEY), modes.ECB()).encryptor()
        for _ in range(n):
            ct = enc.update(ct)
    out.append(Case(f"gbt32907:example-2:iterations={n}",
                    {"key": GB_KEY, "pt": GB_KEY, "iterations": n.to_bytes(4, "little"), "ct": ct}))
    for i in range(n_random):
        key, pt = rng.randbytes(16), rng.randbytes(16)
        out.append(Case(f"random#{i}", {"key": key, "pt": pt, "ct": encrypt(key, pt)}))
    return out
