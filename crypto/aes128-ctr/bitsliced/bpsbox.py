"""AES S-box circuits: GATES128, the Boyar-Peralta depth-16 circuit (34 AND, 94 XOR) and
GATES113, the Boyar-Matthews-Peralta 113-gate circuit (used).  No NOTs: the output is
S(x) ^ 0x63, the constant is folded into the round keys.  Each gate: (dst, op, a, b).
Inputs U0..U7 with U0 = most significant bit; outputs S0..S7 with S0 = MSB."""
GATES_TXT = """
T1 = U0 ^ U3
T2 = U0 ^ U5
T3 = U0 ^ U6
T4 = U3 ^ U5
T5 = U4 ^ U6
T6 = T1 ^ T5
T7 = U1 ^ U2
T8 = U7 ^ T6
T9 = U7 ^ T7
T10 = T6 ^ T7
T11 = U1 ^ U5
T12 = U2 ^ U5
T13 = T3 ^ T4
T14 = T6 ^ T11
T15 = T5 ^ T11
T16 = T5 ^ T12
T17 = T9 ^ T16
T18 = U3 ^ U7
T19 = T7 ^ T18
T20 = T1 ^ T19
T21 = U6 ^ U7
T22 = T7 ^ T21
T23 = T2 ^ T22
T24 = T2 ^ T10
T25 = T20 ^ T17
T26 = T3 ^ T16
T27 = T1 ^ T12
M1 = T13 & T6
M2 = T23 & T8
M3 = T14 ^ M1
M4 = T19 & U7
M5 = M4 ^ M1
M6 = T3 & T16
M7 = T22 & T9
M8 = T26 ^ M6
M9 = T20 & T17
M10 = M9 ^ M6
M11 = T1 & T15
M12 = T4 & T27
M13 = M12 ^ M11
M14 = T2 & T10
M15 = M14 ^ M11
M16 = M3 ^ M2
M17 = M5 ^ T24
M18 = M8 ^ M7
M19 = M10 ^ M15
M20 = M16 ^ M13
M21 = M17 ^ M15
M22 = M18 ^ M13
M23 = M19 ^ T25
M24 = M22 ^ M23
M25 = M22 & M20
M26 = M21 ^ M25
M27 = M20 ^ M21
M28 = M23 ^ M25
M29 = M28 & M27
M30 = M26 & M24
M31 = M20 & M23
M32 = M27 & M31
M33 = M27 ^ M25
M34 = M21 & M22
M35 = M24 & M34
M36 = M24 ^ M25
M37 = M21 ^ M29
M38 = M32 ^ M33
M39 = M23 ^ M30
M40 = M35 ^ M36
M41 = M38 ^ M40
M42 = M37 ^ M39
M43 = M37 ^ M38
M44 = M39 ^ M40
M45 = M42 ^ M41
M46 = M44 & T6
M47 = M40 & T8
M48 = M39 & U7
M49 = M43 & T16
M50 = M38 & T9
M51 = M37 & T17
M52 = M42 & T15
M53 = M45 & T27
M54 = M41 & T10
M55 = M44 & T13
M56 = M40 & T23
M57 = M39 & T19
M58 = M43 & T3
M59 = M38 & T22
M60 = M37 & T20
M61 = M42 & T1
M62 = M45 & T4
M63 = M41 & T2
L0 = M61 ^ M62
L1 = M50 ^ M56
L2 = M46 ^ M48
L3 = M47 ^ M55
L4 = M54 ^ M58
L5 = M49 ^ M61
L6 = M62 ^ L5
L7 = M46 ^ L3
L8 = M51 ^ M59
L9 = M52 ^ M53
L10 = M53 ^ L4
L11 = M60 ^ L2
L12 = M48 ^ M51
L13 = M50 ^ L0
L14 = M52 ^ M61
L15 = M55 ^ L1
L16 = M56 ^ L0
L17 = M57 ^ L1
L18 = M58 ^ L8
L19 = M63 ^ L4
L20 = L0 ^ L1
L21 = L1 ^ L7
L22 = L3 ^ L12
L23 = L18 ^ L2
L24 = L15 ^ L9
L25 = L6 ^ L10
L26 = L7 ^ L9
L27 = L8 ^ L10
L28 = L11 ^ L14
L29 = L11 ^ L17
S0 = L6 ^ L24
S1 = L16 ^ L26
S2 = L19 ^ L28
S3 = L6 ^ L21
S4 = L20 ^ L22
S5 = L25 ^ L29
S6 = L13 ^ L27
S7 = L6 ^ L23
"""

# Boyar-Matthews-Peralta 113-gate circuit (32 AND, 81 XOR; its 4 XNORs are plain XORs here,
# the missing NOTs are the S-box constant 0x63, folded into the round keys).
GATES113_TXT = """
Y14 = U3 ^ U5
Y13 = U0 ^ U6
Y9 = U0 ^ U3
Y8 = U0 ^ U5
R0 = U1 ^ U2
Y1 = R0 ^ U7
Y4 = Y1 ^ U3
Y12 = Y13 ^ Y14
Y2 = Y1 ^ U0
Y5 = Y1 ^ U6
Y3 = Y5 ^ Y8
R1 = U4 ^ Y12
Y15 = R1 ^ U5
Y20 = R1 ^ U1
Y6 = Y15 ^ U7
Y10 = Y15 ^ R0
Y11 = Y20 ^ Y9
Y7 = U7 ^ Y11
Y17 = Y10 ^ Y11
Y19 = Y10 ^ Y8
Y16 = R0 ^ Y11
Y21 = Y13 ^ Y16
Y18 = U0 ^ Y16
N2 = Y12 & Y15
N3 = Y3 & Y6
N4 = N3 ^ N2
N5 = Y4 & U7
N6 = N5 ^ N2
N7 = Y13 & Y16
N8 = Y5 & Y1
N9 = N8 ^ N7
N10 = Y2 & Y7
N11 = N10 ^ N7
N12 = Y9 & Y11
N13 = Y14 & Y17
N14 = N13 ^ N12
N15 = Y8 & Y10
N16 = N15 ^ N12
N17 = N4 ^ Y20
N18 = N6 ^ N16
N19 = N9 ^ N14
N20 = N11 ^ N16
N21 = N17 ^ N14
N22 = N18 ^ Y19
N23 = N19 ^ Y21
N24 = N20 ^ Y18
N25 = N21 ^ N22
N26 = N21 & N23
N27 = N24 ^ N26
N28 = N25 & N27
N29 = N28 ^ N22
N30 = N23 ^ N24
N31 = N22 ^ N26
N32 = N31 & N30
N33 = N32 ^ N24
N34 = N23 ^ N33
N35 = N27 ^ N33
N36 = N24 & N35
N37 = N36 ^ N34
N38 = N27 ^ N36
N39 = N29 & N38
N40 = N25 ^ N39
N41 = N40 ^ N37
N42 = N29 ^ N33
N43 = N29 ^ N40
N44 = N33 ^ N37
N45 = N42 ^ N41
Z0 = N44 & Y15
Z1 = N37 & Y6
Z2 = N33 & U7
Z3 = N43 & Y16
Z4 = N40 & Y1
Z5 = N29 & Y7
Z6 = N42 & Y11
Z7 = N45 & Y17
Z8 = N41 & Y10
Z9 = N44 & Y12
Z10 = N37 & Y3
Z11 = N33 & Y4
Z12 = N43 & Y13
Z13 = N40 & Y5
Z14 = N29 & Y2
Z15 = N42 & Y9
Z16 = N45 & Y14
Z17 = N41 & Y8
C1 = Z15 ^ Z16
C2 = Z10 ^ C1
C3 = Z9 ^ C2
C4 = Z0 ^ Z2
C5 = Z1 ^ Z0
C6 = Z3 ^ Z4
C7 = Z12 ^ C4
C8 = Z7 ^ C6
C9 = Z8 ^ C7
C10 = C8 ^ C9
C11 = C6 ^ C5
C12 = Z3 ^ Z5
C13 = Z13 ^ C1
C14 = C4 ^ C12
S3 = C3 ^ C11
C16 = Z6 ^ C8
C17 = Z14 ^ C10
C18 = C13 ^ C14
S7 = Z12 ^ C18
C20 = Z15 ^ C16
C21 = C2 ^ Z11
S0 = C3 ^ C16
S6 = C10 ^ C18
S4 = C14 ^ S3
S1 = S3 ^ C16
C26 = C17 ^ C20
S2 = C26 ^ Z17
S5 = C21 ^ C17
"""

def parse(txt):
    out = []
    for line in txt.strip().splitlines():
        d, rhs = line.split(" = ")
        a, op, b = rhs.split()
        out.append((d, op, a, b))
    return out

GATES128 = parse(GATES_TXT)
GATES113 = parse(GATES113_TXT)
GATES = GATES113
def eval_sbox(x, gates=None):
    v = {"U%d" % i: (x >> (7 - i)) & 1 for i in range(8)}
    for d, op, a, b in (gates or GATES):
        v[d] = (v[a] ^ v[b]) if op == "^" else (v[a] & v[b])
    return sum(v["S%d" % i] << (7 - i) for i in range(8))

def circuit(B, gates, w):
    """the circuit `gates` on SSA values (common/ssa.py Block B): inputs w[b] = bit b (LSB = 0)
    of every lane (U0..U7 = bit 7..0); returns the output bits, LSB first"""
    v = {"U%d" % i: w[7 - i] for i in range(8)}
    for d, op, a, b in gates:
        v[d] = B.xor(v[a], v[b]) if op == "^" else B.and_(v[a], v[b])
    return [v["S%d" % (7 - b)] for b in range(8)]

if __name__ == "__main__":
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    from common.gf256 import AES_SBOX as SBOX
    for g in (GATES128, GATES113):
        bad = [x for x in range(256) if eval_sbox(x, g) ^ 0x63 != SBOX[x]]
        print("gates", len(g), "AND", sum(x[1] == "&" for x in g), "bad", len(bad))
