//! Methods of GlobalTensor, LocalTensor, TQue and TPipe that are calls in the IR (ReinterpretCast, GetSize,
//! GetPhyAddr, queue queries, ...), and the GM fills (InitGlobalMemory, Fill, InitOutput).

use crate::api::{ApiOp, Arg, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::memory::Handle;
use crate::program::Sv;
use crate::queue::ObjState;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Reinterpret,
    Size,
    Length,
    PhyAddr,
    SetSize,
    GetValue,
    SetValue,
    Index,
    NoOp,
    Vacant,
    HasTensor,
    TensorCount,
    PipeReset,
}

#[derive(Debug)]
struct Method {
    kind: Kind,
    elem: DType,
    this: Option<u32>,
    obj: Option<u32>,
    arg: Option<Sv>,
    value: Option<Sv>,
    result: Option<Sv>,
    result_handle: Option<u32>,
    name: String,
}

fn decode_method(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let kind = match a.api.as_str() {
        "ReinterpretCast" => Kind::Reinterpret,
        "GetSize" => Kind::Size,
        "GetLength" => Kind::Length,
        "GetPhyAddr" => Kind::PhyAddr,
        "SetSize" => Kind::SetSize,
        "GetValue" => Kind::GetValue,
        "SetValue" => Kind::SetValue,
        "operator[]" => Kind::Index,
        "VacantInQue" => Kind::Vacant,
        "HasTensorInQue" => Kind::HasTensor,
        "GetTensorCountInQue" => Kind::TensorCount,
        "Reset" | "Destroy" => Kind::PipeReset,
        _ => Kind::NoOp,
    };
    let (this, obj) = match a.get("self") {
        Some(Arg::Handle(h)) => (Some(*h), None),
        Some(Arg::Obj(o)) => (None, Some(*o)),
        _ => (None, None),
    };
    let scalars: Vec<Sv> = a
        .named
        .iter()
        .filter_map(|(n, arg)| match arg {
            Arg::Reg(sv) if n != "self" => Some(*sv),
            _ => None,
        })
        .collect();
    Ok(Box::new(Method {
        kind,
        elem: a.dtype_packed("T").unwrap_or(DType::U8),
        this,
        obj,
        arg: scalars.first().copied(),
        value: scalars.get(1).copied(),
        result: a.result_sv(),
        result_handle: a.result_handle(),
        name: a.api.clone(),
    }))
}

impl ApiOp for Method {
    fn pipe(&self) -> Pipe {
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let size = self.elem.size() as i64;
        let h = self.this.map(|h| cx.handle(h)).unwrap_or(Handle::NULL);
        let set = |cx: &mut Ctx, v: u64| {
            if let Some(r) = self.result {
                cx.set(r.reg, r.ty, v);
            }
        };
        match self.kind {
            Kind::Reinterpret => {
                if let Some(d) = self.result_handle {
                    cx.set_handle(d, h);
                }
            }
            Kind::Size | Kind::Length => {
                let bytes = h.len.max(0);
                set(
                    cx,
                    if self.kind == Kind::Size {
                        (bytes * 8 / self.elem.bits() as i64) as u64
                    } else {
                        bytes as u64
                    },
                );
            }
            Kind::PhyAddr => {
                let off = self.arg.map(|a| self.elem.bytes_of(cx.int(a))).unwrap_or(0);
                if let Some(d) = self.result_handle {
                    cx.set_handle(d, h.offset(off));
                } else {
                    set(cx, (h.addr + off) as u64);
                }
            }
            Kind::SetSize => {
                if let (Some(t), Some(n)) = (self.this, self.arg) {
                    let mut nh = h;
                    nh.len = self.elem.bytes_of(cx.int(n));
                    cx.set_handle(t, nh);
                }
            }
            Kind::Index => {
                let off = self.arg.map(|a| self.elem.bytes_of(cx.int(a))).unwrap_or(0);
                if let Some(d) = self.result_handle {
                    cx.set_handle(d, h.offset(off));
                }
            }
            Kind::GetValue | Kind::SetValue => {
                let Some(i) = self.arg else { return Flow::Next };
                if self.elem == DType::I4 {
                    // two elements share a byte: a scalar access would read or write half of one (not modelled)
                    cx.report(
                        code::NOT_MODELLED,
                        format!("{} of an int4b_t element (two to a byte)", self.name),
                    );
                    return Flow::Stop;
                }
                let at = cx.int(i) * size;
                let what = if self.kind == Kind::GetValue {
                    "GetValue"
                } else {
                    "SetValue"
                };
                let Some(p) = cx.range(h, at, size, self.kind == Kind::SetValue, size as usize, what) else {
                    return Flow::Next;
                };
                let n = size as usize;
                if self.kind == Kind::GetValue {
                    let (bits, unknown) = cx.read_scalar(h.space, p, self.elem);
                    set(cx, bits);
                    if let Some(r) = self.result {
                        // judged where the value is used, as the GetValue instruction's (taint.rs)
                        cx.core.taint.mark_bits(r.reg, Some(cx.loc), unknown, cx.prog.n_regs);
                    }
                } else if let Some(v) = self.value {
                    let bits = cx.value_as(v, self.elem);
                    let mut bytes = [0u8; 8];
                    self.elem.store_bits(&mut bytes, bits);
                    let init = cx.core.taint.init_bytes(v.reg, self.elem.is_float());
                    cx.store_bytes(h, p, &bytes[..n], &init[..n], self.elem, "SetValue");
                }
            }
            Kind::Vacant | Kind::HasTensor | Kind::TensorCount => {
                let (queued, depth) = match self.obj.map(|o| &cx.core.objs[o as usize]) {
                    Some(ObjState::Queue(q)) => (q.fifo.len() as u64, q.bufs.len() as u64),
                    _ => (0, 0),
                };
                let v = match self.kind {
                    Kind::Vacant => (queued < depth) as u64,
                    Kind::HasTensor => (queued > 0) as u64,
                    _ => queued,
                };
                set(cx, v);
            }
            Kind::PipeReset => {
                if let Some(o) = self.obj {
                    if let ObjState::Pipe { cursor } = &mut cx.core.objs[o as usize] {
                        *cursor = [0; 7];
                    }
                }
            }
            Kind::NoOp => {
                let _ = &self.name;
            }
        }
        Flow::Next
    }
}

// ---------------------------------------------------------------------------------------------------------
// InitGlobalMemory(gm, size, value) / Fill(gm, size, value) / InitOutput(gm, size, value = 0)

#[derive(Debug)]
struct GmFill {
    t: DType,
    gm: u32,
    size: Sv,
    value: Option<Sv>,
}

fn decode_fill(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(GmFill {
        t: a.dtype("T")?,
        gm: a.handle("gmWorkspaceAddr")?,
        size: a.sv("size")?,
        value: a.opt_sv("value")?,
    }))
}

impl ApiOp for GmFill {
    fn pipe(&self) -> Pipe {
        Pipe::Mte3
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let t = self.t;
        let n = cx.int(self.size);
        if n < 0 {
            cx.report(code::INVALID_OPERAND, format!("a GM fill of {n} elements"));
            return Flow::Next;
        }
        let h = cx.handle(self.gm);
        let bytes = n as usize * t.size();
        let Some(at) = cx.range(h, 0, bytes as i64, true, t.size(), "InitGlobalMemory") else {
            return Flow::Next;
        };
        let bits = self.value.map(|v| cx.value_as(v, t)).unwrap_or(0);
        let mut data = vec![0u8; bytes];
        for c in data.chunks_exact_mut(t.size()) {
            t.store_bits(c, bits);
        }
        if let Some(m) = crate::timing::meter(cx.core) {
            // the library duplicates the value in UB and copies it out: a UB -> GM copy of the bytes
            m.read(crate::memory::Space::Local(crate::memory::MemKind::Ub), 0, 0);
            m.wrote(bytes as u64, h.space, at);
        }
        cx.store_bytes(h, at, &data, &vec![1u8; bytes], t, "InitGlobalMemory");
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(
        &[
            "ReinterpretCast",
            "GetSize",
            "GetLength",
            "SetSize",
            "GetValue",
            "SetValue",
            "operator[]",
            "SetL2CacheHint",
            "InitBuffer",
        ],
        &["plain"],
        decode_method,
    );
    r.add_all(&["GetPhyAddr"], &["plain", "offset"], decode_method);
    // (TPipe::Init is left out: Matmul::Init, of the cube family, has the same head)
    r.add_all(
        &[
            "VacantInQue",
            "HasTensorInQue",
            "GetTensorCountInQue",
            "FreeAllEvent",
            "Reset",
            "Destroy",
        ],
        &["plain"],
        decode_method,
    );
    r.add_all(&["InitGlobalMemory", "InitOutput"], &["plain"], decode_fill);
    r.add("Fill.gm", decode_fill);
}
