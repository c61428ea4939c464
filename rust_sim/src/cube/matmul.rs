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
//!
//! This file holds the object's state and the call's form; matmul/decode.rs reads a call, matmul/exec.rs runs
//! the methods, matmul/blocks.rs computes and writes the C blocks.

use std::collections::VecDeque;

use crate::api::Registry;
use crate::checks::code;
use crate::core::{Atomic, Ctx, Flow};
use crate::cube::fixpipe::{convert, Quant};
use crate::cube::{read, write_runs};
use crate::dtype::DType;
use crate::memory::{Handle, MemKind, Space};
use crate::program::Sv;

mod blocks;
mod decode;
mod exec;

use decode::decode;

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
