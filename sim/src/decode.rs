//! Instruction decoding: one 16/32-bit word -> a compact `Decoded` record, done once per
//! instruction word (the executor caches decoded records per halfword address).
//!
//! Unused source-register fields are set to 0 (x0 is always ready), so a timing model can
//! read `rs1`, `rs2`, `rs3` uniformly; instructions that write no register have `rd = 0`.

use crate::ext::{ExtForm, ExtInsn};
use crate::isa::Isa;

macro_rules! ops {
    ($($(#[$m:meta])* $name:ident = $mn:literal),* $(,)?) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u8)]
        pub enum Op { $($(#[$m])* $name),* }
        /// Mnemonic of each base op, indexed by `Op as usize`.
        pub const OP_NAMES: &[&str] = &[$($mn),*];
    };
}

ops! {
    Lui = "lui", Auipc = "auipc", Jal = "jal", Jalr = "jalr",
    Beq = "beq", Bne = "bne", Blt = "blt", Bge = "bge", Bltu = "bltu", Bgeu = "bgeu",
    Lb = "lb", Lh = "lh", Lw = "lw", Lbu = "lbu", Lhu = "lhu",
    Sb = "sb", Sh = "sh", Sw = "sw",
    Addi = "addi", Slti = "slti", Sltiu = "sltiu", Xori = "xori", Ori = "ori", Andi = "andi",
    Slli = "slli", Srli = "srli", Srai = "srai",
    Add = "add", Sub = "sub", Sll = "sll", Slt = "slt", Sltu = "sltu", Xor = "xor",
    Srl = "srl", Sra = "sra", Or = "or", And = "and",
    Fence = "fence", FenceI = "fence.i", Ecall = "ecall", Ebreak = "ebreak", Mret = "mret", Wfi = "wfi",
    Csrrw = "csrrw", Csrrs = "csrrs", Csrrc = "csrrc",
    Csrrwi = "csrrwi", Csrrsi = "csrrsi", Csrrci = "csrrci",
    Mul = "mul", Mulh = "mulh", Mulhsu = "mulhsu", Mulhu = "mulhu",
    Div = "div", Divu = "divu", Rem = "rem", Remu = "remu",
    LrW = "lr.w", ScW = "sc.w", AmoswapW = "amoswap.w", AmoaddW = "amoadd.w",
    AmoxorW = "amoxor.w", AmoandW = "amoand.w", AmoorW = "amoor.w", AmominW = "amomin.w",
    AmomaxW = "amomax.w", AmominuW = "amominu.w", AmomaxuW = "amomaxu.w",
    /// extension instruction, operands a=x[rs1], b=x[rs2], c=x[rs3]
    ExtR = "<ext>",
    /// extension instruction, operands a=x[rs1], b=imm, c=x[rs3]
    ExtI = "<ext-imm>",
    /// extension instruction, operands a=x[rs1], b=x[rs2], c=imm
    ExtBs = "<ext-bs>",
    /// not decodable, or outside the configured ISA (re-decoded for the message)
    Trap = "<trap>",
    /// cache slot not decoded yet
    Undecoded = "<undecoded>",
}

pub const N_BASE_OPS: usize = OP_NAMES.len();

/// Timing classes (what a core model needs to know about an instruction).
pub mod cls {
    pub const ALU: u8 = 0;
    pub const LOAD_W: u8 = 1;
    pub const LOAD_BH: u8 = 2;
    pub const CSR: u8 = 3;
    pub const MUL: u8 = 4;
    pub const DIV: u8 = 5;
    pub const EXT: u8 = 6;
    pub const STORE: u8 = 7;
    pub const BRANCH: u8 = 8;
    pub const JUMP: u8 = 9;
    pub const AMO: u8 = 10;
    pub const SYSTEM: u8 = 11;
    pub const N: usize = 12;
}

/// One decoded instruction (16 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decoded {
    pub op: Op,
    pub rd: u8,
    pub rs1: u8,
    pub rs2: u8,
    pub rs3: u8,
    /// instruction length in bytes (2 or 4)
    pub len: u8,
    /// timing class (see `cls`)
    pub cls: u8,
    /// result latency for extension instructions
    pub xlat: u8,
    /// immediate (CSR ops: csr number in bits 0..12, zimm in bits 16..21)
    pub imm: i32,
    /// statistics id: `op` for base ops, N_BASE_OPS + table index for extension ops
    pub mnem: u16,
    /// extension table index (Ext* ops)
    pub ext: u16,
}

impl Decoded {
    // Register indices as array indices: the mask (a no-op, the decoder gives 0..31) lets the
    // compiler drop the bounds checks on the register files in the hot loop.
    #[inline(always)]
    pub fn rd_i(&self) -> usize { (self.rd & 31) as usize }
    #[inline(always)]
    pub fn rs1_i(&self) -> usize { (self.rs1 & 31) as usize }
    #[inline(always)]
    pub fn rs2_i(&self) -> usize { (self.rs2 & 31) as usize }
    #[inline(always)]
    pub fn rs3_i(&self) -> usize { (self.rs3 & 31) as usize }
    pub const UNDECODED: Decoded = Decoded {
        op: Op::Undecoded, rd: 0, rs1: 0, rs2: 0, rs3: 0, len: 2, cls: 0, xlat: 1, imm: 0, mnem: Op::Undecoded as u16, ext: 0,
    };
    fn base(op: Op, rd: u32, rs1: u32, rs2: u32, imm: i32, len: u8) -> Decoded {
        let c = match op {
            Op::Lw => cls::LOAD_W,
            Op::Lb | Op::Lh | Op::Lbu | Op::Lhu => cls::LOAD_BH,
            Op::Sb | Op::Sh | Op::Sw => cls::STORE,
            Op::Beq | Op::Bne | Op::Blt | Op::Bge | Op::Bltu | Op::Bgeu => cls::BRANCH,
            Op::Jal | Op::Jalr => cls::JUMP,
            Op::Csrrw | Op::Csrrs | Op::Csrrc | Op::Csrrwi | Op::Csrrsi | Op::Csrrci => cls::CSR,
            Op::Mul | Op::Mulh | Op::Mulhsu | Op::Mulhu => cls::MUL,
            Op::Div | Op::Divu | Op::Rem | Op::Remu => cls::DIV,
            Op::LrW | Op::ScW | Op::AmoswapW | Op::AmoaddW | Op::AmoxorW | Op::AmoandW
            | Op::AmoorW | Op::AmominW | Op::AmomaxW | Op::AmominuW | Op::AmomaxuW => cls::AMO,
            Op::Fence | Op::FenceI | Op::Ecall | Op::Ebreak | Op::Mret | Op::Wfi | Op::Trap | Op::Undecoded => cls::SYSTEM,
            _ => cls::ALU,
        };
        Decoded { op, rd: rd as u8, rs1: rs1 as u8, rs2: rs2 as u8, rs3: 0, len, cls: c, xlat: 1, imm, mnem: op as u16, ext: 0 }
    }
    pub fn trap(len: u8) -> Decoded {
        Decoded::base(Op::Trap, 0, 0, 0, 0, len)
    }
}

/// Why a word cannot execute under the configured ISA.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// not a valid encoding of anything rvsim knows
    Illegal,
    /// a valid instruction of an extension that is not in the ISA string
    Disallowed { mnemonic: String, ext: String },
}

/// Extension requirement of a base op.
pub fn base_ext(op: Op) -> Option<&'static str> {
    match op {
        Op::Mul | Op::Mulh | Op::Mulhsu | Op::Mulhu | Op::Div | Op::Divu | Op::Rem | Op::Remu => Some("m"),
        Op::LrW | Op::ScW | Op::AmoswapW | Op::AmoaddW | Op::AmoxorW | Op::AmoandW | Op::AmoorW
        | Op::AmominW | Op::AmomaxW | Op::AmominuW | Op::AmomaxuW => Some("a"),
        _ => None,
    }
}

#[inline]
fn bits(w: u32, hi: u32, lo: u32) -> u32 {
    (w >> lo) & ((1u32 << (hi - lo + 1)) - 1)
}
#[inline]
fn sext(v: u32, width: u32) -> i32 {
    ((v << (32 - width)) as i32) >> (32 - width)
}

/// Decode a 32-bit base-ISA word (no ISA check). None if not a base instruction.
pub fn decode_base32(w: u32) -> Option<Decoded> {
    let opc = w & 0x7f;
    let rd = bits(w, 11, 7);
    let rs1 = bits(w, 19, 15);
    let rs2 = bits(w, 24, 20);
    let f3 = bits(w, 14, 12);
    let f7 = bits(w, 31, 25);
    let imm_i = (w as i32) >> 20;
    let imm_s = (((w as i32) >> 25) << 5) | bits(w, 11, 7) as i32;
    let imm_b = sext((bits(w, 31, 31) << 12) | (bits(w, 7, 7) << 11) | (bits(w, 30, 25) << 5) | (bits(w, 11, 8) << 1), 13);
    let imm_u = (w & 0xffff_f000) as i32;
    let imm_j = sext((bits(w, 31, 31) << 20) | (bits(w, 19, 12) << 12) | (bits(w, 20, 20) << 11) | (bits(w, 30, 21) << 1), 21);
    let d = |op, rd, rs1, rs2, imm| Some(Decoded::base(op, rd, rs1, rs2, imm, 4));
    match opc {
        0x37 => d(Op::Lui, rd, 0, 0, imm_u),
        0x17 => d(Op::Auipc, rd, 0, 0, imm_u),
        0x6f => d(Op::Jal, rd, 0, 0, imm_j),
        0x67 if f3 == 0 => d(Op::Jalr, rd, rs1, 0, imm_i),
        0x63 => {
            let op = match f3 { 0 => Op::Beq, 1 => Op::Bne, 4 => Op::Blt, 5 => Op::Bge, 6 => Op::Bltu, 7 => Op::Bgeu, _ => return None };
            d(op, 0, rs1, rs2, imm_b)
        }
        0x03 => {
            let op = match f3 { 0 => Op::Lb, 1 => Op::Lh, 2 => Op::Lw, 4 => Op::Lbu, 5 => Op::Lhu, _ => return None };
            d(op, rd, rs1, 0, imm_i)
        }
        0x23 => {
            let op = match f3 { 0 => Op::Sb, 1 => Op::Sh, 2 => Op::Sw, _ => return None };
            d(op, 0, rs1, rs2, imm_s)
        }
        0x13 => match f3 {
            0 => d(Op::Addi, rd, rs1, 0, imm_i),
            2 => d(Op::Slti, rd, rs1, 0, imm_i),
            3 => d(Op::Sltiu, rd, rs1, 0, imm_i),
            4 => d(Op::Xori, rd, rs1, 0, imm_i),
            6 => d(Op::Ori, rd, rs1, 0, imm_i),
            7 => d(Op::Andi, rd, rs1, 0, imm_i),
            1 if f7 == 0 => d(Op::Slli, rd, rs1, 0, rs2 as i32),
            5 if f7 == 0 => d(Op::Srli, rd, rs1, 0, rs2 as i32),
            5 if f7 == 0x20 => d(Op::Srai, rd, rs1, 0, rs2 as i32),
            _ => None,
        },
        0x33 => {
            let op = match (f7, f3) {
                (0, 0) => Op::Add, (0x20, 0) => Op::Sub, (0, 1) => Op::Sll, (0, 2) => Op::Slt,
                (0, 3) => Op::Sltu, (0, 4) => Op::Xor, (0, 5) => Op::Srl, (0x20, 5) => Op::Sra,
                (0, 6) => Op::Or, (0, 7) => Op::And,
                (1, 0) => Op::Mul, (1, 1) => Op::Mulh, (1, 2) => Op::Mulhsu, (1, 3) => Op::Mulhu,
                (1, 4) => Op::Div, (1, 5) => Op::Divu, (1, 6) => Op::Rem, (1, 7) => Op::Remu,
                _ => return None,
            };
            d(op, rd, rs1, rs2, 0)
        }
        0x0f => match f3 {
            0 => d(Op::Fence, 0, 0, 0, 0),
            1 => d(Op::FenceI, 0, 0, 0, 0),
            _ => None,
        },
        0x73 => {
            let csr = (w >> 20) as i32;
            match f3 {
                0 if w == 0x0000_0073 => d(Op::Ecall, 0, 0, 0, 0),
                0 if w == 0x0010_0073 => d(Op::Ebreak, 0, 0, 0, 0),
                0 if w == 0x3020_0073 => d(Op::Mret, 0, 0, 0, 0),
                0 if w == 0x1050_0073 => d(Op::Wfi, 0, 0, 0, 0),
                1 => d(Op::Csrrw, rd, rs1, 0, csr),
                2 => d(Op::Csrrs, rd, rs1, 0, csr),
                3 => d(Op::Csrrc, rd, rs1, 0, csr),
                5 => d(Op::Csrrwi, rd, 0, 0, csr | ((rs1 as i32) << 16)),
                6 => d(Op::Csrrsi, rd, 0, 0, csr | ((rs1 as i32) << 16)),
                7 => d(Op::Csrrci, rd, 0, 0, csr | ((rs1 as i32) << 16)),
                _ => None,
            }
        }
        0x2f if f3 == 2 => {
            let f5 = bits(w, 31, 27);
            let op = match f5 {
                0x02 if rs2 == 0 => Op::LrW, 0x03 => Op::ScW, 0x01 => Op::AmoswapW, 0x00 => Op::AmoaddW,
                0x04 => Op::AmoxorW, 0x0c => Op::AmoandW, 0x08 => Op::AmoorW, 0x10 => Op::AmominW,
                0x14 => Op::AmomaxW, 0x18 => Op::AmominuW, 0x1c => Op::AmomaxuW,
                _ => return None,
            };
            d(op, rd, rs1, rs2, 0)
        }
        _ => None,
    }
}

/// Expand a 16-bit compressed word into its base equivalent (RV32C without F/D).
pub fn decode_c16(h: u32) -> Option<Decoded> {
    let q = h & 3;
    let f3 = bits(h, 15, 13);
    let rdp = 8 + bits(h, 4, 2);
    let rs1p = 8 + bits(h, 9, 7);
    let rd = bits(h, 11, 7);
    let rs2 = bits(h, 6, 2);
    let d = |op, rd, rs1, rs2, imm| Some(Decoded::base(op, rd, rs1, rs2, imm, 2));
    let ci_imm = sext((bits(h, 12, 12) << 5) | bits(h, 6, 2), 6);
    match (q, f3) {
        (0, 0) => {
            let imm = (bits(h, 12, 11) << 4) | (bits(h, 10, 7) << 6) | (bits(h, 6, 6) << 2) | (bits(h, 5, 5) << 3);
            if imm == 0 { return None; }
            d(Op::Addi, rdp, 2, 0, imm as i32)
        }
        (0, 2) | (0, 6) => {
            let imm = ((bits(h, 12, 10) << 3) | (bits(h, 6, 6) << 2) | (bits(h, 5, 5) << 6)) as i32;
            if f3 == 2 { d(Op::Lw, rdp, rs1p, 0, imm) } else { d(Op::Sw, 0, rs1p, rdp, imm) }
        }
        (1, 0) => d(Op::Addi, rd, rd, 0, ci_imm),
        (1, 1) | (1, 5) => {
            let off = sext(
                (bits(h, 12, 12) << 11) | (bits(h, 11, 11) << 4) | (bits(h, 10, 9) << 8) | (bits(h, 8, 8) << 10)
                    | (bits(h, 7, 7) << 6) | (bits(h, 6, 6) << 7) | (bits(h, 5, 3) << 1) | (bits(h, 2, 2) << 5),
                12,
            );
            d(Op::Jal, if f3 == 1 { 1 } else { 0 }, 0, 0, off)
        }
        (1, 2) => d(Op::Addi, rd, 0, 0, ci_imm),
        (1, 3) => {
            if rd == 2 {
                let imm = sext(
                    (bits(h, 12, 12) << 9) | (bits(h, 6, 6) << 4) | (bits(h, 5, 5) << 6) | (bits(h, 4, 3) << 7) | (bits(h, 2, 2) << 5),
                    10,
                );
                if imm == 0 { return None; }
                d(Op::Addi, 2, 2, 0, imm)
            } else {
                if ci_imm == 0 { return None; }
                d(Op::Lui, rd, 0, 0, ci_imm << 12)
            }
        }
        (1, 4) => {
            let sh = bits(h, 6, 2) as i32;
            match bits(h, 11, 10) {
                0 if bits(h, 12, 12) == 0 => d(Op::Srli, rs1p, rs1p, 0, sh),
                1 if bits(h, 12, 12) == 0 => d(Op::Srai, rs1p, rs1p, 0, sh),
                2 => d(Op::Andi, rs1p, rs1p, 0, ci_imm),
                3 if bits(h, 12, 12) == 0 => {
                    let op = match bits(h, 6, 5) { 0 => Op::Sub, 1 => Op::Xor, 2 => Op::Or, _ => Op::And };
                    d(op, rs1p, rs1p, rdp, 0)
                }
                _ => None,
            }
        }
        (1, 6) | (1, 7) => {
            let off = sext(
                (bits(h, 12, 12) << 8) | (bits(h, 11, 10) << 3) | (bits(h, 6, 5) << 6) | (bits(h, 4, 3) << 1) | (bits(h, 2, 2) << 5),
                9,
            );
            d(if f3 == 6 { Op::Beq } else { Op::Bne }, 0, rs1p, 0, off)
        }
        (2, 0) => {
            if bits(h, 12, 12) != 0 { return None; }
            d(Op::Slli, rd, rd, 0, rs2 as i32)
        }
        (2, 2) => {
            if rd == 0 { return None; }
            let imm = ((bits(h, 12, 12) << 5) | (bits(h, 6, 4) << 2) | (bits(h, 3, 2) << 6)) as i32;
            d(Op::Lw, rd, 2, 0, imm)
        }
        (2, 4) => {
            let b12 = bits(h, 12, 12);
            match (b12, rd, rs2) {
                (0, 0, 0) => None,
                (0, r, 0) => d(Op::Jalr, 0, r, 0, 0),
                (0, r, s) => d(Op::Add, r, 0, s, 0),
                (1, 0, 0) => d(Op::Ebreak, 0, 0, 0, 0),
                (1, r, 0) => d(Op::Jalr, 1, r, 0, 0),
                (_, r, s) => d(Op::Add, r, r, s, 0),
            }
        }
        (2, 6) => {
            let imm = ((bits(h, 12, 9) << 2) | (bits(h, 8, 7) << 6)) as i32;
            d(Op::Sw, 0, 2, rs2, imm)
        }
        _ => None,
    }
}

/// Try the extension table; returns (index, entry) of the first match, preferring an
/// entry whose extension is enabled.
fn match_ext<'a>(w: u32, table: &'a [ExtInsn], isa: &Isa) -> Option<(usize, &'a ExtInsn, bool)> {
    let mut first: Option<(usize, &ExtInsn)> = None;
    for (i, e) in table.iter().enumerate() {
        if w & e.mask == e.matches {
            if isa.has(e.ext) {
                return Some((i, e, true));
            }
            if first.is_none() {
                first = Some((i, e));
            }
        }
    }
    first.map(|(i, e)| (i, e, false))
}

fn ext_decoded(w: u32, idx: usize, e: &ExtInsn) -> Decoded {
    let rd = bits(w, 11, 7) as u8;
    let rs1 = bits(w, 19, 15) as u8;
    let rs2 = bits(w, 24, 20) as u8;
    // an instruction that uses the multiplier (ise/ `uses_multiplier`) times like MUL: the
    // core's multiplier latency (--mul-latency) and one operation at a time
    let c = if crate::ext::uses_multiplier(e.name) { cls::MUL } else { cls::EXT };
    let mut d = Decoded {
        op: Op::ExtR, rd, rs1, rs2, rs3: 0, len: 4, cls: c, xlat: e.latency.max(1), imm: 0,
        mnem: (N_BASE_OPS + idx) as u16, ext: idx as u16,
    };
    match e.form {
        ExtForm::R => {}
        ExtForm::Unary => d.rs2 = 0,
        ExtForm::Imm => { d.op = Op::ExtI; d.rs2 = 0; d.imm = (w >> 20) as i32; }
        ExtForm::Bs => { d.op = Op::ExtBs; d.imm = (w >> 30) as i32; }
        ExtForm::R4 => d.rs3 = bits(w, 31, 27) as u8,
        ExtForm::RdAcc => d.rs3 = rd,
        ExtForm::RdAccImm => { d.op = Op::ExtI; d.rs2 = 0; d.imm = (w >> 20) as i32; d.rs3 = rd; }
    }
    d
}

/// Full decode with ISA check. `w` holds the instruction (low 16 bits for compressed).
pub fn decode(w: u32, isa: &Isa, table: &[ExtInsn]) -> Result<Decoded, DecodeError> {
    if w & 3 != 3 {
        let h = w & 0xffff;
        let d = decode_c16(h).ok_or(DecodeError::Illegal)?;
        if !isa.c {
            return Err(DecodeError::Disallowed { mnemonic: format!("c.{}", OP_NAMES[d.op as usize]), ext: "c".into() });
        }
        return Ok(d);
    }
    if let Some(d) = decode_base32(w) {
        if let Some(e) = base_ext(d.op) {
            if !isa.has(e) {
                return Err(DecodeError::Disallowed { mnemonic: OP_NAMES[d.op as usize].into(), ext: e.into() });
            }
        }
        if matches!(d.op, Op::Csrrw | Op::Csrrs | Op::Csrrc | Op::Csrrwi | Op::Csrrsi | Op::Csrrci) && !isa.has("zicsr") {
            return Err(DecodeError::Disallowed { mnemonic: OP_NAMES[d.op as usize].into(), ext: "zicsr".into() });
        }
        return Ok(d);
    }
    match match_ext(w, table, isa) {
        Some((i, e, true)) => Ok(ext_decoded(w, i, e)),
        Some((_, e, false)) => Err(DecodeError::Disallowed {
            mnemonic: e.name.into(),
            ext: crate::ext::needed_extensions(w, table).unwrap_or_else(|| e.ext.into()),
        }),
        None => Err(DecodeError::Illegal),
    }
}

/// Decode ignoring the ISA (for disassembly).
pub fn decode_any(w: u32, table: &[ExtInsn]) -> Option<Decoded> {
    if w & 3 != 3 {
        return decode_c16(w & 0xffff);
    }
    if let Some(d) = decode_base32(w) {
        return Some(d);
    }
    table.iter().enumerate().find(|(_, e)| w & e.mask == e.matches).map(|(i, e)| ext_decoded(w, i, e))
}
