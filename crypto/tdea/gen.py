#!/usr/bin/env python3
"""Generator of the TDEA (three-key Triple DES, EDE) kernels: rv32i/tdea.S and zbkb/tdea.S.

Run: python3 gen.py

Design (tables and bit positions from des_tables.py, FIPS 46-3):
- SP tables: for each S-box i, 64 words SP_i[g] = P(S_i(g) in its output nibble), rotated left
  by 3; 2 KiB in .data. f(R, K) = xor of the eight SP_i[group_i(E(R)) ^ key group].
- The state halves are kept rotated left by 3 (rr = rotl(R, 3)): then the E expansion needs
  no permutation at all. The even S-box groups 2, 4, 6, 8 are the top six bits of the four
  bytes of rr, the odd groups 1, 3, 5, 7 those of rotr(rr, 4); the round keys are stored in the
  same positions (two words per round), so a round is: two key loads, two xors, one rotation
  (three instructions on RV32I, one `rori` on Zbkb), and per S-box: isolate the byte's top six
  bits already scaled by 4 (srli + andi; andi alone for the low byte), add the table base,
  lw, xor into the other half. 16 rounds unrolled; the three DES passes are a loop over them
  (FP then IP between passes cancel: the halves only swap).
- IP and FP by five swap-moves each (plus the rotations by 3); input and output bytes are
  big-endian, assembled with byte loads (any alignment; out may equal in).
- Decryption is the same kernel run with the round keys in the order of hightdea_keyexp_dec
  (K3 reversed, K2 forward, K1 reversed): tdea_decrypt is tdea_encrypt.
- Key schedule (per 8-byte key, a loop of 16 rounds): PC1 into C, D (28 bits, left-aligned),
  28-bit rotations, then PC2 straight into the two round-key words by table: ten chunks of C
  and D (6 bits, and 4 for each 28th..25th), each entry both words' bits packed in one word
  (2,176 bytes in .data).
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import des_tables as T  # noqa: E402

_spec = importlib.util.spec_from_file_location("hight_gen", os.path.join(HERE, "..", "hight", "gen.py"))
_hg = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_hg)
Insn, schedule, render, function = _hg.Insn, _hg.schedule, _hg.render, _hg.function

M32 = 0xFFFFFFFF
ROT = 3                                   # state halves kept rotated left by 3
TOP = {2: 31, 4: 23, 6: 15, 8: 7, 1: 31, 3: 23, 5: 15, 7: 7}   # top bit of group i's window


def rotl(x, k):
    k %= 32
    return ((x << k) | (x >> (32 - k))) & M32 if k else x


def sp_tables():
    return [[rotl(T.permute(T.sbox(i, g) << (28 - 4 * i), T.P, 32), ROT) for g in range(64)] for i in range(8)]


def key_words(k48):
    """a 48-bit round key -> (even-group word, odd-group word) in the state's window positions"""
    ke = ko = 0
    for i in range(1, 9):
        g = (k48 >> (48 - 6 * i)) & 63
        if i % 2 == 0:
            ke |= g << (TOP[i] - 5)
        else:
            ko |= g << (TOP[i] - 5)
    return ke, ko


# IP as swap-moves on (L, R), ending with both halves rotated left by ROT; FP is its inverse.
IP_NET = [("sm", "L", "R", 4, 0x0F0F0F0F), ("sm", "L", "R", 16, 0x0000FFFF),
          ("sm", "R", "L", 2, 0x33333333), ("sm", "R", "L", 8, 0x00FF00FF),
          ("rot", "R", 3), ("rot", "L", 2), ("sm", "L", "R", 0, 0xAAAAAAAA), ("rot", "L", 1)]
FP_NET = [(op[0], op[1], -op[2]) if op[0] == "rot" else op for op in reversed(IP_NET)]


def run_net(net, l, r):
    v = {"L": l, "R": r}
    for op in net:
        if op[0] == "rot":
            v[op[1]] = rotl(v[op[1]], op[2])
        else:
            _, x, y, n, m = op
            t = ((v[x] >> n) ^ v[y]) & m
            v[y] ^= t
            v[x] ^= (t << n) & M32
    return v["L"], v["R"]


def check_model():
    """the pieces above against des_tables' plain DES (fails the generator if wrong)"""
    import random
    rng = random.Random(46)
    for _ in range(64):
        b = rng.getrandbits(64)
        ip = T.permute(b, T.IP, 64)
        assert run_net(IP_NET, b >> 32, b & M32) == (rotl(ip >> 32, ROT), rotl(ip & M32, ROT))
        assert run_net(FP_NET, *run_net(IP_NET, b >> 32, b & M32)) == (b >> 32, b & M32)
        r, k = rng.getrandbits(32), rng.getrandbits(48)
        ke, ko = key_words(k)
        rr = rotl(r, ROT)
        we, wo = rr ^ ke, rotl(rr, -4) ^ ko
        sp, f = sp_tables(), 0
        for i in range(1, 9):
            w = we if i % 2 == 0 else wo
            f ^= sp[i - 1][(w >> (TOP[i] - 5)) & 63]
        assert f == rotl(T.f(r, k), ROT)


# ------------------------------------------------------------------ code
class Kernel:
    def __init__(self, zbkb):
        self.zbkb, self.ins, self.n, self.cat = zbkb, [], 0, "io"

    def e(self, text, dst=(), src=(), comment=""):
        self.ins.append(Insn(text, dst, src, comment, self.cat))

    def flush(self):
        out = [l for l in render(schedule(self.ins)) if not l.lstrip().startswith("#")]
        self.ins = []
        return out

    def rotl(self, r, k, t):
        k %= 32
        if k == 0:
            return
        if self.zbkb:
            self.e(f"rori {r}, {r}, {32 - k}", [r], [r], f"rotl {k}")
        else:
            self.e(f"srli {t}, {r}, {32 - k}", [t], [r], f"rotl {k}")
            self.e(f"slli {r}, {r}, {k}", [r], [r])
            self.e(f"or   {r}, {r}, {t}", [r], [r, t])

    def net(self, net, regs, t, m):
        for op in net:
            if op[0] == "rot":
                self.rotl(regs[op[1]], op[2], t)
                continue
            _, x, y, n, mask = op
            x, y = regs[x], regs[y]
            self.e(f"li   {m}, 0x{mask:08x}", [m])
            if n:
                self.e(f"srli {t}, {x}, {n}", [t], [x], f"swap-move {n}, 0x{mask:08x}")
                self.e(f"xor  {t}, {t}, {y}", [t], [t, y])
            else:
                self.e(f"xor  {t}, {x}, {y}", [t], [x, y], f"swap-move 0, 0x{mask:08x}")
            self.e(f"and  {t}, {t}, {m}", [t], [t, m])
            self.e(f"xor  {y}, {y}, {t}", [y], [y, t])
            if n:
                self.e(f"slli {t}, {t}, {n}", [t], [t])
            self.e(f"xor  {x}, {x}, {t}", [x], [x, t])

    def load_be(self, r, ptr, off, tmps):
        b = tmps
        for i in range(4):
            self.e(f"lbu  {b[i]}, {off + i}({ptr})", [b[i]], [ptr], f"byte {off + i}")
        if self.zbkb:
            self.e(f"packh {b[3]}, {b[3]}, {b[2]}", [b[3]], [b[3], b[2]])
            self.e(f"packh {b[1]}, {b[1]}, {b[0]}", [b[1]], [b[1], b[0]])
            self.e(f"pack {r}, {b[3]}, {b[1]}", [r], [b[3], b[1]], "big-endian word")
            return
        self.e(f"slli {b[0]}, {b[0]}, 24", [b[0]], [b[0]])
        self.e(f"slli {b[1]}, {b[1]}, 16", [b[1]], [b[1]])
        self.e(f"slli {b[2]}, {b[2]}, 8", [b[2]], [b[2]])
        self.e(f"or   {b[0]}, {b[0]}, {b[1]}", [b[0]], [b[0], b[1]])
        self.e(f"or   {b[2]}, {b[2]}, {b[3]}", [b[2]], [b[2], b[3]])
        self.e(f"or   {r}, {b[0]}, {b[2]}", [r], [b[0], b[2]], "big-endian word")

    def store_be(self, r, ptr, off, t):
        for i in range(4):
            if i == 3:
                self.e(f"sb   {r}, {off + 3}({ptr})", [], [r, ptr, "mem"], f"byte {off + 3}")
            else:
                tt = t[i]
                self.e(f"srli {tt}, {r}, {24 - 8 * i}", [tt], [r])
                self.e(f"sb   {tt}, {off + i}({ptr})", [], [tt, ptr, "mem"], f"byte {off + i}")

    def round(self, a, b, k):
        """a ^= f(b, round key k); rk pointer a2, SP base (table 0 + 1024) in a3"""
        e = self.e
        we, wo = "t0", "t1"
        self.cat = "round key load"
        e(f"lw   {we}, {8 * k}(a2)", [we], ["a2"], f"round {k}: even S-box groups of the key")
        e(f"lw   {wo}, {8 * k + 4}(a2)", [wo], ["a2"], "odd groups")
        self.cat = "key xor"
        e(f"xor  {we}, {we}, {b}", [we], [we, b])
        self.cat = "E (rotr 4)"
        if self.zbkb:
            e(f"rori t2, {b}, 4", ["t2"], [b])
        else:
            e(f"srli t2, {b}, 4", ["t2"], [b])
            e(f"slli t3, {b}, 28", ["t3"], [b])
            e("or   t2, t2, t3", ["t2"], ["t2", "t3"])
        self.cat = "key xor"
        e(f"xor  {wo}, {wo}, t2", [wo], [wo, "t2"])
        tmps = ["t2", "t3", "t4", "t5", "t6", "a4", "a5", "a6"]
        for j, i in enumerate([2, 4, 6, 8, 1, 3, 5, 7]):
            w = we if i % 2 == 0 else wo
            t = tmps[j]
            byte = TOP[i] // 8
            self.cat = "S-box read"
            if byte == 0:
                e(f"andi {t}, {w}, 0xfc", [t], [w], f"S{i} index * 4")
            else:
                e(f"srli {t}, {w}, {8 * byte}", [t], [w])
                e(f"andi {t}, {t}, 0xfc", [t], [t], f"S{i} index * 4")
            e(f"add  {t}, {t}, a3", [t], [t, "a3"])
            e(f"lw   {t}, {256 * (i - 1) - 1024}({t})", [t], [t], f"SP{i}")
            self.cat = "f: xor into the other half"
            e(f"xor  {a}, {a}, {t}", [a], [a, t])

    def encrypt(self):
        body = []
        L, R = "a4", "a5"
        self.load_be(L, "a1", 0, ["t0", "t1", "t2", "t3"])
        self.load_be(R, "a1", 4, ["t4", "t5", "t6", "a6"])
        self.ins.append(Insn("# loads of in done", ["mem"], [L, R]))
        self.cat = "IP"
        self.net(IP_NET, {"L": L, "R": R}, "t0", "t1")
        body += self.flush()
        # a7 = L, a1 = R during the rounds (a1 = in is free now); a3 = SP base; a0 = out kept
        body += ["    mv   a7, a4                        # [IP]", "    mv   a1, a5                        # [IP]",
                 "    la   a3, tdea_sp + 1024            # [pass loop]", "    addi sp, sp, -16              # [pass loop]",
                 "    sw   a0, 12(sp)                    # [pass loop] out: a0 counts the passes",
                 "    li   a0, 3                         # [pass loop]"]
        body += [".Ltdea_pass:"]
        for k in range(16):
            a, b = ("a7", "a1") if k % 2 == 0 else ("a1", "a7")
            self.round(a, b, k)
        body += self.flush()
        body += ["    addi a2, a2, 128                   # [pass loop] next pass's 16 round keys",
                 "    addi a0, a0, -1                    # [pass loop]",
                 "    mv   t1, a7                        # [pass loop] the halves swap between passes (FP, IP cancel)",
                 "    mv   a7, a1                        # [pass loop]", "    mv   a1, t1                        # [pass loop]",
                 "    bnez a0, .Ltdea_pass               # [pass loop]",
                 "    lw   a0, 12(sp)                    # [pass loop]", "    addi sp, sp, 16               # [pass loop]"]
        # after the last pass's swap a7 = R16, a1 = L16: the pre-output block is R16 || L16
        L, R = "a7", "a1"
        self.cat = "FP (inverse IP)"
        self.net(FP_NET, {"L": L, "R": R}, "t0", "t1")
        self.ins.append(Insn("# fence", ["mem"], [L, R]))
        self.cat = "io"
        self.store_be(L, "a0", 0, ["t2", "t3", "t4"])
        self.store_be(R, "a0", 4, ["t5", "t6", "a6"])
        body += self.flush()
        return body


# PC2 by table: C and D (28 bits, left-aligned at bits 31..4) in chunks of <= 6 bits; an entry is
# the chunk's contribution to the two round-key words, packed into one word: C feeds only the
# S-box groups 1-4 (top halves of both words): entry = even-word bits | odd-word bits >> 16;
# D feeds groups 5-8 (bottom halves): entry = even-word bits << 16 | odd-word bits.
PC2_CHUNKS = [(src, lo, 6) for src in "CD" for lo in (26, 20, 14, 8)] + [("C", 4, 4), ("D", 4, 4)]
PC2_CHUNKS.sort(key=lambda c: c[0])


def pc2_words(c28, d28):
    """(even word, odd word) of the round key PC2(C || D), in the state's window positions"""
    return key_words(T.permute((c28 << 28) | d28, T.PC2, 56))


def pc2_tables():
    tabs = []
    for src, lo, width in PC2_CHUNKS:
        tab = []
        for v in range(1 << width):
            bits = (v << lo) >> 4                      # the 28-bit value with only this chunk set
            ke, ko = pc2_words(bits, 0) if src == "C" else pc2_words(0, bits)
            if src == "C":
                assert not (ke | ko) & 0xFFFF
                tab.append(ke | ko >> 16)
            else:
                assert not (ke | ko) >> 16
                tab.append((ke << 16 | ko) & M32)
        tabs.append(tab)
    return tabs


def pc1_groups():
    """(dst C/D, src hi/lo, shift, mask) for PC1 from the key's big-endian words"""
    groups = {}
    for k, src_bit in enumerate(T.PC1):
        dst, dpos = ("C", 31 - k) if k < 28 else ("D", 31 - (k - 28))
        src, spos = ("hi", 32 - src_bit) if src_bit <= 32 else ("lo", 64 - src_bit)
        key = (dst, src, dpos - spos)
        groups[key] = groups.get(key, 0) | (1 << dpos)
    return sorted((d, s, sh, m) for (d, s, sh), m in groups.items())


def keyschedule(zbkb):
    """tdea_des_schedule: a5 = key (8 bytes), a6 = where round key 0 goes, a7 = +8 or -8; link t6"""
    k = Kernel(zbkb)
    e = k.e
    k.cat = "keyexp: key load"
    k.load_be("t0", "a5", 0, ["t2", "t3", "t4", "t5"])
    k.load_be("t1", "a5", 4, ["a1", "a2", "a3", "a4"])
    regs = {"C": "a3", "D": "a4", "hi": "t0", "lo": "t1"}
    k.cat = "PC1"
    for d in ("C", "D"):
        e(f"li   {regs[d]}, 0", [regs[d]])
    for n, (d, s, sh, m) in enumerate(pc1_groups()):
        t, mm = ("t2", "t3") if n % 2 else ("t4", "t5")
        src = regs[s]
        op = f"slli {t}, {src}, {sh}" if sh > 0 else f"srli {t}, {src}, {-sh}" if sh < 0 else f"mv   {t}, {src}"
        e(op, [t], [src], f"PC1 -> {d}")
        e(f"li   {mm}, 0x{m:08x}", [mm])
        e(f"and  {t}, {t}, {mm}", [t], [t, mm])
        e(f"or   {regs[d]}, {regs[d]}, {t}", [regs[d]], [regs[d], t])
    body = k.flush()
    sched = sum(1 << j for j, s in enumerate(T.SHIFTS) if s == 2)
    lp = "    # [keyexp loop]"
    body += [f"    li   a1, 0x{sched:04x}" + lp + " bit j: round j rotates by 2",
             "    la   a2, tdea_pc2 + 1024" + lp, "    li   t5, 16" + lp] + (
             [] if zbkb else ["    li   t4, 0xffff0000" + lp]) + [
             ".Ltdea_ks_round:", "    andi t0, a1, 1" + lp, "    srli a1, a1, 1" + lp, "    bnez t0, .Ltdea_ks_rot2" + lp]
    for s in (1, 2):
        if s == 2:
            body += [".Ltdea_ks_rot2:"]
        for r in ("a3", "a4"):                # 28-bit rotation of a left-aligned value
            body += [f"    slli t0, {r}, {s}    # [key rotation]", f"    srli t1, {r}, {28 - s}    # [key rotation]",
                     f"    andi t1, t1, {((1 << s) - 1) << 4}    # [key rotation]", f"    or   {r}, t0, t1    # [key rotation]"]
        if s == 1:
            body += ["    j    .Ltdea_ks_pc2" + lp]
    body += [".Ltdea_ks_pc2:"]
    k.cat = "PC2"
    tabs, off = pc2_tables(), -1024               # a2 = tdea_pc2 + 1024
    acc = {"C": "a5", "D": "a0"}                  # (a5, the key pointer, is free in the loop)
    first = set()
    for n, ((src, lo, width), tab) in enumerate(zip(PC2_CHUNKS, tabs)):
        t = ["t0", "t1", "t2", "t3"][n % 4]
        e(f"srli {t}, {regs[src]}, {lo - 2}", [t], [regs[src]], f"PC2: {src} bits {lo + width - 1}..{lo}")
        e(f"andi {t}, {t}, {((1 << width) - 1) << 2}", [t], [t])
        e(f"add  {t}, {t}, a2", [t], [t, "a2"])
        if src in first:
            e(f"lw   {t}, {off}({t})", [t], [t])
            e(f"or   {acc[src]}, {acc[src]}, {t}", [acc[src]], [acc[src], t])
        else:
            e(f"lw   {acc[src]}, {off}({t})", [acc[src]], [t])
            first.add(src)
        off += 4 * len(tab)
    aC, aD = acc["C"], acc["D"]                   # even word = aC high | aD high; odd = aC low | aD low
    e(f"srli t0, {aD}, 16", ["t0"], [aD])
    if zbkb:
        e(f"srli t1, {aC}, 16", ["t1"], [aC])
        e("pack t2, t0, t1", ["t2"], ["t0", "t1"], "even S-box groups")
        e(f"pack t3, {aD}, {aC}", ["t3"], [aD, aC], "odd S-box groups")
    else:
        e(f"and  t1, {aC}, t4", ["t1"], [aC, "t4"])
        e("or   t2, t0, t1", ["t2"], ["t0", "t1"], "even S-box groups")
        e(f"slli t0, {aC}, 16", ["t0"], [aC])
        e(f"slli t1, {aD}, 16", ["t1"], [aD])
        e("srli t1, t1, 16", ["t1"], ["t1"])
        e("or   t3, t0, t1", ["t3"], ["t0", "t1"], "odd S-box groups")
    e("sw   t2, 0(a6)", [], ["t2", "a6"])
    e("sw   t3, 4(a6)", [], ["t3", "a6"])
    body += k.flush()
    body += ["    add  a6, a6, a7" + lp, "    addi t5, t5, -1" + lp, "    bnez t5, .Ltdea_ks_round" + lp, "    jr   t6" + lp]
    return body


def keyexp(dec):
    """three passes of .Ltdea_ks; rk layout: 48 rounds x (even word, odd word)"""
    order = [(2, 15, -8), (1, 16, 8), (0, 47, -8)] if dec else [(0, 0, 8), (1, 31, -8), (2, 32, 8)]
    c = "    # [keyexp loop]"
    body = ["    addi sp, sp, -16" + c, "    sw   a0, 0(sp)" + c + " rk (the schedule uses every a register)",
            "    sw   a1, 4(sp)" + c + " key"]
    for key, first, stride in order:
        body += ["    lw   a6, 0(sp)" + c, f"    addi a6, a6, {8 * first}" + c, "    lw   a5, 4(sp)" + c]
        body += [f"    addi a5, a5, {8 * key}" + c] if key else []
        body += [f"    li   a7, {stride}" + c,
                 f"    jal  t6, tdea_des_schedule" + c + f" K{key + 1}, {'forward' if stride > 0 else 'reversed'}"]
    body += ["    addi sp, sp, 16" + c]
    return body


def generate(zbkb):
    check_model()
    ks_body = keyschedule(zbkb)
    lines = [f"/* TDEA (three-key Triple DES, EDE; NIST SP 800-67), {'RV32I + Zbkb (rori, pack, packh)' if zbkb else 'RV32I'}, "
             "SP tables (2 KiB in .data). Generated by ../gen.py: edit the generator. */",
             "    .section .data.tdea_tables, \"aw\"", "    .p2align 2",
             "# SP_i[g] = P(S_i(g)) rotated left by 3, i = 1..8, 64 words each", "tdea_sp:"]
    for tab in sp_tables():
        for j in range(0, 64, 8):
            lines.append("    .word " + ", ".join("0x%08x" % v for v in tab[j:j + 8]))
    lines += ["# PC2 of the key schedule: per chunk of C, D its contribution to both round-key words", "tdea_pc2:"]
    for tab in pc2_tables():
        for j in range(0, len(tab), 8):
            lines.append("    .word " + ", ".join("0x%08x" % v for v in tab[j:j + 8]))
    lines += ["    .text", "    .p2align 2"]
    lines += function("tdea_keyexp_enc", keyexp(False),
                      "rk[2j], rk[2j+1] = round key j (even / odd S-box groups): K1 forward, K2 reversed, K3 forward")
    lines += function("tdea_keyexp_dec", keyexp(True),
                      "the decryption order: K3 reversed, K2 forward, K1 reversed")
    lines += ["", "# one DES key schedule (16 rounds); a5 = key, a6 = round key 0's place, a7 = stride; link t6",
              "    .type tdea_des_schedule, @function", "tdea_des_schedule:"] + ks_body + [
              "    .size tdea_des_schedule, .-tdea_des_schedule"]
    enc = Kernel(zbkb).encrypt()
    lines += ["", "# a0 = out, a1 = in, a2 = rk; decryption is the same code with keyexp_dec's round keys",
              "    .globl tdea_encrypt", "    .type tdea_encrypt, @function",
              "    .globl tdea_decrypt", "    .type tdea_decrypt, @function",
              "tdea_encrypt:", "tdea_decrypt:"] + enc + ["    ret", "    .size tdea_encrypt, .-tdea_encrypt",
                                                        "    .size tdea_decrypt, .-tdea_decrypt"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    for impl, zbkb in (("rv32i", False), ("zbkb", True)):
        os.makedirs(os.path.join(HERE, impl), exist_ok=True)
        with open(os.path.join(HERE, impl, "tdea.S"), "w") as f:
            f.write(generate(zbkb))
