//! The constant-time checker on the block engine, whose long block bodies it takes after the
//! fact through a memo of their taint transfer (`Memo` in src/ct.rs), against the
//! per-instruction loop (`--no-blocks`), on random programs (`rvsim::randprog`) with half of
//! their data buffer secret: loop bodies run with masks that change from one trip to the next
//! and then settle, stores make bytes secret or public, and the program's closing dump branches
//! on every nibble of the registers and of the buffer, so the final taint of each shows in the
//! violation counts. Report, output and statistics must be identical. And tests/ct/memo.S: the
//! cases where a memo must not be taken as it stands, each with its violation count.

mod common;
use common::*;
use rvsim::randprog::{base_forms, gen_program, Rng, K};
use std::process::Command;

/// Assemble tests/ct/<name>.S.
fn build_ct(name: &str) -> std::path::PathBuf {
    let out = out_dir().join(format!("ct-blocks-{name}.elf"));
    let o = Command::new(CC).args(["-march=rv32imc", "-mabi=ilp32", "-nostdlib", "-nostartfiles", "-T"]).arg(dir().join("asm/link.ld"))
        .arg(dir().join("ct").join(format!("{name}.S"))).arg("-o").arg(&out).output().unwrap_or_else(|e| panic!("cannot run {CC}: {e}"));
    assert!(o.status.success(), "assembling {name}.S: {}", String::from_utf8_lossy(&o.stderr));
    out
}

/// The address of `name` in the ELF's symbol table.
fn symbol(elf: &std::path::Path, name: &str) -> u32 {
    let o = Command::new("riscv64-unknown-elf-nm").arg(elf).output().expect("run nm");
    let text = String::from_utf8_lossy(&o.stdout);
    let line = text.lines().find(|l| l.split_whitespace().nth(2) == Some(name)).unwrap_or_else(|| panic!("no symbol {name}"));
    u32::from_str_radix(line.split_whitespace().next().unwrap(), 16).unwrap()
}

#[test]
fn memo_cases_that_need_a_fresh_look() {
    let elf = build_ct("memo");
    for core in ["e31", "ideal"] {
        let run = |extra: &[&str]| Command::new(rvsim_bin())
            .args(["--isa", "rv32imc", "--core", core, "--secret", "secret:4", "--json"]).args(extra).arg(&elf).output().unwrap();
        let (x, y) = (run(&[]), run(&["--no-blocks"]));
        assert!(x.status.success(), "{}", String::from_utf8_lossy(&x.stderr));
        assert_eq!((&x.stdout, &x.stderr), (&y.stdout, &y.stderr), "--core {core}: block engine and --no-blocks differ");
        let j: serde_json::Value = serde_json::from_slice(&x.stderr).unwrap();
        let count = |label: &str| {
            let pc = format!("0x{:08x}", symbol(&elf, label));
            j["ct_violations"].as_array().unwrap().iter().find(|v| v["pc"] == pc.as_str()).map_or(0, |v| v["count"].as_u64().unwrap())
        };
        let labels = ["obs_x", "obs_y", "obs_z", "obs_p1", "load_secret_addr", "store_secret_addr"];
        let got: Vec<u64> = labels.iter().map(|l| count(l)).collect();
        assert_eq!(got, [0, 4, 4, 4, 8, 8], "--core {core}: violations at {labels:?}");
    }
}

/// Runs the random program of `seed` (forms `forms`) both ways; returns its violation events.
fn check(seed: u64, forms: &[(&'static str, K)], tag: &str) -> u64 {
    let src = gen_program(&mut Rng::new(seed), forms, 400, 30);
    let s = out_dir().join(format!("ct-blocks-{tag}-{seed}.S"));
    let elf = out_dir().join(format!("ct-blocks-{tag}-{seed}.elf"));
    std::fs::write(&s, &src).unwrap();
    let o = Command::new(CC)
        .args(["-march=rv32imc_zicsr", "-mabi=ilp32", "-nostdlib", "-nostartfiles", "-T"])
        .arg(dir().join("asm/link.ld")).arg("-I").arg(dir().join("asm")).arg(&s).arg("-o").arg(&elf)
        .output().unwrap_or_else(|e| panic!("cannot run {CC}: {e}"));
    assert!(o.status.success(), "assembling {}: {}", s.display(), String::from_utf8_lossy(&o.stderr));
    let mut events = 0;
    for core in ["e31", "ideal"] {
        let run = |extra: &[&str]| Command::new(rvsim_bin())
            .args(["--isa", "rv32imc", "--core", core, "--memory", "e31", "--secret", "buf:128", "--json"]).args(extra).arg(&elf)
            .output().unwrap();
        let (x, y) = (run(&[]), run(&["--no-blocks"]));
        assert!(x.status.success(), "rvsim --core {core} failed on {}: {}", s.display(), String::from_utf8_lossy(&x.stderr));
        assert_eq!((&x.stdout, &x.stderr), (&y.stdout, &y.stderr), "--core {core}: block engine and --no-blocks differ on {}", s.display());
        let j: serde_json::Value = serde_json::from_slice(&x.stderr).unwrap();
        events = j["ct_violations"].as_array().unwrap().iter().map(|v| v["count"].as_u64().unwrap()).sum();
    }
    events
}

#[test]
fn block_memo_equals_the_per_instruction_checker() {
    // no CSR or DIV (they end blocks), no atomics (not in blocks); with the usual share of
    // branches and jumps (short blocks, few memoised), with a seventh of it (blocks of about 40
    // instructions, entered from several paths, so with masks that vary) and without
    let all: Vec<_> = base_forms(false).into_iter().filter(|(m, k)| !matches!(k, K::Csr | K::CsrI) && !m.starts_with("div") && !m.starts_with("rem")).collect();
    let straight: Vec<_> = all.iter().copied().filter(|(_, k)| !matches!(k, K::Branch | K::Jal | K::Jalr)).collect();
    let long = [vec![straight.clone(); 6].concat(), all.clone()].concat();
    let mut events = 0;
    for seed in 1..=12 {
        events += check(seed, &all, "all");
        events += check(seed, &long, "long");
        events += check(seed, &straight, "straight");
    }
    assert!(events > 0, "no violation at all: the programs do not test the taint");
}
