"""bigint-mul test cases; the oracle is Python's own integers.

Fields (little-endian; limbs are 32-bit little-endian words):
  n        limb count (4 bytes)
  a, b     full-radix operands (4n bytes), r = a * b (8n bytes)
  k        radix exponent for the reduced-radix fields (4 bytes), k <= max_k(n) (api.h)
  ra, rb   reduced-radix operands: n limbs, each < 2^k;  rr = ra * rb as 2n normalised limbs
Every n in NS gets edge cases (all-ones limbs, 2^(32n) - 1 squared, one times all-ones,
alternating limbs, halves equal / one half zero so that both Karatsuba signs and the zero
difference occur) and random operands.
"""
import random

try:
    from rvlab.testcase import Case
except ImportError:  # standalone use
    from collections import namedtuple
    Case = namedtuple("Case", "name fields")

NS = list(range(0, 33)) + [33, 40, 47, 48, 63, 64, 65, 96, 128]
BITS = (256, 512, 1024, 2048)   # the equal-size sweep of speed.c


def max_k(n):
    """bigint_mul_max_k of api.h: the largest k <= 30 with 3n * 2^k <= 2^32."""
    k = 30
    while k > 1 and (3 * n) << k > 1 << 32:
        k -= 1
    return k


def limbs(x, n, bits=32):
    m = (1 << bits) - 1
    return b"".join(((x >> (bits * i)) & m).to_bytes(4, "little") for i in range(n))


def u32(x):
    return x.to_bytes(4, "little")


def make_case(name, n, a, b, k, ra, rb):
    assert 0 <= a < 1 << (32 * n) and 0 <= b < 1 << (32 * n)
    assert 0 <= ra < 1 << (k * n) and 0 <= rb < 1 << (k * n)
    return Case(name, {
        "n": u32(n), "a": limbs(a, n), "b": limbs(b, n), "r": limbs(a * b, 2 * n),
        "k": u32(k), "ra": limbs(ra, n, k), "rb": limbs(rb, n, k), "rr": limbs(ra * rb, 2 * n, k),
    })


def edge_operands(n, bits):
    full = (1 << (bits * n)) - 1
    h = n // 2
    lo_h = (1 << (bits * h)) - 1
    alt = sum(((1 << bits) - 1) << (2 * bits * i) for i in range((n + 1) // 2)) & full
    ops = [
        ("allones", full, full),
        ("one-allones", 1 if n else 0, full),
        ("allones-top", full, full ^ ((1 << bits) - 1) if n else 0),
        ("alt", alt, full ^ alt),
        ("zero", 0, full),
        # Karatsuba: a0 < a1 and b1 < b0, equal halves, zero halves
        ("halves-lt", lo_h << (bits * h) if n else 0, lo_h),
        ("halves-eq", (lo_h << (bits * h)) | lo_h if n else 0, full),
        ("halves-top", (1 << (bits * n - 1)) if n else 0, (1 << (bits * h)) - 1 if n else 0),
    ]
    return ops


def cases(rng: random.Random, n_random: int):
    out = []
    # every limb count has its own code path (comba-fixed: one unrolled kernel per n), so each
    # gets at least 12 random cases whatever --random says (a third of them carry heavy)
    per_n = max(12, n_random // len(NS))
    for n in NS:
        k = max_k(n)
        ks = [k, min(k, 24)] if n <= 16 else [k]
        for kk in ks:
            e_full = edge_operands(n, 32)
            e_red = edge_operands(n, kk)
            for (nm, a, b), (_, ra, rb) in zip(e_full, e_red):
                out.append(make_case(f"n{n}-k{kk}-{nm}", n, a, b, kk, ra, rb))
        for i in range(per_n):
            kk = rng.choice(ks)
            if i % 3 == 2:   # limbs near the top of the range: carry heavy
                a = sum(rng.choice([0xFFFFFFFF, 0xFFFFFFFE, 0x80000000, 1, 0]) << (32 * j) for j in range(n))
                b = sum(rng.choice([0xFFFFFFFF, 0xFFFF0000, 0x7FFFFFFF]) << (32 * j) for j in range(n))
                m = (1 << kk) - 1
                ra = sum(rng.choice([m, m - 1, 1 << (kk - 1), 0]) << (kk * j) for j in range(n))
                rb = sum(rng.choice([m, m ^ 0xFF, 1]) << (kk * j) for j in range(n))
            else:
                a, b = rng.getrandbits(32 * n), rng.getrandbits(32 * n)
                ra, rb = rng.getrandbits(kk * n), rng.getrandbits(kk * n)
            out.append(make_case(f"n{n}-random{i}", n, a, b, kk, ra, rb))
    # the (n, k) pairs speed.c uses for the reduced radix at equal bit length
    for bits in BITS:
        n = 2
        while n * max_k(n) < bits:
            n += 2
        k = -(-bits // n)
        m = (1 << (k * n)) - 1
        out.append(make_case(f"bits{bits}-n{n}-k{k}-allones", n, (1 << 32 * n) - 1, (1 << 32 * n) - 1, k, m, m))
        out.append(make_case(f"bits{bits}-n{n}-k{k}-random", n, rng.getrandbits(32 * n),
                             rng.getrandbits(32 * n), k, rng.getrandbits(k * n), rng.getrandbits(k * n)))
    return out


if __name__ == "__main__":
    cs = cases(random.Random(1), 300)
    print(len(cs), "cases", sum(len(v) for c in cs for v in c.fields.values()), "bytes")
