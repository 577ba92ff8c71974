"""SHA3-256 test cases: NIST CAVP SHA3-256 ShortMsg and LongMsg (FIPS 202, byte-oriented;
from cryptography-vectors), the Monte Carlo chain's first outputs, and random messages
checked by pycryptodome."""
import os
import random

from Crypto.Hash import SHA3_256

from rvlab.testcase import Case, cryptography_vectors_path, long_length, parse_nist

# the last random cases, whatever --random is (the CAVP LongMsg cases are long too, but only
# those up to test.c's MAX_COPY bytes also run from a misaligned copy): the speed program's
# 4096 bytes (30 blocks of the 136-byte rate + 16), 4095, 8 blocks exactly (1088: the padding
# takes a block of its own) and 1087 (the pad bytes 0x06 and 0x80 share the last byte)
LONG = [4096, 4095, 1088, 1087]

# outer iterations of the CAVP Monte Carlo test checked (1000 hashes each): 3 by default, all
# 100 with RVLAB_SHA3_MONTE=100 (about 1.5 G simulated instructions per implementation)
MONTE_STEPS = os.environ.get("RVLAB_SHA3_MONTE", "3")
if not MONTE_STEPS.isdigit() or not 1 <= int(MONTE_STEPS) <= 100:
    raise ValueError(f"RVLAB_SHA3_MONTE must be 1..100 (Monte Carlo checkpoints), not {MONTE_STEPS!r}")
MONTE_STEPS = int(MONTE_STEPS)


def oracle(msg: bytes) -> bytes:
    return SHA3_256.new(msg).digest()


def cases(rng: random.Random, n_random: int) -> list:
    out = []
    for fn in ("SHA3_256ShortMsg.rsp", "SHA3_256LongMsg.rsp"):
        for _, r in parse_nist(cryptography_vectors_path("hashes", "SHA3", fn)):
            nbits = int(r["LEN"])
            if nbits % 8:
                continue
            msg = bytes.fromhex(r["MSG"])[:nbits // 8]
            md = bytes.fromhex(r["MD"])
            assert oracle(msg) == md
            out.append(Case(f"{fn[:-4]}:len={nbits}", {"msg": msg, "md": md}))
    # CAVP Monte Carlo (SHA3 form): MD[0] = Seed; MD[i] = SHA3(MD[i-1]), checkpoint every 1000
    recs = parse_nist(cryptography_vectors_path("hashes", "SHA3", "SHA3_256Monte.rsp"))
    seed = next(bytes.fromhex(r["SEED"]) for _, r in recs if "SEED" in r)
    mds = [bytes.fromhex(r["MD"]) for _, r in recs if "MD" in r]
    md = seed
    for j in range(MONTE_STEPS):
        prev = md
        for _ in range(1000):
            md = oracle(md)
        assert md == mds[j]
        out.append(Case(f"SHA3_256Monte:count={j}", {"seed": prev, "iterations": (1000).to_bytes(4, "little"),
                                                      "md": md}))
    for i in range(n_random):
        n = long_length(i, n_random, LONG)
        if n is None:
            n = i if i <= 300 else rng.randrange(0, 2049)
        msg = rng.randbytes(n)
        out.append(Case(f"random#{i}:len={n}", {"msg": msg, "md": oracle(msg)}))
    return out
