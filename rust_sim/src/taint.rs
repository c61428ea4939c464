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
//! A register's taint also says which of its bits come from unwritten bytes (a 64-bit read that reaches 4 bytes
//! past a buffer's data taints only the high 32 bits): masks, truncations and shifts that drop those bits give
//! a clean value, so using the written bytes is not a finding while using the unwritten ones still is. Bits
//! follow the integer operations exactly where that is cheap (and, or, xor, shifts by a clean amount, ext /
//! trunc; add, sub and mul taint from the lowest unknown bit up, where a carry can reach); anything else taints
//! the whole result.
//!
//! A value the lowering left undefined (`undef "name"`: a header constant with no known value, a variable whose
//! initialiser was left out) is followed the same way from the `undef` (`undef_origin`): acting on it is ASC958
//! naming it, since the 0 the simulator holds is no one's value; stored into memory it stays written data.
//!
//! Nothing is tracked until the first tainted read: `Taint::any` is false and the interpreter skips `step`.

use crate::api::{Arg, Args};
use crate::checks::{code, Findings, Severity};
use crate::core::Core;
use crate::dtype::STy;
use crate::program::{Op, Program, R};
use crate::scalar::{ConvOp, IntBin};

/// No taint: the value is not from unwritten memory.
const CLEAN: i32 = i32::MIN;

/// The origin of a value an `undef` at instruction `pc` gave (a value the lowering left undefined): negative,
/// below every location (locations are -1 or more), so that a use can name the value instead of a GetValue.
pub fn undef_origin(pc: usize) -> i32 {
    -3 - pc as i32
}

/// The instruction whose `undef` an origin is, if it is one.
fn undef_pc(origin: i32) -> Option<usize> {
    (origin != CLEAN && origin <= -3).then(|| (-3 - origin) as usize)
}

/// Every bit of a value unknown.
pub const ALL: u64 = u64::MAX;

/// A core's taint state: per scalar register and per stack byte, CLEAN or the location of the GetValue that
/// read unwritten memory.
#[derive(Default)]
pub struct Taint {
    /// some register or stack byte may be tainted (false: nothing to follow, the common case)
    pub any: bool,
    regs: Vec<i32>,
    /// per register, the bits of its value that come from unwritten bytes (non-zero exactly where tainted)
    bits: Vec<u64>,
    stack: Vec<i32>,
}

/// The bits of a value loaded from `n` bytes whose initialised-ness is `flags` (1: written): each unwritten
/// byte's eight bits, little-endian as the load assembles them; a float's bits are one value, all unknown.
pub fn unwritten_bits(flags: &[u8], float: bool) -> u64 {
    let m = flags
        .iter()
        .enumerate()
        .filter(|&(_, &f)| f != 1)
        .fold(0u64, |m, (k, _)| m | 0xFFu64 << (8 * k));
    value_bits(m, float)
}

/// The unknown bits `m` of a value's bytes as the value's: a float's bits are one value, so any unknown bit makes
/// them all unknown; an integer keeps them as they are.
fn value_bits(m: u64, float: bool) -> u64 {
    if float && m != 0 {
        ALL
    } else {
        m
    }
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
            self.bits.resize(n, 0);
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
        self.mark_bits(r, origin, ALL, n_regs);
    }

    /// As `mark`, with only `bits` of the value from unwritten bytes (none: clean).
    pub fn mark_bits(&mut self, r: R, origin: Option<i32>, bits: u64, n_regs: usize) {
        match origin {
            Some(loc) if bits != 0 => {
                self.any = true;
                self.regs(n_regs);
                self.set(r, loc, bits);
            }
            _ if self.any => self.set(r, CLEAN, 0),
            _ => {}
        }
    }

    /// The initialised-ness of the low `n` bytes of register `r`'s value, as a store writes them (1: known).
    pub fn init_bytes(&self, r: R, float: bool) -> [u8; 8] {
        let m = match self.of(r) {
            // a value the lowering left undefined is judged where it is used as a size or an offset; stored, it
            // is data the kernel wrote (0), as before
            None => 0,
            Some(o) if undef_pc(o).is_some() => 0,
            Some(_) => value_bits(self.bits[r as usize], float),
        };
        std::array::from_fn(|k| ((m >> (8 * k)) & 0xFF == 0) as u8)
    }

    fn get(&self, r: R) -> i32 {
        self.regs.get(r as usize).copied().unwrap_or(CLEAN)
    }

    /// The origin and the unknown bits of `r` (CLEAN, 0 when clean).
    fn get2(&self, r: R) -> (i32, u64) {
        (self.get(r), self.bits.get(r as usize).copied().unwrap_or(0))
    }

    fn set(&mut self, r: R, t: i32, bits: u64) {
        let (t, bits) = if t == CLEAN || bits == 0 { (CLEAN, 0) } else { (t, bits) };
        if let (Some(x), Some(m)) = (self.regs.get_mut(r as usize), self.bits.get_mut(r as usize)) {
            *x = t;
            *m = bits;
        }
    }

    fn join(&self, rs: &[R]) -> i32 {
        rs.iter().map(|&r| self.get(r)).find(|&t| t != CLEAN).unwrap_or(CLEAN)
    }

    fn stack_at(&self, at: usize) -> i32 {
        self.stack.get(at).copied().unwrap_or(CLEAN)
    }

    /// The first origin among stack bytes `[at, at + n)` and the value bits those tainted bytes form.
    fn load_stack(&self, at: usize, n: usize, float: bool) -> (i32, u64) {
        let mut origin = CLEAN;
        let mut m = 0u64;
        for k in 0..n.min(8) {
            let o = self.stack_at(at + k);
            if o != CLEAN {
                origin = if origin == CLEAN { o } else { origin };
                m |= 0xFFu64 << (8 * k);
            }
        }
        (origin, value_bits(m, float))
    }

    /// Stores the taint of a value whose unknown bits are `m` into stack bytes `[at, at + bytes)`: each byte
    /// is tainted only when some of its bits are unknown.
    fn store_stack(&mut self, at: usize, bytes: usize, t: i32, m: u64, stack_bytes: usize) {
        if t == CLEAN && self.stack.is_empty() {
            return;
        }
        if self.stack.len() < stack_bytes {
            self.stack.resize(stack_bytes, CLEAN);
        }
        let end = (at + bytes).min(self.stack.len());
        for (k, x) in (at..end).enumerate() {
            let byte = if k < 8 { (m >> (8 * k)) & 0xFF } else { m >> 56 };
            self.stack[x] = if t != CLEAN && byte != 0 { t } else { CLEAN };
        }
    }
}

/// The unknown bits of `a op b` at width `ty`, from each operand's (unknown bits, value); a known operand's
/// value decides (a known 0 bit of an and, a known 1 bit of an or, a known shift amount).
fn int_bits(op: IntBin, ty: STy, (ma, va): (u64, u64), (mb, vb): (u64, u64)) -> u64 {
    let m = match op {
        IntBin::And => (ma | mb) & (ma | va) & (mb | vb),
        IntBin::Or => (ma | mb) & (ma | !va) & (mb | !vb),
        IntBin::Xor => ma | mb,
        IntBin::Shl | IntBin::ShrU | IntBin::ShrS if mb == 0 => {
            // the scalar unit's rule (scalar/int.rs): a shift by the width or more gives 0, or the sign
            let s = ty.zext(vb);
            let wide = s >= ty.bits() as u64;
            match op {
                IntBin::Shl if !wide => ma << s,
                IntBin::ShrU if !wide => ty.zext(ma) >> s,
                IntBin::ShrS => (ty.sext(ma) >> s.min(63)) as u64,
                _ => 0,
            }
        }
        // bit i of a sum, difference or product depends on the operands' bits 0..=i only
        IntBin::Add | IntBin::Sub | IntBin::Mul if ma | mb != 0 => {
            let m = ma | mb;
            !((m & m.wrapping_neg()) - 1)
        }
        _ if ma | mb != 0 => ALL,
        _ => 0,
    };
    m & ty.mask()
}

/// The unknown bits of a conversion of a value whose unknown bits are `m`: integer extensions and truncations
/// move them; anything through a float makes the whole result unknown.
fn conv_bits(op: ConvOp, from: STy, to: STy, m: u64) -> u64 {
    match op {
        ConvOp::ExtUI | ConvOp::TruncI => from.zext(m) & to.mask(),
        ConvOp::ExtSI => from.sext(m) as u64 & to.mask(),
        ConvOp::Bitcast if !from.is_float() && !to.is_float() => m & to.mask(),
        _ => ALL,
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
    if let Some(ins) = undef_pc(origin).and_then(|pc| prog.code.get(pc)) {
        let name = match &ins.op {
            Op::Undef { what: Some(w), .. } => w.as_str(),
            _ => "?",
        };
        findings.report(
            code::NOT_MODELLED,
            Severity::Error,
            loc,
            core.block_idx as i64,
            format!(
                "{what} a value from {name}, which the lowering left without one (at {}): the simulator would \
                 read 0 there, which is not the kernel's value",
                prog.where_(ins.loc)
            ),
            Vec::new(),
        );
        return;
    }
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
/// GetValue's result and SetValue's stored value are the instruction's own business (core/exec.rs, tensor.rs).
pub fn step(core: &mut Core, prog: &Program, pc: usize, findings: &mut Findings) {
    let ins = &prog.code[pc];
    let mut used_stack = None;
    let loc = ins.loc;
    let n = prog.n_regs;
    let t = &mut core.taint;
    t.regs(n);
    let mut acted: Option<(i32, &'static str)> = None;
    let mut used = |t: &Taint, r: R, what: &'static str| note(&mut acted, t.get(r), what);
    let r = &core.r;
    match &ins.op {
        Op::Mov { d, a } => {
            let (v, m) = t.get2(*a);
            t.set(*d, v, m);
        }
        Op::Conv { op, from, to, d, a } => {
            let (v, m) = t.get2(*a);
            t.set(*d, v, conv_bits(*op, *from, *to, m));
        }
        Op::Int2 { op, ty, d, a, b } => {
            let ((va, ma), (vb, mb)) = (t.get2(*a), t.get2(*b));
            let m = int_bits(*op, *ty, (ma, r[*a as usize]), (mb, r[*b as usize]));
            t.set(*d, if va != CLEAN { va } else { vb }, m);
        }
        Op::Unary { d, a, .. } => {
            let v = t.get(*a);
            t.set(*d, v, ALL);
        }
        Op::Float2 { d, a, b, .. } | Op::Cmpi { d, a, b, .. } | Op::Cmpf { d, a, b, .. } => {
            let v = t.join(&[*a, *b]);
            t.set(*d, v, ALL);
        }
        Op::Fma { d, a, b, c, .. } => {
            let v = t.join(&[*a, *b, *c]);
            t.set(*d, v, ALL);
        }
        // a known condition passes on the chosen value's taint; an unknown one makes the choice unknown
        Op::Select { d, c, a, b } => {
            let (v, m) = if t.get(*c) != CLEAN {
                (t.join(&[*c, *a, *b]), ALL)
            } else {
                t.get2(if r[*c as usize] & 1 != 0 { *a } else { *b })
            };
            t.set(*d, v, m);
        }
        Op::SelectH { c, .. } => used(t, *c, "a choice of tensor depends on"),
        Op::Brz { c, .. } => used(t, *c, "a branch (an if or a loop condition) depends on"),
        Op::Undef { d, .. }
        | Op::PtrToInt { d, .. }
        | Op::EnQue { d, .. }
        | Op::TilingMissing { d, .. }
        | Op::TilingKeyIs { d, .. }
        | Op::CoreIs { d, .. } => t.set(*d, CLEAN, 0),
        Op::LdStack { elem, off, idx, d, .. } => {
            used(t, *idx, "a local array is indexed by");
            let at = *off as usize + (r[*idx as usize] as usize).wrapping_mul(elem.size());
            let (v, m) = t.load_stack(at, elem.size(), elem.is_float());
            t.set(*d, v, m);
        }
        Op::StStack { elem, off, len, idx, v } => {
            used(t, *idx, "a local array is indexed by");
            let i = r[*idx as usize] as i64;
            if i >= 0 && i < *len as i64 {
                let at = *off as usize + i as usize * elem.size();
                let (tv, m) = t.get2(*v);
                t.store_stack(at, elem.size(), tv, value_bits(m, elem.is_float()), prog.stack_bytes);
            }
        }
        Op::PtrAdd { n: x, .. } | Op::SubTensor { n: x, .. } => used(t, x.reg, "a pointer or tensor offset is"),
        Op::IntToPtr { a, .. } => used(t, *a, "a GM pointer is made from"),
        Op::UbToPtr { a, .. } => used(t, *a, "a UB pointer is made from"),
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
                    for &o in &c.outs {
                        t.set(o, v, ALL);
                    }
                }
            }
        }
        Op::Unsupported { results, .. } => {
            for &o in results {
                t.set(o, CLEAN, 0);
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
        t.store_stack(8, 4, CLEAN, 0, 16);
        assert!(t.stack.is_empty(), "a clean store before any taint allocates nothing");
        t.store_stack(8, 4, 3, ALL, 16);
        assert_eq!(
            (t.stack_at(7), t.stack_at(8), t.stack_at(11), t.stack_at(12)),
            (CLEAN, 3, 3, CLEAN)
        );
    }

    #[test]
    fn a_read_partly_past_the_data_taints_only_the_unwritten_bytes_bits() {
        // a 64-bit word whose high 4 bytes nothing wrote
        let hi = unwritten_bits(&[1, 1, 1, 1, 0, 0, 0, 0], false);
        assert_eq!(hi, 0xFFFF_FFFF_0000_0000);
        assert_eq!(unwritten_bits(&[1, 0], true), ALL, "a float's bits are one value");
        assert_eq!(unwritten_bits(&[1; 8], false), 0);
        let low = |op, b| int_bits(op, STy::I64, (hi, 0x1234), (0, b));
        // the low 32 bits, by mask, truncation or shifts that drop the high ones: known
        assert_eq!(low(IntBin::And, 0xFFFF_FFFF), 0);
        assert_eq!(conv_bits(ConvOp::TruncI, STy::I64, STy::I32, hi), 0);
        assert_eq!(int_bits(IntBin::ShrU, STy::I64, (hi << 32, 0), (0, 32)), 0);
        // the high bits: still unknown
        assert_eq!(low(IntBin::ShrU, 32), 0xFFFF_FFFF);
        assert_eq!(low(IntBin::Or, 0xFF), hi);
        assert_eq!(low(IntBin::Or, ALL), 0, "bits an or sets are known");
        assert_eq!(low(IntBin::Add, 1), hi, "a carry reaches up, never down");
        assert_eq!(low(IntBin::DivU, 3), ALL);
        assert_eq!(
            int_bits(IntBin::Shl, STy::I64, (hi, 0), (ALL, 0)),
            ALL,
            "an unknown shift amount"
        );
        assert_eq!(
            conv_bits(ConvOp::ExtSI, STy::I32, STy::I64, 0x8000_0000),
            0xFFFF_FFFF_8000_0000,
            "an unknown sign bit fills the extension"
        );
        assert_eq!(conv_bits(ConvOp::UIToFP, STy::I32, STy::F32, 1), ALL);
    }

    #[test]
    fn stack_bytes_keep_the_bits_they_hold() {
        let mut t = Taint::default();
        t.store_stack(0, 8, 5, 0xFFFF_FFFF_0000_0000, 16);
        assert_eq!(
            t.load_stack(0, 4, false),
            (CLEAN, 0),
            "the written low half loads clean"
        );
        assert_eq!(t.load_stack(4, 4, false), (5, 0xFFFF_FFFF));
        assert_eq!(t.load_stack(0, 8, false), (5, 0xFFFF_FFFF_0000_0000));
        t.mark_bits(1, Some(5), 0xFF00, 4);
        assert_eq!(t.init_bytes(1, false)[..3], [1, 0, 1]);
        assert_eq!(t.init_bytes(1, true)[..3], [0, 0, 0]);
        t.mark_bits(1, Some(5), 0, 4);
        assert_eq!(t.of(1), None, "no unknown bits is clean");
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
