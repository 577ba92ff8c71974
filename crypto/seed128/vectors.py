"""SEED test cases: RFC 4269 Appendix B (the four examples, from cryptography-vectors'
ciphers/SEED/rfc-4269.txt), the single-block encryptions inside the SEED-CBC examples of RFC 4196
(ciphers/SEED/rfc-4196.txt: each ciphertext block is the encryption of plaintext xor the
previous ciphertext block) and inside cryptography-vectors' SEED OFB and CFB-128 sets
(seed-ofb.txt, seed-cfb.txt: AESVS-MMT-shaped, checked by pyca against Botan; block i encrypts
the previous output / ciphertext block, the IV first, into ciphertext ^ plaintext), and random
keys and blocks whose ciphertexts come from the `cryptography` package (OpenSSL's SEED,
cryptography.hazmat.decrepit)."""
import random

from cryptography.hazmat.decrepit.ciphers.algorithms import SEED
from cryptography.hazmat.primitives.ciphers import Cipher, modes

from rvlab.testcase import Case, cryptography_vectors_path, parse_nist


def oracle(key: bytes, pt: bytes) -> bytes:
    enc = Cipher(SEED(key), modes.ECB()).encryptor()
    return enc.update(pt) + enc.finalize()


def cases(rng: random.Random, n_random: int) -> list:
    out = []
    for _, r in parse_nist(cryptography_vectors_path("ciphers", "SEED", "rfc-4269.txt")):
        key, pt, ct = (bytes.fromhex(r[k]) for k in ("KEY", "PLAINTEXT", "CIPHERTEXT"))
        out.append(Case(f"rfc4269-B#{r['COUNT']}", {"key": key, "pt": pt, "ct": ct}))
    for _, r in parse_nist(cryptography_vectors_path("ciphers", "SEED", "rfc-4196.txt")):
        key, chain, pt, ct = (bytes.fromhex(r[k]) for k in ("KEY", "IV", "PLAINTEXT", "CIPHERTEXT"))
        for b in range(len(pt) // 16):
            block = bytes(x ^ y for x, y in zip(pt[16 * b:16 * b + 16], chain))
            chain = ct[16 * b:16 * b + 16]
            out.append(Case(f"rfc4196-cbc#{r['COUNT']}.{b}", {"key": key, "pt": block, "ct": chain}))
    for mode in ("ofb", "cfb"):
        for _, r in parse_nist(cryptography_vectors_path("ciphers", "SEED", f"seed-{mode}.txt")):
            key, chain, pt, ct = (bytes.fromhex(r[k]) for k in ("KEY", "IV", "PLAINTEXT", "CIPHERTEXT"))
            for b in range(len(pt) // 16):
                p_, c_ = pt[16 * b:16 * b + 16], ct[16 * b:16 * b + 16]
                keystream = bytes(x ^ y for x, y in zip(p_, c_))
                out.append(Case(f"{mode}#{r['COUNT']}.{b}", {"key": key, "pt": chain, "ct": keystream}))
                chain = keystream if mode == "ofb" else c_
    for i in range(n_random):
        key, pt = rng.randbytes(16), rng.randbytes(16)
        out.append(Case(f"random#{i}", {"key": key, "pt": pt, "ct": oracle(key, pt)}))
    return out
