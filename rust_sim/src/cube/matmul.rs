//! The kernel-side high-level Matmul object (`Matmul<A, B, C, Bias, CFG> mm`), by its documented semantics.
//!
//! REGIST_MATMUL_OBJ / Init give an object its TCubeTiling (the fields come flattened, `tiling.M=r5:i32`).
//! SetTensorA / SetTensorB / SetBias name the operands (GM, or UB / L1 local tensors; transposed when asked),
//! SetOrgShape the full matrices behind them (default: the tiling's M, N, Ka, Kb), SetSingleShape / SetTail
//! the part this core computes (default: singleCoreM/N/K). IterateAll writes the whole singleM x singleN block
//! of C; Iterate computes the next baseM x baseN block in the tiling's iterateOrder (0: along M first) and
//! GetTensorC writes it at its place in C (or at the start of the destination, with enSequentialWrite). The
//! asynchronous forms (`<false>`) compute at once; their GetTensorC hands out the blocks in order.
//!
//! Values: every C element accumulates in k order in the cube's accumulator type (f32 for half / bfloat16 /
//! float inputs, i32 for int8), starting from the bias (or 0), and is converted to C's type once, as the
//! fixpipe does (round to nearest even; int32 to half or int8 through SetQuantScalar's parameter).
//!
//! On a MIX kernel the AIC core that reaches REGIST_MATMUL_OBJ becomes the object's server and returns there
//! (the library's macro does); the AIV cores' calls are computed where they are made, which is what the
//! messages to the server compute.

use std::collections::VecDeque;

use crate::api::{ApiOp, Arg, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Atomic, Ctx, Flow};
use crate::cube::fixpipe::{convert, Quant};
use crate::cube::matmul_compute::compute;
use crate::cube::{read, write_runs};
use crate::dtype::DType;
use crate::memory::{Handle, MemKind, Space};
use crate::program::Sv;

mod blocks;
use blocks::{block_at, is_nz, read_l0c, write_l0c};

/// The TCubeTiling fields the object uses.
pub const TILING_FIELDS: [&str; 13] = [
    "usedCoreNum",
    "M",
    "N",
    "Ka",
    "Kb",
    "singleCoreM",
    "singleCoreN",
    "singleCoreK",
    "baseM",
    "baseN",
    "baseK",
    "isBias",
    "iterateOrder",
];

#[derive(Clone, Copy, Debug, Default)]
pub struct Tiling {
    pub m: i64,
    pub n: i64,
    pub ka: i64,
    pub kb: i64,
    pub single_m: i64,
    pub single_n: i64,
    pub single_k: i64,
    pub base_m: i64,
    pub base_n: i64,
    pub is_bias: bool,
    pub order: i64,
}

/// One operand: where it is, its element type, whether it is stored transposed, and whether it is NZ.
#[derive(Clone, Copy, Debug)]
pub struct Operand {
    pub h: Handle,
    pub t: DType,
    pub trans: bool,
    pub nz: bool,
}

/// A computed block of C: its place and its accumulators (f32 or i32 bits), row-major rows x cols.
#[derive(Clone, Debug)]
pub struct Block {
    pub row: usize,
    pub col: usize,
    pub rows: usize,
    pub cols: usize,
    pub acc: Vec<u32>,
    pub init: Vec<bool>,
}

#[derive(Clone, Debug, Default)]
pub struct MatmulObj {
    pub tiling: Option<Tiling>,
    /// SetOrgShape: M, N, Ka, Kb, Kc (0: N)
    pub org: Option<[i64; 5]>,
    /// SetSingleShape / SetTail: M, N, K (-1: the tiling's)
    pub single: [i64; 3],
    pub a: Option<Operand>,
    pub b: Option<Operand>,
    pub bias: Option<Operand>,
    pub bias_off: bool,
    /// the next block Iterate computes
    pub next: usize,
    pub current: Option<Block>,
    /// blocks computed by an asynchronous Iterate, for GetTensorC to hand out
    pub pending: VecDeque<Block>,
    pub quant_scalar: Option<u64>,
    pub quant_vector: Option<Handle>,
    /// the C, A, B and Bias MatmulType arguments as written in the declaration (positions and formats)
    pub config: Vec<String>,
    /// every TCubeTiling field the object was given, by name (IterateBatch reads the layout fields)
    pub fields: Vec<(String, i64)>,
    /// SetBatchNum: the batch counts of A and B for the cube-only IterateBatch
    pub batch_num: Option<(i64, i64)>,
    /// SetWorkspace: where IterateNBatch writes C
    pub workspace: Option<Handle>,
    pub nbatch: crate::cube::matmul_nbatch::NBatch,
}

impl MatmulObj {
    pub fn shape(&self) -> Option<(Tiling, [usize; 3], [i64; 5])> {
        let t = self.tiling?;
        let pick = |v: i64, d: i64| if v > 0 { v } else { d };
        let s = [
            pick(self.single[0], t.single_m).max(0) as usize,
            pick(self.single[1], t.single_n).max(0) as usize,
            pick(self.single[2], t.single_k).max(0) as usize,
        ];
        let org = self.org.unwrap_or([t.m, t.n, t.ka, t.kb, 0]);
        Some((t, s, org))
    }
}

/// What a method call does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Method {
    Register,
    Init,
    SetA,
    SetB,
    SetBias,
    DisableBias,
    SetTail,
    SetSingleShape,
    SetOrgShape,
    Iterate,
    GetTensorC,
    IterateAll,
    End,
    SetQuantScalar,
    SetQuantVector,
    IterateBatch,
    SetBatchNum,
    IterateNBatch,
    GetBatchTensorC,
    SetWorkspace,
    SetHF32,
    Nothing,
}

#[derive(Debug, Clone)]
pub(super) struct Call {
    method: Method,
    /// (object, tiling fields by name) for each object a REGIST_MATMUL_OBJ / Init sets up
    objs: Vec<(u32, Vec<(String, Sv)>)>,
    pub(super) obj: u32,
    pub(super) t: Option<DType>,
    pub(super) tensor: Option<u32>,
    pub(super) flags: Vec<Option<Sv>>,
    pub(super) ints: Vec<Option<Sv>>,
    result: Option<Sv>,
    result_h: Option<u32>,
    pub(super) sync: bool,
    pub(super) api: String,
}

fn tiling_fields(a: &Args, prefix: &str) -> Vec<(String, Sv)> {
    a.named
        .iter()
        .filter_map(|(name, arg)| {
            let field = name.strip_prefix(prefix)?.strip_prefix('.')?;
            match arg {
                Arg::Reg(sv) => Some((field.to_string(), *sv)),
                _ => None,
            }
        })
        .collect()
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let method = match a.api.as_str() {
        "REGIST_MATMUL_OBJ" => Method::Register,
        "Init" => Method::Init,
        "SetTensorA" => Method::SetA,
        "SetTensorB" => Method::SetB,
        "SetBias" => Method::SetBias,
        "DisableBias" | "ClearBias" => Method::DisableBias,
        "SetTail" => Method::SetTail,
        "SetSingleShape" => Method::SetSingleShape,
        "SetOrgShape" => Method::SetOrgShape,
        "Iterate" => Method::Iterate,
        "GetTensorC" => Method::GetTensorC,
        "IterateAll" => Method::IterateAll,
        "End" => Method::End,
        "SetQuantScalar" => Method::SetQuantScalar,
        "SetQuantVector" => Method::SetQuantVector,
        "IterateBatch" => Method::IterateBatch,
        "SetBatchNum" => Method::SetBatchNum,
        "IterateNBatch" => Method::IterateNBatch,
        "GetBatchTensorC" | "GetBatchC" => Method::GetBatchTensorC,
        "SetWorkspace" => Method::SetWorkspace,
        "SetHF32" => Method::SetHF32,
        _ => Method::Nothing,
    };
    let method = if method == Method::Init && !a.named.iter().any(|(n, _)| n.starts_with("cubeTiling")) {
        Method::Nothing // another class's Init (TPipe::Init)
    } else {
        method
    };
    let mut objs = Vec::new();
    if method == Method::Register {
        for i in 0..8 {
            let (mm, tiling) = if i == 0 {
                ("mm".to_string(), "tiling".to_string())
            } else {
                (format!("mm{i}"), format!("tiling{i}"))
            };
            if let Ok(o) = a.obj(&mm) {
                objs.push((o, tiling_fields(a, &tiling)));
            }
        }
    }
    let obj = match a.obj("self") {
        Ok(o) => o,
        Err(_) if method == Method::Register => 0,
        Err(e) => return Err(e),
    };
    if method == Method::Init {
        objs.push((obj, tiling_fields(a, "cubeTiling")));
    }
    let tensor = match method {
        Method::GetBatchTensorC => a.handle("c").ok(),
        Method::SetWorkspace => a.handle("addr").ok(),
        _ => ["gm", "local", "ubCmatrix", "localCmatrix", "quantTensor"]
            .iter()
            .find_map(|n| a.handle(n).ok()),
    };
    let sv = |n: &str| a.opt_sv(n).ok().flatten();
    let (flags, ints) = match method {
        Method::SetHF32 => (vec![sv("enableHF32")], vec![]),
        Method::SetA => (vec![sv("isTransposeA")], vec![]),
        Method::SetB => (vec![sv("isTransposeB")], vec![]),
        Method::SetTail => (vec![], vec![sv("tailM"), sv("tailN"), sv("tailK")]),
        Method::SetSingleShape => (vec![], vec![sv("singleM"), sv("singleN"), sv("singleK")]),
        Method::SetOrgShape => (
            vec![],
            if a.overload == "mnk" {
                vec![sv("orgM"), sv("orgN"), sv("orgK"), sv("orgK"), None]
            } else {
                vec![sv("orgM"), sv("orgN"), sv("orgKa"), sv("orgKb"), sv("orgKc")]
            },
        ),
        Method::Iterate => (vec![sv("enPartialSum")], vec![]),
        Method::GetTensorC | Method::IterateAll => (vec![sv("enSequentialWrite")], vec![sv("enAtomic")]),
        Method::SetQuantScalar => (vec![], vec![sv("quantScalar")]),
        Method::IterateBatch => (
            vec![sv("enSequentialWrite"), sv("enPartialSum")],
            [
                "batchA",
                "batchB",
                "matrixStrideA",
                "matrixStrideB",
                "matrixStrideC",
                "enAtomic",
            ]
            .iter()
            .map(|n| sv(n))
            .collect(),
        ),
        Method::SetBatchNum | Method::GetBatchTensorC => {
            (vec![sv("enSequentialWrite")], vec![sv("batchA"), sv("batchB")])
        }
        Method::IterateNBatch => (
            vec![sv("enSequentialWrite"), sv("enPartialSum")],
            [
                "batchLoop",
                "batchA",
                "batchB",
                "matrixStrideA",
                "matrixStrideB",
                "matrixStrideC",
                "enAtomic",
            ]
            .iter()
            .map(|n| sv(n))
            .collect(),
        ),
        Method::SetWorkspace => (vec![], vec![sv("size")]),
        _ => (vec![], vec![]),
    };
    let t = a.dtype("T").ok();
    let sync = a.targ("sync").is_none_or(|v| v != "false" && v != "0");
    Ok(Box::new(Call {
        method,
        objs,
        obj,
        t,
        tensor,
        flags,
        ints,
        result: a.result_sv(),
        result_h: a.result_handle(),
        sync,
        api: a.api.clone(),
    }))
}

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

/// The top-level template arguments of `Matmul<...>` as written.
pub fn split_config(text: &str) -> Vec<String> {
    let inner = match (text.find('<'), text.rfind('>')) {
        (Some(a), Some(b)) if b > a => &text[a + 1..b],
        _ => return Vec::new(),
    };
    let mut out = Vec::new();
    let (mut depth, mut cur) = (0i32, String::new());
    for ch in inner.chars() {
        match ch {
            '<' => depth += 1,
            '>' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

pub fn register(r: &mut Registry) {
    r.add_all(
        &["REGIST_MATMUL_OBJ"],
        &["one", "two", "three", "four", "five", "six", "seven", "eight"],
        decode,
    );
    r.add_all(
        &[
            "Init",
            "SetTensorA",
            "SetTensorB",
            "SetBias",
            "SetTail",
            "SetSingleShape",
            "SetOrgShape",
            "Iterate",
            "GetTensorC",
            "IterateAll",
            "End",
            "DisableBias",
            "ClearBias",
            "SetLocalWorkspace",
            "SetWorkspace",
            "SetHF32",
            "SetSubBlockIdx",
            "SetSelfDefineData",
            "SetUserDefInfo",
            "WaitIterateAll",
            "WaitGetTensorC",
            "SetQuantScalar",
            "SetQuantVector",
            "IterateBatch",
            "SetBatchNum",
            "WaitIterateBatch",
            "IterateNBatch",
            "GetBatchTensorC",
            "GetBatchC",
        ],
        &[
            "plain",
            "mix_gm",
            "mix_local",
            "cube_gm",
            "cube_local",
            "gm",
            "local",
            "co1",
            "workspace",
            "mnk",
            "mnkakb",
            "tensor",
            "pointer",
        ],
        decode,
    );
}

/// Whether Matmul object `obj` was given a workspace (SetWorkspace).
fn m_workspace(cx: &Ctx, obj: u32) -> bool {
    cx.core.cube.matmuls.get(&obj).is_some_and(|m| m.workspace.is_some())
}
