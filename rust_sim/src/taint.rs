//! Values read from memory nothing wrote, followed through the scalar unit (Miri's rule for uninitialised
//! bytes: copying them is fine, acting on them is not).
//!
//! A GetValue of bytes no instruction wrote (a tensor's tail copied in from the allocation's padding, a
//! buffer never filled) does not itself do harm: what matters is where the value goes. So the register it
//! lands in carries a taint (the location of that GetValue), arithmetic, comparisons, moves and stack
//! stores pass it on, and SetValue stores it into memory's shadow as unwritten data, where the per-byte
//! tracking of copies and vector instructions takes over (an output element holding it is ASC952 at the
//! write; the allocation's padding is no one's to judge). Acting on a tainted value is ASC952 where it
//! happens: a branch or loop condition, an address or index, a buffer length, a catalog call's scalar
//! operand (a vector scalar, a count, a stride).
//!
//! Nothing is tracked until the first tainted read: `Taint::any` is false and the interpreter skips `step`.

use crate::api::{Arg, Args};
use crate::checks::{code, Findings, Severity};
use crate::core::Core;
use crate::program::{Op, Program, R};

/// No taint: the value is not from unwritten memory.
const CLEAN: i32 = i32::MIN;

/// A core's taint state: per scalar register and per stack byte, CLEAN or the location of the GetValue that
/// read unwritten memory.
#[derive(Default)]
pub struct Taint {
    /// some register or stack byte may be tainted (false: nothing to follow, the common case)
    pub any: bool,
    regs: Vec<i32>,
    stack: Vec<i32>,
}

/// How a catalog call's scalar operands relate to taint (decided at load, from its head and operands).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CallRegs {
    /// operands the call acts on (counts, strides, scalars, indices): a tainted one is a finding
    pub uses: Vec<R>,
    /// operands whose value only flows into the results (DivCeil, ToFloat, ...)
    pub passes: Vec<R>,
    /// result registers: they get the join of `passes` (clean for any other call)
    pub outs: Vec<R>,
    /// C arrays on the scalar stack the call reads: (byte offset, bytes)
    pub stacks: Vec<(u32, u32)>,
    /// the call sets its result's taint itself (a GetValue method)
    pub own_result: bool,
}

/// Scalar helpers of the catalog that compute their result from their operands and nothing else.
const PASS_THROUGH: &[&str] = &["DivCeil", "CeilDivision", "AlignUp", "ToFloat", "ToBfloat16"];

/// The taint roles of a call's registers.
pub fn call_regs(a: &Args) -> CallRegs {
    let mut c = CallRegs::default();
    let pass = PASS_THROUGH.contains(&a.api.as_str());
    // the tensor methods GetValue(i) / SetValue(i, v): i is an index, v a value SetValue stores with its taint
    let method = matches!(a.api.as_str(), "GetValue" | "SetValue") && a.has("self");
    let mut scalars = 0;
    for (name, arg) in &a.named {
        match arg {
            Arg::Reg(sv) => {
                let value_operand = method && name != "self" && scalars == 1;
                if name != "self" {
                    scalars += 1;
                }
                if pass {
                    c.passes.push(sv.reg);
                } else if !value_operand {
                    c.uses.push(sv.reg);
                }
            }
            Arg::Out(sv) => c.outs.push(sv.reg),
            Arg::Stack { off, len, elem } => c.stacks.push((*off, len * elem.size() as u32)),
            _ => {}
        }
    }
    for r in &a.results {
        if let Arg::Reg(sv) = r {
            c.outs.push(sv.reg);
        }
    }
    c.own_result = method && a.api == "GetValue";
    c
}

impl Taint {
    fn regs(&mut self, n: usize) -> &mut Vec<i32> {
        if self.regs.len() < n {
            self.regs.resize(n, CLEAN);
        }
        &mut self.regs
    }

    /// The GetValue location a register's value came from, when it is from unwritten memory.
    #[inline]
    pub fn of(&self, r: R) -> Option<i32> {
        if !self.any {
            return None;
        }
        self.regs.get(r as usize).copied().filter(|&t| t != CLEAN)
    }

    /// Marks register `r` as holding a value GetValue at `origin` read from unwritten memory (Some), or a
    /// clean value (None).
    pub fn mark(&mut self, r: R, origin: Option<i32>, n_regs: usize) {
        match origin {
            Some(loc) => {
                self.any = true;
                self.regs(n_regs)[r as usize] = loc;
            }
            None if self.any => {
                if let Some(t) = self.regs.get_mut(r as usize) {
                    *t = CLEAN;
                }
            }
            None => {}
        }
    }

    fn get(&self, r: R) -> i32 {
        self.regs.get(r as usize).copied().unwrap_or(CLEAN)
    }

    fn set(&mut self, r: R, t: i32) {
        if let Some(x) = self.regs.get_mut(r as usize) {
            *x = t;
        }
    }

    fn join(&self, rs: &[R]) -> i32 {
        rs.iter().map(|&r| self.get(r)).find(|&t| t != CLEAN).unwrap_or(CLEAN)
    }

    fn stack_at(&self, at: usize) -> i32 {
        self.stack.get(at).copied().unwrap_or(CLEAN)
    }

    fn store_stack(&mut self, at: usize, bytes: usize, t: i32, stack_bytes: usize) {
        if t == CLEAN && self.stack.is_empty() {
            return;
        }
        if self.stack.len() < stack_bytes {
            self.stack.resize(stack_bytes, CLEAN);
        }
        let end = (at + bytes).min(self.stack.len());
        if at < end {
            self.stack[at..end].fill(t);
        }
    }
}

/// Keeps the first tainted operand an instruction acts on.
fn note(acted: &mut Option<(i32, &'static str)>, origin: i32, what: &'static str) {
    if origin != CLEAN && acted.is_none() {
        *acted = Some((origin, what));
    }
}

/// What acting on a tainted operand is, for the message.
fn use_finding(prog: &Program, findings: &mut Findings, core: &Core, loc: i32, origin: i32, what: &str) {
    findings.report(
        code::UNINITIALISED_READ,
        Severity::Error,
        loc,
        core.block_idx as i64,
        format!(
            "{what} a value read from memory nothing wrote (GetValue at {}): what happens here depends on whatever \
             the memory held",
            prog.where_(origin)
        ),
        Vec::new(),
    );
}

/// Follows taint through instruction `pc` before it runs (its operands are read as they are now): checks the
/// operands it acts on and sets the taint of the registers it writes. Called only while `core.taint.any`.
/// GetValue's result and SetValue's stored value are the instruction's own business (core.rs, tensor.rs).
pub fn step(core: &mut Core, prog: &Program, pc: usize, findings: &mut Findings) {
    let ins = &prog.code[pc];
    let mut used_stack = None;
    let loc = ins.loc;
    let n = prog.n_regs;
    let t = &mut core.taint;
    t.regs(n);
    let mut acted: Option<(i32, &'static str)> = None;
    let mut used = |t: &Taint, r: R, what: &'static str| note(&mut acted, t.get(r), what);
    match &ins.op {
        Op::Mov { d, a } | Op::Unary { d, a, .. } | Op::Conv { d, a, .. } => {
            let v = t.get(*a);
            t.set(*d, v);
        }
        Op::Int2 { d, a, b, .. } | Op::Float2 { d, a, b, .. } | Op::Cmpi { d, a, b, .. } | Op::Cmpf { d, a, b, .. } => {
            let v = t.join(&[*a, *b]);
            t.set(*d, v);
        }
        Op::Fma { d, a, b, c, .. } | Op::Select { d, c, a, b } => {
            let v = t.join(&[*a, *b, *c]);
            t.set(*d, v);
        }
        Op::SelectH { c, .. } => used(t, *c, "a choice of tensor depends on"),
        Op::Brz { c, .. } => used(t, *c, "a branch (an if or a loop condition) depends on"),
        Op::Undef { d }
        | Op::PtrToInt { d, .. }
        | Op::EnQue { d, .. }
        | Op::TilingMissing { d, .. }
        | Op::TilingKeyIs { d, .. }
        | Op::CoreIs { d, .. } => t.set(*d, CLEAN),
        Op::LdStack { elem, off, idx, d, .. } => {
            used(t, *idx, "a local array is indexed by");
            let at = *off as usize + (core.r[*idx as usize] as usize).wrapping_mul(elem.size());
            let v = t.stack_at(at);
            t.set(*d, v);
        }
        Op::StStack { elem, off, len, idx, v } => {
            used(t, *idx, "a local array is indexed by");
            let i = core.r[*idx as usize] as i64;
            if i >= 0 && i < *len as i64 {
                let at = *off as usize + i as usize * elem.size();
                let tv = t.get(*v);
                t.store_stack(at, elem.size(), tv, prog.stack_bytes);
            }
        }
        Op::PtrAdd { n: x, .. } | Op::SubTensor { n: x, .. } => used(t, x.reg, "a pointer or tensor offset is"),
        Op::IntToPtr { a, .. } => used(t, *a, "a GM pointer is made from"),
        Op::SetGlobalBuffer { count: Some(c), .. } => used(t, c.reg, "a GlobalTensor's size is"),
        Op::GetValue { idx, .. } | Op::SetValue { idx, .. } => used(t, idx.reg, "a tensor index is"),
        Op::InitBuffer { num, len, .. } => {
            if let Some(x) = num {
                used(t, x.reg, "a buffer length is");
            }
            used(t, len.reg, "a buffer length is");
        }
        Op::TBufGet { count, off, .. } => {
            for x in count.iter().chain(off.iter()) {
                used(t, x.reg, "a TBuf tensor's length or offset is");
            }
        }
        Op::LocalAlloc { count, .. } => used(t, count.reg, "a tensor's size is"),
        Op::LocalAt { addr, count, .. } => {
            used(t, addr.reg, "a tensor's address is");
            used(t, count.reg, "a tensor's size is");
        }
        Op::Api(_) => {
            if let Some(c) = prog.call_regs.get(pc).and_then(|c| c.as_deref()) {
                for &r in &c.uses {
                    used(t, r, "a scalar operand of the call is");
                }
                for &(off, bytes) in &c.stacks {
                    let (s, e) = (off as usize, (off + bytes) as usize);
                    if let Some(o) = (s..e).map(|at| t.stack_at(at)).find(|&o| o != CLEAN) {
                        used_stack = Some(o);
                    }
                }
                let v = t.join(&c.passes);
                if !c.own_result {
                    for &r in &c.outs {
                        t.set(r, v);
                    }
                }
            }
        }
        Op::Unsupported { results, .. } => {
            for &r in results {
                t.set(r, CLEAN);
            }
        }
        _ => {}
    }
    if let Some(o) = used_stack {
        note(&mut acted, o, "an array the call reads holds");
    }
    if let Some((origin, what)) = acted {
        use_finding(prog, findings, core, loc, origin, what);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::STy;
    use crate::program::Sv;

    fn reg(r: R) -> Arg {
        Arg::Reg(Sv { reg: r, ty: STy::I64 })
    }

    #[test]
    fn join_takes_the_first_tainted_operand() {
        let mut t = Taint::default();
        t.mark(2, Some(7), 4);
        assert_eq!(t.join(&[0, 1]), CLEAN);
        assert_eq!(t.join(&[1, 2, 3]), 7);
        assert_eq!(t.of(2), Some(7));
        t.mark(2, None, 4);
        assert_eq!(t.of(2), None);
    }

    #[test]
    fn nothing_is_tracked_before_a_tainted_read() {
        let mut t = Taint::default();
        t.mark(1, None, 4);
        assert!(!t.any && t.regs.is_empty());
        assert_eq!(t.of(1), None);
    }

    #[test]
    fn stack_stores_keep_their_taint_per_byte() {
        let mut t = Taint::default();
        t.store_stack(8, 4, CLEAN, 16);
        assert!(t.stack.is_empty(), "a clean store before any taint allocates nothing");
        t.store_stack(8, 4, 3, 16);
        assert_eq!(
            (t.stack_at(7), t.stack_at(8), t.stack_at(11), t.stack_at(12)),
            (CLEAN, 3, 3, CLEAN)
        );
    }

    #[test]
    fn call_roles() {
        let dup = Args {
            api: "Duplicate".into(),
            overload: "count".into(),
            named: vec![("scalarValue".into(), reg(4)), ("count".into(), reg(5))],
            ..Default::default()
        };
        assert_eq!(call_regs(&dup).uses, vec![4, 5]);
        let div = Args {
            api: "DivCeil".into(),
            named: vec![("a".into(), reg(1)), ("b".into(), reg(2))],
            results: vec![reg(3)],
            ..Default::default()
        };
        let c = call_regs(&div);
        assert_eq!(
            (c.uses.len(), c.passes.clone(), c.outs.clone()),
            (0, vec![1, 2], vec![3])
        );
        let set = Args {
            api: "SetValue".into(),
            named: vec![
                ("self".into(), Arg::Handle(0)),
                ("i".into(), reg(1)),
                ("v".into(), reg(2)),
            ],
            ..Default::default()
        };
        assert_eq!(
            call_regs(&set).uses,
            vec![1],
            "SetValue's value is stored with its taint, not acted on"
        );
    }
}
