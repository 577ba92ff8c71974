//! Draft bitmanip (xzbp: grev, grevi, shfl, shfli, unshfl, unshfli) — QEMU 7.2 and binutils
//! 2.40 do not implement them, so:
//!  * the encodings are pinned to the 0.93 draft's field layout, composed here bit by bit;
//!  * random cases run as a program on `rvsim --isa rv32imac_xzbp` and are compared with a
//!    formulation written independently of src/ext/bitmanip.rs: the draft's definitions as
//!    permutations of bit *indices* (grev: result bit i = x bit (i XOR k); shfl: each enabled
//!    stage swaps two adjacent bits of the index, outer stage first; unshfl: inner first).

mod common;
use common::{link_board, tmpdir, tool};
use rvsim::ext::lookup;
use std::process::Command;

const OP: u32 = 0x33;
const OP_IMM: u32 = 0x13;
fn rtype(f7: u32, rs2: u32, rs1: u32, f3: u32, rd: u32, op: u32) -> u32 {
    (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op
}
/// The six draft encodings with rd = a0, rs1 = a1, rs2 = a2 (or the immediate).
fn grev() -> u32 { rtype(0b0110100, 12, 11, 0b101, 10, OP) }
fn grevi(k: u32) -> u32 { rtype(0b0110100, k, 11, 0b101, 10, OP_IMM) }
fn shfl() -> u32 { rtype(0b0000100, 12, 11, 0b001, 10, OP) }
fn unshfl() -> u32 { rtype(0b0000100, 12, 11, 0b101, 10, OP) }
fn shfli(k: u32) -> u32 { rtype(0b0000100, k, 11, 0b001, 10, OP_IMM) }
fn unshfli(k: u32) -> u32 { rtype(0b0000100, k, 11, 0b101, 10, OP_IMM) }

fn grev_ref(x: u32, k: u32) -> u32 {
    (0..32).fold(0, |r, i| r | (((x >> (i ^ (k & 31))) & 1) << i))
}
/// Apply a permutation of bit indices: destination bit p(i) = source bit i.
fn permute(x: u32, p: impl Fn(u32) -> u32) -> u32 { (0..32).fold(0, |r, i| r | (((x >> i) & 1) << p(i))) }
fn swap_bits(i: u32, s: u32) -> u32 {
    let lo = (i >> s) & 1;
    let hi = (i >> (s + 1)) & 1;
    (i & !(3 << s)) | (lo << (s + 1)) | (hi << s)
}
fn shfl_ref(x: u32, k: u32) -> u32 {
    [3, 2, 1, 0].iter().filter(|&&s| k & (1 << s) != 0).fold(x, |v, &s| permute(v, |i| swap_bits(i, s)))
}
fn unshfl_ref(x: u32, k: u32) -> u32 {
    [0, 1, 2, 3].iter().filter(|&&s| k & (1 << s) != 0).fold(x, |v, &s| permute(v, |i| swap_bits(i, s)))
}

#[test]
fn draft_encodings_decode_only_with_xzbp() {
    let xzbp = |e: &str| e == "xzbp";
    let ratified = |e: &str| e != "xzbp";
    assert_eq!(lookup(grev(), xzbp).unwrap().name, "grev");
    assert_eq!(lookup(shfl(), xzbp).unwrap().name, "shfl");
    assert_eq!(lookup(unshfl(), xzbp).unwrap().name, "unshfl");
    assert!(lookup(grev(), ratified).is_none());
    assert!(lookup(shfl(), ratified).is_none());
    assert!(lookup(unshfl(), ratified).is_none());
    for k in 0..32 {
        let g = lookup(grevi(k), xzbp).unwrap();
        assert_eq!(g.name, "grevi");
        let r = lookup(grevi(k), ratified).map(|e| e.name);
        assert_eq!(r, match k { 7 => Some("brev8"), 24 => Some("rev8"), _ => None }, "grevi {k}");
    }
    for k in 0..16 {
        assert_eq!(lookup(shfli(k), xzbp).unwrap().name, "shfli");
        assert_eq!(lookup(unshfli(k), xzbp).unwrap().name, "unshfli");
        assert_eq!(lookup(shfli(k), ratified).map(|e| e.name), if k == 15 { Some("zip") } else { None });
        assert_eq!(lookup(unshfli(k), ratified).map(|e| e.name), if k == 15 { Some("unzip") } else { None });
    }
    // RV32: shfli/unshfli with control bit 4 set, and grevi with bit 25 set, are reserved
    for k in 16..32 {
        assert!(lookup(shfli(k), |_| true).is_none(), "shfli {k}");
        assert!(lookup(unshfli(k), |_| true).is_none(), "unshfli {k}");
    }
    assert!(lookup(grevi(5) | (1 << 25), |_| true).is_none());
}

#[test]
fn xzbp_program_on_rvsim_matches_index_permutation_definitions() {
    let dir = tmpdir("xzbp");
    let mut s = 0x2468_ace1u32;
    let mut rnd = || { s ^= s << 13; s ^= s >> 17; s ^= s << 5; s };
    // (word, a1, a2, expected)
    let mut cases: Vec<(u32, u32, u32, u32)> = Vec::new();
    for n in 0..400 {
        let x = if n % 10 == 0 { [0, 0xffff_ffff, 0x8000_0000, 1, 0x0000_ffff][n / 10 % 5] } else { rnd() };
        let r = rnd();
        let k5 = (n as u32) % 32;
        let k4 = (n as u32) % 16;
        cases.push(match n % 6 {
            0 => (grev(), x, r, grev_ref(x, r & 31)),
            1 => (grevi(k5), x, 0, grev_ref(x, k5)),
            2 => (shfl(), x, r, shfl_ref(x, r & 15)),
            3 => (unshfl(), x, r, unshfl_ref(x, r & 15)),
            4 => (shfli(k4), x, 0, shfl_ref(x, k4)),
            _ => (unshfli(k4), x, 0, unshfl_ref(x, k4)),
        });
    }
    let mut asm = String::from(".text\n.globl xzbp_run\nxzbp_run:\n  mv t0, a0\n");
    for (w, a, b, _) in &cases {
        asm.push_str(&format!("  li a1, {a:#x}\n  li a2, {b:#x}\n  .insn {w:#010x}\n  sw a0, 0(t0)\n  addi t0, t0, 4\n"));
    }
    asm.push_str("  ret\n");
    let n = cases.len();
    std::fs::write(dir.join("x.S"), asm).unwrap();
    std::fs::write(dir.join("main.c"), format!("#include <stdio.h>\n#include <stdint.h>\nvoid xzbp_run(uint32_t *o);\n\
        static uint32_t o[{n}];\nint main(void) {{ xzbp_run(o); for (int i = 0; i < {n}; i++) printf(\"%08lx\\n\", (unsigned long)o[i]); return 0; }}\n")).unwrap();
    tool(Command::new(common::CC).args(["-march=rv32imac", "-mabi=ilp32", "-c", "-o"]).arg(dir.join("x.o")).arg(dir.join("x.S")));
    link_board(&[&dir.join("main.c"), &dir.join("x.o")], &dir.join("t.elf"), &["-O1"]);
    let out = Command::new(env!("CARGO_BIN_EXE_rvsim")).args(["--isa", "rv32imac_xzbp"]).arg(dir.join("t.elf")).output().unwrap();
    assert!(out.status.success(), "rvsim: {}", String::from_utf8_lossy(&out.stderr));
    let got: Vec<u32> = String::from_utf8_lossy(&out.stdout).lines().map(|l| u32::from_str_radix(l.trim(), 16).unwrap()).collect();
    assert_eq!(got.len(), n);
    for (i, ((w, a, b, e), g)) in cases.iter().zip(&got).enumerate() {
        assert_eq!(g, e, "case {i}: word {w:#010x} a1={a:#010x} a2={b:#010x}");
    }
    // and without xzbp the first grev traps (--stop-on-trap: rvsim reports it, not picolibc's handler)
    let out = Command::new(env!("CARGO_BIN_EXE_rvsim")).args(["--isa", "rv32imac_zbb_zbkb", "--stop-on-trap"]).arg(dir.join("t.elf")).output().unwrap();
    assert_eq!(out.status.code(), Some(125));
    assert!(String::from_utf8_lossy(&out.stderr).contains("xzbp"));
    std::fs::remove_dir_all(&dir).ok();
}
