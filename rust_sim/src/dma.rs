//! Data movement: DataCopy (count form, DataCopyParams form) and DataCopyPad (DataCopyExtParams /
//! DataCopyParams with padding) between GM and local memories.
//!
//! DataCopy moves whole 32-byte blocks: a count whose bytes are not a multiple of 32 is cut down to the
//! blocks it fills (the hardware's silent truncation; reported as a warning). DataCopyParams strides are gaps
//! in 32-byte blocks on both sides. DataCopyPad moves `blockLen` bytes per block: GM strides are in bytes, UB
//! strides in 32-byte blocks, and each UB row takes whole 32-byte blocks (left padding, data, right padding).
//! On the 950, DataCopyPad<T, PaddingMode::Compact> packs the UB rows, and a path's loop mode (loop_mode.rs)
//! repeats a GM <-> UB copy at byte offsets.

use crate::api::{ApiOp, Args, Pipe, Registry, Work};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::loop_mode::{self, LoopMode};
use crate::memory::{Handle, MemKind, Space};
use crate::program::Sv;

const BLOCK: i64 = 32;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// `count` elements
    Count(Sv),
    /// DataCopyParams: blockCount, blockLen (32-byte blocks), srcStride, dstStride (blocks)
    Params {
        count: Sv,
        len: Sv,
        src_stride: Sv,
        dst_stride: Sv,
    },
    /// DataCopyPad: blockCount, blockLen (bytes), srcStride, dstStride, and the padding
    Pad {
        count: Sv,
        len: Sv,
        src_stride: Sv,
        dst_stride: Sv,
        pad: Option<Padding>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Padding {
    is_pad: Sv,
    left: Sv,
    right: Sv,
    value: Sv,
    /// DataCopyPadParams (the DataCopyParams overload): `paddingValue` is a uint64_t that asc-devkit's
    /// DataCopyPadGm2UBImpl hands to set_mov_pad_val as it is, so the element gets its low bits (0xBF800000
    /// pads a float with -1.0f). DataCopyPadExtParams<T> holds a T, passed as its bit pattern: a number
    /// converted to T.
    bits: bool,
}

#[derive(Debug)]
struct Copy {
    api: &'static str,
    dtype: DType,
    dst: u32,
    src: u32,
    shape: Shape,
    pipe: Pipe,
    /// DataCopyPad<T, PaddingMode::Compact> (950): the UB side's rows packed, one padding after the last
    compact: bool,
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    // int4b_t moves as bytes: the count form's elements are two to a byte, the other forms count bytes or blocks
    let dtype = a.dtype_packed("T")?;
    let dst = a.handle("dst")?;
    let src = a.handle("src")?;
    let ov = a.overload.as_str();
    let pad_api = a.api == "DataCopyPad";
    let shape = if ov.starts_with("count") {
        Shape::Count(a.sv("count")?)
    } else if pad_api {
        let p = if a.has("dataCopyParams.blockCount") {
            "dataCopyParams"
        } else {
            "repeatParams"
        };
        let pad = if a.has("padParams.isPad") {
            Some(Padding {
                is_pad: a.field("padParams", "isPad")?,
                left: a.field("padParams", "leftPadding")?,
                right: a.field("padParams", "rightPadding")?,
                value: a.field("padParams", "paddingValue")?,
                bits: ov.starts_with("params"),
            })
        } else {
            None
        };
        Shape::Pad {
            count: a.field(p, "blockCount")?,
            len: a.field(p, "blockLen")?,
            src_stride: a.field(p, "srcStride")?,
            dst_stride: a.field(p, "dstStride")?,
            pad,
        }
    } else {
        let p = if a.has("repeatParams.blockCount") {
            "repeatParams"
        } else {
            "intriParams"
        };
        Shape::Params {
            count: a.field(p, "blockCount")?,
            len: a.field(p, "blockLen")?,
            src_stride: a.field(p, "srcStride")?,
            dst_stride: a.field(p, "dstStride")?,
        }
    };
    let pipe = if ov.ends_with("gm_to_local") {
        Pipe::Mte2
    } else if ov.ends_with("local_to_gm") {
        Pipe::Mte3
    } else {
        Pipe::V
    };
    Ok(Box::new(Copy {
        api: if pad_api { "DataCopyPad" } else { "DataCopy" },
        dtype,
        dst,
        src,
        shape,
        pipe,
        compact: a.targ("mode").is_some_and(|m| m.ends_with("Compact")),
    }))
}

impl ApiOp for Copy {
    fn pipe(&self) -> Pipe {
        self.pipe
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let dst = cx.handle(self.dst);
        let src = cx.handle(self.src);
        // the 950's loop mode of this path (loop_mode.rs): the whole transfer repeated at byte offsets
        let path = match (src.space, dst.space) {
            (Space::Gm(_), Space::Local(MemKind::Ub)) => Some(loop_mode::OUT_TO_UB),
            (Space::Local(MemKind::Ub), Space::Gm(_)) => Some(loop_mode::UB_TO_OUT),
            _ => None,
        };
        let mode = path.map_or(LoopMode::NORMAL, |p| cx.core.loop_mode[p]);
        if mode == LoopMode::NORMAL {
            self.once(cx, dst, src);
            return Flow::Next;
        }
        if mode.inner == 0 || mode.outer == 0 {
            cx.warn(
                code::INVALID_OPERAND,
                format!(
                    "{} in loop mode with loop1Size {} and loop2Size {} moves nothing (SetLoopModePara)",
                    self.api, mode.inner, mode.outer
                ),
            );
        }
        for (s_off, d_off) in mode.offsets() {
            let shift = |h: Handle, by: i64| Handle { addr: h.addr + by, ..h };
            self.once(cx, shift(dst, d_off), shift(src, s_off));
        }
        Flow::Next
    }
}

impl Copy {
    fn once(&self, cx: &mut Ctx, dst: Handle, src: Handle) {
        match self.shape {
            Shape::Count(c) => {
                let count = cx.int(c);
                if count < 0 {
                    cx.report(code::INVALID_OPERAND, format!("{} of {count} elements", self.api));
                    return;
                }
                let bytes = self.dtype.bytes_of(count);
                let moved = bytes / BLOCK * BLOCK;
                if moved != bytes {
                    cx.warn(
                        code::INVALID_OPERAND,
                        format!(
                        "DataCopy of {count} elements ({bytes} bytes) moves {moved} bytes: the hardware copies whole \
                         32-byte blocks and drops the last {} bytes (use DataCopyPad for lengths that are not a \
                         multiple of 32 bytes)", bytes - moved),
                    );
                }
                cx.copy(dst, 0, src, 0, moved, self.dtype, self.api);
            }
            Shape::Params {
                count,
                len,
                src_stride,
                dst_stride,
            } => {
                let (n, l) = (cx.uint(count) as i64, cx.uint(len) as i64 * BLOCK);
                let (ss, ds) = (cx.uint(src_stride) as i64 * BLOCK, cx.uint(dst_stride) as i64 * BLOCK);
                if n == 0 || l == 0 {
                    cx.warn(
                        code::INVALID_OPERAND,
                        format!(
                            "{} with blockCount {n} and blockLen {} moves nothing",
                            self.api,
                            l / BLOCK
                        ),
                    );
                }
                for i in 0..n {
                    if !cx.copy(dst, i * (l + ds), src, i * (l + ss), l, self.dtype, self.api) {
                        break;
                    }
                }
            }
            Shape::Pad {
                count,
                len,
                src_stride,
                dst_stride,
                pad,
            } => {
                self.pad_copy(
                    cx,
                    dst,
                    src,
                    cx.uint(count) as i64,
                    cx.uint(len) as i64,
                    cx.uint(src_stride) as i64,
                    cx.uint(dst_stride) as i64,
                    pad,
                );
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn pad_copy(
        &self,
        cx: &mut Ctx,
        dst: Handle,
        src: Handle,
        n: i64,
        len: i64,
        ss: i64,
        ds: i64,
        pad: Option<Padding>,
    ) {
        let size = self.dtype.size() as i64;
        let to_local = matches!(dst.space, Space::Local(_));
        let from_local = matches!(src.space, Space::Local(_));
        let (left, right, fill) = match pad {
            Some(p) => {
                let (l, r) = (cx.uint(p.left) as i64, cx.uint(p.right) as i64);
                if self.dtype == DType::I4 && (l > 0 || r > 0) {
                    // the padding counts elements, and int4b_t's are half bytes
                    cx.report(code::NOT_MODELLED, "DataCopyPad padding an int4b_t row".into());
                    return;
                }
                if l * size > BLOCK || r * size > BLOCK {
                    cx.report(
                        code::INVALID_OPERAND,
                        format!(
                        "DataCopyPad pads {l} elements on the left and {r} on the right; each side holds at most 32 \
                         bytes ({} elements)", BLOCK / size),
                    );
                }
                let value = if cx.uint(p.is_pad) != 0 {
                    // the uint64_t field's value (a C conversion to uint64_t), whose low bytes store_bits keeps;
                    // DataCopyPadGm2UBImpl writes it into the pad register, where it stays for later copies
                    let bits = cx.value_as(p.value, if p.bits { DType::U64 } else { self.dtype });
                    if to_local {
                        cx.core.mov_pad_val = Some(bits);
                    }
                    Some(bits)
                } else {
                    // isPad false: the copy pads with what the register holds (SetPadValue, an earlier
                    // DataCopyPad with isPad true), unknown before any
                    cx.core.mov_pad_val
                };
                (l, r, value)
            }
            None => (0, 0, None),
        };
        // PaddingMode::Compact (GMToUB非对齐数据搬运(DataCopyPad).md, CopyGmToUbufAlignV2): the UB side's
        // rows follow each other byte for byte (its stride and leftPadding / rightPadding are not used), and
        // the padding fills the end of the last row up to 32 bytes
        let compact = self.compact;
        let (left, right) = if compact { (0, 0) } else { (left, right) };
        // bytes one block takes on each side
        let row = |local: bool| {
            if local && !compact {
                align(left * size + len + right * size)
            } else {
                len
            }
        };
        let gap = |local: bool, stride: i64| match (local, compact) {
            (true, true) => 0,
            (true, false) => stride * BLOCK,
            (false, _) => stride,
        };
        let src_step = row(from_local) + gap(from_local, ss);
        let dst_step = row(to_local) + gap(to_local, ds);
        for i in 0..n {
            let (doff, soff) = (i * dst_step, i * src_step);
            if to_local {
                let data_at = doff + left * size;
                if !cx.copy(dst, data_at, src, soff, len, self.dtype, self.api) {
                    return;
                }
                if let Some(v) = fill {
                    fill_elems(cx, dst, doff, left, v, self.dtype);
                    fill_elems(cx, dst, data_at + len, right, v, self.dtype);
                }
                if compact {
                    continue; // the one padding is after the last row (below)
                }
                let end = data_at + len + right * size;
                let dummy = match (left + right > 0, fill) {
                    (false, _) => Dummy::FirstElement(data_at),
                    (true, Some(v)) => Dummy::Value(v),
                    // padding with the register never set: whatever it held at power-on
                    (true, None) => Dummy::Unknown,
                };
                if dst.space == Space::Local(MemKind::Ub) {
                    // (the page is copy_gm_to_ubuf_align's: copies into L1 are not covered by it)
                    fill_dummy(cx, dst, end, align(end - doff) - (end - doff), dummy, self.dtype);
                }
            } else if !cx.copy(dst, doff, src, soff, len, self.dtype, self.api) {
                return;
            }
        }
        if compact && to_local && n > 0 {
            // the bytes up to the next 32: the padding value (isPad, or the register SetPadValue set); with
            // neither, the page's dummy data, left unknown
            let total = n * len;
            if let Some(v) = fill {
                fill_elems(cx, dst, total, (align(total) - total) / size, v, self.dtype);
            }
        }
    }
}

/// What the hardware writes into the rest of a row's last 32-byte block when left padding, data and right
/// padding do not fill it. The CCE intrinsic page of `copy_gm_to_ubuf_align` (cceapi_0093, CANN 8.5 and 9.0
/// beta): "if lenBurst + leftPaddingNum + rightPaddingNum is 32-byte aligned no dummy data is written to UB;
/// otherwise extra dummy data is: without padding, copies of each burst's first element; with padding, the
/// set_mov_pad_val value repeated". DataCopyPad passes leftPadding/rightPadding as those counts and sets the
/// pad value only when isPad is true.
#[derive(Debug, Clone, Copy)]
enum Dummy {
    /// copies of the element at this byte offset of the destination (the burst's first element)
    FirstElement(i64),
    /// the pad value's bits
    Value(u64),
    /// the pad register's earlier contents: left unwritten
    Unknown,
}

fn fill_dummy(cx: &mut Ctx, dst: Handle, off: i64, bytes: i64, dummy: Dummy, t: DType) {
    let size = t.size() as i64;
    let count = bytes / size;
    match dummy {
        _ if count <= 0 => {}
        Dummy::Unknown => {}
        Dummy::Value(v) => fill_elems(cx, dst, off, count, v, t),
        Dummy::FirstElement(first) => {
            let (Space::Local(m), Some(at)) = (dst.space, usize::try_from(dst.addr + first).ok()) else {
                return;
            };
            let s = size as usize;
            let mem = cx.local(m);
            if at + s > mem.data.as_slice().len() {
                return;
            }
            let elem = mem.data.as_slice()[at..at + s].to_vec();
            let init = mem.init[at..at + s].to_vec();
            let Some(d) = cx.range(dst, off, count * size, true, s, "DataCopyPad") else {
                return;
            };
            let n = (count * size) as usize;
            let data: Vec<u8> = elem.iter().copied().cycle().take(n).collect();
            let flags: Vec<u8> = init.iter().copied().cycle().take(n).collect();
            cx.store_bytes(dst, d, &data, &flags, t, "DataCopyPad");
        }
    }
}

fn fill_elems(cx: &mut Ctx, dst: Handle, off: i64, count: i64, bits: u64, t: DType) {
    if count <= 0 {
        return;
    }
    let size = t.size();
    let bytes = count as usize * size;
    let Some(at) = cx.range(dst, off, bytes as i64, true, size, "DataCopyPad") else {
        return;
    };
    let mut data = vec![0u8; bytes];
    for c in data.chunks_exact_mut(size) {
        t.store_bits(c, bits);
    }
    cx.store_bytes(dst, at, &data, &vec![1u8; bytes], t, "DataCopyPad");
}

fn align(v: i64) -> i64 {
    (v + BLOCK - 1) / BLOCK * BLOCK
}

/// SetPadValue<T, pos>(paddingValue): on the 220x parts (and 3510) asc-devkit's
/// impl/basic_api/kernel_operator_data_copy_intf_impl.h:1759-1767 returns on an AIC core and otherwise calls
/// `set_mov_pad_val(GetScalarBitcodeValue((T)paddingValue))`: the value converted to T, as its bits, into the
/// pad register that DataCopyPad GM -> UB with isPad false pads with (and that isPad true overwrites,
/// dav_c220/kernel_operator_data_copy_impl.h:460-461, 509-510). `pos` picks a register on 3102 only.
#[derive(Debug)]
struct SetPadValue {
    dtype: DType,
    value: Sv,
}

fn decode_set_pad_value(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(SetPadValue {
        dtype: a.dtype("T")?,
        value: a.sv("paddingValue")?,
    }))
}

impl ApiOp for SetPadValue {
    fn pipe(&self) -> Pipe {
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        if cx.core.aiv {
            cx.core.mov_pad_val = Some(cx.value_as(self.value, self.dtype));
        }
        Flow::Next
    }
}

/// What one copy moved, for the timing model.
pub fn work(bytes: u64, src: Space, dst: Space) -> Work {
    let name = |s: Space| match s {
        Space::Gm(_) => "GM",
        Space::Local(m) => m.name(),
        Space::Null => "?",
    };
    Work::Copy {
        bytes,
        src: name(src),
        dst: name(dst),
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(
        &["DataCopy"],
        &[
            "count_gm_to_local",
            "count_local_to_gm",
            "count_local_to_local",
            "params_gm_to_local",
            "params_local_to_gm",
            "params_local_to_local",
        ],
        decode,
    );
    r.add_all(
        &["DataCopyPad"],
        &[
            "ext_gm_to_local",
            "ext_local_to_gm",
            "params_gm_to_local",
            "params_local_to_gm",
        ],
        decode,
    );
    r.add_all(&["SetPadValue"], &["plain"], decode_set_pad_value);
}

#[cfg(test)]
mod tests {
    use crate::checks::Findings;
    use crate::memory::GmRole;
    use crate::test_rig::{f32_bytes, Rig};

    /// Runs `code` on one AIV core with GM buffer h0 holding 1.0 .. 8.0 (f32) and h1 a UB float tensor at byte
    /// 0. Registers: r1 = 0, r2 = 64 elements, r3 = 1 (one row), r4 = 20 (bytes: 5 floats), r5 = 0 (strides,
    /// isPad false), r6 = 1 (isPad true; one padding element), r7 = -2.5f32, r8 = 7.0f32.
    /// The UB floats afterwards, and which of their bytes were written.
    fn run(code: &str) -> (Vec<f32>, Vec<bool>, Findings) {
        let mut text =
            String::from("kernel k aiv\nchip 910B2\nmem UB 196608 32\nparam 0 x h0 gm\nregs 64 32\nstack 0\n");
        for (r, ty, v) in [
            (1, "i32", 0u64),
            (2, "i32", 64),
            (3, "i16", 1),
            (4, "i32", 20),
            (5, "i32", 0),
            (6, "i32", 1),
            (7, "f32", (-2.5f32).to_bits() as u64),
            (8, "f32", 7.0f32.to_bits() as u64),
        ] {
            text += &format!("const r{r} {ty} {v}\n");
        }
        let out = Rig::new(text)
            .gm(GmRole::Input, f32_bytes((1..=8).map(|i| i as f32)))
            .run(&format!("  h1 = LocalAt.f32 UB r1:i32 r2:i32\n{code}"));
        let known = out.ub().init[..32]
            .chunks_exact(4)
            .map(|c| c.iter().all(|&b| b != 0))
            .collect();
        (out.ub_f32(0, 8), known, out.findings)
    }

    /// One row of 5 floats with 1 + 1 elements of padding (7 of the block's 8), isPad from `is_pad`, the
    /// padding value from `value`.
    fn copy(is_pad: &str, value: &str) -> String {
        format!(
            "  call DataCopyPad.params_gm_to_local<T=f32> dst=h1 src=h0 dataCopyParams.blockCount=r3:i16 \
             dataCopyParams.blockLen=r4:i32 dataCopyParams.srcStride=r5:i32 dataCopyParams.dstStride=r5:i32 \
             padParams.isPad={is_pad}:i1 padParams.leftPadding=r6:i32 padParams.rightPadding=r6:i32 \
             padParams.paddingValue={value}"
        )
    }

    #[test]
    fn is_pad_false_pads_with_the_value_set_pad_value_set() {
        let (vals, known, f) = run(&format!(
            "  call SetPadValue.plain<T=f32> paddingValue=r7:f32\n{}",
            copy("r5", "r5:i32")
        ));
        assert!(f.list.is_empty(), "{:?}", f.list);
        // left padding, the 5 elements, right padding, then the row's dummy element: the pad register again
        assert_eq!(vals, vec![-2.5, 1.0, 2.0, 3.0, 4.0, 5.0, -2.5, -2.5]);
        assert!(known.iter().all(|&k| k));
    }

    #[test]
    fn is_pad_true_leaves_its_value_in_the_register() {
        // the first copy sets 0x40E00000 (7.0f) through the uint64_t field; the second, isPad false, reuses it
        let (vals, _, f) = run(&format!("{}\n{}", copy("r6", "r8:i32"), copy("r5", "r5:i32")));
        assert!(f.list.is_empty(), "{:?}", f.list);
        assert_eq!(vals, vec![7.0, 1.0, 2.0, 3.0, 4.0, 5.0, 7.0, 7.0]);
    }

    #[test]
    fn is_pad_false_before_any_value_leaves_the_padding_unknown() {
        let (_, known, _) = run(&copy("r5", "r5:i32"));
        assert_eq!(known, vec![false, true, true, true, true, true, false, false]);
    }
}
