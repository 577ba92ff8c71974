"""MixColumns of one AES column as a 92-XOR straight-line program (Maximov, "AES MixColumn with
92 XOR gates", ePrint 2019/833).  Inputs x[8r + b] = bit b of row r, outputs y[8r + b]; in the
barrel-shiftrows layout every x/y is a whole word (row r, bit b), so the program is applied
as is.  Checked against MixColumns by `python3 mcslp.py`."""
SLP_TXT = """
t0 = x0 ^ x8
t1 = x16 ^ x24
t2 = x1 ^ x9
t3 = x17 ^ x25
t4 = x2 ^ x10
t5 = x18 ^ x26
t6 = x3 ^ x11
t7 = x19 ^ x27
t8 = x4 ^ x12
t9 = x20 ^ x28
t10 = x5 ^ x13
t11 = x21 ^ x29
t12 = x6 ^ x14
t13 = x22 ^ x30
t14 = x23 ^ x31
t15 = x7 ^ x15
t16 = x8 ^ t1
y0 = t15 ^ t16
t17 = x7 ^ x23
t18 = x24 ^ t0
y16 = t14 ^ t18
t19 = t1 ^ y16
y24 = t17 ^ t19
t20 = x27 ^ t14
t21 = t0 ^ y0
y8 = t17 ^ t21
t22 = t5 ^ t20
y19 = t6 ^ t22
t23 = x11 ^ t15
t24 = t7 ^ t23
y3 = t4 ^ t24
t25 = x2 ^ x18
t26 = t17 ^ t25
t27 = t9 ^ t23
t28 = t8 ^ t20
t29 = x10 ^ t2
y2 = t5 ^ t29
t30 = x26 ^ t3
y18 = t4 ^ t30
t31 = x9 ^ x25
t32 = t25 ^ t31
y10 = t30 ^ t32
y26 = t29 ^ t32
t33 = x1 ^ t18
t34 = x30 ^ t11
y22 = t12 ^ t34
t35 = x14 ^ t13
y6 = t10 ^ t35
t36 = x5 ^ x21
t37 = x30 ^ t17
t38 = x17 ^ t16
t39 = x13 ^ t8
y5 = t11 ^ t39
t40 = x12 ^ t36
t41 = x29 ^ t9
y21 = t10 ^ t41
t42 = x28 ^ t40
y13 = t41 ^ t42
y29 = t39 ^ t42
t43 = x15 ^ t12
y7 = t14 ^ t43
t44 = x14 ^ t37
y31 = t43 ^ t44
t45 = x31 ^ t13
y15 = t44 ^ t45
y23 = t15 ^ t45
t46 = t12 ^ t36
y14 = y6 ^ t46
t47 = t31 ^ t33
y17 = t19 ^ t47
t48 = t6 ^ y3
y11 = t26 ^ t48
t49 = t2 ^ t38
y25 = y24 ^ t49
t50 = t7 ^ y19
y27 = t26 ^ t50
t51 = x22 ^ t46
y30 = t11 ^ t51
t52 = x19 ^ t28
y20 = x28 ^ t52
t53 = x3 ^ t27
y4 = x12 ^ t53
t54 = t3 ^ t33
y9 = y8 ^ t54
t55 = t21 ^ t31
y1 = t38 ^ t55
t56 = x4 ^ t17
t57 = x19 ^ t56
y12 = t27 ^ t57
t58 = x3 ^ t28
t59 = t17 ^ t58
y28 = x20 ^ t59
"""
SLP = [(l.split(" = ")[0], *l.split(" = ")[1].split(" ^ ")) for l in SLP_TXT.strip().splitlines()]

def eval_slp(col):
    v = {"x%d" % i: (col[i // 8] >> (i % 8)) & 1 for i in range(32)}
    for d, a, b in SLP:
        v[d] = v[a] ^ v[b]
    return [sum(v["y%d" % (8 * r + b)] << b for b in range(8)) for r in range(4)]

if __name__ == "__main__":
    import os
    import random
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    from common.gf256 import xtime as xt
    def mc(c):
        return [xt(c[r]) ^ xt(c[(r + 1) % 4]) ^ c[(r + 1) % 4] ^ c[(r + 2) % 4] ^ c[(r + 3) % 4]
                for r in range(4)]
    rng = random.Random(1)
    cols = [[rng.randrange(256) for _ in range(4)] for _ in range(2000)]
    cols += [[1 << i if r == j else 0 for r in range(4)] for i in range(8) for j in range(4)]
    bad = sum(eval_slp(c) != mc(c) for c in cols)
    print("xors", len(SLP), "bad", bad, "of", len(cols))
