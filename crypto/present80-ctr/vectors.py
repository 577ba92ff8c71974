"""PRESENT-80-CTR test cases.  There are no published PRESENT-CTR vectors, but the counter
block is the whole 64-bit block, so the CHES 2007 vectors are CTR vectors too: with iv = P
the first keystream block is E_K(P) = C, and with iv = ff..ff and key K the two blocks are
E_K(ff..ff) || E_K(00..00) (the counter wraps) -- those come first, from the paper alone.
The random cases' expected values come from crypto/present80/ref.py in counter mode
(ref.ctr_xor), whose block cipher tests/test_present80_ref.py checks against the same vectors.
Lengths: 0..200 in order (block boundaries), then random lengths, and the speed program's 4096
bytes plus lengths ending mid-block; every 4th case puts the counter next to a carry out of its
low byte, word or the whole 64 bits."""
import random
import sys
from pathlib import Path

from rvlab.testcase import Case, long_length

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "present80"))
import ref  # noqa: E402
from vectors import PAPER_80  # noqa: E402  (crypto/present80/vectors.py)

MAX_LEN = 4096          # test.c's buffers
RANDOM_MAX_LEN = 700
LONG = [4096, 4095, 1031]
CARRY_NEAR = [2**8, 2**16, 2**32, 2**64]     # the counter runs across one of these


def paper_cases() -> list:
    """The CHES 2007 PRESENT-80 vectors as counter-mode cases (zero plaintext: out = keystream)."""
    out = []
    enc = {(k, p): bytes.fromhex(c) for k, p, c in PAPER_80}
    for i, (k, p, c) in enumerate(PAPER_80):
        out.append(Case(f"ches2007#{i}:iv=P", {"key": bytes.fromhex(k), "iv": bytes.fromhex(p),
                                               "pt": bytes(8), "ct": bytes.fromhex(c)}))
    for k in ("00000000000000000000", "ffffffffffffffffffff"):
        ks = enc[(k, "ffffffffffffffff")] + enc[(k, "0000000000000000")]
        out.append(Case(f"ches2007:key={k[:2]}:counter_wraps", {"key": bytes.fromhex(k), "iv": b"\xff" * 8,
                                                                 "pt": bytes(16), "ct": ks}))
    return out


def cases(rng: random.Random, n_random: int) -> list:
    out = paper_cases()
    for i in range(n_random):
        long_n = long_length(i, n_random, LONG)
        n = long_n if long_n is not None else i if i <= 200 else rng.randrange(0, RANDOM_MAX_LEN + 1)
        assert n <= MAX_LEN
        key, iv = rng.randbytes(10), rng.randbytes(8)
        if i % 4 == 3 or long_n is not None:
            edge = CARRY_NEAR[(i // 4) % len(CARRY_NEAR)]
            base = int.from_bytes(iv, "big") & ~(edge - 1) & (2**64 - 1)
            iv = ((base + edge - rng.randrange(1, max(2, min(n // 8 + 1, 40)))) % 2**64).to_bytes(8, "big")
        pt = rng.randbytes(n)
        out.append(Case(f"random#{i}:len={n}", {"key": key, "iv": iv, "pt": pt,
                                                "ct": ref.ctr_xor(key, iv, pt)}))
    return out
