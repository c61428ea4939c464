//! The scalar unit's loop: scalar instructions run here at once, the rest through the context (exec.rs); the
//! end of the kernel checks for pipes still blocked.

use super::exec::exec_other;
use super::*;

/// Runs the core until it returns, waits for other cores, stops, or the budget runs out.
pub fn run(core: &mut Core, gm: &mut Gm, prog: &Program, findings: &mut Findings, budget: &mut u64) -> Flow {
    let code = &prog.code;
    loop {
        if *budget == 0 {
            let loc = code.get(core.pc).map(|i| i.loc).unwrap_or(-1);
            findings.report(
                code::BUDGET,
                Severity::Error,
                loc,
                core.block_idx as i64,
                format!(
                    "the instruction budget ran out on core {} (it was still running here): a runaway loop, or a \
                 kernel larger than the budget (raise it with budget=/--budget)",
                    core.block_idx
                ),
                Vec::new(),
            );
            return Flow::Abort;
        }
        *budget -= 1;
        core.executed += 1;
        let pc = core.pc;
        let Some(ins) = code.get(pc) else {
            return finish(core, gm, prog, findings, -1);
        };
        if core.taint.any {
            crate::taint::step(core, prog, pc, findings);
        }
        let flow = match &ins.op {
            Op::Mov { d, a } => {
                core.r[*d as usize] = core.r[*a as usize];
                Flow::Next
            }
            Op::Int2 { op, ty, d, a, b } => {
                let (x, y) = (core.r[*a as usize], core.r[*b as usize]);
                match scalar::int_bin(*op, *ty, x, y) {
                    Ok(v) => core.r[*d as usize] = v,
                    Err(_) => {
                        // the scalar unit does not trap: a quotient never used (Gemm's `x % kLoopsNext` past
                        // the last block) is harmless, so this is a warning; a used one makes the output wrong
                        core.r[*d as usize] = 0;
                        findings.report(
                            code::DIVISION_BY_ZERO,
                            Severity::Warning,
                            ins.loc,
                            core.block_idx as i64,
                            format!("integer division by zero ({op:?} on {ty:?})"),
                            Vec::new(),
                        );
                    }
                }
                Flow::Next
            }
            Op::Cmpi { pred, ty, d, a, b } => {
                core.r[*d as usize] = scalar::cmpi(*pred, *ty, core.r[*a as usize], core.r[*b as usize]) as u64;
                Flow::Next
            }
            Op::Brz { c, target } => {
                if core.r[*c as usize] & 1 == 0 {
                    Flow::Jump(*target)
                } else {
                    Flow::Next
                }
            }
            Op::Br { target } => Flow::Jump(*target),
            Op::Select { d, c, a, b } => {
                core.r[*d as usize] = if core.r[*c as usize] & 1 != 0 {
                    core.r[*a as usize]
                } else {
                    core.r[*b as usize]
                };
                Flow::Next
            }
            Op::Conv { op, from, to, d, a } => {
                core.r[*d as usize] = scalar::convert(*op, *from, *to, core.r[*a as usize]);
                Flow::Next
            }
            Op::Float2 { op, ty, d, a, b } => {
                core.r[*d as usize] = scalar::float_bin(*op, *ty, core.r[*a as usize], core.r[*b as usize]);
                Flow::Next
            }
            Op::Unary { op, ty, d, a } => {
                core.r[*d as usize] = scalar::unary(*op, *ty, core.r[*a as usize]);
                Flow::Next
            }
            Op::Cmpf { pred, ty, d, a, b } => {
                core.r[*d as usize] = scalar::cmpf(*pred, *ty, core.r[*a as usize], core.r[*b as usize]) as u64;
                Flow::Next
            }
            Op::Fma { ty, d, a, b, c } => {
                let (x, y, z) = (
                    ty.to_f64(core.r[*a as usize]),
                    ty.to_f64(core.r[*b as usize]),
                    ty.to_f64(core.r[*c as usize]),
                );
                let v = if *ty == STy::F64 {
                    x.mul_add(y, z)
                } else {
                    (x as f32).mul_add(y as f32, z as f32) as f64
                };
                core.r[*d as usize] = ty.from_f64(v);
                Flow::Next
            }
            Op::MovH { d, a } => {
                core.h[*d as usize] = core.h[*a as usize];
                Flow::Next
            }
            Op::SelectH { d, c, a, b } => {
                core.h[*d as usize] = if core.r[*c as usize] & 1 != 0 {
                    core.h[*a as usize]
                } else {
                    core.h[*b as usize]
                };
                Flow::Next
            }
            Op::Undef { d, what } => {
                core.r[*d as usize] = 0;
                if what.is_some() {
                    // followed to where it is used: an offset or a size of 0 is no one's value (taint.rs)
                    core.taint.mark(*d, Some(crate::taint::undef_origin(pc)), prog.n_regs);
                }
                Flow::Next
            }
            Op::NullH { d } => {
                core.h[*d as usize] = Handle::NULL;
                Flow::Next
            }
            Op::Ret => return finish(core, gm, prog, findings, ins.loc),
            Op::SimtBegin { d, n, end } => crate::simt::begin(core, findings, pc, ins.loc, *d, *n, *end),
            Op::SimtSync | Op::SimtEnd => crate::simt::wait(core, prog, findings, pc, [0; 3]),
            Op::SimtWarp { a, .. } => {
                let mut posted = [0u64; 3];
                for (p, r) in posted.iter_mut().zip(a) {
                    *p = core.r[*r as usize];
                }
                crate::simt::wait(core, prog, findings, pc, posted)
            }
            _ => {
                let mut cx = Ctx {
                    core: &mut *core,
                    gm: &mut *gm,
                    prog,
                    findings: &mut *findings,
                    loc: ins.loc,
                    pc,
                };
                exec_other(&mut cx, &ins.op)
            }
        };
        match flow {
            Flow::Next => core.pc += 1,
            Flow::Jump(t) => core.pc = t as usize,
            Flow::Wait => {
                core.waiting = Some(core.pc);
                core.pc += 1;
                return Flow::Wait;
            }
            Flow::Yield => return Flow::Yield,
            Flow::Stop => {
                core.done = true;
                return Flow::Stop;
            }
            Flow::Abort => return Flow::Abort,
        }
    }
}

/// The end of the kernel: a pipe still blocked is a deadlock.
fn finish(core: &mut Core, gm: &mut Gm, prog: &Program, findings: &mut Findings, loc: i32) -> Flow {
    core.done = true;
    for p in 0..PIPES {
        if let Some((key, wait_loc)) = core.sync.blocked[p] {
            let pipe = [
                Pipe::S,
                Pipe::V,
                Pipe::M,
                Pipe::Mte1,
                Pipe::Mte2,
                Pipe::Mte3,
                Pipe::Fix,
                Pipe::All,
            ][p];
            let pending = core.sync.pending[p].len();
            findings.report(
                code::DEADLOCK,
                Severity::Error,
                wait_loc,
                core.block_idx as i64,
                format!(
                    "{} waits here for {}, which nothing sets: the pipe never runs again ({} instruction{} issued \
                 to it after this never run) and the kernel hangs",
                    pipe.name(),
                    key.describe(prog),
                    pending,
                    if pending == 1 { "" } else { "s" }
                ),
                Vec::new(),
            );
        }
    }
    let _ = (gm, loc);
    Flow::Stop
}
