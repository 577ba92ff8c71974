//! Machine-mode CSRs of a single-hart core with only M-mode (privileged spec 1.12), and
//! the state changes of trap entry and `mret`. The executor decides *when* a trap happens
//! (exec.rs); this module only keeps the registers and their WARL rules.
//!
//! Not modelled: interrupts (no CLINT/PLIC, so `mip` reads 0 and nothing is ever pending),
//! PMP enforcement (`pmpcfg*`/`pmpaddr*` hold what is written), debug/trigger CSRs
//! (accessing them is an illegal instruction, as for any CSR not listed in `exists`).

use crate::isa::Isa;

/// `mcause` exception codes (interrupt bit clear).
pub mod cause {
    pub const INSN_MISALIGNED: u32 = 0;
    pub const INSN_ACCESS: u32 = 1;
    pub const ILLEGAL: u32 = 2;
    pub const BREAKPOINT: u32 = 3;
    pub const LOAD_MISALIGNED: u32 = 4;
    pub const LOAD_ACCESS: u32 = 5;
    pub const STORE_MISALIGNED: u32 = 6;
    pub const STORE_ACCESS: u32 = 7;
    pub const ECALL_M: u32 = 11;

    pub fn name(c: u32) -> &'static str {
        match c {
            INSN_MISALIGNED => "instruction address misaligned",
            INSN_ACCESS => "instruction access fault",
            ILLEGAL => "illegal instruction",
            BREAKPOINT => "breakpoint",
            LOAD_MISALIGNED => "load address misaligned",
            LOAD_ACCESS => "load access fault",
            STORE_MISALIGNED => "store/AMO address misaligned",
            STORE_ACCESS => "store/AMO access fault",
            ECALL_M => "environment call from M-mode",
            _ => "exception",
        }
    }
}

const MSTATUS_MIE: u32 = 1 << 3;
const MSTATUS_MPIE: u32 = 1 << 7;
/// MPP is WARL and can only hold M (3) on a core without S and U modes.
const MSTATUS_MPP_M: u32 = 3 << 11;
/// mie: software, timer and external interrupt enables (the only sources an M-only hart has).
const MIE_MASK: u32 = 1 << 3 | 1 << 7 | 1 << 11;
/// mcountinhibit: CY (bit 0) and IR (bit 2); TM does not exist, HPM counters read 0.
const MCOUNTINHIBIT_MASK: u32 = 1 | 1 << 2;
/// `mtvec` after reset. A program that never writes it has no handler of its own.
pub const MTVEC_RESET: u32 = 0;

/// A counter that can be written and inhibited: value = raw + offset while running,
/// frozen while inhibited (mcycle from the timing model's cycle, minstret from instret).
#[derive(Clone, Copy, Default, Debug)]
struct Counter { offset: u64, frozen: Option<u64> }

impl Counter {
    fn value(&self, raw: u64) -> u64 { self.frozen.unwrap_or(raw.wrapping_add(self.offset)) }
    fn set(&mut self, v: u64, raw: u64) {
        match &mut self.frozen { Some(f) => *f = v, None => self.offset = v.wrapping_sub(raw) }
    }
    fn inhibit(&mut self, on: bool, raw: u64) {
        match (on, self.frozen) {
            (true, None) => self.frozen = Some(self.value(raw)),
            (false, Some(f)) => { self.frozen = None; self.offset = f.wrapping_sub(raw) }
            _ => {}
        }
    }
}

/// Values of the read-only identification CSRs (from the core file; 0 = not implemented).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HartIds { pub mvendorid: u32, pub marchid: u32, pub mimpid: u32 }

pub struct Csrs {
    misa: u32,
    ids: HartIds,
    mstatus: u32,
    mtvec: u32,
    mscratch: u32,
    mepc: u32,
    mcause: u32,
    mtval: u32,
    mie: u32,
    mcountinhibit: u32,
    cycle: Counter,
    instret: Counter,
    pmpcfg: [u32; 4],
    pmpaddr: [u32; 16],
}

/// Why a CSR access raises an illegal-instruction exception.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CsrFault { Missing, ReadOnly }

impl Csrs {
    pub fn new(isa: &Isa, ids: HartIds) -> Csrs {
        // misa: MXL = 1 (32-bit) and one bit per single-letter extension; X when the ISA
        // string enables a custom (x...) extension. WARL: writes are ignored.
        let mut misa = 1u32 << 30 | 1 << (b'i' - b'a');
        for (on, l) in [(isa.m, b'm'), (isa.a, b'a'), (isa.c, b'c')] {
            if on { misa |= 1 << (l - b'a'); }
        }
        if isa.exts.iter().any(|e| e.starts_with('x')) { misa |= 1 << (b'x' - b'a'); }
        Csrs {
            misa, ids,
            mstatus: 0, mtvec: MTVEC_RESET, mscratch: 0, mepc: 0, mcause: 0, mtval: 0, mie: 0,
            mcountinhibit: 0, cycle: Counter::default(), instret: Counter::default(),
            pmpcfg: [0; 4], pmpaddr: [0; 16],
        }
    }

    pub fn set_ids(&mut self, ids: HartIds) { self.ids = ids; }
    pub fn mtvec(&self) -> u32 { self.mtvec }
    pub fn mstatus(&self) -> u32 { self.mstatus | MSTATUS_MPP_M }
    /// mepc[1] reads as written only with C (IALIGN = 16), which misa records
    fn mepc_read(&self) -> u32 { if self.misa & 1 << (b'c' - b'a') != 0 { self.mepc } else { self.mepc & !3 } }

    /// Read a CSR; `cycle`/`instret` are the raw counts of the timing model and executor.
    pub fn read(&self, csr: u32, cycle: u64, instret: u64) -> Result<u32, CsrFault> {
        let cyc = self.cycle.value(cycle);
        let ins = self.instret.value(instret);
        Ok(match csr {
            // time has no separate timer here: it counts cycles, as rdtime did before
            0xc00 | 0xb00 | 0xc01 => cyc as u32,
            0xc80 | 0xb80 | 0xc81 => (cyc >> 32) as u32,
            0xc02 | 0xb02 => ins as u32,
            0xc82 | 0xb82 => (ins >> 32) as u32,
            // hardware performance counters 3..31 and their event selectors: hardwired 0
            0xc03..=0xc1f | 0xc83..=0xc9f | 0xb03..=0xb1f | 0xb83..=0xb9f | 0x323..=0x33f => 0,
            0xf11 => self.ids.mvendorid,
            0xf12 => self.ids.marchid,
            0xf13 => self.ids.mimpid,
            0xf14 | 0xf15 => 0, // mhartid, mconfigptr
            0x300 => self.mstatus(),
            0x301 => self.misa,
            0x304 => self.mie,
            0x305 => self.mtvec,
            0x310 => 0, // mstatush: MBE = 0 (little-endian)
            0x320 => self.mcountinhibit,
            0x340 => self.mscratch,
            0x341 => self.mepc_read(),
            0x342 => self.mcause,
            0x343 => self.mtval,
            0x344 => 0, // mip: no interrupt source can be pending
            0x3a0..=0x3a3 => self.pmpcfg[(csr - 0x3a0) as usize],
            0x3b0..=0x3bf => self.pmpaddr[(csr - 0x3b0) as usize],
            _ => return Err(CsrFault::Missing),
        })
    }

    /// Write a CSR (after `read` succeeded, so the CSR exists).
    pub fn write(&mut self, csr: u32, v: u32, cycle: u64, instret: u64) -> Result<(), CsrFault> {
        if csr >> 10 == 3 { return Err(CsrFault::ReadOnly); } // 0xc00..0xfff: read-only by number
        let lo = |c: &mut Counter, raw: u64| { let old = c.value(raw); c.set(old & !0xffff_ffff | v as u64, raw) };
        let hi = |c: &mut Counter, raw: u64| { let old = c.value(raw); c.set(old & 0xffff_ffff | (v as u64) << 32, raw) };
        // minstret: the writing instruction itself retires after the write and must not count
        let ins_raw = instret.wrapping_add(1);
        match csr {
            0xb00 => lo(&mut self.cycle, cycle),
            0xb80 => hi(&mut self.cycle, cycle),
            0xb02 => lo(&mut self.instret, ins_raw),
            0xb82 => hi(&mut self.instret, ins_raw),
            0xb03..=0xb1f | 0xb83..=0xb9f | 0x323..=0x33f => {} // hardwired 0
            0x300 => self.mstatus = v & (MSTATUS_MIE | MSTATUS_MPIE),
            0x301 | 0x310 | 0x344 => {} // misa, mstatush, mip: nothing writable
            0x304 => self.mie = v & MIE_MASK,
            // modes 2 and 3 are reserved: such a write is ignored (as QEMU does)
            0x305 => if v & 3 < 2 { self.mtvec = v },
            0x320 => {
                self.mcountinhibit = v & MCOUNTINHIBIT_MASK;
                self.cycle.inhibit(v & 1 != 0, cycle);
                self.instret.inhibit(v & 4 != 0, ins_raw);
            }
            0x340 => self.mscratch = v,
            0x341 => self.mepc = v & !1,
            0x342 => self.mcause = v,
            0x343 => self.mtval = v,
            0x3a0..=0x3a3 => self.pmpcfg[(csr - 0x3a0) as usize] = v,
            0x3b0..=0x3bf => self.pmpaddr[(csr - 0x3b0) as usize] = v,
            _ => return Err(CsrFault::Missing),
        }
        Ok(())
    }

    /// Trap entry: record the exception and return the handler address. Exceptions go to
    /// mtvec.BASE in both direct and vectored mode (vectoring is for interrupts only).
    pub fn enter_trap(&mut self, cause: u32, tval: u32, pc: u32) -> u32 {
        self.mepc = pc & !1;
        self.mcause = cause;
        self.mtval = tval;
        let mie = self.mstatus & MSTATUS_MIE != 0;
        self.mstatus = if mie { MSTATUS_MPIE } else { 0 };
        self.mtvec & !3
    }

    /// `mret`: MIE <- MPIE, MPIE <- 1, MPP stays M; returns the address to continue at.
    pub fn mret(&mut self) -> u32 {
        let mpie = self.mstatus & MSTATUS_MPIE != 0;
        self.mstatus = MSTATUS_MPIE | if mpie { MSTATUS_MIE } else { 0 };
        self.mepc_read()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn csrs(isa: &str) -> Csrs { Csrs::new(&Isa::parse(isa, &["xcarry"]).unwrap(), HartIds::default()) }

    #[test]
    fn misa_reflects_the_isa_string_and_ignores_writes() {
        let mut c = csrs("rv32imc_xcarry");
        let m = c.read(0x301, 0, 0).unwrap();
        assert_eq!(m, 1 << 30 | 1 << 8 | 1 << 12 | 1 << 2 | 1 << 23);
        c.write(0x301, 0, 0, 0).unwrap();
        assert_eq!(c.read(0x301, 0, 0).unwrap(), m);
        assert_eq!(csrs("rv32i").read(0x301, 0, 0).unwrap(), 1 << 30 | 1 << 8);
    }

    #[test]
    fn mtvec_keeps_legal_modes_only() {
        let mut c = csrs("rv32imac");
        c.write(0x305, 0x8000_0101, 0, 0).unwrap();
        assert_eq!(c.mtvec(), 0x8000_0101);
        c.write(0x305, 0x8000_0202, 0, 0).unwrap();
        c.write(0x305, 0x8000_0303, 0, 0).unwrap();
        assert_eq!(c.mtvec(), 0x8000_0101);
        // exceptions go to BASE even in vectored mode
        assert_eq!(c.enter_trap(cause::ECALL_M, 0, 0x100), 0x8000_0100);
    }

    #[test]
    fn trap_and_mret_move_the_interrupt_enable_stack() {
        let mut c = csrs("rv32imac");
        c.write(0x300, MSTATUS_MIE, 0, 0).unwrap();
        c.enter_trap(cause::ILLEGAL, 0xdead, 0x2040_0102);
        assert_eq!(c.read(0x300, 0, 0).unwrap(), MSTATUS_MPIE | MSTATUS_MPP_M);
        assert_eq!((c.read(0x341, 0, 0), c.read(0x342, 0, 0), c.read(0x343, 0, 0)), (Ok(0x2040_0102), Ok(2), Ok(0xdead)));
        assert_eq!(c.mret(), 0x2040_0102);
        assert_eq!(c.read(0x300, 0, 0).unwrap(), MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_MPP_M);
    }

    #[test]
    fn mepc_bit1_hidden_without_c() {
        let mut c = csrs("rv32im");
        c.write(0x341, 0x1003, 0, 0).unwrap();
        assert_eq!(c.read(0x341, 0, 0).unwrap(), 0x1000);
        let mut c = csrs("rv32imc");
        c.write(0x341, 0x1003, 0, 0).unwrap();
        assert_eq!(c.read(0x341, 0, 0).unwrap(), 0x1002);
    }

    #[test]
    fn counters_write_and_inhibit() {
        let mut c = csrs("rv32imac");
        assert_eq!(c.read(0xc00, 1000, 0).unwrap(), 1000);
        c.write(0xb00, 10, 1000, 0).unwrap();
        assert_eq!(c.read(0xb00, 1005, 0).unwrap(), 15);
        c.write(0x320, 1, 1005, 0).unwrap(); // inhibit CY
        assert_eq!(c.read(0xb00, 2000, 0).unwrap(), 15);
        c.write(0x320, 0, 2000, 0).unwrap();
        assert_eq!(c.read(0xb00, 2003, 0).unwrap(), 18);
        // minstret written to 100: the next instruction reads 100
        c.write(0xb02, 100, 0, 41).unwrap();
        assert_eq!(c.read(0xb02, 0, 42).unwrap(), 100);
        assert_eq!(c.write(0xc00, 1, 0, 0), Err(CsrFault::ReadOnly));
        assert_eq!(c.read(0x7c0, 0, 0), Err(CsrFault::Missing));
    }
}
