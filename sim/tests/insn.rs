//! Unit tests of the base instructions (RV32I, M, A, C, Zicsr) with edge cases: each test
//! places hand-encoded words in flash, runs them on the ideal core and checks registers
//! and memory. Compressed decoding is checked against the cross assembler.

mod common;
use rvsim::decode::{decode_any, decode_c16};
use rvsim::elf::LoadedElf;
use rvsim::csr::CsrFault;
use rvsim::exec::{Exception, Machine, NoObserver, Stop};
use rvsim::isa::Isa;
use rvsim::mem::{MapKind, MemError, Memory};
use rvsim::timing::Ideal;

const BASE: u32 = 0x2040_0000;
const RAM: u32 = 0x8000_0000;

fn r(f7: u32, rs2: u32, rs1: u32, f3: u32, rd: u32, op: u32) -> u32 { f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op }
fn i(imm: i32, rs1: u32, f3: u32, rd: u32, op: u32) -> u32 { ((imm as u32) & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op }
fn s(imm: i32, rs2: u32, rs1: u32, f3: u32) -> u32 {
    let m = imm as u32;
    (m >> 5 & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (m & 0x1f) << 7 | 0x23
}
fn b(imm: i32, rs2: u32, rs1: u32, f3: u32) -> u32 {
    let m = imm as u32;
    (m >> 12 & 1) << 31 | (m >> 5 & 0x3f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (m >> 1 & 0xf) << 8 | (m >> 11 & 1) << 7 | 0x63
}
fn u(imm: u32, rd: u32, op: u32) -> u32 { imm << 12 | rd << 7 | op }
fn j(imm: i32, rd: u32) -> u32 {
    let m = imm as u32;
    (m >> 20 & 1) << 31 | (m >> 1 & 0x3ff) << 21 | (m >> 11 & 1) << 20 | (m >> 12 & 0xff) << 12 | rd << 7 | 0x6f
}
fn op(f7: u32, f3: u32, rd: u32, rs1: u32, rs2: u32) -> u32 { r(f7, rs2, rs1, f3, rd, 0x33) }
fn opi(f3: u32, rd: u32, rs1: u32, imm: i32) -> u32 { i(imm, rs1, f3, rd, 0x13) }

/// Exit sequence: a0 = SYS_EXIT, a1 = ApplicationExit, semihosting trap.
const EXIT: [u32; 6] = [0x0180_0513, 0x0002_05b7, 0x0265_8593, 0x01f0_1013, 0x0010_0073, 0x4070_5013];

/// Run `words` (then the exit sequence) with registers preset by `init` (reg, value).
fn run_words(words: &[u32], init: &[(usize, u32)]) -> Machine {
    run_bytes(&words.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>(), init, "rv32imac")
}
fn run_bytes(code: &[u8], init: &[(usize, u32)], isa: &str) -> Machine {
    run_map(code, init, isa, MapKind::E31)
}
fn run_map(code: &[u8], init: &[(usize, u32)], isa: &str, map: MapKind) -> Machine {
    let (m, res) = try_map(code, init, isa, map);
    assert_eq!(res, Ok(0), "run failed");
    m
}
/// The same, returning the run's outcome instead of requiring a clean exit.
fn try_map(code: &[u8], init: &[(usize, u32)], isa: &str, map: MapKind) -> (Machine, Result<i32, Stop>) {
    let mut mem = Memory::new(map);
    let mut bytes = code.to_vec();
    for w in EXIT { bytes.extend_from_slice(&w.to_le_bytes()); }
    mem.load_bytes(BASE, &bytes, bytes.len() as u32).unwrap();
    let elf = LoadedElf { entry: BASE, functions: vec![], symbols: vec![], exec_lo: BASE, exec_hi: BASE + bytes.len() as u32 };
    let mut m = Machine::new(mem, &elf, Isa::parse(isa, &[]).unwrap(), rvsim::ext::ext_insns(), "t".into());
    for &(r, v) in init { m.x[r] = v; }
    m.max_insns = 10_000;
    let res = m.run(&mut Ideal::default(), &mut NoObserver);
    (m, res)
}
fn words_bytes(words: &[u32]) -> Vec<u8> { words.iter().flat_map(|w| w.to_le_bytes()).collect() }
/// Zicsr: csrrw (f3 1), csrrs (2), csrrc (3), csrrwi (5), csrrsi (6), csrrci (7); `src` is rs1
/// or the 5-bit immediate.
fn csr(f3: u32, rd: u32, src: u32, c: u32) -> u32 { c << 20 | src << 15 | f3 << 12 | rd << 7 | 0x73 }
/// One R-type op: x5 = x6 op x7
fn rop(f7: u32, f3: u32, a: u32, bv: u32) -> u32 {
    run_words(&[op(f7, f3, 5, 6, 7)], &[(6, a), (7, bv)]).x[5]
}
fn iop(f3: u32, a: u32, imm: i32) -> u32 { run_words(&[opi(f3, 5, 6, imm)], &[(6, a)]).x[5] }

const MIN: u32 = 0x8000_0000;
const MAX: u32 = 0x7fff_ffff;
const NEG1: u32 = 0xffff_ffff;

#[test]
fn alu_register() {
    assert_eq!(rop(0, 0, MAX, 1), MIN); // add wraps
    assert_eq!(rop(0x20, 0, 0, 1), NEG1); // sub
    assert_eq!(rop(0, 1, 1, 33), 2); // sll uses rs2[4:0]
    assert_eq!(rop(0, 1, 1, 31), MIN);
    assert_eq!(rop(0, 2, NEG1, 0), 1); // slt signed
    assert_eq!(rop(0, 2, 0, NEG1), 0);
    assert_eq!(rop(0, 3, NEG1, 0), 0); // sltu
    assert_eq!(rop(0, 3, 0, NEG1), 1);
    assert_eq!(rop(0, 4, 0xf0f0_f0f0, 0xff00_ff00), 0x0ff0_0ff0);
    assert_eq!(rop(0, 5, MIN, 31), 1); // srl logical
    assert_eq!(rop(0, 5, MIN, 32), MIN);
    assert_eq!(rop(0x20, 5, MIN, 31), NEG1); // sra arithmetic
    assert_eq!(rop(0x20, 5, 0x4000_0000, 30), 1);
    assert_eq!(rop(0, 6, 0xf0, 0x0f), 0xff);
    assert_eq!(rop(0, 7, 0xf0, 0x3c), 0x30);
}

#[test]
fn alu_immediate() {
    assert_eq!(iop(0, 5, -6), NEG1); // addi negative
    assert_eq!(iop(0, 0, 2047), 2047);
    assert_eq!(iop(0, 0, -2048), (-2048i32) as u32);
    assert_eq!(iop(2, NEG1, 0), 1); // slti
    assert_eq!(iop(3, 5, -1), 1); // sltiu: imm sign-extended then unsigned
    assert_eq!(iop(3, NEG1, -1), 0);
    assert_eq!(iop(4, 0x1234, -1), !0x1234); // xori -1 = not
    assert_eq!(iop(6, 0x1000, 0x0ff), 0x10ff);
    assert_eq!(iop(7, NEG1, 0x7ff), 0x7ff);
    assert_eq!(run_words(&[opi(1, 5, 6, 31)], &[(6, 3)]).x[5], MIN); // slli
    assert_eq!(run_words(&[opi(5, 5, 6, 4)], &[(6, MIN)]).x[5], 0x0800_0000); // srli
    assert_eq!(run_words(&[opi(5, 5, 6, 4 | 0x400)], &[(6, MIN)]).x[5], 0xf800_0000); // srai
}

#[test]
fn upper_and_x0() {
    let m = run_words(&[u(0xfffff, 5, 0x37), u(1, 6, 0x17), opi(0, 0, 0, 5), op(0, 0, 0, 5, 5)], &[]);
    assert_eq!(m.x[5], 0xffff_f000);
    assert_eq!(m.x[6], BASE + 4 + 0x1000); // auipc at BASE+4
    assert_eq!(m.x[0], 0);
}

#[test]
fn multiply() {
    let mul = |f3, a, b| rop(1, f3, a, b);
    assert_eq!(mul(0, NEG1, NEG1), 1);
    assert_eq!(mul(0, 0x10000, 0x10000), 0);
    assert_eq!(mul(1, MIN, MIN), 0x4000_0000); // mulh
    assert_eq!(mul(1, NEG1, NEG1), 0);
    assert_eq!(mul(1, MIN, 1), NEG1);
    assert_eq!(mul(2, NEG1, NEG1), NEG1); // mulhsu: -1 * (2^32-1) >> 32 = -1
    assert_eq!(mul(2, MIN, NEG1), 0x8000_0000);
    assert_eq!(mul(2, 1, NEG1), 0);
    assert_eq!(mul(3, NEG1, NEG1), 0xffff_fffe); // mulhu
}

#[test]
fn divide() {
    let d = |f3, a, b| rop(1, f3, a, b);
    assert_eq!(d(4, 7, 0), NEG1); // div by zero
    assert_eq!(d(5, 7, 0), NEG1); // divu by zero
    assert_eq!(d(6, 7, 0), 7); // rem by zero = dividend
    assert_eq!(d(7, 7, 0), 7);
    assert_eq!(d(4, MIN, NEG1), MIN); // overflow
    assert_eq!(d(6, MIN, NEG1), 0);
    assert_eq!(d(4, (-7i32) as u32, 2), (-3i32) as u32); // rounds toward zero
    assert_eq!(d(6, (-7i32) as u32, 2), NEG1); // remainder has the dividend's sign
    assert_eq!(d(5, NEG1, 2), MAX);
    assert_eq!(d(7, NEG1, 10), 5);
}

#[test]
fn loads_and_stores() {
    // x6 = RAM; store word, then partial stores and sign/zero-extending loads
    let words = [
        s(0, 7, 6, 2),         // sw x7, 0(x6)
        s(4, 7, 6, 0),         // sb x7, 4(x6)
        s(6, 7, 6, 1),         // sh x7, 6(x6)
        i(0, 6, 0, 10, 0x03),  // lb x10, 0(x6)   (0x80)
        i(0, 6, 4, 11, 0x03),  // lbu
        i(2, 6, 1, 12, 0x03),  // lh 2(x6)   (0x8180)
        i(2, 6, 5, 13, 0x03),  // lhu
        i(4, 6, 2, 14, 0x03),  // lw 4(x6)
        i(-4, 15, 2, 16, 0x03), // lw -4(x15): negative offset
    ];
    let m = run_words(&words, &[(6, RAM), (7, 0x8180_8280), (15, RAM + 4)]);
    // (x10/x11 are overwritten by the exit sequence; check the others + memory)
    assert_eq!(m.x[12], 0xffff_8180);
    assert_eq!(m.x[13], 0x8180);
    assert_eq!(m.x[14], 0x8280_0080);
    assert_eq!(m.x[16], 0x8180_8280);
    assert_eq!(m.mem.read::<4>(RAM + 4).unwrap(), 0x8280_0080);
    // sw 0x000000ff; lb 0 -> -1; lbu 0 -> 0xff; lb 3 -> 0
    let m2 = run_words(&[s(0, 7, 6, 2), i(0, 6, 0, 12, 0x03), i(0, 6, 4, 13, 0x03), i(3, 6, 0, 14, 0x03)], &[(6, RAM), (7, 0x0000_00ff)]);
    assert_eq!(m2.x[12], NEG1);
    assert_eq!(m2.x[13], 0xff);
    assert_eq!(m2.x[14], 0);
}

#[test]
fn branches() {
    // each branch skips one `addi x5, x5, 1` when taken; x5 counts not-taken branches
    let cases: [(u32, u32, u32, bool); 12] = [
        (0, 5, 5, true), (0, 5, 6, false), (1, 5, 6, true), (1, 5, 5, false),
        (4, NEG1, 0, true), (4, 0, NEG1, false), (5, 0, NEG1, true), (5, MIN, MAX, false),
        (6, 0, NEG1, true), (6, NEG1, 0, false), (7, NEG1, 0, true), (7, 0, 1, false),
    ];
    for (f3, a, bv, taken) in cases {
        let m = run_words(&[b(8, 7, 6, f3), opi(0, 5, 5, 1)], &[(6, a), (7, bv)]);
        assert_eq!(m.x[5], (!taken) as u32, "branch f3={f3} a={a:#x} b={bv:#x}");
    }
    // backward branch loop: x5 counts down from 3
    let m = run_words(&[opi(0, 5, 5, -1), b(-4, 0, 5, 1)], &[(5, 3)]);
    assert_eq!(m.x[5], 0);
    assert_eq!(m.instret, 6 + 5); // the exit sequence retires 5 (it stops at the ebreak)
}

#[test]
fn jumps() {
    // jal x1, +8 skips one instruction; jalr x7, 1(x6) clears bit 0 of the target
    let m = run_words(&[j(8, 1), opi(0, 5, 0, 1), i(1, 6, 0, 7, 0x67), opi(0, 5, 0, 2), opi(0, 8, 0, 3)], &[(6, BASE + 16)]);
    assert_eq!(m.x[1], BASE + 4);
    assert_eq!(m.x[7], BASE + 12);
    assert_eq!(m.x[5], 0);
    assert_eq!(m.x[8], 3);
    // jalr with rd = rs1: target uses the old value
    let m = run_words(&[i(0, 6, 0, 6, 0x67), opi(0, 5, 0, 1)], &[(6, BASE + 8)]);
    assert_eq!(m.x[6], BASE + 4);
    assert_eq!(m.x[5], 0);
}

#[test]
fn csr_and_counters() {
    let csr = |f3: u32, rd: u32, rs1: u32, c: u32| (c << 20) | rs1 << 15 | f3 << 12 | rd << 7 | 0x73;
    let m = run_words(&[
        csr(1, 5, 6, 0x340),   // csrrw x5, mscratch, x6 -> x5 = 0
        csr(2, 7, 8, 0x340),   // csrrs x7, mscratch, x8 -> x7 = x6
        csr(3, 9, 8, 0x340),   // csrrc x9, mscratch, x8
        csr(2, 12, 0, 0x340),  // csrr x12, mscratch
        csr(5, 13, 0x1f, 0x340), // csrrwi x13, mscratch, 31
        csr(2, 14, 0, 0x340),
        csr(2, 15, 0, 0xc02),  // rdinstret: 7 instructions before it
        csr(2, 16, 0, 0xc00),  // rdcycle (ideal: = instret)
        csr(2, 17, 0, 0xc82),  // rdinstreth
        csr(2, 18, 0, 0xb02),  // minstret
        csr(2, 19, 0, 0x301),  // misa
    ], &[(6, 0x1234_0000), (8, 0x0000_00ff)]);
    assert_eq!(m.x[5], 0);
    assert_eq!(m.x[7], 0x1234_0000);
    assert_eq!(m.x[9], 0x1234_00ff);
    assert_eq!(m.x[12], 0x1234_0000);
    assert_eq!(m.x[13], 0x1234_0000);
    assert_eq!(m.x[14], 31);
    assert_eq!(m.x[15], 6);
    assert_eq!(m.x[16], 7);
    assert_eq!(m.x[17], 0);
    assert_eq!(m.x[18], 9);
    assert_eq!(m.x[19], 1 << 30 | 1 << 8 | 1 << 12 | 1 | 1 << 2);
}

#[test]
fn atomics() {
    let amo = |f5: u32, rd: u32, rs1: u32, rs2: u32| f5 << 27 | rs2 << 20 | rs1 << 15 | 2 << 12 | rd << 7 | 0x2f;
    let m = run_words(&[
        s(0, 7, 6, 2),             // mem = x7 = 5
        amo(0x00, 12, 6, 8),       // amoadd: x12 = 5, mem = 5 + (-3) = 2
        amo(0x10, 13, 6, 8),       // amomin (signed): x13 = 2, mem = -3
        amo(0x18, 14, 6, 7),       // amominu: x14 = -3, mem = 5
        amo(0x02, 15, 6, 0),       // lr.w: x15 = 5
        amo(0x03, 16, 6, 8),       // sc.w succeeds: x16 = 0, mem = -3
        amo(0x03, 17, 6, 7),       // sc.w without reservation fails: x17 = 1
        i(0, 6, 2, 18, 0x03),      // lw x18 = -3
        amo(0x01, 19, 6, 7),       // amoswap: x19 = -3, mem = 5
        i(0, 6, 2, 20, 0x03),
    ], &[(6, RAM + 8), (7, 5), (8, (-3i32) as u32)]);
    assert_eq!((m.x[12], m.x[13], m.x[14], m.x[15], m.x[16], m.x[17]), (5, 2, (-3i32) as u32, 5, 0, 1));
    assert_eq!((m.x[18], m.x[19], m.x[20]), ((-3i32) as u32, (-3i32) as u32, 5));
}

#[test]
fn compressed_program() {
    // c.li x8, -1; c.addi x8, 3; c.slli x8, 4; c.mv x9, x8; c.srai x9, 2; c.lui x12, 0x1f;
    // c.sub x9, x8; c.j +4 (skips c.li x13, 1); c.nop
    let mut code = vec![];
    for h in [0x547du16, 0x040d, 0x0412, 0x84a2, 0x8489, 0x667d, 0x8c81, 0xa011, 0x4685, 0x0001] { code.extend_from_slice(&h.to_le_bytes()); }
    let m = run_bytes(&code, &[], "rv32imac");
    assert_eq!(m.x[8], 0x20);
    assert_eq!(m.x[12], 0x1_f000);
    assert_eq!(m.x[9], (0x20u32 >> 2).wrapping_sub(0x20));
    assert_eq!(m.x[13], 0);
}

/// Every compressed instruction decodes exactly like its base expansion (checked against
/// the cross assembler: `c.x` and its expansion are assembled side by side).
#[test]
fn compressed_matches_expansion() {
    let pairs = [
        ("c.addi4spn s0, sp, 1020", "addi s0, sp, 1020"), ("c.lw a5, 124(a0)", "lw a5, 124(a0)"),
        ("c.sw a5, 64(s1)", "sw a5, 64(s1)"), ("c.nop", "addi zero, zero, 0"), ("c.addi a0, -32", "addi a0, a0, -32"),
        ("c.jal .+2046", "jal ra, .+2046"), ("c.li t0, 31", "addi t0, zero, 31"),
        ("c.addi16sp sp, -512", "addi sp, sp, -512"), ("c.addi16sp sp, 496", "addi sp, sp, 496"),
        ("c.lui a1, 0xfffe0", "lui a1, 0xfffe0"), ("c.lui a1, 1", "lui a1, 1"),
        ("c.srli a4, 31", "srli a4, a4, 31"), ("c.srai s1, 1", "srai s1, s1, 1"), ("c.andi a2, -1", "andi a2, a2, -1"),
        ("c.sub a0, a1", "sub a0, a0, a1"), ("c.xor s0, a5", "xor s0, s0, a5"), ("c.or a3, a4", "or a3, a3, a4"),
        ("c.and a2, s1", "and a2, a2, s1"), ("c.j .-2048", "jal zero, .-2048"),
        ("c.beqz a0, .-256", "beq a0, zero, .-256"), ("c.bnez s1, .+254", "bne s1, zero, .+254"),
        ("c.slli t6, 17", "slli t6, t6, 17"), ("c.lwsp ra, 252(sp)", "lw ra, 252(sp)"), ("c.jr t0", "jalr zero, 0(t0)"),
        ("c.mv a0, t6", "add a0, zero, t6"), ("c.ebreak", "ebreak"), ("c.jalr a5", "jalr ra, 0(a5)"),
        ("c.add s0, t1", "add s0, s0, t1"), ("c.swsp a0, 188(sp)", "sw a0, 188(sp)"),
    ];
    let dir = common::out_dir();
    let src = dir.join("cpairs.S");
    let mut text = String::from(".option norelax\n");
    for (c, e) in pairs {
        // each pair at the same address modulo the pc-relative offsets: put the expansion
        // right after the compressed one and compare pc-relative targets accordingly
        text.push_str(&format!(".option rvc\n{c}\n.option norvc\n{e}\n"));
    }
    std::fs::write(&src, text).unwrap();
    let obj = dir.join("cpairs.o");
    let bin = dir.join("cpairs.bin");
    let ok = std::process::Command::new(common::CC).args(["-march=rv32imac", "-mabi=ilp32", "-c", "-o"]).arg(&obj).arg(&src).status()
        .expect("the RISC-V cross toolchain is required").success();
    assert!(ok);
    assert!(std::process::Command::new("riscv64-unknown-elf-objcopy").args(["-O", "binary", "-j", ".text"]).arg(&obj).arg(&bin).status().unwrap().success());
    let data = std::fs::read(&bin).unwrap();
    let mut off = 0usize;
    for (c, e) in pairs {
        let h = u16::from_le_bytes([data[off], data[off + 1]]) as u32;
        assert_ne!(h & 3, 3, "{c} was not compressed");
        let w = u32::from_le_bytes(data[off + 2..off + 6].try_into().unwrap());
        let mut dc = decode_c16(h).unwrap_or_else(|| panic!("{c} ({h:#06x}) did not decode"));
        let de = decode_any(w, &[]).unwrap_or_else(|| panic!("{e} did not decode"));
        // pc-relative operands are written relative to each instruction's own address
        dc.len = 4;

        assert_eq!(dc, de, "{c} vs {e}");
        off += 6;
    }
    // reserved encodings are illegal
    for h in [0x0000u32, 0x6101 & !0x107c /* c.addi16sp 0 */, 0x4002 /* c.lwsp x0 */, 0x8002 /* c.jr x0 */, 0x9c21 /* subw (RV64) */, 0x2000 /* c.fld */] {
        assert!(decode_c16(h).is_none(), "{h:#06x} should be illegal");
    }
}

#[test]
fn self_modifying_code_is_re_decoded() {
    // flat map (writable flash): the first instruction overwrites the third, which has
    // already been decoded into the cache, then a loop runs the new one twice
    let new = opi(0, 5, 5, 42); // addi x5, x5, 42
    let words = [s(8, 7, 6, 2), opi(0, 0, 0, 0), opi(0, 5, 5, 1)];
    let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let m = run_map(&code, &[(6, BASE), (7, new)], "rv32imac", MapKind::Flat);
    assert_eq!(m.x[5], 42);
    assert_eq!(m.mem.read::<4>(BASE + 8).unwrap(), new);
}

/// csrrsi / csrrci / csrrwi on mscratch: the 5-bit immediate is zero-extended (never
/// sign-extended), set/clear touch only its bits, and rd gets the old value. With a zero
/// immediate csrrsi/csrrci do not write (Zicsr), so they may read a read-only CSR; with a
/// non-zero immediate that is an illegal instruction.
#[test]
fn csr_immediate_forms() {
    let m = run_words(&[
        csr(1, 0, 6, 0x340),     // csrw mscratch, x6 (0xffff0000)
        csr(7, 12, 0x1f, 0x340), // csrrci x12, mscratch, 31 -> x12 = 0xffff0000, nothing to clear
        csr(6, 13, 0x15, 0x340), // csrrsi x13, mscratch, 0x15 -> x13 = 0xffff0000, mscratch = 0xffff0015
        csr(7, 14, 0x05, 0x340), // csrrci x14, mscratch, 5 -> x14 = 0xffff0015, mscratch = 0xffff0010
        csr(5, 15, 0x10, 0x340), // csrrwi x15, mscratch, 16 -> x15 = 0xffff0010, mscratch = 0x10 (not 0xfffffff0)
        csr(6, 16, 0, 0x340),    // csrrsi x16, mscratch, 0: read only -> 0x10
        csr(6, 17, 0, 0xf14),    // csrrsi x17, mhartid, 0: no write, legal on a read-only CSR -> 0
        csr(7, 18, 0, 0xc00),    // csrrci x18, cycle, 0: ideal core, the 8th instruction reads cycle 7
        csr(7, 0, 0x1f, 0x340),  // csrrci x0, mscratch, 31: the write still happens -> mscratch = 0
        csr(2, 19, 0, 0x340),    // csrr x19, mscratch -> 0
        csr(6, 20, 0x1f, 0x340), // csrrsi x20, mscratch, 31 -> x20 = 0, mscratch = 0x1f
        csr(2, 21, 0, 0x340),    // csrr x21, mscratch -> 0x1f
    ], &[(6, 0xffff_0000), (17, 0xdead), (18, 0xdead)]);
    assert_eq!((m.x[12], m.x[13], m.x[14], m.x[15], m.x[16]), (0xffff_0000, 0xffff_0000, 0xffff_0015, 0xffff_0010, 0x10));
    assert_eq!((m.x[17], m.x[18], m.x[19], m.x[20], m.x[21]), (0, 7, 0, 0, 0x1f));
    // a non-zero immediate writes: illegal on a read-only CSR (no handler: the run stops)
    for (w, what) in [(csr(6, 12, 1, 0xf14), "csrrsi mhartid, 1"), (csr(7, 12, 1, 0xc00), "csrrci cycle, 1"),
                      (csr(5, 12, 0, 0xc02), "csrrwi instret, 0")] {
        let (m, res) = try_map(&words_bytes(&[w]), &[], "rv32imac", MapKind::E31);
        let e = res.expect_err(what);
        assert!(matches!(e, Stop::Trap { exception: Exception::Csr { fault: CsrFault::ReadOnly, .. }, .. }), "{what}: {e:?}");
        assert_eq!(m.instret, 0, "{what}: the trapping instruction does not retire");
    }
}

/// fence (any pred/succ, fence.tso) and fence.i are no-ops that retire; their reserved
/// rd/rs1/imm fields are ignored (base ISA: "implementations shall ignore these fields").
#[test]
fn fence_and_fence_i() {
    let words = [
        0x0ff0_000f,                              // fence iorw, iorw
        0x8330_000f,                              // fence.tso
        0x0ff0_000f | 12 << 7 | 5 << 15,          // fence with rd = x12, rs1 = x5 (reserved fields)
        0x0000_100f,                              // fence.i
        0x0000_100f | 13 << 7 | 5 << 15 | 0x123 << 20, // fence.i with rd, rs1 and imm set (reserved)
        opi(0, 14, 0, 5),                         // addi x14, x0, 5
    ];
    let m = run_words(&words, &[(5, RAM), (12, 0x1111), (13, 0x2222)]);
    assert_eq!((m.x[5], m.x[12], m.x[13], m.x[14]), (RAM, 0x1111, 0x2222, 5));
    assert_eq!(m.instret, 6 + 5); // + the exit sequence up to its ebreak
    // the use fence.i exists for: a store rewrites an instruction, fence.i, then it runs
    // (flat map: writable flash). x5 counts: the new instruction adds 42, the old one 1.
    let new = opi(0, 5, 5, 42);
    let code = words_bytes(&[s(12, 7, 6, 2), 0x0000_100f, opi(0, 0, 0, 0), opi(0, 5, 5, 1)]);
    let m = run_map(&code, &[(6, BASE), (7, new)], "rv32imac", MapKind::Flat);
    assert_eq!(m.x[5], 42);
    // a byte store into the first halfword of the code re-decodes it (cargo-mutants survivor:
    // the first slot was left stale when the store's first and last slot were the same).
    // The loop runs twice; its sb sets the low byte of 'addi x5, x5, 1' to 0x13: 'addi x4, x5, 1'
    let code = words_bytes(&[opi(0, 5, 5, 1), s(0, 7, 6, 0), opi(0, 8, 8, 1), b(-12, 9, 8, 4)]);
    let m = run_map(&code, &[(6, BASE), (7, 0x13), (9, 2)], "rv32imac", MapKind::Flat);
    assert_eq!((m.x[5], m.x[4]), (1, 2));
}

/// The 64-bit counters through their 32-bit halves (privileged spec: mcycle/minstret and
/// mcycleh/minstreth are writable; cycle/time/instret and their h forms read them).
/// Ideal core: one instruction per cycle, instruction k issues at cycle k.
/// - mcycle counts on from a written value: read j cycles after the writing instruction's
///   issue it gives value + j (rvsim's model, documented in src/csr.rs); time = cycle.
/// - minstret: "a value written to instret by one instruction will be the value read by the
///   following instruction" (the write replaces the increment; unprivileged spec, Zicsr).
/// The high half is written first, then the low half just below 2^32, so the carry into the
/// high half shows up a few instructions later.
#[test]
fn counter_high_halves_and_carry() {
    let m = run_words(&[
        csr(1, 0, 6, 0xb80),  // 0: csrw mcycleh, x6 (3)
        csr(1, 0, 7, 0xb00),  // 1: csrw mcycle, x7 (0xfffffffd): cycle = 3:0xfffffffd at 1
        csr(2, 12, 0, 0xc00), // 2: rdcycle   -> 0xfffffffe
        csr(2, 13, 0, 0xc80), // 3: rdcycleh  -> 3 (cycle = 3:0xffffffff)
        csr(2, 14, 0, 0xc81), // 4: rdtimeh   -> 4 (cycle = 4:00000000: the carry)
        csr(2, 15, 0, 0xc01), // 5: rdtime    -> 1
        csr(2, 16, 0, 0xb80), // 6: csrr mcycleh -> 4
        csr(2, 17, 0, 0xb00), // 7: csrr mcycle  -> 3
        csr(1, 0, 8, 0xb82),  // 8: csrw minstreth, x8 (7)
        csr(1, 0, 9, 0xb02),  // 9: csrw minstret, x9 (0xfffffffe): the next instruction reads it
        csr(2, 18, 0, 0xc02), // 10: rdinstret  -> 0xfffffffe
        csr(2, 19, 0, 0xc82), // 11: rdinstreth -> 7 (instret = 7:0xffffffff)
        csr(2, 20, 0, 0xc82), // 12: rdinstreth -> 8 (instret = 8:00000000: the carry)
        csr(2, 21, 0, 0xc02), // 13: rdinstret  -> 1
        csr(2, 22, 0, 0xb82), // 14: csrr minstreth -> 8
        csr(2, 23, 0, 0xb02), // 15: csrr minstret  -> 3
        csr(2, 24, 0, 0xc80), // 16: rdcycleh -> 4 (cycle 4:0000000c)
        csr(2, 25, 0, 0xc00), // 17: rdcycle  -> 0xd
    ], &[(6, 3), (7, 0xffff_fffd), (8, 7), (9, 0xffff_fffe)]);
    assert_eq!((m.x[12], m.x[13], m.x[14], m.x[15], m.x[16], m.x[17]), (0xffff_fffe, 3, 4, 1, 4, 3));
    assert_eq!((m.x[18], m.x[19], m.x[20], m.x[21], m.x[22], m.x[23]), (0xffff_fffe, 7, 8, 1, 8, 3));
    assert_eq!((m.x[24], m.x[25]), (4, 0xd));
    // writing a high half keeps the low half counting: mcycleh = 0xffffffff at cycle 1, the
    // low half (1 at cycle 1) reads 3 at cycle 3; the 64-bit value then wraps to 0 when the
    // low half does (not tested: 2^32 cycles)
    let m = run_words(&[opi(0, 0, 0, 0), csr(1, 0, 6, 0xb80), opi(0, 0, 0, 0), csr(2, 12, 0, 0xc00), csr(2, 13, 0, 0xc80)],
                      &[(6, 0xffff_ffff)]);
    assert_eq!((m.x[12], m.x[13]), (3, 0xffff_ffff));
}

/// Every load and store width at every byte offset of a DTIM word, compressed forms included:
/// an aligned access executes; a misaligned one (lh/lhu/sh at odd addresses, lw/sw/c.lw/c.sw/
/// c.lwsp/c.swsp at any address not a multiple of 4) stops with rvsim's message without a
/// handler, and with one takes load (4) / store (6) address misaligned with mtval = the address,
/// mepc = the instruction, nothing written (register or memory) — on both engines.
#[test]
fn misaligned_loads_and_stores_trap() {
    const C_LW: u32 = 0x4000;         // c.lw rd', 0(rs1') with rs1' = x8 (s0), rd' = x13 (a3)
    const C_SW: u32 = 0xc000;         // c.sw rs2', 0(rs1')
    const C_LWSP: u32 = 0x4002;       // c.lwsp rd, 0(sp)
    const C_SWSP: u32 = 0xc002;       // c.swsp rs2, 0(sp)
    // (name, size, store, instruction bytes, base register)
    let mut cases: Vec<(&str, u32, bool, Vec<u8>, usize)> = Vec::new();
    for (n, f3, size) in [("lb", 0, 1), ("lh", 1, 2), ("lw", 2, 4), ("lbu", 4, 1), ("lhu", 5, 2)] {
        cases.push((n, size, false, i(0, 8, f3, 13, 0x03).to_le_bytes().to_vec(), 8));
    }
    for (n, f3, size) in [("sb", 0, 1), ("sh", 1, 2), ("sw", 2, 4)] {
        cases.push((n, size, true, s(0, 13, 8, f3).to_le_bytes().to_vec(), 8));
    }
    // c.lw a3, 0(s0): funct3 010, rs1' = s0 (0), rd' = a3 (5)
    cases.push(("c.lw", 4, false, ((C_LW | 0 << 7 | 5 << 2) as u16).to_le_bytes().to_vec(), 8));
    cases.push(("c.sw", 4, true, ((C_SW | 0 << 7 | 5 << 2) as u16).to_le_bytes().to_vec(), 8));
    cases.push(("c.lwsp", 4, false, ((C_LWSP | 13 << 7) as u16).to_le_bytes().to_vec(), 2));
    cases.push(("c.swsp", 4, true, ((C_SWSP | 13 << 2) as u16).to_le_bytes().to_vec(), 2));
    for (name, size, store, insn, base) in cases {
        for off in 0..4u32 {
            let addr = RAM + 0x100 + off;
            let misaligned = addr % size != 0;
            let mut code = insn.clone();
            if code.len() == 2 { code.extend_from_slice(&[0x01, 0x00]); } // c.nop keeps the exit 4-aligned
            for blocks in [false, true] {
                let what = format!("{name} at 0x{addr:08x} ({})", if blocks { "blocks" } else { "--no-blocks" });
                // no handler: the run stops with the trap (Stop::Trap)
                let (m, res) = try_run(&code, base, addr, blocks, None);
                if misaligned {
                    let mnemonic = name.trim_start_matches("c.").trim_end_matches("sp"); // disassembled expanded
                    let want = Exception::Mem(MemError::Misaligned { addr, size, store });
                    assert!(matches!(&res, Err(Stop::Trap { pc: BASE, exception, insn })
                                     if *exception == want && insn.starts_with(&format!("{mnemonic} "))), "{what}: {res:?}, want {want:?}");
                    assert_eq!(m.x[13], 0x1357_9bdf, "{what}: rd written");
                } else {
                    assert_eq!(res, Ok(0), "{what}");
                }
                // a handler at the exit sequence: the trap is delivered, the program exits 0
                let handler = BASE + code.len() as u32;
                let (m, res) = try_run(&code, base, addr, blocks, Some(handler));
                assert_eq!(res, Ok(0), "{what} with a handler");
                let csr = |c| m.csr.read(c, 0, 0).unwrap();
                if misaligned {
                    assert_eq!((csr(0x342), csr(0x343), csr(0x341)), (if store { 6 } else { 4 }, addr, BASE), "{what}: mcause, mtval, mepc");
                    assert_eq!(m.traps_taken, 1, "{what}");
                } else {
                    assert_eq!((csr(0x342), m.traps_taken), (0, 0), "{what}: trapped though aligned");
                }
                let word = m.mem.read::<4>(RAM + 0x100).unwrap();
                let stored = store && !misaligned;
                assert_eq!(word != 0xa5a5_a5a5, stored, "{what}: memory {word:#x}");
                let loaded = !store && !misaligned;
                assert_eq!(m.x[13] != 0x1357_9bdf, loaded, "{what}: rd {:#x}", m.x[13]);
            }
        }
    }
}

/// One access with its base register at `addr`, rd/rs2 = a3 = 0x13579bdf, the DTIM word at
/// RAM + 0x100 = 0xa5a5a5a5, and mtvec = `handler` if given.
fn try_run(code: &[u8], base: usize, addr: u32, blocks: bool, handler: Option<u32>) -> (Machine, Result<i32, Stop>) {
    let mut mem = Memory::new(MapKind::E31);
    let mut bytes = code.to_vec();
    for w in EXIT { bytes.extend_from_slice(&w.to_le_bytes()); }
    mem.load_bytes(BASE, &bytes, bytes.len() as u32).unwrap();
    mem.load_bytes(RAM + 0x100, &[0xa5; 8], 8).unwrap();
    let elf = LoadedElf { entry: BASE, functions: vec![], symbols: vec![], exec_lo: BASE, exec_hi: BASE + bytes.len() as u32 };
    let mut m = Machine::new(mem, &elf, Isa::parse("rv32imac", &[]).unwrap(), rvsim::ext::ext_insns(), "t".into());
    m.x[base] = addr;
    m.x[13] = 0x1357_9bdf;
    m.use_blocks = blocks;
    if let Some(h) = handler { m.csr.write(0x305, h, 0, 0).unwrap(); }
    m.max_insns = 100;
    let res = m.run(&mut Ideal::default(), &mut NoObserver);
    (m, res)
}
