//! `rvsim` command line (docs/interfaces.md §1).

use rvsim::exec::{Machine, NoObserver, Observer, Stop};
use rvsim::isa::Isa;
use rvsim::mem::{MapKind, Memory};
use rvsim::report::{self, Recorder, RunInfo};
use rvsim::timing::{CoreModel, CoreParams, Ideal, Pipeline, Timing};
use std::process::exit;

const USAGE: &str = "usage: rvsim [--isa STR] [--core ideal|e31|hifive1-revb|FILE] [--mul-latency N] [--memory e31|flat] [--max-insns N] [--json] [--json-out FILE] [--stats] [--annotate [N]] [--trace FILE] [--secret ADDR:LEN|SYMBOL|SYMBOL:LEN]... [--stop-on-trap] [--no-blocks] [--version] [--help] ELF";

struct Opts {
    isa: String,
    core: String,
    mul_latency: Option<u32>,
    memory: Option<String>,
    max_insns: u64,
    json: bool,
    json_out: Option<String>,
    stats: bool,
    annotate: Option<usize>,
    trace: Option<String>,
    secret: Vec<String>,
    stop_on_trap: bool,
    no_blocks: bool,
    elf: String,
}

/// `rvsim --help`: the usage line and what each option does.
const HELP: &str = "\
Runs an RV32 ELF and counts its cycles on a model of a small core (default: SiFive E31).
The exit status is the program's (semihosting EXIT); 125 = simulation error, 2 = bad command line.

options:
  --isa STR           ISA string, e.g. rv32imac_zbkb_zknh or rv32im_xcarry (default rv32imac);
                      an instruction outside it traps and names the missing extension
  --core M            ideal (1 cycle per instruction), e31 (default: HiFive1, FE310-G000),
                      hifive1-revb (FE310-G002), or a core parameter file (TOML, see
                      sim/cores/e31.toml)
  --mul-latency N     override the multiplier result latency (E31 manual: 5, seed 000: 2)
  --memory MAP        e31 (flash 0x2040_0000 + 16 KiB DTIM at 0x8000_0000, the default for
                      e31) or flat (256 MiB RAM, the default for ideal)
  --max-insns N       stop with an error after N instructions (default 1e10)
  --stats             print cycles, stalls by cause, mnemonics and functions at exit
  --json              print the statistics as one JSON object on stderr (stdout is the
                      program's own output)
  --json-out FILE     write that JSON object to FILE
  --annotate [N]      disassembly of the N hottest functions (default 5) with execution
                      counts and stall cycles per instruction
  --trace FILE        instruction trace: pc, instruction, register written, cycle
  --secret SPEC       constant-time check: ADDR:LEN, SYMBOL or SYMBOL:LEN marks bytes secret
                      (repeatable); violations are reported at exit
  --stop-on-trap      stop at every exception even if the program installed a handler
  --no-blocks         simulate instruction by instruction instead of by straight-line
                      blocks (same results, slower: a cross-check of the block engine)
  --version           print the version
  -h, --help          this text
";

fn usage_err(msg: impl std::fmt::Display) -> ! {
    eprintln!("rvsim: error: {msg}\n{USAGE}");
    exit(2)
}
fn fail(msg: impl std::fmt::Display) -> ! {
    eprintln!("rvsim: error: {msg}");
    exit(125)
}

fn parse_args() -> Opts {
    use lexopt::prelude::*;
    let mut o = Opts { isa: "rv32imac".into(), core: "e31".into(), mul_latency: None, memory: None, max_insns: 10_000_000_000, json: false, json_out: None, stats: false, annotate: None, trace: None, secret: Vec::new(), stop_on_trap: false, no_blocks: false, elf: String::new() };
    let mut elf = None;
    let mut p = lexopt::Parser::from_env();
    let num = |v: std::ffi::OsString, what: &str| -> u64 {
        let s = v.to_string_lossy().replace('_', "");
        let r = if let Some(h) = s.strip_prefix("0x") { u64::from_str_radix(h, 16).ok() } else if let Some((m, e)) = s.split_once('e') { m.parse::<u64>().ok().and_then(|m| e.parse::<u32>().ok().and_then(|e| 10u64.checked_pow(e).and_then(|p| p.checked_mul(m)))) } else { s.parse().ok() };
        r.unwrap_or_else(|| usage_err(format!("{what}: '{s}' is not a number")))
    };
    loop {
        let arg = match p.next() { Ok(Some(a)) => a, Ok(None) => break, Err(e) => usage_err(e) };
        let val = |p: &mut lexopt::Parser| p.value().unwrap_or_else(|e| usage_err(e));
        match arg {
            Long("isa") => o.isa = val(&mut p).to_string_lossy().into(),
            Long("core") => o.core = val(&mut p).to_string_lossy().into(),
            Long("mul-latency") => { let n = num(val(&mut p), "--mul-latency"); if n == 0 || n > 1000 { usage_err("--mul-latency must be 1..1000") } o.mul_latency = Some(n as u32) }
            Long("memory") => o.memory = Some(val(&mut p).to_string_lossy().into()),
            Long("max-insns") => o.max_insns = num(val(&mut p), "--max-insns"),
            Long("json") => o.json = true,
            Long("json-out") => o.json_out = Some(val(&mut p).to_string_lossy().into()),
            Long("stats") => o.stats = true,
            Long("trace") => o.trace = Some(val(&mut p).to_string_lossy().into()),
            Long("annotate") => {
                let mut n = 5usize;
                if let Some(v) = p.optional_value() {
                    n = num(v, "--annotate") as usize;
                } else if let Ok(mut raw) = p.raw_args() {
                    if let Some(s) = raw.peek().and_then(|s| s.to_str()).and_then(|s| s.parse::<usize>().ok()) {
                        raw.next();
                        n = s;
                    }
                }
                o.annotate = Some(n);
            }
            Long("secret") => o.secret.push(val(&mut p).to_string_lossy().into()),
            Long("stop-on-trap") => o.stop_on_trap = true,
            Long("no-blocks") => o.no_blocks = true,
            Long("help") | Short('h') => { println!("{USAGE}\n\n{HELP}"); exit(0) }
            Long("version") => { println!("rvsim {}", env!("CARGO_PKG_VERSION")); exit(0) }
            Value(v) if elf.is_none() => elf = Some(v.to_string_lossy().into_owned()),
            a => usage_err(a.unexpected()),
        }
    }
    o.elf = elf.unwrap_or_else(|| usage_err("no ELF file given"));
    o
}

fn main() {
    let o = parse_args();
    let table = rvsim::ext::ext_insns();
    let mut customs: Vec<&str> = table.iter().map(|e| e.ext).collect();
    customs.sort();
    customs.dedup();
    let isa = Isa::parse(&o.isa, &customs).unwrap_or_else(|e| usage_err(e));
    let builtin = rvsim::timing::builtin_cores().into_iter().find(|(n, _)| *n == o.core).map(|(_, p)| p);
    let mut params = match (o.core.as_str(), builtin) {
        (_, Some(p)) => p,
        ("ideal", None) => CoreParams::ideal(),
        (path, None) => {
            let text = std::fs::read_to_string(path).unwrap_or_else(|e| usage_err(format!("--core '{path}': not ideal/e31/hifive1-revb and not a readable file: {e}")));
            CoreParams::from_toml(&text).unwrap_or_else(|e| usage_err(format!("{path}: {e}")))
        }
    };
    if let Some(m) = o.mul_latency {
        if params.model == CoreModel::Ideal { usage_err("--mul-latency has no effect on the ideal core (one cycle per instruction)") }
        params.lat_mul = m;
    }
    let map = match &o.memory {
        Some(s) => MapKind::parse(s).unwrap_or_else(|| usage_err(format!("--memory must be e31 or flat, not '{s}'"))),
        // the board map for a pipeline (E31-like) core model, flat RAM for the ideal one
        None => match params.model { CoreModel::Pipeline => MapKind::E31, CoreModel::Ideal => MapKind::Flat },
    };
    let data = std::fs::read(&o.elf).unwrap_or_else(|e| fail(format!("cannot read '{}': {e}", o.elf)));
    let mut mem = Memory::new(map);
    let elf = rvsim::elf::load(&data, &mut mem).unwrap_or_else(|e| fail(format!("{}: {e}", o.elf)));
    // constant-time checker (sim/src/ct.rs): only instantiated with --secret
    let mut ct = if o.secret.is_empty() { None } else {
        let mut c = rvsim::ct::CtChecker::new(table, params.model.variable_div_latency());
        for spec in &o.secret {
            let (a, n) = rvsim::ct::parse_secret(spec, &elf.symbols).unwrap_or_else(|e| usage_err(e));
            c.mark_secret_input(a, n);
        }
        Some(c)
    };
    let mut m = Machine::new(mem, &elf, isa, table, o.elf.clone());
    m.max_insns = o.max_insns;
    m.stop_on_trap = o.stop_on_trap;
    m.use_blocks = !o.no_blocks;
    m.set_hart_ids(params.ids);

    let mut rec = if o.trace.is_some() || o.annotate.is_some() {
        let trace = o.trace.as_ref().map(|p| std::io::BufWriter::new(std::fs::File::create(p).unwrap_or_else(|e| fail(format!("cannot create trace file '{p}': {e}")))));
        Some(Recorder { trace, profile: o.annotate.is_some(), stalls: Default::default(), trace_err: None, table })
    } else { None };

    let core_name = params.name.clone();
    let (res, cycles, stalls, icm, bm, mul_latency) = match params.model {
        CoreModel::Ideal => {
            let mut t = Ideal::default();
            let r = go(&mut m, &mut t, rec.as_mut(), ct.as_mut());
            (r, t.cycles(), t.stalls(), 0, 0, 1)
        }
        CoreModel::Pipeline => {
            let mul_latency = params.lat_mul;
            let mut t = Pipeline::new(params);
            let r = go(&mut m, &mut t, rec.as_mut(), ct.as_mut());
            (r, t.cycles(), t.stalls(), t.icache_misses, t.mispredicts, mul_latency)
        }
    };
    use std::io::Write;
    m.semihost.out.flush().ok();
    if let Some(r) = rec.as_mut() {
        if let Some(w) = r.trace.as_mut() { if let Err(e) = w.flush() { fail(format!("writing trace: {e}")) } }
        if let Some(e) = &r.trace_err { fail(format!("writing trace: {e}")) }
    }
    let code = match res {
        Ok(c) => c,
        Err(stop) => fail(stop),
    };
    let info = RunInfo { exit_code: code, cycles, stalls, core: core_name, mul_latency, memory: map.name().into(), icache_misses: icm, branch_mispredicts: bm };
    if code != 0 {
        if let Some(t) = m.first_trap {
            eprintln!("rvsim: note: the program exited with status {code} after {} exception(s) went to its own trap handler (mtvec); the first: {} (--stop-on-trap stops there)", m.traps_taken, m.trap_message(t));
        }
    }
    if o.stats { eprint!("{}", report::summary(&m, &info)); }
    let ct_report = ct.as_ref().map(|c| rvsim::ct::Report::new(c, &m, &o.elf));
    if let Some(r) = &ct_report { if o.stats || !r.sites.is_empty() { eprint!("{}", r.human()); } }
    if let (Some(n), Some(r)) = (o.annotate, rec.as_ref()) { eprint!("{}", report::annotate(&m, r, n)); }
    if o.json || o.json_out.is_some() {
        let mut j = report::json(&m, &info);
        if let (Some(r), Some(obj)) = (&ct_report, j.as_object_mut()) { r.add_json(obj); }
        let j = j.to_string();
        if o.json { eprintln!("{j}"); }
        if let Some(p) = &o.json_out { std::fs::write(p, j + "\n").unwrap_or_else(|e| fail(format!("cannot write '{p}': {e}"))); }
    }
    exit(code)
}

fn go<T: Timing>(m: &mut Machine, t: &mut T, rec: Option<&mut Recorder>, ct: Option<&mut rvsim::ct::CtChecker>) -> Result<i32, Stop> {
    match (rec, ct) {
        (Some(r), Some(c)) => m.run(t, &mut (r, c)),
        (Some(r), None) => m.run(t, r),
        (None, Some(c)) => m.run(t, c),
        (None, None) => m.run(t, &mut NoObserver),
    }
}
#[allow(dead_code)]
fn _assert_observer<O: Observer>() {}
