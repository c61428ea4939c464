//! Data movement: DataCopy (count form, DataCopyParams form) and DataCopyPad (DataCopyExtParams /
//! DataCopyParams with padding) between GM and local memories.
//!
//! DataCopy moves whole 32-byte blocks: a count whose bytes are not a multiple of 32 is cut down to the
//! blocks it fills (the hardware's silent truncation; reported as a warning). DataCopyParams strides are gaps
//! in 32-byte blocks on both sides. DataCopyPad moves `blockLen` bytes per block: GM strides are in bytes, UB
//! strides in 32-byte blocks, and each UB row takes whole 32-byte blocks (left padding, data, right padding).

use crate::api::{ApiOp, Args, Pipe, Registry, Work};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
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
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let dtype = a.dtype("T")?;
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
    }))
}

impl ApiOp for Copy {
    fn pipe(&self) -> Pipe {
        self.pipe
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let dst = cx.handle(self.dst);
        let src = cx.handle(self.src);
        let size = self.dtype.size() as i64;
        match self.shape {
            Shape::Count(c) => {
                let count = cx.int(c);
                if count < 0 {
                    cx.report(code::INVALID_OPERAND, format!("{} of {count} elements", self.api));
                    return Flow::Next;
                }
                let bytes = count * size;
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
        Flow::Next
    }
}

impl Copy {
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
                if l * size > BLOCK || r * size > BLOCK {
                    cx.report(
                        code::INVALID_OPERAND,
                        format!(
                        "DataCopyPad pads {l} elements on the left and {r} on the right; each side holds at most 32 \
                         bytes ({} elements)", BLOCK / size),
                    );
                }
                let value = if cx.uint(p.is_pad) != 0 {
                    // the uint64_t field's value (a C conversion to uint64_t), whose low bytes store_bits keeps
                    Some(cx.value_as(p.value, if p.bits { DType::U64 } else { self.dtype }))
                } else {
                    None
                };
                (l, r, value)
            }
            None => (0, 0, None),
        };
        // bytes one block takes on each side
        let row = |local: bool| {
            if local {
                align(left * size + len + right * size)
            } else {
                len
            }
        };
        let src_step = row(from_local) + if from_local { ss * BLOCK } else { ss };
        let dst_step = row(to_local) + if to_local { ds * BLOCK } else { ds };
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
                let end = data_at + len + right * size;
                let dummy = match (left + right > 0, fill) {
                    (false, _) => Dummy::FirstElement(data_at),
                    (true, Some(v)) => Dummy::Value(v),
                    // padding with no value set (isPad false): the pad register holds whatever it held
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
}
