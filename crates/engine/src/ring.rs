//! A FIFO ring buffer of `Copy` items for the hot loop (link pipes, queue
//! contents).
//!
//! `std::collections::VecDeque` does the same job, but its `push_back` is an
//! out-of-line call with a general growth path on every push; here the
//! capacity is a power of two, an index is `(head + i) & mask`, and growing
//! is a cold path that runs only until the ring has reached the largest
//! number of items it ever holds at once.

#[derive(Debug, Clone)]
pub struct Ring<T: Copy> {
    buf: Box<[T]>,
    /// The front's buffer index: at most `mask` (`pop_front` masks it,
    /// `grow` resets it).
    head: u32,
    len: u32,
    mask: u32,
}

impl<T: Copy> Default for Ring<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy> Ring<T> {
    pub fn new() -> Ring<T> {
        Ring { buf: Box::new([]), head: 0, len: 0, mask: 0 }
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline(always)]
    fn slot(&self, i: u32) -> usize {
        (self.head.wrapping_add(i) & self.mask) as usize
    }

    /// The item in buffer slot `i` (a masked index into a non-empty buffer:
    /// in range by construction).
    #[inline(always)]
    fn at(&self, i: usize) -> &T {
        debug_assert!(i < self.buf.len());
        // SAFETY: callers pass `slot(..)` or `head` of a ring whose buffer is
        // not empty; its length is `mask + 1`, so the index is in range.
        unsafe { self.buf.get_unchecked(i) }
    }

    /// The item `i` places from the front.
    #[inline(always)]
    pub fn get(&self, i: usize) -> Option<&T> {
        if i < self.len as usize {
            Some(self.at(self.slot(i as u32)))
        } else {
            None
        }
    }

    /// The item `i` places from the front, to change.
    #[inline]
    pub fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        if i < self.len as usize {
            let j = self.slot(i as u32);
            Some(&mut self.buf[j])
        } else {
            None
        }
    }

    /// `get(0)`, without the masking: `head` is always a buffer index, so
    /// the mask's load and `and` are saved on every pop.
    #[inline(always)]
    pub fn front(&self) -> Option<&T> {
        if self.len == 0 {
            None
        } else {
            Some(self.at(self.head as usize))
        }
    }

    #[inline(always)]
    pub fn back(&self) -> Option<&T> {
        if self.len == 0 {
            None
        } else {
            self.get(self.len as usize - 1)
        }
    }

    #[inline(always)]
    pub fn push_back(&mut self, x: T) {
        if self.len as usize == self.buf.len() {
            self.grow(x);
        }
        let i = self.slot(self.len);
        debug_assert!(i < self.buf.len());
        // SAFETY: the buffer is not empty after the growth check and its
        // length is `mask + 1`.
        unsafe { *self.buf.get_unchecked_mut(i) = x };
        self.len += 1;
    }

    #[inline(always)]
    pub fn pop_front(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        let x = *self.at(self.head as usize);
        self.head = (self.head + 1) & self.mask;
        self.len -= 1;
        Some(x)
    }

    #[inline]
    pub fn pop_back(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.buf[self.slot(self.len)])
    }

    /// Remove the item `i` places from the front, keeping the order of the
    /// others.
    pub fn remove(&mut self, i: usize) -> Option<T> {
        if i >= self.len as usize {
            return None;
        }
        let x = self.buf[self.slot(i as u32)];
        for j in i as u32..self.len - 1 {
            let (to, from) = (self.slot(j), self.slot(j + 1));
            self.buf[to] = self.buf[from];
        }
        self.len -= 1;
        Some(x)
    }

    /// Empty the ring (its capacity kept).
    #[inline]
    pub fn clear(&mut self) {
        self.head = 0;
        self.len = 0;
    }

    /// The number of items from the front for which `pred` holds, the
    /// ring being partitioned by it (`VecDeque::partition_point`).
    pub fn partition_point(&self, mut pred: impl FnMut(&T) -> bool) -> usize {
        let (mut lo, mut hi) = (0u32, self.len);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if pred(self.at(self.slot(mid))) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo as usize
    }

    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &T> + ExactSizeIterator + '_ {
        (0..self.len).map(move |i| &self.buf[self.slot(i)])
    }

    /// Double the capacity (at least 8), unwrapping the items to the start.
    /// `fill` only initialises the new slots.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, fill: T) {
        let cap = (self.buf.len() * 2).max(8);
        let mut buf = Vec::with_capacity(cap);
        buf.extend(self.iter().copied());
        buf.resize(cap, fill);
        self.buf = buf.into_boxed_slice();
        self.head = 0;
        self.mask = cap as u32 - 1;
    }
}

/// The item `i` places from the front; panics past the last, as a
/// slice's index does.
impl<T: Copy> std::ops::Index<usize> for Ring<T> {
    type Output = T;

    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        assert!(i < self.len as usize, "ring index {i} out of range for length {}", self.len);
        self.at(self.slot(i as u32))
    }
}

impl<T: Copy> std::ops::IndexMut<usize> for Ring<T> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        assert!(i < self.len as usize, "ring index {i} out of range for length {}", self.len);
        let j = self.slot(i as u32);
        debug_assert!(j < self.buf.len());
        // SAFETY: as in `at` (a masked index into a non-empty buffer).
        unsafe { self.buf.get_unchecked_mut(j) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    #[test]
    #[should_panic(expected = "out of range")]
    fn index_past_the_end_panics() {
        let mut r: Ring<u32> = Ring::new();
        r.push_back(1);
        r.push_back(2);
        let _ = r[2];
    }

    /// Against `VecDeque`: random pushes, pops and removals through many
    /// wrap-arounds and growths.
    #[test]
    fn behaves_like_vecdeque() {
        let mut rng = crate::testrng::TestRng(3);
        let mut rnd = |m: u64| rng.below(m);
        let mut r: Ring<u32> = Ring::new();
        let mut v: VecDeque<u32> = VecDeque::new();
        for n in 0..20_000u32 {
            match rnd(10) {
                0..=4 => {
                    r.push_back(n);
                    v.push_back(n);
                }
                5..=6 => assert_eq!(r.pop_front(), v.pop_front()),
                7 => assert_eq!(r.pop_back(), v.pop_back()),
                8 => {
                    let i = rnd(v.len() as u64 + 2) as usize;
                    assert_eq!(r.remove(i), v.remove(i));
                }
                _ => {
                    let i = rnd(v.len() as u64 + 2) as usize;
                    assert_eq!(r.get(i), v.get(i));
                    if i < v.len() {
                        assert_eq!(r[i], v[i]);
                        r[i] += 0;
                    }
                }
            }
            assert_eq!(r.len(), v.len());
            // (the items are increasing: a partition at every threshold)
            let t = rnd(20_001) as u32;
            assert_eq!(r.partition_point(|&x| x < t), v.partition_point(|&x| x < t));
            assert_eq!(r.front(), v.front());
            assert_eq!(r.back(), v.back());
        }
        assert!(r.iter().eq(v.iter()));
        assert!(r.iter().rev().eq(v.iter().rev()));
        r.clear();
        assert!(r.is_empty() && r.front().is_none());
        r.push_back(7);
        assert_eq!((r.len(), r.front(), r.back()), (1, Some(&7), Some(&7)));
    }
}
