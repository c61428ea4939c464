//! One copy out of L0C with every size resolved: NZ to ND or NZ, each element through the conversion, checked
//! against both memories.

use super::{convert, Quant};
use crate::checks::code;
use crate::core::Ctx;
use crate::cube::{read, write_runs};
use crate::dtype::DType;
use crate::memory::{Handle, MemKind, Space};

/// One copy out of L0C, every size resolved.
#[derive(Clone, Debug)]
pub struct FixOut {
    pub n: usize,
    pub m: usize,
    /// elements between the starts of adjacent z-columns in L0C
    pub src_col: usize,
    /// ND: elements between rows; NZ: bytes between z-columns
    pub dst_stride: i64,
    pub nd: bool,
    pub nd_num: usize,
    /// elements between the L0C matrices / the destination matrices
    pub src_nd: usize,
    pub dst_nd: i64,
    pub quant: Quant,
    pub scalar: u64,
    pub relu: bool,
    /// NZ destination: columns per z-column, 16, or 8 with the float channel split (isChannelSplit)
    pub zcol: usize,
}

/// Copies L0C (`src`, elements of `st`) to `dst` (elements of `dt`) as `p` says.
pub fn fixpipe(cx: &mut Ctx, dst: Handle, src: Handle, dt: DType, st: DType, p: &FixOut, what: &str) {
    if p.n == 0 || p.m == 0 || p.nd_num == 0 {
        return;
    }
    let src = crate::cube::fixed_buffer(cx, src, MemKind::L0c, what);
    if !matches!(st, DType::F32 | DType::I32) {
        cx.report(
            code::INVALID_OPERAND,
            format!("{what} reads L0C as {}; L0C holds float or int32_t results", st.name()),
        );
        return;
    }
    if !p.quant.types().contains(&(st, dt)) {
        cx.report(
            code::INVALID_OPERAND,
            format!(
                "{what} with quantPre {:?} copies {} to {}; that mode converts {}",
                p.quant,
                st.name(),
                dt.name(),
                p.quant
                    .types()
                    .iter()
                    .map(|(s, d)| format!("{} to {}", s.name(), d.name()))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
        );
        return;
    }
    if let Space::Local(m) = src.space {
        if m != MemKind::L0c {
            cx.report(
                code::INVALID_OPERAND,
                format!("{what} reads {}; the fixpipe reads L0C", m.name()),
            );
            return;
        }
    }
    // the per-channel parameters, one uint64 per column
    let params: Vec<u64> = if p.quant.per_channel() {
        let Some(t) = cx.core.cube.quant_tensor else {
            cx.report(
                code::NOT_MODELLED,
                format!(
                    "{what} with the per-channel quantPre {:?} but no quantisation tensor set (SetFixPipeConfig)",
                    p.quant
                ),
            );
            return;
        };
        let Some(r) = read(cx, t, 0, (p.n * 8) as i64, 8, "the Fixpipe quantisation tensor") else {
            return;
        };
        (0..p.n).map(|j| DType::U64.load_bits(&r.data[j * 8..])).collect()
    } else {
        Vec::new()
    };
    let ss = st.size();
    let src_index = |nd: usize, i: usize, j: usize| nd * p.src_nd + (j / 16) * p.src_col + i * 16 + j % 16;
    let last = src_index(p.nd_num - 1, p.m - 1, p.n - 1) + 1;
    let Some(region) = read(cx, src, 0, (last * ss) as i64, ss, what) else {
        return;
    };
    let ds = dt.size();
    let mut runs: Vec<(i64, Vec<u8>, Vec<u8>)> = Vec::new();
    for nd in 0..p.nd_num {
        for i in 0..p.m {
            if p.nd {
                // one row of n elements
                let mut data = vec![0u8; p.n * ds];
                let mut init = vec![0u8; p.n * ds];
                for j in 0..p.n {
                    let at = src_index(nd, i, j) * ss;
                    let bits = st.load_bits(&region.data[at..]);
                    let param = if p.quant.per_channel() { params[j] } else { p.scalar };
                    dt.store_bits(&mut data[j * ds..], convert(bits, st, dt, p.quant, param, p.relu));
                    init[j * ds..(j + 1) * ds].fill(region.is_init(at, ss) as u8);
                }
                let off = (nd as i64 * p.dst_nd + i as i64 * p.dst_stride) * ds as i64;
                runs.push((off, data, init));
            } else {
                let z = p.zcol;
                for col in 0..p.n.div_ceil(z) {
                    let width = z.min(p.n - col * z);
                    let mut data = vec![0u8; width * ds];
                    let mut init = vec![0u8; width * ds];
                    for c in 0..width {
                        let j = col * z + c;
                        let at = src_index(nd, i, j) * ss;
                        let bits = st.load_bits(&region.data[at..]);
                        let param = if p.quant.per_channel() { params[j] } else { p.scalar };
                        dt.store_bits(&mut data[c * ds..], convert(bits, st, dt, p.quant, param, p.relu));
                        init[c * ds..(c + 1) * ds].fill(region.is_init(at, ss) as u8);
                    }
                    let off = nd as i64 * p.dst_nd * ds as i64 + col as i64 * p.dst_stride + (i * z * ds) as i64;
                    runs.push((off, data, init));
                }
            }
        }
    }
    if !p.nd {
        runs.sort_by_key(|r| r.0);
    }
    write_runs(cx, dst, &runs, dt, what);
}

#[cfg(test)]
mod tests {
    use crate::cube::tests::{f32_bytes, read_f32, Rig};
    use crate::memory::{GmRole, MemKind};

    /// A 16 x 32 float matrix (value i * 100 + j) in L0C NZ copied to GM as CFG_NZ with isChannelSplit `split`
    /// (dstStride r6 in 32-byte units), `t` the destination type.
    fn split_copy(t: &str, split: u64, dst_stride: u64) -> crate::cube::tests::Out {
        let mut l0c = vec![0f32; 512];
        for i in 0..16 {
            for j in 0..32 {
                l0c[(j / 16) * 256 + i * 16 + j % 16] = (i * 100 + j) as f32;
            }
        }
        Rig::new("aic")
            .gm("c", GmRole::Output, vec![0; 512 * 4])
            .fill(MemKind::L0c, 0, f32_bytes(&l0c))
            .run(
                &[
                    (1, "i32", 0),
                    (2, "i32", 512),
                    (3, "i16", 32),
                    (4, "i16", 16),
                    (5, "i16", 16),
                    (6, "i32", dst_stride),
                    (7, "i32", 0),
                    (8, "i1", split),
                ],
                &format!(
                    "  h1 = LocalAt.f32 L0C r1:i32 r2:i32\n  \
                     call Fixpipe.gm<T={t},U=f32,config=CFG_NZ> dst=h0 src=h1 intriParams.nSize=r3:i16 \
                     intriParams.mSize=r4:i16 intriParams.srcStride=r5:i16 intriParams.dstStride=r6:i32 \
                     intriParams.quantPre=r7:i32 intriParams.isChannelSplit=r8:i1"
                ),
            )
    }

    #[test]
    fn the_channel_split_stores_float_nz_as_16_x_8_fractals() {
        // z-columns of 8 floats, dstStride 16 x 8 x 4 / 32 = 16 blocks apart: [N / 8][M][8]; element (i, j) at
        // (j / 8) * 128 + i * 8 + j % 8, so (3, 21) at 2 * 128 + 24 + 5
        let out = split_copy("f32", 1, 16);
        assert!(out.codes().is_empty(), "{:?}", out.findings.list);
        let c = read_f32(&out.gm[0]);
        for (i, j) in [(0usize, 0usize), (3, 21), (15, 31), (7, 8)] {
            assert_eq!(c[(j / 8) * 128 + i * 8 + j % 8], (i * 100 + j) as f32, "({i}, {j})");
        }
        assert_eq!(c[2 * 128 + 24 + 5], 321.0);
        // without the split: 16-wide z-columns, dstStride 16 x 16 x 4 / 32 = 32
        let plain = read_f32(&split_copy("f32", 0, 32).gm[0]);
        assert_eq!(plain[256 + 3 * 16 + 5], 321.0);
        // the split is for float to float: to half it is a finding
        assert_eq!(split_copy("f16", 1, 8).codes(), vec!["ASC959"]);
    }
}
