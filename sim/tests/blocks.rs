//! The block engine (src/exec/blocks.rs) on its corner cases: every program of
//! tests/asm/blocks.S runs on the block engine and on the per-instruction loop
//! (`common::run` requires identical registers, cycles, stalls, counts and per-function
//! statistics), on the E31 model with and without its I-cache, on the HiFive1 Rev B model
//! (another predictor, random I-cache replacement), with static not-taken prediction and on
//! the ideal core.

mod common;
use common::*;
use rvsim::timing::{BranchScheme, CoreParams, S_ICACHE};

fn cores() -> [Option<CoreParams>; 5] {
    [
        Some(CoreParams::e31()),
        Some(CoreParams { icache_size: 0, ..CoreParams::e31() }),
        Some(CoreParams::hifive1_revb()),
        Some(CoreParams { branch_scheme: BranchScheme::NotTaken, ..CoreParams::e31() }),
        None,
    ]
}

/// Runs program B_<name> on every core; returns the e31 run.
fn check(name: &str, march: &str, ld: &str) -> Run {
    let elf = build_asm_with("blocks", march, &[&format!("B_{name}")], ld);
    let [e31, rest @ ..] = cores().map(|c| run(&elf, march, c));
    for r in std::iter::once(&e31).chain(&rest) { assert_eq!(r.exit, Ok(0), "{name}"); }
    // the cores differ in time only (B_CSR keeps cycle counts in registers)
    if name != "CSR" {
        for r in &rest { assert_eq!(e31.m.x, r.m.x, "{name}: registers on e31 and another core"); }
    }
    e31
}

#[test]
fn results_in_flight_across_blocks() {
    let r = check("CROSS", "rv32im_zicsr_zifencei", "link.ld");
    assert!(r.stalls[rvsim::timing::S_MUL] > 0 && r.stalls[rvsim::timing::S_LOAD] > 0, "{:?}", r.stalls);
    check("CROSS", "rv32imc_zicsr_zifencei", "link.ld");
}

#[test]
fn jump_into_the_middle_of_a_block() {
    let r = check("MIDDLE", "rv32im_zicsr_zifencei", "link.ld");
    assert_eq!((r.s(2), r.s(3)), (5, 9));
}

#[test]
fn faults_inside_a_block_go_to_the_handler() {
    let r = check("FAULT", "rv32im_zicsr_zifencei", "link.ld");
    assert_eq!((r.s(2), r.s(3), r.s(5), r.s(6)), (6, 6, 6, 18));
    assert_eq!(r.m.traps_taken, 18);
}

#[test]
fn misaligned_jump_at_the_end_of_a_block() {
    let r = check("JUMP_MISALIGNED", "rv32im_zicsr_zifencei", "link.ld");
    assert_eq!((r.s(2), r.s(3), r.s(6)), (3, 3, 3));
}

#[test]
fn straight_line_longer_than_a_block() {
    let r = check("LONG", "rv32im_zicsr_zifencei", "link.ld");
    assert_eq!(r.s(2), 9000);
}

#[test]
fn icache_conflicts() {
    let r = check("ICACHE", "rv32im_zicsr_zifencei", "link.ld");
    assert_eq!((r.s(2), r.s(3), r.s(5)), (10, 5, 5));
    assert!(r.icache_misses > 15 && r.stalls[S_ICACHE] > 0, "{} misses", r.icache_misses);
}

#[test]
fn csr_reads_and_divides_between_blocks() {
    check("CSR", "rv32im_zicsr_zifencei", "link.ld");
}

#[test]
fn code_that_rewrites_itself() {
    // patchme returns 1, 2, 3, 4: each patch must reach the next call
    let r = check("SMC", "rv32im_zicsr_zifencei", "link-ram.ld");
    assert_eq!(r.s(2), 10);
}

/// A loop that rewrites its own code 3000 times builds a new 200-instruction block each time:
/// the blocks kept stay bounded (all dropped and rebuilt past the bound), results unchanged.
#[test]
fn code_that_rewrites_itself_in_a_loop_stays_bounded() {
    let r = check("SMC_LOOP", "rv32im_zicsr_zifencei", "link-ram.ld");
    // patch k makes the immediate k + 1 (12 bits: past 2047 it wraps to -2048)
    let sum: i32 = (1..=3000).map(|k| (k + 2048) % 4096 - 2048).sum();
    assert_eq!(r.s(2), sum as u32);
    assert!(r.m.block_insns_kept() <= 1 << 16, "{} instructions kept in blocks", r.m.block_insns_kept());
}

#[test]
fn code_that_rewrites_its_first_instruction() {
    // the store hits the first halfword of the decoded range: 1 before the patch, 2 after
    let r = check("SMC_FIRST", "rv32im_zicsr_zifencei", "link-ram.ld");
    assert_eq!(r.s(7), 3);
}

#[test]
fn loops_of_one_block() {
    let r = check("LOOP", "rv32im_zicsr_zifencei", "link.ld");
    assert_eq!((r.s(7), r.s(6)), (20, 4), "s7 executions, s6 faults");
    assert!(r.stalls[rvsim::timing::S_MUL] > 0 && r.mispredicts >= 5, "{:?} {}", r.stalls, r.mispredicts);
    check("LOOP", "rv32imc_zicsr_zifencei", "link.ld");
}

#[test]
fn loops_of_several_blocks() {
    let r = check("TRIPS", "rv32im_zicsr_zifencei", "link.ld");
    assert_eq!((r.s(3), r.s(5)), (800, 2000), "s3, s5");
    // the whole-trip steady state was reached (and left at every loop exit)
    assert!(r.m.trips_deferred > 500, "{} trips deferred", r.m.trips_deferred);
    check("TRIPS", "rv32imc_zicsr_zifencei", "link.ld");
}

#[test]
fn instruction_budget_inside_a_block() {
    // B_LONG: inside a block; B_LOOP: inside a loop's steady state (its timing deferred);
    // B_TRIPS: inside a trip of a loop of several blocks, in its steady state or not
    for (prog, budgets) in [("B_LONG", [5, 700, 1505, 2100]), ("B_LOOP", [40, 131, 257, 390]),
                            ("B_TRIPS", [3001, 4998, 9001, 15007])] {
        let elf = build_asm("blocks", "rv32im_zicsr_zifencei", &[prog]);
        for budget in budgets {
            let out = [true, false].map(|blocks| {
                let mut m = machine(&elf, "rv32im", rvsim::mem::MapKind::E31);
                m.max_insns = budget;
                m.use_blocks = blocks;
                let mut t = rvsim::timing::Pipeline::new(CoreParams::e31());
                let r = m.run(&mut t, &mut rvsim::exec::NoObserver);
                (r, m.instret, m.pc, rvsim::timing::Timing::cycles(&t), rvsim::timing::Timing::stalls(&t))
            });
            assert!(matches!(out[0].0, Err(rvsim::exec::Stop::Budget { .. })), "{:?}", out[0].0);
            assert_eq!(out[0].1, budget);
            assert_eq!(out[0], out[1], "{prog} budget {budget}: block engine vs per-instruction loop");
        }
    }
}

#[test]
fn per_function_statistics_follow_fall_through() {
    let r = check("FALLTHROUGH", "rv32im_zicsr_zifencei", "link.ld");
    let f = |name: &str| {
        let i = r.m.functions.iter().position(|s| s.name == name).unwrap_or_else(|| panic!("no symbol {name}"));
        r.m.fstats[i]
    };
    // part1 holds one instruction, run 4 times; part2 its four, then the exit sequence
    assert_eq!(f("part1").instret, 4);
    assert!(f("part2").instret >= 16);
    assert_eq!(f("part1").instret + f("part2").instret + f("_start").instret, r.m.instret);
}
