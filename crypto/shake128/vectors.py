"""SHAKE128 test cases: NIST CAVP SHAKE128 ShortMsg, LongMsg and VariableOut (FIPS 202,
byte-oriented; from cryptography-vectors), and random messages/output lengths checked by
pycryptodome."""
import random

from Crypto.Hash import SHAKE128

from rvlab.testcase import Case, cryptography_vectors_path, long_length, parse_nist

MAX_OUT = 512   # test.c's output buffer
# the last random cases, whatever --random is: the speed program's 4096 bytes (24 blocks of the
# 168-byte rate + 64), 4095, 7 blocks exactly (1176: the padding takes a block of its own) and
# 1175 (the pad bytes 0x1f and 0x80 share the last byte); all up to test.c's MAX_COPY
LONG = [4096, 4095, 1176, 1175]


def oracle(msg: bytes, outlen: int) -> bytes:
    return SHAKE128.new(msg).read(outlen)


def cases(rng: random.Random, n_random: int) -> list:
    out = []
    for fn in ("SHAKE128ShortMsg.rsp", "SHAKE128LongMsg.rsp", "SHAKE128VariableOut.rsp"):
        for section, r in parse_nist(cryptography_vectors_path("hashes", "SHAKE", fn)):
            if "LEN" in r:
                nbits = int(r["LEN"])
            else:
                nbits = 4 * len(r["MSG"])   # VariableOut: byte-oriented, [Input Length = 128]
            if nbits % 8:
                continue
            msg = bytes.fromhex(r["MSG"])[:nbits // 8]
            assert len(msg) * 8 == nbits
            exp = bytes.fromhex(r["OUTPUT"])
            if "OUTPUTLEN" in r:
                obits = int(r["OUTPUTLEN"])
                if obits % 8:
                    continue
                exp = exp[:obits // 8]
            assert oracle(msg, len(exp)) == exp
            tag = f"count={r['COUNT']}" if "COUNT" in r else f"len={nbits}"
            out.append(Case(f"{fn[:-4]}:{tag}", {"msg": msg, "outlen": len(exp).to_bytes(4, "little"),
                                                  "out": exp}))
    for i in range(n_random):
        n = long_length(i, n_random, LONG)
        if n is None:
            n = i if i <= 200 else rng.randrange(0, 1025)
        outlen = rng.choice([0, 1, 16, 32, 167, 168, 169, 336, 337, rng.randrange(0, MAX_OUT + 1)])
        msg = rng.randbytes(n)
        out.append(Case(f"random#{i}:len={n}:out={outlen}",
                        {"msg": msg, "outlen": outlen.to_bytes(4, "little"), "out": oracle(msg, outlen)}))
    return out
