//! AscendIR simulator core.
//!
//! The simulator proper arrives with its own issue; until then this crate holds
//! what proves the Python <-> Rust wiring: a version string and the chip memory
//! capacity table lookup the verifier and the simulator will both use.

use pyo3::prelude::*;

/// Crate version, so Python can tell which build it imported.
pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// Round `bytes` up to the next multiple of `align` (a power of two or not);
/// the rule TPipe::InitBuffer applies to every buffer length (32 B on UB).
pub fn align_up(bytes: u64, align: u64) -> Option<u64> {
    if align == 0 {
        return None;
    }
    bytes.checked_add(align - 1).map(|v| v / align * align)
}

#[pyfunction(name = "version")]
fn py_version() -> &'static str {
    version()
}

#[pyfunction(name = "align_up")]
fn py_align_up(bytes: u64, align: u64) -> PyResult<u64> {
    align_up(bytes, align).ok_or_else(|| {
        pyo3::exceptions::PyValueError::new_err(format!(
            "cannot align {bytes} bytes to {align}: alignment must be positive and the result must fit in 64 bits"
        ))
    })
}

#[pymodule]
fn _sim(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(py_version, m)?)?;
    m.add_function(wrap_pyfunction!(py_align_up, m)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn align_up_rounds_to_multiple() {
        assert_eq!(align_up(0, 32), Some(0));
        assert_eq!(align_up(1, 32), Some(32));
        assert_eq!(align_up(32, 32), Some(32));
        assert_eq!(align_up(100, 32), Some(128));
    }

    #[test]
    fn align_up_rejects_zero_and_overflow() {
        assert_eq!(align_up(5, 0), None);
        assert_eq!(align_up(u64::MAX, 32), None);
    }

    #[test]
    fn version_is_set() {
        assert!(!version().is_empty());
    }
}
