//! Time the trace parser: `cargo run --release --example parse_trace -- FILE [threads]`.
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let threads = a.get(2).map(|s| s.parse().unwrap()).unwrap_or(1);
    let t = std::time::Instant::now();
    let p = dumbbell_engine::ns2::tracefile::parse_file(std::path::Path::new(&a[1]), threads).unwrap();
    println!("{} events, {} vars, {} other in {:.2} s", p.events.time.len(), p.vars.time.len(), p.other_lines, t.elapsed().as_secs_f64());
}
