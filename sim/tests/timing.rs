//! E31 timing tests, asserted to the cycle. Each program is assembled from
//! tests/asm/timing.S at test time. Derivations use the documented E31 facts:
//! result latency ALU 1, LW 2, LBU 3, CSR 3, MUL 5, DIV 2..33 (1 bit per cycle; rvsim's
//! formula 2 + max(0, bitlen(dividend) - bitlen(divisor))), blocking multiplier/divider,
//! 3-cycle mispredict penalty, 2-entry RAS; predictor state starts with all 2-bit counters
//! weakly-not-taken and an empty BTB (rvsim's documented choice).
//!
//! "delta" = issue cycle of the second rdcycle - issue cycle of the first. With no stalls a
//! block of n instructions gives delta = n + 1.

mod common;
use common::*;
use rvsim::timing::{CoreParams, S_BRANCH, S_DIV, S_ICACHE, S_LOAD, S_MUL, S_OTHER, S_TRAP};

/// E31 with the I-cache model switched off (its effect is tested separately).
fn no_icache() -> CoreParams { CoreParams { icache_size: 0, ..CoreParams::e31() } }

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
    assert_eq!(r.m.x[18], 16);
    assert_eq!(r.stalls[S_LOAD], 7);
}

#[test]
fn lbu_chain() {
    // each (lbu, add) pair: add waits 3 cycles for the byte, the next lbu 1 for the add: 4 per pair
    let r = measure("LBU_CHAIN", no_icache());
    assert_eq!(r.m.x[18], 4 * 8 + 1);
    assert_eq!(r.stalls[S_LOAD], 2 * 8);
}

#[test]
fn mul_chain() {
    // mul k issues 5 cycles after mul k-1: 1 + 5*7 + 1
    let r = measure("MUL_CHAIN", no_icache());
    assert_eq!(r.m.x[18], 37);
    assert_eq!(r.stalls[S_MUL], 4 * 7);
    // the same program with --mul-latency 2 (seed 000's figure): 1 + 2*7 + 1
    let r = measure("MUL_CHAIN", CoreParams { lat_mul: 2, ..no_icache() });
    assert_eq!(r.m.x[18], 16);
}

#[test]
fn mul_independent_blocks() {
    // independent muls still wait for the single multiplier: issue at +1, +6, +11, +16
    let r = measure("MUL_INDEP", no_icache());
    assert_eq!(r.m.x[18], 17);
}

#[test]
fn mul_waw() {
    // addi writing the mul's rd waits until its result would not be older: t+5-1 = t+4
    let r = measure("MUL_WAW", no_icache());
    assert_eq!(r.m.x[18], 1 + 4 + 1);
}

#[test]
fn alu_independent() {
    let r = measure("ALU_INDEP", no_icache());
    assert_eq!(r.m.x[18], 17);
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
    assert_eq!(r.m.x[19], 35);
    assert_eq!(r.m.x[18], 5);
    assert_eq!(r.stalls[S_DIV], 32 + 2);
}

#[test]
fn predicted_loop() {
    // 10 iterations of (addi, bnez): 20 instructions; the first taken bnez is mispredicted
    // (counter weakly-not-taken), the next 8 are predicted taken, the final not-taken one is
    // mispredicted: 2 * 3 penalty cycles
    let r = measure("LOOP", no_icache());
    assert_eq!(r.m.x[18], 1 + 20 + 6);
    assert_eq!(r.stalls[S_BRANCH], 6 + 3); // + the cold `j test` before the block
}

#[test]
fn alternating_branch_defeats_2bit_counter() {
    // beqz outcomes T,N,T,N,... from counter 1: every one mispredicted (8); the loop branch
    // mispredicts its first taken and its final not-taken instance (2).
    // instructions: 4 iterations of 4 + 4 of 5 = 36
    let r = measure("PATTERN", no_icache());
    assert_eq!(r.m.x[18], 1 + 36 + 10 * 3);
    assert_eq!(r.mispredicts, 10 + 1); // + the cold `j test` before the block
}

#[test]
fn calls_deeper_than_ras() {
    // measured call: jal + f1..f3 (6 instructions each) + f4 (ret) = 20 instructions.
    // The measured `call f1` is at a new pc (BTB miss: 3); the calls inside f1..f3 hit the BTB
    // warmed by the first call; returns of f4 and f3 hit the 2-entry RAS, those of f2 and f1
    // find entries overwritten by the deeper calls and are mispredicted: 2 * 3
    let r = measure("CALLS", no_icache());
    assert_eq!(r.m.x[18], 1 + 20 + 3 + 6);
}

#[test]
fn icache_cold_then_warm() {
    // cold: jal (BTB miss, 3) + 64 instructions in 8 new 32-byte lines (8 * 20) -> 1 + 3 + 64 + 160 + 1
    // warm: jal at another pc (BTB miss, 3) + 64 instructions -> 1 + 3 + 64 + 1
    let r = measure("ICACHE", CoreParams::e31());
    assert_eq!(r.m.x[19], 229);
    assert_eq!(r.m.x[18], 69);
    assert!(r.stalls[S_ICACHE] >= 160);
}

#[test]
fn trap_round_trip() {
    // ecall issues at +1 and the handler starts trap_entry (4) cycles after its slot: csrr
    // mepc at +6, addi waits for the CSR result (latency 3) until +9, csrw +10, mret +11,
    // fetch at mepc after mret_penalty (3): rdcycle at +15.
    let r = measure("TRAP", no_icache());
    assert_eq!(r.m.x[18], 15);
    assert_eq!(r.stalls[S_TRAP], 4 + 3);
    assert_eq!(r.stalls[S_OTHER], 2 + 2); // addi on csrr, and STOP's sub on its rdcycle
    assert_eq!(r.m.traps_taken, 1);
    // the trapping ecall does not retire: START, csrr, addi, csrw, mret, STOP
    let i = run(&build_asm("timing", "rv32im_zicsr", &["T_TRAP"]), "rv32im", None);
    assert_eq!(i.m.x[18], 6);
}

#[test]
fn muladd_uses_the_multiplier() {
    // a custom instruction with uses_multiplier = true blocks like MUL_INDEP and follows the
    // core's multiplier latency: issues at +1, +6, +11, +16 (latency 5) or +1, +3, +5, +7 (2); rdcycle one cycle after the last
    let elf = build_asm("timing", "rv32im_zicsr", &["T_MULADD"]);
    let r = run(&elf, "rv32im_xpolymul", Some(no_icache()));
    assert_eq!((r.exit.clone(), r.m.x[18]), (Ok(0), 17));
    assert_eq!(r.stalls[S_MUL], 12);
    let r = run(&elf, "rv32im_xpolymul", Some(CoreParams { lat_mul: 2, ..no_icache() }));
    assert_eq!(r.m.x[18], 8);
}

#[test]
fn icache_two_way_lru_eviction() {
    // fa, fb, fc (one `ret` each) are 8 KiB apart: the same set of the 16 KiB 2-way cache
    // with 32-byte lines. seq calls fa fb fa fc fa fb, twice; the second pass is measured.
    // After pass 1 the set holds [fb, fa] (most recent first). Pass 2 with LRU:
    //   fa hit [fa fb], fb hit [fb fa], fa hit [fa fb], fc miss evicts fb (least recently
    //   used, not fa) [fc fa], fa hit [fa fc], fb miss evicts fc [fb fa]: 2 misses
    // (a FIFO cache would evict fa at fc and miss 3 times; direct-mapped and 4-way below).
    // 12 instructions between the rdcycles, every jal predicted by the BTB warmed in pass 1
    // (no two control instructions share an entry), every return by the RAS, seq's own lines
    // stay cached: delta = 12 + 1 + 2 * 20.
    let r = measure("ICACHE_LRU", CoreParams::e31());
    assert_eq!(r.m.x[18], 12 + 1 + 2 * 20);
    // the same program without the I-cache model: no miss at all
    let r = measure("ICACHE_LRU", no_icache());
    assert_eq!(r.m.x[18], 13);
    // the same sets (256) with 4 ways: all three lines stay, no miss in pass 2; direct-mapped
    // (1 way): every call misses, 6
    let r = measure("ICACHE_LRU", CoreParams { icache_size: 32768, icache_ways: 4, ..CoreParams::e31() });
    assert_eq!(r.m.x[18], 13);
    let r = measure("ICACHE_LRU", CoreParams { icache_size: 8192, icache_ways: 1, ..CoreParams::e31() });
    assert_eq!(r.m.x[18], 13 + 6 * 20);
}

#[test]
fn btb_entries_alias_modulo_40() {
    // j at P and j at P+80: (pc/2) mod 40 is the same, the direct-mapped BTB keeps one of them
    // and each evicts the other: both mispredict in every iteration (2 * 3 cycles). 10
    // iterations of (j, j, addi, bnez) = 40 instructions; bnez mispredicts its first taken
    // and its final not-taken instance (2 * 3).
    let r = measure("BTB_ALIAS", no_icache());
    assert_eq!(r.m.x[18], 1 + 40 + 10 * 6 + 6);
    // 84 bytes apart (different entries): each j mispredicts only the first time
    let r = measure("BTB_NOALIAS", no_icache());
    assert_eq!(r.m.x[18], 1 + 40 + 2 * 3 + 6);
    // with 64 entries, 80 bytes apart is 40 entries apart: no aliasing either
    let r = measure("BTB_ALIAS", CoreParams { btb_entries: 64, ..no_icache() });
    assert_eq!(r.m.x[18], 1 + 40 + 2 * 3 + 6);
}

#[test]
fn bht_counters_alias_modulo_128() {
    // beq zero,zero (always taken) at P and bne zero,zero (never taken) at P+256 share the
    // 2-bit counter BHT[(pc/2) mod 128]. From 1 (weakly not-taken) the taken branch moves it
    // to 2 and the not-taken one back to 1 before the taken one runs again: the taken branch
    // is predicted not-taken and mispredicts in all 10 iterations. (The never-taken branch is
    // never in the BTB, so it is always predicted not-taken: correct.) 40 instructions; the
    // loop bnez mispredicts twice.
    let r = measure("BHT_ALIAS", no_icache());
    assert_eq!(r.m.x[18], 1 + 40 + 10 * 3 + 6);
    // 260 bytes apart (different counters): the taken branch mispredicts only the first time
    let r = measure("BHT_NOALIAS", no_icache());
    assert_eq!(r.m.x[18], 1 + 40 + 3 + 6);
    assert_eq!(r.mispredicts, 1 + 1 + 2); // + the cold `j test` before the block
    // with 256 counters, 256 bytes apart is 128 counters apart: no aliasing either
    let r = measure("BHT_ALIAS", CoreParams { bht_entries: 256, ..no_icache() });
    assert_eq!(r.m.x[18], 1 + 40 + 3 + 6);
}
