//! Random test programs for differential runs: rvsim against QEMU (`tests/diff_qemu.rs`)
//! and the Verilog 5-stage core against rvsim's model of it (`rvlab rtl --random`, through
//! the `rvsim-randprog` binary), so both check the same programs.
//!
//! A program is chunks of CHUNK instructions, every other one the body of a counted loop
//! (branches and jumps go forward inside a chunk), so the final state depends on long data
//! flows too. Loads and stores stay inside a 256-byte buffer in the DTIM (base gp = x3, and
//! registers of x8..x15 or sp set just before, so that the assembler emits c.lw/c.sw/c.lwsp/
//! c.swsp). At the end the program prints x1..x31 and the buffer in hex through semihosting
//! (`hex_lines` reads them back) and exits with status 0. It includes `rt.h` and links with
//! `link.ld` of sim/tests/asm.
use std::fmt::Write as _;

/// Operand shapes the generator knows.
#[derive(Clone, Copy, Debug)]
pub enum K {
    /// rd, rs1, rs2
    R,
    /// rd, rs1
    Unary,
    /// rd, rs1, imm in [lo, hi]
    I(i32, i32),
    /// rd, imm20
    U,
    /// load rd, off(gp), access size
    Load(u32),
    /// store rs2, off(gp), access size
    Store(u32),
    /// `addi b, gp, off1` then load rd, off2(b) with b in x8..x15 (rd half the time in
    /// x8..x15 too): word accesses with small offsets compress to c.lw
    LoadC(u32),
    /// the same for stores (c.sw)
    StoreC(u32),
    /// `addi sp, gp, off1` then lw rd, off2(sp) (c.lwsp when rd != x0)
    LoadSp,
    /// `addi sp, gp, off1` then sw rs2, off2(sp) (c.swsp)
    StoreSp,
    /// conditional branch forward over 1..3 instructions
    Branch,
    /// jal rd forward over 1..2 instructions
    Jal,
    /// jalr rd through tp to a forward label
    Jalr,
    /// AMO rd, rs2, (tp) with tp = gp + aligned offset
    Amo,
    /// lr.w rd,(tp); sc.w rd2, rs2, (tp)
    LrSc,
    /// csrrw/csrrs/csrrc rd, mscratch, rs1
    Csr,
    /// csrrwi/csrrsi/csrrci rd, mscratch, uimm5
    CsrI,
    /// rd, rs1, rs2, bs (0..3)
    Bs,
}

/// The base-ISA mix (RV32IMC + Zicsr; with `atomics` also the A extension's AMOs and LR/SC).
pub fn base_forms(atomics: bool) -> Vec<(&'static str, K)> {
    use K::*;
    let mut v = vec![];
    for m in ["add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and",
              "mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"] { v.push((m, R)); }
    for m in ["addi", "slti", "sltiu", "xori", "ori", "andi"] { v.push((m, I(-2048, 2047))); }
    for m in ["slli", "srli", "srai"] { v.push((m, I(0, 31))); }
    v.push(("lui", U));
    v.push(("auipc", U));
    for (m, s) in [("lb", 1), ("lbu", 1), ("lh", 2), ("lhu", 2), ("lw", 4)] { v.push((m, Load(s))); }
    for (m, s) in [("sb", 1), ("sh", 2), ("sw", 4)] { v.push((m, Store(s))); }
    // base registers the compressed forms can use (the assembler compresses them, -march has c)
    for (m, s) in [("lw", 4), ("lw", 4), ("lbu", 1), ("lh", 2)] { v.push((m, LoadC(s))); }
    for (m, s) in [("sw", 4), ("sw", 4), ("sb", 1)] { v.push((m, StoreC(s))); }
    v.push(("lw", LoadSp));
    v.push(("sw", StoreSp));
    for m in ["beq", "bne", "blt", "bge", "bltu", "bgeu"] { v.push((m, Branch)); }
    v.push(("jal", Jal));
    v.push(("jalr", Jalr));
    if atomics {
        for m in ["amoswap.w", "amoadd.w", "amoxor.w", "amoand.w", "amoor.w", "amomin.w", "amomax.w", "amominu.w", "amomaxu.w"] {
            v.push((m, Amo));
        }
        v.push(("lr.w", LrSc));
    }
    for m in ["csrrw", "csrrs", "csrrc"] { v.push((m, Csr)); }
    for m in ["csrrwi", "csrrsi", "csrrci"] { v.push((m, CsrI)); }
    // compressed forms come from the assembler compressing eligible instructions (-march has c)
    v
}

/// Extension instructions: (mnemonic, shape, extension) for every instruction of the
/// extensions `exts` in rvsim's extension table (operand shape from `ExtInsn.form`;
/// immediates 0..31, byte selects 0..3; forms the generator has no shape for are left out).
pub fn ext_forms(exts: &[&str]) -> Vec<(&'static str, K, &'static str)> {
    use crate::ext::ExtForm;
    let mut v: Vec<(&'static str, K, &'static str)> = vec![];
    for e in crate::ext::ext_insns() {
        if !exts.contains(&e.ext) || v.iter().any(|(n, _, _)| *n == e.name) { continue; }
        let k = match e.form {
            ExtForm::R => K::R,
            ExtForm::Unary => K::Unary,
            ExtForm::Imm => K::I(0, 31),
            ExtForm::Bs => K::Bs,
            _ => continue,
        };
        v.push((e.name, k, e.ext));
    }
    v
}


/// xorshift64: the programs are a function of the seed alone.
pub struct Rng(u64);
impl Rng {
    /// The generator for program number `seed`.
    pub fn new(seed: u64) -> Rng { Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1) }
    pub fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as u32
    }
    pub fn below(&mut self, n: u32) -> u32 { self.next() % n }
    pub fn range(&mut self, lo: i32, hi: i32) -> i32 { lo + self.below((hi - lo + 1) as u32) as i32 }
    pub fn value(&mut self) -> u32 {
        const EDGE: [u32; 10] = [0, 1, 2, 0xffff_ffff, 0x8000_0000, 0x7fff_ffff, 0xffff_fffe, 0x8000_0001, 31, 0xff];
        match self.below(3) { 0 => EDGE[self.below(10) as usize], 1 => self.next() & 0xff, _ => self.next() }
    }
    /// destination: any register but x3 (gp, buffer base), x4 (tp, scratch address) and x27
    /// (s11, the loop counter)
    pub fn rd(&mut self) -> u32 { loop { let r = self.below(32); if r != 3 && r != 4 && r != LOOP_REG { return r; } } }
    pub fn rs(&mut self) -> u32 { let r = self.below(32); if r == 4 { 3 } else { r } }
}

/// The loop counter register (s11): no random instruction writes it.
pub const LOOP_REG: u32 = 27;
/// Instructions per straight-line run or loop body.
pub const CHUNK: usize = 50;

/// A random program of `len` instructions in chunks of CHUNK: every other chunk is the body of
/// a loop run `iters` times (counted down in s11; branches and jumps inside a chunk only go
/// forward within it, so every path reaches the loop's end), the others run once. Loads and
/// stores stay inside the 256-byte buffer in the DTIM.
pub fn gen_program(rng: &mut Rng, forms: &[(&'static str, K)], len: usize, iters: u32) -> String {
    let mut s = String::new();
    s.push_str("#include \"rt.h\"\n    .section .text.start\n    .globl _start\n_start:\n    la gp, buf\n");
    for r in 1..32 {
        if r == 3 || r == 4 { continue; }
        let _ = writeln!(s, "    li x{r}, {}", rng.value() as i32);
    }
    // fill the buffer with random words
    for i in 0..64 {
        let _ = writeln!(s, "    li tp, {}\n    sw tp, {}(gp)", rng.next() as i32, 4 * i);
    }
    let mut pending: Vec<(usize, usize)> = vec![]; // (label id, instructions until it)
    let mut label = 0usize;
    let mut i = 0;
    let mut in_loop = false;
    while i < len {
        if i % CHUNK == 0 {
            // chunk boundary: pending forward targets land here, then a loop ends or begins
            for (l, _) in pending.drain(..) { let _ = writeln!(s, "L{l}:"); }
            if in_loop { let _ = writeln!(s, "    addi x{LOOP_REG}, x{LOOP_REG}, -1\n    bnez x{LOOP_REG}, LOOP{}", i / CHUNK - 1); }
            in_loop = iters > 1 && (i / CHUNK) % 2 == 1;
            if in_loop { let _ = writeln!(s, "    li x{LOOP_REG}, {iters}\nLOOP{}:", i / CHUNK); }
        }
        let (m, k) = forms[rng.below(forms.len() as u32) as usize];
        let mut line = String::new();
        match k {
            K::R => { let _ = write!(line, "{m} x{}, x{}, x{}", rng.rd(), rng.rs(), rng.rs()); }
            K::Unary => { let _ = write!(line, "{m} x{}, x{}", rng.rd(), rng.rs()); }
            K::I(lo, hi) => { let _ = write!(line, "{m} x{}, x{}, {}", rng.rd(), rng.rs(), rng.range(lo, hi)); }
            K::Bs => { let _ = write!(line, "{m} x{}, x{}, x{}, {}", rng.rd(), rng.rs(), rng.rs(), rng.below(4)); }
            K::U => { let _ = write!(line, "{m} x{}, {}", rng.rd(), rng.below(1 << 20)); }
            K::Load(sz) => { let _ = write!(line, "{m} x{}, {}(gp)", rng.rd(), sz * rng.below(256 / sz)); }
            K::Store(sz) => { let _ = write!(line, "{m} x{}, {}(gp)", rng.rs(), sz * rng.below(256 / sz)); }
            K::Branch | K::Jal | K::Jalr => {
                label += 1;
                let skip = 1 + rng.below(3) as usize;
                match k {
                    K::Branch => { let _ = write!(line, "{m} x{}, x{}, L{label}", rng.rs(), rng.rs()); }
                    K::Jal => { let _ = write!(line, "jal x{}, L{label}", rng.rd()); }
                    _ => { let _ = write!(line, "la tp, L{label}\n    jalr x{}, 0(tp)", rng.rd()); }
                }
                pending.push((label, skip + 1));
            }
            K::Amo => { let _ = write!(line, "addi tp, gp, {}\n    {m} x{}, x{}, (tp)", 4 * rng.below(64), rng.rd(), rng.rs()); }
            K::LrSc => {
                let _ = write!(line, "addi tp, gp, {}\n    lr.w x{}, (tp)\n    sc.w x{}, x{}, (tp)", 4 * rng.below(64), rng.rd(), rng.rd(), rng.rs());
            }
            K::Csr => { let _ = write!(line, "{m} x{}, mscratch, x{}", rng.rd(), rng.rs()); }
            K::CsrI => { let _ = write!(line, "{m} x{}, mscratch, {}", rng.rd(), rng.below(32)); }
            K::LoadC(sz) | K::StoreC(sz) => {
                // base b in x8..x15 pointing into buf: off1 + off2 < 256, off2 a multiple of
                // the size below 128 (c.lw/c.sw reach 0..124)
                let b = 8 + rng.below(8);
                let off1 = 4 * rng.below(32);
                let off2 = sz * rng.below((256 - off1).min(128) / sz);
                let r = if rng.below(2) == 0 { 8 + rng.below(8) } else if matches!(k, K::LoadC(_)) { rng.rd() } else { rng.rs() };
                let _ = write!(line, "addi x{b}, gp, {off1}
    {m} x{r}, {off2}(x{b})");
            }
            K::LoadSp | K::StoreSp => {
                let off1 = 4 * rng.below(16);
                let off2 = 4 * rng.below((256 - off1) / 4);
                let r = if matches!(k, K::LoadSp) { rng.rd() } else { rng.rs() };
                let _ = write!(line, "addi sp, gp, {off1}
    {m} x{r}, {off2}(sp)");
            }
        }
        let _ = writeln!(s, "    {line}");
        i += 1;
        for p in pending.iter_mut() { p.1 -= 1; }
        pending.retain(|&(l, n)| if n == 0 { let _ = writeln!(s, "L{l}:"); false } else { true });
    }
    for (l, _) in pending { let _ = writeln!(s, "L{l}:"); }
    if in_loop { let _ = writeln!(s, "    addi x{LOOP_REG}, x{LOOP_REG}, -1\n    bnez x{LOOP_REG}, LOOP{}", (len - 1) / CHUNK); }
    // dump x1..x31 into dump[1..32], then print dump[0..32] and buf[0..64] in hex
    s.push_str(r#"
    csrw mscratch, x31
    la x31, dump
"#);
    for r in 1..31 { let _ = writeln!(s, "    sw x{r}, {}(x31)", 4 * r); }
    s.push_str(r#"
    csrr x1, mscratch
    sw x1, 124(x31)
    la s0, dump
    li s1, 96
    la s2, text
1:  lw t0, 0(s0)
    li t1, 8
2:  srli t2, t0, 28
    slli t0, t0, 4
    addi t2, t2, 48
    li t3, 58
    blt t2, t3, 3f
    addi t2, t2, 39
3:  sb t2, 0(s2)
    addi s2, s2, 1
    addi t1, t1, -1
    bnez t1, 2b
    li t2, 10
    sb t2, 0(s2)
    addi s2, s2, 1
    addi s0, s0, 4
    addi s1, s1, -1
    bnez s1, 1b
    sb zero, 0(s2)
    li a0, 4
    la a1, text
    SEMIHOST_CALL
    EXIT_OK
    .data
    .balign 4
dump: .space 128
buf:  .space 256
text: .space 1024
"#);
    s
}

/// The hex words a program printed (its registers, then its buffer).
pub fn hex_lines(out: &str) -> Vec<String> {
    out.lines().filter(|l| l.len() == 8 && l.chars().all(|c| c.is_ascii_hexdigit())).map(String::from).collect()
}

/// Loop iterations for about `insns` retired instructions from a program of `len` instructions
/// (half of its chunks are loop bodies).
pub fn iters_for(insns: u64, len: usize) -> u32 {
    let looped = ((len / CHUNK) / 2).max(1) * CHUNK;
    (insns / looped as u64 + 1).clamp(2, u32::MAX as u64) as u32
}
