"""crypto/sm4/ctsbox.py and ctgen.py (the constant-time kernels rv32i-ct and zbkb-ct): the S-box
circuit on whole words equals SM4's S-box (the table gen.py checks against `cryptography`) on
every input in every byte lane whatever the other lanes hold; its linear programs compute what
they claim and are the shortest of their kind; the kernels' model with the folded constants is
SM4 (decryption with the same round keys); the allocated loops compute their SSA."""
import random
import sys

import pytest

from conftest import ROOT, load_module

SM4 = ROOT / "crypto" / "sm4"


sys.path.insert(0, str(SM4))          # ctgen imports ctsbox by name
gen = load_module("sm4_gen_for_ct", SM4 / "gen.py")
ctsbox = load_module("ctsbox", SM4 / "ctsbox.py")
ctgen = load_module("ctgen", SM4 / "ctgen.py")


def test_sbox_algebra_is_the_standard_table():
    # the decomposition S(x) = M inv(M x + D) + D the circuit is built on, against gen.py's table
    # (test_sm4_gen checks that table against cryptography's SM4 through gen.check)
    assert ctsbox.SBOX == gen.SBOX


def test_circuit_on_every_input_in_every_lane():
    assert ctsbox.check()


def test_circuit_on_random_words():
    # the garbage the unmasked planes carry (the other bits of the byte and of the next byte)
    # must never reach bit 0 of a byte: any word, any neighbours
    rng = random.Random(7)
    a, d = ctsbox.ALPHA * 0x01010101, ctsbox.D * 0x01010101
    for _ in range(3000):
        w = rng.getrandbits(32)
        want = sum(gen.SBOX[(w >> 8 * k) & 255] << 8 * k for k in range(4))
        assert ctsbox.eval_word(w ^ a) ^ d == want


def test_masks_are_needed():
    # without the four masks the circuit is wrong (so the check above can see garbage)
    saved = ctsbox.MIDDLE_GATES
    try:
        # each `x & MASK` becomes `x ^ 0`
        ctsbox.MIDDLE_GATES = [("ZERO", "^", "t", "t")] + [
            (d, "^", a, "ZERO") if b == "MASK" else (d, op, a, b) for d, op, a, b in saved]
        with pytest.raises(AssertionError):
            ctsbox.check()
    finally:
        ctsbox.MIDDLE_GATES = saved


def test_linear_programs_are_shortest():
    # TOP: 22 signals from t in 26 operations; BOTTOM's transposed program: 17 of its 18
    # targets need an operation (one is 1), 21 in all. Four intermediates each, and no program
    # with three exists (exhaustive search)
    top = [ctsbox.TOP_ROWS[s] for s in ctsbox.YS]
    bottom = ctsbox.bottom_targets(ctsbox.BOTTOM_ROWS)
    assert len(ctsbox.TOP_GATES) == 26 and len(ctsbox.parse(ctsbox.BOTTOM_T)) == 21
    assert len(ctsbox.BOTTOM_GATES) == 21 + 17
    assert ctsbox.fewest_intermediates(top, 3) is None
    assert ctsbox.fewest_intermediates(bottom, 3) is None
    assert len(ctsbox.fewest_intermediates(top, 4)) == 4


def test_search_finds_64_for_the_chosen_constants(capsys):
    # the search the programs come from, on the kernels' (C, BETA): 26 + 38 operations
    assert ctsbox.search(betas=[ctsbox.BETA], cs=[ctsbox.C]) == (64, ctsbox.C, ctsbox.BETA)
    assert "TOP:" in capsys.readouterr().out


def test_program_from_rebuilds_the_programs_length():
    top = [ctsbox.TOP_ROWS[s] for s in ctsbox.YS]
    prog = ctsbox.program_from(top, ctsbox.fewest_intermediates(top, 4))
    assert len(prog) == 26
    have = {1}
    for op, x, a, b in prog:
        assert a in have and (b in have if op == "^" else x == a << b and x < 256)
        have.add(x)
    assert set(top) <= have


def test_model_is_sm4_with_one_key_schedule_for_both_directions():
    ctgen.check(n=40)


def test_constant_offsets_are_symmetric():
    # decryption runs the same rounds with the keys reversed: the constants folded into round
    # key i must equal those of round 31 - i
    assert ctgen.RK_FOLD == ctgen.RK_FOLD[::-1]
    assert len(set(ctgen.RK_FOLD)) == 2


@pytest.mark.parametrize("variant", ["rv32i-ct", "zbkb-ct"])
def test_generated_kernels_have_no_data_dependent_memory_or_branch(variant):
    # every load/store in the kernel is sp-, key-pointer- or buffer-relative with a constant
    # offset, and the branches test alignment or the loop bound only (the checker decides for
    # real; this keeps the generator honest)
    text, stats = ctgen.generate(variant)
    for line in text.splitlines():
        ins = line.split("#")[0].split()
        if not ins:
            continue
        if ins[0] in ("lw", "sw", "lbu", "sb"):
            base = ins[-1].split("(")[1].rstrip(")")
            assert base in ("sp", "a0", "a1", "a2"), line
        if ins[0] in ("beq", "bne", "bnez", "beqz", "blt", "bge", "bltu", "bgeu"):
            assert "_loop" in line or "not word-aligned" in line or "_bytes" in line, line
    assert all(s["body_insns"] < 640 for s in stats.values())
