//! What each instruction computes, written once. The per-instruction loop (exec.rs) and the
//! block engine (exec/blocks.rs) both call these helpers, so the two engines cannot disagree
//! on an instruction; each helper matches its group of ops (decode.rs `Kind`) exhaustively.
//! Pure functions of the operands here; what touches the machine (memory with its observer
//! and the decode cache, CSRs, traps) is in exec.rs, also shared by both engines.

use crate::decode::{AluOp, AmoOp, BranchOp, CsrOp, Ctrl, Decoded, DivOp, ExtOp, JumpOp, LoadOp, MulOp, StoreOp};
use crate::mem::{MemError, Memory};

/// Integer computation: `a` = x[rs1], `b` = x[rs2], `imm` the immediate, `pc` the
/// instruction's address (auipc).
#[inline(always)]
pub fn alu(op: AluOp, pc: u32, a: u32, b: u32, imm: i32) -> u32 {
    match op {
        AluOp::Lui => imm as u32,
        AluOp::Auipc => pc.wrapping_add(imm as u32),
        AluOp::Addi => a.wrapping_add(imm as u32),
        AluOp::Slti => ((a as i32) < imm) as u32,
        AluOp::Sltiu => (a < imm as u32) as u32,
        AluOp::Xori => a ^ imm as u32,
        AluOp::Ori => a | imm as u32,
        AluOp::Andi => a & imm as u32,
        AluOp::Slli => a << (imm & 31),
        AluOp::Srli => a >> (imm & 31),
        AluOp::Srai => ((a as i32) >> (imm & 31)) as u32,
        AluOp::Add => a.wrapping_add(b),
        AluOp::Sub => a.wrapping_sub(b),
        AluOp::Sll => a << (b & 31),
        AluOp::Slt => ((a as i32) < (b as i32)) as u32,
        AluOp::Sltu => (a < b) as u32,
        AluOp::Xor => a ^ b,
        AluOp::Srl => a >> (b & 31),
        AluOp::Sra => ((a as i32) >> (b & 31)) as u32,
        AluOp::Or => a | b,
        AluOp::And => a & b,
    }
}

#[inline(always)]
pub fn mul(op: MulOp, a: u32, b: u32) -> u32 {
    match op {
        MulOp::Mul => a.wrapping_mul(b),
        MulOp::Mulh => ((a as i32 as i64 * b as i32 as i64) >> 32) as u32,
        MulOp::Mulhsu => ((a as i32 as i64 * b as u64 as i64) >> 32) as u32,
        MulOp::Mulhu => ((a as u64 * b as u64) >> 32) as u32,
    }
}

/// Division by zero and the signed overflow as the M extension defines them (no trap).
#[inline(always)]
pub fn div(op: DivOp, a: u32, b: u32) -> u32 {
    match op {
        DivOp::Div => if b == 0 { u32::MAX } else { (a as i32).wrapping_div(b as i32) as u32 },
        DivOp::Divu => if b == 0 { u32::MAX } else { a / b },
        DivOp::Rem => if b == 0 { a } else { (a as i32).wrapping_rem(b as i32) as u32 },
        DivOp::Remu => if b == 0 { a } else { a % b },
    }
}

impl DivOp {
    /// Signed ops divide the magnitudes (for the operand-dependent latency).
    pub const fn signed(self) -> bool { matches!(self, DivOp::Div | DivOp::Rem) }
}

/// Whether a conditional branch is taken.
#[inline(always)]
pub fn taken(op: BranchOp, a: u32, b: u32) -> bool {
    match op {
        BranchOp::Beq => a == b,
        BranchOp::Bne => a != b,
        BranchOp::Blt => (a as i32) < (b as i32),
        BranchOp::Bge => (a as i32) >= (b as i32),
        BranchOp::Bltu => a < b,
        BranchOp::Bgeu => a >= b,
    }
}

/// Target of a jump (jalr clears bit 0).
#[inline(always)]
pub fn jump_target(op: JumpOp, pc: u32, a: u32, imm: i32) -> u32 {
    match op {
        JumpOp::Jal => pc.wrapping_add(imm as u32),
        JumpOp::Jalr => a.wrapping_add(imm as u32) & !1,
    }
}

/// Where a branch or jump at `pc` goes: (taken, next pc); `len` its length.
#[inline(always)]
pub fn control_target(c: Ctrl, pc: u32, len: u8, a: u32, b: u32, imm: i32) -> (bool, u32) {
    match c {
        Ctrl::Branch(op) => {
            let t = taken(op, a, b);
            (t, if t { pc.wrapping_add(imm as u32) } else { pc.wrapping_add(len as u32) })
        }
        Ctrl::Jump(op) => (true, jump_target(op, pc, a, imm)),
    }
}

/// A jump that links through ra or t0 (a call, for the return-address stack and the
/// per-function call counts).
#[inline(always)]
pub fn is_link(r: u8) -> bool { r == 1 || r == 5 }

/// A load: the bytes at `addr`, sign- or zero-extended.
#[inline(always)]
pub fn load(mem: &Memory, op: LoadOp, addr: u32) -> Result<u32, MemError> {
    let raw = match op.size() { 1 => mem.read::<1>(addr)?, 2 => mem.read::<2>(addr)?, _ => mem.read::<4>(addr)? };
    Ok(extend(op, raw))
}

/// `load` where memory answers without a call (`Memory::read_fast`), else None.
#[inline(always)]
pub fn load_fast(mem: &Memory, op: LoadOp, addr: u32) -> Option<u32> {
    let raw = match op.size() { 1 => mem.read_fast::<1>(addr)?, 2 => mem.read_fast::<2>(addr)?, _ => mem.read_fast::<4>(addr)? };
    Some(extend(op, raw))
}

/// The result of load `op` from its bytes `raw` (zero-extended): lb and lh sign-extend.
#[inline(always)]
fn extend(op: LoadOp, raw: u32) -> u32 {
    match op {
        LoadOp::Lb => raw as u8 as i8 as i32 as u32,
        LoadOp::Lh => raw as u16 as i16 as i32 as u32,
        LoadOp::Lw | LoadOp::Lbu | LoadOp::Lhu => raw,
    }
}

/// `store` where memory takes it without a call (`Memory::write_fast`): false, and nothing
/// stored, otherwise.
#[inline(always)]
pub fn store_fast(mem: &mut Memory, op: StoreOp, addr: u32, v: u32) -> bool {
    match op {
        StoreOp::Sb => mem.write_fast::<1>(addr, v),
        StoreOp::Sh => mem.write_fast::<2>(addr, v),
        StoreOp::Sw => mem.write_fast::<4>(addr, v),
    }
}

/// A store of the low bytes of `v` at `addr`.
#[inline(always)]
pub fn store(mem: &mut Memory, op: StoreOp, addr: u32, v: u32) -> Result<(), MemError> {
    match op {
        StoreOp::Sb => mem.write::<1>(addr, v),
        StoreOp::Sh => mem.write::<2>(addr, v),
        StoreOp::Sw => mem.write::<4>(addr, v),
    }
}

/// The value an AMO writes back, from the old memory word and x[rs2].
pub fn amo(op: AmoOp, old: u32, b: u32) -> u32 {
    match op {
        AmoOp::AmoswapW => b,
        AmoOp::AmoaddW => old.wrapping_add(b),
        AmoOp::AmoxorW => old ^ b,
        AmoOp::AmoandW => old & b,
        AmoOp::AmoorW => old | b,
        AmoOp::AmominW => (old as i32).min(b as i32) as u32,
        AmoOp::AmomaxW => (old as i32).max(b as i32) as u32,
        AmoOp::AmominuW => old.min(b),
        AmoOp::AmomaxuW => old.max(b),
    }
}

/// A CSR instruction's access (Zicsr): the source operand (x[rs1] or the zimm field), whether
/// it reads the CSR (csrrw/csrrwi with rd = x0 do not) and whether it writes it
/// (csrrs/csrrc with rs1 = x0 or zimm = 0 do not), and the new value from the old one.
pub struct CsrAccess { pub csr: u32, pub src: u32, pub reads: bool, pub writes: bool }

pub fn csr_access(op: CsrOp, d: &Decoded, a: u32) -> CsrAccess {
    let zimm = ((d.imm >> 16) & 31) as u32;
    let src = if op.immediate() { zimm } else { a };
    let (reads, writes) = match op {
        CsrOp::Csrrw | CsrOp::Csrrwi => (d.rd != 0, true),
        CsrOp::Csrrs | CsrOp::Csrrc => (true, d.rs1 != 0),
        CsrOp::Csrrsi | CsrOp::Csrrci => (true, zimm != 0),
    };
    CsrAccess { csr: (d.imm & 0xfff) as u32, src, reads, writes }
}

pub fn csr_new(op: CsrOp, old: u32, src: u32) -> u32 {
    match op {
        CsrOp::Csrrw | CsrOp::Csrrwi => src,
        CsrOp::Csrrs | CsrOp::Csrrsi => old | src,
        CsrOp::Csrrc | CsrOp::Csrrci => old & !src,
    }
}

/// The operands an extension row's `exec(state, a, b, c)` receives (docs/interfaces.md §2),
/// from the decoded fields (`decode::ext_decoded` put each form's operands there) and a
/// register reader: the executor and `ExtInsn::operands` both take them from here.
#[inline(always)]
pub fn ext_operands(d: &Decoded, op: ExtOp, x: impl Fn(usize) -> u32) -> (u32, u32, u32) {
    match op {
        ExtOp::ExtR => (x(d.rs1_i()), x(d.rs2_i()), x(d.rs3_i())),
        ExtOp::ExtI => (x(d.rs1_i()), d.imm as u32, x(d.rs3_i())),
        ExtOp::ExtBs => (x(d.rs1_i()), x(d.rs2_i()), d.imm as u32),
    }
}
