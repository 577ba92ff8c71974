//! Disassembler for decoded instructions (base ISA in objdump-like syntax; extension
//! instructions as their table name with register operands).

use crate::decode::{decode_any, AluOp, Decoded, JumpOp, Kind, LrscOp, SysOp, OP_NAMES};
use crate::ext::{ExtForm, ExtInsn};

pub const ABI: [&str; 32] = [
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7",
    "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
];

pub fn csr_name(n: u32) -> String {
    match n {
        0xc00 => "cycle".into(), 0xc01 => "time".into(), 0xc02 => "instret".into(),
        0xc80 => "cycleh".into(), 0xc81 => "timeh".into(), 0xc82 => "instreth".into(),
        0xb00 => "mcycle".into(), 0xb02 => "minstret".into(), 0xb80 => "mcycleh".into(), 0xb82 => "minstreth".into(),
        0x300 => "mstatus".into(), 0x301 => "misa".into(), 0x304 => "mie".into(), 0x305 => "mtvec".into(),
        0x340 => "mscratch".into(), 0x341 => "mepc".into(), 0x342 => "mcause".into(), 0x343 => "mtval".into(),
        0x344 => "mip".into(), 0xf11 => "mvendorid".into(), 0xf12 => "marchid".into(), 0xf13 => "mimpid".into(),
        0xf14 => "mhartid".into(), 0xf15 => "mconfigptr".into(), 0x310 => "mstatush".into(), 0x320 => "mcountinhibit".into(),
        n => format!("0x{n:03x}"),
    }
}

/// Mnemonic for a statistics id.
pub fn mnem_name(id: u16, table: &[ExtInsn]) -> &str {
    let i = id as usize;
    if i < OP_NAMES.len() { OP_NAMES[i] } else { table.get(i - OP_NAMES.len()).map(|e| e.name).unwrap_or("?") }
}

pub fn disasm(d: &Decoded, pc: u32, table: &[ExtInsn]) -> String {
    let r = |i: u8| ABI[i as usize];
    let n = OP_NAMES[d.op as usize];
    let target = |off: i32| pc.wrapping_add(off as u32);
    let rrr = || format!("{n} {},{},{}", r(d.rd), r(d.rs1), r(d.rs2));
    match d.op.kind() {
        Kind::Alu(AluOp::Lui | AluOp::Auipc) => format!("{n} {},0x{:x}", r(d.rd), (d.imm as u32) >> 12),
        Kind::Alu(AluOp::Addi | AluOp::Slti | AluOp::Sltiu | AluOp::Xori | AluOp::Ori | AluOp::Andi | AluOp::Slli | AluOp::Srli | AluOp::Srai) => {
            format!("{n} {},{},{}", r(d.rd), r(d.rs1), d.imm)
        }
        Kind::Alu(AluOp::Add | AluOp::Sub | AluOp::Sll | AluOp::Slt | AluOp::Sltu | AluOp::Xor | AluOp::Srl | AluOp::Sra | AluOp::Or | AluOp::And)
        | Kind::Mul(_) | Kind::Div(_) => rrr(),
        Kind::Jump(JumpOp::Jal) => format!("{n} {},0x{:x}", r(d.rd), target(d.imm)),
        Kind::Jump(JumpOp::Jalr) => format!("{n} {},{}({})", r(d.rd), d.imm, r(d.rs1)),
        Kind::Branch(_) => format!("{n} {},{},0x{:x}", r(d.rs1), r(d.rs2), target(d.imm)),
        Kind::Load(_) => format!("{n} {},{}({})", r(d.rd), d.imm, r(d.rs1)),
        Kind::Store(_) => format!("{n} {},{}({})", r(d.rs2), d.imm, r(d.rs1)),
        Kind::System(SysOp::Fence | SysOp::FenceI | SysOp::Ecall | SysOp::Ebreak | SysOp::Mret | SysOp::Wfi) => n.to_string(),
        Kind::System(SysOp::Trap) => "<illegal>".into(),
        Kind::Csr(op) if op.immediate() => format!("{n} {},{},{}", r(d.rd), csr_name((d.imm & 0xfff) as u32), (d.imm >> 16) & 31),
        Kind::Csr(_) => format!("{n} {},{},{}", r(d.rd), csr_name((d.imm & 0xfff) as u32), r(d.rs1)),
        Kind::Lrsc(LrscOp::LrW) => format!("{n} {},({})", r(d.rd), r(d.rs1)),
        Kind::Lrsc(LrscOp::ScW) | Kind::Amo(_) => format!("{n} {},{},({})", r(d.rd), r(d.rs2), r(d.rs1)),
        Kind::Ext(_) => {
            let e = &table[d.ext as usize];
            match e.form {
                ExtForm::R | ExtForm::RdAcc => format!("{} {},{},{}", e.name, r(d.rd), r(d.rs1), r(d.rs2)),
                ExtForm::Unary => format!("{} {},{}", e.name, r(d.rd), r(d.rs1)),
                // only the immediate bits the encoding leaves free (e.g. the shamt of rori)
                ExtForm::Imm | ExtForm::RdAccImm => format!("{} {},{},{}", e.name, r(d.rd), r(d.rs1), (d.imm as u32) & !(e.mask >> 20) & 0xfff),
                ExtForm::Bs => format!("{} {},{},{},{}", e.name, r(d.rd), r(d.rs1), r(d.rs2), d.imm),
                ExtForm::R4 => format!("{} {},{},{},{}", e.name, r(d.rd), r(d.rs1), r(d.rs2), r(d.rs3)),
            }
        }
    }
}

/// Disassemble a raw word (ISA-independent).
pub fn disasm_word(w: u32, pc: u32, table: &[ExtInsn]) -> String {
    match decode_any(w, table) {
        Some(d) => disasm(&d, pc, table),
        None => if w & 3 != 3 { format!(".2byte 0x{:04x}", w & 0xffff) } else { format!(".4byte 0x{w:08x}") },
    }
}
