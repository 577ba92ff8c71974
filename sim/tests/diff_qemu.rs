//! Differential test against QEMU: random instruction sequences (`rvsim::randprog`) run on
//! rvsim and on `qemu-system-riscv32 -M sifive_e -cpu rv32,...`; the final registers and a
//! 256-byte memory buffer are printed in hex through semihosting by both and compared.
//!
//! A small run is part of `cargo test`; a larger one (every program at least 10^6 instructions):
//!   RVSIM_DIFF_INSNS=1000000 RVSIM_DIFF_PROGRAMS=20 RVSIM_DIFF_LEN=600 cargo test --release --test diff_qemu
//! (RVSIM_DIFF_SEED changes the seed). The instruction mix is `randprog::base_forms` with
//! the A extension, plus `randprog::ext_forms` of every extension QEMU implements (QEMU_EXTS:
//! the `-march` suffix and the QEMU `-cpu` property follow from it, see `Config`). The default
//! run checks that c.lw/c.sw/c.lwsp/c.swsp and csrrwi/csrrsi/csrrci occur.

mod common;
use common::*;
use rvsim::randprog::{base_forms, ext_forms, gen_program, hex_lines, iters_for, Rng, K};
use std::process::Command;

/// Extensions QEMU 7.2 implements (`-cpu rv32,<ext>=true`); xzbp and custom ones it does not.
const QEMU_EXTS: &[&str] = &["zba", "zbb", "zbc", "zbs", "zbkb", "zbkc", "zbkx", "zknd", "zkne", "zknh", "zksed", "zksh"];

struct Config { march: String, isa: String, qemu_cpu: String, forms: Vec<(&'static str, K)> }

fn config() -> Config {
    let mut forms = base_forms(true);
    let mut exts: Vec<&str> = vec![];
    for (m, k, e) in ext_forms(QEMU_EXTS) {
        forms.push((m, k));
        if !exts.contains(&e) { exts.push(e); }
    }
    let suffix: String = exts.iter().map(|e| format!("_{e}")).collect();
    let cpu: String = exts.iter().map(|e| format!(",{e}=true")).collect();
    Config { march: format!("rv32imac_zicsr{suffix}"), isa: format!("rv32imac{suffix}"), qemu_cpu: format!("rv32{cpu}"), forms }
}

/// Forms whose presence the default run checks (objdump -M no-aliases mnemonics): the
/// compressed loads/stores the generator aims at and the CSR immediate forms.
const WATCHED: [&str; 7] = ["c.lw", "c.sw", "c.lwsp", "c.swsp", "csrrwi", "csrrsi", "csrrci"];

/// Runs one random program (loop bodies `iters` times); returns how often each WATCHED mnemonic
/// occurs in it and how many instructions it retired.
fn run_one(seed: u64, len: usize, iters: u32, cfg: &Config) -> ([usize; 7], u64) {
    let mut rng = Rng::new(seed);
    let src = gen_program(&mut rng, &cfg.forms, len, iters);
    let dir = out_dir();
    let s = dir.join(format!("diff-{seed}.S"));
    let elf = dir.join(format!("diff-{seed}.elf"));
    std::fs::write(&s, &src).unwrap();
    let o = Command::new(CC)
        .args([&format!("-march={}", cfg.march), "-mabi=ilp32", "-nostdlib", "-nostartfiles", "-T"])
        .arg(dir_asm("link.ld")).arg("-I").arg(dir_asm("")).arg(&s).arg("-o").arg(&elf)
        .output().unwrap_or_else(|e| panic!("cannot run {CC}: {e}"));
    assert!(o.status.success(), "assembling {}: {}", s.display(), String::from_utf8_lossy(&o.stderr));
    let dis = Command::new("riscv64-unknown-elf-objdump").args(["-d", "-M", "no-aliases"]).arg(&elf).output().unwrap();
    let dis = String::from_utf8_lossy(&dis.stdout);
    let watched = WATCHED.map(|m| dis.lines().filter(|l| l.split('\t').nth(2).map(str::trim) == Some(m)).count());
    let ours = Command::new(rvsim_bin()).args(["--isa", &cfg.isa, "--core", "ideal", "--memory", "e31"]).arg(&elf).output().unwrap();
    assert!(ours.status.success(), "rvsim failed on {}: {}", s.display(), String::from_utf8_lossy(&ours.stderr));
    let q = Command::new("qemu-system-riscv32")
        .args(["-M", "sifive_e", "-cpu", &cfg.qemu_cpu, "-bios", "none", "-nographic", "-monitor", "none", "-serial", "none",
               "-semihosting-config", "enable=on,target=native", "-kernel"])
        .arg(&elf).output().unwrap_or_else(|e| panic!("cannot run qemu-system-riscv32 (required for this test): {e}"));
    assert!(q.status.success(), "qemu failed on {}: {}", s.display(), String::from_utf8_lossy(&q.stderr));
    // the block engine against the per-instruction loop, on the E31 model with and without
    // its I-cache (without it the block plans apply on the first execution) and the ideal one:
    // output and every statistic of the JSON identical
    let core = dir.join("e31-no-icache.toml");
    std::fs::write(&core, "model = \"pipeline\"\n[icache]\nsize = 0\n").unwrap();
    let mut instret = 0;
    for c in ["e31", core.to_str().unwrap(), "ideal"] {
        let run = |extra: &[&str]| Command::new(rvsim_bin()).args(["--isa", &cfg.isa, "--core", c, "--memory", "e31", "--json"]).args(extra).arg(&elf).output().unwrap();
        let (x, y) = (run(&[]), run(&["--no-blocks"]));
        assert!(x.status.success(), "rvsim --core {c} failed on {}: {}", s.display(), String::from_utf8_lossy(&x.stderr));
        assert_eq!((&x.stdout, &x.stderr), (&y.stdout, &y.stderr), "--core {c}: block engine and --no-blocks differ on {}", s.display());
        let j: serde_json::Value = serde_json::from_slice(&x.stderr).unwrap_or_else(|e| panic!("rvsim --json on {}: {e}", s.display()));
        instret = j["instret"].as_u64().unwrap();
    }
    let a = hex_lines(&String::from_utf8_lossy(&ours.stdout));
    let mut qs = String::from_utf8_lossy(&q.stdout).into_owned();
    qs.push_str(&String::from_utf8_lossy(&q.stderr));
    let b = hex_lines(&qs);
    assert_eq!(a.len(), 96, "rvsim printed {} words for {}", a.len(), s.display());
    assert_eq!(b.len(), 96, "qemu printed {} words for {}", b.len(), s.display());
    for i in 0..96 {
        let what = if i < 32 { format!("x{i}") } else { format!("buf word {}", i - 32) };
        assert_eq!(a[i], b[i], "{what} differs (rvsim {} vs qemu {}) in {}", a[i], b[i], s.display());
    }
    (watched, instret)
}

fn dir_asm(f: &str) -> std::path::PathBuf { dir().join("asm").join(f) }

fn env_num(k: &str, d: u64) -> u64 { std::env::var(k).ok().and_then(|v| v.parse().ok()).unwrap_or(d) }

/// `cargo test`: 4 programs of 300 instructions, loop bodies 3 times (a few thousand
/// instructions each). RVSIM_DIFF_INSNS=1000000 makes every program retire at least that many
/// (RVSIM_DIFF_PROGRAMS, RVSIM_DIFF_LEN, RVSIM_DIFF_SEED as above).
#[test]
fn random_sequences_match_qemu() {
    let cfg = config();
    let n = env_num("RVSIM_DIFF_PROGRAMS", 4);
    let len = env_num("RVSIM_DIFF_LEN", 300) as usize;
    let seed = env_num("RVSIM_DIFF_SEED", 1);
    let want = env_num("RVSIM_DIFF_INSNS", 0);
    let iters = if want > 0 { iters_for(want, len) } else { 3 };
    let mut seen = [0usize; 7];
    let mut total = 0;
    for p in 0..n {
        let (w, instret) = run_one(seed * 1000 + p, len, iters, &cfg);
        assert!(instret >= want, "program {} retired {instret} instructions, fewer than RVSIM_DIFF_INSNS={want}", seed * 1000 + p);
        total += instret;
        for (s, c) in seen.iter_mut().zip(w) { *s += c; }
    }
    eprintln!("diff_qemu: {n} programs of {len} instructions, loops x{iters}: {total} instructions retired, equal on rvsim and QEMU");
    // the generator really produces the compressed loads/stores and the CSR immediate forms
    for (m, c) in WATCHED.iter().zip(seen) { assert!(c > 0, "no {m} in {n} programs"); }
}

/// 100 programs of 1000 instructions, each retiring at least 10^6 instructions.
#[test]
#[ignore]
fn random_sequences_match_qemu_large() {
    let cfg = config();
    for p in 0..100 {
        let (_, instret) = run_one(777_000 + p, 1000, iters_for(1_000_000, 1000), &cfg);
        assert!(instret >= 1_000_000, "program {p}: {instret} instructions");
    }
}

/// `rvsim-randprog` (what `rvlab rtl --random` runs) prints exactly the generator's program for
/// its arguments, and refuses bad arguments with one line and status 2.
#[test]
fn randprog_binary_prints_the_generators_programs() {
    let bin = env!("CARGO_BIN_EXE_rvsim-randprog");
    let run = |args: &[&str]| Command::new(bin).args(args).output().unwrap();
    let o = run(&["--seed", "12", "--len", "120", "--iters", "4", "--exts", "zbkb,zknh"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut forms = base_forms(false);
    forms.extend(ext_forms(&["zbkb", "zknh"]).into_iter().map(|(m, k, _)| (m, k)));
    assert_eq!(String::from_utf8(o.stdout).unwrap(), gen_program(&mut Rng::new(12), &forms, 120, 4));
    let with_a = String::from_utf8(run(&["--seed", "3", "--len", "2000", "--atomics"]).stdout).unwrap();
    let without = String::from_utf8(run(&["--seed", "3", "--len", "2000"]).stdout).unwrap();
    assert!(with_a.contains("lr.w") && !without.contains("lr.w") && !without.contains("amo"));
    for (args, want) in [(&["--len", "5"][..], "--seed N is required"), (&["--seed", "x"], "not a non-negative integer"),
                         (&["--seed", "1", "--exts", "zbkb,nosuch"], "'nosuch'"), (&["--seed", "1", "--len", "0"], "at least 1"),
                         (&["--seed", "1", "--bogus"], "bogus")] {
        let o = run(args);
        let e = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        assert!(e.starts_with("rvsim-randprog: error: ") && e.contains(want) && e.trim_end().lines().count() == 1, "{args:?}: {e}");
    }
}
