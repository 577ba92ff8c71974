"""Generates the 128-bit constant-time comb kernels: ct (RV32I) and ct-x (xpolymul).

r = a * b in GF(2)[x], 128 x 128 -> 256 bits. No branch, no secret-dependent address:
for every bit i of every word a[k], (b << i) is added into c[k..k+4] under a mask
m = -(bit) (ct) or with andbnexadd, which adds rs2 into rd iff bit 31 of rs1 is set (ct-x).
Base ISA: (b << i) is formed once per bit position i and shared by the four words of a.
"""
from rvgen import Block, build, run_main


def gen(ext=False, W=0):
    B = Block()
    rp, ap, bp = "%rp", "%ap", "%bp"
    if W == 3:
        # every register is needed: keep the result pointer on the stack meanwhile
        B.sw(rp, "sp", 0, "spill")
    b = [B.lw(bp, 4 * j, "in") for j in range(4)]
    a = [None] * 4
    if W <= 1:
        a = [B.lw(ap, 4 * j, "in") for j in range(4)]
    c = [None] * 8
    if not ext and W == 0:
        for i in range(32):
            if i == 0:
                bs = list(b) + [None]
            else:
                bs = []
                for w in range(5):
                    lo = B.slli(b[w], i) if w < 4 else None
                    hi = B.srli(b[w - 1], 32 - i) if w > 0 else None
                    bs.append(B.or_(lo, hi) if lo and hi else (lo or hi))
            for k in range(4):
                t = a[k] if i == 31 else B.slli(a[k], 31 - i)
                m = B.srai(t, 31)
                for w in range(5):
                    if bs[w] is None:
                        continue
                    x = B.and_(bs[w], m)
                    c[k + w] = x if c[k + w] is None else B.xor(c[k + w], x)
    else:
        # Horner over groups of W bit positions from bit 31 down: c <<= W (srli + sllior per
        # word), then for every word a[k] and each bit of the group (a[k]'s current top bit,
        # a[k] <<= 1 after each), add b << (W-1-j) into c[k..k+4] with andbnexadd.
        # The shifted copies b << 1 .. b << (W-1) (5 words each) are formed once.
        bsh = [list(b) + [None]]
        for s_ in range(1, W):
            ws = [B.slli(b[0], s_)]
            for w in range(1, 4):
                ws.append(B.or_(B.slli(b[w], s_), B.srli(b[w - 1], 32 - s_)))
            ws.append(B.srli(b[3], 32 - s_))
            bsh.append(ws)
        if a[0] is None:
            a = [B.lw(ap, 4 * j, "in") for j in range(4)]
        c = [B.li(0) for _ in range(8)] if ext else [None] * 8
        groups = []
        p = 31
        while p >= 0:
            g = min(W, p + 1)
            groups.append(g)
            p -= g
        left = 32
        for gi, g in enumerate(groups):
            if gi:
                new = [None] * 8
                for w in range(7, 0, -1):
                    if c[w - 1] is None or c[w] is None:   # (b only) a word still zero
                        lo = B.slli(c[w], g) if c[w] is not None else None
                        hi = B.srli(c[w - 1], 32 - g) if c[w - 1] is not None else None
                        new[w] = B.or_(lo, hi) if lo and hi else (lo or hi)
                        continue
                    hi = B.srli(c[w - 1], 32 - g)
                    if ext:
                        new[w] = B.custom("sllior", [hi, c[w]], "sllior {d}, {s0}, %d" % g, tie=1)
                    else:
                        new[w] = B.or_(B.slli(c[w], g), hi)
                new[0] = B.slli(c[0], g) if c[0] is not None else None
                c = new
            for k in range(4):
                for j in range(g):
                    sh = g - 1 - j
                    m = None if ext else B.srai(a[k], 31)
                    for w in range(5):
                        if bsh[sh][w] is None:
                            continue
                        if ext:
                            c[k + w] = B.custom("andbnexadd", [a[k], bsh[sh][w], c[k + w]],
                                                "andbnexadd {d}, {s0}, {s1}", tie=2)
                        elif c[k + w] is None:
                            c[k + w] = B.and_(bsh[sh][w], m)
                        else:
                            c[k + w] = B.xor(c[k + w], B.and_(bsh[sh][w], m))
                    if left - j > 1:
                        a[k] = B.r("add", a[k], a[k])
            left -= g
    if W == 3:
        rp = B.lw("sp", 0, "spill")
    for w in range(8):
        B.sw(c[w], rp, 4 * w, "out")
    return B


def main(argv):
    if not argv or argv[0] not in ("b", "x") or len(argv) > 3:
        raise ValueError("expected b (base ISA) or x (xpolymul), an optional scheduling window "
                         "and the bits per Horner step W = 1..3 (b also 0)")
    ext = argv[0] == "x"
    win = int(argv[1]) if len(argv) > 1 else 24
    W = int(argv[2]) if len(argv) > 2 else (1 if ext else 0)
    if win < 1 or not 0 <= W <= 3 or (W == 0 and ext):
        raise ValueError("window must be >= 1, W 1..3 (0 = b: shifted copies of b per bit, no c shifts)")
    blk = gen(ext, W)
    txt, cyc, n = build("polymul_128", blk, {"%rp": "a0", "%ap": "a1", "%bp": "a2"}, window=win,
                        frame_extra=16 if W == 3 else 0,
                        comment="generated by crypto/polymul-128/gen/gen_ct.py %s -- do not edit\n"
                                "constant-time comb: no branches, no secret-dependent addresses"
                                % " ".join(argv))
    print("/* scheduled: %d instructions, ~%d cycles (generator estimate) */" % (n, cyc))
    if ext:
        print('#include "ise.inc"')
    print(txt)


if __name__ == "__main__":
    run_main(main, "gen_ct.py b|x [WINDOW]")
