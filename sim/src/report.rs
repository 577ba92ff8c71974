//! Statistics: JSON object, human-readable summary, annotated disassembly, trace observer.

use crate::decode::{Decoded, Kind, N_BASE_OPS};
use crate::disasm::{disasm, disasm_word, mnem_name};
use crate::exec::{Machine, Observer};
use crate::mem::Memory;
use crate::timing::{N_STALLS, STALL_NAMES};
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::io::Write;

pub struct RunInfo {
    /// the program's exit status; None when rvsim stopped the run (`error`)
    pub exit_code: Option<i32>,
    /// rvsim's message when it stopped the run (trap without handler, budget, stack limit,
    /// bad semihosting call, ...), None when the program exited
    pub error: Option<String>,
    pub cycles: u64,
    pub stalls: [u64; N_STALLS],
    pub core: String,
    pub mul_latency: u32,
    pub memory: String,
    pub icache_misses: u64,
    pub branch_mispredicts: u64,
}

/// Stall cycles by cause, as a JSON object keyed by the causes' names.
fn stall_map(stalls: &[u64; N_STALLS]) -> Map<String, Value> {
    STALL_NAMES.iter().zip(stalls).map(|(n, v)| (n.to_string(), json!(v))).collect()
}

pub fn json(m: &Machine, r: &RunInfo) -> Value {
    let stalls = stall_map(&r.stalls);
    let counts = m.mnemonic_counts();
    let mut mn: Vec<(&str, u64)> = counts.iter().enumerate().filter(|(_, c)| **c > 0).map(|(i, c)| (mnem_name(i as u16, m.table), *c)).collect();
    mn.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let mut mnemonics = Map::new();
    for (n, c) in mn { *mnemonics.entry(n.to_string()).or_insert(json!(0)) = json!(mnemonics.get(n).and_then(|v| v.as_u64()).unwrap_or(0) + c); }
    let mut funcs = Map::new();
    for (i, s) in m.fstats.iter().enumerate() {
        if s.instret == 0 && s.calls == 0 { continue; }
        let name = m.functions.get(i).map(|f| f.name.clone()).unwrap_or_else(|| "<unknown>".into());
        funcs.insert(name, json!({"cycles": s.cycles, "instret": s.instret, "calls": s.calls}));
    }
    let max_stack = m.init_sp.map(|s| s.saturating_sub(m.min_sp)).unwrap_or(0);
    // the code between the last two reads of the cycle counter (what a program timed)
    let window = m.cycle_window().map(|(c, instret)| {
        json!({"cycles": c.cycles, "instret": instret, "stalls": stall_map(&c.stalls), "icache_misses": c.icache_misses,
               "branch_mispredicts": c.mispredicts})
    });
    json!({
        "exit_code": r.exit_code,
        "error": r.error,
        "cycles": r.cycles,
        "instret": m.instret,
        "stalls": stalls,
        "mnemonics": mnemonics,
        "functions": funcs,
        "max_stack_bytes": max_stack,
        "core": r.core,
        "isa": m.isa.text,
        "mul_latency": r.mul_latency,
        "memory": r.memory,
        "icache_misses": r.icache_misses,
        "branch_mispredicts": r.branch_mispredicts,
        "traps": m.traps_taken,
        "first_trap": m.first_trap.map(|t| m.trap_message(t)),
        "cycle_window": window,
    })
}

pub fn summary(m: &Machine, r: &RunInfo) -> String {
    let mut s = String::new();
    use std::fmt::Write as _;
    let _ = writeln!(s, "rvsim: core {} (mul latency {}), memory {}, isa {}", r.core, r.mul_latency, r.memory, m.isa.text);
    let cpi = if m.instret > 0 { r.cycles as f64 / m.instret as f64 } else { 0.0 };
    let status = match (&r.exit_code, &r.error) { (Some(c), _) => c.to_string(), _ => "none (stopped by rvsim)".into() };
    let _ = writeln!(s, "  exit code {status}  cycles {}  instret {}  CPI {:.3}", r.cycles, m.instret, cpi);
    let _ = write!(s, "  stalls:");
    for (n, v) in STALL_NAMES.iter().zip(r.stalls) { let _ = write!(s, " {n} {v}"); }
    let _ = writeln!(s, "\n  icache misses {}  branch mispredicts {}  traps taken {}", r.icache_misses, r.branch_mispredicts, m.traps_taken);
    let _ = writeln!(s, "  max stack bytes {}", m.init_sp.map(|x| x.saturating_sub(m.min_sp)).unwrap_or(0));
    let mut f: Vec<(String, crate::exec::FuncStat)> = m.fstats.iter().enumerate().filter(|(_, s)| s.instret > 0)
        .map(|(i, s)| (m.functions.get(i).map(|f| f.name.clone()).unwrap_or_else(|| "<unknown>".into()), *s)).collect();
    f.sort_by(|a, b| b.1.cycles.cmp(&a.1.cycles));
    let _ = writeln!(s, "  {:>12} {:>12} {:>8}  function (self)", "cycles", "instret", "calls");
    for (n, st) in f.iter().take(15) { let _ = writeln!(s, "  {:>12} {:>12} {:>8}  {n}", st.cycles, st.instret, st.calls); }
    let counts = m.mnemonic_counts();
    let mut mn: Vec<(usize, u64)> = counts.iter().copied().enumerate().filter(|(_, c)| *c > 0).collect();
    mn.sort_by(|a, b| b.1.cmp(&a.1));
    let _ = write!(s, "  mnemonics:");
    for (i, c) in mn.iter().take(20) { let _ = write!(s, " {} {}", mnem_name(*i as u16, m.table), c); }
    s.push('\n');
    s
}

/// Trace and per-pc stall profile (only instantiated when requested).
pub struct Recorder {
    /// the trace's destination (a buffered file, or stdout for `--trace -`)
    pub trace: Option<Box<dyn Write>>,
    pub profile: bool,
    pub stalls: HashMap<u32, [u64; N_STALLS]>,
    pub trace_err: Option<String>,
    pub table: &'static [crate::ext::ExtInsn],
}

impl Recorder {
    /// A trace write failed: a reader that went away (`--trace - | head`) ends the trace
    /// quietly, as it would end any Unix tool's output; any other error is reported at exit.
    #[cold]
    fn write_failed(&mut self, e: std::io::Error) {
        if e.kind() == std::io::ErrorKind::BrokenPipe { self.trace = None; return; }
        if self.trace_err.is_none() { self.trace_err = Some(e.to_string()); }
    }
}

impl Observer for Recorder {
    const ACTIVE: bool = true;
    fn insn(&mut self, pc: u32, d: &Decoded, _kind: Kind, rd_val: u32, cycle: u64, stalls: &[u64; N_STALLS], mem: &Memory) {
        if self.profile && stalls.iter().any(|&s| s > 0) {
            let e = self.stalls.entry(pc).or_insert([0; N_STALLS]);
            for i in 0..N_STALLS { e[i] += stalls[i]; }
        }
        if let Some(w) = self.trace.as_mut() {
            let word = mem.fetch(pc).unwrap_or(0);
            let raw = if d.len == 2 { format!("{:04x}    ", word & 0xffff) } else { format!("{word:08x}") };
            let dis = disasm(d, pc, self.table);
            let r = if d.rd != 0 { format!(" {}=0x{rd_val:08x}", crate::disasm::ABI[d.rd as usize]) } else { String::new() };
            if let Err(e) = writeln!(w, "{cycle:>10} {pc:08x} {raw} {dis:<32}{r}") { self.write_failed(e); }
        }
    }
    fn trap(&mut self, pc: u32, cause: u32, tval: u32, handler: u32, cycle: u64) {
        if let Some(w) = self.trace.as_mut() {
            let name = crate::csr::cause::name(cause);
            if let Err(e) = writeln!(w, "{cycle:>10} {pc:08x} trap: {name} (mcause {cause}, mtval 0x{tval:08x}) -> handler 0x{handler:08x}") { self.write_failed(e); }
        }
    }
}

/// Annotated disassembly of the `n` hottest functions (by self cycles).
pub fn annotate(m: &Machine, rec: &Recorder, n: usize) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let mut f: Vec<(usize, crate::exec::FuncStat)> = m.fstats.iter().copied().enumerate().filter(|(i, s)| s.instret > 0 && *i < m.functions.len()).collect();
    f.sort_by(|a, b| b.1.cycles.cmp(&a.1.cycles));
    for (i, st) in f.into_iter().take(n) {
        let (_, lo, hi) = m.func_of(m.functions[i].addr);
        let _ = writeln!(s, "\n== {} (0x{lo:08x}..0x{hi:08x}): {} cycles, {} instructions, {} calls ==", m.functions[i].name, st.cycles, st.instret, st.calls);
        let _ = writeln!(s, "{:>10} {:>8}  {:<10} {}", "count", "stalls", "address", "instruction");
        let mut pc = lo;
        let mut guard = 0;
        while pc < hi && guard < 100_000 {
            guard += 1;
            let Ok(w) = m.mem.fetch(pc) else { break };
            let len = if w & 3 == 3 { 4 } else { 2 };
            let count = m.slot(pc).map(|(_, c)| c).unwrap_or(0);
            let by = rec.stalls.get(&pc).copied().unwrap_or([0; N_STALLS]);
            let st: u64 = by.iter().sum();
            let dis = disasm_word(w, pc, m.table);
            let mut mark = String::new();
            if st > 0 && count > 0 {
                let _ = write!(mark, "{:.2}/exec", st as f64 / count as f64);
                for (k, v) in by.iter().enumerate() { if *v > 0 { let _ = write!(mark, " {}:{}", STALL_NAMES[k], v); } }
            }
            let _ = writeln!(s, "{:>10} {:>8}  {pc:08x}:  {dis:<36} {mark}", count, st);
            pc += len;
        }
    }
    let _ = N_BASE_OPS;
    s
}
