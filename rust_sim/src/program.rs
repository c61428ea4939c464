//! The program: header facts, the location table, and the decoded instruction stream (one enum, each
//! instruction with its source location). The text form is parsed in parse/; catalog calls are decoded
//! once, at load, by their family's decoder (api.rs) into an `ApiOp`.

use crate::api::ApiOp;
use crate::dtype::{DType, STy};
use crate::memory::MemKind;
use crate::scalar::{ConvOp, FPred, FloatBin, IPred, IntBin, UnaryOp};

pub type R = u32; // scalar register
pub type H = u32; // handle register

/// A scalar operand: register and the type of what it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sv {
    pub reg: R,
    pub ty: STy,
}

#[derive(Clone, Debug)]
pub struct Loc {
    pub file: u32,
    pub line: u32,
    pub col: u32,
}

#[derive(Clone, Debug)]
pub struct ParamDecl {
    pub index: u32,
    pub name: String,
    /// Some(handle register) for a GM_ADDR, None for a scalar parameter
    pub handle: Option<H>,
    pub scalar: Option<Sv>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObjectKind {
    Pipe,
    Queue,
    TBuf,
    Allocator,
    Opaque,
}

#[derive(Clone, Debug)]
pub struct ObjectDecl {
    pub kind: ObjectKind,
    pub name: String,
    pub attrs: Vec<(String, String)>,
    pub mem: Option<MemKind>,
    pub depth: u32,
    /// the HardEvents a queue's EnQue/DeQue (fwd) and FreeTensor/AllocTensor (back) stand for
    pub fwd: Option<String>,
    pub back: Option<String>,
}

impl ObjectDecl {
    pub fn attr(&self, key: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
}

#[derive(Debug)]
pub enum Op {
    // ---- scalar unit
    Int2 {
        op: IntBin,
        ty: STy,
        d: R,
        a: R,
        b: R,
    },
    Float2 {
        op: FloatBin,
        ty: STy,
        d: R,
        a: R,
        b: R,
    },
    Unary {
        op: UnaryOp,
        ty: STy,
        d: R,
        a: R,
    },
    Fma {
        ty: STy,
        d: R,
        a: R,
        b: R,
        c: R,
    },
    Cmpi {
        pred: IPred,
        ty: STy,
        d: R,
        a: R,
        b: R,
    },
    Cmpf {
        pred: FPred,
        ty: STy,
        d: R,
        a: R,
        b: R,
    },
    Conv {
        op: ConvOp,
        from: STy,
        to: STy,
        d: R,
        a: R,
    },
    Select {
        d: R,
        c: R,
        a: R,
        b: R,
    },
    SelectH {
        d: H,
        c: R,
        a: H,
        b: H,
    },
    Mov {
        d: R,
        a: R,
    },
    MovH {
        d: H,
        a: H,
    },
    /// A value the lowering left undefined: 0. With `what` (the value's name or text), a use of it as an
    /// address, a size, a condition or a call's operand is a finding (taint.rs), not a silent 0.
    Undef {
        d: R,
        what: Option<String>,
    },
    NullH {
        d: H,
    },
    Br {
        target: u32,
    },
    Brz {
        c: R,
        target: u32,
    },
    Ret,
    LdStack {
        elem: DType,
        off: u32,
        len: u32,
        idx: R,
        d: R,
    },
    StStack {
        elem: DType,
        off: u32,
        len: u32,
        idx: R,
        v: R,
    },
    // ---- pointers and tensors. `elem` of these is an element's size in bits (4 for int4b_t, two to a byte);
    // PtrAdd's is the C++ sizeof in bits (a `__gm__ int4b_t*` steps a whole byte)
    PtrAdd {
        elem: u32,
        d: H,
        a: H,
        n: Sv,
    },
    SubTensor {
        elem: u32,
        d: H,
        a: H,
        n: Sv,
    },
    /// A GM pointer as the integer the device sees (`(uint64_t)ptr`): see `memory::gm_address`.
    PtrToInt {
        d: R,
        a: H,
    },
    /// An integer used as a GM pointer (`reinterpret_cast<__gm__ T*>(word)`, a tensor list's pointer table).
    IntToPtr {
        d: H,
        a: R,
    },
    /// A UB byte address used as a pointer (`src[i]` through a `__ubuf__ T *`): UB from that address on.
    UbToPtr {
        d: H,
        a: R,
    },
    SetGlobalBuffer {
        elem: u32,
        d: H,
        p: H,
        count: Option<Sv>,
    },
    GetValue {
        elem: DType,
        d: R,
        h: H,
        idx: Sv,
    },
    SetValue {
        elem: DType,
        h: H,
        idx: Sv,
        v: Sv,
    },
    // ---- objects: pipe, queues, buffers
    ObjInit {
        obj: u32,
    },
    InitBuffer {
        pipe: u32,
        obj: u32,
        num: Option<Sv>,
        len: Sv,
    },
    AllocTensor {
        q: u32,
        d: H,
    },
    FreeTensor {
        q: u32,
        h: H,
    },
    EnQue {
        q: u32,
        h: H,
        d: R,
    },
    DeQue {
        q: u32,
        d: H,
    },
    TBufGet {
        b: u32,
        elem: u32,
        count: Option<Sv>,
        off: Option<Sv>,
        d: H,
    },
    LocalAlloc {
        a: u32,
        elem: u32,
        count: Sv,
        d: H,
    },
    LocalAt {
        mem: MemKind,
        elem: u32,
        addr: Sv,
        count: Sv,
        d: H,
    },
    // ---- what the host decided
    TilingMissing {
        field: String,
        d: R,
    },
    TilingKeyIs {
        key: i64,
        d: R,
    },
    CoreIs {
        aiv: bool,
        d: R,
    },
    // ---- SIMT launches whose threads wait for each other (simt.rs)
    /// `rT = simt.begin rN L`: runs the code up to the simt.end at label L once per thread of rN threads, each
    /// with its index in rT
    SimtBegin {
        d: R,
        n: R,
        end: u32,
    },
    SimtEnd,
    /// asc_syncthreads: the thread waits until every thread of the launch is here
    SimtSync,
    /// a warp function (shuffle, vote, reduction): operands value, lane / delta / mask, width as they apply
    SimtWarp {
        kind: crate::simt::WarpKind,
        ty: STy,
        d: R,
        a: Vec<R>,
    },
    /// `rOld = simt.atomic_<kind>.<elem> hP rV:ty [rW:ty]`: a SIMT atomic on the element at hP
    SimtAtomic {
        kind: crate::simt::AtomicKind,
        elem: DType,
        d: R,
        h: H,
        a: Vec<Sv>,
    },
    // ---- catalog calls
    Api(Box<dyn ApiOp>),
    /// Where the lowering left a statement out (an ASC103 gap; `what` says why): running it is a finding, once
    /// per location; the core goes on, as the statement would have after it.
    LeftOut {
        what: String,
    },
    /// A construct the simulator does not model: running it is a finding that stops the core.
    Unsupported {
        what: String,
        results: Vec<u32>,
        handles: Vec<u32>,
    },
}

#[derive(Debug)]
pub struct Instr {
    pub loc: i32,
    pub op: Op,
}

/// A loaded program.
#[derive(Debug, Default)]
pub struct Program {
    pub kernel: String,
    pub kernel_type: String,
    pub chip: String,
    pub block_dim: Option<u32>,
    pub tiling_key: Option<i64>,
    /// (memory, bytes, start-address alignment)
    pub memories: Vec<(MemKind, usize, usize)>,
    pub params: Vec<ParamDecl>,
    pub files: Vec<String>,
    pub locs: Vec<Loc>,
    pub n_regs: usize,
    pub n_handles: usize,
    pub stack_bytes: usize,
    pub objects: Vec<ObjectDecl>,
    pub consts: Vec<(R, u64)>,
    pub code: Vec<Instr>,
    /// per instruction, a call's head as written (`Add.count<T=f16>`): what the timing model costs it as
    pub call_heads: Vec<Option<String>>,
    /// per instruction, a call's scalar operands by their taint role (taint.rs)
    pub call_regs: Vec<Option<Box<crate::taint::CallRegs>>>,
}

impl Program {
    pub fn memory(&self, kind: MemKind) -> Option<(usize, usize)> {
        self.memories
            .iter()
            .find(|(k, _, _)| *k == kind)
            .map(|(_, s, a)| (*s, *a))
    }

    /// `file:line:col` of a location index, for messages.
    pub fn where_(&self, loc: i32) -> String {
        if loc < 0 || loc as usize >= self.locs.len() {
            return "<unknown>".into();
        }
        let l = &self.locs[loc as usize];
        let file = self.files.get(l.file as usize).map(|s| s.as_str()).unwrap_or("?");
        format!("{file}:{}:{}", l.line, l.col)
    }
}
