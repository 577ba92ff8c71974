//! The fuzz targets' code, shared by the cargo-fuzz binaries (fuzz_targets/*.rs, nightly) and
//! by `cargo test` over the stored corpus and regression inputs (sim/tests/fuzz_corpus.rs,
//! stable). A target returns normally on any input; a panic, a disagreement between the block
//! engine and `--no-blocks`, or a broken property is the bug the fuzzer reports.
#![allow(dead_code)]

use rvsim::decode::{self, DecodeError};
use rvsim::disasm::{disasm, disasm_word};
use rvsim::elf::{self, LoadedElf};
use rvsim::exec::{Machine, NoObserver, Stop};
use rvsim::ext::{ext_insns, ExtInsn};
use rvsim::isa::Isa;
use rvsim::mem::{MapKind, Memory, FLASH_BASE, RAM_BASE};
use rvsim::timing::{CoreModel, CoreParams, Ideal, Pipeline, Timing, N_STALLS};

/// Instructions a fuzzed program may run per engine: enough for loops, small enough for
/// thousands of executions a second.
pub const BUDGET: u64 = 4000;

fn table() -> &'static [ExtInsn] { ext_insns() }

/// The ISA strings the targets pick from: no C (odd halfword pcs trap), the default, and every
/// extension rvsim has (standard and custom) at once.
fn isa(choice: u8) -> Isa {
    let t = table();
    let mut names: Vec<&str> = t.iter().map(|e| e.ext).collect();
    names.sort();
    names.dedup();
    let all = format!("rv32imac_{}", names.join("_"));
    let s = match choice % 4 { 0 => "rv32i", 1 => "rv32imac", 2 => "rv32im", _ => all.as_str() };
    Isa::parse(s, &names).unwrap_or_else(|e| panic!("the fuzz harness's own ISA string {s}: {e}"))
}

/// ELF loader: any bytes give Ok or an error message, never a panic; a loaded ELF builds a
/// machine (its decode cache sized from the segments) that runs a few instructions.
pub fn elf_load(data: &[u8]) {
    for kind in [MapKind::E31, MapKind::Flat] {
        let mut mem = Memory::new(kind);
        if let Ok(e) = elf::load(data, &mut mem) {
            let mut m = Machine::new(mem, &e, isa(1), table(), "fuzz".into());
            m.semihost.out = Box::new(std::io::sink());
            m.semihost.input = Box::new(std::io::empty());
            m.max_insns = 200;
            let _ = m.run(&mut Ideal::default(), &mut NoObserver);
        }
    }
}

/// Decoder and disassembler on one instruction word (bytes 0..4) under one of the ISA strings
/// (byte 4): no panic, and the decoder, the ISA check and the disassembler agree.
pub fn decode(data: &[u8]) {
    if data.len() < 4 { return; }
    let w = u32::from_le_bytes([data[0], data[1], data[2], data[3]]);
    let isa = isa(data.get(4).copied().unwrap_or(1));
    let t = table();
    let pc = 0x2040_0000u32.wrapping_add(u32::from(data.get(5).copied().unwrap_or(0)) * 2);
    let text = disasm_word(w, pc, t);
    let len = if w & 3 == 3 { 4 } else { 2 };
    let any = decode::decode_any(w, t);
    match decode::decode(w, &isa, t) {
        Ok(d) => {
            assert_eq!(d.len, len, "{w:#010x}: decoded length");
            assert!(d.rd < 32 && d.rs1 < 32 && d.rs2 < 32 && d.rs3 < 32, "{w:#010x}: register out of range: {d:?}");
            assert!(any.is_some(), "{w:#010x} decodes under {} but not ignoring the ISA", isa.text);
            let s = disasm(&d, pc, t);
            assert!(!s.is_empty() && s != "<illegal>", "{w:#010x}: decoded {d:?} disassembles to '{s}'");
            assert!(!text.starts_with(".2byte") && !text.starts_with(".4byte"), "{w:#010x}: decoded but disasm_word gives '{text}'");
        }
        Err(DecodeError::Disallowed { ext, .. }) => {
            assert!(any.is_some(), "{w:#010x}: disallowed (needs {ext}) but not decodable ignoring the ISA");
            assert!(!ext.is_empty(), "{w:#010x}: disallowed without naming an extension");
        }
        Err(DecodeError::Illegal) => {}
    }
}

/// A fixed program for the core-file target: a loop with loads, a multiply, a divide, stores,
/// a data-dependent branch and a call, ending at an `ebreak` (rv32im, see corefile.S in the
/// README). It runs at RAM_BASE + 0x100 with gp = RAM_BASE.
const CORE_FILE_PROGRAM: [u32; 17] = [
    0x02800513, 0x800001b7, 0x0001a283, 0x00728293, 0x02a28333, 0x02a353b3, 0x0071a223, 0x00619e03,
    0x00357e93, 0x000e8463, 0x014000ef, 0xfff50513, 0xfc051ce3, 0xb0002f73, 0x00100073, 0x006e4e33,
    0x00008067,
];

/// Core parameter file: any text parses to parameters or an error; valid parameters give a
/// timing model that runs the fixed program identically on both engines.
pub fn core_file(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(p) = CoreParams::from_toml(&text) {
        let code: Vec<u8> = CORE_FILE_PROGRAM.iter().flat_map(|w| w.to_le_bytes()).collect();
        let prog = Program { code, base: RAM_BASE + 0x100, map: MapKind::E31, isa: 2, stop_on_trap: false, budget: 10_000 };
        let core = if p.model == CoreModel::Ideal { None } else { Some(p) };
        prog.compare(core);
    }
}

/// Arbitrary bytes as a program: byte 0 chooses the ISA (bits 0-1), the core (bit 2: e31 or
/// ideal), where the code lies (bit 3: the start of the flash region, read-only on the e31 map,
/// or the writable DTIM, so that it may rewrite itself), `--stop-on-trap` (bit 4) and the memory
/// map (bit 5: e31 or flat); the rest is the code. Both engines must agree on everything.
/// (At 0x2000_0000, not the board's 0x2040_0000, the flash backing is only as large as the code.)
pub fn run_program(data: &[u8]) {
    let Some((&cfg, code)) = data.split_first() else { return };
    let code = code[..code.len().min(4096)].to_vec();
    if code.is_empty() { return; }
    let base = if cfg & 8 != 0 { RAM_BASE } else { FLASH_BASE };
    let map = if cfg & 32 != 0 { MapKind::Flat } else { MapKind::E31 };
    let prog = Program { code, base, map, isa: cfg & 3, stop_on_trap: cfg & 16 != 0, budget: BUDGET };
    prog.compare(if cfg & 4 != 0 { Some(CoreParams::e31()) } else { None });
}

struct Program { code: Vec<u8>, base: u32, map: MapKind, isa: u8, stop_on_trap: bool, budget: u64 }

/// Everything a run produced that both engines must agree on.
#[derive(Debug, PartialEq)]
struct Outcome {
    result: Result<i32, Stop>,
    pc: u32,
    x: [u32; 32],
    instret: u64,
    cycles: u64,
    stalls: [u64; N_STALLS],
    mispredicts: u64,
    icache_misses: u64,
    mnemonics: Vec<u64>,
    functions: Vec<rvsim::exec::FuncStat>,
    min_sp: u32,
    traps: u64,
    first_trap: Option<(u32, u32, u32)>,
    csrs: Vec<Result<u32, String>>,
    /// the DTIM (the first 64 KiB of RAM on the flat map) and the flash backing
    ram: Vec<u8>,
    flash: Vec<u8>,
}

impl Program {
    fn machine(&self) -> Machine {
        let mut mem = Memory::new(self.map);
        // the DTIM (or flat RAM) filled with a pattern, so loads see something other than 0
        for (i, b) in mem.ram.iter_mut().take(16 << 10).enumerate() { *b = (i as u8).wrapping_mul(37) ^ 0x5a; }
        mem.load_bytes(self.base, &self.code, self.code.len() as u32).expect("the fuzz program fits its region");
        let end = self.base + self.code.len() as u32;
        let e = LoadedElf { entry: self.base, functions: Vec::new(), symbols: Vec::new(), exec_lo: self.base, exec_hi: end };
        let mut m = Machine::new(mem, &e, isa(self.isa), table(), "fuzz".into());
        m.semihost.out = Box::new(std::io::sink());
        m.semihost.input = Box::new(std::io::empty());
        m.max_insns = self.budget;
        m.stop_on_trap = self.stop_on_trap;
        // a stack pointer and data pointers into the DTIM, the rest small and large values
        for (i, r) in m.x.iter_mut().enumerate().skip(1) { *r = (i as u32).wrapping_mul(0x9e37_79b9); }
        m.x[2] = RAM_BASE + 0x3ff0;
        m.x[3] = RAM_BASE + 0x800;
        m.x[8] = RAM_BASE + 0x1000;
        m
    }

    fn run(&self, core: Option<&CoreParams>, blocks: bool) -> Outcome {
        let mut m = self.machine();
        m.use_blocks = blocks;
        let (result, cycles, stalls, mispredicts, icache_misses) = match core {
            Some(p) => {
                let mut t = Pipeline::new(p.clone());
                let r = m.run(&mut t, &mut NoObserver);
                (r, t.cycles(), t.stalls(), t.mispredicts, t.icache_misses)
            }
            None => {
                let mut t = Ideal::default();
                let r = m.run(&mut t, &mut NoObserver);
                (r, t.cycles(), t.stalls(), 0, 0)
            }
        };
        // mstatus, mtvec, mscratch, mepc, mcause, mtval, mcycle, minstret
        let csrs = [0x300, 0x305, 0x340, 0x341, 0x342, 0x343, 0xb00, 0xb02]
            .iter().map(|&c| m.csr.read(c, cycles, m.instret).map_err(|e| format!("{e:?}"))).collect();
        Outcome {
            result,
            pc: m.pc,
            x: m.x,
            instret: m.instret,
            cycles,
            stalls,
            mispredicts,
            icache_misses,
            mnemonics: m.mnemonic_counts(),
            functions: m.fstats.clone(),
            min_sp: m.min_sp,
            traps: m.traps_taken,
            first_trap: m.first_trap,
            csrs,
            ram: m.mem.ram[..m.mem.ram.len().min(64 << 10)].to_vec(),
            flash: m.mem.flash.clone(),
        }
    }

    /// The block engine against the per-instruction loop on one core model.
    fn compare(&self, core: Option<CoreParams>) {
        let stepped = self.run(core.as_ref(), false);
        let blocks = self.run(core.as_ref(), true);
        if stepped != blocks {
            let d = |n: &str, a: String, b: String| if a != b { format!("\n  {n}: --no-blocks {a}\n  {n}: blocks      {b}") } else { String::new() };
            let mut s = String::new();
            s += &d("result", format!("{:?}", stepped.result), format!("{:?}", blocks.result));
            s += &d("pc", format!("{:#x}", stepped.pc), format!("{:#x}", blocks.pc));
            s += &d("x", format!("{:x?}", stepped.x), format!("{:x?}", blocks.x));
            s += &d("instret/cycles", format!("{} {}", stepped.instret, stepped.cycles), format!("{} {}", blocks.instret, blocks.cycles));
            s += &d("stalls", format!("{:?} {} {}", stepped.stalls, stepped.mispredicts, stepped.icache_misses), format!("{:?} {} {}", blocks.stalls, blocks.mispredicts, blocks.icache_misses));
            s += &d("traps", format!("{} {:x?} {:x?}", stepped.traps, stepped.first_trap, stepped.csrs), format!("{} {:x?} {:x?}", blocks.traps, blocks.first_trap, blocks.csrs));
            s += &d("min_sp", format!("{:#x}", stepped.min_sp), format!("{:#x}", blocks.min_sp));
            if stepped.mnemonics != blocks.mnemonics { s += "\n  per-mnemonic counts differ"; }
            if stepped.functions != blocks.functions { s += "\n  per-function statistics differ"; }
            if stepped.ram != blocks.ram || stepped.flash != blocks.flash { s += "\n  memory differs"; }
            panic!("block engine and --no-blocks differ (core {:?}):{s}", core.map(|c| c.name));
        }
    }
}
