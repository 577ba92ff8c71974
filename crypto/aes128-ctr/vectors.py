"""AES-128-CTR test cases, and AES-256-CTR's (../aes256-ctr/vectors.py calls ctr_cases with a
32-byte key): NIST SP 800-38A F.5.1 / F.5.5, RFC 3686 (cryptography-vectors: vectors 1-3 /
7-9), and random cases checked against pycryptodome (AES-CTR with a 32-bit big-endian counter
in the last 4 bytes of the IV; counter wrap-around cases against pycryptodome's AES-ECB), then
multi-batch cases whose counters cross carries (CARRY)."""
import random

from Crypto.Cipher import AES

from rvlab.testcase import Case, cryptography_vectors_path, long_length, parse_nist

KEY_BYTES = 16          # test.c: AESCTR_KEY_BYTES
MAX_LEN = 4096          # test.c's buffers
RANDOM_MAX_LEN = 1040   # random lengths after the in-order sweep (keeps --random 5000 programs small)
# the last random cases, whatever --random is: the speed programs' 4096 bytes (32 batches of
# 8 blocks), 8 batches + 1 block, and two lengths that end in a partial batch and a partial
# block (4095 = 31 batches + 7 blocks + 15 bytes, 1167 = 9 batches + 15 bytes); those two
# also wrap the counter mid-message
LONG = [4096, 1040, 4095, 1167]
LONG_WRAP = (4095, 1167)
# after the random cases: first counters next to a carry into counter byte 14, 13 or 12, or the
# wrap mod 2^32, over several 8-block batches (the bitsliced kernels reuse round 1's share of
# rows 0-2 from batch to batch while counter bytes 12..14 stay the same): (counter, length)
# (0xe9, 0x0000ffe3 and 0xffffffd9: a batch that straddles the carry after batches that did not)
CARRY = [(0x000000f0, 645), (0x000000e9, 645), (0x000001ff, 645), (0x0000ffe3, 645),
         (0x00fffff4, 645), (0xffffffe0, 645), (0xffffffd9, 645), (0x123456c3, 1040)]


def oracle(key: bytes, iv: bytes, pt: bytes) -> bytes:
    nblocks = (len(pt) + 15) // 16
    ctr = int.from_bytes(iv[12:], "big")
    if ctr + nblocks <= 2**32:
        return AES.new(key, AES.MODE_CTR, nonce=iv[:12], initial_value=iv[12:]).encrypt(pt)
    # pycryptodome refuses to wrap the counter: build the keystream from ECB
    ecb = AES.new(key, AES.MODE_ECB)
    ks = b"".join(ecb.encrypt(iv[:12] + ((ctr + i) % 2**32).to_bytes(4, "big"))
                  for i in range(nblocks))
    return bytes(a ^ b for a, b in zip(pt, ks))


# NIST SP 800-38A, F.5.1 CTR-AES128.Encrypt and F.5.5 CTR-AES256.Encrypt (typed from the
# standard; the same iv and plaintext): key size -> (section, key, ciphertext)
SP800_38A = {
    16: ("F.5.1", "2b7e151628aed2a6abf7158809cf4f3c",
         "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"
         "5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee"),
    32: ("F.5.5", "603deb1015ca71be2b73aef0857d7781" "1f352c073b6108d72d9810a30914dff4",
         "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5"
         "2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6"),
}


def cases(rng: random.Random, n_random: int) -> list:
    return ctr_cases(rng, n_random, KEY_BYTES)


def ctr_cases(rng: random.Random, n_random: int, key_bytes: int) -> list:
    """the cases for AES with a key of key_bytes bytes (16 or 32)"""
    out = []
    section, key, ct = SP800_38A[key_bytes]
    key, ct = bytes.fromhex(key), bytes.fromhex(ct)
    iv = bytes.fromhex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")
    pt = bytes.fromhex("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
                       "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710")
    assert oracle(key, iv, pt) == ct, f"pycryptodome disagrees with SP 800-38A {section}"
    out.append(Case(f"sp800-38a-{section}", {"key": key, "iv": iv, "pt": pt, "ct": ct}))
    # RFC 3686 test vectors for the key size (cryptography-vectors: IV = the full initial
    # counter block)
    for _, r in parse_nist(cryptography_vectors_path("ciphers", "AES", "CTR", f"aes-{8 * key_bytes}-ctr.txt")):
        key, iv = bytes.fromhex(r["KEY"]), bytes.fromhex(r["IV"])
        pt, ct = bytes.fromhex(r["PLAINTEXT"]), bytes.fromhex(r["CIPHERTEXT"])
        assert len(key) == key_bytes
        assert oracle(key, iv, pt) == ct
        out.append(Case(f"rfc3686#{r['COUNT']}", {"key": key, "iv": iv, "pt": pt, "ct": ct}))
    # random: lengths 0..300 in order first (batch and block boundaries), then random
    # lengths up to RANDOM_MAX_LEN; every 4th case puts the counter next to 2^32 (wrap-around);
    # the last len(LONG) cases are the LONG lengths
    for i in range(n_random):
        long_n = long_length(i, n_random, LONG)
        n = long_n if long_n is not None else i if i <= 300 else rng.randrange(0, RANDOM_MAX_LEN + 1)
        assert n <= MAX_LEN
        key, iv, pt = rng.randbytes(key_bytes), bytearray(rng.randbytes(16)), rng.randbytes(n)
        if long_n is None:
            if i % 4 == 3:
                iv[12:] = (2**32 - rng.randrange(1, 80)).to_bytes(4, "big")
        elif long_n in LONG_WRAP:     # wraps after 1..(blocks - 1) blocks
            iv[12:] = (2**32 - rng.randrange(1, n // 16)).to_bytes(4, "big")
        iv = bytes(iv)
        out.append(Case(f"random#{i}:len={n}", {"key": key, "iv": iv, "pt": pt,
                                                "ct": oracle(key, iv, pt)}))
    for ctr, n in CARRY:
        key, pt = rng.randbytes(key_bytes), rng.randbytes(n)
        iv = rng.randbytes(12) + ctr.to_bytes(4, "big")
        out.append(Case(f"carry:ctr={ctr:08x}:len={n}", {"key": key, "iv": iv, "pt": pt,
                                                           "ct": oracle(key, iv, pt)}))
    return out
