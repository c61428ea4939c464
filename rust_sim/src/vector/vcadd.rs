//! The compiler intrinsic `vcadd(dst, src, repeat, dstRepeatStride, srcBlockStride, srcRepeatStride, mode)` and
//! the SPR.ACC_VAL register it can write, read by `GetAccVal()` / `get_acc_val()`.
//!
//! Per the CCE intrinsic page (cceintrinsicapi vcadd): each repeat sums the lanes of 8 blocks that the current
//! mask register selects (the intrinsic takes no mask of its own: AscendCUtils::SetMask / set_vector_mask set
//! it before); src strides count 32-byte blocks, dstRepeatStride counts elements. Mode 0 writes each repeat's
//! sum to dst + r * dstRepeatStride and leaves ACC_VAL as it was; mode 1 clears ACC_VAL, adds every repeat's sum
//! into it in sequence, each sum rounded to the element type (ReduceSum's method 2, reduce/order.rs), and writes
//! nothing to dst (kernels pass nullptr). ACC_VAL holds the sum as the bits of the element type,
//! which kernels read back with `*reinterpret_cast<float *>(&accVal)`.

use crate::api::{ApiOp, Arg, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::program::Sv;
use crate::vector::reduce::{partials_in_sequence, per_repeat, repeat_sum, write_vals};
use crate::vector::{check_footprint, geoms, plan, Form, MaskArg, Stride};

#[derive(Debug)]
struct Vcadd {
    t: DType,
    /// None: the `nullptr` destination of the accumulate form
    dst: Option<u32>,
    src: u32,
    form: Form,
    dst_rep: Sv,
    mode: Sv,
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let repeat = a.sv("repeatTime")?;
    let form = Form::Repeat {
        // not read: with set_mask false the lanes come from the mask register, as the intrinsic's do
        mask: MaskArg::Cont(repeat),
        repeat: Some(repeat),
        set_mask: false,
        strides: vec![Stride {
            blk: Some(a.sv("srcBlkStride")?),
            rep: Some(a.sv("srcRepStride")?),
        }],
    };
    Ok(Box::new(Vcadd {
        t: a.dtype("T")?,
        dst: if a.has("dst") { Some(a.handle("dst")?) } else { None },
        src: a.handle("src")?,
        form,
        dst_rep: a.sv("dstRepStride")?,
        mode: a.sv("mode")?,
    }))
}

impl ApiOp for Vcadd {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let t = self.t;
        let g = geoms(cx, &[self.src], &[t]);
        let Some(p) = plan(cx, &self.form, &g, "vcadd") else {
            return Flow::Next;
        };
        let Some(mem) = check_footprint(cx, &g, &p.runs, &["src"], "vcadd") else {
            return Flow::Next;
        };
        let (reps, init) = per_repeat(cx, mem, &p, t);
        if cx.uint(self.mode) != 0 {
            let firsts: Vec<f32> = reps.iter().map(|(_, vals, lanes)| repeat_sum(t, vals, lanes)).collect();
            let total = partials_in_sequence(t, &firsts);
            let mut bytes = vec![0u8; t.size()];
            crate::vector::elem::store_f32(t, &[total], &mut bytes);
            cx.core.acc_val = t.load_bits(&bytes);
            return Flow::Next;
        }
        let Some(dst) = self.dst else {
            cx.report(
                code::INVALID_OPERAND,
                "vcadd in mode 0 (one sum per repeat to dst) with a null dst".to_string(),
            );
            return Flow::Next;
        };
        let dst = cx.handle(dst);
        let step = cx.uint(self.dst_rep) as i64 * t.size() as i64;
        for (r, vals, lanes) in &reps {
            let val = repeat_sum(t, vals, lanes);
            write_vals(cx, dst, *r as i64 * step, &[val], t, init, "vcadd");
        }
        Flow::Next
    }
}

/// GetAccVal() / get_acc_val(): ACC_VAL as an int64_t.
#[derive(Debug)]
struct ReadAccVal {
    result: Option<Sv>,
}

fn decode_read(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let result = match a.results.first() {
        Some(Arg::Reg(sv)) => Some(*sv),
        _ => None,
    };
    Ok(Box::new(ReadAccVal { result }))
}

impl ApiOp for ReadAccVal {
    fn pipe(&self) -> Pipe {
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        if let Some(r) = self.result {
            let v = cx.core.acc_val;
            cx.set(r.reg, r.ty, v);
        }
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(&["vcadd"], &["dst", "acc"], decode);
    r.add_all(&["GetAccVal", "get_acc_val"], &["plain"], decode_read);
}

#[cfg(test)]
mod tests {
    use crate::memory::MemKind;
    use crate::test_rig::{f32_bytes, Out, Rig};

    /// Runs `code` on one core whose UB holds 0.0, 1.0, ... 255.0 (f32) from byte 0: h1 is that ramp, h2 a
    /// tensor at byte 2048. Registers: r1 = 0, r2 = 512 elements, r3 = 2048, r4 = 8, r5 = 3, r6 = 1, r7 = 0,
    /// r8 = 2, r9 = 64.
    fn run(code: &str) -> Out {
        let mut text = String::from("kernel k aiv\nchip 910B2\nmem UB 196608 32\nregs 64 32\nstack 0\n");
        for (r, v) in (1..).zip([0, 512, 2048, 8, 3, 1, 0, 2, 64]) {
            text += &format!("const r{r} i32 {v}\n");
        }
        Rig::new(text)
            .fill(MemKind::Ub, 0, f32_bytes((0..256).map(|i| i as f32)))
            .run(&format!(
                "  h1 = LocalAt.f32 UB r1:i32 r2:i32\n  h2 = LocalAt.f32 UB r3:i32 r2:i32\n{code}"
            ))
    }

    const ACC: &str = "call vcadd.acc<T=f32> src=h1 repeatTime=r5:i32 dstRepStride=r6:i32 srcBlkStride=r6:i32 \
                       srcRepStride=r4:i32 mode=r6:i32";

    #[test]
    fn accumulate_mode_sums_every_repeat_under_the_mask_into_acc_val() {
        // mask: the first 8 lanes of each repeat; 3 repeats 8 blocks apart: elements 0..8, 64..72, 128..136
        let out = run(&format!(
            "  call SetMask.len<T=f32> len=r4:i32\n  {ACC}\n  r10:i64 = call GetAccVal.plain\n"
        ));
        assert!(out.findings.list.is_empty(), "{:?}", out.findings.list);
        // 28 + 540 + 1052
        assert_eq!(f32::from_bits(out.core.acc_val as u32), 1620.0);
        assert_eq!(f32::from_bits(out.core.r[10] as u32), 1620.0);
        // a second accumulate starts from zero: one repeat of all 64 lanes, 0 + 1 + ... + 63
        let out = run(&format!(
            "  call SetMask.len<T=f32> len=r4:i32\n  {ACC}\n  call SetMask.len<T=f32> len=r9:i32\n  \
             call vcadd.acc<T=f32> src=h1 repeatTime=r6:i32 dstRepStride=r6:i32 srcBlkStride=r6:i32 \
             srcRepStride=r4:i32 mode=r6:i32\n  r10:i64 = call get_acc_val.plain\n"
        ));
        assert_eq!(f32::from_bits(out.core.r[10] as u32), 2016.0);
    }

    #[test]
    fn mode_zero_writes_one_sum_per_repeat_and_leaves_acc_val() {
        // 8 lanes, 3 repeats 8 blocks apart, sums written dstRepStride 2 elements apart
        let out = run(&format!(
            "  call SetMask.len<T=f32> len=r4:i32\n  {ACC}\n  \
             call vcadd.dst<T=f32> dst=h2 src=h1 repeatTime=r5:i32 dstRepStride=r8:i32 srcBlkStride=r6:i32 \
             srcRepStride=r4:i32 mode=r7:i32\n"
        ));
        assert!(out.findings.list.is_empty(), "{:?}", out.findings.list);
        let sums = out.ub_f32(2048, 6);
        assert_eq!((sums[0], sums[2], sums[4]), (28.0, 540.0, 1052.0));
        assert_eq!(f32::from_bits(out.core.acc_val as u32), 1620.0);
        // a block stride of 2: lanes 0..8 of a repeat are block 0, lanes 8..16 block 2 (elements 16..24)
        let out = run("  call SetMask.len<T=f32> len=r9:i32\n  \
             call vcadd.dst<T=f32> dst=h2 src=h1 repeatTime=r6:i32 dstRepStride=r6:i32 srcBlkStride=r8:i32 \
             srcRepStride=r4:i32 mode=r7:i32\n");
        // blocks 0, 2, ... 14: elements 16b .. 16b + 8 for b in 0..8: sum over b of (128 b + 28)
        assert_eq!(
            out.ub_f32(2048, 1)[0],
            (0..8).map(|b| 128.0 * b as f32 + 28.0).sum::<f32>()
        );
    }
}
