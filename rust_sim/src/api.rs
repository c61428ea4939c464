//! Catalog calls: `call Add.count <T=f16> dst=h3 src0=h4 src1=h5 count=r7:i32` in the program text.
//!
//! Each instruction family (vector/*.rs, dma.rs, sync.rs, system.rs, ...) registers a decoder per
//! `Api.overload` it models. The loader calls the decoder once per instruction; the decoder reads the named
//! operands (`Args`) and returns an `ApiOp`, a concrete struct whose `exec` is the functional semantics.
//! Nothing string-matches at run time. Adding a family = a new file with `register()` + one line in
//! `registry()` below.

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

use crate::core::{Ctx, Flow};
use crate::dtype::{DType, STy};
use crate::program::Sv;

/// The hardware pipes (instruction queues) of an AI Core.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pipe {
    S = 0,
    V = 1,
    M = 2,
    Mte1 = 3,
    Mte2 = 4,
    Mte3 = 5,
    Fix = 6,
    All = 7,
}

pub const PIPES: usize = 8;

impl Pipe {
    pub fn parse(name: &str) -> Option<Pipe> {
        Some(match name.trim_start_matches("PIPE_") {
            "S" => Pipe::S,
            "V" => Pipe::V,
            "M" => Pipe::M,
            "MTE1" => Pipe::Mte1,
            "MTE2" => Pipe::Mte2,
            "MTE3" => Pipe::Mte3,
            "FIX" => Pipe::Fix,
            "ALL" => Pipe::All,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Pipe::S => "PIPE_S",
            Pipe::V => "PIPE_V",
            Pipe::M => "PIPE_M",
            Pipe::Mte1 => "PIPE_MTE1",
            Pipe::Mte2 => "PIPE_MTE2",
            Pipe::Mte3 => "PIPE_MTE3",
            Pipe::Fix => "PIPE_FIX",
            Pipe::All => "PIPE_ALL",
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// What the timing model needs to know about one executed instruction (issue 29 reads these): which pipe
/// ran it and how much work it was. The functional model records them only when asked to.
#[derive(Clone, Debug, PartialEq)]
pub enum Work {
    /// a vector instruction: repeats and source bytes per operand
    Vector { repeats: u64, bytes: u64 },
    /// a copy: bytes moved, (source memory, destination memory)
    Copy {
        bytes: u64,
        src: &'static str,
        dst: &'static str,
    },
    /// a scalar access, a flag, a barrier, bookkeeping: no pipe time to speak of
    Scalar,
}

/// A decoded catalog call.
pub trait ApiOp: Send + Sync + fmt::Debug {
    /// The pipe the scalar unit issues this instruction to (PIPE_S: executed by the scalar unit itself).
    fn pipe(&self) -> Pipe;
    /// Functional semantics: read the operands' values, change memory and registers, report findings.
    fn exec(&self, cx: &mut Ctx) -> Flow;
}

/// One named operand of a call.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// `r7:i32`
    Reg(Sv),
    /// `&r7:i32`: an output parameter, the call stores into this register
    Out(Sv),
    /// `h3`
    Handle(u32),
    /// `o2`
    Obj(u32),
    /// `s16:2:i64`: a C array on the scalar stack (byte offset, element count, element type)
    Stack { off: u32, len: u32, elem: DType },
    /// `RoundMode::CAST_RINT`, a bare name
    Name(String),
    /// `tiling:SoftMaxTiling`: a tiling struct with no fields known here
    Tiling(String),
}

/// A C array a call takes on the scalar stack (`uint16_t elementLengths[4]`, `uint64_t mask[2]`, a shape), read
/// when the call runs: the loader keeps each array inside the stack, and the call reads it by its own element
/// type, so every family reads (and writes) stack arrays here rather than slicing the stack itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StackArray {
    /// byte offset on the stack
    pub off: u32,
    /// element count
    pub len: u32,
    pub elem: DType,
}

impl StackArray {
    /// Element `k`, zero-extended from the element's width; 0 past the array (a shorter array than the call
    /// reads holds nothing more: reading on would read the next variable's bytes, or past the stack).
    pub fn get(&self, cx: &Ctx, k: usize) -> u64 {
        if k >= self.len as usize {
            return 0;
        }
        let at = self.off as usize + k * self.elem.size();
        cx.core
            .stack
            .get(at..at + self.elem.size())
            .map_or(0, |b| self.elem.load_bits(b))
    }

    /// The first `N` elements, each masked to `mask` (the bits the hardware field holds).
    pub fn first<const N: usize>(&self, cx: &Ctx, mask: u64) -> [u64; N] {
        std::array::from_fn(|k| self.get(cx, k) & mask)
    }

    /// Stores `v` (truncated to the element's width) into element `k`; nothing past the array.
    pub fn set(&self, cx: &mut Ctx, k: usize, v: u64) {
        if k >= self.len as usize {
            return;
        }
        let at = self.off as usize + k * self.elem.size();
        if let Some(b) = cx.core.stack.get_mut(at..at + self.elem.size()) {
            self.elem.store_bits(b, v);
        }
    }
}

/// The operands of one call, by name, and its template arguments.
#[derive(Clone, Debug, Default)]
pub struct Args {
    pub api: String,
    pub overload: String,
    pub targs: Vec<(String, String)>,
    pub named: Vec<(String, Arg)>,
    /// result registers (scalar or handle: `r5:i64`, `h2`)
    pub results: Vec<Arg>,
}

impl Args {
    pub fn head(&self) -> String {
        format!("{}.{}", self.api, self.overload)
    }

    pub fn get(&self, name: &str) -> Option<&Arg> {
        self.named.iter().find(|(n, _)| n == name).map(|(_, a)| a)
    }

    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    pub fn targ(&self, name: &str) -> Option<&str> {
        self.targs.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The element type bound to template parameter `name` (`T=f16`). int4b_t is refused: element-wise code
    /// reads an element's bytes, and two int4b_t share one; the calls that take it use `dtype_packed`.
    pub fn dtype(&self, name: &str) -> Result<DType, String> {
        match self.dtype_packed(name)? {
            DType::I4 => Err(format!(
                "{name} = int4b_t, two elements to a byte, is not modelled for this call"
            )),
            t => Ok(t),
        }
    }

    /// The element type bound to `name`, int4b_t included (crate::int4 says how it is stored).
    pub fn dtype_packed(&self, name: &str) -> Result<DType, String> {
        let text = self.targ(name).ok_or_else(|| format!("no element type for {name}"))?;
        DType::parse(text).ok_or_else(|| format!("unknown element type {text}"))
    }

    pub fn handle(&self, name: &str) -> Result<u32, String> {
        match self.get(name) {
            Some(Arg::Handle(h)) => Ok(*h),
            Some(other) => Err(format!("operand {name} is {other:?}, not a tensor")),
            None => Err(format!("missing operand {name}")),
        }
    }

    pub fn sv(&self, name: &str) -> Result<Sv, String> {
        match self.get(name) {
            Some(Arg::Reg(sv)) | Some(Arg::Out(sv)) => Ok(*sv),
            Some(other) => Err(format!("operand {name} is {other:?}, not a scalar")),
            None => Err(format!("missing operand {name}")),
        }
    }

    pub fn opt_sv(&self, name: &str) -> Result<Option<Sv>, String> {
        if self.has(name) {
            self.sv(name).map(Some)
        } else {
            Ok(None)
        }
    }

    /// Operand `name` when it is a C array on the scalar stack.
    pub fn stack_array(&self, name: &str) -> Option<StackArray> {
        match self.get(name) {
            Some(Arg::Stack { off, len, elem }) => Some(StackArray {
                off: *off,
                len: *len,
                elem: *elem,
            }),
            _ => None,
        }
    }

    /// Operand `name` as a C array of at least `min_len` elements of `width` bytes (0: any width); the error
    /// names `what`, the C declaration the call takes (`uint16_t[4]`).
    pub fn array(&self, name: &str, min_len: u32, width: usize, what: &str) -> Result<StackArray, String> {
        match (self.stack_array(name), self.get(name)) {
            (Some(s), _) if s.len >= min_len && (width == 0 || s.elem.size() == width) => Ok(s),
            (_, Some(other)) => Err(format!("operand {name} is {other:?}, not a {what}")),
            (_, None) => Err(format!("missing operand {name}, a {what}")),
        }
    }

    pub fn name(&self, name: &str) -> Option<&str> {
        match self.get(name) {
            Some(Arg::Name(n)) => Some(n.as_str()),
            _ => None,
        }
    }

    pub fn obj(&self, name: &str) -> Result<u32, String> {
        match self.get(name) {
            Some(Arg::Obj(o)) => Ok(*o),
            _ => Err(format!("missing object operand {name}")),
        }
    }

    /// The fields of struct parameter `name` (`name.field=...`), by field name.
    pub fn field(&self, strukt: &str, field: &str) -> Result<Sv, String> {
        self.sv(&format!("{strukt}.{field}"))
    }

    pub fn opt_field(&self, strukt: &str, field: &str) -> Result<Option<Sv>, String> {
        self.opt_sv(&format!("{strukt}.{field}"))
    }

    pub fn result_sv(&self) -> Option<Sv> {
        match self.results.first() {
            Some(Arg::Reg(sv)) => Some(*sv),
            _ => None,
        }
    }

    pub fn result_handle(&self) -> Option<u32> {
        match self.results.first() {
            Some(Arg::Handle(h)) => Some(*h),
            _ => None,
        }
    }

    /// A scalar operand that may be an enumerator name or a register holding its vendor numbering.
    pub fn enum_or_reg(&self, name: &str) -> Result<EnumArg, String> {
        match self.get(name) {
            Some(Arg::Name(n)) => Ok(EnumArg::Name(n.rsplit("::").next().unwrap_or(n).to_string())),
            Some(Arg::Reg(sv)) => Ok(EnumArg::Reg(*sv)),
            Some(other) => Err(format!("operand {name} is {other:?}, not an enumerator")),
            None => Err(format!("missing operand {name}")),
        }
    }
}

/// An enum operand: known at load time, or read from a register when the call runs.
#[derive(Clone, Debug, PartialEq)]
pub enum EnumArg {
    Name(String),
    Reg(Sv),
}

pub type Decoder = fn(&Args) -> Result<Box<dyn ApiOp>, String>;

/// Decoders by `Api.overload`.
pub struct Registry {
    map: HashMap<String, Decoder>,
}

impl Registry {
    pub fn add(&mut self, head: &str, decoder: Decoder) {
        self.map.insert(head.to_string(), decoder);
    }

    pub fn add_all(&mut self, apis: &[&str], overloads: &[&str], decoder: Decoder) {
        for api in apis {
            for ov in overloads {
                self.add(&format!("{api}.{ov}"), decoder);
            }
        }
    }

    pub fn get(&self, head: &str) -> Option<Decoder> {
        self.map.get(head).copied()
    }

    pub fn heads(&self) -> Vec<String> {
        let mut v: Vec<String> = self.map.keys().cloned().collect();
        v.sort();
        v
    }
}

/// Every family's decoders.
pub fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut r = Registry { map: HashMap::new() };
        crate::system::register(&mut r);
        crate::sync::register(&mut r);
        crate::dma::register(&mut r);
        crate::nddma::register(&mut r);
        crate::loop_mode::register(&mut r);
        crate::scalar_bits::register(&mut r);
        crate::vector::register(&mut r);
        crate::tensor::register(&mut r);
        crate::cube::register(&mut r);
        crate::mix::register(&mut r);
        r
    })
}

/// Reads the scalar register type of a typed operand in the program text (`r7:i32` -> I32).
pub fn parse_sty(text: &str) -> Option<STy> {
    STy::parse(text)
}

#[cfg(test)]
mod tests {
    use super::StackArray;
    use crate::checks::Findings;
    use crate::core::{Core, Ctx};
    use crate::dtype::DType;
    use crate::memory::Gm;
    use crate::parse::parse;

    #[test]
    fn stack_arrays_read_by_their_element_type_and_hold_nothing_past_their_end() {
        let prog = parse("ascendir-sim 1\nkernel k aiv\nregs 1 0\nstack 16\ncode\n  ret\nend\n").unwrap();
        let mut core = Core::new(&prog, 0, 1);
        core.stack.copy_from_slice(&(1..=16).collect::<Vec<u8>>());
        let (mut gm, mut findings) = (Gm { bufs: Vec::new() }, Findings::new());
        let mut cx = Ctx {
            core: &mut core,
            gm: &mut gm,
            prog: &prog,
            findings: &mut findings,
            loc: 0,
            pc: 0,
        };
        // a uint16_t[3] at byte 10: its last element ends at the stack's end
        let lens = StackArray {
            off: 10,
            len: 3,
            elem: DType::U16,
        };
        assert_eq!(lens.get(&cx, 0), 0x0c0b);
        assert_eq!(lens.first::<4>(&cx, 0xff), [0x0b, 0x0d, 0x0f, 0]);
        // a shape array shorter than the call's dim: no element past it, neither the next bytes nor a panic
        let shape = StackArray {
            off: 12,
            len: 1,
            elem: DType::U32,
        };
        assert_eq!(shape.first::<2>(&cx, u64::MAX), [0x100f_0e0d, 0]);
        // stores keep to the element's width and to the array
        lens.set(&mut cx, 2, 0xabcd_1234);
        lens.set(&mut cx, 3, u64::MAX);
        assert_eq!(&cx.core.stack[8..], &[9, 10, 11, 12, 13, 14, 0x34, 0x12]);
    }
}
