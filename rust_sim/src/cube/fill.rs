//! InitConstValue / Fill into L1, L0A or L0B: a constant written block by block (MTE1 on the cube core).
//!
//! asc-devkit's dav_c220 implementation (kernel_operator_mm_impl.h 614-705, InitL1BufferCal / InitL0ANzMatrixCal
//! / InitL0BNzMatrixCal) packs repeatTimes | blockNum << 16 | dstGap << 32 into one word for create_cbuf_matrix /
//! create_ca_matrix / create_cb_matrix, each field 15 bits (CheckInitConstValueParams). InitConstValue's page:
//! repeatTimes iterations, each writing blockNum blocks of initValue; a block is 32 bytes in A1/B1 and 512 bytes
//! in A2/B2, and dstGap (in the same unit) separates one iteration's end from the next one's start. The
//! destination must start 32-byte (A1/B1) or 512-byte (A2/B2) aligned. On the 910B the element types are
//! half, bfloat16, int16, uint16, float, int32 and uint32. InitConstValue is Fill's former name
//! (kernel_operator_mm_intf.h 381: "InitConstValue has been updated, please use Fill instead"); ops-nn's
//! conv3d_backprop_input_v2 zeroes L0A and L0B with it before an Mmad that clears L0C.

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::cube::write_runs;
use crate::dtype::DType;
use crate::memory::{MemKind, Space};
use crate::program::Sv;

#[derive(Debug)]
struct Fill {
    t: DType,
    dst: u32,
    repeat: Sv,
    blocks: Option<Sv>,
    gap: Option<Sv>,
    value: Option<Sv>,
    what: &'static str,
}

fn decode(a: &Args, what: &'static str) -> Result<Box<dyn ApiOp>, String> {
    let p = "initConstValueParams";
    Ok(Box::new(Fill {
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        repeat: a.field(p, "repeatTimes")?,
        blocks: a.opt_field(p, "blockNum")?,
        gap: a.opt_field(p, "dstGap")?,
        value: a.opt_field(p, "initValue")?,
        what,
    }))
}

/// The byte ranges one fill writes: `repeat` iterations of `blocks` blocks of `block` bytes, `gap` blocks apart.
pub fn ranges(repeat: usize, blocks: usize, gap: usize, block: usize) -> Vec<std::ops::Range<usize>> {
    (0..repeat)
        .map(|r| {
            let at = r * (blocks + gap) * block;
            at..at + blocks * block
        })
        .filter(|r| !r.is_empty())
        .collect()
}

impl ApiOp for Fill {
    fn pipe(&self) -> Pipe {
        Pipe::Mte1
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let what = self.what;
        let dst = cx.handle(self.dst);
        let block = match dst.space {
            Space::Local(MemKind::L1) => 32,
            Space::Local(MemKind::L0a | MemKind::L0b) => 512,
            _ => {
                cx.report(
                    code::INVALID_OPERAND,
                    format!("{what} writes outside L1, L0A and L0B (A1/B1/A2/B2), the places it fills"),
                );
                return Flow::Next;
            }
        };
        if dst.addr % block as i64 != 0 {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "{what} starts at byte {} of its memory, which is not {block}-byte aligned",
                    dst.addr
                ),
            );
            return Flow::Next;
        }
        if !matches!(self.t.size(), 2 | 4) {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "{what} of {} elements: the 910B fills half, bfloat16, int16, uint16, float, int32 and uint32",
                    self.t.name()
                ),
            );
            return Flow::Next;
        }
        let field = |s: Option<Sv>| s.map_or(0, |v| (cx.uint(v) & 0xFFFF) as usize);
        let (repeat, blocks, gap) = (field(Some(self.repeat)), field(self.blocks), field(self.gap));
        if repeat > 0x7FFF || blocks > 0x7FFF || gap > 0x7FFF {
            cx.report(
                code::INVALID_OPERAND,
                format!("{what}: repeatTimes {repeat}, blockNum {blocks}, dstGap {gap}: each at most 32767"),
            );
            return Flow::Next;
        }
        let size = self.t.size();
        let bits = self.value.map_or(0, |v| cx.value_as(v, self.t));
        let mut one = vec![0u8; size];
        self.t.store_bits(&mut one, bits);
        let runs: Vec<_> = ranges(repeat, blocks, gap, block)
            .into_iter()
            .map(|r| {
                let data: Vec<u8> = one.iter().copied().cycle().take(r.len()).collect();
                (r.start as i64, data, vec![1u8; r.len()])
            })
            .collect();
        write_runs(cx, dst, &runs, self.t, what);
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add("InitConstValue.local", |a| decode(a, "InitConstValue"));
    r.add("Fill.local", |a| decode(a, "Fill"));
}

#[cfg(test)]
mod tests {
    use super::ranges;
    use crate::cube::tests::{read_f16, read_f32, Rig};
    use crate::memory::MemKind;

    /// InitConstValue<T> of (repeat r3, blockNum r4, dstGap r5, initValue r6 = 3) into `place` at byte `at`.
    fn fill(t: &str, place: &str, at: u64, repeat: u64, blocks: u64, gap: u64) -> crate::cube::tests::Out {
        let consts: Vec<(u32, &str, u64)> = vec![
            (0, "i32", at),
            (1, "i32", 8192),
            (3, "i16", repeat),
            (4, "i16", blocks),
            (5, "i16", gap),
            (6, "i32", 3),
        ];
        let code = format!(
            "  h1 = LocalAt.{t} {place} r0:i32 r1:i32\n  \
             call InitConstValue.local<T={t}> dst=h1 initConstValueParams.repeatTimes=r3:i16 \
             initConstValueParams.blockNum=r4:i16 initConstValueParams.dstGap=r5:i16 \
             initConstValueParams.initValue=r6:i32"
        );
        Rig::new("aic").run(&consts, &code)
    }

    #[test]
    fn the_iterations_by_hand() {
        // 3 iterations of 2 blocks of 32 bytes, 1 block apart: [0, 64), [96, 160), [192, 256)
        assert_eq!(ranges(3, 2, 1, 32), vec![0..64, 96..160, 192..256]);
        // blockNum 0 writes nothing
        assert!(ranges(4, 0, 2, 512).is_empty());
    }

    #[test]
    fn l0a_half_in_512_byte_blocks_and_l1_float_in_32_byte_blocks() {
        // L0A: 2 iterations of one 512-byte fractal, one fractal apart: halves 0..256 and 512..768 are 3.0
        let out = fill("f16", "L0A", 0, 2, 1, 1);
        assert!(out.codes().is_empty(), "{:?}", out.findings.list);
        let v = read_f16(&out.mem(MemKind::L0a)[..2048]);
        assert!(v[..256].iter().all(|x| *x == 3.0));
        assert!(v[256..512].iter().all(|x| *x == 0.0));
        assert!(v[512..768].iter().all(|x| *x == 3.0));
        assert!(v[768..].iter().all(|x| *x == 0.0));
        // L1 from byte 64: 3 iterations of 2 blocks of 32 bytes, a block apart (floats 16 + [0, 16), [24, 40),
        // [48, 64))
        let out = fill("f32", "L1", 64, 3, 2, 1);
        assert!(out.codes().is_empty(), "{:?}", out.findings.list);
        let v = read_f32(&out.mem(MemKind::L1)[..512]);
        let want: Vec<f32> = (0..128)
            .map(|i| match i {
                16..=31 | 40..=55 | 64..=79 => 3.0,
                _ => 0.0,
            })
            .collect();
        assert_eq!(v, want);
    }

    #[test]
    fn misaligned_or_misplaced_destinations_are_reported() {
        assert_eq!(fill("f16", "L0B", 32, 1, 1, 0).codes(), vec!["ASC959"]); // L0B not 512-byte aligned
        assert_eq!(fill("f32", "UB", 0, 1, 1, 0).codes(), vec!["ASC959"]); // not L1 / L0A / L0B
        assert_eq!(fill("f16", "L1", 0, 40000, 1, 0).codes(), vec!["ASC959"]); // repeatTimes over 32767
    }
}
