"""crypto/camellia128/ctcircuit.py and ctkernel.py (the constant-time kernel rv32i-ct): SBOX1 is
the affine map of AES-field inversion the circuit is built on; the eight-lane circuit is SBOX1
on every input in every lane whatever the other lanes hold (and wrong without its masks); the
kernel's model of F, with the folded key constants, is RFC 3713's F; the allocated round
computes F; the generated code addresses memory only through pointers and the stack."""
import random
import sys

import pytest

from conftest import ROOT, load_module

CAM = ROOT / "crypto" / "camellia128"


sys.path.insert(0, str(CAM))          # ctkernel imports ctcircuit and ref by name
ref = load_module("ref", CAM / "ref.py")
ctcircuit = load_module("ctcircuit", CAM / "ctcircuit.py")
ctkernel = load_module("ctkernel", CAM / "ctkernel.py")


def test_sbox1_is_affine_equivalent_to_aes_inversion():
    from common.gf256 import inverse
    lin, lout = ctcircuit.LIN, ctcircuit.LOUT
    for x in range(256):
        u = ctcircuit.apply(lin, x ^ 0xc5)
        assert ctcircuit.apply(lout, inverse(u) if u else 0) ^ 0x6e == ref.SBOX1[x]
    # both maps invertible (else the "equivalence" would be a coincidence of a few points)
    assert len({ctcircuit.apply(lin, x) for x in range(256)}) == 256
    assert len({ctcircuit.apply(lout, x) for x in range(256)}) == 256


def test_circuit_on_every_input_in_every_lane():
    assert ctcircuit.check()


def test_circuit_on_random_words():
    # the garbage the unmasked nibble planes carry must never reach bit 0 of a nibble
    rng = random.Random(11)
    x0 = 0xc5 * 0x01010101
    d = 0x6e * 0x01010101
    for _ in range(3000):
        a, b = rng.getrandbits(32), rng.getrandbits(32)
        ga, gb = ctcircuit.sbox_words(a ^ x0, b ^ x0)
        want = bytes(ref.SBOX1[v] for v in a.to_bytes(4, "big") + b.to_bytes(4, "big"))
        assert ((ga ^ d).to_bytes(4, "big") + (gb ^ d).to_bytes(4, "big")) == want


def test_masks_are_needed():
    # without the four masks the circuit is wrong (so the checks above can see garbage)
    gs = [("ZERO", "^", "v", "v")] + [(d, "^", a, "ZERO") if b == "MASK" else (d, op, a, b)
                                       for d, op, a, b in ctcircuit.GATES]
    with pytest.raises(AssertionError):
        ctcircuit.check(gs)


def test_top_program_computes_the_rows():
    have = {0x01: "v", 0x10: "vh"}
    for res, op, a, b in ctcircuit.TOP_PROG:
        assert a in have and (b in have if op == "^" else ctcircuit.nib_shift(a, b) == res)
        if op == "^":
            assert a ^ b == res
        have[res] = True
    assert set(ctcircuit.TOP_ROWS.values()) <= set(have)


def test_f_model_is_rfc3713_f():
    assert ctcircuit.check_f(n=3000, seed=9)


def test_kernel_model_with_folded_constants_is_camellia_both_ways():
    # keyexp's folded subkeys (FOLD, the DELTA offsets), the window rounds without D, FL's
    # corrections and the folded whitening: encryption = RFC 3713, decryption inverts it with
    # the same rk
    assert ctkernel.check_model(n=150, seed=12)


def test_leaving_d_out_is_a_constant_offset_of_f():
    rng = random.Random(5)
    for _ in range(200):
        args = [rng.getrandbits(32) for _ in range(4)]
        with_d, without = ctcircuit.f_kernel(*args), ctcircuit.f_kernel(*args, d=False)
        assert (with_d[0] ^ without[0], with_d[1] ^ without[1]) == ctcircuit.DELTA
    # decryption's key offsets are encryption's reversed, complemented: entering a block with
    # DELTA in both halves gives them
    assert [1 - x for x in ctkernel.ENC_FOLD[::-1]] == ctkernel.ENC_FOLD


def test_sboxes_2_to_4_by_lane_rotations():
    # what f_kernel's rotations stand for: SBOX2/3 rotate SBOX1's output, SBOX4 its input
    for x in range(256):
        assert ref.SBOX2[x] == ref.rotl8(ref.SBOX1[x], 1)
        assert ref.SBOX3[x] == ref.rotl8(ref.SBOX1[x], 7)
        assert ref.SBOX4[x] == ref.SBOX1[ref.rotl8(x, 1)]
    a, b = ctcircuit.swapmove_bytes(0x01020304, 0x05060708)
    assert (a, b) == (0x01070804, 0x05060203)
    assert ctcircuit.swapmove_bytes(a, b) == (0x01020304, 0x05060708)
    assert ctcircuit.rot_lanes(0x11223344, 0x00ff00ff, True) == 0x00440088
    assert ctcircuit.rot_lanes(0x11223344, 0xff00ff00, False) == 0x88009900


VARIANTS = ["rv32i-ct", "zbkb-ct"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_allocated_round_is_f(variant):
    # the scheduled, register-allocated round (spills, reloads, recomputations) on random
    # windows and keys: the stored half is L_{r-1} ^ F(L_r, k) ^ DELTA
    frame = ctkernel.Frame(ctkernel.FRAME_NAMES)
    stats = {}
    order = ctkernel.round_insns(frame, stats, variant=variant)
    ctkernel.check_round(None, {n: frame.slot(n) for n in ctkernel.CONSTS}, order, n=300, seed=4)
    assert stats["round_insns"] < 215
    assert any(x.op == "rori" for x in order) == (variant == "zbkb-ct")


def test_check_round_sees_a_wrong_round():
    # the self-check is not vacuous: one instruction changed and it fails
    frame = ctkernel.Frame(ctkernel.FRAME_NAMES)
    order = ctkernel.round_insns(frame, {})
    k = next(i for i, x in enumerate(order) if x.op == "and")
    bad = list(order)
    bad[k] = type(order[k])(order[k].text.replace("and ", "xor ", 1), order[k].dst, order[k].src)
    with pytest.raises(AssertionError):
        ctkernel.check_round(None, {n: frame.slot(n) for n in ctkernel.CONSTS}, bad)


@pytest.mark.parametrize("variant", VARIANTS)
def test_generated_kernel_has_no_data_dependent_address_or_branch(variant):
    # loads and stores only through the stack, the window/key pointers and the API's buffer
    # pointers with constant offsets; conditional branches only on a buffer pointer's
    # alignment (zbkb-ct), none in rv32i-ct (the checker decides for real: rvlab bench
    # records constant_time = true)
    text, _ = ctkernel.generate(variant)
    branches = 0
    for line in text.splitlines():
        ins = line.split("#")[0].replace(",", " ").split()
        if not ins:
            continue
        if ins[0] in ("lw", "sw", "lbu", "sb"):
            base = ins[-1].split("(")[1].rstrip(")")
            assert base in ("sp", "a0", "a1", "a2", ctkernel.P, ctkernel.Q), line
        if ins[0] in ("beq", "bne", "bnez", "beqz", "blt", "bge", "bltu", "bgeu"):
            assert variant == "zbkb-ct" and "not word-aligned" in line, line
            branches += 1
    assert branches == (5 if variant == "zbkb-ct" else 0)


@pytest.mark.parametrize("variant", VARIANTS)
def test_generated_file_is_current(variant):
    text, _ = ctkernel.generate(variant)
    assert (CAM / variant / "camellia128_ct.S").read_text() == text
