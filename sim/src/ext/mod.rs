//! Extension-instruction table (docs/interfaces.md §2). Owned by the "ext" engineer;
//! this initial version only defines the types and an empty table so the crate builds.

/// Operand form of an extension instruction (see docs/interfaces.md §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtForm { R, Unary, Imm, Bs, R4, RdAcc, RdAccImm }

/// Architectural state of custom extensions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExtState { pub carry: u32 }

/// One extension instruction.
pub struct ExtInsn {
    pub name: &'static str,
    pub ext: &'static str,
    pub mask: u32,
    pub matches: u32,
    pub form: ExtForm,
    pub exec: fn(&mut ExtState, u32, u32, u32) -> u32,
    pub latency: u8,
}

/// The full table of extension instructions (standard and custom).
pub static EXT_INSNS: &[ExtInsn] = &[];

/// The full table (function form, for callers that prefer it).
pub fn ext_insns() -> &'static [ExtInsn] { EXT_INSNS }
