//! ise-eval: evaluates rows of rvsim's extension table on given operands, so that a Verilog
//! unit can be checked against the simulator's own semantics (hw/units/check_units.py).
//! stdin: one `NAME A B C CARRY` per line (hex); stdout: `Y CARRY_OUT` (hex) per line.
//! A, B, C are the operands `exec` receives for the row's form (docs/interfaces.md §2).
use std::io::{BufRead, Write};

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();      // line-buffered: results before an error are kept
    for (n, line) in stdin.lock().lines().enumerate() {
        let line = line.unwrap_or_else(|e| fail(&format!("reading stdin: {e}")));
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.is_empty() {
            continue;
        }
        if f.len() != 5 {
            fail(&format!("line {}: want `NAME A B C CARRY` (hex), got {line:?}", n + 1));
        }
        let insn = rvsim::ext::EXT_INSNS.iter().find(|i| i.name == f[0])
            .unwrap_or_else(|| fail(&format!("line {}: no instruction '{}' in rvsim's extension table", n + 1, f[0])));
        let v: Vec<u32> = f[1..].iter().map(|s| u32::from_str_radix(s.trim_start_matches("0x"), 16)
            .unwrap_or_else(|_| fail(&format!("line {}: '{s}' is not a 32-bit hex number", n + 1)))).collect();
        let mut st = rvsim::ext::ExtState { carry: v[3] & 1 };
        let y = (insn.exec)(&mut st, v[0], v[1], v[2]);
        writeln!(out, "{y:08x} {:x}", st.carry).unwrap_or_else(|e| fail(&format!("writing stdout: {e}")));
    }
}

fn fail(msg: &str) -> ! {
    eprintln!("ise-eval: error: {msg}");
    std::process::exit(2)
}
