//! Differential test of the standard extension instructions against QEMU 7.2.
//!
//! For every standard extension instruction (Zba Zbb Zbc Zbs Zbkb Zbkc Zbkx Zknd Zkne Zknh
//! Zksed Zksh), several cases with random and edge operands (random immediates / byte
//! selects too) are assembled by the cross assembler; the words are decoded and executed by
//! rvsim's table, and the same words run on `qemu-system-riscv32 -M sifive_e` with the
//! matching `-cpu rv32,zba=true,...` properties, printing every result. Both must agree.
//! Cases per instruction: 8 by default (a quick run), `RVSIM_EXT_QEMU_CASES=N` for more.
//! xzbp and the custom instructions are not in QEMU; they are checked against independent
//! formulations in src/ext/.

mod common;
use common::{assemble, link_board, tmpdir, tool};
use rvsim::ext::{lookup, ExtForm, ExtState, EXT_INSNS};
use std::path::Path;
use std::process::Command;

const STD_EXTS: &[&str] = &["zba", "zbb", "zbc", "zbs", "zbkb", "zbkc", "zbkx", "zknd", "zkne",
                            "zknh", "zksed", "zksh"];
const MARCH: &str = "rv32imac_zba_zbb_zbc_zbs_zbkb_zbkc_zbkx_zknd_zkne_zknh_zksed_zksh";
const QEMU_CPU: &str = "rv32,zba=true,zbb=true,zbc=true,zbs=true,zbkb=true,zbkc=true,zbkx=true,\
                        zknd=true,zkne=true,zknh=true,zksed=true,zksh=true";

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13; self.0 ^= self.0 >> 7; self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }
    /// Operand with a mix of shapes: random, edge value, small byte / nibble indices.
    fn operand(&mut self, k: usize) -> u32 {
        const EDGE: [u32; 8] = [0, 1, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 0x8000_0001, 0x0000_ffff, 0x00ff_00ff];
        match k % 4 {
            0 => self.next(),
            1 => EDGE[(self.next() % 8) as usize],
            2 => self.next() & 0x0707_0707,
            _ => self.next() & 0x7777_7777 | (self.next() & 0x8888_8888 & self.next()),
        }
    }
}

#[test]
fn extension_instructions_match_qemu() {
    let per = std::env::var("RVSIM_EXT_QEMU_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(8usize);
    let dir = tmpdir("extqemu");

    // one entry per mnemonic (rows shared by two extensions are the same instruction)
    let mut rows: Vec<&rvsim::ext::ExtInsn> = Vec::new();
    for e in EXT_INSNS.iter().filter(|e| STD_EXTS.contains(&e.ext)) {
        if !rows.iter().any(|r| r.name == e.name) { rows.push(e); }
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut lines = Vec::new();
    let mut regs = Vec::new();
    for e in &rows {
        for k in 0..per {
            let ops = match e.form {
                ExtForm::R => "a0, a1, a2".to_string(),
                ExtForm::Unary => "a0, a1".to_string(),
                ExtForm::Imm => format!("a0, a1, {}", if k == 0 { 0 } else if k == 1 { 31 } else { rng.next() % 32 }),
                ExtForm::Bs => format!("a0, a1, a2, {}", k % 4),
                f => panic!("{}: form {f:?} has no standard instruction", e.name),
            };
            lines.push(format!("{} {ops}", e.name));
            regs.push((rng.operand(k), rng.operand(k + k / 4)));
        }
    }
    let words = assemble(&dir, MARCH, &lines.iter().map(|l| format!("  {l}\n")).collect::<String>());
    assert_eq!(words.len(), lines.len());

    // expected values from rvsim's table
    let mut expect = Vec::new();
    for ((w, (a, b)), line) in words.iter().zip(&regs).zip(&lines) {
        let e = lookup(*w, |x| STD_EXTS.contains(&x)).unwrap_or_else(|| panic!("`{line}` = {w:#010x} not decoded"));
        assert_eq!(Some(e.name), line.split(' ').next(), "`{line}` decoded as {}", e.name);
        let (x, y, z) = e.operands(*w, |r| match r { 11 => *a, 12 => *b, _ => 0 });
        let mut st = ExtState::default();
        expect.push((e.exec)(&mut st, x, y, z));
    }

    // the same words on QEMU, in programs of at most 1000 cases (16 KiB DTIM)
    let n = words.len();
    let mut got = Vec::new();
    for (w, r) in words.chunks(1000).zip(regs.chunks(1000)) {
        got.extend(run_on_qemu(&dir, w, r));
    }
    let mut bad = Vec::new();
    for i in 0..n {
        if got[i] != expect[i] {
            bad.push(format!("`{}` a1={:#010x} a2={:#010x}: rvsim {:#010x}, qemu {:#010x}",
                             lines[i], regs[i].0, regs[i].1, expect[i], got[i]));
        }
    }
    assert!(bad.is_empty(), "{} of {n} cases differ:\n{}", bad.len(), bad.join("\n"));
    eprintln!("ext_qemu: {n} cases over {} instructions agree with QEMU", rows.len());
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs `words` (each with a1, a2 preset) on QEMU and returns a0 after each.
fn run_on_qemu(dir: &Path, words: &[u32], regs: &[(u32, u32)]) -> Vec<u32> {
    let mut asm = String::from(".section .text\n.globl ext_run\next_run:\n  mv t0, a0\n");
    for (w, (a, b)) in words.iter().zip(regs) {
        asm.push_str(&format!("  li a1, {a:#x}\n  li a2, {b:#x}\n  li a0, 0x5a5a5a5a\n  .insn {w:#010x}\n  sw a0, 0(t0)\n  addi t0, t0, 4\n"));
    }
    asm.push_str("  ret\n");
    std::fs::write(dir.join("cases.S"), asm).unwrap();
    let n = words.len();
    std::fs::write(dir.join("main.c"), format!(
        "#include <stdio.h>\n#include <stdint.h>\nvoid ext_run(uint32_t *out);\nstatic uint32_t out[{n}];\n\
         int main(void) {{ ext_run(out); for (int i = 0; i < {n}; i++) printf(\"%08lx\\n\", (unsigned long)out[i]); return 0; }}\n")).unwrap();
    tool(Command::new(common::CC).args([&format!("-march={MARCH}"), "-mabi=ilp32", "-c", "-o"])
        .arg(dir.join("cases.o")).arg(dir.join("cases.S")));
    link_board(&[&dir.join("main.c"), &dir.join("cases.o")], &dir.join("t.elf"), &["-O1"]);
    // QEMU writes the semihosting console to stderr when no chardev is given
    let o = tool(Command::new("qemu-system-riscv32").args(["-M", "sifive_e", "-cpu", QEMU_CPU, "-bios", "none",
        "-nographic", "-semihosting-config", "enable=on,target=native", "-monitor", "none", "-serial", "none", "-kernel"])
        .arg(dir.join("t.elf")));
    let out = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    let got: Vec<u32> = out.lines().map(str::trim)
        .filter(|l| l.len() == 8 && l.chars().all(|c| c.is_ascii_hexdigit()))
        .map(|l| u32::from_str_radix(l, 16).unwrap()).collect();
    assert_eq!(got.len(), words.len(), "QEMU printed {} results, expected {}", got.len(), words.len());
    got
}
