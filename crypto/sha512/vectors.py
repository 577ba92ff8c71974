"""SHA-384/SHA-512 test cases: the FIPS 180-2 examples (Appendix C and D; as repeated in
RFC 6234 §8.4), NIST CAVP SHA-384/SHA-512 ShortMsg, LongMsg and Monte Carlo (byte-oriented,
SHAVS; from cryptography-vectors), and random messages checked by hashlib.  The digest
length (48 or 64 bytes) tells test.c which of the two to run."""
import hashlib
import os
import random
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
for _d in (_HERE, os.path.join(_HERE, "..", "sha256")):    # ../sha256/mdvectors.py: shared helpers
    if _d not in sys.path:
        sys.path.insert(0, _d)
from mdvectors import sha2_cases  # noqa: E402

# the last random cases, whatever --random is: the speed program's 4096 bytes (32 blocks and a
# padding block), 4095, and 1135/1136 (the padding fills the last block exactly / needs one more)
LONG = [4096, 4095, 1136, 1135]

TWO_BLOCK = (b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
             b"ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu")
EXAMPLES = {   # (label, message, repeat, digest) as published
    "384": [("abc", b"abc", 1, "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
                               "8086072ba1e7cc2358baeca134c825a7"),
            ("896bit", TWO_BLOCK, 1, "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712"
                                     "fcc7c71a557e2db966c3e9fa91746039"),
            ("million-a", b"a" * 1000, 1000, "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b"
                                             "07b8b3dc38ecc4ebae97ddd87f3d8985")],
    "512": [("abc", b"abc", 1, "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                               "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
            ("896bit", TWO_BLOCK, 1, "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
                                     "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"),
            ("million-a", b"a" * 1000, 1000, "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
                                             "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b")],
}
ORACLES = {"384": lambda m: hashlib.sha384(m).digest(), "512": lambda m: hashlib.sha512(m).digest()}


def cases(rng: random.Random, n_random: int) -> list:
    return sha2_cases(rng, n_random, EXAMPLES, ORACLES, LONG)
