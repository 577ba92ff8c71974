//! Bit-manipulation semantics: Zba, Zbb, Zbc, Zbs, Zbkb, Zbkc, Zbkx (ratified bitmanip 1.0 and
//! scalar crypto 1.0 texts) and the draft xzbp grev/shfl/unshfl family (bitmanip 0.93 draft).
//! Every function here is a plain `u32` function; the table in `table.rs` wraps them.
//! RV32 only: shift amounts are taken modulo 32, "XLEN" is 32.

// ---------------------------------------------------------------- Zba
#[inline] pub fn sh1add(a: u32, b: u32) -> u32 { b.wrapping_add(a << 1) }
#[inline] pub fn sh2add(a: u32, b: u32) -> u32 { b.wrapping_add(a << 2) }
#[inline] pub fn sh3add(a: u32, b: u32) -> u32 { b.wrapping_add(a << 3) }

// ---------------------------------------------------------------- Zbb (and Zbkb's shared subset)
#[inline] pub fn andn(a: u32, b: u32) -> u32 { a & !b }
#[inline] pub fn orn(a: u32, b: u32) -> u32 { a | !b }
#[inline] pub fn xnor(a: u32, b: u32) -> u32 { !(a ^ b) }
#[inline] pub fn clz(a: u32) -> u32 { a.leading_zeros() }
#[inline] pub fn ctz(a: u32) -> u32 { a.trailing_zeros() }
#[inline] pub fn cpop(a: u32) -> u32 { a.count_ones() }
#[inline] pub fn max(a: u32, b: u32) -> u32 { (a as i32).max(b as i32) as u32 }
#[inline] pub fn maxu(a: u32, b: u32) -> u32 { a.max(b) }
#[inline] pub fn min(a: u32, b: u32) -> u32 { (a as i32).min(b as i32) as u32 }
#[inline] pub fn minu(a: u32, b: u32) -> u32 { a.min(b) }
#[inline] pub fn sext_b(a: u32) -> u32 { a as u8 as i8 as i32 as u32 }
#[inline] pub fn sext_h(a: u32) -> u32 { a as u16 as i16 as i32 as u32 }
#[inline] pub fn zext_h(a: u32) -> u32 { a & 0xffff }
#[inline] pub fn rol(a: u32, b: u32) -> u32 { a.rotate_left(b & 31) }
#[inline] pub fn ror(a: u32, b: u32) -> u32 { a.rotate_right(b & 31) }
/// orc.b: each byte becomes 0xff if it is non-zero, else 0x00.
#[inline]
pub fn orc_b(a: u32) -> u32 {
    let mut r = 0;
    for i in 0..4 {
        if (a >> (8 * i)) & 0xff != 0 {
            r |= 0xff << (8 * i);
        }
    }
    r
}
#[inline] pub fn rev8(a: u32) -> u32 { a.swap_bytes() }

// ---------------------------------------------------------------- Zbc / Zbkc
/// Carry-less product of two 32-bit values as a 64-bit value.
#[inline]
pub fn clmul64(a: u32, b: u32) -> u64 {
    // branch-free (the loop unrolls and does not depend on the data)
    let a = a as u64;
    let mut r = 0u64;
    for i in 0..32 {
        r ^= (a << i) & 0u64.wrapping_sub(((b >> i) & 1) as u64);
    }
    r
}
#[inline] pub fn clmul(a: u32, b: u32) -> u32 { clmul64(a, b) as u32 }
#[inline] pub fn clmulh(a: u32, b: u32) -> u32 { (clmul64(a, b) >> 32) as u32 }
/// clmulr: bits 62..31 of the 64-bit carry-less product.
#[inline] pub fn clmulr(a: u32, b: u32) -> u32 { (clmul64(a, b) >> 31) as u32 }

// ---------------------------------------------------------------- Zbs
#[inline] pub fn bclr(a: u32, b: u32) -> u32 { a & !(1 << (b & 31)) }
#[inline] pub fn bext(a: u32, b: u32) -> u32 { (a >> (b & 31)) & 1 }
#[inline] pub fn binv(a: u32, b: u32) -> u32 { a ^ (1 << (b & 31)) }
#[inline] pub fn bset(a: u32, b: u32) -> u32 { a | (1 << (b & 31)) }

// ---------------------------------------------------------------- Zbkb
#[inline] pub fn pack(a: u32, b: u32) -> u32 { (a & 0xffff) | (b << 16) }
#[inline] pub fn packh(a: u32, b: u32) -> u32 { (a & 0xff) | ((b & 0xff) << 8) }
/// brev8: reverse the bits in each byte.
#[inline]
pub fn brev8(a: u32) -> u32 { a.reverse_bits().swap_bytes() }
/// zip (RV32): bit i of the low half goes to bit 2i, bit i of the high half to bit 2i+1.
#[inline] pub fn zip(a: u32) -> u32 { shfl(a, 15) }
/// unzip (RV32): the inverse of zip: even bits to the low half, odd bits to the high half.
#[inline] pub fn unzip(a: u32) -> u32 { unshfl(a, 15) }

// ---------------------------------------------------------------- Zbkx
/// xperm8: each byte of rs2 (a lookup index) selects a byte of rs1 (the table); index >= 4 gives 0.
#[inline]
pub fn xperm8(a: u32, b: u32) -> u32 {
    let mut r = 0;
    for i in 0..4 {
        let idx = (b >> (8 * i)) & 0xff;
        if idx < 4 {
            r |= ((a >> (8 * idx)) & 0xff) << (8 * i);
        }
    }
    r
}
/// xperm4: each nibble of rs2 selects a nibble of rs1; index >= 8 gives 0.
#[inline]
pub fn xperm4(a: u32, b: u32) -> u32 {
    let mut r = 0;
    for i in 0..8 {
        let idx = (b >> (4 * i)) & 0xf;
        if idx < 8 {
            r |= ((a >> (4 * idx)) & 0xf) << (4 * i);
        }
    }
    r
}

// ---------------------------------------------------------------- xzbp (draft 0.93)
/// Generalised reverse: butterfly stages of width 1, 2, 4, 8, 16 selected by the bits of
/// the control `k` (5 bits on RV32). grev(x, 24) = rev8, grev(x, 7) = brev8, grev(x, 31) = bit reverse.
#[inline]
pub fn grev(a: u32, k: u32) -> u32 {
    let k = k & 31;
    let mut x = a;
    if k & 1 != 0 { x = ((x & 0x5555_5555) << 1) | ((x & 0xaaaa_aaaa) >> 1); }
    if k & 2 != 0 { x = ((x & 0x3333_3333) << 2) | ((x & 0xcccc_cccc) >> 2); }
    if k & 4 != 0 { x = ((x & 0x0f0f_0f0f) << 4) | ((x & 0xf0f0_f0f0) >> 4); }
    if k & 8 != 0 { x = ((x & 0x00ff_00ff) << 8) | ((x & 0xff00_ff00) >> 8); }
    if k & 16 != 0 { x = x.rotate_left(16); }
    x
}

/// One shuffle stage: the bits selected by `left` come from `x << n`, those selected by
/// `right` from `x >> n`, the others stay.
#[inline]
fn shuffle_stage(x: u32, left: u32, right: u32, n: u32) -> u32 {
    (x & !(left | right)) | ((x << n) & left) | ((x >> n) & right)
}

/// Generalised shuffle (zip) with a 4-bit control on RV32; stages applied from the widest.
#[inline]
pub fn shfl(a: u32, k: u32) -> u32 {
    let k = k & 15;
    let mut x = a;
    if k & 8 != 0 { x = shuffle_stage(x, 0x00ff_0000, 0x0000_ff00, 8); }
    if k & 4 != 0 { x = shuffle_stage(x, 0x0f00_0f00, 0x00f0_00f0, 4); }
    if k & 2 != 0 { x = shuffle_stage(x, 0x3030_3030, 0x0c0c_0c0c, 2); }
    if k & 1 != 0 { x = shuffle_stage(x, 0x4444_4444, 0x2222_2222, 1); }
    x
}

/// Generalised unshuffle: the same stages as `shfl` in the opposite order (its inverse).
#[inline]
pub fn unshfl(a: u32, k: u32) -> u32 {
    let k = k & 15;
    let mut x = a;
    if k & 1 != 0 { x = shuffle_stage(x, 0x4444_4444, 0x2222_2222, 1); }
    if k & 2 != 0 { x = shuffle_stage(x, 0x3030_3030, 0x0c0c_0c0c, 2); }
    if k & 4 != 0 { x = shuffle_stage(x, 0x0f00_0f00, 0x00f0_00f0, 4); }
    if k & 8 != 0 { x = shuffle_stage(x, 0x00ff_0000, 0x0000_ff00, 8); }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Small deterministic generator for the tests (xorshift32), plus edge values.
    pub(crate) fn values() -> Vec<u32> {
        let mut v = vec![0, 1, 2, 0x7fff_ffff, 0x8000_0000, 0x8000_0001, 0xffff_ffff, 0xfffe_ffff,
                         0x0000_00ff, 0x0000_0080, 0x0000_8000, 0x0000_ffff, 0x1234_5678,
                         0x8765_4321, 0xdead_beef, 0x0101_0101, 0x00ff_00ff, 31, 32, 33];
        let mut s = 0x2545_f491u32;
        for _ in 0..300 {
            s ^= s << 13; s ^= s >> 17; s ^= s << 5;
            v.push(s);
        }
        v
    }

    // Independent, bit-by-bit formulations used only as test oracles.
    fn bit(x: u32, i: u32) -> u32 { (x >> i) & 1 }
    fn grev_ref(x: u32, k: u32) -> u32 {
        // result bit i = x bit (i XOR k)
        (0..32).fold(0, |r, i| r | (bit(x, i ^ (k & 31)) << i))
    }
    /// Index permutation of one shuffle stage s (s = 0..3): swap index bits s and s+1.
    fn swap_idx_bits(i: u32, s: u32) -> u32 {
        let a = (i >> s) & 1;
        let b = (i >> (s + 1)) & 1;
        if a == b { i } else { i ^ (1 << s) ^ (1 << (s + 1)) }
    }
    fn perm_stage(x: u32, s: u32) -> u32 {
        // result bit swap(i) = x bit i (a swap is an involution, so the direction does not matter)
        (0..32).fold(0, |r, i| r | (bit(x, i) << swap_idx_bits(i, s)))
    }
    fn shfl_ref(x: u32, k: u32) -> u32 {
        let mut x = x;
        for s in (0..4).rev() { if k & (1 << s) != 0 { x = perm_stage(x, s); } }
        x
    }
    fn unshfl_ref(x: u32, k: u32) -> u32 {
        let mut x = x;
        for s in 0..4 { if k & (1 << s) != 0 { x = perm_stage(x, s); } }
        x
    }

    #[test]
    fn zba() {
        assert_eq!(sh1add(3, 10), 16);
        assert_eq!(sh2add(3, 10), 22);
        assert_eq!(sh3add(3, 10), 34);
        assert_eq!(sh1add(0x8000_0000, 5), 5); // shifted-out bit lost
        assert_eq!(sh3add(0xffff_ffff, 0), 0xffff_fff8);
        assert_eq!(sh2add(1, 0xffff_fffc), 0); // wraps
    }

    #[test]
    fn zbb_logic_and_counts() {
        assert_eq!(andn(0xff00_ff00, 0x0ff0_0ff0), 0xf000_f000);
        assert_eq!(orn(0, 0x0000_ffff), 0xffff_0000);
        assert_eq!(xnor(0x1234_5678, 0x1234_5678), 0xffff_ffff);
        assert_eq!(clz(0), 32); assert_eq!(clz(1), 31); assert_eq!(clz(0x8000_0000), 0);
        assert_eq!(ctz(0), 32); assert_eq!(ctz(0x8000_0000), 31); assert_eq!(ctz(6), 1);
        assert_eq!(cpop(0), 0); assert_eq!(cpop(0xffff_ffff), 32); assert_eq!(cpop(0x8000_0001), 2);
        for &x in &values() {
            let z = (0..32).rev().take_while(|&i| bit(x, i) == 0).count() as u32;
            assert_eq!(clz(x), z);
            let t = (0..32).take_while(|&i| bit(x, i) == 0).count() as u32;
            assert_eq!(ctz(x), t);
            assert_eq!(cpop(x), (0..32).map(|i| bit(x, i)).sum::<u32>());
        }
    }

    #[test]
    fn zbb_minmax_ext() {
        assert_eq!(max(0xffff_ffff, 0), 0); assert_eq!(maxu(0xffff_ffff, 0), 0xffff_ffff);
        assert_eq!(min(0x8000_0000, 0x7fff_ffff), 0x8000_0000);
        assert_eq!(minu(0x8000_0000, 0x7fff_ffff), 0x7fff_ffff);
        assert_eq!(max(5, 5), 5);
        assert_eq!(sext_b(0x80), 0xffff_ff80); assert_eq!(sext_b(0x1234_567f), 0x7f);
        assert_eq!(sext_h(0x8000), 0xffff_8000); assert_eq!(sext_h(0xffff_7fff), 0x7fff);
        assert_eq!(zext_h(0xffff_8000), 0x8000);
    }

    #[test]
    fn rotates() {
        assert_eq!(rol(0x8000_0001, 1), 3);
        assert_eq!(ror(0x8000_0001, 1), 0xc000_0000);
        assert_eq!(rol(0x1234_5678, 32), 0x1234_5678); // only 5 bits used
        assert_eq!(ror(0x1234_5678, 36), 0x8123_4567);
        assert_eq!(rol(0x1234_5678, 0), 0x1234_5678);
        for &x in &values() {
            for s in [0, 1, 7, 8, 31] {
                assert_eq!(ror(rol(x, s), s), x);
                assert_eq!(rol(x, s), if s == 0 { x } else { (x << s) | (x >> (32 - s)) });
            }
        }
    }

    #[test]
    fn orc_rev() {
        assert_eq!(orc_b(0), 0);
        assert_eq!(orc_b(0x0100_8000), 0xff00_ff00);
        assert_eq!(orc_b(0x0102_0304), 0xffff_ffff);
        assert_eq!(rev8(0x1234_5678), 0x7856_3412);
        assert_eq!(brev8(0x0102_4080), 0x8040_0201);
        assert_eq!(brev8(0x0f0f_0f0f), 0xf0f0_f0f0);
    }

    #[test]
    fn clmul_family() {
        assert_eq!(clmul(3, 3), 5);
        assert_eq!(clmul(0xffff_ffff, 0xffff_ffff), 0x5555_5555);
        assert_eq!(clmulh(0xffff_ffff, 0xffff_ffff), 0x5555_5555);
        assert_eq!(clmulh(0x8000_0000, 0x8000_0000), 0x4000_0000);
        assert_eq!(clmulr(0x8000_0000, 0x8000_0000), 0x8000_0000);
        assert_eq!(clmul(0x8000_0000, 2), 0);
        assert_eq!(clmulh(0x8000_0000, 2), 1);
        for &a in values().iter().take(60) {
            for &b in values().iter().skip(100).take(60) {
                // independent: polynomial product over GF(2) via 128-bit arithmetic and xor-sum
                let mut p = 0u128;
                for i in 0..32 { if bit(a, i) == 1 { p ^= (b as u128) << i; } }
                assert_eq!(clmul(a, b), p as u32);
                assert_eq!(clmulh(a, b), (p >> 32) as u32);
                assert_eq!(clmulr(a, b), (p >> 31) as u32);
                assert_eq!(clmul(a, b), clmul(b, a));
            }
        }
    }

    #[test]
    fn zbs() {
        assert_eq!(bclr(0xffff_ffff, 31), 0x7fff_ffff);
        assert_eq!(bclr(0xffff_ffff, 32), 0xffff_fffe); // index mod 32
        assert_eq!(bset(0, 31), 0x8000_0000); assert_eq!(bset(0, 33), 2);
        assert_eq!(binv(1, 0), 0); assert_eq!(binv(0, 63), 0x8000_0000);
        assert_eq!(bext(0x8000_0000, 31), 1); assert_eq!(bext(0x8000_0000, 30), 0);
        assert_eq!(bext(0x8000_0000, 0xffff_ffff), 1);
    }

    #[test]
    fn zbkb() {
        assert_eq!(pack(0x1234_5678, 0x9abc_def0), 0xdef0_5678);
        assert_eq!(packh(0x1234_5678, 0x9abc_def0), 0xf078);
        assert_eq!(zip(0x0000_ffff), 0x5555_5555);
        assert_eq!(zip(0xffff_0000), 0xaaaa_aaaa);
        assert_eq!(unzip(0x5555_5555), 0x0000_ffff);
        for &x in &values() {
            // definition of zip from the Zbkb text: bit 2i <- x[i], bit 2i+1 <- x[i+16]
            let z = (0..16).fold(0, |r, i| r | (bit(x, i) << (2 * i)) | (bit(x, i + 16) << (2 * i + 1)));
            assert_eq!(zip(x), z);
            assert_eq!(unzip(z), x);
            let b = (0..32).fold(0, |r, i| r | (bit(x, i) << ((i & !7) | (7 - (i & 7)))));
            assert_eq!(brev8(x), b);
        }
    }

    #[test]
    fn zbkx() {
        assert_eq!(xperm8(0x4433_2211, 0x0001_0203), 0x1122_3344);
        assert_eq!(xperm8(0x4433_2211, 0x0400_ff03), 0x0011_0044);
        assert_eq!(xperm4(0x7654_3210, 0x0123_4567), 0x0123_4567);
        assert_eq!(xperm4(0x7654_3210, 0x89ab_cdef), 0);
        assert_eq!(xperm4(0xfedc_ba98, 0x0000_0087), 0x8888_880f);
    }

    #[test]
    fn xzbp_against_bit_index_definitions() {
        for &x in &values() {
            for k in 0..32 {
                assert_eq!(grev(x, k), grev_ref(x, k), "grev {x:#x} {k}");
            }
            for k in 0..16 {
                assert_eq!(shfl(x, k), shfl_ref(x, k), "shfl {x:#x} {k}");
                assert_eq!(unshfl(x, k), unshfl_ref(x, k), "unshfl {x:#x} {k}");
                assert_eq!(unshfl(shfl(x, k), k), x);
            }
            // the ratified instructions that are special cases
            assert_eq!(grev(x, 24), rev8(x));
            assert_eq!(grev(x, 7), brev8(x));
            assert_eq!(grev(x, 31), x.reverse_bits());
            // control bits above the RV32 width are ignored
            assert_eq!(grev(x, 32 + 5), grev(x, 5));
            assert_eq!(shfl(x, 16 + 3), shfl(x, 3));
        }
        // hand-computed examples
        assert_eq!(shfl(0x0000_0020, 1), 0x0000_0040);
        assert_eq!(shfl(0x0000_00f0, 1), 0x0000_00f0);
        assert_eq!(shfl(0x1234_5678, 8), 0x1256_3478);
        assert_eq!(unshfl(0x1256_3478, 8), 0x1234_5678);
    }
}
