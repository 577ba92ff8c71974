//! `rvsim` command line (docs/interfaces.md §1).

use rvsim::exec::{Machine, NoObserver, Observer, Stop};
use rvsim::isa::Isa;
use rvsim::mem::{MapKind, Memory};
use rvsim::report::{self, Recorder, RunInfo};
use rvsim::timing::{CoreModel, CoreParams, Ideal, Pipeline, Timing};
use std::process::exit;

const USAGE: &str = "usage: rvsim [--isa STR] [--core ideal|e31|hifive1-revb|FILE] [--mul-latency N] [--memory e31|flat] [--max-insns N] [--max-output BYTES] [--json] [--json-out FILE] [--stats] [--annotate [N]] [--trace FILE|-] [--secret ADDR:LEN|SYMBOL|SYMBOL:LEN]... [--stack-limit ADDR|SYMBOL|auto] [--stop-on-trap] [--no-blocks] [--version] [--help] ELF";

struct Opts {
    isa: String,
    core: String,
    mul_latency: Option<u32>,
    memory: Option<String>,
    max_insns: u64,
    max_output: u64,
    json: bool,
    json_out: Option<String>,
    stats: bool,
    annotate: Option<usize>,
    trace: Option<String>,
    secret: Vec<String>,
    stack_limit: Option<String>,
    stop_on_trap: bool,
    no_blocks: bool,
    elf: String,
}

/// `rvsim --help`: the usage line and what each option does.
const HELP: &str = "\
Runs an RV32 ELF and counts its cycles on a model of a small core (default: SiFive E31).
Exit status: the program's (semihosting EXIT); rvsim's own stops are 125 (simulation error) and
2 (bad command line), which a program may also return: to tell them apart, read --json-out FILE
(written for every run that started; `error` is null when the program exited).

options:
  --isa STR           ISA string, e.g. rv32imac_zbkb_zknh or rv32im_xcarry (default rv32imac);
                      an instruction outside it traps and names the missing extension
  --core M            ideal (1 cycle per instruction), e31 (default: HiFive1, FE310-G000),
                      hifive1-revb (FE310-G002), or a core parameter file (TOML, see
                      sim/cores/e31.toml)
  --mul-latency N     override the multiplier result latency (E31 manual: 5, seed 000: 2)
  --memory MAP        e31: the flash region 0x2000_0000-0x3FFF_FFFF (read/execute; programs
                      are linked at 0x2040_0000) and the 16 KiB DTIM at 0x8000_0000, the default
                      for e31; flat: the same flash region writable and 256 MiB of RAM at
                      0x8000_0000, the default for ideal
  --max-insns N       stop with an error after N instructions (default 1e10)
  --max-output BYTES  stop with an error once the program has written more than BYTES to
                      its console (default 64 MiB)
  --stats             print cycles, stalls by cause, mnemonics and functions at exit
  --json              print the statistics as one JSON object on stderr, and nothing else
                      there (the program's own stderr output goes to stdout with its other
                      output); an error stop puts rvsim's message in the object's `error`
  --json-out FILE     write that JSON object to FILE (also when rvsim stops the run)
  --annotate [N]      disassembly of the N hottest functions (default 5) with execution
                      counts and stall cycles per instruction
  --trace FILE        instruction trace, a line per instruction: issue cycle, pc, word,
                      disassembly, register written (- = stdout)
  --secret SPEC       constant-time check: ADDR:LEN, SYMBOL or SYMBOL:LEN marks bytes secret
                      (repeatable); violations are reported at exit
  --stack-limit L     stop with an error when sp goes below L: an address, a symbol, or auto
                      (__stack - __stack_size, the stack region of picolibc's linker script)
  --stop-on-trap      stop at every exception even if the program installed a handler
  --no-blocks         simulate instruction by instruction instead of by straight-line
                      blocks (same results, slower: a cross-check of the block engine)
  --version           print the version
  -h, --help          this text

What a program can do on the host (sim/README.md, \"The guest boundary\"): write to rvsim's
stdout and stderr and read its stdin through semihosting, read the clock; no files, no
commands, memory and time bounded by the map, --max-insns and --max-output.
";

/// rvsim's own text on stderr. A closed stderr (`rvsim ... 2>&1 | head -1`) loses the text
/// quietly, as with any Unix tool, and never ends the run with a panic.
fn say(text: &str) {
    use std::io::Write;
    let _ = std::io::stderr().write_all(text.as_bytes());
}
/// The same on stdout (--help, --version).
fn say_out(text: &str) {
    use std::io::Write;
    let _ = std::io::stdout().write_all(text.as_bytes());
}
fn usage_err(msg: impl std::fmt::Display) -> ! {
    say(&format!("rvsim: error: {msg}\n{USAGE}\n"));
    exit(2)
}
fn fail(msg: impl std::fmt::Display) -> ! {
    say(&format!("rvsim: error: {msg}\n"));
    exit(125)
}

fn parse_args() -> Opts {
    use lexopt::prelude::*;
    let mut o = Opts { isa: "rv32imac".into(), core: "e31".into(), mul_latency: None, memory: None, max_insns: 10_000_000_000, max_output: rvsim::semihost::DEFAULT_MAX_OUTPUT, json: false, json_out: None, stats: false, annotate: None, trace: None, secret: Vec::new(), stack_limit: None, stop_on_trap: false, no_blocks: false, elf: String::new() };
    let mut elf = None;
    let mut p = lexopt::Parser::from_env();
    let num = |v: std::ffi::OsString, what: &str| -> u64 {
        let s = v.to_string_lossy().replace('_', "");
        if s.starts_with('-') { usage_err(format!("{what}: '{s}' is negative; give a count of 0 or more")) }
        let digits = |d: &str, radix: u32| !d.is_empty() && d.chars().all(|c| c.is_digit(radix));
        let r = if let Some(h) = s.strip_prefix("0x") { digits(h, 16).then(|| u64::from_str_radix(h, 16).ok()) }
            else if let Some((m, e)) = s.split_once('e') { (digits(m, 10) && digits(e, 10)).then(|| m.parse::<u64>().ok().and_then(|m| e.parse::<u32>().ok().and_then(|e| 10u64.checked_pow(e).and_then(|p| p.checked_mul(m))))) }
            else { digits(&s, 10).then(|| s.parse().ok()) };
        match r {
            Some(Some(n)) => n,
            Some(None) => usage_err(format!("{what}: '{s}' is too large (at most {})", u64::MAX)),
            None => usage_err(format!("{what}: '{s}' is not a number")),
        }
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
            Long("max-output") => o.max_output = num(val(&mut p), "--max-output"),
            Long("json") => o.json = true,
            Long("json-out") => o.json_out = Some(val(&mut p).to_string_lossy().into()),
            Long("stats") => o.stats = true,
            Long("trace") => o.trace = Some(val(&mut p).to_string_lossy().into()),
            Long("annotate") => {
                let mut n = 5usize;
                if let Some(v) = p.optional_value() {
                    n = num(v, "--annotate") as usize;
                } else if let Ok(mut raw) = p.raw_args() {
                    // `--annotate 3 prog.elf`: a number after it is its N; a word that is not an
                    // option and not a file is a mistyped N, not the ELF
                    if let Some(s) = raw.peek().and_then(|s| s.to_str()).map(str::to_string) {
                        if s.chars().all(|c| c.is_ascii_digit()) && !s.is_empty() {
                            raw.next();
                            n = num(s.into(), "--annotate") as usize;
                        } else if !s.starts_with('-') && !std::path::Path::new(&s).exists() {
                            usage_err(format!("--annotate: '{s}' is not a number of functions (and no such file)"))
                        }
                    }
                }
                o.annotate = Some(n);
            }
            Long("secret") => o.secret.push(val(&mut p).to_string_lossy().into()),
            Long("stack-limit") => o.stack_limit = Some(val(&mut p).to_string_lossy().into()),
            Long("stop-on-trap") => o.stop_on_trap = true,
            Long("no-blocks") => o.no_blocks = true,
            Long("help") | Short('h') => { say_out(&format!("{USAGE}\n\n{HELP}")); exit(0) }
            Long("version") => { say_out(&format!("rvsim {}\n", env!("CARGO_PKG_VERSION"))); exit(0) }
            Value(v) if elf.is_none() => elf = Some(v.to_string_lossy().into_owned()),
            a => usage_err(a.unexpected()),
        }
    }
    o.elf = elf.unwrap_or_else(|| usage_err("no ELF file given"));
    if o.json && (o.stats || o.annotate.is_some()) {
        usage_err("--json puts only the JSON object on stderr: with --stats or --annotate use --json-out FILE")
    }
    o
}

/// Why `--stack-limit` does not resolve.
#[derive(Debug)]
enum StackLimitError {
    /// `auto` without picolibc's __stack and __stack_size symbols
    NoStackSymbols,
    /// neither a number nor a symbol of the ELF
    Unknown(String),
}

impl std::fmt::Display for StackLimitError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            StackLimitError::NoStackSymbols => write!(f, "--stack-limit auto: the ELF has no __stack and __stack_size symbols (picolibc's linker script defines them); give an address or a symbol"),
            StackLimitError::Unknown(spec) => write!(f, "--stack-limit '{spec}': not an address and no such symbol in the ELF"),
        }
    }
}

/// `--stack-limit`: an address, a symbol of the ELF, or `auto` = __stack - __stack_size
/// (picolibc's linker script: the lowest address of its stack region).
fn stack_limit(spec: &str, symbols: &[rvsim::elf::Symbol]) -> Result<(u32, String), StackLimitError> {
    let sym = |n: &str| symbols.iter().find(|s| s.name == n).map(|s| s.addr);
    if spec == "auto" {
        return match (sym("__stack"), sym("__stack_size")) {
            (Some(top), Some(size)) if size <= top => Ok((top - size, format!("__stack - __stack_size = 0x{top:08x} - {size}"))),
            _ => Err(StackLimitError::NoStackSymbols),
        };
    }
    let n = if let Some(h) = spec.strip_prefix("0x") { u32::from_str_radix(h, 16).ok() } else { spec.parse().ok() };
    match (n, sym(spec)) {
        (Some(a), _) => Ok((a, format!("--stack-limit {spec}"))),
        (None, Some(a)) => Ok((a, spec.to_string())),
        _ => Err(StackLimitError::Unknown(spec.to_string())),
    }
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
    if let Some(spec) = &o.stack_limit {
        m.stack_limit = Some(stack_limit(spec, &elf.symbols).unwrap_or_else(|e| usage_err(e)));
    }
    m.semihost.stderr_to_out = o.json;
    m.max_insns = o.max_insns;
    m.semihost.max_output = o.max_output;
    m.stop_on_trap = o.stop_on_trap;
    m.use_blocks = !o.no_blocks;
    m.set_hart_ids(params.ids);

    let mut rec = if o.trace.is_some() || o.annotate.is_some() {
        let trace = o.trace.as_ref().map(|p| -> Box<dyn std::io::Write> {
            if p == "-" { return Box::new(std::io::LineWriter::new(std::io::stdout())); } // whole lines beside the program's output
            Box::new(std::io::BufWriter::new(std::fs::File::create(p).unwrap_or_else(|e| fail(format!("cannot create trace file '{p}': {e}")))))
        });
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
        if let Some(w) = r.trace.as_mut() {
            if let Err(e) = w.flush() {
                if e.kind() != std::io::ErrorKind::BrokenPipe { fail(format!("writing trace: {e}")) }
            }
        }
        if let Some(e) = &r.trace_err { fail(format!("writing trace: {e}")) }
    }
    let (code, error) = match res {
        Ok(c) => (Some(c), None),
        Err(stop) => (None, Some(stop.to_string())),
    };
    let info = RunInfo { exit_code: code, error: error.clone(), cycles, stalls, core: core_name, mul_latency, memory: map.name().into(), icache_misses: icm, branch_mispredicts: bm };
    let ct_report = ct.as_ref().map(|c| rvsim::ct::Report::new(c, &m, &o.elf));
    // the statistics, also of a run rvsim stopped (`error` says why)
    if o.json || o.json_out.is_some() {
        let mut j = report::json(&m, &info);
        if let (Some(r), Some(obj)) = (&ct_report, j.as_object_mut()) { r.add_json(obj); }
        let j = j.to_string();
        if let Some(p) = &o.json_out { std::fs::write(p, j.clone() + "\n").unwrap_or_else(|e| fail(format!("cannot write '{p}': {e}"))); }
        if o.json {
            // machine output only: stderr holds this one line (the rest is in it)
            say(&(j + "\n"));
            exit(if error.is_some() { 125 } else { code.unwrap_or(0) });
        }
    }
    // human output
    if let (Some(c), Some(t)) = (code, m.first_trap) {
        if c != 0 {
            say(&format!("rvsim: note: the program exited with status {c} after {} exception(s) went to its own trap handler (mtvec); the first: {} (--stop-on-trap stops there)\n", m.traps_taken, m.trap_message(t)));
        }
    }
    if o.stats { say(&report::summary(&m, &info)); }
    if let Some(r) = &ct_report { if o.stats || !r.sites.is_empty() { say(&r.human()); } }
    if let (Some(n), Some(r)) = (o.annotate, rec.as_ref()) { say(&report::annotate(&m, r, n)); }
    match (code, error) {
        (Some(c), _) => exit(c),
        (None, msg) => fail(msg.unwrap_or_default()),
    }
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
