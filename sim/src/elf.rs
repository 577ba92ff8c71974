//! ELF32 loader: loads PT_LOAD segments at p_paddr, collects function symbols.

use crate::mem::{Memory, OutsideMap};
use object::elf::{FileHeader32, PT_LOAD, SHF_EXECINSTR, STT_FUNC, STT_NOTYPE, STB_GLOBAL, STB_LOCAL, STB_WEAK};
use object::read::elf::{FileHeader, ProgramHeader, SectionHeader, Sym};
use object::{Endianness, LittleEndian};

#[derive(Clone, Debug)]
pub struct Symbol { pub name: String, pub addr: u32, pub size: u32 }

pub struct LoadedElf {
    pub entry: u32,
    /// sorted by address, non-overlapping start addresses
    pub functions: Vec<Symbol>,
    /// all symbols with names (for --secret etc.)
    pub symbols: Vec<Symbol>,
    /// address span of executable segments
    pub exec_lo: u32,
    pub exec_hi: u32,
}

/// Why an ELF file does not load (`load`); the `Display` texts are rvsim's messages
/// (`rvsim: error: FILE: {error}`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ElfError {
    NotElf,
    TruncatedHeader,
    /// ELFCLASS64
    Elf64,
    BadClass(u8),
    BigEndian,
    BadEncoding(u8),
    /// the header does not parse (the object crate's reason)
    BadHeader(object::Error),
    /// e_machine is not EM_RISCV
    NotRiscv(u16),
    BadProgramHeaders(object::Error),
    /// p_offset + p_filesz overflows
    BadSegmentSize,
    /// a segment's file bytes `off..end` lie past the file's `len` bytes
    Truncated { paddr: u32, off: usize, end: usize, len: usize },
    FileszOverMemsz,
    Wraps { paddr: u32 },
    /// a segment outside the memory map
    Outside(OutsideMap),
    NoLoadable,
    OddEntry(u32),
}

impl std::fmt::Display for ElfError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            ElfError::NotElf => write!(f, "not an ELF file"),
            ElfError::TruncatedHeader => write!(f, "truncated ELF header"),
            ElfError::Elf64 => write!(f, "64-bit ELF files are not supported (need ELF32)"),
            ElfError::BadClass(c) => write!(f, "bad ELF class {c}"),
            ElfError::BigEndian => write!(f, "big-endian ELF files are not supported"),
            ElfError::BadEncoding(c) => write!(f, "bad ELF data encoding {c}"),
            ElfError::BadHeader(e) => write!(f, "bad ELF header: {e}"),
            ElfError::NotRiscv(m) => write!(f, "ELF machine {m} is not RISC-V"),
            ElfError::BadProgramHeaders(e) => write!(f, "truncated or bad program headers: {e}"),
            ElfError::BadSegmentSize => write!(f, "bad segment size"),
            ElfError::Truncated { paddr, off, end, len } =>
                write!(f, "truncated ELF: segment at 0x{paddr:08x} needs file bytes {off}..{end} but the file has {len}"),
            ElfError::FileszOverMemsz => write!(f, "segment p_filesz > p_memsz"),
            ElfError::Wraps { paddr } => write!(f, "segment at 0x{paddr:08x} wraps around the address space"),
            ElfError::Outside(e) => write!(f, "{e}"),
            ElfError::NoLoadable => write!(f, "ELF has no loadable segments"),
            ElfError::OddEntry(entry) => write!(f, "entry point 0x{entry:08x} is odd (instructions start at even addresses)"),
        }
    }
}

impl std::error::Error for ElfError {}

impl From<OutsideMap> for ElfError {
    fn from(e: OutsideMap) -> ElfError { ElfError::Outside(e) }
}

pub fn load(data: &[u8], mem: &mut Memory) -> Result<LoadedElf, ElfError> {
    if data.len() < 4 || &data[0..4] != b"\x7fELF" {
        return Err(ElfError::NotElf);
    }
    if data.len() < 52 {
        return Err(ElfError::TruncatedHeader);
    }
    match data[4] { 1 => {}, 2 => return Err(ElfError::Elf64), c => return Err(ElfError::BadClass(c)) }
    match data[5] { 1 => {}, 2 => return Err(ElfError::BigEndian), c => return Err(ElfError::BadEncoding(c)) }
    let hdr = FileHeader32::<Endianness>::parse(data).map_err(ElfError::BadHeader)?;
    let e = LittleEndian;
    let en = Endianness::Little;
    if hdr.e_machine(en) != object::elf::EM_RISCV {
        return Err(ElfError::NotRiscv(hdr.e_machine(en)));
    }
    let _ = e;
    let phdrs = hdr.program_headers(en, data).map_err(ElfError::BadProgramHeaders)?;
    let mut exec_lo = u32::MAX;
    let mut exec_hi = 0u32;
    let mut exec_segs: Vec<(u32, u32)> = Vec::new();
    // end of the file bytes of the executable segments: the decode cache stops there
    let mut exec_file_hi = 0u32;
    let mut nload = 0;
    for ph in phdrs {
        if ph.p_type(en) != PT_LOAD { continue; }
        let filesz = ph.p_filesz(en);
        let memsz = ph.p_memsz(en);
        let paddr = ph.p_paddr(en);
        let off = ph.p_offset(en) as usize;
        if memsz == 0 { continue; }
        let end = off.checked_add(filesz as usize).ok_or(ElfError::BadSegmentSize)?;
        let bytes = data.get(off..end).ok_or(ElfError::Truncated { paddr, off, end, len: data.len() })?;
        if filesz > memsz { return Err(ElfError::FileszOverMemsz); }
        if paddr.checked_add(memsz).is_none() { return Err(ElfError::Wraps { paddr }); }
        mem.load_bytes(paddr, bytes, memsz)?;
        nload += 1;
        if ph.p_flags(en) & object::elf::PF_X != 0 {
            exec_lo = exec_lo.min(paddr);
            exec_hi = exec_hi.max(paddr + memsz);
            exec_segs.push((paddr, paddr + filesz));
            exec_file_hi = exec_file_hi.max(paddr + filesz);
        }
    }
    if nload == 0 { return Err(ElfError::NoLoadable); }
    let entry = hdr.e_entry(en);
    if entry & 1 != 0 {
        return Err(ElfError::OddEntry(entry));
    }
    if exec_lo == u32::MAX { exec_lo = 0; exec_hi = 0; }
    // the zero-filled tail of executable segments is decoded when reached, not up front: the
    // decode cache (24 bytes per halfword) follows the file's size, not the headers' claims
    exec_hi = exec_hi.min(exec_file_hi.max(exec_lo));
    // the decode cache covers the executable span; if segments are far apart (say flash and
    // RAM), only the one holding the entry point (code elsewhere is decoded on the fly)
    if exec_hi - exec_lo > (16 << 20) {
        let (lo, hi) = exec_segs.iter().copied().find(|&(lo, hi)| entry >= lo && entry < hi).unwrap_or(exec_segs[0]);
        exec_lo = lo;
        exec_hi = hi.min(lo.saturating_add(16 << 20));
    }
    // symbols
    let mut functions = Vec::new();
    let mut symbols = Vec::new();
    if let Ok(sections) = hdr.sections(en, data) {
        if let Ok(symtab) = sections.symbols(en, data, object::elf::SHT_SYMTAB) {
            for sym in symtab.iter() {
                let name = match sym.name(en, symtab.strings()) { Ok(n) => String::from_utf8_lossy(n).into_owned(), Err(_) => continue };
                if name.is_empty() || name.starts_with('$') || name.starts_with(".L") { continue; }
                let s = Symbol { name, addr: sym.st_value(en), size: sym.st_size(en) };
                let shndx = sym.st_shndx(en) as usize;
                let in_exec = sections.section(object::SectionIndex(shndx)).map(|sh| sh.sh_flags(en) as u64 & SHF_EXECINSTR as u64 != 0).unwrap_or(false);
                let ty = sym.st_type();
                let bind = sym.st_bind();
                if in_exec && (ty == STT_FUNC || (ty == STT_NOTYPE && (bind == STB_GLOBAL || bind == STB_WEAK))) {
                    functions.push(s.clone());
                }
                let _ = STB_LOCAL;
                symbols.push(s);
            }
        }
    }
    functions.sort_by(|a, b| a.addr.cmp(&b.addr).then(b.size.cmp(&a.size)).then(a.name.cmp(&b.name)));
    functions.dedup_by_key(|s| s.addr);
    Ok(LoadedElf { entry, functions, symbols, exec_lo, exec_hi })
}
