//! The executor: a predecoded interpreter loop, generic over a timing model and an
//! observer (both monomorphised; the no-op observer compiles away).

use crate::decode::{self, cls, DecodeError, Decoded, Op, N_BASE_OPS, OP_NAMES};
use crate::csr::{cause, CsrFault, Csrs, HartIds, MTVEC_RESET};
use crate::disasm::disasm_word;
use crate::elf::{LoadedElf, Symbol};
use crate::ext::{ExtInsn, ExtState};
use crate::isa::Isa;
use crate::mem::{MemError, Memory};
use crate::semihost::{Outcome, Semihost};
use crate::timing::{Timing, N_STALLS};

mod blocks;

/// Observes every executed instruction (trace, profile, later the taint tracker).
/// Sources are `d.rs1/rs2/rs3`, the destination `d.rd`; memory addresses come via `mem`.
pub trait Observer {
    const ACTIVE: bool;
    /// `insn` reads `cycle` and `stalls` (trace, profile): the observer sees every instruction
    /// on the per-instruction loop. An untimed observer (the constant-time checker) also runs
    /// on the block engine, which times blocks as a whole and passes cycle 0 and no stalls.
    const TIMED: bool = true;
    /// after execution: `rd_val` is the value now in `d.rd`, `cycle` the issue cycle,
    /// `stalls` the stall + penalty cycles of this instruction by cause (timing::STALL_NAMES)
    fn insn(&mut self, _pc: u32, _d: &Decoded, _rd_val: u32, _cycle: u64, _stalls: &[u64; N_STALLS], _mem: &Memory) {}
    /// a data memory access by the instruction at `pc`
    fn mem(&mut self, _pc: u32, _addr: u32, _size: u32, _store: bool) {}
    /// a semihosting call (`op` = a0, `arg` = a1) about to be performed at `pc`
    fn semihost(&mut self, _pc: u32, _op: u32, _arg: u32, _mem: &Memory) {}
    /// the instruction at `pc` raised exception `cause` and the program's handler at
    /// `handler` takes it (the instruction did not retire; `insn` is not called for it)
    fn trap(&mut self, _pc: u32, _cause: u32, _tval: u32, _handler: u32, _cycle: u64) {}
}
pub struct NoObserver;
impl Observer for NoObserver { const ACTIVE: bool = false; const TIMED: bool = false; }

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FuncStat { pub cycles: u64, pub instret: u64, pub calls: u64 }

pub struct Machine {
    pub x: [u32; 32],
    pub pc: u32,
    pub mem: Memory,
    pub isa: Isa,
    pub table: &'static [ExtInsn],
    pub ext_fns: Vec<fn(&mut ExtState, u32, u32, u32) -> u32>,
    pub ext_state: ExtState,
    // decode cache over [dbase, dbase + 2*dcache.len())
    dcache: Vec<Slot>,
    dbase: u32,
    dspan: u32,
    /// executions outside the decode cache, per mnemonic id
    pub mnem_slow: Vec<u64>,
    pub instret: u64,
    pub max_insns: u64,
    /// machine-mode CSRs (csr.rs)
    pub csr: Csrs,
    /// stop at every exception with rvsim's message, even when the program has a handler
    pub stop_on_trap: bool,
    /// exceptions taken by the program's own handler
    pub traps_taken: u64,
    /// (pc, cause, mtval) of the first exception the program's handler took, so a program
    /// that crashes into its handler still gets explained at exit (trap_message)
    pub first_trap: Option<(u32, u32, u32)>,
    /// (pc, cause) of the last trap delivered since the last `mret`: the same trap again
    /// means the handler itself faults in a loop, which stops like an unhandled trap
    pending_trap: Option<(u32, u32)>,
    reservation: Option<u32>,
    pub semihost: Semihost,
    // functions
    pub functions: Vec<Symbol>,
    pub fstats: Vec<FuncStat>,
    cur_func: usize,
    cur_lo: u32,
    cur_hi: u32,
    f_cyc0: u64,
    f_ins0: u64,
    // stack
    pub init_sp: Option<u32>,
    pub min_sp: u32,
    /// `--stack-limit`: (lowest address the stack may reach, how it was named); a write of a
    /// lower value to sp stops the run (the stack grew into .data/.bss)
    pub stack_limit: Option<(u32, String)>,
    /// run straight-line blocks with the block engine (exec/blocks.rs) when no observer
    /// watches; false: every instruction through the per-instruction loop (same results)
    pub use_blocks: bool,
    blocks: blocks::Blocks,
}

/// One decode-cache slot: the decoded instruction and how often it executed.
#[derive(Clone, Copy)]
#[repr(C, align(8))]
struct Slot { d: Decoded, count: u64 }

/// A fatal simulation error (printed as `rvsim: error: ...`, exit 125).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimError(pub String);


impl Machine {
    pub fn new(mem: Memory, elf: &LoadedElf, isa: Isa, table: &'static [ExtInsn], cmdline: String) -> Machine {
        let span = elf.exec_hi.saturating_sub(elf.exec_lo).min(64 << 20);
        let slots = (span as usize + 1) / 2 + 1;
        let nf = elf.functions.len();
        let mut m = Machine {
            x: [0; 32],
            pc: elf.entry,
            mem,
            csr: Csrs::new(&isa, HartIds::default()),
            isa,
            table,
            ext_fns: table.iter().map(|e| e.exec).collect(),
            ext_state: ExtState::default(),
            dcache: vec![Slot { d: Decoded::UNDECODED, count: 0 }; slots],
            dbase: elf.exec_lo & !1,
            dspan: (slots * 2) as u32,
            mnem_slow: vec![0; N_BASE_OPS + table.len()],
            instret: 0,
            max_insns: 10_000_000_000,
            stop_on_trap: false,
            traps_taken: 0,
            first_trap: None,
            pending_trap: None,
            reservation: None,
            semihost: Semihost::new(cmdline),
            functions: elf.functions.clone(),
            fstats: vec![FuncStat::default(); nf + 1],
            cur_func: nf,
            cur_lo: 1,
            cur_hi: 0,
            f_cyc0: 0,
            f_ins0: 0,
            init_sp: None,
            min_sp: u32::MAX,
            stack_limit: None,
            use_blocks: true,
            blocks: blocks::Blocks::new(slots),
        };
        // decode every halfword slot of the code span up front (slots inside 4-byte
        // instructions or data hold whatever they decode to; only executed slots matter)
        for i in 0..m.dcache.len() {
            let pc = m.dbase.wrapping_add(2 * i as u32);
            m.dcache[i].d = m.decode_at(pc).unwrap_or(Decoded::trap(2));
        }
        let (f, lo, hi) = m.func_of(m.pc);
        m.cur_func = f;
        m.cur_lo = lo;
        m.cur_hi = hi;
        m
    }

    /// Function index of `pc` (functions.len() = unknown) and its [lo, hi) range.
    pub fn func_of(&self, pc: u32) -> (usize, u32, u32) {
        let f = &self.functions;
        let n = f.len();
        let i = f.partition_point(|s| s.addr <= pc);
        if i == 0 {
            return (n, 0, f.first().map(|s| s.addr).unwrap_or(u32::MAX));
        }
        let s = &f[i - 1];
        let next = f.get(i).map(|s| s.addr).unwrap_or(u32::MAX);
        let end = if s.size > 0 { s.addr.saturating_add(s.size).min(next) } else { next };
        if pc < end { (i - 1, s.addr, end) } else { (n, end, next) }
    }

    #[inline(never)]
    fn switch_func(&mut self, target: u32, cycles: u64, call: bool) {
        if call {
            let (f, _, _) = self.func_of(target);
            self.fstats[f].calls += 1;
        }
        if target >= self.cur_lo && target < self.cur_hi { return; }
        let s = &mut self.fstats[self.cur_func];
        s.cycles += cycles - self.f_cyc0;
        s.instret += self.instret - self.f_ins0;
        self.f_cyc0 = cycles;
        self.f_ins0 = self.instret;
        let (f, lo, hi) = self.func_of(target);
        self.cur_func = f;
        self.cur_lo = lo;
        self.cur_hi = hi;
    }

    /// Close the per-function accounting (call once at the end).
    pub fn finish_funcs(&mut self, cycles: u64) {
        let s = &mut self.fstats[self.cur_func];
        s.cycles += cycles - self.f_cyc0;
        s.instret += self.instret - self.f_ins0;
        self.f_cyc0 = cycles;
        self.f_ins0 = self.instret;
    }

    /// Per-mnemonic counts (index = mnemonic id).
    pub fn mnemonic_counts(&self) -> Vec<u64> {
        let mut c = self.mnem_slow.clone();
        for s in &self.dcache {
            if s.count > 0 { c[s.d.mnem as usize] += s.count; }
        }
        c
    }

    /// Execution count and decoded record for an address inside the decode cache.
    pub fn slot(&self, pc: u32) -> Option<(Decoded, u64)> {
        let i = (pc.wrapping_sub(self.dbase) >> 1) as usize;
        if i < self.dcache.len() { Some((self.dcache[i].d, self.dcache[i].count)) } else { None }
    }

    fn decode_error(&self, pc: u32, e: DecodeError, w: u32) -> SimError {
        let dis = disasm_word(w, pc, self.table);
        let raw = if w & 3 != 3 { format!("0x{:04x}", w & 0xffff) } else { format!("0x{w:08x}") };
        match e {
            DecodeError::Illegal => SimError(format!("illegal instruction {raw} at pc 0x{pc:08x}")),
            DecodeError::Disallowed { mnemonic, ext } => SimError(format!(
                "instruction '{dis}' ({mnemonic}, {raw}) at pc 0x{pc:08x} needs extension {ext}, not in the ISA string '{}'",
                self.isa.text
            )),
        }
    }

    /// rvsim's message for an exception (pc, cause, mtval) the program's handler took: for an
    /// instruction outside the ISA or not decodable the same text as when there is no handler,
    /// otherwise the cause, the instruction and mtval.  Built at exit, not in the run loop.
    pub fn trap_message(&self, (pc, c, tval): (u32, u32, u32)) -> String {
        let w = self.mem.fetch(pc).ok();
        if let (cause::ILLEGAL, Some(w)) = (c, w) {
            if let Err(e) = decode::decode(w, &self.isa, self.table) {
                return self.decode_error(pc, e, w).0;
            }
        }
        let dis = w.map(|w| disasm_word(w, pc, self.table)).unwrap_or_default();
        format!("{} by '{dis}' at pc 0x{pc:08x} (mtval 0x{tval:08x})", cause::name(c))
    }

    #[inline(never)]
    fn decode_at(&self, pc: u32) -> Result<Decoded, SimError> {
        if pc & 2 != 0 && !self.isa.c {
            return Err(SimError(format!("instruction address misaligned: pc 0x{pc:08x} (no C extension)")));
        }
        let w = self.mem.fetch(pc).map_err(|e| SimError(format!("instruction fetch at pc 0x{pc:08x}: {e}")))?;
        Ok(decode::decode(w, &self.isa, self.table).unwrap_or_else(|_| Decoded::trap(if w & 3 == 3 { 4 } else { 2 })))
    }

    #[inline(never)]
    fn trap_error(&self, pc: u32) -> SimError {
        if let Err(e) = self.decode_at(pc) {
            return e;
        }
        match self.mem.fetch(pc) {
            Ok(w) => match decode::decode(w, &self.isa, self.table) {
                Err(e) => self.decode_error(pc, e, w),
                Ok(_) => SimError(format!("internal: trap at decodable pc 0x{pc:08x}")),
            },
            Err(e) => SimError(format!("instruction fetch at pc 0x{pc:08x}: {e}")),
        }
    }

    #[inline(always)]
    fn invalidate(&mut self, addr: u32, size: u32) {
        let o = addr.wrapping_sub(self.dbase);
        if o < self.dspan.wrapping_add(4) {
            self.invalidate_slow(addr, size);
        }
    }
    #[inline(never)]
    fn invalidate_slow(&mut self, addr: u32, size: u32) {
        // an instruction starting up to 2 bytes before the store may overlap it (none before
        // the first slot); slots past the decode cache hold nothing
        let first = (addr.wrapping_sub(self.dbase).saturating_sub(2) >> 1) as usize;
        let last = ((addr + size - 1).wrapping_sub(self.dbase) >> 1) as usize;
        let last = last.min(self.dcache.len() - 1);
        if first > last { return; }
        self.drop_blocks(first, last);
        for i in first..=last {
            // re-decode at once: the cache never holds a stale or undecoded slot
            let s = self.dcache[i];
            self.mnem_slow[s.d.mnem as usize] += s.count;
            let pc = self.dbase.wrapping_add(2 * i as u32);
            let d = self.decode_at(pc).unwrap_or(Decoded::trap(2));
            self.dcache[i] = Slot { d, count: 0 };
        }
    }

    #[cold]
    #[inline(never)]
    fn mem_err(&self, pc: u32, e: MemError) -> SimError {
        let dis = self.mem.fetch(pc).map(|w| disasm_word(w, pc, self.table)).unwrap_or_default();
        SimError(format!("{e} by '{dis}' at pc 0x{pc:08x}"))
    }

    /// The stop of an instruction at `pc` that set sp to `sp`, below the stack limit.
    #[cold]
    #[inline(never)]
    fn stack_overflow(&self, pc: u32, sp: u32) -> SimError {
        let (lim, name) = self.stack_limit.clone().unwrap_or_default();
        let (f, _, _) = self.func_of(pc);
        let func = self.functions.get(f).map(|s| s.name.as_str()).unwrap_or("<unknown>");
        let dis = self.mem.fetch(pc).map(|w| disasm_word(w, pc, self.table)).unwrap_or_default();
        let depth = self.init_sp.map(|s| format!(" ({} bytes of stack in use)", s.wrapping_sub(sp))).unwrap_or_default();
        SimError(format!("stack overflow: {func} set sp to 0x{sp:08x}, {} bytes below the stack limit 0x{lim:08x} ({name}){depth}, by '{dis}' at pc 0x{pc:08x}", lim - sp))
    }

    /// Set the identification CSRs (mvendorid, marchid, mimpid) from the core model.
    pub fn set_hart_ids(&mut self, ids: HartIds) { self.csr.set_ids(ids); }

    /// Bits of the instruction at `pc` (its low 16 bits for a compressed one), for mtval.
    #[cold]
    #[inline(never)]
    fn insn_bits_at(&self, pc: u32) -> u32 { self.mem.fetch(pc).map(insn_bits).unwrap_or(0) }

    /// Cause and mtval of an instruction that cannot execute (fetch fault, misaligned pc,
    /// not decodable, or outside the ISA string).
    #[cold]
    #[inline(never)]
    fn fetch_trap_cause(&self, pc: u32) -> (u32, u32) {
        if pc & 2 != 0 && !self.isa.c { return (cause::INSN_MISALIGNED, pc); }
        match self.mem.fetch(pc) {
            Err(_) => (cause::INSN_ACCESS, pc),
            Ok(w) => (cause::ILLEGAL, insn_bits(w)),
        }
    }

    /// Deliver an exception to the program's handler: Some(handler address), or None when
    /// the run must stop instead (no handler installed, `--stop-on-trap`, the handler's own
    /// first instruction faults, or the same instruction traps again before any `mret`: the
    /// handler faults on its way, which would loop forever).
    #[inline(never)]
    fn deliver_trap(&mut self, pc: u32, cause: u32, tval: u32, idx: usize, mnem: u16) -> Option<u32> {
        let base = self.csr.mtvec() & !3;
        if self.stop_on_trap || self.csr.mtvec() == MTVEC_RESET || pc == base || self.mem.fetch(base).is_err()
            || self.pending_trap == Some((pc, cause))
        {
            return None;
        }
        self.pending_trap = Some((pc, cause));
        // the trapping instruction does not retire: take it out of the execution counts
        if idx < self.dcache.len() { self.dcache[idx].count -= 1; } else { self.mnem_slow[mnem as usize] -= 1; }
        self.traps_taken += 1;
        if self.first_trap.is_none() { self.first_trap = Some((pc, cause, tval)); }
        Some(self.csr.enter_trap(cause, tval, pc))
    }

    /// Run until exit. Returns the program's exit status.
    /// An EBREAK between `slli x0, x0, 0x1f` and `srai x0, x0, 7`: a semihosting call.
    #[inline(never)]
    fn is_semihosting_ebreak(&self, pc: u32, d: &Decoded) -> bool {
        d.len == 4
            && self.mem.fetch(pc.wrapping_sub(4)).ok() == Some(0x01f0_1013)
            && self.mem.fetch(pc.wrapping_add(4)).ok() == Some(0x4070_5013)
    }

    /// The semihosting call of a0 with argument a1 (out of the hot loop).
    #[inline(never)]
    fn semihost_call(&mut self, cyc: u64) -> Result<Outcome, String> {
        self.semihost.call(self.x[10], self.x[11], &mut self.mem, cyc)
    }

    /// The read-modify-write of an AMO at the (aligned) address a; the old value.  Out of the
    /// hot loop (rare, and its code would crowd the registers of the common instructions).
    #[inline(never)]
    fn amo(&mut self, op: Op, a: u32, b: u32) -> Result<u32, MemError> {
        // an AMO that cannot read raises a store/AMO fault
        let old = match self.mem.read::<4>(a) {
            Ok(v) => v,
            Err(MemError::Unmapped { addr, size, .. }) => return Err(MemError::Unmapped { addr, size, store: true }),
            Err(e) => return Err(e),
        };
        let new = match op {
            Op::AmoswapW => b,
            Op::AmoaddW => old.wrapping_add(b),
            Op::AmoxorW => old ^ b,
            Op::AmoandW => old & b,
            Op::AmoorW => old | b,
            Op::AmominW => (old as i32).min(b as i32) as u32,
            Op::AmomaxW => (old as i32).max(b as i32) as u32,
            Op::AmominuW => old.min(b),
            _ => old.max(b), // AmomaxuW
        };
        self.mem.write::<4>(a, new)?;
        self.invalidate(a, 4);
        Ok(old)
    }

    /// A CSR instruction (rs1 value a, cycle `cyc`): the old value, or the message of the
    /// illegal-instruction exception (unknown CSR, write to a read-only one).  Out of the hot loop.
    #[inline(never)]
    fn csr_op(&mut self, pc: u32, d: &Decoded, a: u32, cyc: u64) -> Result<u32, String> {
        let imm = d.imm;
        let csr = (imm & 0xfff) as u32;
        let src = match d.op { Op::Csrrwi | Op::Csrrsi | Op::Csrrci => ((imm >> 16) & 31) as u32, _ => a };
        let writes = matches!(d.op, Op::Csrrw | Op::Csrrwi) || (imm >> 16) & 31 != 0 && matches!(d.op, Op::Csrrsi | Op::Csrrci)
            || (d.rs1 != 0 && matches!(d.op, Op::Csrrs | Op::Csrrc));
        let reads = !(matches!(d.op, Op::Csrrw | Op::Csrrwi) && d.rd == 0);
        let ret = self.instret;
        let mut fault = None;
        let old = if reads { self.csr.read(csr, cyc, ret).unwrap_or_else(|f| { fault = Some(f); 0 }) } else { 0 };
        if writes && fault.is_none() {
            let nv = match d.op { Op::Csrrw | Op::Csrrwi => src, Op::Csrrs | Op::Csrrsi => old | src, _ => old & !src };
            if let Err(f) = self.csr.write(csr, nv, cyc, ret) { fault = Some(f); }
        }
        match fault {
            None => Ok(old),
            Some(f) => {
                let name = crate::disasm::csr_name(csr);
                Err(match f {
                    CsrFault::Missing => format!("unknown CSR {name} {} at pc 0x{pc:08x}", if reads { "read" } else { "written" }),
                    CsrFault::ReadOnly => format!("write to read-only CSR {name} at pc 0x{pc:08x}"),
                })
            }
        }
    }

    /// An extension instruction (Op::ExtR/ExtI/ExtBs) with `a` = x[rs1], `b` = x[rs2].
    #[inline(always)]
    pub(crate) fn ext(&mut self, d: &Decoded, a: u32, b: u32) -> u32 {
        let f = self.ext_fns[d.ext as usize];
        match d.op {
            Op::ExtR => f(&mut self.ext_state, a, b, self.x[d.rs3_i()]),
            Op::ExtI => f(&mut self.ext_state, a, d.imm as u32, self.x[d.rs3_i()]),
            _ => f(&mut self.ext_state, a, b, d.imm as u32),
        }
    }

    pub fn run<T: Timing, O: Observer>(&mut self, t: &mut T, obs: &mut O) -> Result<i32, SimError> {
        let mut pc = self.pc;
        let r = self.run_inner(t, obs, &mut pc);
        self.pc = pc;
        self.flush_block_counts();
        self.finish_funcs(t.cycles());
        r
    }

    #[inline(never)]
    fn run_inner<T: Timing, O: Observer>(&mut self, t: &mut T, obs: &mut O, pcref: &mut u32) -> Result<i32, SimError> {
        let mut pc = *pcref;
        let check_align = !self.isa.c;
        macro_rules! bail { ($e:expr) => {{ *pcref = pc; return Err($e); }} }
        // An exception: continue at the program's handler, or stop with `$err`.
        macro_rules! raise { ($idx:expr, $mnem:expr, $cause:expr, $tval:expr, $err:expr) => {{
            let (c, tv) = ($cause, $tval);
            match self.deliver_trap(pc, c, tv, $idx, $mnem) {
                Some(h) => {
                    t.trap();
                    if O::ACTIVE { obs.trap(pc, c, tv, h, t.now()); }
                    if h < self.cur_lo || h >= self.cur_hi { self.switch_func(h, t.cycles(), false); }
                    pc = h;
                    continue;
                }
                None => bail!($err),
            }
        }}}
        loop {
            if !O::TIMED && self.use_blocks {
                self.run_blocks(t, obs, &mut pc);
            }
            let idx = (pc.wrapping_sub(self.dbase) >> 1) as usize;
            let d = if idx < self.dcache.len() {
                let slot = &mut self.dcache[idx];
                slot.count += 1;
                slot.d
            } else {
                let d = match self.decode_at(pc) {
                    Ok(d) => d,
                    Err(e) => {
                        self.mnem_slow[Op::Trap as usize] += 1;
                        let (c, tv) = self.fetch_trap_cause(pc);
                        t.issue(pc, &Decoded::trap(2), &self.x);
                        raise!(idx, Op::Trap as u16, c, tv, e)
                    }
                };
                self.mnem_slow[d.mnem as usize] += 1;
                d
            };
            if self.instret >= self.max_insns {
                bail!(SimError(format!("instruction budget exceeded: {} instructions retired (--max-insns), pc 0x{pc:08x}", self.instret)));
            }
            let before = if O::ACTIVE { t.stalls() } else { [0; N_STALLS] };
            let mut stall = t.issue(pc, &d, &self.x);
            let x = &self.x;
            let a = x[d.rs1_i()];
            let b = x[d.rs2_i()];
            let imm = d.imm;
            let mut next = pc.wrapping_add(d.len as u32);
            macro_rules! mem_fault { ($e:expr) => {{
                let e = $e;
                let (c, tv) = mem_cause(&e);
                raise!(idx, d.mnem, c, tv, self.mem_err(pc, e))
            }}}
            macro_rules! load { ($n:literal, $conv:expr) => {{
                let addr = a.wrapping_add(imm as u32);
                if O::ACTIVE { obs.mem(pc, addr, $n, false); }
                match self.mem.read::<$n>(addr) { Ok(v) => $conv(v), Err(e) => mem_fault!(e) }
            }}}
            macro_rules! store { ($n:literal) => {{
                let addr = a.wrapping_add(imm as u32);
                if O::ACTIVE { obs.mem(pc, addr, $n, true); }
                if let Err(e) = self.mem.write::<$n>(addr, b) { mem_fault!(e) }
                self.invalidate(addr, $n);
                if self.reservation == Some(addr & !3) { self.reservation = None; }
                0
            }}}
            macro_rules! branch { ($cond:expr) => {{
                let taken = $cond;
                if taken {
                    next = pc.wrapping_add(imm as u32);
                    if check_align && next & 3 != 0 {
                        raise!(idx, d.mnem, cause::INSN_MISALIGNED, next, SimError(format!("instruction address misaligned: branch at pc 0x{pc:08x} to 0x{next:08x}")))
                    }
                }
                stall += t.control(pc, &d, taken, next);
                if taken && (next < self.cur_lo || next >= self.cur_hi) {
                    self.instret += 1;
                    self.switch_func(next, t.cycles(), false);
                    self.instret -= 1;
                }
                0
            }}}
            let v: u32 = match d.op {
                Op::Lw => load!(4, |v| v),
                Op::Sw => store!(4),
                Op::Auipc => pc.wrapping_add(imm as u32),
                Op::Jal | Op::Jalr => {
                    let target = if d.op == Op::Jal { pc.wrapping_add(imm as u32) } else { a.wrapping_add(imm as u32) & !1 };
                    if check_align && target & 3 != 0 {
                        raise!(idx, d.mnem, cause::INSN_MISALIGNED, target, SimError(format!("instruction address misaligned: jump at pc 0x{pc:08x} to 0x{target:08x}")))
                    }
                    next = target;
                    stall += t.control(pc, &d, true, next);
                    let link = d.rd == 1 || d.rd == 5;
                    if link || next < self.cur_lo || next >= self.cur_hi {
                        self.instret += 1;
                        self.switch_func(next, t.cycles(), link);
                        self.instret -= 1;
                    }
                    pc.wrapping_add(d.len as u32)
                }
                Op::Beq => branch!(a == b),
                Op::Bne => branch!(a != b),
                Op::Blt => branch!((a as i32) < (b as i32)),
                Op::Bge => branch!((a as i32) >= (b as i32)),
                Op::Bltu => branch!(a < b),
                Op::Bgeu => branch!(a >= b),
                Op::Lb => load!(1, |v: u32| v as u8 as i8 as i32 as u32),
                Op::Lh => load!(2, |v: u32| v as u16 as i16 as i32 as u32),
                Op::Lbu => load!(1, |v| v),
                Op::Lhu => load!(2, |v| v),
                Op::Sb => store!(1),
                Op::Sh => store!(2),
                Op::Addi | Op::Add | Op::Lui | Op::Slti | Op::Sltiu | Op::Xori | Op::Ori | Op::Andi | Op::Slli | Op::Srli | Op::Srai
                | Op::Sub | Op::Sll | Op::Slt | Op::Sltu | Op::Xor | Op::Srl | Op::Sra | Op::Or | Op::And
                | Op::Mul | Op::Mulh | Op::Mulhsu | Op::Mulhu | Op::Div | Op::Divu | Op::Rem | Op::Remu => alu(d.op, a, b, imm),
                Op::ExtR | Op::ExtI | Op::ExtBs => self.ext(&d, a, b),
                Op::Fence | Op::FenceI => 0,
                Op::Csrrw | Op::Csrrs | Op::Csrrc | Op::Csrrwi | Op::Csrrsi | Op::Csrrci => {
                    match self.csr_op(pc, &d, a, t.now()) {
                        Ok(old) => old,
                        Err(msg) => raise!(idx, d.mnem, cause::ILLEGAL, self.insn_bits_at(pc), SimError(msg)),
                    }
                }
                Op::LrW => {
                    if a & 3 != 0 { mem_fault!(MemError::Misaligned { addr: a, size: 4, store: false }) }
                    if O::ACTIVE { obs.mem(pc, a, 4, false); }
                    let v = match self.mem.read::<4>(a) { Ok(v) => v, Err(e) => mem_fault!(e) };
                    self.reservation = Some(a);
                    v
                }
                Op::ScW => {
                    if a & 3 != 0 { mem_fault!(MemError::Misaligned { addr: a, size: 4, store: true }) }
                    if self.reservation == Some(a) {
                        if O::ACTIVE { obs.mem(pc, a, 4, true); }
                        if let Err(e) = self.mem.write::<4>(a, b) { mem_fault!(e) }
                        self.invalidate(a, 4);
                        self.reservation = None;
                        0
                    } else {
                        // "no SC.W instruction shall retire unless it passes memory permission
                        // checks" (Zalrsc): a failing SC still faults where a store would
                        if let Err(e) = self.mem.check_write::<4>(a) { mem_fault!(e) }
                        self.reservation = None;
                        1
                    }
                }
                Op::AmoswapW | Op::AmoaddW | Op::AmoxorW | Op::AmoandW | Op::AmoorW
                | Op::AmominW | Op::AmomaxW | Op::AmominuW | Op::AmomaxuW => {
                    if a & 3 != 0 { mem_fault!(MemError::Misaligned { addr: a, size: 4, store: true }) }
                    if O::ACTIVE { obs.mem(pc, a, 4, true); }
                    match self.amo(d.op, a, b) { Ok(old) => old, Err(e) => mem_fault!(e) }
                }
                Op::Ebreak => {
                    if !self.is_semihosting_ebreak(pc, &d) {
                        // mtval 0 (the specification also allows the pc; QEMU writes 0)
                        raise!(idx, d.mnem, cause::BREAKPOINT, 0, SimError(format!("ebreak (breakpoint) at pc 0x{pc:08x} outside a semihosting sequence")))
                    }
                    let cyc = t.cycles();
                    if O::ACTIVE { obs.semihost(pc, self.x[10], self.x[11], &self.mem); }
                    match self.semihost_call(cyc) {
                        Ok(Outcome::Continue(r)) => { self.x[10] = r; 0 } // result in a0 (d.rd = 0)
                        Ok(Outcome::Exit(code)) => {
                            self.instret += 1;
                            if O::ACTIVE { let st = delta(&t.stalls(), &before); obs.insn(pc, &d, self.x[10], t.now(), &st, &self.mem); }
                            *pcref = pc;
                            return Ok(code);
                        }
                        Err(e) => bail!(SimError(format!("{e} (pc 0x{pc:08x})"))),
                    }
                }
                Op::Ecall => raise!(idx, d.mnem, cause::ECALL_M, 0, SimError(format!("ecall at pc 0x{pc:08x} with no trap handler installed (mtvec); for I/O use semihosting"))),
                Op::Mret => {
                    next = self.csr.mret();
                    self.pending_trap = None;
                    t.mret();
                    if next < self.cur_lo || next >= self.cur_hi {
                        self.instret += 1;
                        self.switch_func(next, t.cycles(), false);
                        self.instret -= 1;
                    }
                    0
                }
                // no interrupt can become pending (none are modelled): wait-for-interrupt is a nop
                Op::Wfi => 0,
                Op::Trap | Op::Undecoded => {
                    let (c, tv) = self.fetch_trap_cause(pc);
                    // on the stopping path the error is built lazily (it re-decodes for its message)
                    raise!(idx, d.mnem, c, tv, {
                        if idx < self.dcache.len() { self.dcache[idx].count -= 1; }
                        self.trap_error(pc)
                    })
                }
            };
            let rd = d.rd_i();
            self.x[rd] = v;
            self.x[0] = 0;
            if rd == 2 {
                if self.init_sp.is_none() { self.init_sp = Some(v); }
                self.min_sp = self.min_sp.min(v);
                if let Some((lim, _)) = self.stack_limit {
                    if v < lim { bail!(self.stack_overflow(pc, v)) }
                }
            }
            self.instret += 1;
            if O::ACTIVE { let st = delta(&t.stalls(), &before); obs.insn(pc, &d, self.x[rd], t.now(), &st, &self.mem); }
            let _ = stall;
            // falling through into the next function (a taken jump has switched already)
            if next < self.cur_lo || next >= self.cur_hi { self.switch_func(next, t.cycles(), false); }
            pc = next;
        }
    }
}

/// The result of a register-to-register or register-immediate instruction of RV32I/M
/// (`a` = x[rs1], `b` = x[rs2]); 0 for any other op.
#[inline(always)]
pub(crate) fn alu(op: Op, a: u32, b: u32, imm: i32) -> u32 {
    match op {
        Op::Addi => a.wrapping_add(imm as u32),
        Op::Add => a.wrapping_add(b),
        Op::Lui => imm as u32,
        Op::Slti => ((a as i32) < imm) as u32,
        Op::Sltiu => (a < imm as u32) as u32,
        Op::Xori => a ^ imm as u32,
        Op::Ori => a | imm as u32,
        Op::Andi => a & imm as u32,
        Op::Slli => a << (imm & 31),
        Op::Srli => a >> (imm & 31),
        Op::Srai => ((a as i32) >> (imm & 31)) as u32,
        Op::Sub => a.wrapping_sub(b),
        Op::Sll => a << (b & 31),
        Op::Slt => ((a as i32) < (b as i32)) as u32,
        Op::Sltu => (a < b) as u32,
        Op::Xor => a ^ b,
        Op::Srl => a >> (b & 31),
        Op::Sra => ((a as i32) >> (b & 31)) as u32,
        Op::Or => a | b,
        Op::And => a & b,
        Op::Mul => a.wrapping_mul(b),
        Op::Mulh => ((a as i32 as i64 * b as i32 as i64) >> 32) as u32,
        Op::Mulhsu => ((a as i32 as i64 * b as u64 as i64) >> 32) as u32,
        Op::Mulhu => ((a as u64 * b as u64) >> 32) as u32,
        Op::Div => if b == 0 { u32::MAX } else { (a as i32).wrapping_div(b as i32) as u32 },
        Op::Divu => if b == 0 { u32::MAX } else { a / b },
        Op::Rem => if b == 0 { a } else { (a as i32).wrapping_rem(b as i32) as u32 },
        Op::Remu => if b == 0 { a } else { a % b },
        _ => 0,
    }
}

#[inline(always)]
fn delta(a: &[u64; N_STALLS], b: &[u64; N_STALLS]) -> [u64; N_STALLS] { std::array::from_fn(|i| a[i] - b[i]) }

/// A raw instruction word as mtval holds it: the low 16 bits of a compressed instruction.
fn insn_bits(w: u32) -> u32 { if w & 3 != 3 { w & 0xffff } else { w } }

/// `mcause` and `mtval` of a failed data access.
fn mem_cause(e: &MemError) -> (u32, u32) {
    match *e {
        MemError::Misaligned { addr, store, .. } => (if store { cause::STORE_MISALIGNED } else { cause::LOAD_MISALIGNED }, addr),
        MemError::Unmapped { addr, store, .. } => (if store { cause::STORE_ACCESS } else { cause::LOAD_ACCESS }, addr),
        MemError::ReadOnly { addr, .. } => (cause::STORE_ACCESS, addr),
    }
}

/// Name for a mnemonic id.
pub fn mnem(id: usize, table: &[ExtInsn]) -> &str {
    if id < N_BASE_OPS { OP_NAMES[id] } else { table[id - N_BASE_OPS].name }
}

pub fn is_ctrl(d: &Decoded) -> bool { d.cls == cls::BRANCH || d.cls == cls::JUMP }
