/// addc rd, rs1, rs2: {C, rd} = rs1 + rs2 + C.
/// `addc rd, zero, zero` gives rd = C and leaves C = 0 (0 + 0 + C never carries out).
pub fn exec(st: &mut ExtState, a: u32, b: u32, _c: u32) -> u32 {
    let sum = a as u64 + b as u64 + (st.carry & 1) as u64;
    st.carry = (sum >> 32) as u32;
    sum as u32
}
