//! RISC-V semihosting (the ARM semihosting calls, as picolibc's libsemihost uses them).

use crate::mem::{MemError, Memory};
use std::io::{Read, Write};

pub const SYS_OPEN: u32 = 0x01;
pub const SYS_CLOSE: u32 = 0x02;
pub const SYS_WRITEC: u32 = 0x03;
pub const SYS_WRITE0: u32 = 0x04;
pub const SYS_WRITE: u32 = 0x05;
pub const SYS_READ: u32 = 0x06;
pub const SYS_ISERROR: u32 = 0x08;
pub const SYS_ISTTY: u32 = 0x09;
pub const SYS_SEEK: u32 = 0x0a;
pub const SYS_FLEN: u32 = 0x0c;
pub const SYS_CLOCK: u32 = 0x10;
pub const SYS_TIME: u32 = 0x11;
pub const SYS_ERRNO: u32 = 0x13;
pub const SYS_GET_CMDLINE: u32 = 0x15;
pub const SYS_HEAPINFO: u32 = 0x16;
pub const SYS_EXIT: u32 = 0x18;
pub const SYS_EXIT_EXTENDED: u32 = 0x20;
pub const ADP_STOPPED_APPLICATION_EXIT: u32 = 0x20026;

const EBADF: u32 = 9;
const ENOENT: u32 = 2;
const EINVAL: u32 = 22;

/// Largest piece of a guest buffer rvsim holds at once (WRITE, WRITE0, READ).
const CHUNK: usize = 4096;

/// The feature file: magic "SHFB" + byte 0 (bit 0 EXIT_EXTENDED, bit 1 STDOUT_STDERR).
const FEATURES: [u8; 5] = [b'S', b'H', b'F', b'B', 0x03];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Handle { Stdin, Stdout, Stderr, Features(u32) }

pub enum Outcome { Continue(u32), Exit(i32) }

/// A call rvsim cannot perform (the run stops: `Stop::Semihost`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SemihostError {
    /// a memory access of the call faults; `what`: the argument block, a buffer, or the call
    Memory { what: &'static str, err: MemError },
    /// a WRITE/WRITE0 (`write`: false) or READ buffer not wholly inside one region of the
    /// guest's memory (checked before anything moves)
    Outside { call: &'static str, buf: u32, len: u32, write: bool },
    /// SYS_OPEN with a name longer than 4096 bytes
    NameTooLong,
    /// CT_SECRET / CT_PUBLIC (rvlab ct) on a range that wraps around the address space
    RangeWraps { op: u32, ptr: u32, len: u32 },
    Unsupported { op: u32 },
    /// the program's console output passed `--max-output` bytes (host time and disk bound)
    OutputLimit { limit: u64 },
    /// the console could not be written (a full disk, an I/O error; a closed pipe is not one)
    Console { call: &'static str, err: String },
}

impl std::fmt::Display for SemihostError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            SemihostError::Memory { what, err } => write!(f, "semihosting {what}: {err}"),
            SemihostError::Outside { call, buf, len, write } =>
                write!(f, "semihosting {call}: buffer 0x{buf:08x}+{len} is not inside the program's {}memory", if *write { "writable " } else { "" }),
            SemihostError::NameTooLong => write!(f, "semihosting SYS_OPEN: file name too long"),
            SemihostError::RangeWraps { op, ptr, len } => write!(f, "semihosting call 0x{op:x} (rvlab ct): range 0x{ptr:08x}+{len} wraps around"),
            SemihostError::Unsupported { op } => write!(f, "unsupported semihosting call 0x{op:x}"),
            SemihostError::OutputLimit { limit } =>
                write!(f, "the program's console output passed --max-output ({limit} bytes)"),
            SemihostError::Console { call, err } => write!(f, "semihosting {call}: writing the console: {err}"),
        }
    }
}

/// `map_err` for a memory access of the call: `SemihostError::Memory` naming `what`.
fn mem(what: &'static str) -> impl Fn(MemError) -> SemihostError { move |err| SemihostError::Memory { what, err } }

pub struct Semihost {
    handles: Vec<Option<Handle>>,
    errno: u32,
    pub cmdline: String,
    pub out: Box<dyn Write>,
    /// what a READ from `:tt` reads (rvsim's stdin; the fuzz targets give it nothing)
    pub input: Box<dyn Read>,
    /// the program's writes to its stderr handle go to `out` too (`rvsim --json`: stderr
    /// then carries only the JSON object)
    pub stderr_to_out: bool,
    pub start: std::time::Instant,
    /// console bytes the program may write in all (`--max-output`), and how many it has
    pub max_output: u64,
    written: u64,
}

/// `--max-output`'s default: far above any kernel's printout, far below what fills a disk.
pub const DEFAULT_MAX_OUTPUT: u64 = 64 << 20;

/// Write guest bytes to the console. A closed pipe drops them, as a terminal that is gone
/// would, and the run goes on; any other error stops the run.
fn put(out: &mut dyn Write, bytes: &[u8], call: &'static str) -> Result<(), SemihostError> {
    console(out.write_all(bytes), call)
}

/// A console write's or flush's result as the run sees it (a closed pipe is no error).
fn console(r: std::io::Result<()>, call: &'static str) -> Result<(), SemihostError> {
    match r {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(SemihostError::Console { call, err: e.to_string() }),
        _ => Ok(()),
    }
}

impl Semihost {
    pub fn new(cmdline: String) -> Semihost {
        Semihost { handles: Vec::new(), errno: 0, cmdline, out: Box::new(std::io::stdout()), input: Box::new(std::io::stdin()),
                   stderr_to_out: false, start: std::time::Instant::now(), max_output: DEFAULT_MAX_OUTPUT, written: 0 }
    }

    fn word(m: &Memory, a: u32) -> Result<u32, SemihostError> {
        let mut v = 0u32;
        for i in 0..4 { v |= (m.peek8(a.wrapping_add(i)).map_err(mem("argument block"))? as u32) << (8 * i); }
        Ok(v)
    }
    fn bytes(m: &Memory, a: u32, n: u32) -> Result<Vec<u8>, SemihostError> {
        (0..n).map(|i| m.peek8(a.wrapping_add(i)).map_err(mem("buffer"))).collect()
    }
    /// Count n more console bytes against `--max-output`.
    fn charge(written: &mut u64, max: u64, n: u32) -> Result<(), SemihostError> {
        *written += n as u64;
        if *written > max { Err(SemihostError::OutputLimit { limit: max }) } else { Ok(()) }
    }

    /// Copy the guest's [a, a + n) to `out` in CHUNK-byte pieces (host memory stays CHUNK bytes
    /// however large n is); the whole range must lie inside the guest's memory (checked first,
    /// so nothing is written for a bad buffer).
    fn stream(&mut self, m: &Memory, a: u32, n: u32, to_stderr: bool, call: &'static str) -> Result<(), SemihostError> {
        if !m.readable(a, n) {
            return Err(SemihostError::Outside { call, buf: a, len: n, write: false });
        }
        Self::charge(&mut self.written, self.max_output, n)?;
        let mut stderr = std::io::stderr();
        let out: &mut dyn Write = if to_stderr { &mut stderr } else { &mut self.out };
        let mut buf = [0u8; CHUNK];
        let mut done = 0u32;
        while done < n {
            let k = (n - done).min(CHUNK as u32);
            for (i, b) in buf[..k as usize].iter_mut().enumerate() {
                *b = m.peek8(a + done + i as u32).map_err(mem(call))?;
            }
            put(out, &buf[..k as usize], call)?;
            done += k;
        }
        Ok(())
    }
    fn handle(&self, h: u32) -> Option<Handle> {
        self.handles.get(h.wrapping_sub(1) as usize).copied().flatten()
    }

    /// Perform call `op` with parameter `arg` (a1). `cycles` drives SYS_CLOCK.
    pub fn call(&mut self, op: u32, arg: u32, m: &mut Memory, cycles: u64) -> Result<Outcome, SemihostError> {
        let r = match op {
            SYS_OPEN => {
                let name_p = Self::word(m, arg)?;
                let mode = Self::word(m, arg.wrapping_add(4))?;
                let len = Self::word(m, arg.wrapping_add(8))?;
                if len > 4096 { return Err(SemihostError::NameTooLong); }
                let name = Self::bytes(m, name_p, len)?;
                let h = match (&name[..], mode) {
                    (b":tt", 0..=3) => Some(Handle::Stdin),
                    (b":tt", 4..=7) => Some(Handle::Stdout),
                    (b":tt", 8..=11) => Some(Handle::Stderr),
                    (b":semihosting-features", 0..=3) => Some(Handle::Features(0)),
                    _ => None,
                };
                match h {
                    Some(h) => { self.handles.push(Some(h)); self.handles.len() as u32 }
                    None => { self.errno = ENOENT; u32::MAX }
                }
            }
            SYS_CLOSE => {
                let h = Self::word(m, arg)?;
                match self.handle(h) {
                    Some(_) => { self.handles[(h - 1) as usize] = None; 0 }
                    None => { self.errno = EBADF; u32::MAX }
                }
            }
            SYS_WRITEC => {
                let c = m.peek8(arg).map_err(mem("SYS_WRITEC"))?;
                Self::charge(&mut self.written, self.max_output, 1)?;
                put(&mut self.out, &[c], "SYS_WRITEC")?;
                0
            }
            SYS_WRITE0 => {
                // the string up to its NUL, which must come before the end of its region
                let mut n = 0u32;
                loop {
                    let c = m.peek8(arg.wrapping_add(n)).map_err(mem("SYS_WRITE0: no NUL before the end of the string's memory"))?;
                    if c == 0 { break; }
                    n += 1;
                }
                self.stream(m, arg, n, false, "SYS_WRITE0")?;
                0
            }
            SYS_WRITE => {
                let h = Self::word(m, arg)?;
                let buf = Self::word(m, arg.wrapping_add(4))?;
                let len = Self::word(m, arg.wrapping_add(8))?;
                match self.handle(h) {
                    Some(Handle::Stdout) => { self.stream(m, buf, len, false, "SYS_WRITE")?; 0 }
                    Some(Handle::Stderr) if self.stderr_to_out => { self.stream(m, buf, len, false, "SYS_WRITE")?; 0 }
                    Some(Handle::Stderr) => {
                        self.out.flush().ok();
                        self.stream(m, buf, len, true, "SYS_WRITE")?;
                        0
                    }
                    _ => { self.errno = EBADF; len }
                }
            }
            SYS_READ => {
                let h = Self::word(m, arg)?;
                let buf = Self::word(m, arg.wrapping_add(4))?;
                let len = Self::word(m, arg.wrapping_add(8))?;
                match self.handle(h) {
                    Some(Handle::Features(pos)) => {
                        let avail = FEATURES.len() as u32 - pos.min(FEATURES.len() as u32);
                        let n = len.min(avail);
                        for i in 0..n {
                            m.poke8(buf.wrapping_add(i), FEATURES[(pos + i) as usize]).map_err(mem("SYS_READ"))?;
                        }
                        self.handles[(h - 1) as usize] = Some(Handle::Features(pos + n));
                        len - n
                    }
                    Some(Handle::Stdin) => {
                        if !m.writable(buf, len) {
                            return Err(SemihostError::Outside { call: "SYS_READ", buf, len, write: true });
                        }
                        self.out.flush().ok();
                        // at most CHUNK bytes per call (the result says how many were not read)
                        let mut tmp = [0u8; CHUNK];
                        let tmp = &mut tmp[..len.min(CHUNK as u32) as usize];
                        let n = self.input.read(tmp).unwrap_or(0);
                        for (i, b) in tmp[..n].iter().enumerate() {
                            m.poke8(buf.wrapping_add(i as u32), *b).map_err(mem("SYS_READ"))?;
                        }
                        len - n as u32
                    }
                    _ => { self.errno = EBADF; u32::MAX }
                }
            }
            SYS_ISERROR => { let v = Self::word(m, arg)?; ((v as i32) < 0) as u32 }
            SYS_ISTTY => {
                let h = Self::word(m, arg)?;
                match self.handle(h) {
                    Some(Handle::Stdin | Handle::Stdout | Handle::Stderr) => 1,
                    Some(_) => 0,
                    None => { self.errno = EBADF; 0 }
                }
            }
            SYS_SEEK => {
                let h = Self::word(m, arg)?;
                let pos = Self::word(m, arg.wrapping_add(4))?;
                match self.handle(h) {
                    Some(Handle::Features(_)) if pos as usize <= FEATURES.len() => {
                        self.handles[(h - 1) as usize] = Some(Handle::Features(pos)); 0
                    }
                    Some(_) => { self.errno = EINVAL; u32::MAX }
                    None => { self.errno = EBADF; u32::MAX }
                }
            }
            SYS_FLEN => {
                let h = Self::word(m, arg)?;
                match self.handle(h) {
                    Some(Handle::Features(_)) => FEATURES.len() as u32,
                    Some(_) => 0,
                    None => { self.errno = EBADF; u32::MAX }
                }
            }
            // centiseconds, from the simulated cycle count at a nominal 100 MHz (deterministic)
            SYS_CLOCK => (cycles / 1_000_000) as u32,
            SYS_TIME => std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as u32).unwrap_or(0),
            SYS_ERRNO => self.errno,
            SYS_GET_CMDLINE => {
                let buf = Self::word(m, arg)?;
                let len = Self::word(m, arg.wrapping_add(4))?;
                let c = self.cmdline.as_bytes();
                if c.len() as u32 + 1 > len { u32::MAX } else {
                    for (i, b) in c.iter().chain(std::iter::once(&0u8)).enumerate() {
                        m.poke8(buf.wrapping_add(i as u32), *b).map_err(mem("SYS_GET_CMDLINE"))?;
                    }
                    for (i, b) in (c.len() as u32).to_le_bytes().iter().enumerate() {
                        m.poke8(arg.wrapping_add(4) + i as u32, *b).map_err(mem("SYS_GET_CMDLINE"))?;
                    }
                    0
                }
            }
            SYS_HEAPINFO => {
                // four zero words: "no information", the C library uses its linker symbols
                let blk = Self::word(m, arg)?;
                for i in 0..16 { m.poke8(blk.wrapping_add(i), 0).map_err(mem("SYS_HEAPINFO"))?; }
                0
            }
            SYS_EXIT => {
                console(self.out.flush(), "SYS_EXIT")?;
                // 32-bit: a1 holds the reason code itself
                return Ok(Outcome::Exit(if arg == ADP_STOPPED_APPLICATION_EXIT { 0 } else { 1 }));
            }
            SYS_EXIT_EXTENDED => {
                console(self.out.flush(), "SYS_EXIT_EXTENDED")?;
                let reason = Self::word(m, arg)?;
                let code = Self::word(m, arg.wrapping_add(4))?;
                return Ok(Outcome::Exit(if reason == ADP_STOPPED_APPLICATION_EXIT { code as i32 } else { 1 }));
            }
            // rvlab constant-time checker (sim/src/ct.rs): a1 -> {ptr, len}; the checker
            // observes the call, here only the block is validated; result 0
            0x100 | 0x101 => {
                let p = Self::word(m, arg)?;
                let n = Self::word(m, arg.wrapping_add(4))?;
                if p.checked_add(n).is_none() { return Err(SemihostError::RangeWraps { op, ptr: p, len: n }); }
                0
            }
            _ => return Err(SemihostError::Unsupported { op }),
        };
        Ok(Outcome::Continue(r))
    }
}
