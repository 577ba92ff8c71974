/// sllior rd, rs1, shamt (RdAccImm form; b = instruction bits [31:20], c = old rd):
/// rd = (rd << b[4:0]) | rs1
pub fn exec(_s: &mut ExtState, a: u32, b: u32, c: u32) -> u32 {
    (c << (b & 31)) | a
}
