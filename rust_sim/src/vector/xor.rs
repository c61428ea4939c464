//! AscendC::Xor(dst, src0, src1[, sharedTmpBuffer][, calCount]): bitwise exclusive or of int16_t / uint16_t
//! tensors, as the library computes it on 220x (asc-devkit xor_membase_impl.h, read for the facts): in pieces
//! of the sharedTmpBuffer's size (its bytes / 2, rounded down to 32 elements), each piece in four vector steps
//! in pipe order: dst = src0 & src1; tmp = src0 | src1; dst = ~dst; dst = tmp & dst. The steps are modelled as
//! such, so a dst that is also a source gives what the hardware gives (dst == src0: src1 & ~src0, not the xor),
//! and the buffer is left holding the last piece's src0 | src1.
//! A sharedTmpBuffer under 64 bytes (no 32 elements) is reported (ASC959), as the library asserts; the forms
//! without one work in a buffer of the library's own, modelled as one piece.

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::program::Sv;
use crate::vector::dequant::read_raw;

const WHAT: &str = "Xor";

#[derive(Debug)]
struct Xor {
    t: DType,
    dst: u32,
    src0: u32,
    src1: u32,
    tmp: Option<u32>,
    count: Option<Sv>,
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(Xor {
        t: a.dtype("T")?,
        dst: a.handle("dstTensor")?,
        src0: a.handle("src0Tensor")?,
        src1: a.handle("src1Tensor")?,
        tmp: if a.has("sharedTmpBuffer") {
            Some(a.handle("sharedTmpBuffer")?)
        } else {
            None
        },
        count: a.opt_sv("calCount")?,
    }))
}

/// Step 1 (And) or 2 (Or) of the library's sequence, element by element.
pub fn and_words(a: &[u16], b: &[u16]) -> Vec<u16> {
    a.iter().zip(b).map(|(x, y)| x & y).collect()
}

pub fn or_words(a: &[u16], b: &[u16]) -> Vec<u16> {
    a.iter().zip(b).map(|(x, y)| x | y).collect()
}

/// Steps 3 and 4: dst = or & ~dst.
pub fn and_not(or: &[u16], d: &[u16]) -> Vec<u16> {
    or.iter().zip(d).map(|(o, x)| o & !x).collect()
}

/// The four steps on sources that do not overlap dst.
pub fn xor_steps(a: &[u16], b: &[u16]) -> Vec<u16> {
    and_not(&or_words(a, b), &and_words(a, b))
}

fn words(b: &[u8]) -> Vec<u16> {
    b.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect()
}

fn bytes(w: &[u16]) -> Vec<u8> {
    w.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn and_flags(a: &[u8], b: &[u8]) -> Vec<u8> {
    a.iter().zip(b).map(|(x, y)| (*x == 1 && *y == 1) as u8).collect()
}

impl Xor {
    fn read(&self, cx: &mut Ctx, h: u32, at: usize, n: usize) -> Option<(Vec<u16>, Vec<u8>)> {
        // read [0, at + n) and keep the piece: read_raw checks the range from the tensor's start
        let (b, init) = read_raw(cx, h, (at + n) * 2, 2, WHAT)?;
        Some((words(&b[at * 2..]), init[at * 2..].to_vec()))
    }

    fn write(&self, cx: &mut Ctx, h: u32, at: usize, w: &[u16], init: &[u8]) -> Option<()> {
        let hd = cx.handle(h);
        let d = cx.range(hd, (at * 2) as i64, (w.len() * 2) as i64, true, 2, WHAT)?;
        cx.store_bytes(hd, d, &bytes(w), init, self.t, WHAT);
        Some(())
    }

    /// One piece of `n` elements from element `at`, step by step through memory.
    fn piece(&self, cx: &mut Ctx, at: usize, n: usize) -> Option<()> {
        let (a, ai) = self.read(cx, self.src0, at, n)?;
        let (b, bi) = self.read(cx, self.src1, at, n)?;
        let and = and_words(&a, &b);
        let and_init = and_flags(&ai, &bi);
        self.write(cx, self.dst, at, &and, &and_init)?;
        // the Or reads the sources after the And wrote dst
        let (a, ai) = self.read(cx, self.src0, at, n)?;
        let (b, bi) = self.read(cx, self.src1, at, n)?;
        let or = or_words(&a, &b);
        let or_init = and_flags(&ai, &bi);
        if let Some(t) = self.tmp {
            self.write(cx, t, 0, &or, &or_init)?;
        }
        let (d, di) = self.read(cx, self.dst, at, n)?;
        let out = and_not(&or, &d);
        self.write(cx, self.dst, at, &out, &and_flags(&or_init, &di))
    }
}

impl ApiOp for Xor {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        if !matches!(self.t, DType::I16 | DType::U16) {
            cx.report(
                code::INVALID_OPERAND,
                format!("{WHAT} takes int16_t or uint16_t tensors, not {}", self.t.name()),
            );
            return Flow::Next;
        }
        let n = match self.count {
            Some(c) => cx.uint(c) as usize,
            None => (cx.handle(self.src0).len.max(0) as usize) / 2,
        };
        let piece = match self.tmp {
            Some(t) => {
                let have = cx.handle(t).len;
                let elems = (have.max(0) as usize) / 2 / 32 * 32;
                if have >= 0 && elems == 0 {
                    cx.report(
                        code::INVALID_OPERAND,
                        format!("{WHAT}'s sharedTmpBuffer holds {have} bytes: the library needs at least 64"),
                    );
                    return Flow::Next;
                }
                if have < 0 {
                    n.max(1)
                } else {
                    elems
                }
            }
            None => n.max(1),
        };
        crate::timing::vector_pass(cx.core, n as u64, 2);
        crate::timing::library_shape(
            cx.core,
            crate::timing::library::Shape {
                kind: crate::timing::library::Kind::Xor,
                rows: n as u64,
                cols: piece as u64,
                real: n as u64,
                blocks: 1,
                inner: 0,
                elem: 2,
            },
        );
        let mut at = 0;
        while at < n {
            let len = piece.min(n - at);
            if self.piece(cx, at, len).is_none() {
                break;
            }
            at += len;
        }
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(&["Xor"], &["tmp", "tmp_whole", "plain", "whole"], decode);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn or_and_not_and_is_the_xor() {
        let a = [0x0000u16, 0xFFFF, 0x1234, 0x8001];
        let b = [0xFFFFu16, 0xFFFF, 0x4321, 0x0001];
        assert_eq!(xor_steps(&a, &b), vec![0xFFFF, 0x0000, 0x5115, 0x8000]);
        let want: Vec<u16> = a.iter().zip(&b).map(|(x, y)| x ^ y).collect();
        assert_eq!(xor_steps(&a, &b), want);
    }

    #[test]
    fn dst_over_src0_gives_src1_and_not_src0() {
        // the Or reads src0 after the And replaced it with src0 & src1
        let (a, b) = ([0b1100u16], [0b1010u16]);
        let d = and_words(&a, &b);
        let out = and_not(&or_words(&d, &b), &d);
        assert_eq!(out, vec![0b0010]);
        assert_ne!(out, xor_steps(&a, &b));
    }
}
