"""The constant-time SEED kernel rv32i-ct/seed128_ct.S, written by gen.py through
`generate(variant)`.

No table is indexed by data and no branch depends on it. G is ctcircuit.py's data flow: the
four S-boxes of G are one evaluation of a bitsliced circuit on one word (a byte lane per
S-box, BMP's inversion middle shared by S1 and S2), then the byte mixing on packed words.

Structure (the code stays small: G is about 200 instructions, once):
- `seed128_ct_g`, a local function every entry point calls (`jal ra`): a0 = G(a0). It may
  clobber every register but sp and ra (G_REGS: 27), so the callers keep what lives across
  calls in their frame; G's constants (the bottleneck mask, the lane mask, the four mixing
  masks, KG) are there too, stored by the caller's prologue and reloaded where the allocator
  needs them. G is SSA (common/ssa.py `Block`), ordered to keep few values alive
  (common/ssa.py `pressure_order`), register-allocated with recomputation and (none needed
  with 27 registers) spills (common/ssa.py `allocate`) and list-scheduled for the E31's
  2-cycle lw (common/sched.py `critical_path`); `check_g` runs the allocated code against
  ref.g.
- encrypt/decrypt: block in (bytes, big-endian; zbkb-ct: lw + rev8 when aligned), the four
  words to frame slots x0..x3 (L0 L1 R0 R1, renamed at each swap), a loop of 8 x 2 rounds of F
  with three calls each (F's two words through the slots u, v; the round-key pointer in slot
  rk, moved by 16 bytes an iteration up to the one in slot end), block out. A loop, not 16
  rounds in line: 48 call sites of G would be more than the E31's 40 BTB entries, which
  round-robin replacement cycles through, so every call mispredicted (3 cycles); 6 stay in.
- keyexp: A B C D in x0..x3, per round two calls on A + C - KC_i and B - D + KC_i (KC_i by
  `li`), the 64-bit rotations by 8. The round keys are the standard's (no folding).
"""
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))
import ctcircuit  # noqa: E402
import ref  # noqa: E402
from common.asm import Asm, header  # noqa: E402
from common.buffers import load_be_block, store_be_block  # noqa: E402
from common.sboxcircuit import emit_gates  # noqa: E402
from common.sched import critical_path  # noqa: E402
from common.ssa import Block, Frame, allocate, pressure_order, run_insns, weighted  # noqa: E402
from common.ssa import epilogue as frame_epilogue, prologue as frame_prologue  # noqa: E402

M32 = 0xffffffff
RV32I_CT, ZBKB_CT = "rv32i-ct", "zbkb-ct"
VARIANTS = (RV32I_CT, ZBKB_CT)
G_REGS = ["a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "t0", "t1", "t2", "t3", "t4", "t5", "t6",
          "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11"]
CONSTS = {"mask": ctcircuit.MASK, "even": ctcircuit.EVEN, "m0": ctcircuit.MIX[0],
          "m1": ctcircuit.MIX[1], "m2": ctcircuit.MIX[2], "m3": ctcircuit.MIX[3], "kg": ctcircuit.KG}
# the caller's values that live across G calls: in its frame (G may use every register)
FRAME_NAMES = list(CONSTS) + ["out", "rk", "end", "x0", "x1", "x2", "x3", "u", "v"]
STATE = ["s0", "s1", "s2", "s3"]          # the block / key words as loaded, then in x0..x3
REMAT_OPS = {"xor", "and", "or", "srli", "slli", "rori", "pack", "lw"}
WEIGHT = 3
LOAD_DELAY = 0.5


# ---------------------------------------------------------------- G as SSA
def g_ssa(zbkb=False):
    """G: a0 = G(a0). zbkb: the mixing words by pack and rori (5 instructions instead of 12)"""
    B = Block(zbkb)
    x = B.arg("a0")
    sp = B.value("sp")
    const = {n: B.value() for n in CONSTS}
    w = emit_gates(B, ctcircuit.GATES, {"t": x, "MASK": const["mask"], "EVEN": const["even"]})
    y = w["Y"]                                   # [a, b, c, d]: S1', S2', S1', S2'
    if zbkb:
        abab = B.op("pack", [y, y], role="mix")
        baba = B.rori(abab, 8, role="mix")
        cdcd = B.rori(y, 16, role="mix")
        cdcd = B.op("pack", [cdcd, cdcd], role="mix")
        dcdc = B.rori(cdcd, 8, role="mix")
    else:
        lo = B.slli(y, 16, role="mix")
        abab = B.or_(lo, B.srli(lo, 16, role="mix"), role="mix")
        baba = B.or_(B.srli(abab, 8, role="mix"), B.slli(abab, 24, role="mix"), role="mix")
        hi = B.srli(y, 16, role="mix")
        cdcd = B.or_(hi, B.slli(hi, 16, role="mix"), role="mix")
        dcdc = B.or_(B.srli(cdcd, 8, role="mix"), B.slli(cdcd, 24, role="mix"), role="mix")
    t = B.and_(abab, const["m0"], role="mix")
    t = B.xor(t, B.and_(baba, const["m1"], role="mix"), role="mix")
    u = B.and_(cdcd, const["m2"], role="mix")
    u = B.xor(u, B.and_(dcdc, const["m3"], role="mix"), role="mix")
    r = B.xor(B.xor(t, u, role="mix"), const["kg"], role="mix")
    B.exit(r, "a0")
    return B, x, sp, const


def reorder(B):
    pressure_order(B, lambda i, o, net, recent:
                   (net - (LOAD_DELAY if o["op"] == "lw" else 0), -i))


def check_g(insns, homes, n=300, seed=1):
    """the scheduled, allocated G computes ref.g (random words and every byte in every lane)"""
    rng = random.Random(seed)
    sp = 0x1000
    xs = [rng.getrandbits(32) for _ in range(n)] + [v << 8 * k for v in range(0, 256, 7) for k in range(4)]
    for x in xs:
        mem = {sp + off: CONSTS[name] for name, off in homes.items()}
        regs = {"sp": sp, "a0": x, "ra": 0x2468}
        frame = {a: v for a, v in mem.items()}
        got = run_insns(insns, dict(regs), mem)
        assert got["a0"] == ref.g(x), hex(x)
        assert got["sp"] == sp and got["ra"] == regs["ra"]
        assert all(mem[a] == v for a, v in frame.items())        # the constants stay
        assert {r for x_ in insns for r in x_.dst} <= set(G_REGS)


def g_insns(frame, stats, weight=WEIGHT, check=True, variant=RV32I_CT):
    B, x, sp, const = g_ssa(variant == ZBKB_CT)
    reorder(B)
    homes = {const[n]: frame.slot(n) for n in CONSTS}
    live_in = {x: "a0", sp: "sp"}
    live_in.update({v: None for v in const.values()})
    alloc = allocate(B, G_REGS, frame.spill_off(0), live_in=live_in, homes=homes,
                     evict=weighted({1: weight, 2: 1}), recompute=lambda o: o["op"] in REMAT_OPS,
                     spill_role="spill", stats=stats)
    frame.nspill = max(frame.nspill, alloc.slots)
    order, cycles = critical_path(alloc.insns, window=48)
    if check:
        check_g(order, {n: frame.slot(n) for n in CONSTS})
    stats["g_insns"] = len(order)
    stats["g_cycles"] = cycles
    stats["used"] = sorted({r for x_ in order for r in x_.dst})
    return order


# ---------------------------------------------------------------- model of the kernels
def model_f(r0, r1, k0, k1):
    """F as the kernel sequences it (g_kernel: the circuit, the mixing, KG)"""
    g = ctcircuit.g_kernel
    u, v = r0 ^ k0, r1 ^ k1
    v = g(v ^ u)
    u = g((u + v) & M32)
    v = g((v + u) & M32)
    return (u + v) & M32, v


def check_model(n=200, seed=6):
    rng = random.Random(seed)
    for _ in range(n):
        args = [rng.getrandbits(32) for _ in range(4)]
        assert model_f(*args) == ref.f(*args)
    return True


# ---------------------------------------------------------------- functions


class Kernel:
    def __init__(self, variant=RV32I_CT):
        self.variant = variant
        self.zbkb = variant == ZBKB_CT
        self.a = Asm({"zbkb"} if self.zbkb else ())
        self.frame = Frame(FRAME_NAMES)
        self.stats = {}
        self.tail = []
        self.g = g_insns(self.frame, self.stats, variant=variant)
        self.used = set(self.stats["used"]) | set(STATE) | {"ra"}   # what the entry points save

    def prologue(self):
        a, fr = self.a, self.frame
        frame_prologue(a, fr, self.used, role="frame")
        for n, v in CONSTS.items():
            a.li("t0", v, role="frame", note=n)
            a("sw", "t0", f"{fr.slot(n)}(sp)", role="frame")

    def epilogue(self):
        frame_epilogue(self.a, self.frame, role="frame", ret_role="io")

    def load_be(self, tag):
        """s0..s3 = the four big-endian words at a1 (any alignment; Zbkb: lw + rev8 when aligned,
        the bytes path out of line, placed by flush_tail)"""
        slow = load_be_block(self.a, "a1", STATE, [["t0", "t1", "t2", "t3"], ["t4", "t5", "t6", "a3"]], tag, "t0",
                             role="io", note="in not word-aligned", jump_role="io")
        if slow:
            self.tail.append(slow)

    def flush_tail(self):
        for f in self.tail:
            f()
        self.tail = []

    def call_g(self):
        self.a("jal", "ra", "seed128_ct_g", role="call")

    def slot(self, name):
        return f"{self.frame.slot(name)}(sp)"

    def crypt(self, dec):
        """the halves live in the frame (x0..x3, renamed at each swap): G may use every register"""
        a, s = self.a, self.slot
        self.prologue()
        a("sw", "a0", s("out"), role="io")
        a("sw", "a2", s("rk"), role="io")
        self.load_be("enc" if not dec else "dec")
        for j, r in enumerate(STATE):
            a("sw", r, s(f"x{j}"), role="io")
        # the round-key pointer: K1 (encryption) or K16 (decryption) on, 2 rounds an iteration
        step = -16 if dec else 16
        a("addi", "t0", "a2", 120 if dec else 0, role="io", note="K16" if dec else "K1")
        a("addi", "t1", "t0", 8 * step, role="io", note="after the last iteration")
        a("sw", "t0", s("rk"), role="io")
        a("sw", "t1", s("end"), role="io")
        loop = "seed128_ct_" + ("dec" if dec else "enc") + "_rounds"
        a.label(loop)
        l0, l1, r0, r1 = "x0", "x1", "x2", "x3"
        for n in range(2):
            off = -8 * n if dec else 8 * n
            a.comment(f"{'first' if n == 0 else 'second'} round of the pair: L ^= F(R, K)")
            a("lw", "t4", s("rk"), role="round")
            a("lw", "t2", s(r0), role="round")
            a("lw", "t3", s(r1), role="round")
            a("lw", "t0", f"{off}(t4)", role="round", note="K,0")
            a("lw", "t1", f"{off + 4}(t4)", role="round", note="K,1")
            a("xor", "a0", "t3", "t1", role="round")
            a("xor", "t0", "t2", "t0", role="round")
            a("sw", "t0", s("u"), role="round")
            a("xor", "a0", "a0", "t0", role="round")
            self.call_g()
            a("lw", "t0", s("u"), role="round")
            a("sw", "a0", s("v"), role="round")
            a("add", "a0", "a0", "t0", role="round")
            self.call_g()
            a("lw", "t0", s("v"), role="round")
            a("sw", "a0", s("u"), role="round")
            a("add", "a0", "a0", "t0", role="round")
            self.call_g()
            a("lw", "t0", s("u"), role="round")
            a("lw", "t1", s(l0), role="round")
            a("lw", "t2", s(l1), role="round")
            a("add", "t0", "t0", "a0", role="round")
            a("xor", "t2", "t2", "a0", role="round")
            a("xor", "t1", "t1", "t0", role="round")
            a("sw", "t2", s(l1), role="round")
            a("sw", "t1", s(l0), role="round")
            l0, l1, r0, r1 = r0, r1, l0, l1
        a("lw", "t4", s("rk"), role="loop")
        a("lw", "t0", s("end"), role="loop")
        a("addi", "t4", "t4", step, role="loop")
        a("sw", "t4", s("rk"), role="loop")
        a("bne", "t4", "t0", loop, role="loop")
        # two swaps an iteration leave the names as they began; the standard has none after
        # round 16, so the output is (R, L) of these names
        l0, l1, r0, r1 = r0, r1, l0, l1
        for r, x in zip(STATE, (l0, l1, r0, r1)):
            a("lw", r, s(x), role="io")
        a("lw", "a0", s("out"), role="io")
        store_be_block(a, STATE, "a0", "enc" if not dec else "dec", "t0", self.epilogue, temps=("t0", "t1", "t2"),
                       role="io", jump_role="io")
        self.flush_tail()

    def keyexp(self):
        """A B C D live in the frame (x0..x3)"""
        a, s = self.a, self.slot
        self.prologue()
        a("sw", "a0", s("rk"), role="io")
        self.load_be("kx")
        for j, r in enumerate(STATE):
            a("sw", r, s(f"x{j}"), role="io")
        ka, kb, kc, kd = "x0", "x1", "x2", "x3"
        for i in range(16):
            a.comment(f"K{i + 1}")
            a("lw", "t0", s(ka), role="keysched")
            a("lw", "t1", s(kc), role="keysched")
            a.li("t2", ref.KC[i], role="keysched", note=f"KC{i}")
            a("add", "a0", "t0", "t1", role="keysched")
            a("sub", "a0", "a0", "t2", role="keysched")
            self.call_g()
            a("lw", "t4", s("rk"), role="keysched")
            a("lw", "t0", s(kb), role="keysched")
            a("lw", "t1", s(kd), role="keysched")
            a("sw", "a0", f"{8 * i}(t4)", role="keysched")
            a.li("t2", ref.KC[i], role="keysched", note=f"KC{i}")
            a("sub", "a0", "t0", "t1", role="keysched")
            a("add", "a0", "a0", "t2", role="keysched")
            self.call_g()
            a("lw", "t4", s("rk"), role="keysched")
            if i == 15:
                a("sw", "a0", f"{8 * i + 4}(t4)", role="keysched")
                break
            hi, lo = (ka, kb) if i % 2 == 0 else (kc, kd)
            a("lw", "t5", s(hi), role="keysched")
            a("lw", "t6", s(lo), role="keysched")
            a("sw", "a0", f"{8 * i + 4}(t4)", role="keysched")
            sh1, sh2 = ("srli", "slli") if i % 2 == 0 else ("slli", "srli")
            a(sh1, "t0", "t5", 8, role="keysched")
            a(sh2, "t1", "t6", 24, role="keysched")
            a(sh1, "t2", "t6", 8, role="keysched")
            a(sh2, "t3", "t5", 24, role="keysched")
            a("or", "t0", "t0", "t1", role="keysched")
            a("or", "t2", "t2", "t3", role="keysched")
            a("sw", "t0", s(hi), role="keysched")
            a("sw", "t2", s(lo), role="keysched")
        self.epilogue()
        self.flush_tail()

    def source(self):
        a = self.a
        what = "RV32I + Zbkb" if self.zbkb else "RV32I"
        a.raw(header(f"SEED (RFC 4269), {what}, constant time: G's four S-boxes as one bitsliced circuit.",
                     "../gen.py",
                     ["Generated by ../ctkernel.py (circuit: ../ctcircuit.py). No secret-dependent "
                      "load or store address, no secret-dependent branch.",
                      "Comments: the [role] of each instruction."]).rstrip())
        a.section(".text")
        a.subfunction("seed128_ct_g", "a0 = G(a0); keeps sp, ra; its constants in the caller's frame")
        a.insns(self.g)
        a("ret", role="call")
        a.end_function()
        a.raw("")
        with a.function("seed128_encrypt", doc="(out a0, in a1, rk a2)"):
            self.crypt(False)
        a.raw("")
        with a.function("seed128_decrypt", doc="(out a0, in a1, rk a2)"):
            self.crypt(True)
        a.raw("")
        with a.function("seed128_keyexp_enc", doc="(rk a0, key a1)"):
            self.keyexp()
        return a.text()


def generate(variant=RV32I_CT):
    k = Kernel(variant)
    return k.source(), k.stats


if __name__ == "__main__":
    ctcircuit.check()
    ctcircuit.check_g()
    check_model()
    text, stats = generate()
    print(stats)
