"""AES-128 test cases: NIST CAVP ECB vectors (KAT + MMT, split into blocks), FIPS 197
Appendix C.1, and random cases checked by pycryptodome."""
import random

from Crypto.Cipher import AES

from rvlab.testcase import Case, cryptography_vectors_path, parse_nist

FILES = ["ECBGFSbox128.rsp", "ECBKeySbox128.rsp", "ECBVarKey128.rsp", "ECBVarTxt128.rsp", "ECBMMT128.rsp"]


def cases(rng: random.Random, n_random: int) -> list:
    out, seen = [], set()

    def add(name, key, pt, ct):
        if (key, pt) in seen:
            return
        seen.add((key, pt))
        out.append(Case(name, {"key": key, "pt": pt, "ct": ct}))

    # FIPS 197 Appendix C.1, typed from the standard
    add("fips197-C.1", bytes(range(16)), bytes.fromhex("00112233445566778899aabbccddeeff"),
        bytes.fromhex("69c4e0d86a7b0430d8cdb78070b4c55a"))
    for fn in FILES:
        for section, r in parse_nist(cryptography_vectors_path("ciphers", "AES", "ECB", fn)):
            key, pt, ct = (bytes.fromhex(r[k]) for k in ("KEY", "PLAINTEXT", "CIPHERTEXT"))
            for b in range(len(pt) // 16):
                suffix = f".{b}" if len(pt) > 16 else ""
                add(f"{fn[:-4]}:{section.lower()}#{r['COUNT']}{suffix}", key,
                    pt[16 * b:16 * b + 16], ct[16 * b:16 * b + 16])
    for i in range(n_random):
        key, pt = rng.randbytes(16), rng.randbytes(16)
        add(f"random#{i}", key, pt, AES.new(key, AES.MODE_ECB).encrypt(pt))
    return out
