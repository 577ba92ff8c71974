//! The `rvsim` command: bad input (clear one-line error, exit 125 / 2, never a panic),
//! semihosting output and exit status against QEMU, JSON keys, --core FILE.

mod common;
use common::*;
use std::path::Path;
use std::process::{Command, Output};

fn rvsim(args: &[&str], elf: &Path) -> Output {
    Command::new(rvsim_bin()).args(args).arg(elf).output().unwrap()
}
fn stderr(o: &Output) -> String { String::from_utf8_lossy(&o.stderr).into_owned() }
/// The program on QEMU (`-M sifive_e`, semihosting on); its console output is on stdout or
/// stderr depending on the chardev setup, so both are returned together.
fn qemu(elf: &Path) -> (Option<i32>, Vec<u8>) {
    let q = Command::new("qemu-system-riscv32")
        .args(["-M", "sifive_e", "-cpu", "rv32", "-bios", "none", "-nographic", "-monitor", "none", "-serial", "none",
               "-semihosting-config", "enable=on,target=native", "-kernel"])
        .arg(elf).output().unwrap_or_else(|e| panic!("qemu-system-riscv32 is required: {e}"));
    let mut out = q.stdout;
    out.extend_from_slice(&q.stderr);
    (q.status.code(), out)
}

/// rvsim must stop with status 125 and one `rvsim: error:` line containing `want`.
fn expect_error(o: Output, want: &str) {
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(125), "stderr: {e}");
    assert!(e.starts_with("rvsim: error: "), "stderr: {e}");
    assert_eq!(e.trim_end().lines().count(), 1, "one line expected: {e}");
    assert!(e.contains(want), "expected '{want}' in: {e}");
    assert!(!e.contains("panicked"), "{e}");
}

fn bad(name: &str, args: &[&str], want: &str) {
    let elf = build_asm("bad", "rv32imac_zicsr", &[&format!("B_{name}")]);
    expect_error(rvsim(args, &elf), want);
}

#[test]
fn not_elf() {
    let p = out_dir().join("not-elf.bin");
    std::fs::write(&p, b"hello, this is not an ELF file at all").unwrap();
    expect_error(rvsim(&[], &p), "not an ELF file");
    let p = out_dir().join("empty.bin");
    std::fs::write(&p, b"").unwrap();
    expect_error(rvsim(&[], &p), "not an ELF file");
    expect_error(rvsim(&[], Path::new("/nonexistent/file.elf")), "cannot read");
}

#[test]
fn elf64_and_big_endian() {
    let mut h = vec![0u8; 64];
    h[..4].copy_from_slice(b"\x7fELF");
    h[4] = 2;
    h[5] = 1;
    let p = out_dir().join("elf64.bin");
    std::fs::write(&p, &h).unwrap();
    expect_error(rvsim(&[], &p), "64-bit");
    h[4] = 1;
    h[5] = 2;
    let p = out_dir().join("elfbe.bin");
    std::fs::write(&p, &h).unwrap();
    expect_error(rvsim(&[], &p), "big-endian");
}

/// An odd entry point is rejected with the ELF (it used to run the halfword below it, and the
/// two engines then named different instructions): e_entry of a good ELF patched to be odd.
#[test]
fn odd_entry_point() {
    let elf = build_asm("bad", "rv32imac_zicsr", &["B_EXIT7"]);
    let mut data = std::fs::read(&elf).unwrap();
    let entry = u32::from_le_bytes(data[24..28].try_into().unwrap());
    data[24..28].copy_from_slice(&(entry | 1).to_le_bytes());
    let p = out_dir().join("odd-entry.elf");
    std::fs::write(&p, &data).unwrap();
    for blocks in [&[][..], &["--no-blocks"]] {
        expect_error(rvsim(blocks, &p), &format!("entry point 0x{:08x} is odd", entry | 1));
    }
}

#[test]
fn truncated() {
    let elf = build_asm("bad", "rv32imac_zicsr", &["B_LOOP"]);
    let data = std::fs::read(&elf).unwrap();
    // cut inside the loadable segment's file bytes
    let p = out_dir().join("truncated.elf");
    std::fs::write(&p, &data[..0x1010.min(data.len() / 2)]).unwrap();
    expect_error(rvsim(&[], &p), "truncated");
    std::fs::write(&p, &data[..40]).unwrap();
    expect_error(rvsim(&[], &p), "truncated");
}

#[test]
fn illegal_and_disallowed() {
    bad("ILLEGAL", &[], "illegal instruction 0xffffffff at pc 0x20400004");
    bad("MUL", &["--isa", "rv32ic"], "needs extension m");
    bad("MUL", &["--isa", "rv32ic"], "mul a0,a0,a0");
    // compressed instructions without C
    let elf = build_asm("bad", "rv32imac_zicsr", &["B_LOOP"]);
    expect_error(rvsim(&["--isa", "rv32im"], &elf), "needs extension c");
    bad("ECALL", &[], "ecall at pc");
    bad("EBREAK", &[], "ebreak");
    // a handler that faults before its mret stops at the faulting handler instruction
    bad("HANDLER_FAULTS", &["--max-insns", "100000"], "illegal instruction 0xffffffff");
}

#[test]
fn handled_exception_explained_when_the_program_fails() {
    // the handler takes the exception (issue 8) and the program exits 3; rvsim's note still
    // names the instruction, its pc and the missing extensions
    let elf = build_asm("bad", "rv32imac_zicsr", &["B_HANDLER_EXITS"]);
    let o = rvsim(&[], &elf);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(3), "stderr: {e}");
    assert!(e.starts_with("rvsim: note: the program exited with status 3 after 1 exception(s)"), "{e}");
    assert!(e.contains("'ror a0,a0,a1'") && e.contains("needs extension zbb or zbkb"), "{e}");
    let o = rvsim(&["--json-out", out_dir().join("handler-exits.json").to_str().unwrap()], &elf);
    assert_eq!(o.status.code(), Some(3));
    let j: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out_dir().join("handler-exits.json")).unwrap()).unwrap();
    assert_eq!(j["traps"], serde_json::json!(1));
    assert!(j["first_trap"].as_str().unwrap().contains("needs extension zbb or zbkb"), "{j}");
    // with the extension the instruction executes, nothing traps, the program exits 0
    let o = rvsim(&["--isa", "rv32imac_zbkb"], &elf);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains("note"));
}

#[test]
fn memory_errors() {
    bad("MISALIGNED_LOAD", &[], "misaligned load of 4 bytes at 0x80000002");
    bad("MISALIGNED_STORE", &[], "misaligned store of 2 bytes at 0x80000001");
    bad("UNMAPPED", &[], "unmapped address 0x10000000");
    bad("DTIM_END", &[], "unmapped address 0x80004000");
    bad("FLASH_STORE", &[], "read-only flash at 0x20400000");
    bad("JUMP_UNMAPPED", &[], "instruction fetch at pc 0x40000000");
    // the flat map has 256 MiB of RAM and writable flash
    let elf = build_asm("bad", "rv32imac_zicsr", &["B_DTIM_END"]);
    assert_eq!(rvsim(&["--memory", "flat"], &elf).status.code(), Some(0));
    let elf = build_asm("bad", "rv32imac_zicsr", &["B_FLASH_STORE"]);
    assert_eq!(rvsim(&["--memory", "flat"], &elf).status.code(), Some(0));
}

#[test]
fn budget() {
    let elf = build_asm("bad", "rv32imac_zicsr", &["B_LOOP"]);
    expect_error(rvsim(&["--max-insns", "1000"], &elf), "instruction budget exceeded: 1000 instructions");
}

#[test]
fn usage_errors() {
    let elf = build_asm("bad", "rv32imac_zicsr", &["B_EXIT7"]);
    for args in [&["--isa", "rv32imq"][..], &["--isa", "rv64i"], &["--isa", "rv32i_zfoo"], &["--core", "/nonexistent.toml"],
                 &["--memory", "huge"], &["--max-insns", "lots"], &["--bogus"], &["--mul-latency", "0"],
                 &["--core", "ideal", "--mul-latency", "2"]] {
        let o = rvsim(args, &elf);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).starts_with("rvsim: error: "), "{args:?}");
    }
    let o = Command::new(rvsim_bin()).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let bad_core = out_dir().join("bad-core.toml");
    std::fs::write(&bad_core, "[latency]\nmul = 0\n").unwrap();
    assert_eq!(rvsim(&["--core", bad_core.to_str().unwrap()], &elf).status.code(), Some(2));
}

/// Bad option values name the option (issue 22 item 10), a repeated ISA extension is refused,
/// and --json cannot be mixed with the human --stats/--annotate on stderr.
#[test]
fn option_values_are_checked() {
    let elf = build_asm("bad", "rv32imac_zicsr", &["B_EXIT7"]);
    for (args, want) in [(&["--max-insns", "-5"][..], "--max-insns: '-5' is negative"),
                         (&["--max-insns", "1e400"], "--max-insns: '1e400' is too large"),
                         (&["--annotate", "abc"], "--annotate: 'abc' is not a number of functions"),
                         (&["--isa", "rv32imac_zbkb_zbkb"], "extension 'zbkb' given twice"),
                         (&["--json", "--stats"], "with --stats or --annotate use --json-out FILE"),
                         (&["--stack-limit", "nosuchsym"], "--stack-limit 'nosuchsym': not an address and no such symbol"),
                         (&["--stack-limit", "auto"], "--stack-limit auto: the ELF has no __stack and __stack_size")] {
        let o = rvsim(args, &elf);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).starts_with("rvsim: error: ") && stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
    // a number after --annotate is its N, the ELF still follows
    assert_eq!(rvsim(&["--annotate", "3"], &elf).status.code(), Some(7));
}

/// rvsim's report into a pipe its reader closed early (`rvsim --annotate 5 x.elf 2>&1 | head -1`)
/// ends quietly with the program's status: no panic, no 'Broken pipe' message.
#[test]
fn closed_pipe_is_quiet() {
    use std::process::Stdio;
    let elf = build_asm("bad", "rv32imac_zicsr", &["B_EXIT7"]);
    for args in [&["--annotate", "5", "--stats"][..], &["--trace", "-"], &["--help"]] {
        let mut cmd = Command::new(rvsim_bin());
        cmd.args(args).arg(&elf).stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = cmd.spawn().unwrap();
        drop(child.stdout.take());      // both readers gone before rvsim writes
        drop(child.stderr.take());
        let st = child.wait().unwrap();
        let want = if args == ["--help"] { 0 } else { 7 };
        assert_eq!(st.code(), Some(want), "{args:?}: status {st:?} (101 = a panic)");
    }
}

/// `--trace -` writes the trace to stdout (it used to create a file named '-').
#[test]
fn trace_to_stdout() {
    let elf = build_asm("bad", "rv32imac_zicsr", &["B_EXIT7"]);
    let dir = out_dir().join("trace-dash");
    std::fs::create_dir_all(&dir).unwrap();
    let o = Command::new(rvsim_bin()).args(["--trace", "-"]).arg(&elf).current_dir(&dir).output().unwrap();
    assert_eq!(o.status.code(), Some(7));
    assert!(!dir.join("-").exists(), "a file named '-' was created");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.lines().count() >= 3 && text.lines().all(|l| l.split_whitespace().nth(1).map_or(false, |pc| pc.len() == 8)), "{text}");
}

/// An error stop still writes the statistics, with `error` set and `exit_code` null, to
/// --json-out and (as the only stderr output) --json; so a caller tells rvsim's 125 from a
/// program's own status 125 (docs/interfaces.md §1).
#[test]
fn error_stop_writes_statistics() {
    let elf = build_asm("bad", "rv32imac_zicsr", &["B_LOOP"]);
    let jf = out_dir().join("budget.json");
    let o = rvsim(&["--max-insns", "1000", "--json-out", jf.to_str().unwrap()], &elf);
    expect_error(o, "instruction budget exceeded");
    let j: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&jf).unwrap()).unwrap();
    assert_eq!(j["exit_code"], serde_json::Value::Null);
    assert!(j["error"].as_str().unwrap().starts_with("instruction budget exceeded: 1000 instructions"), "{j}");
    assert_eq!(j["instret"], 1000);
    let o = rvsim(&["--max-insns", "1000", "--json"], &elf);
    assert_eq!(o.status.code(), Some(125));
    let j2: serde_json::Value = serde_json::from_slice(&o.stderr).unwrap_or_else(|e| panic!("{e}: {}", stderr(&o)));
    assert_eq!(j2, j);
    // a program that itself exits 125: its status, `error` null
    let elf = build_asm("bad", "rv32imac_zicsr", &["B_EXIT125"]);
    let o = rvsim(&["--json-out", jf.to_str().unwrap()], &elf);
    assert_eq!(o.status.code(), Some(125));
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&jf).unwrap()).unwrap();
    assert_eq!((&j["exit_code"], &j["error"]), (&serde_json::json!(125), &serde_json::Value::Null));
}

/// --stack-limit: sp below the limit stops the run naming the function, on both engines.
#[test]
fn stack_limit() {
    let elf = build_asm("bad", "rv32imac_zicsr", &["B_STACK_OVERFLOW"]);
    assert_eq!(rvsim(&[], &elf).status.code(), Some(0), "no limit: the program runs");
    for engine in [&[][..], &["--no-blocks"]] {
        let o = rvsim(&[engine, &["--stack-limit", "0x80003000"]].concat(), &elf);
        expect_error(o, "stack overflow: grow set sp to 0x80002ff0, 16 bytes below the stack limit 0x80003000 (--stack-limit 0x80003000) (4112 bytes of stack in use), by 'addi sp,sp,-16'");
        let o = rvsim(&[engine, &["--stack-limit", "stack_floor"]].concat(), &elf);
        expect_error(o, "below the stack limit 0x80003000 (stack_floor)");
    }
}

#[test]
fn help_lists_every_option_and_version() {
    let o = Command::new(rvsim_bin()).arg("--help").output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8_lossy(&o.stdout);
    // the e31 map's flash region, not the address programs are linked at (issue 23)
    assert!(text.contains("the flash region 0x2000_0000-0x3FFF_FFFF") && text.contains("linked at 0x2040_0000"), "{text}");
    // every option of the usage line is explained below it
    let usage = text.lines().next().unwrap();
    for opt in usage.split(['[', ' ']).filter(|w| w.starts_with("--")) {
        let opt = opt.trim_end_matches(']');
        assert!(text.lines().skip(1).any(|l| l.trim_start().starts_with(opt) || l.contains(&format!(", {opt}"))), "{opt} not explained");
    }
    let o = Command::new(rvsim_bin()).arg("--version").output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("rvsim "));
}

#[test]
fn exit_extended_status() {
    let elf = build_asm("bad", "rv32imac_zicsr", &["B_EXIT7"]);
    assert_eq!(rvsim(&[], &elf).status.code(), Some(7));
}

#[test]
fn picolibc_printf_and_exit_match_qemu() {
    let src = out_dir().join("hello.c");
    std::fs::write(&src, "#include <stdio.h>\n#include <string.h>\nint main(void){ char b[64]; \
        for (int i = 0; i < 3; i++) printf(\"line %d: %s %x %lu\\n\", i, \"abc\", 0xbeef * i, 1234567890ul / (i + 1)); \
        fputs(\"no newline\", stdout); snprintf(b, sizeof b, \"%08x\", 0xc0ffee); puts(b); return 42; }\n").unwrap();
    let elf = out_dir().join("hello.elf");
    build_c(&src, &elf, &[]);
    let ours = rvsim(&[], &elf);
    assert_eq!(ours.status.code(), Some(42), "{}", stderr(&ours));
    let q = Command::new("qemu-system-riscv32")
        .args(["-M", "sifive_e", "-cpu", "rv32", "-bios", "none", "-nographic", "-monitor", "none", "-serial", "none",
               "-semihosting-config", "enable=on,target=native", "-kernel"])
        .arg(&elf).output().unwrap_or_else(|e| panic!("qemu-system-riscv32 is required: {e}"));
    assert_eq!(q.status.code(), Some(42));
    let mut qtext = String::from_utf8_lossy(&q.stdout).into_owned();
    qtext.push_str(&String::from_utf8_lossy(&q.stderr));
    let text = String::from_utf8_lossy(&ours.stdout);
    assert_eq!(text, qtext);
    assert!(text.starts_with("line 0: abc 0 1234567890\nline 1: abc beef 617283945\n"), "{text}");
    assert!(text.ends_with("no newline00c0ffee\n"));
}

#[test]
fn calls_count_linking_jumps_only() {
    // h ends in a tail call of g (`j g`: no link, so not a call of g); main calls g and h once
    // each. `calls` = linking jumps to the function (sim/README.md), so g has 1 and h has 1.
    let src = out_dir().join("tailcall.c");
    std::fs::write(&src, "__attribute__((noinline)) unsigned g(unsigned x){ return x * 3 + 1; }\n\
        __attribute__((noinline)) unsigned h(unsigned x){ return g(x + 1); }\n\
        volatile unsigned sink;\n\
        int main(void){ volatile unsigned n = 5; sink = g(n); sink = h(n); return 0; }\n").unwrap();
    let elf = out_dir().join("tailcall.elf");
    build_c(&src, &elf, &[]);
    let dis = tool_stdout(Command::new("riscv64-unknown-elf-objdump").args(["-d", "--no-show-raw-insn"]).arg(&elf));
    let h = dis.split("<h>:").nth(1).expect("h in the disassembly").split("\n\n").next().unwrap();
    assert!(h.lines().any(|l| l.contains("\tj\t") && l.contains("<g>")), "h does not tail-call g:\n{h}");
    for engine in [&["--json"][..], &["--json", "--no-blocks"]] {
        let o = rvsim(engine, &elf);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let j: serde_json::Value = serde_json::from_str(&stderr(&o)).unwrap();
        assert_eq!(j["functions"]["g"]["calls"], 1, "{engine:?}: {}", j["functions"]);
        assert_eq!(j["functions"]["h"]["calls"], 1, "{engine:?}: {}", j["functions"]);
    }
}

#[test]
fn json_stats_annotate_trace_and_core_file() {
    let src = out_dir().join("work.c");
    std::fs::write(&src, "#include <stdio.h>\nunsigned f(unsigned x){ unsigned s = 0; for (unsigned i = 0; i < x; i++) s += i * i; return s; }\n\
        int main(void){ volatile unsigned n = 1000; printf(\"%u\\n\", f(n)); return 0; }\n").unwrap();
    let elf = out_dir().join("work.elf");
    build_c(&src, &elf, &["-fno-inline"]);
    let jf = out_dir().join("work.json");
    let tf = out_dir().join("work.trace");
    let o = rvsim(&["--json-out", jf.to_str().unwrap(), "--stats", "--annotate", "2", "--trace", tf.to_str().unwrap()], &elf);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&jf).unwrap()).unwrap();
    for k in ["exit_code", "cycles", "instret", "stalls", "mnemonics", "functions", "max_stack_bytes", "core", "isa", "mul_latency"] {
        assert!(j.get(k).is_some(), "missing key {k}");
    }
    for k in ["load_use", "mul", "div", "branch_mispredict", "icache", "other"] { assert!(j["stalls"].get(k).is_some(), "stall {k}"); }
    assert_eq!(j["core"], "e31");
    assert_eq!(j["mul_latency"], 5);
    assert_eq!(j["functions"]["f"]["calls"], 1);
    assert!(j["functions"]["f"]["instret"].as_u64().unwrap() > 4000);
    let mn: u64 = j["mnemonics"].as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(mn, j["instret"].as_u64().unwrap());
    let fsum: u64 = j["functions"].as_object().unwrap().values().map(|v| v["instret"].as_u64().unwrap()).sum();
    assert_eq!(fsum, j["instret"].as_u64().unwrap());
    let fcyc: u64 = j["functions"].as_object().unwrap().values().map(|v| v["cycles"].as_u64().unwrap()).sum();
    assert_eq!(fcyc, j["cycles"].as_u64().unwrap());
    assert!(j["max_stack_bytes"].as_u64().unwrap() > 0 && j["max_stack_bytes"].as_u64().unwrap() < 16384);
    let e = stderr(&o);
    assert!(e.contains("== f ("), "annotate shows f: {e}");
    // --json: stderr is exactly the same object (nothing else: it parses as it is)
    let o = rvsim(&["--json"], &elf);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(serde_json::from_slice::<serde_json::Value>(&o.stderr).unwrap(), j);
    assert_eq!((&j["exit_code"], &j["error"]), (&serde_json::json!(0), &serde_json::Value::Null));
    let trace = std::fs::read_to_string(&tf).unwrap();
    assert_eq!(trace.lines().count() as u64, j["instret"].as_u64().unwrap());
    // the shipped parameter file equals the built-in model, board memory map included (the
    // default map of a pipeline core file is e31, of the ideal core flat)
    let core = Path::new(env!("CARGO_MANIFEST_DIR")).join("cores/e31.toml");
    let jf2 = out_dir().join("work2.json");
    let o = rvsim(&["--core", core.to_str().unwrap(), "--json-out", jf2.to_str().unwrap()], &elf);
    assert_eq!(o.status.code(), Some(0));
    let j2: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&jf2).unwrap()).unwrap();
    assert_eq!((&j2["cycles"], &j2["memory"], &j2["traps"]), (&j["cycles"], &serde_json::json!("e31"), &serde_json::json!(0)));
    // ideal: cycles = instret; --mul-latency changes e31 cycles for a program with muls
    let o = rvsim(&["--core", "ideal", "--json-out", jf2.to_str().unwrap()], &elf);
    assert_eq!(o.status.code(), Some(0));
    let j3: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&jf2).unwrap()).unwrap();
    assert_eq!(j3["cycles"], j3["instret"]);
    assert_eq!(j3["memory"], "flat");
    assert_eq!(j3["instret"], j["instret"]);
    let o = rvsim(&["--mul-latency", "2", "--json-out", jf2.to_str().unwrap()], &elf);
    assert_eq!(o.status.code(), Some(0));
    let j4: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&jf2).unwrap()).unwrap();
    assert_eq!(j4["mul_latency"], 2);
    assert!(j4["cycles"].as_u64().unwrap() < j["cycles"].as_u64().unwrap());
}

#[test]
fn corrupted_elfs_never_panic() {
    // flip bytes in the ELF and program headers and in the code: rvsim must end with a
    // status (program's, 125 or 2), never a panic (101) or a signal
    let elf = build_asm("bad", "rv32imac_zicsr", &["B_EXIT7"]);
    let data = std::fs::read(&elf).unwrap();
    let mut seed = 0x1234_5678_9abc_def1u64;
    let p = out_dir().join("corrupt.elf");
    for n in 0..150 {
        let mut d = data.clone();
        for _ in 0..1 + n % 4 {
            seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17;
            let region = if n % 3 == 0 { 0x1000 + 64 } else { 52 + 32 * 2 };
            let i = (seed as usize >> 8) % region.min(d.len());
            d[i] = (seed >> 40) as u8;
        }
        std::fs::write(&p, &d).unwrap();
        let o = rvsim(&["--max-insns", "100000"], &p);
        let code = o.status.code();
        assert!(code.is_some() && code != Some(101), "case {n}: status {:?}: {}", o.status, stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "case {n}: {}", stderr(&o));
    }
}

/// SYS_WRITEC writes the byte a1 points to, any byte value (tests/asm/semihost.S prints a
/// message one WRITEC per byte, UTF-8 included); the same bytes as on QEMU.
#[test]
fn semihosting_writec_matches_qemu() {
    let elf = build_asm("semihost", "rv32imac_zicsr", &["S_WRITEC"]);
    let ours = rvsim(&[], &elf);
    assert_eq!(ours.status.code(), Some(0), "{}", stderr(&ours));
    assert_eq!(ours.stdout, b"Hello, WRITEC!\n\ttab, percent % and UTF-8 \xc3\xa9\n");
    assert_eq!(qemu(&elf), (Some(0), ours.stdout));
}

/// SYS_READ from the console (":tt" opened with mode 0) reads stdin and returns the number
/// of bytes *not* read (ARM semihosting: 0 = all, len = none / end of file, in between =
/// partial). The program reads 4, 16 and 16 bytes, echoes each read with SYS_WRITE and
/// prints the three results. (QEMU's console read waits for its own chardev input and is not
/// comparable here.)
#[test]
fn semihosting_read_from_stdin() {
    use std::io::Write;
    use std::process::Stdio;
    let elf = build_asm("semihost", "rv32imac_zicsr", &["S_READ"]);
    let mut child = Command::new(rvsim_bin()).arg(&elf).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped())
        .spawn().unwrap();
    child.stdin.take().unwrap().write_all(b"hello\n").unwrap(); // then closed: end of file
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // "hell" (all 4 read: 0), "o\n" (2 of 16: 14 not read), end of file (16)
    assert_eq!(String::from_utf8_lossy(&o.stdout), "hello\n00000000\n0000000e\n00000010\n");
    // empty input: every read is at end of file
    let o = Command::new(rvsim_bin()).arg(&elf).stdin(Stdio::null()).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "00000004\n00000010\n00000010\n");
}

/// SYS_WRITE is bounded by the program's own memory and streamed: all 16 KiB of the DTIM is
/// written (result 0 = all written); one byte more, or a length of 4 GiB - 1 (which once made
/// rvsim allocate hundreds of MB), stops with one clear error before anything is written.
#[test]
fn semihosting_write_is_bounded_by_guest_memory() {
    let elf = build_asm("semihost", "rv32imac_zicsr", &["S_WRITE_BOUNDS", "WRITE_LEN=16384"]);
    let o = rvsim(&[], &elf);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(o.stdout.len(), 16384 + 9, "the DTIM and the result line");
    assert!(o.stdout.ends_with(b"00000000\n"));
    for (len, at) in [("16385", "0x80000000+16385"), ("0xffffffff", "0x80000000+4294967295")] {
        let elf = build_asm("semihost", "rv32imac_zicsr", &["S_WRITE_BOUNDS", &format!("WRITE_LEN={len}")]);
        let o = rvsim(&[], &elf);
        assert!(o.stdout.is_empty(), "nothing written for a bad buffer");
        expect_error(o, &format!("semihosting SYS_WRITE: buffer {at} is not inside the program's memory"));
    }
}

/// --max-output bounds what a program writes in all (the flash region is 512 MiB of guest
/// memory: without it one WRITE may stream that much), whatever --max-insns says.
#[test]
fn console_output_is_bounded() {
    let elf = build_asm("semihost", "rv32imac_zicsr", &["S_WRITE_BOUNDS", "WRITE_LEN=16384"]);
    let o = rvsim(&["--max-output", "16393"], &elf);         // the DTIM and the 9-byte result line
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = rvsim(&["--max-output", "16000"], &elf);
    assert!(o.stdout.is_empty(), "nothing of a WRITE past the limit is written");
    expect_error(o, "the program's console output passed --max-output (16000 bytes)");
}

/// A console that cannot be written (a full disk) stops the run; a closed pipe does not
/// (closed_pipe_is_quiet).
#[test]
fn console_write_error_stops_the_run() {
    let elf = build_asm("semihost", "rv32imac_zicsr", &["S_WRITE_BOUNDS", "WRITE_LEN=16384"]);
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let o = Command::new(rvsim_bin()).arg(&elf).stdout(full).output().unwrap();
    expect_error(o, "semihosting SYS_WRITE: writing the console: No space left on device");
}

/// SYS_CLOCK: centiseconds since the start, from the simulated cycle count at a nominal
/// 100 MHz (1 centisecond = 10^6 cycles; sim/README.md), so deterministic. The program calls
/// it at the start (0) and after 500000 iterations of (mul t1,t1,t1; addi; bnez): 5 cycles
/// per iteration on the E31 model (MUL latency 5, the loop branch predicted) = 2.5 M cycles ->
/// 2, and 3 cycles per iteration on the ideal core = 1.5 M cycles -> 1 (the few hundred
/// cycles outside the loop cannot reach the next centisecond).
#[test]
fn semihosting_clock_is_simulated_time() {
    let elf = build_asm("semihost", "rv32imac_zicsr", &["S_CLOCK"]);
    let e31 = rvsim(&[], &elf);
    assert_eq!(e31.status.code(), Some(0), "{}", stderr(&e31));
    assert_eq!(String::from_utf8_lossy(&e31.stdout), "00000000\n00000002\n");
    assert_eq!(rvsim(&[], &elf).stdout, e31.stdout, "the same run gives the same clock");
    let ideal = rvsim(&["--core", "ideal"], &elf);
    assert_eq!(String::from_utf8_lossy(&ideal.stdout), "00000000\n00000001\n");
}

/// SYS_TIME: seconds since the Unix epoch of the host (as QEMU's): between the times taken
/// before and after the run, on rvsim and on QEMU.
#[test]
fn semihosting_time_is_host_time() {
    let elf = build_asm("semihost", "rv32imac_zicsr", &["S_TIME"]);
    let now = || std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let parse = |out: &[u8]| u64::from_str_radix(String::from_utf8_lossy(out).trim(), 16).unwrap();
    let before = now();
    let o = rvsim(&[], &elf);
    let after = now();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let t = parse(&o.stdout);
    assert!(before <= t && t <= after, "rvsim SYS_TIME {t} not in [{before}, {after}]");
    let before = now();
    let (code, out) = qemu(&elf);
    let after = now();
    assert_eq!(code, Some(0));
    let t = parse(&out);
    assert!(before <= t && t <= after, "QEMU SYS_TIME {t} not in [{before}, {after}]");
}

/// --annotate and --trace on a program whose timing follows from the documented latencies
/// (8 dependent LW, I-cache off): each LW after the first waits 1 cycle for its address.
#[test]
fn annotate_and_trace_show_each_stall() {
    let elf = build_asm("timing", "rv32im_zicsr", &["T_LW_CHAIN"]);
    let core = out_dir().join("e31-no-icache-annotate.toml");
    std::fs::write(&core, "model = \"pipeline\"\n[icache]\nsize = 0\n").unwrap();
    let tf = out_dir().join("lw-chain.trace");
    let o = rvsim(&["--isa", "rv32im", "--core", core.to_str().unwrap(), "--annotate", "1", "--trace", tf.to_str().unwrap()], &elf);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // annotate: "count stalls address instruction [per-exec and cause]" for the 8 loads
    let e = stderr(&o);
    let lws: Vec<Vec<&str>> = e.lines().filter(|l| l.contains("lw a1,0(a")).map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(lws.len(), 8, "{e}");
    assert_eq!((lws[0][0], lws[0][1]), ("1", "0"), "the first LW does not wait: {e}");
    for l in &lws[1..] {
        assert_eq!((l[0], l[1], l.last().copied()), ("1", "1", Some("load_use:1")), "{e}");
    }
    // trace: "cycle pc raw disassembly rd=value"; dependent loads issue 2 cycles apart and each
    // writes a1 = the cell's own address
    let trace = std::fs::read_to_string(&tf).unwrap();
    let lw: Vec<Vec<&str>> = trace.lines().filter(|l| l.contains("lw a1,0(a")).map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(lw.len(), 8);
    let cycles: Vec<u64> = lw.iter().map(|l| l[0].parse().unwrap()).collect();
    for w in cycles.windows(2) { assert_eq!(w[1] - w[0], 2, "{trace}"); }
    for l in &lw[1..] { assert_eq!(l[2], "0005a583", "raw word of lw a1,0(a1)"); }
    for l in &lw { assert!(l.last().unwrap().starts_with("a1=0x8000"), "{trace}"); }
    let pcs: Vec<u32> = lw.iter().map(|l| u32::from_str_radix(l[1], 16).unwrap()).collect();
    for w in pcs.windows(2) { assert_eq!(w[1] - w[0], 4); }
}
