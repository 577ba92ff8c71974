//! E31 timing tests, asserted to the cycle. Each program is assembled from
//! tests/asm/timing.S at test time. Derivations use the documented E31 facts:
//! result latency ALU 1, LW 2, LBU 3, CSR 3, MUL 5, DIV 2..33 (1 bit per cycle; rvsim's
//! formula 2 + max(0, bitlen(dividend) - bitlen(divisor))), blocking multiplier/divider,
//! 3-cycle mispredict penalty, 2-entry RAS, and the organisation of Rocket's front end that
//! sim/README.md describes (fully associative BTB written on mispredicted taken transfers,
//! BHT indexed by fetch address XOR outcome history and used only for branches in the BTB,
//! RAS used only for returns in the BTB); the predictor starts empty, counters at 0.
//!
//! "delta" = issue cycle of the second rdcycle - issue cycle of the first. With no stalls a
//! block of n instructions gives delta = n + 1.

mod common;
use common::*;
use rvsim::timing::{CoreParams, IcacheReplacement, S_BRANCH, S_DIV, S_FETCH, S_ICACHE, S_LOAD, S_MUL, S_OTHER, S_TRAP};

/// E31 with the I-cache model switched off (its effect is tested separately).
fn no_icache() -> CoreParams { CoreParams { icache_size: 0, ..CoreParams::e31() } }
/// The HiFive1 Rev B's E31 (FE310-G002 front end), I-cache off.
fn revb() -> CoreParams { CoreParams { icache_size: 0, ..CoreParams::hifive1_revb() } }

fn measure(name: &str, p: CoreParams) -> Run {
    let elf = build_asm("timing", "rv32im_zicsr", &[&format!("T_{name}")]);
    let r = run(&elf, "rv32im", Some(p));
    assert_eq!(r.exit, Ok(0), "{name}");
    r
}

#[test]
fn lw_chain() {
    // lw k issues 2 cycles after lw k-1: 1 + 2*7 + 1 (rdcycle right after the last lw)
    let r = measure("LW_CHAIN", no_icache());
    assert_eq!(r.measured_cycles(), 16);
    assert_eq!(r.stalls[S_LOAD], 7);
}

#[test]
fn cycle_window_is_the_measured_block() {
    // rvsim's cycle_window (JSON `cycle_window`, what rvlab measure reports): the statistics
    // between the last two reads of the cycle counter, here START and STOP around the block
    for (name, cause, stalls) in [("LW_CHAIN", S_LOAD, 7), ("MUL_CHAIN", S_MUL, 28), ("LBU_CHAIN", S_LOAD, 16)] {
        let r = measure(name, no_icache());
        let (c, instret) = r.m.cycle_window().expect("two cycle reads");
        assert_eq!(c.cycles, r.measured_cycles() as u64, "{name}");
        assert_eq!(c.stalls[cause], stalls, "{name}");
        assert_eq!(c.stalls.iter().sum::<u64>() + instret, c.cycles, "{name}: instructions + stalls");
    }
    // with two measured blocks, the second one's
    let r = measure("DIV", no_icache());
    assert_eq!(r.m.cycle_window().unwrap().0.cycles, r.measured_cycles() as u64);
}

#[test]
fn lbu_chain() {
    // each (lbu, add) pair: add waits 3 cycles for the byte, the next lbu 1 for the add: 4 per pair
    let r = measure("LBU_CHAIN", no_icache());
    assert_eq!(r.measured_cycles(), 4 * 8 + 1);
    assert_eq!(r.stalls[S_LOAD], 2 * 8);
}

#[test]
fn mul_chain() {
    // mul k issues 5 cycles after mul k-1: 1 + 5*7 + 1
    let r = measure("MUL_CHAIN", no_icache());
    assert_eq!(r.measured_cycles(), 37);
    assert_eq!(r.stalls[S_MUL], 4 * 7);
    // the same program with --mul-latency 2 (seed 000's figure): 1 + 2*7 + 1
    let r = measure("MUL_CHAIN", CoreParams { lat_mul: 2, ..no_icache() });
    assert_eq!(r.measured_cycles(), 16);
}

#[test]
fn mul_independent_blocks() {
    // independent muls still wait for the single multiplier: issue at +1, +6, +11, +16
    let r = measure("MUL_INDEP", no_icache());
    assert_eq!(r.measured_cycles(), 17);
}

#[test]
fn mul_waw() {
    // addi writing the mul's rd waits until its result would not be older: t+5-1 = t+4
    let r = measure("MUL_WAW", no_icache());
    assert_eq!(r.measured_cycles(), 1 + 4 + 1);
}

#[test]
fn alu_independent() {
    let r = measure("ALU_INDEP", no_icache());
    assert_eq!(r.measured_cycles(), 17);
    // program-wide stalls are only outside the block: the cold `j test` (3, BTB miss) and
    // the `sub` waiting 2 cycles for the second rdcycle (CSR latency 3)
    assert_eq!(r.stalls[S_BRANCH], 3);
    assert_eq!(r.stalls.iter().sum::<u64>(), 3 + 2);
}

#[test]
fn div_operand_dependent() {
    // 0xffffffff / 1: 2 + 32 - 1 = 33 cycles; add issues 33 after divu: delta 1 + 33 + 1
    // 7 / 3: 2 + 3 - 2 = 3 cycles: delta 1 + 3 + 1
    let r = measure("DIV", no_icache());
    assert_eq!(r.first_measured_cycles(), 35);
    assert_eq!(r.measured_cycles(), 5);
    assert_eq!(r.stalls[S_DIV], 32 + 2);
}

#[test]
fn predicted_loop() {
    // 10 iterations of (addi, bnez): 20 instructions. The first taken bnez misses the BTB
    // (mispredicted, then written). Iterations 2..9 hit it and read the BHT at (fetch address
    // / 2) XOR history, and the history gains a taken bit each time (0, 0x40, 0x60, .., 0x7e,
    // 0x7f): 8 fresh counters (0, not taken), 8 mispredicts. Iteration 10 reads the counter
    // iteration 9 trained with history 0x7f, whose prediction bit is still 0 (one taken
    // outcome moves it only to (last taken, predict not-taken)): not taken, correct.
    let r = measure("LOOP", no_icache());
    assert_eq!(r.measured_cycles(), 1 + 20 + 9 * 3);
    assert_eq!(r.stalls[S_BRANCH], 9 * 3 + 3); // + the cold `j test` before the block
    // the Rev B: every branch reads and trains the one-bit counter at (fetch address / 4)
    // XOR (history hashed to 3 bits) << 6. The histories 0, 0x80, 0xc0, .., 0xfe, 0xff of
    // iterations 1..10 hash to 0, 4, 6, 3, 1, 0, 4, 2, 1, 1 (((221 * h) >> 5) & 7): iterations
    // 1..5 and 8 find untrained counters (6 mispredicts, the first also a BTB miss the
    // predecoder does not redirect), and the exit finds the counter iteration 9 trained
    // taken (1 more)
    let r = measure("LOOP", revb());
    assert_eq!(r.measured_cycles(), 1 + 20 + 7 * 3);
    assert_eq!(r.stalls[S_FETCH], 1); // the cold `j test`: predecoded
}

#[test]
fn alternating_branch() {
    // beqz T,N,T,N,... and the loop's bnez: instructions 4 iterations of 4 + 4 of 5 = 36;
    // the mispredicts are those of the history-indexed counters, all cold here
    let r = measure("PATTERN", no_icache());
    assert_eq!(r.measured_cycles() as u64, 1 + 36 + r.stalls[S_BRANCH] - 3);
    assert_eq!(r.stalls[S_BRANCH], 3 * r.mispredicts);
}

#[test]
fn calls_deeper_than_ras() {
    // measured call: call + f1..f3 (6 instructions each) + f4 (ret) = 20 instructions.
    // Warm-up: every call and return misses the BTB; the returns are then written to it as
    // returns, and (missing the BTB) do not pop the RAS. Measured: `call f1` is at a new pc
    // (BTB miss: 3); the calls inside f1..f3 hit. The 2-entry RAS holds the return addresses
    // of the calls to f4 and f3: those returns are predicted by it; then it is empty and the
    // returns of f2 and f1 take the BTB's target: right for f2 (always back into f1), wrong
    // for f1 (the warm-up call came from another site): 3
    let r = measure("CALLS", no_icache());
    assert_eq!(r.measured_cycles(), 1 + 20 + 3 + 3);
    // the Rev B: its 6-entry RAS holds all four: only the new call site costs, one cycle of
    // the predecoder (the linker relaxes `call` to `jal`)
    let r = measure("CALLS", revb());
    assert_eq!(r.measured_cycles(), 1 + 20 + 1);
}

#[test]
fn icache_cold_then_warm() {
    // cold: call (BTB miss, 3) + 64 instructions in 4 new 64-byte lines (4 * 20) + the return
    // (BTB miss, 3) -> 1 + 3 + 64 + 80 + 3 + 1
    // warm: call at another pc (BTB miss, 3) + 64 instructions, the return predicted by the
    // RAS now that the BTB holds it -> 1 + 3 + 64 + 1
    let r = measure("ICACHE", CoreParams::e31());
    assert_eq!(r.first_measured_cycles(), 152);
    assert_eq!(r.measured_cycles(), 69);
    assert!(r.stalls[S_ICACHE] >= 80);
}

#[test]
fn trap_round_trip() {
    // ecall issues at +1 and the handler starts trap_entry (4) cycles after its slot: csrr
    // mepc at +6, addi waits for the CSR result (latency 3) until +9, csrw +10, mret +11,
    // fetch at mepc after mret_penalty (3): rdcycle at +15.
    let r = measure("TRAP", no_icache());
    assert_eq!(r.measured_cycles(), 15);
    assert_eq!(r.stalls[S_TRAP], 4 + 3);
    assert_eq!(r.stalls[S_OTHER], 2 + 2); // addi on csrr, and STOP's sub on its rdcycle
    assert_eq!(r.m.traps_taken, 1);
    // the trapping ecall does not retire: START, csrr, addi, csrw, mret, STOP
    let i = run(&build_asm("timing", "rv32im_zicsr", &["T_TRAP"]), "rv32im", None);
    assert_eq!(i.measured_cycles(), 6);
}

#[test]
fn muladd_uses_the_multiplier() {
    // a custom instruction with uses_multiplier = true blocks like MUL_INDEP and follows the
    // core's multiplier latency: issues at +1, +6, +11, +16 (latency 5) or +1, +3, +5, +7 (2); rdcycle one cycle after the last
    let elf = build_asm("timing", "rv32im_zicsr", &["T_MULADD"]);
    let r = run(&elf, "rv32im_xpolymul", Some(no_icache()));
    assert_eq!((r.exit.clone(), r.measured_cycles()), (Ok(0), 17));
    assert_eq!(r.stalls[S_MUL], 12);
    let r = run(&elf, "rv32im_xpolymul", Some(CoreParams { lat_mul: 2, ..no_icache() }));
    assert_eq!(r.measured_cycles(), 8);
}

#[test]
fn icache_two_way_lru_eviction() {
    // fa, fb, fc (one `ret` each) are 8 KiB apart: the same set of the 16 KiB 2-way cache
    // with 64-byte lines (LRU replacement here; the E31's random one below). seq calls fa fb fa fc fa fb, twice; the second pass is measured.
    // After pass 1 the set holds [fb, fa] (most recent first). Pass 2 with LRU:
    //   fa hit [fa fb], fb hit [fb fa], fa hit [fa fb], fc miss evicts fb (least recently
    //   used, not fa) [fc fa], fa hit [fa fc], fb miss evicts fc [fb fa]: 2 misses
    // (a FIFO cache would evict fa at fc and miss 3 times; direct-mapped and 4-way below).
    // 12 instructions between the rdcycles, every jal predicted by the BTB warmed in pass 1
    // (no two control instructions share an entry), every return by the RAS, seq's own lines
    // stay cached: delta = 12 + 1 + 2 * 20.
    let lru = CoreParams { icache_replacement: IcacheReplacement::Lru, ..CoreParams::e31() };
    let r = measure("ICACHE_LRU", lru.clone());
    assert_eq!(r.measured_cycles(), 12 + 1 + 2 * 20);
    // the same program without the I-cache model: no miss at all
    let r = measure("ICACHE_LRU", no_icache());
    assert_eq!(r.measured_cycles(), 13);
    // the same sets (128) with 4 ways: all three lines stay, no miss in pass 2; direct-mapped
    // (1 way): every call misses, 6
    let r = measure("ICACHE_LRU", CoreParams { icache_size: 32768, icache_ways: 4, ..lru.clone() });
    assert_eq!(r.measured_cycles(), 13);
    let r = measure("ICACHE_LRU", CoreParams { icache_size: 8192, icache_ways: 1, ..lru });
    assert_eq!(r.measured_cycles(), 13 + 6 * 20);
}

#[test]
fn icache_random_replacement() {
    // the E31's I-cache refills the way given by the low bit of a 16-bit LFSR (reset 1, new
    // bit l0^l2^l3^l5 shifted in at the top) advanced once per miss: the reset bit needs 15
    // shifts to reach bit 0, so the first 15 refills all go to way 0 and the 16th to way 1.
    let lfsr = |n: usize| {
        let mut l: u16 = 1;
        (0..n).map(|_| { l = (l >> 1) | ((l ^ (l >> 2) ^ (l >> 3) ^ (l >> 5)) & 1) << 15; l & 1 }).collect::<Vec<_>>()
    };
    assert_eq!(lfsr(16), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    // So up to pass 2 of ICACHE_LRU the cache acts as direct-mapped: fa, fb, fc evict each
    // other and all 6 calls of pass 2 miss (as with 1 way above). The run misses 16 lines in
    // all, the last of them the only refill of way 1.
    let r = measure("ICACHE_LRU", CoreParams::e31());
    assert_eq!(r.measured_cycles(), 13 + 6 * 20);
    assert_eq!(r.icache_misses, 16);
}

#[test]
fn btb_is_fully_associative() {
    // j at P and j at P+80 ((pc/2) mod 40 equal: one entry of a direct-mapped 40-entry BTB)
    // or P+84: fully associative, both stay; each j mispredicts only the first time. 10
    // iterations of (j, j, addi, bnez) = 40 instructions; bnez as in predicted_loop: 9 * 3.
    for name in ["BTB_ALIAS", "BTB_NOALIAS"] {
        let r = measure(name, no_icache());
        assert_eq!(r.measured_cycles(), 1 + 40 + 2 * 3 + 9 * 3, "{name}");
    }
    // with 2 entries (round-robin) the two jumps and the bnez evict each other in turn:
    // every one mispredicts; the bnez's counters are then never read (BTB miss): 10 * 9 - 3
    // (the last, not-taken bnez is correct)
    let r = measure("BTB_NOALIAS", CoreParams { btb_entries: 2, ..no_icache() });
    assert_eq!(r.measured_cycles(), 1 + 40 + 10 * 9 - 3);
}

#[test]
fn bht_only_for_branches_in_the_btb() {
    // an always-taken beq at P and a never-taken bne at P+256 or P+260: the bne never enters
    // the BTB, so it neither reads nor trains the BHT -- where it sits does not matter
    let a = measure("BHT_ALIAS", no_icache());
    let b = measure("BHT_NOALIAS", no_icache());
    assert_eq!(a.measured_cycles(), b.measured_cycles());
    // when every branch trains the BHT (bht_needs_btb = false) the bne's not-taken outcomes
    // enter the history and its counters: the figures change
    let c = measure("BHT_ALIAS", CoreParams { bht_needs_btb: false, ..no_icache() });
    assert_ne!(c.measured_cycles(), a.measured_cycles());
}

#[test]
fn predecoder_redirects_in_one_cycle() {
    // the cold `j test`: a BTB miss costs the full mispredict on the G000, one cycle of the
    // predecoder on the G002
    let r = measure("ALU_INDEP", revb());
    assert_eq!(r.measured_cycles(), 17);
    assert_eq!((r.stalls[S_BRANCH], r.stalls[S_FETCH]), (0, 1));
}

#[test]
fn misaligned_fetch_after_a_redirect() {
    // START, j (a BTB miss: 3), 16 addi, STOP. The first addi is the jump's target: at a
    // 2-mod-4 address it needs a second 4-byte fetch packet (misaligned_fetch_penalty, 1);
    // the other 15, also at 2-mod-4 addresses but reached in sequence, cost nothing extra
    // (the fetch buffer keeps the half left over). delta = 1 + 1 + 3 + 16 (+ 1)
    let elf = |name: &str| build_asm("timing", "rv32imc_zicsr", &[&format!("T_{name}")]);
    let (mis, al) = (elf("MISALIGNED"), elf("ALIGNED"));
    let r = run(&mis, "rv32imc", Some(no_icache()));
    assert_eq!(r.measured_cycles(), 1 + 1 + 3 + 16 + 1);
    assert_eq!(r.stalls[S_FETCH], 1);
    let r = run(&al, "rv32imc", Some(no_icache()));
    assert_eq!(r.measured_cycles(), 1 + 1 + 3 + 16);
    assert_eq!(r.stalls[S_FETCH], 0);
    // the parameter: 0 removes it
    let r = run(&mis, "rv32imc", Some(CoreParams { misaligned_fetch_penalty: 0, ..no_icache() }));
    assert_eq!(r.measured_cycles(), 1 + 1 + 3 + 16);
}

#[test]
fn store_load_replay() {
    // [memory] store_load_replay (rocket-chip's data cache store buffer, sim/README.md): a
    // store is pending from 2 cycles after it issues until a cycle without a load, the older
    // of two first; a load of a byte of a pending store issues store_load_replay cycles late
    // (stall cause `other`). 0 (the e31 default): no effect.
    let replay = CoreParams { store_load_replay: 5, ..no_icache() };
    for (name, insns, hazard) in [("SL_SAME", 2, true), ("SL_OTHER", 2, false), ("SL_GAP1", 3, true), ("SL_GAP2", 4, false),
                                  ("SL_LOADS", 5, true), ("SL_BYTE", 2, true), ("SL_BYTE_OTHER", 2, false),
                                  ("SL_TWO", 4, true), ("SL_TWO_GAP", 4, false), ("SL_TWO_GAP_B", 4, true)] {
        let base = measure(name, no_icache());
        assert_eq!(base.measured_cycles(), insns + 1, "{name}");
        let r = measure(name, replay.clone());
        let pen = if hazard { 5 } else { 0 };
        assert_eq!(r.measured_cycles(), insns + 1 + pen, "{name}");
        assert_eq!(r.stalls[S_OTHER] - base.stalls[S_OTHER], pen as u64, "{name}");
    }
    // in a loop (blocks on the block engine): each of 10 loads one slot after its store replays
    for (name, per) in [("SL_LOOP", 5), ("SL_LOOP_FAR", 0)] {
        let (base, r) = (measure(name, no_icache()), measure(name, replay.clone()));
        assert_eq!(r.measured_cycles() - base.measured_cycles(), 10 * per, "{name}");
        assert_eq!(r.stalls[S_OTHER] - base.stalls[S_OTHER], 10 * per as u64, "{name}");
    }
}
