"""Camellia-128 test cases: RFC 3713 Appendix A (128-bit key), NTT's Camellia test vectors for
128-bit keys (cryptography-vectors ciphers/Camellia/camellia-128-ecb.txt, from NTT's
t_camelia.txt: 10 keys x 128 plaintexts), the ECB-decomposed blocks of the OpenSSL Camellia-CBC
set with 128-bit keys (camellia-cbc.txt: each ciphertext block encrypts plaintext xor the previous
ciphertext block), and random keys and blocks whose ciphertexts come from the `cryptography`
package (OpenSSL's Camellia, cryptography.hazmat.decrepit)."""
import random

from cryptography.hazmat.decrepit.ciphers.algorithms import Camellia
from cryptography.hazmat.primitives.ciphers import Cipher, modes

from rvlab.testcase import Case, cryptography_vectors_path, parse_nist


def oracle(key: bytes, pt: bytes) -> bytes:
    enc = Cipher(Camellia(key), modes.ECB()).encryptor()
    return enc.update(pt) + enc.finalize()


def ntt_cases() -> list:
    """camellia-128-ecb.txt: 'K No.nnn : hex', then pairs 'P No.nnn : hex' / 'C No.nnn : hex'."""
    out, key, pt, knum = [], None, None, None
    with open(cryptography_vectors_path("ciphers", "Camellia", "camellia-128-ecb.txt"), encoding="ascii") as f:
        for line in f:
            if not line[:1] in "KPC" or " : " not in line:
                continue
            tag, value = line.split(" : ")
            num, data = tag.split("No.")[1].strip(), bytes.fromhex(value)
            if tag[0] == "K":
                key, knum = data, num
            elif tag[0] == "P":
                pt = data
            else:
                out.append(Case(f"ntt-K{knum}:P{num}", {"key": key, "pt": pt, "ct": data}))
    return out


def cases(rng: random.Random, n_random: int) -> list:
    k = bytes.fromhex("0123456789abcdeffedcba9876543210")        # RFC 3713 Appendix A, typed in
    out = [Case("rfc3713-A:128", {"key": k, "pt": k, "ct": bytes.fromhex("67673138549669730857065648eabe43")})]
    out += ntt_cases()
    for _, r in parse_nist(cryptography_vectors_path("ciphers", "Camellia", "camellia-cbc.txt")):
        key, chain, pt, ct = (bytes.fromhex(r[x]) for x in ("KEY", "IV", "PLAINTEXT", "CIPHERTEXT"))
        if len(key) != 16:
            continue
        block = bytes(x ^ y for x, y in zip(pt, chain))
        out.append(Case(f"openssl-cbc#{r['COUNT']}", {"key": key, "pt": block, "ct": ct}))
    for i in range(n_random):
        key, pt = rng.randbytes(16), rng.randbytes(16)
        out.append(Case(f"random#{i}", {"key": key, "pt": pt, "ct": oracle(key, pt)}))
    return out
