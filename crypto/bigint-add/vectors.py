"""bigint-add test cases; the oracle is Python's own integers.

Fields (all integers little-endian; limbs are 32-bit little-endian words):
  n      limb count (4 bytes)
  a, b   full-radix operands (4n bytes);  s = (a + b) mod 2^(32n);  c = carry out (4 bytes)
  k      radix exponent of the reduced-radix fields (4 bytes)
  ra, rb reduced-radix limbs (< 2^(k+2): operands that already went through a few additions)
  rs     limb-wise sum ra[i] + rb[i] (no carries)
  rn     rs carried back to radix 2^k (limbs < 2^k), rc = carry out of the top limb (4 bytes)
"""
import random

try:
    from rvlab.testcase import Case
except ImportError:  # standalone use
    from collections import namedtuple
    Case = namedtuple("Case", "name fields")

NS = list(range(0, 33)) + [37, 48, 64, 74]   # 37, 74: ceil(1024/28), ceil(2048/28) of speed.c
K_VALUES = (28, 27, 24, 31, 16)


def limbs_to_bytes(limbs):
    return b"".join((x & 0xFFFFFFFF).to_bytes(4, "little") for x in limbs)


def to_limbs(x, n, bits=32):
    m = (1 << bits) - 1
    return [(x >> (bits * i)) & m for i in range(n)]


def from_limbs(limbs, bits=32):
    return sum(v << (bits * i) for i, v in enumerate(limbs))


def u32(x):
    return (x & 0xFFFFFFFF).to_bytes(4, "little")


def make_case(name, n, a, b, k, ra, rb):
    mask = (1 << (32 * n)) - 1
    s = a + b
    rs = [x + y for x, y in zip(ra, rb)]
    assert all(v < 2**32 for v in rs)
    # normalisation: value of rs as radix-2^k number
    val = sum(v << (k * i) for i, v in enumerate(rs))
    rn = to_limbs(val, n, k)
    rc = val >> (k * n)
    return Case(name, {
        "n": u32(n), "a": limbs_to_bytes(to_limbs(a, n)), "b": limbs_to_bytes(to_limbs(b, n)),
        "s": limbs_to_bytes(to_limbs(s & mask, n)), "c": u32(s >> (32 * n)),
        "k": u32(k), "ra": limbs_to_bytes(ra), "rb": limbs_to_bytes(rb),
        "rs": limbs_to_bytes(rs), "rn": limbs_to_bytes(rn), "rc": u32(rc),
    })


def cases(rng: random.Random, n_random: int):
    out = []
    # at least 12 random cases per limb count whatever --random says (each n has its own loop
    # trip counts and tails)
    per_n = max(12, n_random // len(NS))
    for n in NS:
        full = (1 << (32 * n)) - 1
        for j, k in enumerate(K_VALUES):
            if j >= 2 and n > 8:
                break
            km = (1 << k) - 1
            top = (1 << min(k + 2, 31)) - 1
            # carry-heavy edge cases
            out.append(make_case(f"n{n}-k{k}-allones", n, full, full, k, [km] * n, [km] * n))
            out.append(make_case(f"n{n}-k{k}-ripple", n, full, 1 if n else 0, k, [km] * n,
                                 ([1] + [0] * (n - 1)) if n else []))
            out.append(make_case(f"n{n}-k{k}-max", n, full, full - 1 if n else 0, k,
                                 [top] * n, [top] * n))
            alt = sum(0xFFFFFFFF << (64 * i) for i in range((n + 1) // 2)) & full
            out.append(make_case(f"n{n}-k{k}-alt", n, alt, full ^ alt, k,
                                 [km if i % 2 else 0 for i in range(n)],
                                 [0 if i % 2 else km for i in range(n)]))
        for i in range(per_n):
            k = rng.choice(K_VALUES)
            a, b = rng.getrandbits(32 * n), rng.getrandbits(32 * n)
            ra = [rng.getrandbits(min(k + 2, 31)) for _ in range(n)]
            rb = [rng.getrandbits(min(k + 2, 31)) for _ in range(n)]
            out.append(make_case(f"n{n}-random{i}", n, a, b, k, ra, rb))
    return out


if __name__ == "__main__":
    print(len(cases(random.Random(1), 200)), "cases")
