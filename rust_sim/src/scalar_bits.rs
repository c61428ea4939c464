//! The scalar unit's bit intrinsics of kernel_operator_scalar_intf.h (asc-devkit impl/basic_api/kernel_scalar.h):
//! GetBitCount<v> (older name ScalarGetCountOfValue; bcnt1 / bcnt0), CountLeadingZero (ScalarCountLeadingZero;
//! clz), GetSFFValue<v> (ScalarGetSFFValue; sff1 / sff0: the lowest bit equal to v, -1 if none),
//! CountBitsCntSameAsSignBit (its page: the bits below the sign bit, from the top, equal to it), and the 3510's
//! GetUintDivMagicAndShift<T>(magic, shift, divisor), the magic number and shift of a division by `divisor` done
//! as a multiply-high (GetUintDivMagicAndShiftImpl), computed here as that function computes them.

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::program::Sv;

#[derive(Debug, Clone, Copy)]
enum Kind {
    /// the number of bits equal to the value (0 or 1)
    Count(bool),
    LeadingZeros,
    /// the position of the lowest bit equal to the value, -1 if none
    FirstSet(bool),
    SameAsSign,
    /// GetUintDivMagicAndShift: T is 64 bits wide
    DivMagic(bool),
}

#[derive(Debug)]
struct Bits {
    kind: Kind,
    value: Sv,
    result: Option<Sv>,
    /// GetUintDivMagicAndShift's output parameters
    out: Option<(Sv, Sv)>,
}

fn count_value(a: &Args) -> Result<bool, String> {
    match a.targ("countValue") {
        Some("0") => Ok(false),
        Some("1") => Ok(true),
        other => Err(format!(
            "{} with countValue {other:?}: the header allows 0 or 1 (a static_assert)",
            a.api
        )),
    }
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let kind = match a.api.as_str() {
        "GetBitCount" | "ScalarGetCountOfValue" => Kind::Count(count_value(a)?),
        "CountLeadingZero" | "ScalarCountLeadingZero" => Kind::LeadingZeros,
        "GetSFFValue" | "ScalarGetSFFValue" => Kind::FirstSet(count_value(a)?),
        "CountBitsCntSameAsSignBit" => Kind::SameAsSign,
        "GetUintDivMagicAndShift" => {
            let t = a.dtype("T")?;
            if t.is_float() || t.size() < 4 {
                return Err(format!(
                    "GetUintDivMagicAndShift with T = {t:?}: the header supports uint32_t and uint64_t"
                ));
            }
            return Ok(Box::new(Bits {
                kind: Kind::DivMagic(t.size() == 8),
                value: a.sv("divisor")?,
                result: None,
                out: Some((a.sv("magic")?, a.sv("shift")?)),
            }));
        }
        other => return Err(format!("no scalar bit intrinsic {other}")),
    };
    Ok(Box::new(Bits {
        kind,
        value: a.sv("valueIn")?,
        result: a.result_sv(),
        out: None,
    }))
}

/// The quotient of a 128-bit (dividend << 64) / divisor, rounded up: GetUintDivMagic's long division, which
/// shifts `dividend` left by 64 and returns quotient + 1.
fn magic64(dividend: u64, divisor: u64) -> u64 {
    let q = ((dividend as u128) << 64) / divisor as u128;
    (q as u64).wrapping_add(1)
}

impl ApiOp for Bits {
    fn pipe(&self) -> Pipe {
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let v = cx.uint(self.value);
        let value: i64 = match self.kind {
            Kind::Count(one) => (if one { v.count_ones() } else { v.count_zeros() }) as i64,
            Kind::LeadingZeros => v.leading_zeros() as i64,
            Kind::FirstSet(one) => {
                let bits = if one { v } else { !v };
                if bits == 0 {
                    -1
                } else {
                    bits.trailing_zeros() as i64
                }
            }
            Kind::SameAsSign => {
                let x = cx.int(self.value);
                let same = if x < 0 { (!x).leading_zeros() } else { x.leading_zeros() };
                same as i64 - 1
            }
            Kind::DivMagic(wide) => {
                let limit = if wide { i64::MAX as u64 } else { i32::MAX as u64 };
                if v == 0 || v > limit {
                    cx.report(
                        code::INVALID_OPERAND,
                        format!(
                            "GetUintDivMagicAndShift of divisor {v}: the divisor must be in [1, {limit}] \
                             (the implementation's assert)"
                        ),
                    );
                    return Flow::Next;
                }
                // shift = bit length of the divisor, one less for a power of two
                let pos = 64 - v.leading_zeros() as u64;
                let shift = if v.count_ones() == 1 { pos - 1 } else { pos };
                let magic = if wide {
                    let dividend = if shift < 64 {
                        (1u64 << shift).wrapping_sub(v)
                    } else {
                        0u64.wrapping_sub(v) // UINT64_MAX - divisor + 1
                    };
                    magic64(dividend, v)
                } else {
                    // (1 << 32) * ((1 << shift) - divisor) / divisor + 1, in int64_t
                    (((1i64 << 32) * ((1i64 << shift) - v as i64)) / v as i64 + 1) as u64
                };
                if let Some((m, s)) = self.out {
                    cx.set(m.reg, m.ty, magic);
                    cx.set(s.reg, s.ty, shift);
                }
                return Flow::Next;
            }
        };
        if let Some(r) = self.result {
            cx.set(r.reg, r.ty, value as u64);
        }
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(
        &[
            "GetBitCount",
            "ScalarGetCountOfValue",
            "CountLeadingZero",
            "ScalarCountLeadingZero",
            "GetSFFValue",
            "ScalarGetSFFValue",
            "CountBitsCntSameAsSignBit",
            "GetUintDivMagicAndShift",
        ],
        &["plain"],
        decode,
    );
}

#[cfg(test)]
mod tests {
    use super::magic64;
    use crate::checks::Findings;
    use crate::test_rig::Rig;

    /// Runs `code` with r1 = `x` (i64) on one core; the registers afterwards and the findings.
    fn run(x: u64, code: &str) -> (Vec<u64>, Findings) {
        let out = Rig::new(format!(
            "kernel k aiv\nchip 950PR\nregs 32 4\nstack 0\nconst r1 i64 {x}\n"
        ))
        .run(code);
        (out.core.r.to_vec(), out.findings)
    }

    #[test]
    fn the_pages_examples() {
        let (r, f) = run(
            0x1000000000000100,
            "  r2:i64 = call GetSFFValue.plain<countValue=1> valueIn=r1:i64",
        );
        assert!(f.list.is_empty(), "{:?}", f.list);
        assert_eq!(r[2], 8);
        let (r, _) = run(
            0x0100000000000020,
            "  r2:i64 = call CountBitsCntSameAsSignBit.plain valueIn=r1:i64",
        );
        assert_eq!(r[2], 6);
        let (r, _) = run(
            0b1011,
            "  r2:i64 = call ScalarGetCountOfValue.plain<countValue=1> valueIn=r1:i64",
        );
        assert_eq!(r[2], 3);
        let (r, _) = run(0b1011, "  r2:i64 = call GetBitCount.plain<countValue=0> valueIn=r1:i64");
        assert_eq!(r[2], 61);
        let (r, _) = run(1 << 40, "  r2:i64 = call ScalarCountLeadingZero.plain valueIn=r1:i64");
        assert_eq!(r[2], 23);
        let (r, _) = run(0, "  r2:i64 = call GetSFFValue.plain<countValue=1> valueIn=r1:i64");
        assert_eq!(r[2] as i64, -1);
    }

    /// n / d through the magic: the 3510's multiply-high division, (mulhi(n, magic) + n) >> shift for 32 bits.
    fn div32(n: u32, magic: u64, shift: u64) -> u64 {
        ((((n as u64) * magic) >> 32) + n as u64) >> shift
    }

    #[test]
    fn the_32_bit_magic_divides_exactly() {
        for d in [1u64, 2, 3, 7, 10, 12, 64, 1000, 65_537, 2_147_483_647] {
            let code = "  call GetUintDivMagicAndShift.plain<T=u32> magic=&r2:i32 shift=&r3:i32 divisor=r1:i32";
            let (r, f) = run(d, code);
            assert!(f.list.is_empty(), "{:?}", f.list);
            for n in [0u32, 1, 5, 99, 1 << 20, 123_456_789, u32::MAX >> 1] {
                assert_eq!(div32(n, r[2], r[3]), n as u64 / d, "{n} / {d}");
            }
        }
        let (_, f) = run(
            0,
            "  call GetUintDivMagicAndShift.plain<T=u32> magic=&r2:i32 shift=&r3:i32 divisor=r1:i32",
        );
        assert!(f.list.iter().any(|d| d.code == "ASC959"), "{:?}", f.list);
    }

    #[test]
    fn the_64_bit_magic_is_the_rounded_up_quotient() {
        // d = 3: shift 2, dividend 4 - 3 = 1, magic = 2^64 / 3 + 1
        assert_eq!(magic64(1, 3), (u64::MAX / 3) + 1);
        let (r, _) = run(
            3,
            "  call GetUintDivMagicAndShift.plain<T=u64> magic=&r2:i64 shift=&r3:i64 divisor=r1:i64",
        );
        assert_eq!((r[2], r[3]), ((u64::MAX / 3) + 1, 2));
    }
}
