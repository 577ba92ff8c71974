//! Constant-time checker (`--secret`, sim/src/ct.rs): each kind of leak is caught at the right
//! PC with the right count, clean code gives no alarm, run-time marking and declassification
//! work, extension instructions (incl. the xcarry carry state) carry taint, LR/SC/AMOs with a
//! secret address are reported. The programs are built with the cross toolchain at test time
//! (a missing toolchain fails the test). The `bytewise` flow of custom instructions, which no
//! shipped instruction declares, is tested where it is applied: the unit test in src/ct.rs.

mod common;
use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ct_dir() -> PathBuf { dir().join("ct") }

/// Assemble tests/ct/<name>.S (bare metal, tests/asm/link.ld, ise/ on the include path).
fn build_ct_asm(name: &str, march: &str, debug: bool) -> PathBuf {
    let src = ct_dir().join(format!("{name}.S"));
    // one file per test (tests run in parallel and rebuild the same program)
    let test = std::thread::current().name().unwrap_or("main").replace("::", "-");
    let out = out_dir().join(format!("ct-{name}-{march}-{debug}-{test}.elf"));
    let mut c = Command::new(CC);
    c.args([&format!("-march={march}"), "-mabi=ilp32", "-nostdlib", "-nostartfiles", "-T"])
        .arg(dir().join("asm/link.ld"))
        .arg(format!("-I{}", dir().join("../../ise").display()))
        .arg(&src).arg("-o").arg(&out);
    if debug { c.arg("-g"); }
    let o = c.output().unwrap_or_else(|e| panic!("cannot run {CC} (the RISC-V cross toolchain is required for this test): {e}"));
    assert!(o.status.success(), "assembling {}: {}", src.display(), String::from_utf8_lossy(&o.stderr));
    out
}

fn build_declass(ct: bool) -> PathBuf {
    let test = std::thread::current().name().unwrap_or("main").replace("::", "-");
    let out = out_dir().join(format!("ct-declass-{ct}-{test}.elf"));
    let inc = format!("-I{}", dir().join("../../harness").display());
    let mut extra = vec!["-g", inc.as_str()];
    if ct { extra.push("-DRVLAB_CT"); }
    build_c(&ct_dir().join("declass.c"), &out, &extra);
    out
}

/// Run rvsim; the checker runs on the block engine, so the same run with --no-blocks (the
/// per-instruction loop) must print exactly the same.
fn run(args: &[&str], elf: &Path) -> Output {
    let o = Command::new(rvsim_bin()).args(args).arg(elf).output().expect("run rvsim");
    let s = Command::new(rvsim_bin()).args(args).arg("--no-blocks").arg(elf).output().expect("run rvsim");
    assert_eq!((&o.status, &o.stdout, &o.stderr), (&s.status, &s.stdout, &s.stderr), "rvsim {args:?} {} with and without --no-blocks", elf.display());
    o
}

/// Run with --json-out; returns (exit status, JSON object, stderr text: the human report).
fn run_json(args: &[&str], elf: &Path) -> (i32, Value, String) {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let f = out_dir().join(format!("ct-{}-{}.json", std::process::id(), N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)));
    let mut a = args.to_vec();
    a.extend(["--json-out", f.to_str().unwrap()]);
    let o = run(&a, elf);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let text = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("no JSON ({e}); stderr: {err}"));
    let j: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("bad JSON ({e}): {text}"));
    (o.status.code().expect("exit status"), j, err)
}

fn symbol(elf: &Path, name: &str) -> u32 {
    let data = std::fs::read(elf).unwrap();
    let mut mem = rvsim::mem::Memory::new(rvsim::mem::MapKind::Flat);
    let e = rvsim::elf::load(&data, &mut mem).unwrap();
    e.symbols.iter().find(|s| s.name == name).unwrap_or_else(|| panic!("no symbol {name}")).addr
}

/// (pc, kind, count, function) of each violation, in report order.
fn sites(j: &Value) -> Vec<(u32, String, u64, String)> {
    j["ct_violations"].as_array().expect("ct_violations list").iter().map(|v| {
        let pc = u32::from_str_radix(v["pc"].as_str().unwrap().trim_start_matches("0x"), 16).unwrap();
        (pc, v["kind"].as_str().unwrap().to_string(), v["count"].as_u64().unwrap(), v["function"].as_str().unwrap_or("").to_string())
    }).collect()
}

#[test]
fn each_leak_kind_is_caught_with_pc_kind_count() {
    let elf = build_ct_asm("leaks", "rv32imac", false);
    let (code, j, err) = run_json(&["--secret", "key"], &elf);
    assert_eq!(code, 0, "{err}");
    assert_eq!(j["constant_time"], Value::Bool(false));
    let want = vec![
        (symbol(&elf, "leak_branch"), "branch".to_string(), 3, "leak_branch".to_string()),
        (symbol(&elf, "leak_load"), "load_address".into(), 1, "leak_load".into()),
        (symbol(&elf, "leak_store"), "store_address".into(), 1, "leak_store".into()),
        (symbol(&elf, "leak_jump"), "indirect_jump".into(), 1, "leak_jump".into()),
        (symbol(&elf, "leak_div"), "variable_latency".into(), 1, "leak_div".into()),
    ];
    assert_eq!(sites(&j), want);
    // human report on stderr whenever there are violations
    assert!(err.contains("constant-time check: 5 violation sites, 7 events"), "{err}");
    // the divider has a fixed latency on the ideal core: no variable_latency there
    let (_, j, _) = run_json(&["--secret", "key", "--core", "ideal"], &elf);
    let kinds: Vec<String> = sites(&j).into_iter().map(|s| s.1).collect();
    assert_eq!(kinds, ["branch", "load_address", "store_address", "indirect_jump"]);
    // the same with ADDR:LEN and SYMBOL:LEN specs; only the second word secret -> no leak
    // (the program reads the first word and byte 1)
    let key = symbol(&elf, "key");
    let (_, j2, _) = run_json(&["--secret", &format!("0x{key:x}:8")], &elf);
    assert_eq!(sites(&j2), want);
    let (_, j3, _) = run_json(&["--secret", "key:4"], &elf);
    assert_eq!(sites(&j3), want);
    let (_, j4, _) = run_json(&["--secret", &format!("{}:4", key + 4)], &elf);
    assert_eq!(j4["constant_time"], Value::Bool(true));
    assert_eq!(sites(&j4), vec![]);
    // only byte 0 secret: the branch/jump/div (whole word) leak, the table index (byte 1) does not
    let (_, j5, _) = run_json(&["--secret", &format!("{key}:1")], &elf);
    let kinds: Vec<String> = sites(&j5).into_iter().map(|s| s.1).collect();
    assert_eq!(kinds, ["branch", "indirect_jump", "variable_latency"]);
}

#[test]
fn no_secret_no_ct_keys_and_trace_combines() {
    let elf = build_ct_asm("leaks", "rv32imac", false);
    let (_, j, _) = run_json(&[], &elf);
    assert!(j.get("ct_violations").is_none() && j.get("constant_time").is_none());
    // checker together with the trace recorder
    let tr = out_dir().join("ct-leaks.trace");
    let (code, j, _) = run_json(&["--secret", "key", "--trace", tr.to_str().unwrap()], &elf);
    assert_eq!(code, 0);
    assert_eq!(sites(&j).len(), 5);
    assert!(std::fs::read_to_string(&tr).unwrap().lines().count() > 20);
}

#[test]
fn clean_code_gives_no_false_alarm() {
    let elf = build_ct_asm("clean", "rv32imac", false);
    // `mixed`: byte 0 public, bytes 1..3 secret
    let mixed = symbol(&elf, "mixed");
    let (code, j, err) = run_json(&["--secret", "key", "--secret", &format!("0x{:x}:3", mixed + 1)], &elf);
    assert_eq!(code, 0, "{err}");
    assert_eq!(sites(&j), vec![], "{err}");
    assert_eq!(j["constant_time"], Value::Bool(true));
    // control: with all of `mixed` secret, the branch on its byte 0 is reported
    let (_, j, _) = run_json(&["--secret", "key", "--secret", "mixed:4"], &elf);
    assert_eq!(sites(&j).into_iter().map(|s| s.1).collect::<Vec<_>>(), ["branch"]);
    // --stats prints the (clean) summary
    let o = run(&["--secret", "key", "--stats"], &elf);
    assert!(String::from_utf8_lossy(&o.stderr).contains("constant-time check: no violations (16 secret bytes marked"));
}

#[test]
fn extension_instructions_and_carry_state_carry_taint() {
    let elf = build_ct_asm("ext", "rv32imac_zkne", false);
    let (code, j, err) = run_json(&["--isa", "rv32imac_zkne_xcarry_xsbox", "--secret", "key"], &elf);
    assert_eq!(code, 0, "{err}");
    let want = vec![
        (symbol(&elf, "ext_carry_flow_branch"), "branch".to_string(), 1, "ext_carry_flow_branch".to_string()),
        (symbol(&elf, "ext_aes_branch"), "branch".to_string(), 1, "ext_aes_branch".to_string()),
        (symbol(&elf, "ext_carry_branch"), "branch".into(), 1, "ext_carry_branch".into()),
        (symbol(&elf, "ext_sbox_load"), "load_address".into(), 1, "ext_sbox_load".into()),
    ];
    assert_eq!(sites(&j), want);
}

#[test]
fn runtime_marking_and_declassification() {
    let elf = build_declass(true);
    // --secret with length 0 enables the checker; the program marks its own secrets
    let (code, j, err) = run_json(&["--secret", "0:0"], &elf);
    assert_eq!(code, 3, "exit status must stay the program's: {err}");
    let s = sites(&j);
    // count_down runs on buf[3] (secret, 22 iterations), on buf[3] after RVLAB_PUBLIC (no
    // violation) and on derived[3] = 22 ^ 0x5a = 76 (still secret): 2 secret entry checks,
    // 22 + 76 loop-back checks
    assert_eq!(s.len(), 2, "{err}");
    assert!(s.iter().all(|x| x.1 == "branch" && x.3 == "count_down"), "{s:?}");
    let mut counts: Vec<u64> = s.iter().map(|x| x.2).collect();
    counts.sort();
    assert_eq!(counts, [2, 98], "{err}");
    // DWARF source lines (built with -g)
    for v in j["ct_violations"].as_array().unwrap() {
        let l = v["line"].as_str().unwrap_or_else(|| panic!("no source line: {v}"));
        assert!(l.contains("declass.c:"), "{l}");
    }
    assert!(err.contains("1 run-time marks, 1 declassifications"), "{err}");
    assert!(String::from_utf8_lossy(&run(&["--secret", "0:0"], &elf).stdout).contains("declass done"));
}

#[test]
fn propagation_rules_byte_by_byte() {
    let elf = build_ct_asm("rules", "rv32imac_zicsr", false);
    let word = symbol(&elf, "word");
    let (code, j, err) = run_json(&["--secret", &format!("0x{:x}:1", word + 1)], &elf);
    assert_eq!(code, 0, "{err}");
    assert_eq!(assert_hits_only(&elf, &j, &err), (14, 14), "labels read from the symbol table");
}

/// The branch at each `hit_*` label of `elf` is reported once, and nothing else.
fn assert_hits_only(elf: &Path, j: &Value, err: &str) -> (usize, usize) {
    let data = std::fs::read(elf).unwrap();
    let mut mem = rvsim::mem::Memory::new(rvsim::mem::MapKind::Flat);
    let e = rvsim::elf::load(&data, &mut mem).unwrap();
    let got: std::collections::BTreeSet<u32> = sites(j).into_iter()
        .map(|(pc, kind, count, _)| { assert_eq!((kind.as_str(), count), ("branch", 1), "{err}"); pc }).collect();
    let (mut hits, mut misses) = (0, 0);
    for s in &e.symbols {
        if let Some(n) = s.name.strip_prefix("hit_") {
            hits += 1;
            assert!(got.contains(&s.addr), "{n}: expected a violation at 0x{:08x}\n{err}", s.addr);
        } else if let Some(n) = s.name.strip_prefix("miss_") {
            misses += 1;
            assert!(!got.contains(&s.addr), "{n}: false alarm at 0x{:08x}\n{err}", s.addr);
        }
    }
    assert_eq!(got.len(), hits, "violations outside the hit_* labels:\n{err}");
    (hits, misses)
}

/// Secrets stored into shadow pages that do not exist yet (the block engine leaves those
/// stores to its slow path, which makes the page), and public data that needs none.
#[test]
fn shadow_pages_made_on_first_secret_store() {
    let elf = build_ct_asm("pages", "rv32imac", false);
    for core in ["ideal", "e31"] {
        let (code, j, err) = run_json(&["--secret", "word:4", "--memory", "flat", "--core", core], &elf);
        assert_eq!(code, 0, "{err}");
        assert_eq!(assert_hits_only(&elf, &j, &err), (2, 4), "labels read from the symbol table");
    }
}

#[test]
fn secret_inputs_stay_secret_until_declassified() {
    let elf = build_ct_asm("pinned", "rv32imac", false);
    let (code, j, err) = run_json(&["--secret", "key"], &elf);
    assert_eq!(code, 0, "{err}");
    let want = vec![
        (symbol(&elf, "pinned_branch"), "branch".to_string(), 1, "pinned_branch".to_string()),
        (symbol(&elf, "marked_branch"), "branch".into(), 1, "marked_branch".into()),
    ];
    assert_eq!(sites(&j), want, "{err}");
}

#[test]
fn annotations_are_harmless_without_rvlab_ct() {
    let elf = build_declass(false);
    // on rvsim, checker on: nothing is marked, nothing reported
    let (code, j, _) = run_json(&["--secret", "0:0"], &elf);
    assert_eq!(code, 3);
    assert_eq!(j["constant_time"], Value::Bool(true));
    // on QEMU (which aborts on unknown semihosting calls) the program runs normally
    let o = Command::new("qemu-system-riscv32")
        .args(["-M", "sifive_e", "-cpu", "rv32", "-bios", "none", "-kernel"]).arg(&elf)
        .args(["-nographic", "-semihosting-config", "enable=on,target=native", "-monitor", "none", "-serial", "none"])
        .output().expect("qemu-system-riscv32 is required for this test");
    assert_eq!(o.status.code(), Some(3), "{}", String::from_utf8_lossy(&o.stderr));
    // (QEMU's semihosting console output goes to its stderr)
    assert!(String::from_utf8_lossy(&o.stdout).contains("declass done") || String::from_utf8_lossy(&o.stderr).contains("declass done"));
}

#[test]
fn bad_secret_specs_are_usage_errors() {
    let elf = build_ct_asm("leaks", "rv32imac", false);
    for (spec, want) in [
        ("nosuch", "no symbol 'nosuch'"),
        ("0x80000000", "needs a length"),
        ("key:zz", "is not a number"),
        ("0x80000000:0x100000000", "exceeds the 32-bit address space"),
        (":4", "empty"),
        ("leak_branch", "size 0"),
    ] {
        let o = run(&["--secret", spec], &elf);
        let e = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{spec}: {e}");
        assert!(e.contains("rvsim: error:") && e.contains(want), "{spec}: {e}");
    }
}

#[test]
fn parse_secret_specs() {
    use rvsim::ct::{parse_secret, SecretFault};
    use rvsim::elf::Symbol;
    let syms = vec![Symbol { name: "k".into(), addr: 0x8000_0010, size: 32 }];
    assert_eq!(parse_secret("k", &syms), Ok((0x8000_0010, 32)));
    assert_eq!(parse_secret("k:4", &syms), Ok((0x8000_0010, 4)));
    assert_eq!(parse_secret("0x80000000:16", &syms), Ok((0x8000_0000, 16)));
    assert_eq!(parse_secret("2147483648:0x10", &syms), Ok((0x8000_0000, 16)));
    assert_eq!(parse_secret("0xffffffff:2", &syms).unwrap_err().fault, SecretFault::OutOfRange);
    assert_eq!(parse_secret("k:32", &syms), Ok((0x8000_0010, 32)));
    let e = parse_secret("k:99999", &syms).unwrap_err();
    assert_eq!(e.fault, SecretFault::BeyondSymbol { len: 99999, size: 32, symbol: "k".into() });
    assert_eq!(e.to_string(), "--secret 'k:99999': length 99999 is beyond the 32 bytes of symbol 'k'");
    for (spec, fault) in [("k:x", SecretFault::BadLength("x".into())), (":4", SecretFault::Empty),
                          ("0xz:4", SecretFault::BadAddress("0xz".into())), ("0x80000000", SecretFault::NeedsLength),
                          ("nope", SecretFault::NoSymbol("nope".into()))] {
        assert_eq!(parse_secret(spec, &syms).unwrap_err().fault, fault, "{spec}");
    }
}

#[test]
fn atomics_with_a_secret_address_are_reported() {
    let elf = build_ct_asm("atomics", "rv32imac", false);
    let want = vec![
        (symbol(&elf, "leak_amoadd"), "store_address".to_string(), 2, "leak_amoadd".to_string()),
        (symbol(&elf, "leak_lr"), "load_address".into(), 2, "leak_lr".into()),
        (symbol(&elf, "leak_sc"), "store_address".into(), 2, "leak_sc".into()),
        (symbol(&elf, "leak_sc_failing"), "store_address".into(), 1, "leak_sc_failing".into()),
        (symbol(&elf, "leak_amo_data"), "branch".into(), 1, "leak_amo_data".into()),
    ];
    for core in ["e31", "ideal"] {
        let (code, j, err) = run_json(&["--secret", "key", "--core", core], &elf);
        assert_eq!(code, 0, "{err}");
        assert_eq!(sites(&j), want, "--core {core}\n{err}");
        assert!(err.contains("constant-time check: 5 violation sites, 8 events"), "{err}");
    }
    // the secret word is key's first; with only the second word secret nothing leaks
    let key = symbol(&elf, "key");
    let (code, j, err) = run_json(&["--secret", &format!("0x{:x}:4", key + 4)], &elf);
    assert_eq!(code, 0, "{err}");
    assert_eq!(sites(&j), vec![], "{err}");
}
