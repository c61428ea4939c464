//! TransDataTo5HD (NCHW -> NC1HWC0, and the transpose of data blocks) in its address-list forms:
//! `TransDataTo5HD<T>(uint64_t dstList[16], uint64_t srcList[16], params)` and `TransDataTo5HDImpl(__ubuf__ T
//! *dstList[16], __ubuf__ T *srcList[16], params)`, which vendor kernels call with lists of UB addresses (the
//! hardware loads them into its VA registers: asc-devkit `SetVaReg`, `scatter_vnchwconv_b8/b16/b32`). The
//! lowering passes each list as 16 uint64 UB byte addresses (ascendir/lower/ub_pointer.py).
//!
//! The `LocalTensor<T> dstList[16]` form arrives the same way: the program builder stores each tensor's address
//! (GetPhyAddr) into a uint64 list at the call (passes/sim/builder_cells.py, tensor_addresses).
//!
//! Per the TransDataTo5HD API page (atlasascendc_api_07_0200, CANN 8.0 to 9.0), one repeat reads the 32-byte
//! block at each of the 16 source addresses and:
//! - 16-bit types (16 elements a block): loop j in 0..16 takes element j of every source block, in list order,
//!   and writes those 16 values as the block at dstList[j] (a 16 x 16 transpose);
//! - 32-bit types (8 a block): loop j in 0..8 takes element j of every source block and writes the 16 values
//!   as two blocks, sources 0..7 at dstList[2j] and sources 8..15 at dstList[2j + 1];
//! - 8-bit types (32 a block): loop j in 0..16 takes element j of every source block's low half (element
//!   16 + j with srcHighHalf) and writes the 16 bytes into the low half of the block at dstList[j] (its high
//!   half with dstHighHalf).
//!
//! Repeat r reads at srcList[i] + r * srcRepStride blocks and writes at dstList[j] + r * dstRepStride blocks.
//! A repeat reads all its sources before it writes.

use crate::api::{ApiOp, Args, Pipe, Registry, StackArray};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::memory::{Handle, MemKind, Space};
use crate::program::Sv;

const BLOCK: usize = 32;
const LISTS: usize = 16;
const WHAT: &str = "TransDataTo5HD";

#[derive(Debug)]
struct TransData {
    t: DType,
    /// the two address lists on the scalar stack, uint64_t[16] each
    dst_list: StackArray,
    src_list: StackArray,
    repeat: Option<Sv>,
    dst_rep: Option<Sv>,
    src_rep: Option<Sv>,
    dst_high: Option<Sv>,
    src_high: Option<Sv>,
}

fn list(a: &Args, name: &str) -> Result<StackArray, String> {
    a.array(name, LISTS as u32, 8, "uint64_t[16] array of addresses")
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let p = if a.has("nchwconvParams.repeatTimes") || a.api == "TransDataTo5HD" {
        "nchwconvParams"
    } else {
        "transDataTo5HDParams"
    };
    Ok(Box::new(TransData {
        t: a.dtype("T")?,
        dst_list: list(a, "dstList")?,
        src_list: list(a, "srcList")?,
        repeat: a.opt_field(p, "repeatTimes")?,
        dst_rep: a.opt_field(p, "dstRepStride")?,
        src_rep: a.opt_field(p, "srcRepStride")?,
        dst_high: a.opt_field(p, "dstHighHalf")?,
        src_high: a.opt_field(p, "srcHighHalf")?,
    }))
}

fn addresses(cx: &Ctx, list: StackArray) -> [i64; LISTS] {
    list.first(cx, u64::MAX).map(|a| a as i64)
}

fn block_at(addr: i64) -> Handle {
    Handle {
        space: Space::Local(MemKind::Ub),
        addr,
        len: BLOCK as i64,
        alloc: 0,
    }
}

/// Where each output element comes from: (source block, element within it) for each destination block's
/// element slots, `None` for bytes the instruction leaves as they are (the other half, for 8-bit types).
fn plan(size: usize, src_high: bool, dst_high: bool) -> Vec<Vec<Option<(usize, usize)>>> {
    let per = BLOCK / size;
    let mut dst = vec![vec![None; per]; LISTS];
    match size {
        2 => {
            for (j, block) in dst.iter_mut().enumerate() {
                for (i, slot) in block.iter_mut().enumerate() {
                    *slot = Some((i, j));
                }
            }
        }
        4 => {
            for j in 0..per {
                for i in 0..LISTS {
                    dst[2 * j + i / per][i % per] = Some((i, j));
                }
            }
        }
        _ => {
            let (from, to) = (16 * src_high as usize, 16 * dst_high as usize);
            for (j, block) in dst.iter_mut().enumerate() {
                for i in 0..LISTS {
                    block[to + i] = Some((i, from + j));
                }
            }
        }
    }
    dst
}

impl ApiOp for TransData {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let size = self.t.size();
        if !matches!(size, 1 | 2 | 4) {
            cx.report(
                code::INVALID_OPERAND,
                format!("{WHAT} of {size}-byte elements: it moves 8-, 16- or 32-bit elements"),
            );
            return Flow::Next;
        }
        let repeat = self.repeat.map(|r| cx.uint(r)).unwrap_or(1);
        let stride = |s: Option<Sv>, cx: &Ctx| s.map(|v| cx.uint(v) as i64).unwrap_or(0) * BLOCK as i64;
        let (dst_rep, src_rep) = (stride(self.dst_rep, cx), stride(self.src_rep, cx));
        let high = |s: Option<Sv>, cx: &Ctx| s.map(|v| cx.uint(v) != 0).unwrap_or(false);
        let layout = plan(size, high(self.src_high, cx), high(self.dst_high, cx));
        let (dsts, srcs) = (addresses(cx, self.dst_list), addresses(cx, self.src_list));
        for r in 0..repeat as i64 {
            // read the 16 source blocks (bytes and initialised flags)
            let mut blocks = Vec::with_capacity(LISTS);
            for &s in &srcs {
                let h = block_at(s + r * src_rep);
                let Some(at) = cx.range(h, 0, BLOCK as i64, false, size, WHAT) else {
                    return Flow::Next;
                };
                let mem = cx.local(MemKind::Ub);
                blocks.push((
                    mem.data.as_slice()[at..at + BLOCK].to_vec(),
                    mem.init[at..at + BLOCK].to_vec(),
                ));
            }
            for (j, slots) in layout.iter().enumerate() {
                let h = block_at(dsts[j] + r * dst_rep);
                let Some(at) = cx.range(h, 0, BLOCK as i64, true, size, WHAT) else {
                    return Flow::Next;
                };
                let mem = cx.local(MemKind::Ub);
                let mut data = mem.data.as_slice()[at..at + BLOCK].to_vec();
                let mut init = mem.init[at..at + BLOCK].to_vec();
                for (k, slot) in slots.iter().enumerate() {
                    if let Some((i, e)) = *slot {
                        let (from, to) = (e * size, k * size);
                        data[to..to + size].copy_from_slice(&blocks[i].0[from..from + size]);
                        init[to..to + size].copy_from_slice(&blocks[i].1[from..from + size]);
                    }
                }
                cx.store_bytes(h, at, &data, &init, self.t, WHAT);
            }
        }
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(&["TransDataTo5HD"], &["addr_list", "tensor_list"], decode);
    r.add_all(&["TransDataTo5HDImpl"], &["ub_pointers", "addr_list"], decode);
}

#[cfg(test)]
mod tests {
    use super::plan;

    #[test]
    fn half_blocks_transpose_16_by_16() {
        let p = plan(2, false, false);
        // destination block 3, element 5 is source block 5's element 3
        assert_eq!(p[3][5], Some((5, 3)));
        assert_eq!(p[15][0], Some((0, 15)));
    }

    #[test]
    fn float_columns_fill_two_blocks() {
        let p = plan(4, false, false);
        // column j of the 16 x 8 source: sources 0..7 in block 2j, sources 8..15 in block 2j + 1
        assert_eq!(p[0][0], Some((0, 0)));
        assert_eq!(p[1][0], Some((8, 0)));
        assert_eq!(p[6][7], Some((7, 3)));
        assert_eq!(p[7][7], Some((15, 3)));
    }

    #[test]
    fn bytes_take_and_fill_the_chosen_halves() {
        let p = plan(1, true, false);
        assert_eq!(p[2][4], Some((4, 18)));
        assert_eq!(p[2][20], None);
        let q = plan(1, false, true);
        assert_eq!(q[2][20], Some((4, 2)));
        assert_eq!(q[2][4], None);
    }
}
