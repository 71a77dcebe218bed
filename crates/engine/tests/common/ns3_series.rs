//! ns-3.37's cwnd series (testdata/full_tcp) and ours sampled the same
//! way, for the tests that compare the full TCP with ns-3.37.

use std::io::Read;

use dumbbell_engine::socket::{TraceRow, TraceVar};

/// An ns-3.37 cwnd series (segments every 0.1 s from 0; testdata/full_tcp).
pub fn ns3_cwnd(name: &str) -> Vec<f64> {
    let path = format!("{}/testdata/full_tcp/{name}-cwnd.csv.gz", env!("CARGO_MANIFEST_DIR"));
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap()).read_to_string(&mut text).unwrap();
    text.lines().skip(1).map(|l| l.split(',').nth(1).unwrap().parse().unwrap()).collect()
}

/// Our cwnd (segments) sampled as the ns-3 program samples it: the value
/// at each 0.1 s step from `from` (the value before the flow starts is 0),
/// `n` samples.
pub fn our_cwnd(rows: &[TraceRow], from: f64, n: usize) -> Vec<f64> {
    let (mut c, mut j) = (0.0, 0);
    (0..n)
        .map(|k| {
            let t = from + k as f64 * 0.1;
            while j < rows.len() && rows[j].time <= t + 1e-9 {
                if rows[j].var == TraceVar::Cwnd {
                    c = rows[j].value / 1448.0;
                }
                j += 1;
            }
            c
        })
        .collect()
}
