//! rvsim-randprog: prints one random test program of `rvsim::randprog` (assembly for
//! riscv64-unknown-elf-gcc with sim/tests/asm/rt.h and link.ld), so that programs other than
//! rvsim's own tests can run the same ones: `rvlab rtl --random` runs them on the Verilog
//! core and on rvsim's model of it.
//!
//!   rvsim-randprog --seed N [--len INSNS] [--iters N] [--exts zbkb,zknh,...] [--atomics]
//!
//! `--exts` adds the instructions of those extensions from rvsim's table (default none);
//! `--atomics` adds the A extension's AMOs and LR/SC (off: cores without A).
use rvsim::randprog::{base_forms, ext_forms, gen_program, Rng};

fn main() {
    let (mut seed, mut len, mut iters, mut exts, mut atomics) = (None, 300usize, 3u32, String::new(), false);
    let mut p = lexopt::Parser::from_env();
    loop {
        let arg = match p.next() {
            Ok(Some(a)) => a,
            Ok(None) => break,
            Err(e) => fail(&e.to_string()),
        };
        use lexopt::prelude::*;
        match arg {
            Long("seed") => seed = Some(num(&mut p, "--seed")),
            Long("len") => len = num(&mut p, "--len") as usize,
            Long("iters") => iters = num(&mut p, "--iters").min(u32::MAX as u64) as u32,
            Long("exts") => exts = value(&mut p, "--exts"),
            Long("atomics") => atomics = true,
            Long("help") | Short('h') => {
                println!("usage: rvsim-randprog --seed N [--len INSNS] [--iters N] [--exts EXT,...] [--atomics]");
                return;
            }
            _ => fail(&arg.unexpected().to_string()),
        }
    }
    let seed = seed.unwrap_or_else(|| fail("--seed N is required"));
    if len == 0 || iters == 0 {
        fail("--len and --iters must be at least 1");
    }
    let exts: Vec<&str> = exts.split(',').filter(|e| !e.is_empty()).collect();
    let mut forms = base_forms(atomics);
    let extra = ext_forms(&exts);
    for e in &exts {
        if !extra.iter().any(|(_, _, x)| x == e) {
            fail(&format!("--exts: no instructions of extension '{e}' in rvsim's table that the generator can shape"));
        }
    }
    forms.extend(extra.into_iter().map(|(m, k, _)| (m, k)));
    print!("{}", gen_program(&mut Rng::new(seed), &forms, len, iters));
}

fn value(p: &mut lexopt::Parser, flag: &str) -> String {
    p.value().ok().and_then(|v| v.into_string().ok()).unwrap_or_else(|| fail(&format!("{flag} needs a value")))
}

fn num(p: &mut lexopt::Parser, flag: &str) -> u64 {
    let v = value(p, flag);
    v.parse().unwrap_or_else(|_| fail(&format!("{flag}: '{v}' is not a non-negative integer")))
}

fn fail(msg: &str) -> ! {
    eprintln!("rvsim-randprog: error: {msg}");
    std::process::exit(2);
}
