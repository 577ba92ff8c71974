"""HIGHT test cases: the specification's four reference vectors, the KISA reference code's
vector, and random cases whose expected values come from ref.py (checked against those same
vectors by tests/test_hight_ref.py)."""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ref  # noqa: E402

from rvlab.testcase import Case  # noqa: E402

# TTAK.KO-12.0040/R1 (the KISA/TTA HIGHT standard), Appendix I.1-I.4 "reference values" 1-4,
# pp. 21-24; the same four are in Hong et al., CHES 2006. The standard writes MK15..MK0, P7..P0
# and C7..C0 (most significant byte first): reversed here into array order (byte i = MK_i).
SPEC = [
    ("00112233445566778899aabbccddeeff", "0000000000000000", "00f418aed94f03f2"),
    ("ffeeddccbbaa99887766554433221100", "0011223344556677", "23ce9f72e543e6d8"),
    ("000102030405060708090a0b0c0d0e0f", "0123456789abcdef", "7a6fb2a28d23f466"),
    ("28dbc3bc49ffd87dcfa509b11d422be7", "b41e6be2eba84a14", "cc047a75209c1fc6"),
]
# KISA's reference C code vector (array order already), as Crypto++ TestVectors/hight.txt has it
KISA_CODE = [("88e34f8f081779f1e9f394370ad40589", "d76d0d18327ec562", "e4bc2e312277e4dd")]


def spec_vectors() -> list[tuple[str, bytes, bytes, bytes]]:
    out = []
    for i, (k, p, c) in enumerate(SPEC):
        out.append((f"tta-I.{i + 1}", bytes.fromhex(k)[::-1], bytes.fromhex(p)[::-1], bytes.fromhex(c)[::-1]))
    for i, (k, p, c) in enumerate(KISA_CODE):
        out.append((f"kisa-code#{i}", bytes.fromhex(k), bytes.fromhex(p), bytes.fromhex(c)))
    return out


def cases(rng: random.Random, n_random: int) -> list:
    out = [Case(name, {"key": k, "pt": p, "ct": c}) for name, k, p, c in spec_vectors()]
    for i in range(n_random):
        key, pt = rng.randbytes(16), rng.randbytes(8)
        out.append(Case(f"random#{i}", {"key": key, "pt": pt, "ct": ref.encrypt(key, pt)}))
    return out
