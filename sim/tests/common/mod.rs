//! Shared helpers for the integration tests: build test programs with the cross
//! toolchain (a missing toolchain FAILS the test, it never skips) and run them.
#![allow(dead_code)]

use rvsim::elf;
use rvsim::exec::{Machine, NoObserver, Stop};
use rvsim::isa::Isa;
use rvsim::mem::{MapKind, Memory};
use rvsim::timing::{CoreParams, Ideal, Pipeline, Timing};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const CC: &str = "riscv64-unknown-elf-gcc";

pub fn dir() -> PathBuf { Path::new(env!("CARGO_MANIFEST_DIR")).join("tests") }
pub fn out_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rvsim-tests");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Assemble tests/asm/<name>.S (bare metal, tests/asm/link.ld) with -march=`march`.
pub fn build_asm(name: &str, march: &str, defs: &[&str]) -> PathBuf { build_asm_with(name, march, defs, "link.ld") }

/// The same with the linker script tests/asm/<ld> (link-ram.ld: code in DTIM too).
pub fn build_asm_with(name: &str, march: &str, defs: &[&str], ld: &str) -> PathBuf {
    let src = dir().join("asm").join(format!("{name}.S"));
    let tag = defs.join("_").replace(['=', '-'], "");
    let out = out_dir().join(format!("{name}-{march}-{tag}-{ld}.elf"));
    // tests run in parallel threads and several build the same program: link to a name of
    // this thread's own and rename, so no test reads an ELF another is still writing
    let partial = out.with_extension(format!("{:?}.partial", std::thread::current().id()).replace(['(', ')'], ""));
    let mut c = Command::new(CC);
    c.args([&format!("-march={march}"), "-mabi=ilp32", "-nostdlib", "-nostartfiles", "-T"])
        .arg(dir().join("asm").join(ld)).arg(&src).arg("-o").arg(&partial);
    for d in defs { c.arg(format!("-D{d}")); }
    let o = c.output().unwrap_or_else(|e| panic!("cannot run {CC} (the RISC-V cross toolchain is required for this test): {e}"));
    assert!(o.status.success(), "assembling {}: {}", src.display(), String::from_utf8_lossy(&o.stderr));
    std::fs::rename(&partial, &out).unwrap();
    out
}

/// The E31 link recipe of every program built for the board: harness/board.toml's picolibc.ld
/// --defsym values (the file rvlab's build takes them from too).
pub fn board_link_flags() -> Vec<String> {
    let f = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().join("harness").join("board.toml");
    let t: toml::Table = std::fs::read_to_string(&f).unwrap().parse().unwrap_or_else(|e| panic!("{}: {e}", f.display()));
    t.iter().map(|(k, v)| format!("-Wl,--defsym={k}={:#x}", v.as_integer().unwrap())).collect()
}

/// Link `inputs` (C sources, objects) against picolibc with semihosting for the board, as the
/// harness does; `extra` before the inputs (-O2, -fno-inline, ...).
pub fn link_board(inputs: &[&Path], out: &Path, extra: &[&str]) {
    tool(Command::new(CC).args(["-march=rv32imac", "-mabi=ilp32", "--specs=picolibc.specs", "--crt0=semihost", "--oslib=semihost"])
        .args(board_link_flags()).args(extra).args(inputs).arg("-o").arg(out));
}

/// Compile a C program against picolibc (as the harness does).
pub fn build_c(src: &Path, out: &Path, extra: &[&str]) {
    link_board(&[src], out, &[&["-O2"], extra].concat());
}

/// Run a tool (the cross toolchain, QEMU): one that cannot start or fails fails the test
/// with the command and its stderr. Returns its output.
pub fn tool(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e} (the RISC-V cross toolchain and QEMU are required)"));
    assert!(out.status.success(), "{cmd:?} failed ({}):\n{}{}", out.status,
            String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    out
}

/// The same, its standard output.
pub fn tool_stdout(cmd: &mut Command) -> String { String::from_utf8_lossy(&tool(cmd).stdout).into_owned() }

/// A scratch directory of this test process: <temp>/rvsim-<tag>-<pid>.
pub fn tmpdir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rvsim-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The custom instructions' folder (ise/: ise.inc and each instruction's macro.inc).
pub fn ise_dir() -> PathBuf { Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().join("ise") }

/// Assemble `src` (in `dir`, as asm.S, -march=`march`, with ise/ on the include path) and
/// return the words of its .text.
pub fn assemble(dir: &Path, march: &str, src: &str) -> Vec<u32> {
    let (s, o, bin) = (dir.join("asm.S"), dir.join("asm.o"), dir.join("asm.bin"));
    std::fs::write(&s, src).unwrap();
    tool(Command::new(CC).args([&format!("-march={march}"), "-mabi=ilp32", "-c", "-I"]).arg(ise_dir()).arg("-o").arg(&o).arg(&s));
    tool(Command::new("riscv64-unknown-elf-objcopy").args(["-O", "binary", "-j", ".text"]).arg(&o).arg(&bin));
    std::fs::read(&bin).unwrap().chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

pub struct Run { pub m: Machine, pub exit: Result<i32, Stop>, pub cycles: u64, pub stalls: [u64; rvsim::timing::N_STALLS], pub mispredicts: u64, pub icache_misses: u64 }

/// What the programs of tests/asm/ leave in registers, by the names the .S files use.
impl Run {
    /// Register s`n` (s0, s1 = x8, x9; s2..s11 = x18..x27): blocks.S leaves its counts there.
    pub fn s(&self, n: usize) -> u32 { self.m.x[if n < 2 { 8 + n } else { 16 + n }] }
    /// timing.S: the cycles between the two rdcycles around the measured block (its s2).
    pub fn measured_cycles(&self) -> u32 { self.s(2) }
    /// timing.S programs that measure two blocks (T_DIV, T_ICACHE): the first one's (its s3).
    pub fn first_measured_cycles(&self) -> u32 { self.s(3) }
    /// Register gp (x3): where a program that stores its results through it (`la gp, out`)
    /// put them.
    pub fn gp(&self) -> u32 { self.m.x[3] }
}

pub fn machine(path: &Path, isa: &str, map: MapKind) -> Machine {
    let data = std::fs::read(path).unwrap();
    let mut mem = Memory::new(map);
    let e = elf::load(&data, &mut mem).unwrap();
    let table = rvsim::ext::ext_insns();
    let customs: Vec<&str> = table.iter().map(|e| e.ext).collect();
    Machine::new(mem, &e, Isa::parse(isa, &customs).unwrap(), table, path.display().to_string())
}

/// Run with a pipeline model (None = ideal) on the block engine, after checking that the
/// per-instruction loop (`use_blocks = false`) gives the same registers, exit, cycles,
/// stalls, predictor and I-cache counts, per-mnemonic and per-function statistics.
pub fn run(path: &Path, isa: &str, params: Option<CoreParams>) -> Run {
    let stepped = run_with(path, isa, params.clone(), false);
    let r = run_with(path, isa, params, true);
    let what = format!("block engine vs per-instruction loop on {}", path.display());
    assert_eq!((r.m.x, &r.exit, r.m.instret, r.cycles, r.stalls), (stepped.m.x, &stepped.exit, stepped.m.instret, stepped.cycles, stepped.stalls), "{what}");
    assert_eq!((r.mispredicts, r.icache_misses, r.m.min_sp), (stepped.mispredicts, stepped.icache_misses, stepped.m.min_sp), "{what}");
    assert_eq!(r.m.mnemonic_counts(), stepped.m.mnemonic_counts(), "{what}: mnemonic counts");
    assert_eq!(r.m.fstats, stepped.m.fstats, "{what}: per-function statistics");
    r
}

pub fn run_with(path: &Path, isa: &str, params: Option<CoreParams>, blocks: bool) -> Run {
    let mut m = machine(path, isa, MapKind::E31);
    m.max_insns = 100_000_000;
    m.use_blocks = blocks;
    match params {
        Some(p) => {
            let mut t = Pipeline::new(p);
            let r = m.run(&mut t, &mut NoObserver);
            let (c, s, mp, ic) = (t.cycles(), t.stalls(), t.mispredicts, t.icache_misses);
            Run { m, exit: r, cycles: c, stalls: s, mispredicts: mp, icache_misses: ic }
        }
        None => {
            let mut t = Ideal::default();
            let r = m.run(&mut t, &mut NoObserver);
            let c = t.cycles();
            Run { m, exit: r, cycles: c, stalls: [0; rvsim::timing::N_STALLS], mispredicts: 0, icache_misses: 0 }
        }
    }
}

pub fn rvsim_bin() -> PathBuf { PathBuf::from(env!("CARGO_BIN_EXE_rvsim")) }
