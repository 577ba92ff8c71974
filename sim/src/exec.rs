//! The executor: a predecoded interpreter, generic over a timing model and an observer (both
//! monomorphised; the no-op observer compiles away). `run_inner` is the per-instruction loop:
//! fetch from the decode cache, `execute` (one arm per group of ops, `decode::Kind`, each a
//! helper of its own), retire; exceptions go to the program's handler or end the run with a
//! `Stop` (stop.rs). Straight-line code runs in the block engine (exec/blocks.rs) when no
//! timed observer watches. What an instruction computes is in exec/semantics.rs, which both
//! engines call; the memory, CSR and control-transfer effects below are shared as well.

use crate::csr::{Csrs, HartIds, MTVEC_RESET};
use crate::decode::{self, op_dispatch, AmoOp, Ctrl, CsrOp, Decoded, ExtOp, Kind, LoadOp, LrscOp, StoreOp, SysOp, N_BASE_OPS, OP_NAMES};
use crate::disasm::disasm_word;
use crate::elf::{LoadedElf, Symbol};
use crate::ext::{ExtInsn, ExtState};
use crate::isa::Isa;
use crate::mem::{MemError, Memory};
use crate::semihost::{Outcome, Semihost};
use crate::timing::{Counters, Timing, N_STALLS};
pub use crate::stop::{Exception, Stop};
use semantics::is_link;

mod blocks;
pub mod semantics;

/// Observes every executed instruction (trace, profile, later the taint tracker).
/// Sources are `d.rs1/rs2/rs3`, the destination `d.rd`; memory addresses come via `mem`.
pub trait Observer {
    const ACTIVE: bool;
    /// `insn` reads `cycle` and `stalls` (trace, profile): the observer sees every instruction
    /// on the per-instruction loop. An untimed observer (the constant-time checker) also runs
    /// on the block engine, which times blocks as a whole and passes cycle 0 and no stalls.
    const TIMED: bool = true;
    /// after execution: `kind` is `d.op.kind()` (a constant where the engines specialise an
    /// instruction to its op, so that an observer's match on it folds away too), `rd_val` its
    /// result (now in `d.rd` unless that is x0; sc.w: 0 iff it stored), `cycle` the issue
    /// cycle, `stalls` the stall + penalty cycles of this instruction by cause
    /// (timing::STALL_NAMES)
    fn insn(&mut self, _pc: u32, _d: &Decoded, _kind: Kind, _rd_val: u32, _cycle: u64, _stalls: &[u64; N_STALLS], _mem: &Memory) {}
    /// `mem` (for a load or store, at data address `addr`) and `insn` on the block engine's
    /// fast path (`quiet` said yes), with no cycle and no stalls: an observer may leave out
    /// its reporting there, so that the path makes no call. `plain`: only a store may have
    /// x0 as `d.rd` (a constant where the engine knows it).
    #[inline(always)]
    fn insn_quiet(&mut self, pc: u32, d: &Decoded, kind: Kind, rd_val: u32, addr: u32, _plain: bool, mem: &Memory) {
        match kind {
            Kind::Load(op) => self.mem(pc, addr, op.size(), false),
            Kind::Store(op) => self.mem(pc, addr, op.size(), true),
            _ => {}
        }
        self.insn(pc, d, kind, rd_val, 0, &[0; N_STALLS], mem);
    }
    /// Would `insn` for the load or store `d` at data address `addr` only update the
    /// observer's own state in place (no report, no allocation)?
    #[inline(always)]
    fn quiet(&self, _d: &Decoded, _kind: Kind, _addr: u32) -> bool { true }
    /// a data memory access by the instruction at `pc`
    fn mem(&mut self, _pc: u32, _addr: u32, _size: u32, _store: bool) {}
    /// a semihosting call (`op` = a0, `arg` = a1) about to be performed at `pc`
    fn semihost(&mut self, _pc: u32, _op: u32, _arg: u32, _mem: &Memory) {}
    /// the instruction at `pc` raised exception `cause` and the program's handler at
    /// `handler` takes it (the instruction did not retire; `insn` is not called for it)
    fn trap(&mut self, _pc: u32, _cause: u32, _tval: u32, _handler: u32, _cycle: u64) {}
    /// Would `insn` change nothing and report nothing for instructions that only read and
    /// write registers (ALU, multiply and extension ops, branches, jumps) for as long as only
    /// such instructions run? The block engine then runs a block of them unobserved (the
    /// constant-time checker: while no register and no custom state holds a secret).
    fn idle_on_registers(&self) -> bool { false }
    /// Observation of a whole block body after it ran (the constant-time checker's memo of
    /// block taint transfers): with `BLOCKS`, the block engine asks `block_begin` before a
    /// body runs; given Some(log), it runs the body with only the data addresses of its loads
    /// and stores recorded (`AddrLog`) and passes them, with how many instructions ran
    /// (`ran`; `n` addresses), to `block_done`, in place of `insn` for each. `id` names the
    /// block until the engine drops its blocks (then ids are not reused).
    const BLOCKS: bool = false;
    /// bodies shorter than this are observed instruction by instruction
    const BLOCK_MIN: usize = usize::MAX;
    fn block_begin(&mut self, _id: u64, _body: &[Decoded]) -> Option<Box<AddrBuf>> { None }
    fn block_done(&mut self, _id: u64, _body: &[Decoded], _pc: u32, _ran: usize, _log: Box<AddrBuf>, _n: usize) {}
}
pub struct NoObserver;
impl Observer for NoObserver { const ACTIVE: bool = false; const TIMED: bool = false; }

/// Data addresses of a block body's loads and stores, in order (a body has fewer instructions).
pub type AddrBuf = [u32; ADDR_LOG];
pub const ADDR_LOG: usize = 1024;

/// The observer of a body run for `Observer::block_done`: it records each load's and store's
/// address, and nothing else (no call, no report: every access is `quiet`).
pub struct AddrLog { pub buf: Box<AddrBuf>, pub n: usize, addr: u32 }

impl AddrLog {
    pub fn new(buf: Box<AddrBuf>) -> AddrLog { AddrLog { buf, n: 0, addr: 0 } }
    #[inline(always)]
    fn push(&mut self, addr: u32) {
        // (masked: no bounds check; a body holds fewer than ADDR_LOG accesses)
        self.buf[self.n & (ADDR_LOG - 1)] = addr;
        self.n += 1;
    }
}

impl Observer for AddrLog {
    const ACTIVE: bool = true;
    const TIMED: bool = false;
    #[inline(always)]
    fn insn_quiet(&mut self, _pc: u32, _d: &Decoded, kind: Kind, _rd_val: u32, addr: u32, _plain: bool, _mem: &Memory) {
        if matches!(kind, Kind::Load(_) | Kind::Store(_)) { self.push(addr); }
    }
    fn mem(&mut self, _pc: u32, addr: u32, _size: u32, _store: bool) { self.addr = addr; }
    fn insn(&mut self, _pc: u32, _d: &Decoded, kind: Kind, _rd_val: u32, _cycle: u64, _stalls: &[u64; N_STALLS], _mem: &Memory) {
        if matches!(kind, Kind::Load(_) | Kind::Store(_)) { self.push(self.addr); }
    }
}

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
    /// whole trips of loops of several blocks whose timing the block engine applied at once
    pub trips_deferred: u64,
    /// the timing counters and instret at the last two reads of the cycle counter (`cycle`,
    /// `mcycle`), older first: a program that reads it around the code it times (rvlab's
    /// harness does) gets that code's stalls, mispredicts and misses from `cycle_window`
    cycle_reads: [Option<(Counters, u64)>; 2],
}

/// One decode-cache slot: the decoded instruction and how often it executed.
#[derive(Clone, Copy)]
#[repr(C, align(8))]
struct Slot { d: Decoded, count: u64 }

/// What ends an instruction other than retiring.
enum Event {
    /// it raised an exception (the handler takes it, or the run stops)
    Raise(Exception),
    /// the program exited (semihosting), with this status
    Exit(i32),
    Stop(Stop),
}

impl From<Exception> for Event {
    fn from(e: Exception) -> Event { Event::Raise(e) }
}
impl From<MemError> for Event {
    fn from(e: MemError) -> Event { Event::Raise(Exception::Mem(e)) }
}

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
            dcache: vec![Slot { d: Decoded::undecoded(), count: 0 }; slots],
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
            trips_deferred: 0,
            cycle_reads: [None; 2],
            blocks: blocks::Blocks::new(slots),
        };
        // slots are decoded when first reached (`decoded`): a short run decodes only the code
        // it executes, not the whole span
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

    /// Per-function statistics: control goes to `target` (after the instruction that sends
    /// it there retired; `link`: a call).
    #[inline(always)]
    fn enter(&mut self, target: u32, cycles: u64, link: bool) {
        if link || target < self.cur_lo || target >= self.cur_hi { self.switch_func(target, cycles, link); }
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

    /// What happened between the last two reads of the cycle counter: (counters, instructions).
    pub fn cycle_window(&self) -> Option<(Counters, u64)> {
        match self.cycle_reads {
            [Some((a, ia)), Some((b, ib))] => Some((b.since(&a), ib - ia)),
            _ => None,
        }
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
        let s = self.dcache.get(i)?;
        Some((if s.d.is_undecoded() { self.decode_slot(i) } else { s.d }, s.count))
    }

    /// The decoded instruction of decode-cache slot `i`, decoded now (and kept) the first
    /// time. (Slots inside 4-byte instructions or data hold whatever they decode to; only
    /// executed ones matter.)
    #[inline(always)]
    fn decoded(&mut self, i: usize) -> Decoded {
        let d = self.dcache[i].d;
        if !d.is_undecoded() { return d; }
        let d = self.decode_slot(i);
        self.dcache[i].d = d;
        d
    }
    #[cold]
    #[inline(never)]
    fn decode_slot(&self, i: usize) -> Decoded {
        self.decode_at(self.dbase.wrapping_add(2 * i as u32)).unwrap_or(Decoded::trap(2))
    }

    /// The instruction at `pc`: decoded (`Op::Trap` when the word does not decode or is
    /// outside the ISA), or the exception its fetch raises.
    #[inline(never)]
    fn decode_at(&self, pc: u32) -> Result<Decoded, Exception> {
        if pc & 2 != 0 && !self.isa.c {
            return Err(Exception::FetchMisaligned);
        }
        let w = self.mem.fetch(pc).map_err(Exception::FetchFault)?;
        Ok(decode::decode(w, &self.isa, self.table).unwrap_or_else(|_| Decoded::trap(if w & 3 == 3 { 4 } else { 2 })))
    }

    /// The exception of an `Op::Trap` instruction at `pc`: its fetch's, or illegal instruction.
    #[cold]
    #[inline(never)]
    fn trap_exception(&self, pc: u32) -> Exception {
        match self.decode_at(pc) {
            Err(e) => e,
            Ok(_) => Exception::Illegal { word: self.mem.fetch(pc).unwrap_or(0) },
        }
    }

    /// The `Stop` for exception `e` of the instruction at `pc` when no handler takes it.
    #[cold]
    #[inline(never)]
    fn stop_for(&self, pc: u32, e: Exception) -> Stop {
        match e {
            Exception::Illegal { word } => match decode::decode(word, &self.isa, self.table) {
                Err(error) => self.decode_stop(pc, word, error),
                Ok(_) => Stop::Internal { pc },
            },
            exception => {
                let insn = self.mem.fetch(pc).map(|w| disasm_word(w, pc, self.table)).unwrap_or_default();
                Stop::Trap { pc, exception, insn }
            }
        }
    }

    fn decode_stop(&self, pc: u32, word: u32, error: decode::DecodeError) -> Stop {
        Stop::Decode { pc, word, insn: disasm_word(word, pc, self.table), error, isa: self.isa.text.clone() }
    }

    /// rvsim's message for an exception (pc, cause, mtval) the program's handler took: for an
    /// instruction outside the ISA or not decodable the same text as when there is no handler,
    /// otherwise the cause, the instruction and mtval.  Built at exit, not in the run loop.
    pub fn trap_message(&self, (pc, c, tval): (u32, u32, u32)) -> String {
        let w = self.mem.fetch(pc).ok();
        if let (crate::csr::cause::ILLEGAL, Some(w)) = (c, w) {
            if let Err(e) = decode::decode(w, &self.isa, self.table) {
                return self.decode_stop(pc, w, e).to_string();
            }
        }
        let dis = w.map(|w| disasm_word(w, pc, self.table)).unwrap_or_default();
        format!("{} by '{dis}' at pc 0x{pc:08x} (mtval 0x{tval:08x})", crate::csr::cause::name(c))
    }

    /// Might a store at `addr` overwrite decoded code (a slot, or the upper half of a 4-byte
    /// instruction in the last one)?
    #[inline(always)]
    fn stores_into_code(&self, addr: u32) -> bool { addr.wrapping_sub(self.dbase) < self.dspan.wrapping_add(4) }

    #[inline(always)]
    fn invalidate(&mut self, addr: u32, size: u32) {
        if self.stores_into_code(addr) {
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
            // decoded again when next reached: the cache never holds a stale slot (a slot
            // with a count was executed, so decoded)
            let s = self.dcache[i];
            self.mnem_slow[s.d.mnem as usize] += s.count;
            self.dcache[i] = Slot { d: Decoded::undecoded(), count: 0 };
        }
    }

    /// The stop of an instruction at `pc` that set sp to `sp`, below the stack limit.
    #[cold]
    #[inline(never)]
    fn stack_overflow(&self, pc: u32, sp: u32) -> Stop {
        let (limit, limit_name) = self.stack_limit.clone().unwrap_or_default();
        let (f, _, _) = self.func_of(pc);
        let func = self.functions.get(f).map(|s| s.name.clone()).unwrap_or_else(|| "<unknown>".into());
        let insn = self.mem.fetch(pc).map(|w| disasm_word(w, pc, self.table)).unwrap_or_default();
        Stop::StackOverflow { pc, sp, limit, limit_name, func, insn, in_use: self.init_sp.map(|s| s.wrapping_sub(sp)) }
    }

    /// Set the identification CSRs (mvendorid, marchid, mimpid) from the core model.
    pub fn set_hart_ids(&mut self, ids: HartIds) { self.csr.set_ids(ids); }

    /// x[rd] = v (x0 stays 0), tracking the lowest stack pointer.
    #[inline(always)]
    fn write_rd(&mut self, rd: usize, v: u32) {
        if rd != 0 { self.x[rd] = v; }
        if rd == 2 {
            if self.init_sp.is_none() { self.init_sp = Some(v); }
            self.min_sp = self.min_sp.min(v);
        }
    }

    /// A load by the instruction at `pc` (both engines).
    #[inline(always)]
    fn load<O: Observer>(&self, obs: &mut O, pc: u32, op: LoadOp, addr: u32) -> Result<u32, MemError> {
        if O::ACTIVE { obs.mem(pc, addr, op.size(), false); }
        semantics::load(&self.mem, op, addr)
    }

    /// A store by the instruction at `pc` outside the decoded code range (both engines): the
    /// write and the LR reservation.
    #[inline(always)]
    fn store_data<O: Observer>(&mut self, obs: &mut O, pc: u32, op: StoreOp, addr: u32, v: u32) -> Result<(), MemError> {
        if O::ACTIVE { obs.mem(pc, addr, op.size(), true); }
        semantics::store(&mut self.mem, op, addr, v)?;
        self.clear_reservation(addr);
        Ok(())
    }

    /// A store at `addr` breaks an LR reservation on its word.
    #[inline(always)]
    fn clear_reservation(&mut self, addr: u32) {
        if self.reservation == Some(addr & !3) { self.reservation = None; }
    }

    /// Any store: `store_data`, and a store into the code re-decodes it.
    #[inline(always)]
    fn store<O: Observer>(&mut self, obs: &mut O, pc: u32, op: StoreOp, addr: u32, v: u32) -> Result<(), MemError> {
        self.store_data(obs, pc, op, addr, v)?;
        self.invalidate(addr, op.size());
        Ok(())
    }

    /// An extension-table instruction (both engines).
    #[inline(always)]
    fn ext(&mut self, d: &Decoded, op: ExtOp) -> u32 {
        let (a, b, c) = semantics::ext_operands(d, op, |r| self.x[r]);
        (self.ext_fns[d.ext as usize])(&mut self.ext_state, a, b, c)
    }

    /// Bits of the instruction at `pc` (its low 16 bits for a compressed one), for mtval.
    #[cold]
    #[inline(never)]
    fn insn_bits_at(&self, pc: u32) -> u32 { self.mem.fetch(pc).map(crate::stop::insn_bits).unwrap_or(0) }

    /// Deliver exception `e` of the instruction at `pc` to the program's handler: Some(handler
    /// address), or None when the run must stop instead (no handler installed, `--stop-on-trap`,
    /// the handler's own first instruction faults, or the same instruction traps again before
    /// any `mret`: the handler faults on its way, which would loop forever).
    #[inline(never)]
    fn deliver_trap(&mut self, pc: u32, e: &Exception) -> Option<u32> {
        let (cause, tval) = e.cause_tval(pc);
        let base = self.csr.mtvec() & !3;
        if self.stop_on_trap || self.csr.mtvec() == MTVEC_RESET || pc == base || self.mem.fetch(base).is_err()
            || self.pending_trap == Some((pc, cause))
        {
            return None;
        }
        self.pending_trap = Some((pc, cause));
        self.traps_taken += 1;
        if self.first_trap.is_none() { self.first_trap = Some((pc, cause, tval)); }
        Some(self.csr.enter_trap(cause, tval, pc))
    }

    /// The instruction at `pc` (decode-cache slot `idx`, statistics id `mnem`) raised `e`: it
    /// does not retire; the handler takes the exception (its address), or the run stops.
    #[cold]
    #[inline(never)]
    fn raise<T: Timing, O: Observer>(&mut self, t: &mut T, obs: &mut O, pc: u32, idx: usize, mnem: u16, e: Exception) -> Result<u32, Stop> {
        if idx < self.dcache.len() { self.dcache[idx].count -= 1; } else { self.mnem_slow[mnem as usize] -= 1; }
        match self.deliver_trap(pc, &e) {
            Some(h) => {
                t.trap();
                if O::ACTIVE { let (c, tv) = e.cause_tval(pc); obs.trap(pc, c, tv, h, t.now()); }
                self.enter(h, t.cycles(), false);
                Ok(h)
            }
            None => Err(self.stop_for(pc, e)),
        }
    }

    /// An EBREAK between `slli x0, x0, 0x1f` and `srai x0, x0, 7`: a semihosting call.
    #[inline(never)]
    fn is_semihosting_ebreak(&self, pc: u32, d: &Decoded) -> bool {
        d.len == 4
            && self.mem.fetch(pc.wrapping_sub(4)).ok() == Some(0x01f0_1013)
            && self.mem.fetch(pc.wrapping_add(4)).ok() == Some(0x4070_5013)
    }

    pub fn run<T: Timing, O: Observer>(&mut self, t: &mut T, obs: &mut O) -> Result<i32, Stop> {
        let mut pc = self.pc;
        let r = self.run_inner(t, obs, &mut pc);
        self.pc = pc;
        self.flush_block_counts();
        self.finish_funcs(t.cycles());
        r
    }

    /// The per-instruction loop (and the block engine's caller): run until the program exits
    /// (its status) or the run stops. `*pcref` = the pc it ended at.
    #[inline(never)]
    fn run_inner<T: Timing, O: Observer>(&mut self, t: &mut T, obs: &mut O, pcref: &mut u32) -> Result<i32, Stop> {
        let mut pc = *pcref;
        let end = loop {
            if !O::TIMED && self.use_blocks {
                self.run_blocks(t, obs, &mut pc);
            }
            let idx = (pc.wrapping_sub(self.dbase) >> 1) as usize;
            let d = if idx < self.dcache.len() {
                self.dcache[idx].count += 1;
                self.decoded(idx)
            } else {
                match self.decode_at(pc) {
                    Ok(d) => { self.mnem_slow[d.mnem as usize] += 1; d }
                    Err(e) => {
                        // a fetch outside the code that faults: the trap takes one issue slot
                        self.mnem_slow[decode::Op::Trap as usize] += 1;
                        t.issue(pc, &Decoded::trap(2), &self.x);
                        match self.raise(t, obs, pc, idx, decode::Op::Trap as u16, e) {
                            Ok(h) => { pc = h; continue; }
                            Err(stop) => break Err(stop),
                        }
                    }
                }
            };
            if self.instret >= self.max_insns {
                break Err(Stop::Budget { pc, instret: self.instret });
            }
            match self.execute(t, obs, pc, &d) {
                Ok(next) => pc = next,
                Err(Event::Raise(e)) => match self.raise(t, obs, pc, idx, d.mnem, e) {
                    Ok(h) => pc = h,
                    Err(stop) => break Err(stop),
                },
                Err(Event::Exit(code)) => break Ok(code),
                Err(Event::Stop(stop)) => break Err(stop),
            }
        };
        *pcref = pc;
        end
    }

    /// Issue, execute and retire `d` at `pc`: the next pc, or how it ended otherwise.
    #[inline(always)]
    fn execute<T: Timing, O: Observer>(&mut self, t: &mut T, obs: &mut O, pc: u32, d: &Decoded) -> Result<u32, Event> {
        let before = if O::ACTIVE { t.stalls() } else { [0; N_STALLS] };
        t.issue(pc, d, &self.x);
        let (a, b) = (self.x[d.rs1_i()], self.x[d.rs2_i()]);
        let seq = pc.wrapping_add(d.len as u32);
        let addr = a.wrapping_add(d.imm as u32);
        let mut link = false;
        // (value written to rd, next pc)
        let (v, next) = op_dispatch!(d.op, K => match K {
            Kind::Alu(op) => (semantics::alu(op, pc, a, b, d.imm), seq),
            Kind::Mul(op) => (semantics::mul(op, a, b), seq),
            Kind::Div(op) => (semantics::div(op, a, b), seq),
            Kind::Load(op) => (self.load(obs, pc, op, addr)?, seq),
            Kind::Store(op) => { self.store(obs, pc, op, addr, b)?; (0, seq) }
            Kind::Branch(op) => (0, self.transfer(t, pc, d, Ctrl::Branch(op), a, b)?),
            Kind::Jump(op) => {
                link = is_link(d.rd);
                (seq, self.transfer(t, pc, d, Ctrl::Jump(op), a, b)?)
            }
            Kind::Ext(op) => (self.ext(d, op), seq),
            Kind::Csr(op) => (self.csr_op(t, pc, d, op, a)?, seq),
            Kind::Lrsc(op) => (self.lrsc(obs, pc, op, a, b)?, seq),
            Kind::Amo(op) => (self.amo(obs, pc, op, a, b)?, seq),
            Kind::System(op) => self.system(t, obs, pc, d, op, before)?,
        });
        self.write_rd(d.rd_i(), v);
        if d.rd == 2 {
            if let Some((lim, _)) = self.stack_limit {
                if v < lim { return Err(Event::Stop(self.stack_overflow(pc, v))); }
            }
        }
        self.instret += 1;
        if O::ACTIVE { let st = delta(&t.stalls(), &before); obs.insn(pc, d, d.op.kind(), v, t.now(), &st, &self.mem); }
        self.enter(next, t.cycles(), link);
        Ok(next)
    }

    /// A branch or jump (after `issue`): the next pc, with the predictor told the outcome.
    #[inline(always)]
    fn transfer<T: Timing>(&mut self, t: &mut T, pc: u32, d: &Decoded, c: Ctrl, a: u32, b: u32) -> Result<u32, Exception> {
        let (taken, next) = semantics::control_target(c, pc, d.len, a, b, d.imm);
        if taken && !self.isa.c && next & 3 != 0 {
            return Err(Exception::TargetMisaligned { target: next, branch: matches!(c, Ctrl::Branch(_)) });
        }
        t.control(pc, d, taken, next);
        Ok(next)
    }

    /// A CSR instruction (rs1 value a): the old value.  Out of the hot loop.
    #[inline(never)]
    fn csr_op<T: Timing>(&mut self, t: &T, pc: u32, d: &Decoded, op: CsrOp, a: u32) -> Result<u32, Exception> {
        let acc = semantics::csr_access(op, d, a);
        let (cyc, ret) = (t.now(), self.instret);
        if acc.reads && matches!(acc.csr, 0xc00 | 0xb00) {
            self.cycle_reads = [self.cycle_reads[1], Some((t.counters(), ret))];
        }
        let mut fault = None;
        let old = if acc.reads { self.csr.read(acc.csr, cyc, ret).unwrap_or_else(|f| { fault = Some(f); 0 }) } else { 0 };
        if acc.writes && fault.is_none() {
            if let Err(f) = self.csr.write(acc.csr, semantics::csr_new(op, old, acc.src), cyc, ret) { fault = Some(f); }
        }
        match fault {
            None => Ok(old),
            Some(fault) => Err(Exception::Csr { csr: acc.csr, fault, read: acc.reads, word: self.insn_bits_at(pc) }),
        }
    }

    /// LR.W / SC.W at the address `a` (SC stores `b`): the value written to rd.
    #[inline(never)]
    fn lrsc<O: Observer>(&mut self, obs: &mut O, pc: u32, op: LrscOp, a: u32, b: u32) -> Result<u32, MemError> {
        match op {
            LrscOp::LrW => {
                if a & 3 != 0 { return Err(MemError::Misaligned { addr: a, size: 4, store: false }); }
                if O::ACTIVE { obs.mem(pc, a, 4, false); }
                let v = self.mem.read::<4>(a)?;
                self.reservation = Some(a);
                Ok(v)
            }
            LrscOp::ScW => {
                if a & 3 != 0 { return Err(MemError::Misaligned { addr: a, size: 4, store: true }); }
                if self.reservation == Some(a) {
                    if O::ACTIVE { obs.mem(pc, a, 4, true); }
                    self.mem.write::<4>(a, b)?;
                    self.invalidate(a, 4);
                    self.reservation = None;
                    Ok(0)
                } else {
                    // "no SC.W instruction shall retire unless it passes memory permission
                    // checks" (Zalrsc): a failing SC still faults where a store would
                    self.mem.check_write::<4>(a)?;
                    self.reservation = None;
                    Ok(1)
                }
            }
        }
    }

    /// The read-modify-write of an AMO at the address `a`: the old value.
    #[inline(never)]
    fn amo<O: Observer>(&mut self, obs: &mut O, pc: u32, op: AmoOp, a: u32, b: u32) -> Result<u32, MemError> {
        if a & 3 != 0 { return Err(MemError::Misaligned { addr: a, size: 4, store: true }); }
        if O::ACTIVE { obs.mem(pc, a, 4, true); }
        // an AMO that cannot read raises a store/AMO fault
        let old = match self.mem.read::<4>(a) {
            Ok(v) => v,
            Err(MemError::Unmapped { addr, size, .. }) => return Err(MemError::Unmapped { addr, size, store: true }),
            Err(e) => return Err(e),
        };
        self.mem.write::<4>(a, semantics::amo(op, old, b))?;
        self.invalidate(a, 4);
        Ok(old)
    }

    /// fence, fence.i, ecall, ebreak (a semihosting call, or a breakpoint), mret, wfi, and an
    /// instruction that cannot execute: (value written to rd, next pc).
    #[inline(never)]
    fn system<T: Timing, O: Observer>(&mut self, t: &mut T, obs: &mut O, pc: u32, d: &Decoded, op: SysOp, before: [u64; N_STALLS]) -> Result<(u32, u32), Event> {
        let seq = pc.wrapping_add(d.len as u32);
        match op {
            // no cache or memory ordering is modelled; no interrupt can become pending (none
            // are modelled), so waiting for one returns at once
            SysOp::Fence | SysOp::FenceI | SysOp::Wfi => Ok((0, seq)),
            SysOp::Ecall => Err(Exception::Ecall.into()),
            SysOp::Ebreak => {
                if !self.is_semihosting_ebreak(pc, d) { return Err(Exception::Breakpoint.into()); }
                let cyc = t.cycles();
                if O::ACTIVE { obs.semihost(pc, self.x[10], self.x[11], &self.mem); }
                match self.semihost.call(self.x[10], self.x[11], &mut self.mem, cyc) {
                    Ok(Outcome::Continue(r)) => { self.x[10] = r; Ok((0, seq)) } // result in a0 (d.rd = 0)
                    Ok(Outcome::Exit(code)) => {
                        // the exiting call retires
                        self.instret += 1;
                        if O::ACTIVE { let st = delta(&t.stalls(), &before); obs.insn(pc, d, d.op.kind(), self.x[10], t.now(), &st, &self.mem); }
                        Err(Event::Exit(code))
                    }
                    Err(error) => Err(Event::Stop(Stop::Semihost { pc, error })),
                }
            }
            SysOp::Mret => {
                let next = self.csr.mret();
                self.pending_trap = None;
                t.mret();
                Ok((0, next))
            }
            SysOp::Trap => Err(self.trap_exception(pc).into()),
        }
    }
}

#[inline(always)]
fn delta(a: &[u64; N_STALLS], b: &[u64; N_STALLS]) -> [u64; N_STALLS] { std::array::from_fn(|i| a[i] - b[i]) }

/// Name for a mnemonic id.
pub fn mnem(id: usize, table: &[ExtInsn]) -> &str {
    if id < N_BASE_OPS { OP_NAMES[id] } else { table[id - N_BASE_OPS].name }
}
