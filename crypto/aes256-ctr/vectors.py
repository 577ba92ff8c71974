"""AES-256-CTR test cases: aes128-ctr's (../aes128-ctr/vectors.py) with a 32-byte key: NIST SP
800-38A F.5.5, RFC 3686 vectors 7-9, the random, long and counter-carry cases."""
import importlib.util
import random
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "aes128ctr_vectors", Path(__file__).resolve().parent.parent / "aes128-ctr" / "vectors.py")
_aes128ctr = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_aes128ctr)

KEY_BYTES = 32          # test.c: AESCTR_KEY_BYTES
MAX_LEN = _aes128ctr.MAX_LEN


def cases(rng: random.Random, n_random: int) -> list:
    return _aes128ctr.ctr_cases(rng, n_random, KEY_BYTES)
