"""Test-case helpers shared by the vectors.py of sha256, sha512 and sm3 (and hmac-sha256's
random lengths): NIST CAVP SHA-2 byte-oriented files (from cryptography-vectors), the CAVP
SHA-2 Monte Carlo chain, and random messages whose digests come from an oracle."""
import os

from rvlab.testcase import Case, cryptography_vectors_path, long_length, parse_nist

# outer iterations of the CAVP SHA-2 Monte Carlo test checked (1000 hashes each): 3 by default,
# all 100 with RVLAB_SHA2_MONTE=100
_MONTE = os.environ.get("RVLAB_SHA2_MONTE", "3")
if not _MONTE.isdigit() or not 1 <= int(_MONTE) <= 100:
    raise ValueError(f"RVLAB_SHA2_MONTE must be 1..100 (Monte Carlo checkpoints), not {_MONTE!r}")
MONTE_STEPS = int(_MONTE)


def cavp_msg_cases(name, oracle):
    """SHA<name>ShortMsg.rsp and SHA<name>LongMsg.rsp (byte-oriented: whole bytes only); each
    digest is also checked against the oracle, which the random cases then rely on."""
    out = []
    for kind in ("ShortMsg", "LongMsg"):
        fn = f"SHA{name}{kind}.rsp"
        for _, r in parse_nist(cryptography_vectors_path("hashes", "SHA2", fn)):
            nbits = int(r["LEN"])
            assert nbits % 8 == 0, f"{fn}: a bit-oriented length {nbits}"
            msg = bytes.fromhex(r["MSG"])[:nbits // 8]
            md = bytes.fromhex(r["MD"])
            assert oracle(msg) == md, f"{fn} len={nbits}: the oracle disagrees"
            out.append(Case(f"SHA{name}{kind}:len={nbits}", {"msg": msg, "md": md}))
    return out


def cavp_monte_cases(name, oracle):
    """SHA<name>Monte.rsp: MD[0] = MD[1] = MD[2] = Seed, MD[i] = H(MD[i-3] || MD[i-2] || MD[i-1])
    for i = 3..1002, checkpoint MD[1002], which seeds the next checkpoint (SHAVS §6.4)."""
    recs = parse_nist(cryptography_vectors_path("hashes", "SHA2", f"SHA{name}Monte.rsp"))
    seed = next(bytes.fromhex(r["SEED"]) for _, r in recs if "SEED" in r)
    mds = [bytes.fromhex(r["MD"]) for _, r in recs if "MD" in r]
    out = []
    for j in range(MONTE_STEPS):
        chain = [seed] * 3
        for _ in range(1000):
            chain = chain[1:] + [oracle(b"".join(chain))]
        assert chain[2] == mds[j], f"SHA{name}Monte count={j}: the oracle disagrees"
        out.append(Case(f"SHA{name}Monte:count={j}", {"seed": seed, "iterations": (1000).to_bytes(4, "little"),
                                                     "md": mds[j]}))
        seed = mds[j]
    return out


def example_cases(tag, examples, oracle):
    """(label, message, repeat, digest hex) published examples: each is also checked against
    the oracle; repeat > 1 becomes a `repeat` case (msg fed repeat times to update)."""
    out = []
    for label, msg, repeat, md in examples:
        md = bytes.fromhex(md)
        assert oracle(msg * repeat) == md, f"{tag} {label}: the oracle disagrees"
        f = {"msg": msg, "md": md}
        if repeat > 1:
            f["repeat"] = repeat.to_bytes(4, "little")
        out.append(Case(f"{tag}:{label}", f))
    return out


def sha2_cases(rng, n_random, examples, oracles, long):
    """the cases of a SHA-2 primitive with variants oracles = {"224": H, "256": H}: per variant
    the published examples (examples[variant]), CAVP ShortMsg, LongMsg and Monte Carlo, then
    random messages alternating between the variants"""
    out = []
    for name, h in oracles.items():
        out += example_cases(f"FIPS180-2:SHA{name}", examples[name], h)
        out += cavp_msg_cases(name, h)
        out += cavp_monte_cases(name, h)
    return out + random_cases(rng, n_random, long, [(f"SHA{n}", h) for n, h in oracles.items()])


def short_lengths(slots):
    """The lengths 0..300 the first `slots` cases take, in order: all of them when there are
    301 slots or more; with fewer (the default 200 cases), every length up to 129 (one
    SHA-512 block and two SHA-256/SM3 blocks), each padding boundary up to 300 (a block
    boundary and where the length field stops fitting: 64-byte blocks with 9 bytes of padding,
    128-byte blocks with 17) and evenly spaced lengths between, so 0..300 is always covered."""
    if slots >= 301:
        return list(range(301))
    must = set(range(130)) | {300}
    for block, pad in ((64, 9), (128, 17)):
        for end in range(block, 301 + block, block):
            must |= {n for n in (end - pad - 1, end - pad, end - pad + 1, end - 1, end, end + 1) if n <= 300}
    rest = [n for n in range(301) if n not in must]
    k = max(0, slots - len(must))
    picks = {rest[j * len(rest) // k] for j in range(k)} if k else set()
    return sorted(must | picks)[:slots]


def random_length(rng, i, n_random, long):
    """lengths 0..300 in order first (short_lengths), then random ones in 0..300 with every 8th
    up to 4096 bytes; the last len(long) cases are the long messages of `long`"""
    n = long_length(i, n_random, long)
    if n is not None:
        return n
    short = short_lengths(n_random - len(long))
    if i < len(short):
        return short[i]
    return rng.randrange(0, 301) if i % 8 else rng.randrange(301, 4097)


def random_cases(rng, n_random, long, oracles):
    """oracles: [(tag, H)]; case i uses oracles[i % len(oracles)]"""
    out = []
    for i in range(n_random):
        n = random_length(rng, i, n_random, long)
        tag, h = oracles[i % len(oracles)]
        msg = rng.randbytes(n)
        out.append(Case(f"random#{i}:{tag}:len={n}", {"msg": msg, "md": h(msg)}))
    return out
