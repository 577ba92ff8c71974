//! How an instruction or a run ends other than normally, as types: the `Exception` an
//! instruction raises (its mcause and mtval; the program's handler takes it when there is
//! one), and the `Stop` that ends a run before the program exits, printed as
//! `rvsim: error: {stop}` with status 125 (docs/interfaces.md §1). The `Display` texts are
//! rvsim's messages; a new reason to stop is a new variant here and its text.

use crate::csr::{cause, CsrFault};
use crate::decode::DecodeError;
use crate::disasm::csr_name;
use crate::mem::MemError;
use crate::semihost::SemihostError;
use std::fmt;

/// An exception raised by the instruction at some pc (privileged spec 1.12, M-mode only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exception {
    /// fetch from a pc that is not 4-byte aligned, without the C extension
    FetchMisaligned,
    /// the fetch faults (outside the memory map)
    FetchFault(MemError),
    /// `word` does not decode, or is outside the ISA string
    Illegal { word: u32 },
    /// a CSR access the machine refuses (an unknown CSR, a write to a read-only one);
    /// `read`: the instruction reads the CSR; `word`: its bits (mtval)
    Csr { csr: u32, fault: CsrFault, read: bool, word: u32 },
    /// a jump or taken branch to a target that is not 4-byte aligned (without C)
    TargetMisaligned { target: u32, branch: bool },
    /// a data access that faults (load, store, LR/SC, AMO)
    Mem(MemError),
    /// `ebreak` outside a semihosting sequence
    Breakpoint,
    Ecall,
}

impl Exception {
    /// (mcause, mtval) of the exception raised by the instruction at `pc`.
    pub fn cause_tval(&self, pc: u32) -> (u32, u32) {
        match *self {
            Exception::FetchMisaligned => (cause::INSN_MISALIGNED, pc),
            Exception::FetchFault(_) => (cause::INSN_ACCESS, pc),
            Exception::Illegal { word } => (cause::ILLEGAL, insn_bits(word)),
            Exception::Csr { word, .. } => (cause::ILLEGAL, word),
            Exception::TargetMisaligned { target, .. } => (cause::INSN_MISALIGNED, target),
            Exception::Mem(MemError::Misaligned { addr, store, .. }) => (if store { cause::STORE_MISALIGNED } else { cause::LOAD_MISALIGNED }, addr),
            Exception::Mem(MemError::Unmapped { addr, store, .. }) => (if store { cause::STORE_ACCESS } else { cause::LOAD_ACCESS }, addr),
            Exception::Mem(MemError::ReadOnly { addr, .. }) => (cause::STORE_ACCESS, addr),
            // mtval 0 (the specification also allows the pc; QEMU writes 0)
            Exception::Breakpoint => (cause::BREAKPOINT, 0),
            Exception::Ecall => (cause::ECALL_M, 0),
        }
    }
}

impl From<MemError> for Exception {
    fn from(e: MemError) -> Exception { Exception::Mem(e) }
}

/// A raw instruction word as mtval holds it: the low 16 bits of a compressed instruction.
pub fn insn_bits(w: u32) -> u32 { if w & 3 != 3 { w & 0xffff } else { w } }

/// Why a run ended before the program exited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// an exception no handler takes: none installed (mtvec at reset), `--stop-on-trap`, or
    /// the handler itself faults; `insn` is the disassembly of the instruction at `pc`
    Trap { pc: u32, exception: Exception, insn: String },
    /// the instruction at `pc` does not decode, or is outside the ISA string `isa`
    /// (the `Illegal` exception, explained)
    Decode { pc: u32, word: u32, insn: String, error: DecodeError, isa: String },
    /// `--max-insns` instructions retired; `pc` is the next one
    Budget { pc: u32, instret: u64 },
    /// a semihosting call rvsim cannot perform
    Semihost { pc: u32, error: SemihostError },
    /// the instruction `insn` at `pc`, in function `func`, set sp to `sp`, below `--stack-limit`
    /// `limit` (given as `limit_name`): the stack grew into what lies below it (.data/.bss);
    /// `in_use`: bytes from the first sp the program set
    StackOverflow { pc: u32, sp: u32, limit: u32, limit_name: String, func: String, insn: String, in_use: Option<u32> },
    /// rvsim's own fault: a decode-cache slot that cannot execute holds a decodable word
    Internal { pc: u32 },
}

/// `0x1234` for a compressed word, `0x12345678` otherwise.
fn raw(w: u32) -> String { if w & 3 != 3 { format!("0x{:04x}", w & 0xffff) } else { format!("0x{w:08x}") } }

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Stop::Trap { pc, exception, insn } => match exception {
                Exception::FetchMisaligned => write!(f, "instruction address misaligned: pc 0x{pc:08x} (no C extension)"),
                Exception::FetchFault(e) => write!(f, "instruction fetch at pc 0x{pc:08x}: {e}"),
                Exception::Illegal { word } => write!(f, "illegal instruction {} at pc 0x{pc:08x}", raw(*word)),
                Exception::Csr { csr, fault: CsrFault::Missing, read, .. } =>
                    write!(f, "unknown CSR {} {} at pc 0x{pc:08x}", csr_name(*csr), if *read { "read" } else { "written" }),
                Exception::Csr { csr, fault: CsrFault::ReadOnly, .. } => write!(f, "write to read-only CSR {} at pc 0x{pc:08x}", csr_name(*csr)),
                Exception::TargetMisaligned { target, branch } =>
                    write!(f, "instruction address misaligned: {} at pc 0x{pc:08x} to 0x{target:08x}", if *branch { "branch" } else { "jump" }),
                Exception::Mem(e) => write!(f, "{e} by '{insn}' at pc 0x{pc:08x}"),
                Exception::Breakpoint => write!(f, "ebreak (breakpoint) at pc 0x{pc:08x} outside a semihosting sequence"),
                Exception::Ecall => write!(f, "ecall at pc 0x{pc:08x} with no trap handler installed (mtvec); for I/O use semihosting"),
            },
            Stop::Decode { pc, word, error: DecodeError::Illegal, .. } => write!(f, "illegal instruction {} at pc 0x{pc:08x}", raw(*word)),
            Stop::Decode { pc, word, insn, error: DecodeError::Disallowed { mnemonic, ext }, isa } => write!(f,
                "instruction '{insn}' ({mnemonic}, {}) at pc 0x{pc:08x} needs extension {ext}, not in the ISA string '{isa}'", raw(*word)),
            Stop::Budget { pc, instret } => write!(f, "instruction budget exceeded: {instret} instructions retired (--max-insns), pc 0x{pc:08x}"),
            Stop::Semihost { pc, error } => write!(f, "{error} (pc 0x{pc:08x})"),
            Stop::StackOverflow { pc, sp, limit, limit_name, func, insn, in_use } => {
                write!(f, "stack overflow: {func} set sp to 0x{sp:08x}, {} bytes below the stack limit 0x{limit:08x} ({limit_name})", limit - sp)?;
                if let Some(n) = in_use { write!(f, " ({n} bytes of stack in use)")?; }
                write!(f, ", by '{insn}' at pc 0x{pc:08x}")
            }
            Stop::Internal { pc } => write!(f, "internal: trap at decodable pc 0x{pc:08x}"),
        }
    }
}

impl std::error::Error for Stop {}
