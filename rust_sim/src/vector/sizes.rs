//! The size checks the high-level APIs share: a tensor holding fewer bytes than the call's shape needs, and a
//! shape whose byte count no tensor could have (the shape fields are the caller's uint32_t values, and a
//! product of two of them and an element size can pass u64: unchecked, it wraps, passes the size check and
//! has the API index past what it read).

use crate::checks::code;
use crate::core::Ctx;

/// Reports (ASC959) a tensor holding fewer than `need` bytes; true when it did.
pub(crate) fn too_small(cx: &mut Ctx, api: &str, what: &str, h: u32, need: usize, why: &str) -> bool {
    let have = cx.handle(h).len;
    if have >= 0 && (have as usize) < need {
        cx.report(
            code::INVALID_OPERAND,
            format!("{api}'s {what} holds {have} bytes, but {why} needs {need}"),
        );
        return true;
    }
    false
}

/// The product of `factors` (elements times an element size) where it is a byte count a tensor could have (up
/// to i64::MAX); None past that. The factors are the caller's uint32_t shape fields: two of them and a size can
/// pass u64, and a product that wrapped could pass a size check and then index past what was read.
pub(crate) fn checked_bytes(factors: &[usize]) -> Option<usize> {
    factors
        .iter()
        .try_fold(1usize, |p, &f| p.checked_mul(f))
        .filter(|&p| i64::try_from(p).is_ok())
}

/// Reports (ASC959) a shape of more bytes than any tensor holds.
pub(crate) fn report_oversized(cx: &mut Ctx, api: &str, shape: String) {
    cx.report(
        code::INVALID_OPERAND,
        format!("{api}'s {shape} is more bytes than any tensor holds"),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_counts_past_i64_are_none() {
        assert_eq!(checked_bytes(&[3, 5, 4]), Some(60));
        // 2^31 rows of 2^31 floats: 2^64 bytes, which wraps to 0 unchecked
        assert_eq!(checked_bytes(&[1 << 31, 1 << 31, 4]), None);
        assert_eq!(checked_bytes(&[1 << 31, 1 << 30, 4]), None);
        assert_eq!(checked_bytes(&[u32::MAX as usize, 0, 4]), Some(0));
    }
}
