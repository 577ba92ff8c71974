"""ChaCha20 test cases: RFC 8439 vectors plus random cases checked by pycryptodome."""
import random

from Crypto.Cipher import ChaCha20

from rvlab.testcase import Case, cryptography_vectors_path, long_length, parse_nist

MAX_LEN = 4096          # test.c's buffers
RANDOM_MAX_LEN = 1024   # random lengths after the in-order sweep
# the last random cases, whatever --random is: the speed program's 4096 bytes (64 blocks),
# 16 blocks + 16 bytes, and two that end mid-block (4095, 1087 = 16 blocks + 63 bytes)
LONG = [4096, 1040, 4095, 1087]


def oracle(key: bytes, nonce: bytes, counter: int, pt: bytes) -> bytes:
    c = ChaCha20.new(key=key, nonce=nonce)
    c.seek(64 * counter)
    return c.encrypt(pt)


def cases(rng: random.Random, n_random: int) -> list:
    out = []
    # RFC 7539/8439 Appendix A.2 (cryptography-vectors' NIST-form copy)
    for _, r in parse_nist(cryptography_vectors_path("ciphers", "ChaCha20", "rfc7539.txt")):
        out.append(Case(f"rfc8439-A.2#{r['COUNT']}", {
            "key": bytes.fromhex(r["KEY"]), "nonce": bytes.fromhex(r["NONCE"]),
            "counter": int(r["INITIAL_BLOCK_COUNTER"]).to_bytes(4, "little"),
            "pt": bytes.fromhex(r["PLAINTEXT"]), "ct": bytes.fromhex(r["CIPHERTEXT"])}))
    # RFC 8439 §2.4.2 (the "sunscreen" example), typed from the RFC
    key = bytes(range(32))
    nonce = bytes.fromhex("000000000000004a00000000")
    pt = (b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip "
          b"for the future, sunscreen would be it.")
    ct_prefix = bytes.fromhex("6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b")
    full = oracle(key, nonce, 1, pt)
    assert full[:32] == ct_prefix, "pycryptodome disagrees with RFC 8439 §2.4.2"
    out.append(Case("rfc8439-2.4.2", {"key": key, "nonce": nonce,
                                      "counter": (1).to_bytes(4, "little"), "pt": pt, "ct": full}))
    # random: every length 0..130 once for block-boundary coverage, then random lengths;
    # the last len(LONG) cases are the LONG lengths
    for i in range(n_random):
        n = long_length(i, n_random, LONG)
        if n is None:
            n = i if i <= 130 else rng.choice([rng.randrange(0, 257), rng.randrange(0, RANDOM_MAX_LEN + 1)])
        assert n <= MAX_LEN
        key = rng.randbytes(32)
        nonce = rng.randbytes(12)
        counter = rng.choice([0, 1, rng.randrange(0, 2**32 - 64), 2**32 - 1 - (n + 63) // 64])
        pt = rng.randbytes(n)
        out.append(Case(f"random#{i}:len={n}", {
            "key": key, "nonce": nonce, "counter": counter.to_bytes(4, "little"),
            "pt": pt, "ct": oracle(key, nonce, counter, pt)}))
    return out
