"""TDEA test cases: the NIST CAVP TDES ECB known-answer tests (variable key, variable text,
permutation operation, substitution table, inverse permutation: one key used three times) and
multi-block message tests (MMT1: K1 = K2 = K3, MMT2: K1 = K3, MMT3: three keys; split into
blocks), from cryptography-vectors; then random three-key cases checked by pycryptodome's DES3.
Both [ENCRYPT] and [DECRYPT] records become (key, pt, ct) cases: test.c runs both directions."""
import random

from Crypto.Cipher import DES3

from rvlab.testcase import Case, cryptography_vectors_path, parse_nist

KAT = ["TECBvarkey.rsp", "TECBvartext.rsp", "TECBpermop.rsp", "TECBsubtab.rsp", "TECBinvperm.rsp"]
MMT = ["TECBMMT1.rsp", "TECBMMT2.rsp", "TECBMMT3.rsp"]


def oracle(key: bytes, pt: bytes) -> bytes:
    """pycryptodome's DES3 (EDE); it refuses keys that degenerate to single DES (K1 = K2 or
    K2 = K3 up to parity), which random keys almost never are (cases() redraws them)"""
    return DES3.new(key, DES3.MODE_ECB).encrypt(pt)


def cases(rng: random.Random, n_random: int) -> list:
    out, seen = [], set()

    def add(name, key, pt, ct):
        if (key, pt) not in seen:
            seen.add((key, pt))
            out.append(Case(name, {"key": key, "pt": pt, "ct": ct}))

    for fn in KAT + MMT:
        for section, r in parse_nist(cryptography_vectors_path("ciphers", "3DES", "ECB", fn)):
            if "KEYS" in r:
                key = bytes.fromhex(r["KEYS"]) * 3
            else:
                key = b"".join(bytes.fromhex(r[f"KEY{i}"]) for i in (1, 2, 3))
            pt, ct = bytes.fromhex(r["PLAINTEXT"]), bytes.fromhex(r["CIPHERTEXT"])
            for b in range(len(pt) // 8):
                suffix = f".{b}" if len(pt) > 8 else ""
                add(f"{fn[:-4]}:{section.lower()}#{r['COUNT']}{suffix}", key, pt[8 * b:8 * b + 8], ct[8 * b:8 * b + 8])
    for i in range(n_random):
        while True:
            key, pt = rng.randbytes(24), rng.randbytes(8)
            try:
                ct = oracle(key, pt)
                break
            except ValueError:          # degenerate key: draw again
                continue
        add(f"random#{i}", key, pt, ct)
    return out
