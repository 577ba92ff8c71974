//! Core files other than the E31: sim/cores/rv5.toml, the model of the 5-stage pipeline in
//! hw/core/rv5_core.v (static not-taken branches with a 2-cycle penalty, loads of latency 2,
//! single-cycle MUL, a divider that holds the pipeline). The same kernels as tests/timing.rs,
//! with the cycle figures derived from the rules in rv5.toml's header.

mod common;
use common::*;
use rvsim::timing::{BranchScheme, CoreParams, S_BRANCH, S_DIV, S_LOAD, S_TRAP};

fn rv5() -> CoreParams {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/cores/rv5.toml")).unwrap();
    CoreParams::from_toml(&text).unwrap()
}

fn measure(name: &str) -> Run {
    let elf = build_asm("timing", "rv32im_zicsr", &[&format!("T_{name}")]);
    let r = run(&elf, "rv32im", Some(rv5()));
    assert_eq!(r.exit, Ok(0), "{name}");
    r
}

#[test]
fn rv5_file_sets_the_new_keys() {
    let p = rv5();
    assert_eq!((p.branch_scheme, p.div_blocking, p.mispredict_penalty, p.icache_size), (BranchScheme::NotTaken, true, 2, 0));
    // the E31 keeps its dynamic predictor and non-blocking divider
    let e = CoreParams::e31();
    assert_eq!((e.branch_scheme, e.div_blocking), (BranchScheme::Dynamic, false));
}

#[test]
fn loads_have_latency_two_whatever_their_width() {
    // LW chain: 1 + 2*7 + 1, as on the E31
    let r = measure("LW_CHAIN");
    assert_eq!((r.m.x[18], r.stalls[S_LOAD]), (16, 7));
    // (lbu, add) pairs: the add waits 1 cycle, the next lbu none: 3 per pair (E31: 4)
    let r = measure("LBU_CHAIN");
    assert_eq!((r.m.x[18], r.stalls[S_LOAD]), (3 * 8 + 1, 8));
}

#[test]
fn mul_is_single_cycle() {
    assert_eq!(measure("MUL_CHAIN").m.x[18], 1 + 8);
    assert_eq!(measure("MUL_INDEP").m.x[18], 1 + 4);
}

#[test]
fn divide_holds_the_pipeline() {
    // 0xffffffff / 1 takes 33 cycles; the next instruction waits for it even when independent
    // (on the E31 it would issue the cycle after the divide)
    let r = measure("DIV_INDEP");
    assert_eq!(r.m.x[18], 1 + 33 + 1);
    assert_eq!(r.stalls[S_DIV], 32);
    let r = measure("DIV");
    assert_eq!((r.m.x[19], r.m.x[18]), (35, 5));
    let e31 = run(&build_asm("timing", "rv32im_zicsr", &["T_DIV_INDEP"]), "rv32im",
                  Some(CoreParams { icache_size: 0, ..CoreParams::e31() }));
    assert_eq!(e31.m.x[18], 3);
}

#[test]
fn static_not_taken_branches() {
    // 10 iterations of (addi, bnez): the 9 taken bnez cost 2 each, the final fall-through 0
    let r = measure("LOOP");
    assert_eq!(r.m.x[18], 1 + 20 + 9 * 2);
    assert_eq!(r.stalls[S_BRANCH], 9 * 2 + 2); // + the `j test` before the block
    // the alternating branch: beqz taken 4 times, bnez taken 7 times: 11 * 2
    assert_eq!(measure("PATTERN").m.x[18], 1 + 36 + 11 * 2);
    // measured call: 20 instructions, 4 calls and 4 returns at 2 cycles each; no RAS effects
    assert_eq!(measure("CALLS").m.x[18], 1 + 20 + 8 * 2);
}

#[test]
fn trap_and_mret_cost_two_cycles() {
    // ecall at +1; handler: csrr mepc +4, addi +5 (CSR latency 1), csrw +6, mret +7; the
    // instruction at mepc (STOP's rdcycle) at +10
    let r = measure("TRAP");
    assert_eq!(r.m.x[18], 10);
    assert_eq!(r.stalls[S_TRAP], 2 + 2);
}
