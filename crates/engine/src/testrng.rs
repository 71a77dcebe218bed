//! A small deterministic generator for the unit tests' random cases (the
//! tests need no dependency and the same cases on every run).

/// 64-bit linear congruential generator (Knuth's MMIX constants); draws
/// take the high bits.
pub(crate) struct TestRng(pub u64);

impl TestRng {
    /// Uniform in `0..m` (from 31 bits: `m` well below 2^31).
    pub fn below(&mut self, m: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % m
    }

    /// Uniform in `[0, 1)` on a grid of 2^-30.
    pub fn unit(&mut self) -> f64 {
        self.below(1 << 30) as f64 / (1u64 << 30) as f64
    }
}
