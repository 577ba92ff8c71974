//! Instruction decoding: one 16/32-bit word -> a compact `Decoded` record, done once per
//! instruction word (the executor caches decoded records per halfword address).
//!
//! Unused source-register fields are set to 0 (x0 is always ready), so a timing model can
//! read `rs1`, `rs2`, `rs3` uniformly; instructions that write no register have `rd = 0`.

use crate::ext::{ExtForm, ExtInsn};
use crate::isa::Isa;

macro_rules! ops {
    (($d:tt) $($(#[$m:meta])* $name:ident = $mn:literal => $kind:ident($sub:ident)),* $(,)?) => {
        /// Every instruction rvsim executes (RV32 base ops; the extension table's rows run as
        /// `Ext*`). One byte; `OP_NAMES` and the statistics ids follow this order.
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u8)]
        pub enum Op { $($(#[$m])* $name),* }
        /// Mnemonic of each base op, indexed by `Op as usize`.
        pub const OP_NAMES: &[&str] = &[$($mn),*];
        impl Op {
            /// The op's group with its typed sub-op (see `Kind`).
            #[inline(always)]
            pub const fn kind(self) -> Kind { match self { $(Op::$name => Kind::$kind($sub::$name)),* } }
        }
        /// `op_dispatch!(op, K => body)`: `body` once per op, with the constant `K: Kind` of that
        /// op, in one `match` on the op. A body that matches on `K` (exhaustively, with the
        /// semantics helpers) is thus compiled into one specialised arm per instruction: a
        /// single jump on the op byte, as if each arm were written out by hand.
        macro_rules! op_dispatch {
            ($d op:expr, $d k:ident => $d body:expr) => {
                match $d op { $($crate::decode::Op::$name => {
                    #[allow(non_upper_case_globals)]
                    const $d k: $crate::decode::Kind = $crate::decode::Kind::$kind($crate::decode::$sub::$name);
                    $d body
                })* }
            };
        }
        pub(crate) use op_dispatch;
        /// `op_table!(K => expr)`: an array indexed by `Op as usize` whose element for each op
        /// is `expr` with that op's constant `K: Kind`.
        macro_rules! op_table {
            ($d k:ident => $d e:expr) => {
                [$({
                    #[allow(non_upper_case_globals)]
                    const $d k: $crate::decode::Kind = $crate::decode::Kind::$kind($crate::decode::$sub::$name);
                    $d e
                }),*]
            };
        }
        pub(crate) use op_table;
    };
}

// op = mnemonic => group(sub-op): the one list of base instructions
ops! {
    ($)
    Lui = "lui" => Alu(AluOp), Auipc = "auipc" => Alu(AluOp),
    Jal = "jal" => Jump(JumpOp), Jalr = "jalr" => Jump(JumpOp),
    Beq = "beq" => Branch(BranchOp), Bne = "bne" => Branch(BranchOp), Blt = "blt" => Branch(BranchOp),
    Bge = "bge" => Branch(BranchOp), Bltu = "bltu" => Branch(BranchOp), Bgeu = "bgeu" => Branch(BranchOp),
    Lb = "lb" => Load(LoadOp), Lh = "lh" => Load(LoadOp), Lw = "lw" => Load(LoadOp),
    Lbu = "lbu" => Load(LoadOp), Lhu = "lhu" => Load(LoadOp),
    Sb = "sb" => Store(StoreOp), Sh = "sh" => Store(StoreOp), Sw = "sw" => Store(StoreOp),
    Addi = "addi" => Alu(AluOp), Slti = "slti" => Alu(AluOp), Sltiu = "sltiu" => Alu(AluOp),
    Xori = "xori" => Alu(AluOp), Ori = "ori" => Alu(AluOp), Andi = "andi" => Alu(AluOp),
    Slli = "slli" => Alu(AluOp), Srli = "srli" => Alu(AluOp), Srai = "srai" => Alu(AluOp),
    Add = "add" => Alu(AluOp), Sub = "sub" => Alu(AluOp), Sll = "sll" => Alu(AluOp), Slt = "slt" => Alu(AluOp),
    Sltu = "sltu" => Alu(AluOp), Xor = "xor" => Alu(AluOp), Srl = "srl" => Alu(AluOp), Sra = "sra" => Alu(AluOp),
    Or = "or" => Alu(AluOp), And = "and" => Alu(AluOp),
    Fence = "fence" => System(SysOp), FenceI = "fence.i" => System(SysOp), Ecall = "ecall" => System(SysOp),
    Ebreak = "ebreak" => System(SysOp), Mret = "mret" => System(SysOp), Wfi = "wfi" => System(SysOp),
    Csrrw = "csrrw" => Csr(CsrOp), Csrrs = "csrrs" => Csr(CsrOp), Csrrc = "csrrc" => Csr(CsrOp),
    Csrrwi = "csrrwi" => Csr(CsrOp), Csrrsi = "csrrsi" => Csr(CsrOp), Csrrci = "csrrci" => Csr(CsrOp),
    Mul = "mul" => Mul(MulOp), Mulh = "mulh" => Mul(MulOp), Mulhsu = "mulhsu" => Mul(MulOp), Mulhu = "mulhu" => Mul(MulOp),
    Div = "div" => Div(DivOp), Divu = "divu" => Div(DivOp), Rem = "rem" => Div(DivOp), Remu = "remu" => Div(DivOp),
    LrW = "lr.w" => Lrsc(LrscOp), ScW = "sc.w" => Lrsc(LrscOp),
    AmoswapW = "amoswap.w" => Amo(AmoOp), AmoaddW = "amoadd.w" => Amo(AmoOp), AmoxorW = "amoxor.w" => Amo(AmoOp),
    AmoandW = "amoand.w" => Amo(AmoOp), AmoorW = "amoor.w" => Amo(AmoOp), AmominW = "amomin.w" => Amo(AmoOp),
    AmomaxW = "amomax.w" => Amo(AmoOp), AmominuW = "amominu.w" => Amo(AmoOp), AmomaxuW = "amomaxu.w" => Amo(AmoOp),
    /// extension instruction, operands a=x[rs1], b=x[rs2], c=x[rs3]
    ExtR = "<ext>" => Ext(ExtOp),
    /// extension instruction, operands a=x[rs1], b=imm, c=x[rs3]
    ExtI = "<ext-imm>" => Ext(ExtOp),
    /// extension instruction, operands a=x[rs1], b=x[rs2], c=imm
    ExtBs = "<ext-bs>" => Ext(ExtOp),
    /// not decodable, or outside the configured ISA: raises its exception (re-decoded for the message)
    Trap = "<trap>" => System(SysOp),
}

pub const N_BASE_OPS: usize = OP_NAMES.len();

/// The groups of ops. Each group is handled as a whole by the engines and the checkers
/// (exec.rs, exec/blocks.rs, ct.rs, timing), and each group's sub-op by the helpers in
/// exec/semantics.rs with exhaustive matches: a new instruction does not compile until every
/// consumer says what it does with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// integer computation, register-register and register-immediate, lui, auipc (RV32I 2.4)
    Alu(AluOp),
    /// M: multiplies (fixed latency)
    Mul(MulOp),
    /// M: divides and remainders (operand-dependent latency)
    Div(DivOp),
    Load(LoadOp),
    Store(StoreOp),
    /// conditional branches
    Branch(BranchOp),
    /// jal, jalr
    Jump(JumpOp),
    /// Zicsr
    Csr(CsrOp),
    /// A: load-reserved / store-conditional (Zalrsc)
    Lrsc(LrscOp),
    /// A: atomic read-modify-write (Zaamo)
    Amo(AmoOp),
    /// a row of the extension table (src/ext), by operand form
    Ext(ExtOp),
    /// fence, fence.i, ecall, ebreak, mret, wfi, and a word that cannot execute
    System(SysOp),
}

macro_rules! sub_ops {
    ($($(#[$m:meta])* $name:ident { $($op:ident),* $(,)? })*) => {$(
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u8)]
        pub enum $name { $($op = Op::$op as u8),* }
    )*};
}

sub_ops! {
    AluOp { Lui, Auipc, Addi, Slti, Sltiu, Xori, Ori, Andi, Slli, Srli, Srai, Add, Sub, Sll, Slt, Sltu, Xor, Srl, Sra, Or, And }
    MulOp { Mul, Mulh, Mulhsu, Mulhu }
    DivOp { Div, Divu, Rem, Remu }
    LoadOp { Lb, Lh, Lw, Lbu, Lhu }
    StoreOp { Sb, Sh, Sw }
    BranchOp { Beq, Bne, Blt, Bge, Bltu, Bgeu }
    JumpOp { Jal, Jalr }
    CsrOp { Csrrw, Csrrs, Csrrc, Csrrwi, Csrrsi, Csrrci }
    LrscOp { LrW, ScW }
    AmoOp { AmoswapW, AmoaddW, AmoxorW, AmoandW, AmoorW, AmominW, AmomaxW, AmominuW, AmomaxuW }
    /// operand forms of extension-table rows (see `Op::ExtR` ...)
    ExtOp { ExtR, ExtI, ExtBs }
    SysOp { Fence, FenceI, Ecall, Ebreak, Mret, Wfi, Trap }
}

impl Op {
    /// The standard extension a base op belongs to beyond RV32I (checked against the ISA).
    pub const fn extension(self) -> Option<&'static str> {
        match self.kind() {
            Kind::Mul(_) | Kind::Div(_) => Some("m"),
            Kind::Lrsc(_) | Kind::Amo(_) => Some("a"),
            Kind::Csr(_) => Some("zicsr"),
            Kind::Alu(_) | Kind::Load(_) | Kind::Store(_) | Kind::Branch(_) | Kind::Jump(_) | Kind::Ext(_) | Kind::System(_) => None,
        }
    }
    /// A branch or jump (what ends a straight-line block), or None.
    #[inline(always)]
    pub const fn control(self) -> Option<Ctrl> {
        match self.kind() {
            Kind::Branch(op) => Some(Ctrl::Branch(op)),
            Kind::Jump(op) => Some(Ctrl::Jump(op)),
            Kind::Alu(_) | Kind::Mul(_) | Kind::Div(_) | Kind::Load(_) | Kind::Store(_) | Kind::Csr(_)
            | Kind::Lrsc(_) | Kind::Amo(_) | Kind::Ext(_) | Kind::System(_) => None,
        }
    }
}

/// A control transfer: a conditional branch or a jump.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ctrl { Branch(BranchOp), Jump(JumpOp) }

impl LoadOp {
    /// bytes read
    #[inline(always)]
    pub const fn size(self) -> u32 { match self { LoadOp::Lb | LoadOp::Lbu => 1, LoadOp::Lh | LoadOp::Lhu => 2, LoadOp::Lw => 4 } }
}
impl StoreOp {
    /// bytes written
    #[inline(always)]
    pub const fn size(self) -> u32 { match self { StoreOp::Sb => 1, StoreOp::Sh => 2, StoreOp::Sw => 4 } }
}
impl CsrOp {
    /// the immediate forms take the source from the zimm field instead of x[rs1]
    pub const fn immediate(self) -> bool { matches!(self, CsrOp::Csrrwi | CsrOp::Csrrsi | CsrOp::Csrrci) }
}

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

impl Kind {
    /// Timing class of a base op (an extension row's comes from the table: `ext_decoded`).
    pub const fn timing_class(self) -> u8 {
        match self {
            Kind::Alu(_) => cls::ALU,
            Kind::Mul(_) => cls::MUL,
            Kind::Div(_) => cls::DIV,
            Kind::Load(LoadOp::Lw) => cls::LOAD_W,
            Kind::Load(LoadOp::Lb | LoadOp::Lh | LoadOp::Lbu | LoadOp::Lhu) => cls::LOAD_BH,
            Kind::Store(_) => cls::STORE,
            Kind::Branch(_) => cls::BRANCH,
            Kind::Jump(_) => cls::JUMP,
            Kind::Csr(_) => cls::CSR,
            Kind::Lrsc(_) | Kind::Amo(_) => cls::AMO,
            Kind::Ext(_) => cls::EXT,
            Kind::System(_) => cls::SYSTEM,
        }
    }
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
    fn base(op: Op, rd: u32, rs1: u32, rs2: u32, imm: i32, len: u8) -> Decoded {
        Decoded { op, rd: rd as u8, rs1: rs1 as u8, rs2: rs2 as u8, rs3: 0, len, cls: op.kind().timing_class(), xlat: 1, imm, mnem: op as u16, ext: 0 }
    }
    /// A `len`-byte word that cannot execute (not decodable, outside the ISA, or not fetchable).
    pub fn trap(len: u8) -> Decoded {
        Decoded::base(Op::Trap, 0, 0, 0, 0, len)
    }
    /// A decode-cache slot not decoded yet (length 0: no instruction has it).
    pub fn undecoded() -> Decoded { Decoded { len: 0, ..Decoded::trap(2) } }
    pub fn is_undecoded(&self) -> bool { self.len == 0 }
}

/// Why a word cannot execute under the configured ISA.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// not a valid encoding of anything rvsim knows
    Illegal,
    /// a valid instruction of an extension that is not in the ISA string
    Disallowed { mnemonic: String, ext: String },
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

/// Row `idx` (`e`) of the extension table decoding `w`: each form's operands in the fields
/// `exec::semantics::ext_operands` reads.
pub(crate) fn ext_decoded(w: u32, idx: usize, e: &ExtInsn) -> Decoded {
    let rd = bits(w, 11, 7) as u8;
    let rs1 = bits(w, 19, 15) as u8;
    let rs2 = bits(w, 24, 20) as u8;
    // an instruction that uses the multiplier (ise/ `uses_multiplier`) times like MUL: the
    // core's multiplier latency (--mul-latency) and one operation at a time
    let c = if e.uses_multiplier { cls::MUL } else { cls::EXT };
    let op = match e.form.op() { ExtOp::ExtR => Op::ExtR, ExtOp::ExtI => Op::ExtI, ExtOp::ExtBs => Op::ExtBs };
    let mut d = Decoded {
        op, rd, rs1, rs2, rs3: 0, len: 4, cls: c, xlat: e.latency.max(1), imm: 0,
        mnem: (N_BASE_OPS + idx) as u16, ext: idx as u16,
    };
    match e.form {
        ExtForm::R => {}
        ExtForm::Unary => d.rs2 = 0,
        ExtForm::Imm => { d.rs2 = 0; d.imm = (w >> 20) as i32; }
        ExtForm::Bs => d.imm = (w >> 30) as i32,
        ExtForm::R4 => d.rs3 = bits(w, 31, 27) as u8,
        ExtForm::RdAcc => d.rs3 = rd,
        ExtForm::RdAccImm => { d.rs2 = 0; d.imm = (w >> 20) as i32; d.rs3 = rd; }
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
        if let Some(e) = d.op.extension() {
            if !isa.has(e) {
                return Err(DecodeError::Disallowed { mnemonic: OP_NAMES[d.op as usize].into(), ext: e.into() });
            }
        }
        return Ok(d);
    }
    // the first matching row whose extension is enabled; else the message names every
    // extension that defines the word
    if let Some((i, e)) = crate::ext::find(table, w, |x| isa.has(x)) {
        return Ok(ext_decoded(w, i, e));
    }
    match crate::ext::find(table, w, |_| true) {
        Some((_, e)) => Err(DecodeError::Disallowed {
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
    crate::ext::find(table, w, |_| true).map(|(i, e)| ext_decoded(w, i, e))
}
