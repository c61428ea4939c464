//! The Matmul object's time. Its methods run whole on the scalar unit in the functional model; on the chip the
//! library drives the cube path for them. This records that pipeline on the core's pipes, as an AscendC kernel
//! written with the basic API would issue it, so the replay times it like any other code:
//!
//! for each baseM x baseN block of C, for each group of `step` baseK steps: MTE2 moves the A and B panels of
//! the group GM -> L1 (two L1 buffers), then per baseK step MTE1 loads A -> L0A and B -> L0B (two L0 buffers)
//! and the cube runs the Mmad (its fractal steps); after the last step Fixpipe writes the block out of L0C
//! (two L0C buffers). The buffers hand over through flags of their own, so MTE2, MTE1, M and FIX overlap as
//! far as the buffers allow.
//!
//! Sizes the library's tiling would pick and the object does not keep: baseK is the largest multiple of C0
//! whose A and B blocks fit half of L0A / L0B; `step` the most baseK steps whose panels fit half of L1.

use crate::api::Pipe;
use crate::core::Core;
use crate::memory::Space;
use crate::sync::FlagKey;

use super::params::Place;
use super::{place, CoreLog, GmSpan, Rec, RecKind};

/// An operand of the Matmul: where it is and, in GM, its layout (row-major with `ld` bytes per row,
/// transposed when stored K x M for A or N x K for B).
#[derive(Clone, Copy, Debug)]
pub struct Operand {
    pub space: Space,
    pub addr: u64,
    pub ld: u64,
    pub trans: bool,
}

/// A piece of work for the Matmul object: the C block at (row, col) of rows x cols over k.
#[derive(Clone, Copy, Debug)]
pub struct Work {
    pub row: u64,
    pub col: u64,
    pub rows: u64,
    pub cols: u64,
    pub k: u64,
    pub base_m: u64,
    pub base_n: u64,
    /// bytes per element of A and B, and of C as written
    pub elem: u64,
    pub out_elem: u64,
    pub a: Operand,
    pub b: Operand,
    /// where each finished block goes, when this call writes it too (IterateAll); None: GetTensorC does
    pub out: Option<Space>,
}

/// Synthetic flags of the library's buffers: object ids no program object has.
const DONE_FLAGS: u32 = u32::MAX - 3;
const L1_FLAGS: u32 = u32::MAX - 2;
const L0_FLAGS: u32 = u32::MAX - 1;
const L0C_FLAGS: u32 = u32::MAX;

/// What a core's Matmul pipeline carries from one call to the next.
#[derive(Clone, Debug, Default)]
pub struct MatmulState {
    calls: u32,
    /// blocks whose L0C buffer Fixpipe has freed, and frees the cube has waited for
    l0c_freed: u64,
    l0c_waited: u64,
    /// blocks computed into L0C (for the L0C buffer parity)
    blocks: u64,
}

impl MatmulState {
    /// Whether `key` is one of these synthetic flags (for the trace's names).
    pub fn name(key: FlagKey) -> Option<&'static str> {
        match key {
            FlagKey::Queue { obj: L1_FLAGS, .. } => Some("matmul L1"),
            FlagKey::Queue { obj: L0_FLAGS, .. } => Some("matmul L0A/L0B"),
            FlagKey::Queue { obj: L0C_FLAGS, .. } => Some("matmul L0C"),
            FlagKey::Queue { obj: DONE_FLAGS, .. } => Some("matmul done"),
            _ => None,
        }
    }
}

struct Emit<'a> {
    log: &'a mut CoreLog,
    pc: u32,
    t: f64,
}

impl Emit<'_> {
    fn tick(&mut self) -> f64 {
        // the library's scalar code issues each instruction: a cycle of the scalar unit each
        self.t += self.log.model.params.scalar_cycles;
        self.t
    }

    fn op(&mut self, pipe: Pipe, cycles: f64, latency: f64, gm_bytes: u64, gm: Option<GmSpan>, amount: u64) {
        let t = self.tick();
        self.log.push(Rec {
            kind: RecKind::Op,
            pipe,
            pc: self.pc,
            t,
            dur: cycles,
            lat: latency,
            gm_bytes,
            gm,
            key: None,
            amount,
            x: 0,
        });
    }

    fn copy(&mut self, pipe: Pipe, src: Place, dst: Place, bytes: u64, gm: Option<GmSpan>) {
        let route = self.log.model.params.route(src, dst);
        let cycles = route.cycles(bytes as f64);
        let gm_bytes = if route.gm { bytes } else { 0 };
        self.op(
            pipe,
            cycles,
            route.latency.min(cycles),
            gm_bytes,
            gm.filter(|_| route.gm),
            bytes,
        );
    }

    fn flag(&mut self, kind: RecKind, pipe: Pipe, key: FlagKey) {
        let t = self.tick();
        self.log.push(Rec {
            kind,
            pipe,
            pc: self.pc,
            t,
            dur: 0.0,
            lat: 0.0,
            gm_bytes: 0,
            gm: None,
            key: Some(key),
            amount: 0,
            x: 0,
        });
    }
}

fn key(obj: u32, buf: u32, back: bool) -> FlagKey {
    FlagKey::Queue { obj, buf, back }
}

/// The GM bytes of an r x c panel at (r0, c0) of a row-major matrix with `ld` bytes per row.
fn span(op: &Operand, r0: u64, c0: u64, r: u64, c: u64, elem: u64) -> Option<GmSpan> {
    let Space::Gm(buf) = op.space else { return None };
    let (r0, c0, r, c) = if op.trans { (c0, r0, c, r) } else { (r0, c0, r, c) };
    Some(GmSpan {
        buf,
        lo: op.addr + r0 * op.ld + c0 * elem,
        hi: op.addr + (r0 + r.max(1) - 1) * op.ld + (c0 + c) * elem,
        write: false,
    })
}

/// Records the pipeline computing `w` on `core` (the instruction at `pc` asked for it).
pub fn compute(core: &mut Core, pc: usize, w: &Work) {
    let executed = core.executed;
    let Some(log) = core.tlog.as_mut() else { return };
    let mut st = std::mem::take(&mut log.matmul);
    st.calls += 1;
    let t = log.now(executed);
    let model = log.model.clone();
    let (l1, l0a, l0b) = (model.mem.l1, model.mem.l0a, model.mem.l0b);
    let mut e = Emit { log, pc: pc as u32, t };
    let c0 = (32 / w.elem.max(1)).max(1);
    let (bm, bn) = (w.base_m.clamp(1, w.rows.max(1)), w.base_n.clamp(1, w.cols.max(1)));
    let pad = |v: u64, to: u64| v.div_ceil(to) * to;
    let fits = |bk: u64| pad(bm, 16) * bk * w.elem <= l0a / 2 && bk * pad(bn, 16) * w.elem <= l0b / 2;
    let mut bk = pad(w.k.max(1), c0);
    while bk > c0 && !fits(bk) {
        bk -= c0;
    }
    let ksteps = w.k.max(1).div_ceil(bk);
    let step = (l1 / (2 * (bm + bn) * bk * w.elem).max(1)).clamp(1, ksteps);
    let src = |op: &Operand| place(op.space);
    let mut l1_step = 0u32;
    let mut l0_step = 0u32;
    for r in (0..w.rows).step_by(bm as usize) {
        for c in (0..w.cols).step_by(bn as usize) {
            let (m, n) = (bm.min(w.rows - r), bn.min(w.cols - c));
            let (row, col) = (w.row + r, w.col + c);
            // two L0C buffers: the cube waits for Fixpipe to free the one it is about to fill
            if st.blocks >= 2 && st.l0c_waited < st.l0c_freed {
                e.flag(RecKind::Wait, Pipe::M, key(L0C_FLAGS, 0, true));
                st.l0c_waited += 1;
            }
            for g in (0..ksteps).step_by(step as usize) {
                let gk = (g * bk).min(w.k);
                let kk = (step * bk).min(w.k - gk);
                // MTE2: the group's A and B panels into L1 buffer l1_step % 2
                let b1 = st.calls * 2 + l1_step % 2;
                if l1_step >= 2 {
                    e.flag(RecKind::Wait, Pipe::Mte2, key(L1_FLAGS, b1, true));
                }
                for (op, rr, cc, r0, c0_) in [(&w.a, m, kk, row, gk), (&w.b, kk, n, gk, col)] {
                    if src(op) != Place::L1 {
                        let pipe = if src(op) == Place::Gm { Pipe::Mte2 } else { Pipe::Mte3 };
                        e.copy(
                            pipe,
                            src(op),
                            Place::L1,
                            rr * cc * w.elem,
                            span(op, r0, c0_, rr, cc, w.elem),
                        );
                    }
                }
                e.flag(RecKind::Set, Pipe::Mte2, key(L1_FLAGS, b1, false));
                e.flag(RecKind::Wait, Pipe::Mte1, key(L1_FLAGS, b1, false));
                for s in 0..kk.div_ceil(bk) {
                    let k1 = bk.min(kk - s * bk);
                    // MTE1: A and B of this step into L0 buffer l0_step % 2; M: the Mmad
                    let b0 = st.calls * 2 + l0_step % 2;
                    if l0_step >= 2 {
                        e.flag(RecKind::Wait, Pipe::Mte1, key(L0_FLAGS, b0, true));
                    }
                    e.copy(
                        Pipe::Mte1,
                        Place::L1,
                        Place::L0a,
                        pad(m, 16) * pad(k1, c0) * w.elem,
                        None,
                    );
                    e.copy(
                        Pipe::Mte1,
                        Place::L1,
                        Place::L0b,
                        pad(k1, c0) * pad(n, 16) * w.elem,
                        None,
                    );
                    e.flag(RecKind::Set, Pipe::Mte1, key(L0_FLAGS, b0, false));
                    e.flag(RecKind::Wait, Pipe::M, key(L0_FLAGS, b0, false));
                    let steps = m.div_ceil(16) * n.div_ceil(16) * k1.div_ceil(c0);
                    e.op(Pipe::M, model.params.mmad_startup + steps as f64, 0.0, 0, None, steps);
                    e.flag(RecKind::Set, Pipe::M, key(L0_FLAGS, b0, true));
                    l0_step += 1;
                }
                e.flag(RecKind::Set, Pipe::Mte1, key(L1_FLAGS, b1, true));
                l1_step += 1;
            }
            e.flag(RecKind::Set, Pipe::M, key(L0C_FLAGS, 0, false));
            st.blocks += 1;
            if let Some(out) = w.out {
                fixpipe(&mut e, &mut st, m, n, w.out_elem, out);
            }
        }
    }
    if w.out.is_some() {
        done(&mut e);
    }
    e.log.matmul = st;
}

/// The call returns when C is written: the scalar unit waits for the last Fixpipe.
fn done(e: &mut Emit) {
    e.flag(RecKind::Set, Pipe::Fix, key(DONE_FLAGS, 0, false));
    e.flag(RecKind::Wait, Pipe::S, key(DONE_FLAGS, 0, false));
}

/// Records Fixpipe writing an m x n block out of L0C to `out` (GetTensorC of a block Iterate computed).
pub fn write_out(core: &mut Core, pc: usize, m: u64, n: u64, out_elem: u64, out: Space) {
    let executed = core.executed;
    let Some(log) = core.tlog.as_mut() else { return };
    let mut st = std::mem::take(&mut log.matmul);
    let t = log.now(executed);
    let mut e = Emit { log, pc: pc as u32, t };
    fixpipe(&mut e, &mut st, m, n, out_elem, out);
    done(&mut e);
    e.log.matmul = st;
}

fn fixpipe(e: &mut Emit, st: &mut MatmulState, m: u64, n: u64, out_elem: u64, out: Space) {
    e.flag(RecKind::Wait, Pipe::Fix, key(L0C_FLAGS, 0, false));
    e.copy(Pipe::Fix, Place::L0c, place(out), m * n * out_elem, None);
    e.flag(RecKind::Set, Pipe::Fix, key(L0C_FLAGS, 0, true));
    st.l0c_freed += 1;
}

/// The work of Matmul object `m` for the C block at (row, col) of rows x cols: its shape, base sizes and
/// operands as the object holds them (cube/matmul.rs). None when it is not ready (the functional model says
/// why).
pub fn work_for(
    m: &crate::cube::matmul::MatmulObj,
    (row, col, rows, cols): (usize, usize, usize, usize),
    out_elem: usize,
    out: Option<Space>,
) -> Option<Work> {
    let t = m.tiling?;
    let (a, b) = (m.a?, m.b?);
    let pick = |v: i64, d: i64| if v > 0 { v } else { d };
    let k = pick(m.single[2], t.single_k).max(0) as u64;
    let org = m.org.unwrap_or([t.m, t.n, t.ka, t.kb, 0]);
    let (org_m, org_n, org_ka, org_kb) = (org[0].max(1), org[1].max(1), org[2].max(1), org[3].max(1));
    let elem = a.t.size() as u64;
    let operand = |o: &crate::cube::matmul::Operand, ld: i64| Operand {
        space: o.h.space,
        addr: o.h.addr.max(0) as u64,
        ld: ld as u64 * elem,
        trans: o.trans,
    };
    Some(Work {
        row: row as u64,
        col: col as u64,
        rows: rows as u64,
        cols: cols as u64,
        k,
        base_m: if t.base_m > 0 { t.base_m as u64 } else { rows as u64 },
        base_n: if t.base_n > 0 { t.base_n as u64 } else { cols as u64 },
        elem,
        out_elem: out_elem as u64,
        a: operand(&a, if a.trans { org_m } else { org_ka }),
        b: operand(&b, if b.trans { org_kb } else { org_n }),
        out,
    })
}
