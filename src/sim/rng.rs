//! The world's one source of randomness: a seeded SplitMix64 generator.
//!
//! Every random choice of the simulation (message latency jitter, later member ids and
//! assignments) is drawn from this generator, so the same seed gives the same trace on
//! every platform, natively and in wasm. Nothing here touches the operating system.

/// A small, fast, seedable pseudo-random generator (SplitMix64, Steele et al. 2014).
#[derive(Debug, Clone)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator whose whole future is decided by `seed`.
    pub fn new(seed: u64) -> Self {
        Rng {
            state: seed ^ 0x5DEE_CE66_D1CE_4E5B,
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform value in `0..=max` (inclusive).
    pub fn up_to(&mut self, max: u64) -> u64 {
        if max == 0 {
            return 0;
        }
        if max == u64::MAX {
            return self.next_u64();
        }
        // Rejection sampling keeps the distribution exactly uniform.
        let range = max + 1;
        let zone = u64::MAX - (u64::MAX % range);
        loop {
            let v = self.next_u64();
            if v < zone {
                return v % range;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
    }

    #[test]
    fn different_seeds_differ() {
        let mut a = Rng::new(1);
        let mut b = Rng::new(2);
        let xs: Vec<u64> = (0..8).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..8).map(|_| b.next_u64()).collect();
        assert_ne!(xs, ys);
    }

    #[test]
    fn up_to_stays_in_range_and_covers_it() {
        let mut r = Rng::new(3);
        let mut seen = [false; 4];
        for _ in 0..1000 {
            let v = r.up_to(3);
            assert!(v <= 3);
            seen[v as usize] = true;
        }
        assert!(seen.iter().all(|s| *s));
        assert_eq!(r.up_to(0), 0);
    }
}
