//! Memory maps: `e31` (flash 0x2000_0000..0x3FFF_FFFF read/execute only, DTIM 16 KiB at
//! 0x8000_0000) and `flat` (flash region writable, RAM 256 MiB at 0x8000_0000).

pub const FLASH_BASE: u32 = 0x2000_0000;
pub const FLASH_END: u32 = 0x4000_0000;
pub const RAM_BASE: u32 = 0x8000_0000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapKind { E31, Flat }

impl MapKind {
    pub fn parse(s: &str) -> Option<MapKind> {
        match s { "e31" => Some(MapKind::E31), "flat" => Some(MapKind::Flat), _ => None }
    }
    pub fn name(self) -> &'static str { match self { MapKind::E31 => "e31", MapKind::Flat => "flat" } }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemError {
    Unmapped { addr: u32, size: u32, store: bool },
    ReadOnly { addr: u32, size: u32 },
    Misaligned { addr: u32, size: u32, store: bool },
}

impl std::fmt::Display for MemError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match *self {
            MemError::Unmapped { addr, size, store } => write!(f, "{} of {} bytes at unmapped address 0x{addr:08x}", if store { "store" } else { "load" }, size),
            MemError::ReadOnly { addr, size } => write!(f, "store of {size} bytes to read-only flash at 0x{addr:08x}"),
            MemError::Misaligned { addr, size, store } => write!(f, "misaligned {} of {} bytes at 0x{addr:08x}", if store { "store" } else { "load" }, size),
        }
    }
}

/// A segment to load (`Memory::load_bytes`) that is not wholly inside one region of the map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutsideMap { pub addr: u32, pub end: u64, pub map: MapKind }

impl std::fmt::Display for OutsideMap {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "segment 0x{:08x}..0x{:08x} lies outside the {} memory map", self.addr, self.end, self.map.name())
    }
}

impl std::error::Error for OutsideMap {}

pub struct Memory {
    pub kind: MapKind,
    pub ram: Vec<u8>,
    /// backing of the flash region from FLASH_BASE (reads past it inside the region give 0)
    pub flash: Vec<u8>,
    pub flash_writable: bool,
}

impl Memory {
    pub fn new(kind: MapKind) -> Memory {
        let ram_size = match kind { MapKind::E31 => 16 * 1024, MapKind::Flat => 256 * 1024 * 1024 };
        Memory { kind, ram: vec![0; ram_size], flash: Vec::new(), flash_writable: kind == MapKind::Flat }
    }
    pub fn ram_size(&self) -> u32 { self.ram.len() as u32 }

    /// Bytes for loading: is [addr, addr+len) inside a region? Grows the flash backing.
    pub fn load_bytes(&mut self, addr: u32, data: &[u8], memsz: u32) -> Result<(), OutsideMap> {
        let end = addr as u64 + memsz.max(data.len() as u32) as u64;
        if addr >= RAM_BASE && end <= RAM_BASE as u64 + self.ram.len() as u64 {
            let o = (addr - RAM_BASE) as usize;
            self.ram[o..o + data.len()].copy_from_slice(data);
            Ok(())
        } else if addr >= FLASH_BASE && end <= FLASH_END as u64 {
            let o = (addr - FLASH_BASE) as usize;
            // read-only flash needs backing only for the file's bytes (reads past the backing
            // give 0, as the zero-filled rest of the segment would): host memory follows the
            // ELF's size, not the sizes its headers claim
            let end = if self.flash_writable { end } else { addr as u64 + data.len() as u64 };
            let need = (end - FLASH_BASE as u64) as usize;
            if self.flash.len() < need {
                // extra 64 KiB of writable backing for the flat map
                let slack = if self.flash_writable { 64 * 1024 } else { 0 };
                let len = (need + slack + 0xfff) & !0xfff;
                // the first segment's backing (it starts at FLASH_BASE: some MiB below the
                // code) from calloc, whose zero pages cost nothing until touched; a later one
                // zero-fills only its own growth
                if self.flash.is_empty() { self.flash = vec![0; len]; } else { self.flash.resize(len, 0); }
            }
            self.flash[o..o + data.len()].copy_from_slice(data);
            Ok(())
        } else {
            Err(OutsideMap { addr, end, map: self.kind })
        }
    }

    #[inline(always)]
    pub fn read<const N: usize>(&self, addr: u32) -> Result<u32, MemError> {
        match self.read_fast::<N>(addr) { Some(v) => Ok(v), None => self.read_slow::<N>(addr) }
    }
    /// `read` where it is a plain array read (aligned, in RAM or the flash backing), else
    /// None: also the block engine's hot path, free of calls.
    #[inline(always)]
    pub fn read_fast<const N: usize>(&self, addr: u32) -> Option<u32> {
        if N > 1 && addr & (N as u32 - 1) != 0 { return None; }
        // (`get` of the N bytes: one bound check each)
        let at = |m: &[u8], base: u32| { let o = addr.wrapping_sub(base) as usize; m.get(o..o + N).map(|b| rd_le::<N>(b, 0)) };
        at(&self.ram, RAM_BASE).or_else(|| at(&self.flash, FLASH_BASE))
    }
    /// `read` past `read_fast`: misaligned, the flash region beyond its backing, unmapped.
    #[inline(never)]
    fn read_slow<const N: usize>(&self, addr: u32) -> Result<u32, MemError> {
        if N > 1 && addr & (N as u32 - 1) != 0 {
            return Err(MemError::Misaligned { addr, size: N as u32, store: false });
        }
        if (FLASH_BASE..FLASH_END).contains(&addr) {
            return Ok(0);
        }
        Err(MemError::Unmapped { addr, size: N as u32, store: false })
    }

    #[inline(always)]
    pub fn write<const N: usize>(&mut self, addr: u32, v: u32) -> Result<(), MemError> {
        if self.write_fast::<N>(addr, v) { Ok(()) } else { self.write_slow::<N>(addr, v) }
    }
    /// `write` where it is an aligned store into RAM (true), else nothing (false): also the
    /// block engine's hot path, free of calls.
    #[inline(always)]
    pub fn write_fast<const N: usize>(&mut self, addr: u32, v: u32) -> bool {
        if N > 1 && addr & (N as u32 - 1) != 0 { return false; }
        let o = addr.wrapping_sub(RAM_BASE) as usize;
        let Some(b) = self.ram.get_mut(o..o + N) else { return false };
        wr_le::<N>(b, 0, v);
        true
    }
    /// `write` past `write_fast`: allowed only into the backing of a writable flash region
    /// (`check_write` gives the error of a misaligned or any other store).
    #[inline(never)]
    fn write_slow<const N: usize>(&mut self, addr: u32, v: u32) -> Result<(), MemError> {
        self.check_write::<N>(addr)?;
        wr_le::<N>(&mut self.flash, (addr - FLASH_BASE) as usize, v);
        Ok(())
    }

    /// The permission check of a store of N bytes at `addr` without the store: Ok where
    /// `write` would succeed, else its error (a failing SC must still pass it).
    pub fn check_write<const N: usize>(&self, addr: u32) -> Result<(), MemError> {
        if N > 1 && addr & (N as u32 - 1) != 0 {
            return Err(MemError::Misaligned { addr, size: N as u32, store: true });
        }
        if (addr.wrapping_sub(RAM_BASE) as usize) < self.ram.len() { return Ok(()); }
        if (FLASH_BASE..FLASH_END).contains(&addr) {
            if !self.flash_writable { return Err(MemError::ReadOnly { addr, size: N as u32 }); }
            if ((addr - FLASH_BASE) as usize) < self.flash.len() { return Ok(()); }
        }
        Err(MemError::Unmapped { addr, size: N as u32, store: true })
    }

    /// Fetch an instruction halfword pair (unaligned-halfword OK). Returns the raw 32 bits
    /// starting at `addr` (upper half 0 if past the end of a region).
    pub fn fetch(&self, addr: u32) -> Result<u32, MemError> {
        let lo = self.fetch16(addr)?;
        if lo & 3 != 3 {
            return Ok(lo);
        }
        let hi = self.fetch16(addr.wrapping_add(2))?;
        Ok(lo | (hi << 16))
    }
    fn fetch16(&self, addr: u32) -> Result<u32, MemError> {
        let o = addr.wrapping_sub(RAM_BASE) as usize;
        if o + 1 < self.ram.len() {
            return Ok(rd_le::<2>(&self.ram, o));
        }
        let o = addr.wrapping_sub(FLASH_BASE) as usize;
        if o + 1 < self.flash.len() {
            return Ok(rd_le::<2>(&self.flash, o));
        }
        Err(MemError::Unmapped { addr, size: 2, store: false })
    }

    /// Is every byte of [addr, addr + len) inside one region of the map (readable; a range that
    /// wraps around the address space is not)? Semihosting checks a guest buffer with this
    /// before it transfers anything, so a transfer never outgrows the guest's own memory.
    pub fn readable(&self, addr: u32, len: u32) -> bool {
        let end = addr as u64 + len as u64;
        let ram = RAM_BASE as u64 + self.ram.len() as u64;
        len == 0 || (addr >= RAM_BASE && end <= ram) || (addr >= FLASH_BASE && end <= FLASH_END as u64)
    }
    /// The same for stores: RAM, or the backed part of a writable flash region.
    pub fn writable(&self, addr: u32, len: u32) -> bool {
        let end = addr as u64 + len as u64;
        let ram = RAM_BASE as u64 + self.ram.len() as u64;
        let flash = FLASH_BASE as u64 + self.flash.len() as u64;
        len == 0 || (addr >= RAM_BASE && end <= ram) || (self.flash_writable && addr >= FLASH_BASE && end <= flash)
    }

    /// Byte read without alignment rules (semihosting, debugging).
    pub fn peek8(&self, addr: u32) -> Result<u8, MemError> { self.read::<1>(addr).map(|v| v as u8) }
    pub fn poke8(&mut self, addr: u32, v: u8) -> Result<(), MemError> { self.write::<1>(addr, v as u32) }
}

#[inline(always)]
fn rd_le<const N: usize>(m: &[u8], o: usize) -> u32 {
    match N {
        1 => m[o] as u32,
        2 => u16::from_le_bytes([m[o], m[o + 1]]) as u32,
        _ => u32::from_le_bytes(m[o..o + 4].try_into().unwrap()),
    }
}
#[inline(always)]
fn wr_le<const N: usize>(m: &mut [u8], o: usize, v: u32) {
    match N {
        1 => m[o] = v as u8,
        2 => m[o..o + 2].copy_from_slice(&(v as u16).to_le_bytes()),
        _ => m[o..o + 4].copy_from_slice(&v.to_le_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// readable/writable: whole ranges inside one region, no wrap-around, empty ranges anywhere.
    #[test]
    fn readable_and_writable_ranges() {
        let mut m = Memory::new(MapKind::E31);
        m.load_bytes(0x2040_0000, &[1; 8], 8).unwrap();
        assert!(m.readable(0x8000_0000, 0x4000) && m.writable(0x8000_0000, 0x4000));
        assert!(!m.readable(0x8000_0000, 0x4001) && !m.writable(0x8000_3fff, 2));
        assert!(m.readable(0x2040_0000, 0x100) && !m.writable(0x2040_0000, 1), "flash: read-only on e31");
        assert!(m.readable(0x3fff_fff0, 0x10) && !m.readable(0x3fff_fff0, 0x11));
        assert!(!m.readable(0xffff_fff0, 0x20) && !m.readable(0x1000_0000, 1) && m.readable(0x1000_0000, 0));
        let mut f = Memory::new(MapKind::Flat);
        f.load_bytes(0x2040_0000, &[1; 8], 8).unwrap();
        assert!(f.writable(0x2040_0000, 8) && !f.writable(0x3000_0000, 4), "flat: flash writable where backed");
        assert!(f.readable(0x8000_0000, 256 << 20) && !f.readable(0x8000_0000, (256 << 20) + 1));
    }

    /// a segment past the DTIM's end: typed, and today's text
    #[test]
    fn load_outside_the_map() {
        let e = Memory::new(MapKind::E31).load_bytes(0x8000_3ffc, &[0; 8], 8).unwrap_err();
        assert_eq!(e, OutsideMap { addr: 0x8000_3ffc, end: 0x8000_4004, map: MapKind::E31 });
        assert_eq!(e.to_string(), "segment 0x80003ffc..0x80004004 lies outside the e31 memory map");
    }

    /// check_write gives exactly the error (or success) of write, without writing.
    #[test]
    fn check_write_agrees_with_write() {
        for kind in [MapKind::E31, MapKind::Flat] {
            let mut m = Memory::new(kind);
            m.load_bytes(0x2040_0000, &[1, 2, 3, 4, 5, 6, 7, 8], 8).unwrap();
            for addr in [0x8000_0000u32, 0x8000_0002, 0x8000_3ffc, 0x8000_4000, 0x2040_0004, 0x2040_0008,
                         0x2040_1000, 0x3fff_fffc, 0xa000_0000, 0x0000_0000, 0xffff_fffc] {
                let before = (m.read::<4>(addr), m.ram.clone(), m.flash.clone());
                let checked = m.check_write::<4>(addr);
                assert_eq!((m.read::<4>(addr), &m.ram, &m.flash), (before.0, &before.1, &before.2), "{kind:?} {addr:#x}: check_write wrote");
                assert_eq!(checked, m.write::<4>(addr, 0x5a5a_5a5a), "{kind:?} {addr:#x}");
            }
        }
    }
}
