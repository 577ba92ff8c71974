fn main() {
    eprintln!("rvsim: error: not implemented yet");
    std::process::exit(125);
}
