//! Running a Matmul method: the setters record operands and shapes, IterateAll / Iterate compute C blocks
//! (blocks.rs), GetTensorC writes them out; the batch and workspace forms are matmul_batch.rs and
//! matmul_nbatch.rs.

use std::collections::VecDeque;

use super::blocks::{block_at, is_nz, read_l0c, write_l0c};
use super::{m_workspace, Call, Method, Operand};
use crate::api::{ApiOp, Pipe};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::cube::matmul_compute::compute;
use crate::dtype::DType;
use crate::memory::{MemKind, Space};

impl ApiOp for Call {
    fn pipe(&self) -> Pipe {
        // the library call runs the whole cube path; the scalar unit waits for it
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        match self.method {
            Method::Register | Method::Init => return self.register(cx),
            Method::Nothing => return Flow::Next,
            Method::SetHF32 => {
                // the docs give HF32's two rounding modes (transMode) but not its format, so the float Mmad
                // stays FP32: said once per place, since results can be closer to FP32 than the device's
                let on = self
                    .flags
                    .first()
                    .copied()
                    .flatten()
                    .is_some_and(|f| cx.uint(f) & 1 != 0);
                // HF32 acts on float A / B only: quiet when A is set and of another type
                let a_t = cx
                    .core
                    .cube
                    .matmuls
                    .get(&self.obj)
                    .and_then(|o| o.a.as_ref())
                    .map(|a| a.t);
                if on && a_t.is_none_or(|t| t == DType::F32) {
                    cx.warn(
                        code::NOT_MODELLED,
                        "Matmul::SetHF32(true) is not modelled: the simulated cube multiplies float in FP32 (the \
                         docs give HF32's rounding modes, not its mantissa width), so results can be more exact \
                         than the device's"
                            .to_string(),
                    );
                }
                return Flow::Next;
            }
            Method::IterateBatch => return self.iterate_batch(cx),
            Method::IterateNBatch => return self.iterate_n_batch(cx),
            Method::GetBatchTensorC => return self.get_batch_tensor_c(cx),
            Method::SetWorkspace => return self.set_workspace(cx),
            _ => {}
        }
        let flag = |cx: &Ctx, i: usize| {
            self.flags
                .get(i)
                .copied()
                .flatten()
                .is_some_and(|s| cx.uint(s) & 1 != 0)
        };
        let int = |cx: &Ctx, i: usize| self.ints.get(i).copied().flatten().map(|s| cx.int(s));
        let obj = self.obj;
        cx.core.cube.matmuls.entry(obj).or_default();
        match self.method {
            Method::SetA | Method::SetB | Method::SetBias => {
                let Some(h) = self.tensor.map(|t| cx.handle(t)) else {
                    return Flow::Next;
                };
                let t = self.t.unwrap_or(DType::F16);
                let trans = flag(cx, 0);
                let which = match self.method {
                    Method::SetA => 0,
                    Method::SetB => 1,
                    _ => 3,
                };
                let nz = is_nz(cx, obj, which, h);
                let m = cx.core.cube.matmuls.get_mut(&obj).unwrap();
                let op = Operand { h, t, trans, nz };
                match self.method {
                    Method::SetA => m.a = Some(op),
                    Method::SetB => m.b = Some(op),
                    _ => {
                        m.bias = Some(op);
                        m.bias_off = false;
                    }
                }
                m.next = 0;
                m.current = None;
            }
            Method::DisableBias => cx.core.cube.matmuls.get_mut(&obj).unwrap().bias_off = true,
            Method::SetTail | Method::SetSingleShape => {
                let vals = [int(cx, 0), int(cx, 1), int(cx, 2)];
                let m = cx.core.cube.matmuls.get_mut(&obj).unwrap();
                for (slot, v) in m.single.iter_mut().zip(vals) {
                    if let Some(v) = v {
                        if v > 0 || self.method == Method::SetSingleShape {
                            *slot = v;
                        }
                    }
                }
                m.next = 0;
            }
            Method::SetOrgShape => {
                let v: Vec<i64> = (0..5).map(|i| int(cx, i).unwrap_or(0)).collect();
                let m = cx.core.cube.matmuls.get_mut(&obj).unwrap();
                m.org = Some([v[0], v[1], v[2], v[3], v[4]]);
            }
            Method::SetBatchNum => {
                let (a, b) = (int(cx, 0).unwrap_or(0), int(cx, 1).unwrap_or(0));
                cx.core.cube.matmuls.get_mut(&obj).unwrap().batch_num = Some((a, b));
            }
            Method::SetQuantScalar => {
                let v = int(cx, 0).unwrap_or(0) as u64;
                cx.core.cube.matmuls.get_mut(&obj).unwrap().quant_scalar = Some(v);
            }
            Method::SetQuantVector => {
                let h = self.tensor.map(|t| cx.handle(t));
                cx.core.cube.matmuls.get_mut(&obj).unwrap().quant_vector = h;
            }
            Method::End => {
                let m = cx.core.cube.matmuls.get_mut(&obj).unwrap();
                m.next = 0;
                m.current = None;
                m.pending.clear();
            }
            Method::IterateAll => {
                let Some(h) = self.tensor.map(|t| cx.handle(t)) else {
                    return Flow::Next;
                };
                let Some((_, s, _)) = self.ready(cx, "IterateAll") else {
                    return Flow::Next;
                };
                let Some(block) = compute(cx, obj, 0, 0, s[0], s[1], None) else {
                    return Flow::Next;
                };
                self.time(cx, (0, 0, s[0], s[1]), Some(h.space));
                let atomic = int(cx, 0).unwrap_or(0);
                self.write_block(cx, h, &block, false, atomic, "IterateAll");
                cx.core.cube.matmuls.get_mut(&obj).unwrap().next = 0;
            }
            Method::Iterate => {
                let Some((t, s, _)) = self.ready(cx, "Iterate") else {
                    self.set_result(cx, false);
                    return Flow::Next;
                };
                let (bm, bn) = (t.base_m.max(1) as usize, t.base_n.max(1) as usize);
                let (mi, ni) = (s[0].div_ceil(bm), s[1].div_ceil(bn));
                let total = mi * ni;
                if !self.sync {
                    // asynchronous: every block now, handed out by GetTensorC in order
                    let mut blocks = VecDeque::new();
                    for idx in 0..total {
                        let (r, c) = block_at(idx, mi, ni, t.order);
                        let Some(b) = compute(
                            cx,
                            obj,
                            r * bm,
                            c * bn,
                            bm.min(s[0] - r * bm),
                            bn.min(s[1] - c * bn),
                            None,
                        ) else {
                            return Flow::Next;
                        };
                        blocks.push_back(b);
                    }
                    let m = cx.core.cube.matmuls.get_mut(&obj).unwrap();
                    m.pending = blocks;
                    m.nbatch.c_offset = 0; // the first Iterate restarts the workspace offset (cOffset_)
                    self.time(cx, (0, 0, s[0], s[1]), None);
                    self.set_result(cx, total > 0);
                    return Flow::Next;
                }
                let idx = cx.core.cube.matmuls[&obj].next;
                if idx >= total {
                    cx.core.cube.matmuls.get_mut(&obj).unwrap().next = 0;
                    self.set_result(cx, false);
                    return Flow::Next;
                }
                let (r, c) = block_at(idx, mi, ni, t.order);
                let (rows, cols) = (bm.min(s[0] - r * bm), bn.min(s[1] - c * bn));
                // the co1 form computes into the caller's L0C tensor (NZ, rows rounded up to 16)
                let co1 = self.tensor.map(|h| cx.handle(h));
                let partial = match (flag(cx, 0), co1) {
                    (false, _) => None,
                    (true, Some(h)) => read_l0c(cx, h, r * bm, c * bn, rows, cols),
                    (true, None) => cx.core.cube.matmuls[&obj].current.clone(),
                };
                let Some(b) = compute(
                    cx,
                    obj,
                    r * bm,
                    c * bn,
                    bm.min(s[0] - r * bm),
                    bn.min(s[1] - c * bn),
                    partial,
                ) else {
                    self.set_result(cx, false);
                    return Flow::Next;
                };
                self.time(cx, (b.row, b.col, b.rows, b.cols), None);
                if let Some(h) = co1 {
                    write_l0c(cx, h, &b, self.t.unwrap_or(DType::F32));
                }
                let m = cx.core.cube.matmuls.get_mut(&obj).unwrap();
                m.current = Some(b);
                m.next = idx + 1;
                self.set_result(cx, true);
            }
            Method::GetTensorC => {
                let Some(h) = self.tensor.map(|t| cx.handle(t)) else {
                    // the form returning the block in the SetWorkspace GM (matmul_nbatch.rs)
                    return self.get_tensor_c_workspace(cx);
                };
                let m = cx.core.cube.matmuls.get_mut(&obj).unwrap();
                let block = if self.sync {
                    m.current.clone()
                } else {
                    m.pending.pop_front().or_else(|| m.current.clone())
                };
                let Some(block) = block else {
                    cx.report(
                        code::INVALID_OPERAND,
                        "GetTensorC before any Iterate computed a block of C".into(),
                    );
                    return Flow::Next;
                };
                let seq = flag(cx, 0);
                let atomic = int(cx, 0).unwrap_or(0);
                let out_elem = self.t.unwrap_or(DType::F32).size() as u64;
                crate::timing::matmul::write_out(
                    cx.core,
                    cx.pc,
                    block.rows as u64,
                    block.cols as u64,
                    out_elem,
                    h.space,
                );
                // the pipe that orders the write into a vector core's UB (matmul_client.h): the synchronous form,
                // and the asynchronous one with no SetWorkspace, hand the UB address to the cube between a
                // CrossCoreSetFlag and a CrossCoreWaitFlag on PIPE_V, so the cube's write comes after the vector
                // pipe's earlier work and before its later work, as a PIPE_V instruction's does; the asynchronous
                // form with a workspace copies the block from it with DataCopy after a CrossCoreWaitFlag on
                // PIPE_MTE2. The scalar unit does not wait for either.
                let ub_pipe = match h.space {
                    Space::Local(MemKind::Ub) if cx.core.aiv => Some(
                        if !self.sync && m_workspace(cx, obj) {
                            Pipe::Mte2
                        } else {
                            Pipe::V
                        }
                        .index(),
                    ),
                    _ => None,
                };
                let outer = ub_pipe.map(|p| {
                    cx.core.race.issue(p);
                    std::mem::replace(&mut cx.core.race.current, p)
                });
                self.write_block(cx, h, &block, seq, atomic, "GetTensorC");
                if let Some(outer) = outer {
                    cx.core.race.current = outer;
                }
            }
            _ => {}
        }
        Flow::Next
    }
}
