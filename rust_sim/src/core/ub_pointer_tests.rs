//! `ub2ptr`: a UB byte address used as a pointer (`p[i]` through a `__ubuf__ T *`, a SIMT thread's or a vector
//! function's scalar access), read and written with GetValue / SetValue of the handle it makes.

use crate::checks::Findings;
use crate::test_rig::Rig;

/// Runs `code` on one 950PR core; the registers afterwards and the findings.
fn run(consts: &str, code: &str) -> (Vec<u64>, Findings) {
    let out = Rig::new(format!(
        "kernel k aiv\nchip 950PR\nmem UB 253952 32\nregs 16 4\nstack 0\n{consts}"
    ))
    .run(code);
    (out.core.r.to_vec(), out.findings)
}

#[test]
fn a_ub_address_reads_back_what_was_written_there() {
    // p = UB + 64 bytes: p[3] = 7 writes bytes 76..80; q = UB + 72 reads them as q[1]; an int read of p[3]'s bytes
    let consts = "const r1 i64 64\nconst r2 i64 3\nconst r3 f32 0x40e00000\nconst r4 i64 72\nconst r5 i64 1\n";
    let code = "  h1 = ub2ptr r1\n  SetValue.f32 h1 r2:i64 r3:f32\n  h2 = ub2ptr r4\n  r6 = GetValue.f32 h2 r5:i64\n  \
                r7 = GetValue.u32 h1 r2:i64";
    let (r, f) = run(consts, code);
    assert!(f.list.is_empty(), "{:?}", f.list);
    assert_eq!(r[6] as u32, 7.0f32.to_bits());
    assert_eq!(r[7] as u32, 0x40e00000);
}

#[test]
fn an_address_past_ub_is_a_finding_not_a_panic() {
    let consts = "const r1 i64 1099511627776\nconst r2 i64 0\n";
    let (_, f) = run(consts, "  h1 = ub2ptr r1\n  r3 = GetValue.f32 h1 r2:i64");
    assert!(!f.list.is_empty(), "a read far past UB is reported");
}
