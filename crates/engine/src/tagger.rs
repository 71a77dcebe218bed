//! The token-bucket tagger of a flow (tools/flowmon.h `TaggerTBFlow`, ns-2
//! 2.35): each packet of the flow that a monitor sees arrive takes its size
//! in tokens from a bucket filled at the target rate; a packet the bucket
//! covers is tagged In (its `pri` flag set, for RIO downstream), the others
//! are left as they are.

/// A flow's token bucket.
#[derive(Clone, Debug, Default)]
pub struct TokenBucket {
    /// Fill rate, bits per second (bytes: rate / 8).
    pub rate: f64,
    /// The bucket's depth and its tokens, bytes.
    pub depth: f64,
    pub tokens: f64,
    /// When the last packet was seen (the bucket filled up to then).
    pub last: f64,
    /// Packets tagged In, and left Out.
    pub tagged_in: f64,
    pub tagged_out: f64,
}

impl TokenBucket {
    /// A packet of `size` bytes at `now`: fill the bucket for the time
    /// since the last one (to at most its depth); true (In) if its tokens
    /// exceed the size, which they then lose.
    pub fn tag(&mut self, now: f64, size: i32) -> bool {
        self.tokens += (now - self.last) * self.rate / 8.0;
        if self.tokens > self.depth {
            self.tokens = self.depth;
        }
        let size = size as f64;
        let tagged = size < self.tokens;
        if tagged {
            self.tokens -= size;
            self.tagged_in += 1.0;
        } else {
            self.tagged_out += 1.0;
        }
        self.last = now;
        tagged
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 8000 bits/s fill 1000 bytes a second; a packet needs strictly more
    /// tokens than its size.
    #[test]
    fn fills_at_the_rate_and_tags_what_it_covers() {
        let mut b = TokenBucket { rate: 8000.0, depth: 1500.0, tokens: 1.0, ..Default::default() };
        assert!(!b.tag(0.0, 500), "1 token");
        assert!(b.tag(1.0, 500), "1001 tokens");
        assert_eq!(b.tokens, 501.0);
        assert!(!b.tag(1.0, 501), "exactly its size is not enough");
        // capped at the depth
        assert!(b.tag(10.0, 1000));
        assert_eq!(b.tokens, 500.0);
        assert_eq!((b.tagged_in, b.tagged_out), (2.0, 2.0));
    }
}
