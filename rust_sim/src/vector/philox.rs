//! AscendC::PhiloxRandom<Rounds, T>(dst, philoxKey[2], philoxCounter[4], count | PhiloxRandomParams): Philox4x32
//! counter-based random numbers (Ascend 950 only; the 220x library compiles the call to nothing). As the
//! library computes them (asc-devkit philox_3510_impl.h, read for the facts):
//! - the 128-bit counter (philoxCounter[0] the low word) of output element e is philoxCounter + e / 4, and e gets
//!   word e % 4 of that counter's block: the four words of one counter lie together, in order;
//! - a block is Rounds rounds (default 7) of the Philox S-box: (lo0, hi0) = ctr0 * 0xD2511F53, (lo1, hi1) = ctr2 *
//!   0xCD9E8D57, then ctr = (hi1 ^ ctr1 ^ key0, lo1, hi0 ^ ctr3 ^ key1, lo0), and the key bumped by
//!   (0x9E3779B9, 0xBB67AE85) between rounds;
//! - a float T keeps the 23 low bits as the mantissa of a float in [1, 2) and subtracts 1: [0, 1);
//! - PhiloxRandomParams {stride, row, column}: dst row r (packed, column elements a row) gets the stream's
//!   elements r * stride .. r * stride + column.
//!
//! int32_t / uint32_t / float only (B32); stride and column must be multiples of 4, stride >= column.

use crate::api::{ApiOp, Args, Pipe, Registry, StackArray};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::program::Sv;

const WHAT: &str = "PhiloxRandom";
const MUL: [u32; 2] = [0xD251_1F53, 0xCD9E_8D57];
const BUMP: [u32; 2] = [0x9E37_79B9, 0xBB67_AE85];

#[derive(Debug)]
struct Philox {
    t: DType,
    rounds: u32,
    dst: u32,
    /// philoxKey, a uint32_t[2]
    key: StackArray,
    /// philoxCounter, a uint32_t[4]
    counter: StackArray,
    count: Option<Sv>,
    /// stride, row, column
    params: Option<[Sv; 3]>,
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let rounds = match a.targ("Rounds") {
        Some(v) => v
            .parse::<u32>()
            .map_err(|_| format!("PhiloxRandom's Rounds '{v}' is not a number"))?,
        None => 7,
    };
    let params = if a.has("params.stride") {
        Some([
            a.field("params", "stride")?,
            a.field("params", "row")?,
            a.field("params", "column")?,
        ])
    } else {
        None
    };
    Ok(Box::new(Philox {
        t: a.dtype("T")?,
        rounds,
        dst: a.handle("dstLocal")?,
        key: a.array("philoxKey", 2, 4, "uint32_t[2] array")?,
        counter: a.array("philoxCounter", 4, 4, "uint32_t[4] array")?,
        count: a.opt_sv("count")?,
        params,
    }))
}

/// One block: `rounds` rounds on counter `c` with key `k`.
pub fn philox_block(mut c: [u32; 4], mut k: [u32; 2], rounds: u32) -> [u32; 4] {
    for r in 0..rounds {
        if r > 0 {
            k = [k[0].wrapping_add(BUMP[0]), k[1].wrapping_add(BUMP[1])];
        }
        let p0 = c[0] as u64 * MUL[0] as u64;
        let p1 = c[2] as u64 * MUL[1] as u64;
        let (lo0, hi0) = (p0 as u32, (p0 >> 32) as u32);
        let (lo1, hi1) = (p1 as u32, (p1 >> 32) as u32);
        c = [hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0];
    }
    c
}

/// The 128-bit counter plus `n`.
pub fn counter_plus(c: [u32; 4], n: u64) -> [u32; 4] {
    let v = (c[0] as u128 | (c[1] as u128) << 32 | (c[2] as u128) << 64 | (c[3] as u128) << 96).wrapping_add(n as u128);
    [v as u32, (v >> 32) as u32, (v >> 64) as u32, (v >> 96) as u32]
}

/// Word `e` of the stream.
pub fn stream_word(c: [u32; 4], k: [u32; 2], rounds: u32, e: u64) -> u32 {
    philox_block(counter_plus(c, e / 4), k, rounds)[(e % 4) as usize]
}

/// A word as a float in [0, 1): its 23 low bits as the mantissa of [1, 2), minus 1.
pub fn to_unit_float(w: u32) -> f32 {
    f32::from_bits((w & 0x007F_FFFF) | 0x3F80_0000) - 1.0
}

impl ApiOp for Philox {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        if !matches!(self.t, DType::F32 | DType::I32 | DType::U32) {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "{WHAT} writes 32-bit elements (float, int32_t, uint32_t), not {}",
                    self.t.name()
                ),
            );
            return Flow::Next;
        }
        let key = self.key.first(cx, u64::MAX).map(|w| w as u32);
        let ctr = self.counter.first(cx, u64::MAX).map(|w| w as u32);
        // (dst element, stream element) pairs
        let (n, stream_at): (usize, Box<dyn Fn(usize) -> u64>) = match (self.count, self.params) {
            (Some(c), _) => (cx.uint(c) as usize, Box::new(|e| e as u64)),
            (None, Some(p)) => {
                let [stride, row, column] = p.map(|sv| cx.uint(sv) as usize);
                if stride % 4 != 0 || column % 4 != 0 || stride < column || row == 0 || column == 0 {
                    cx.report(
                        code::INVALID_OPERAND,
                        format!(
                            "{WHAT}'s PhiloxRandomParams {{stride {stride}, row {row}, column {column}}}: stride and \
                             column must be positive multiples of 4, stride >= column"
                        ),
                    );
                    return Flow::Next;
                }
                (
                    row * column,
                    Box::new(move |e| ((e / column) * stride + e % column) as u64),
                )
            }
            (None, None) => return Flow::Next,
        };
        crate::timing::vector_pass(cx.core, n as u64, 4);
        // dst is checked before anything is computed: PhiloxRandomParams whose row * column is more than dst holds
        // (or than any memory: 4 * n past usize) end in a finding, not an allocation or a loop of that size
        let Some(len) = n.checked_mul(4).and_then(|b| i64::try_from(b).ok()) else {
            cx.report(
                code::INVALID_OPERAND,
                format!("{WHAT} would write {n} elements of 4 bytes: more than any tensor holds"),
            );
            return Flow::Next;
        };
        let dst = cx.handle(self.dst);
        let Some(d) = cx.range(dst, 0, len, true, 4, WHAT) else {
            return Flow::Next;
        };
        let mut bytes = vec![0u8; n * 4];
        for (e, out) in bytes.chunks_exact_mut(4).enumerate() {
            let w = stream_word(ctr, key, self.rounds, stream_at(e));
            let bits = if self.t == DType::F32 {
                to_unit_float(w).to_bits()
            } else {
                w
            };
            out.copy_from_slice(&bits.to_le_bytes());
        }
        cx.store_bytes(dst, d, &bytes, &vec![1u8; bytes.len()], self.t, WHAT);
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(&["PhiloxRandom"], &["count", "params"], decode);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn philox4x32_10_known_answers() {
        // Random123's known-answer vectors for philox4x32 with 10 rounds
        assert_eq!(
            philox_block([0; 4], [0; 2], 10),
            [0x6627_e8d5, 0xe169_c58d, 0xbc57_ac4c, 0x9b00_dbd8]
        );
        assert_eq!(
            philox_block([u32::MAX; 4], [u32::MAX; 2], 10),
            [0x408f_276d, 0x41c8_3b0e, 0xa20b_c7c6, 0x6d54_51fd]
        );
    }

    #[test]
    fn stream_order_and_counter_carry() {
        // element 5 is word 1 of counter + 1; the counter carries across its 32-bit words
        let c = [u32::MAX, 0, 0, 0];
        assert_eq!(counter_plus(c, 1), [0, 1, 0, 0]);
        assert_eq!(stream_word(c, [1, 2], 7, 5), philox_block([0, 1, 0, 0], [1, 2], 7)[1]);
        assert_eq!(to_unit_float(0), 0.0);
        assert_eq!(to_unit_float(0xFFFF_FFFF), 1.0 - f32::EPSILON);
    }
}
