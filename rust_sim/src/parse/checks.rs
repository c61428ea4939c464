//! Every register, handle, object, stack array and branch target the program names exists: the interpreter and
//! the call families index them without checks, so a bad index fails here with its line instead of in the run.

use super::PResult;
use crate::api::{Arg, Args};
use crate::dtype::DType;
use crate::program::{Op, Program};

/// Every register, object and stack array a call names exists: the families index them without checks, so a
/// program naming `r8255` of 99 registers would otherwise panic in the run instead of failing here.
pub(super) fn check_call_operands(prog: &Program, args: &Args) -> PResult<()> {
    for arg in args.named.iter().map(|(_, a)| a).chain(&args.results) {
        match arg {
            Arg::Reg(sv) | Arg::Out(sv) => scalar_declared(prog, sv.reg)?,
            Arg::Handle(x) => handle_declared(prog, *x)?,
            Arg::Obj(x) => object_declared(prog, *x)?,
            Arg::Stack { off, len, elem } => stack_array_fits(prog, *off, *len, *elem)?,
            _ => {}
        }
    }
    Ok(())
}

// The checks an instruction's and a call's operands share.
fn scalar_declared(prog: &Program, x: u32) -> PResult<()> {
    if (x as usize) < prog.n_regs {
        Ok(())
    } else {
        Err(format!("register r{x} beyond the {} declared", prog.n_regs))
    }
}

fn handle_declared(prog: &Program, x: u32) -> PResult<()> {
    if (x as usize) < prog.n_handles {
        Ok(())
    } else {
        Err(format!("register h{x} beyond the {} declared", prog.n_handles))
    }
}

fn object_declared(prog: &Program, x: u32) -> PResult<()> {
    if (x as usize) < prog.objects.len() {
        Ok(())
    } else {
        Err(format!("object o{x} not declared"))
    }
}

fn stack_array_fits(prog: &Program, off: u32, len: u32, elem: DType) -> PResult<()> {
    if off as usize + len as usize * elem.size() <= prog.stack_bytes {
        Ok(())
    } else {
        Err("a stack array beyond the stack".into())
    }
}

/// A header line's register (a parameter's, a constant's) exists: `prefix` 'r' for a scalar, 'h' for a handle.
pub(super) fn header_register_declared(prog: &Program, prefix: char, x: u32) -> PResult<()> {
    if prefix == 'h' {
        handle_declared(prog, x)
    } else {
        scalar_declared(prog, x)
    }
}

/// Every register, object and stack array an instruction names exists, and its branch target is inside the code
/// (so the interpreter can index without checks failing); the caller names the instruction's line.
pub(super) fn check_instruction(prog: &Program, op: &Op) -> PResult<()> {
    let r = |x: u32| scalar_declared(prog, x);
    let h = |x: u32| handle_declared(prog, x);
    let n = prog.code.len() as u32;
    let t = |x: u32| {
        if x <= n {
            Ok(())
        } else {
            Err(format!("branch target {x} beyond the code"))
        }
    };
    match op {
        Op::Int2 { d, a, b, .. } | Op::Float2 { d, a, b, .. } | Op::Cmpi { d, a, b, .. } | Op::Cmpf { d, a, b, .. } => {
            r(*d)?;
            r(*a)?;
            r(*b)?;
        }
        Op::Unary { d, a, .. } | Op::Conv { d, a, .. } | Op::Mov { d, a } => {
            r(*d)?;
            r(*a)?;
        }
        Op::Fma { d, a, b, c, .. } | Op::Select { d, c, a, b } => {
            r(*d)?;
            r(*a)?;
            r(*b)?;
            r(*c)?;
        }
        Op::SelectH { d, c, a, b } => {
            h(*d)?;
            r(*c)?;
            h(*a)?;
            h(*b)?;
        }
        Op::MovH { d, a } => {
            h(*d)?;
            h(*a)?;
        }
        Op::Undef { d, .. } => r(*d)?,
        Op::NullH { d } => h(*d)?,
        Op::Br { target } => t(*target)?,
        Op::Brz { c, target } => {
            r(*c)?;
            t(*target)?;
        }
        Op::LdStack { idx, d, off, len, elem } => {
            r(*idx)?;
            r(*d)?;
            stack_array_fits(prog, *off, *len, *elem)?;
        }
        Op::StStack { idx, v, off, len, elem } => {
            r(*idx)?;
            r(*v)?;
            stack_array_fits(prog, *off, *len, *elem)?;
        }
        Op::PtrAdd { d, a, n, .. } | Op::SubTensor { d, a, n, .. } => {
            h(*d)?;
            h(*a)?;
            r(n.reg)?;
        }
        Op::PtrToInt { d, a } => {
            r(*d)?;
            h(*a)?;
        }
        Op::IntToPtr { d, a } | Op::UbToPtr { d, a } => {
            h(*d)?;
            r(*a)?;
        }
        Op::SetGlobalBuffer { d, p, count, .. } => {
            h(*d)?;
            h(*p)?;
            if let Some(c) = count {
                r(c.reg)?;
            }
        }
        Op::GetValue { d, h: hh, idx, .. } => {
            r(*d)?;
            h(*hh)?;
            r(idx.reg)?;
        }
        Op::SetValue { h: hh, idx, v, .. } => {
            h(*hh)?;
            r(idx.reg)?;
            r(v.reg)?;
        }
        Op::AllocTensor { d, .. } | Op::DeQue { d, .. } => h(*d)?,
        Op::FreeTensor { h: hh, .. } => h(*hh)?,
        Op::EnQue { h: hh, d, .. } => {
            h(*hh)?;
            r(*d)?;
        }
        Op::TBufGet { d, count, off, .. } => {
            h(*d)?;
            if let Some(c) = count {
                r(c.reg)?;
            }
            if let Some(o) = off {
                r(o.reg)?;
            }
        }
        Op::LocalAlloc { d, count, .. } => {
            h(*d)?;
            r(count.reg)?;
        }
        Op::LocalAt { d, addr, count, .. } => {
            h(*d)?;
            r(addr.reg)?;
            r(count.reg)?;
        }
        Op::InitBuffer { num, len, .. } => {
            if let Some(x) = num {
                r(x.reg)?;
            }
            r(len.reg)?;
        }
        Op::TilingMissing { d, .. } | Op::TilingKeyIs { d, .. } | Op::CoreIs { d, .. } => r(*d)?,
        Op::Unsupported { results, handles, .. } => {
            for x in results {
                r(*x)?;
            }
            for x in handles {
                h(*x)?;
            }
        }
        Op::SimtBegin { d, n, end } => {
            r(*d)?;
            r(*n)?;
            t(*end)?;
        }
        Op::SimtWarp { d, a, .. } => {
            r(*d)?;
            for x in a {
                r(*x)?;
            }
        }
        Op::SimtAtomic { d, h: hh, a, .. } => {
            r(*d)?;
            h(*hh)?;
            for x in a {
                r(x.reg)?;
            }
        }
        Op::ObjInit { .. } | Op::Ret | Op::Api(_) | Op::LeftOut { .. } | Op::SimtEnd | Op::SimtSync => {}
    }
    let o = |x: u32| object_declared(prog, x);
    match op {
        Op::ObjInit { obj } => o(*obj)?,
        Op::InitBuffer { pipe, obj, .. } => {
            o(*pipe)?;
            o(*obj)?;
        }
        Op::AllocTensor { q, .. } | Op::FreeTensor { q, .. } | Op::EnQue { q, .. } | Op::DeQue { q, .. } => o(*q)?,
        Op::TBufGet { b, .. } => o(*b)?,
        Op::LocalAlloc { a, .. } => o(*a)?,
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::parse::parse;

    #[test]
    fn bad_registers_are_errors() {
        let text = "ascendir-sim 1\nkernel k aiv\nregs 1 0\nstack 0\ncode\n  r5 = mov r0\nend\n";
        let e = parse(text).expect_err("r5 of 1");
        // at the instruction's line (before: line 1, the check ran after the lines were gone)
        assert_eq!((e.line, e.message.as_str()), (6, "register r5 beyond the 1 declared"));
    }

    #[test]
    fn header_registers_past_regs_are_errors_at_their_line() {
        // a parameter's handle or scalar and a constant past the counts 'regs' declares, before or after it
        // (before: they parsed, and binding the GM parameter's handle h3 of 1 panicked in the run)
        for (header, line, what) in [
            ("param 0 x h3 gm\nregs 2 1\n", 3, "register h3 beyond the 1 declared"),
            ("regs 2 1\nparam 0 n r2 i32\n", 4, "register r2 beyond the 2 declared"),
            ("regs 2 1\nconst r7 i32 5\n", 4, "register r7 beyond the 2 declared"),
        ] {
            let text = format!("ascendir-sim 1\nkernel k aiv\n{header}stack 0\ncode\n  ret\nend\n");
            let e = parse(&text).expect_err(header);
            assert_eq!((e.line, e.message.as_str()), (line, what), "{header}");
        }
    }

    #[test]
    fn register_and_stack_counts_past_the_limits_are_errors() {
        // before: 'regs 99999999999 1' or 'stack -1' parsed, and each core's allocation of that much aborted the process
        for (header, what) in [
            (
                "regs 99999999999 1\nstack 0",
                "99999999999 scalar registers: the simulator takes 0 to 1048576",
            ),
            (
                "regs 2 -1\nstack 0",
                "-1 handle registers: the simulator takes 0 to 1048576",
            ),
            (
                "regs 2 1\nstack -1",
                "-1 stack bytes: the simulator takes 0 to 67108864",
            ),
        ] {
            let text = format!("ascendir-sim 1\nkernel k aiv\n{header}\ncode\n  ret\nend\n");
            let e = parse(&text).expect_err(header);
            assert_eq!(e.message, what, "{header}");
        }
    }

    #[test]
    fn short_header_lines_are_errors() {
        // a header line with fewer operands than it reads (before: an index past the tokens, a panic)
        for (header, what) in [
            ("param 0 x h0", "'param' takes 4 operands, this line has 3"),
            ("regs 4", "'regs' takes 2 operands, this line has 1"),
            ("mem UB", "'mem' takes 3 operands, this line has 1"),
            ("const r0", "'const' takes 3 operands, this line has 1"),
        ] {
            let text = format!("ascendir-sim 1\nkernel k aiv\n{header}\nregs 2 1\nstack 0\ncode\n  ret\nend\n");
            let e = parse(&text).expect_err(header);
            assert_eq!((e.line, e.message.as_str()), (3, what), "{header}");
        }
    }

    #[test]
    fn bad_call_operands_are_errors() {
        // a call's scalar, handle and stack operands are checked like an instruction's (r8255 of 2 panicked in the run)
        for call in [
            "call Duplicate.count<T=f32> dst=h0 scalarValue=r8255:f32 count=r0:i32",
            "call Duplicate.count<T=f32> dst=h7 scalarValue=r1:f32 count=r0:i32",
            "call DataCopy.nddma_gm_to_local<T=f32,dim=2> dst=h0 src=h0 params.constantValue=r1:f32 \
                      params.loopInfo.loopSrcStride=s0:5:i64 params.loopInfo.loopDstStride=s40:5:i32 \
                      params.loopInfo.loopSize=s64:5:i32 params.loopInfo.loopLpSize=s88:5:i8 \
                      params.loopInfo.loopRpSize=s96:5:i8",
        ] {
            let text = format!("ascendir-sim 1\nkernel k aiv\nregs 2 1\nstack 8\ncode\n  {call}\n  ret\nend\n");
            let e = parse(&text).expect_err(call).to_string();
            assert!(e.contains("beyond"), "{call}: {e}");
        }
    }
}
