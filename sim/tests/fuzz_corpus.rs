//! The fuzz targets (fuzz/targets.rs) over every stored input: the minimised corpus in
//! fuzz/corpus/<target>/ and the inputs that once found a bug in fuzz/regressions/<target>/.
//! Plain `cargo test` on stable; fuzzing itself needs nightly and cargo-fuzz (fuzz/README.md).

#[path = "../fuzz/targets.rs"]
mod targets;
use std::path::Path;

fn each_input(target: &str, f: fn(&[u8])) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut n = 0;
    for kind in ["corpus", "regressions"] {
        let dir = root.join(kind).join(target);
        let Ok(rd) = std::fs::read_dir(&dir) else { continue };
        let mut files: Vec<_> = rd.map(|e| e.unwrap().path()).collect();
        files.sort();
        for p in files {
            let data = std::fs::read(&p).unwrap();
            if let Err(e) = std::panic::catch_unwind(|| f(&data)) {
                let msg = e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default();
                panic!("fuzz target {target} fails on {}: {msg}", p.display());
            }
            n += 1;
        }
    }
    assert!(n > 0, "no stored inputs for fuzz target {target} under {}", root.display());
}

#[test]
fn elf_load() { each_input("elf_load", targets::elf_load) }

/// The elf_load regressions were slow, not crashing: headers claiming megabytes of code made
/// the decode state follow p_memsz (a second and a gigabyte for a 9 KB file). What bounds it
/// is the decoded span, which must follow the file's bytes.
#[test]
fn elf_load_regressions_decode_what_the_file_holds() {
    use rvsim::mem::{MapKind, Memory};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions/elf_load");
    for p in std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()) {
        let data = std::fs::read(&p).unwrap();
        for kind in [MapKind::E31, MapKind::Flat] {
            let mut mem = Memory::new(kind);
            if let Ok(e) = rvsim::elf::load(&data, &mut mem) {
                let span = (e.exec_hi - e.exec_lo) as usize;
                assert!(span <= data.len(), "{}: decoded span {span} bytes from a {}-byte file", p.display(), data.len());
            }
        }
    }
}
#[test]
fn decode() { each_input("decode", targets::decode) }
#[test]
fn core_file() { each_input("core_file", targets::core_file) }
#[test]
fn run_program() { each_input("run_program", targets::run_program) }
