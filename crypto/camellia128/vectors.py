"""Camellia-128 test cases: RFC 3713 Appendix A (128-bit key), NTT's Camellia test vectors for
128-bit keys (cryptography-vectors ciphers/Camellia/camellia-128-ecb.txt, from NTT's
t_camelia.txt: 10 keys x 128 plaintexts), the single-block encryptions inside OpenSSL's
Camellia CBC, CFB and OFB sets with 128-bit keys (camellia-{cbc,cfb,ofb}.txt, one block per
record: CBC encrypts plaintext ^ IV; CFB-128 and OFB encrypt the IV into ciphertext ^
plaintext), and random keys and blocks whose ciphertexts come from the `cryptography` package
(OpenSSL's Camellia, cryptography.hazmat.decrepit)."""
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
    for mode in ("cbc", "cfb", "ofb"):
        for _, r in parse_nist(cryptography_vectors_path("ciphers", "Camellia", f"camellia-{mode}.txt")):
            key, iv, pt, ct = (bytes.fromhex(r[x]) for x in ("KEY", "IV", "PLAINTEXT", "CIPHERTEXT"))
            if len(key) != 16:
                continue
            xor = bytes(x ^ y for x, y in zip(pt, iv if mode == "cbc" else ct))
            blk_in, blk_out = (xor, ct) if mode == "cbc" else (iv, xor)
            out.append(Case(f"openssl-{mode}#{r['COUNT']}", {"key": key, "pt": blk_in, "ct": blk_out}))
    for i in range(n_random):
        key, pt = rng.randbytes(16), rng.randbytes(16)
        out.append(Case(f"random#{i}", {"key": key, "pt": pt, "ct": oracle(key, pt)}))
    return out
