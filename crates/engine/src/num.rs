//! Numeric conversions the C++ code that ns-2 and ns-3 are written in does
//! implicitly, done explicitly here so that results match bit for bit.

/// C's `(int) x` for a double, as x86-64 computes it (`cvttsd2si`): the
/// value truncated toward zero, and `INT_MIN` for NaN or a value that does
/// not fit (the heavy tail of a Pareto draw can exceed `INT_MAX`; Vegas's
/// window arithmetic).
#[inline]
pub fn c_int(x: f64) -> i32 {
    if x.is_finite() && x > -2147483649.0 && x < 2147483648.0 {
        x as i32
    } else {
        i32::MIN
    }
}

#[cfg(test)]
mod tests {
    use super::c_int;

    #[test]
    fn c_int_truncates_and_gives_int_min_when_out_of_range() {
        assert_eq!(c_int(2.7), 2);
        assert_eq!(c_int(-2.7), -2);
        assert_eq!(c_int(2147483647.9), 2147483647);
        assert_eq!(c_int(2147483648.0), i32::MIN);
        assert_eq!(c_int(1e300), i32::MIN);
        assert_eq!(c_int(f64::INFINITY), i32::MIN);
        assert_eq!(c_int(f64::NAN), i32::MIN);
        // as ns-2's unsigned burst counter sees it
        assert_eq!(c_int(3e9 + 0.5) as u32, 2147483648);
    }

    #[test]
    fn c_int_truncates_like_x86() {
        assert_eq!(c_int(2.9), 2);
        assert_eq!(c_int(-2.9), -2);
        assert_eq!(c_int(f64::NAN), i32::MIN);
        assert_eq!(c_int(3e9), i32::MIN);
        assert_eq!(c_int(-3e9), i32::MIN);
        assert_eq!(c_int(2147483647.0), i32::MAX);
    }
}
