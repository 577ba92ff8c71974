//! Custom instructions (ise/*/): the assembler macros and the simulator agree.
//!  1. every macro in ise/*/macro.inc, assembled through `#include "ise.inc"`, produces a word
//!     that decodes to that instruction's row, with the register operands where the macro put
//!     them (operands are found from the macro's own `.macro name arg, ...` line);
//!  2. an end-to-end program using addc/subc (multi-word add and subtract) and
//!     sboxaddr/sboxaddrw (table lookups) runs on `rvsim --isa rv32imac_xcarry_xsbox` and
//!     prints results equal to u128 arithmetic / direct indexing computed here;
//!  3. the same program without the extensions in the ISA string stops with exit 125 and a
//!     message naming the instruction and the missing extension;
//!  4. xpolymul (srliandi, sllior, muladd, andbnexadd) through their macros in a bare-metal
//!     program on edge-case operands, results compared with the documented formulas.

mod common;
use common::{assemble, ise_dir, link_board, tmpdir, tool};
use rvsim::ext::{lookup, ExtForm, ExtState, EXT_INSNS};
use std::path::{Path, PathBuf};
use std::process::Command;

#[test]
fn every_macro_encodes_its_row() {
    let dir = tmpdir("ise1");
    let customs: Vec<_> = EXT_INSNS.iter().filter(|e| e.ext.starts_with('x') && e.ext != "xzbp").collect();
    assert!(customs.iter().any(|e| e.name == "addc") && customs.iter().any(|e| e.name == "sboxaddrw"));
    let inc = std::fs::read_to_string(ise_dir().join("ise.inc")).unwrap();
    for e in &customs {
        assert!(inc.contains(&format!("\"{}/macro.inc\"", e.name)), "ise.inc does not include {}", e.name);
        let mac = std::fs::read_to_string(ise_dir().join(e.name).join("macro.inc")).unwrap();
        let line = mac.lines().map(str::trim).find(|l| l.starts_with(&format!(".macro {} ", e.name)))
            .unwrap_or_else(|| panic!("ise/{}/macro.inc has no `.macro {} ...` line", e.name, e.name));
        let args: Vec<String> = line[7 + e.name.len()..].split(',').map(|a| a.trim().to_string()).collect();
        // registers: rd -> a0 (x10), rs1 -> a1 (x11), rs2 -> a2 (x12), rs3 -> a3 (x13); any
        // other argument (immediate, bs) gets a small legal value
        let mut vals = Vec::new();
        for a in &args {
            vals.push(match a.as_str() {
                "rd" => "a0", "rs1" => "a1", "rs2" => "a2", "rs3" => "a3",
                "bs" => "2", _ => "3",
            });
        }
        let w = assemble(&dir, "rv32imac", &format!("#include \"ise.inc\"\n  {} {}\n", e.name, vals.join(", ")));
        assert_eq!(w.len(), 1, "{}: macro must produce one instruction", e.name);
        let w = w[0];
        let got = lookup(w, |x| x == e.ext).unwrap_or_else(|| panic!("{}: macro word {w:#010x} does not decode", e.name));
        assert_eq!(got.name, e.name, "{}: macro word {w:#010x} decodes as {}", e.name, got.name);
        assert!(lookup(w, |x| x != e.ext).is_none(), "{}: word {w:#010x} decodes without {}", e.name, e.ext);
        let rd = (w >> 7) & 31; let rs1 = (w >> 15) & 31; let rs2 = (w >> 20) & 31;
        if args.iter().any(|a| a == "rd") { assert_eq!(rd, 10, "{}: rd field", e.name); }
        if args.iter().any(|a| a == "rs1") { assert_eq!(rs1, 11, "{}: rs1 field", e.name); }
        if args.iter().any(|a| a == "rs2") { assert_eq!(rs2, 12, "{}: rs2 field", e.name); }
        if args.iter().any(|a| a == "rs3") { assert_eq!(w >> 27, 13, "{}: rs3 field", e.name); }
        if e.form == ExtForm::Bs { assert_eq!(w >> 30, 2, "{}: bs field", e.name); }
    }
    std::fs::remove_dir_all(&dir).ok();
}

const PROGRAM: &str = r#"
#include "ise.inc"
    .text
    .globl add128
/* add128(uint32_t r[4], const uint32_t x[4], const uint32_t y[4]); returns the carry out */
add128:
    addc zero, zero, zero        /* clear C */
    lw t0, 0(a1); lw t1, 0(a2); addc t0, t0, t1; sw t0, 0(a0)
    lw t0, 4(a1); lw t1, 4(a2); addc t0, t0, t1; sw t0, 4(a0)
    lw t0, 8(a1); lw t1, 8(a2); addc t0, t0, t1; sw t0, 8(a0)
    lw t0, 12(a1); lw t1, 12(a2); addc t0, t0, t1; sw t0, 12(a0)
    addc a0, zero, zero          /* read and clear C */
    ret
    .globl sub128
/* sub128(r, x, y): r = x - y mod 2^128; returns the borrow out */
sub128:
    addc zero, zero, zero
    lw t0, 0(a1); lw t1, 0(a2); subc t0, t0, t1; sw t0, 0(a0)
    lw t0, 4(a1); lw t1, 4(a2); subc t0, t0, t1; sw t0, 4(a0)
    lw t0, 8(a1); lw t1, 8(a2); subc t0, t0, t1; sw t0, 8(a0)
    lw t0, 12(a1); lw t1, 12(a2); subc t0, t0, t1; sw t0, 12(a0)
    addc a0, zero, zero
    ret
    .globl lookups
/* lookups(x, const uint8_t tb[256], const uint32_t tw[256]): xor of tb[byte i of x] and tw[byte i of x] over i */
lookups:
    li t2, 0
    sboxaddr t0, a0, a1, 0; lbu t0, 0(t0); xor t2, t2, t0
    sboxaddr t0, a0, a1, 1; lbu t0, 0(t0); xor t2, t2, t0
    sboxaddr t0, a0, a1, 2; lbu t0, 0(t0); xor t2, t2, t0
    sboxaddr t0, a0, a1, 3; lbu t0, 0(t0); xor t2, t2, t0
    sboxaddrw t0, a0, a2, 0; lw t0, 0(t0); xor t2, t2, t0
    sboxaddrw t0, a0, a2, 1; lw t0, 0(t0); xor t2, t2, t0
    sboxaddrw t0, a0, a2, 2; lw t0, 0(t0); xor t2, t2, t0
    sboxaddrw t0, a0, a2, 3; lw t0, 0(t0); xor t2, t2, t0
    mv a0, t2
    ret
"#;

const MAIN_C: &str = r#"
#include <stdio.h>
#include <stdint.h>
uint32_t add128(uint32_t r[4], const uint32_t x[4], const uint32_t y[4]);
uint32_t sub128(uint32_t r[4], const uint32_t x[4], const uint32_t y[4]);
uint32_t lookups(uint32_t x, const uint8_t tb[256], const uint32_t tw[256]);
static uint8_t tb[256]; static uint32_t tw[256];
int main(void) {
    uint32_t s = 0x12345678, x[4], y[4], r[4];
    for (int i = 0; i < 256; i++) { tb[i] = (uint8_t)(i * 7 + 3); tw[i] = (uint32_t)i * 0x01000193u; }
    for (int n = 0; n < 20; n++) {
        for (int i = 0; i < 4; i++) { s ^= s << 13; s ^= s >> 17; s ^= s << 5; x[i] = s; s ^= s << 13; s ^= s >> 17; s ^= s << 5; y[i] = s; }
        if (n == 0) { for (int i = 0; i < 4; i++) { x[i] = 0xffffffffu; y[i] = 0; } y[0] = 1; }
        if (n == 1) { for (int i = 0; i < 4; i++) { x[i] = 0; y[i] = 0; } y[0] = 1; }
        uint32_t c = add128(r, x, y);
        printf("A %08lx %08lx %08lx %08lx %08lx %08lx %08lx %08lx %08lx %08lx %08lx %08lx %lu\n",
               (unsigned long)x[0], (unsigned long)x[1], (unsigned long)x[2], (unsigned long)x[3],
               (unsigned long)y[0], (unsigned long)y[1], (unsigned long)y[2], (unsigned long)y[3],
               (unsigned long)r[0], (unsigned long)r[1], (unsigned long)r[2], (unsigned long)r[3], (unsigned long)c);
        c = sub128(r, x, y);
        printf("S %08lx %08lx %08lx %08lx %08lx %08lx %08lx %08lx %08lx %08lx %08lx %08lx %lu\n",
               (unsigned long)x[0], (unsigned long)x[1], (unsigned long)x[2], (unsigned long)x[3],
               (unsigned long)y[0], (unsigned long)y[1], (unsigned long)y[2], (unsigned long)y[3],
               (unsigned long)r[0], (unsigned long)r[1], (unsigned long)r[2], (unsigned long)r[3], (unsigned long)c);
        printf("L %08lx %08lx\n", (unsigned long)x[0], (unsigned long)lookups(x[0], tb, tw));
    }
    return 0;
}
"#;

fn build_program(dir: &Path) -> PathBuf {
    std::fs::write(dir.join("k.S"), PROGRAM).unwrap();
    std::fs::write(dir.join("main.c"), MAIN_C).unwrap();
    tool(Command::new(common::CC).args(["-march=rv32imac", "-mabi=ilp32", "-c", "-I"]).arg(ise_dir())
        .arg("-o").arg(dir.join("k.o")).arg(dir.join("k.S")));
    let elf = dir.join("t.elf");
    link_board(&[&dir.join("main.c"), &dir.join("k.o")], &elf, &["-O1"]);
    elf
}

#[test]
fn custom_instructions_run_on_rvsim() {
    let dir = tmpdir("ise2");
    let elf = build_program(&dir);
    let out = Command::new(env!("CARGO_BIN_EXE_rvsim")).args(["--isa", "rv32imac_xcarry_xsbox"]).arg(&elf).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "rvsim failed: {}\n{}", String::from_utf8_lossy(&out.stderr), stdout);
    let hx = |s: &str| u32::from_str_radix(s, 16).unwrap();
    let to128 = |v: &[u32]| v.iter().rev().fold(0u128, |a, &w| (a << 32) | w as u128);
    let (mut na, mut ns, mut nl) = (0, 0, 0);
    for line in stdout.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        match f.first() {
            Some(&"A") | Some(&"S") => {
                let v: Vec<u32> = f[1..13].iter().map(|s| hx(s)).collect();
                let (x, y, r) = (to128(&v[0..4]), to128(&v[4..8]), to128(&v[8..12]));
                let c: u32 = f[13].parse().unwrap();
                if f[0] == "A" {
                    let (sum, carry) = x.overflowing_add(y);
                    assert_eq!((r, c), (sum, carry as u32), "{line}"); na += 1;
                } else {
                    let (d, borrow) = x.overflowing_sub(y);
                    assert_eq!((r, c), (d, borrow as u32), "{line}"); ns += 1;
                }
            }
            Some(&"L") => {
                let x = hx(f[1]);
                let want = (0..4).fold(0u32, |acc, i| {
                    let b = (x >> (8 * i)) & 0xff;
                    acc ^ ((b * 7 + 3) & 0xff) ^ b.wrapping_mul(0x0100_0193)
                });
                assert_eq!(hx(f[2]), want, "{line}"); nl += 1;
            }
            _ => {}
        }
    }
    assert_eq!((na, ns, nl), (20, 20, 20), "unexpected output:\n{stdout}");

    // without xcarry in the ISA string the first addc traps with a clear message (picolibc's
    // crt0 installs a trap handler of its own: --stop-on-trap keeps rvsim's message)
    let out = Command::new(env!("CARGO_BIN_EXE_rvsim")).args(["--isa", "rv32imac_xsbox", "--stop-on-trap"]).arg(&elf).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(125), "stderr: {err}");
    assert!(err.contains("addc") && err.contains("xcarry"), "message should name addc and xcarry: {err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The same semantics, computed through the table's exec functions directly (no assembler):
/// the hidden carry is carried across instructions in ExtState, and x0 destinations still
/// update it.
#[test]
fn carry_state_through_table() {
    let addc = EXT_INSNS.iter().find(|e| e.name == "addc").unwrap();
    let mut st = ExtState::default();
    (addc.exec)(&mut st, 0xffff_ffff, 1, 0); // addc x0, ..: result discarded, C = 1
    assert_eq!(st.carry, 1);
    assert_eq!((addc.exec)(&mut st, 0, 0, 0), 1); // read and clear
    assert_eq!(st.carry, 0);
}

/// xpolymul end to end: each case sets a0..a3, runs one instruction written with its ise.inc
/// macro and stores a0; the program runs on the E31 model through `common::run` (block
/// engine and per-instruction loop), and every stored word must equal the formula of
/// ise/README.md / insn.toml computed here. Aliased operands (rd = rs1 = ...) included.
#[test]
fn xpolymul_macros_run_on_rvsim() {
    // (instruction, a0 (old rd), a1, a2, a3, expected a0)
    let mut cases: Vec<(String, u32, u32, u32, u32, u32)> = vec![];
    for (a, shamt, mask) in [(0xffff_ffffu32, 0u32, 127u32), (0xffff_ffff, 31, 127), (0x8000_0000, 31, 1), (0x1234_5678, 4, 15),
                             (0x1234_5678, 28, 0x7f), (0xdead_beef, 0, 0), (0xdead_beef, 7, 0x55), (0x7fff_ffff, 25, 0x40)] {
        let want = ((a as u64 >> shamt) & mask as u64) as u32;
        cases.push((format!("srliandi a0, a1, {shamt}, {mask}"), 0x5555_5555, a, 0, 0, want));
    }
    for (old, a, shamt) in [(0xffff_ffffu32, 0u32, 0u32), (1, 0, 31), (0x8000_0001, 0, 1), (0x1234_5678, 0xf, 4),
                            (0xabcd_ef01, 0x8000_0000, 0), (0, 0xffff_ffff, 31), (0xf000_000f, 0x10, 28)] {
        let want = ((old as u64) << shamt) as u32 | a;
        cases.push((format!("sllior a0, a1, {shamt}"), old, a, 0, 0, want));
    }
    cases.push(("sllior a0, a0, 4".into(), 0x1000_0001, 0, 0, 0, 0x0000_0010 | 0x1000_0001));
    for (a, b, c) in [(0xffff_ffffu32, 0xffff_ffffu32, 0xffff_ffffu32), (0x8000_0000, 2, 1), (0x1_0000, 0x1_0000, 5),
                      (3, 7, 0xffff_fff0), (0x1234_5678, 16, 8), (0, 0xdead_beef, 0x1234), (0x7fff_ffff, 0x7fff_ffff, 0)] {
        let want = ((a as u128 * b as u128 + c as u128) & 0xffff_ffff) as u32;
        cases.push(("muladd a0, a1, a2, a3".into(), 0x5555_5555, a, b, c, want));
    }
    cases.push(("muladd a0, a0, a0, a0".into(), 3, 0, 0, 0, 12));
    for (old, a, b) in [(0x0f0f_0f0fu32, 0x8000_0000u32, 0xffff_0000u32), (0x0f0f_0f0f, 0x7fff_ffff, 0xffff_0000),
                        (0, 0xffff_ffff, 0xdead_beef), (0xdead_beef, 0x8000_0001, 0xdead_beef), (0x1234_5678, 1, 0xffff_ffff)] {
        let want = if a & 0x8000_0000 != 0 { old ^ b } else { old };
        cases.push(("andbnexadd a0, a1, a2".into(), old, a, b, 0, want));
    }
    cases.push(("andbnexadd a0, a0, a1".into(), 0x8000_0000, 0x8000_0001, 0, 0, 1));
    cases.push(("andbnexadd a0, a0, a1".into(), 0x7fff_ffff, 0x8000_0001, 0, 0, 0x7fff_ffff));

    let mut src = String::from("#include \"rt.h\"\n#include \"ise.inc\"\n    .section .text.start\n    .globl _start\n_start:\n    la gp, out\n");
    for (k, (insn, a0, a1, a2, a3, _)) in cases.iter().enumerate() {
        src.push_str(&format!("    li a0, {}\n    li a1, {}\n    li a2, {}\n    li a3, {}\n    {insn}\n    sw a0, {}(gp)\n",
                              *a0 as i32, *a1 as i32, *a2 as i32, *a3 as i32, 4 * k));
    }
    src.push_str(&format!("    EXIT_OK\n    .data\n    .balign 4\nout: .space {}\n", 4 * cases.len()));
    let dir = common::out_dir();
    let s = dir.join("xpolymul.S");
    let elf = dir.join("xpolymul.elf");
    std::fs::write(&s, src).unwrap();
    let asm = common::dir().join("asm");
    tool(Command::new(common::CC).args(["-march=rv32im_zicsr", "-mabi=ilp32", "-nostdlib", "-nostartfiles", "-T"]).arg(asm.join("link.ld"))
        .arg("-I").arg(&asm).arg("-I").arg(ise_dir()).arg(&s).arg("-o").arg(&elf));
    let r = common::run(&elf, "rv32im_xpolymul", Some(rvsim::timing::CoreParams::e31()));
    assert_eq!(r.exit, Ok(0));
    let out = r.gp();
    for (k, (insn, a0, a1, a2, a3, want)) in cases.iter().enumerate() {
        let got = r.m.mem.read::<4>(out + 4 * k as u32).unwrap();
        assert_eq!(got, *want, "{insn} with a0={a0:#x} a1={a1:#x} a2={a2:#x} a3={a3:#x}");
    }
}
