//! The program text (rust_sim/PROGRAM.md) -> Program. Errors name the line; a catalog call no family decodes
//! becomes an `Unsupported` instruction (a finding only if it runs).
//!
//! The driver here reads the header and splits the code into lines; text.rs reads tokens and operand literals,
//! decode.rs turns one instruction into an `Op`, call.rs a catalog call's operands into `Args`, and checks.rs
//! makes sure every register, object, stack array and branch target named exists before anything runs.

mod call;
mod checks;
mod decode;
mod text;

use std::collections::HashMap;

use crate::memory::MemKind;
use crate::program::{Instr, Loc, ObjectDecl, ObjectKind, Op, ParamDecl, Program, Sv};
use call::call_args;
use checks::{check_call_operands, check_instruction, header_register_declared};
use decode::decode;
use text::{int, reg, sty, tokenize};

#[derive(Debug)]
pub struct ParseError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "program line {}: {}", self.line, self.message)
    }
}

type PResult<T> = Result<T, String>;

/// One instruction line, split but not decoded: decoding waits until every label is known.
struct Pending {
    line: usize,
    loc: i32,
    results: Vec<String>,
    opcode: String,
    operands: Vec<String>,
}

/// Each core allocates its registers and stack when it starts: a count past these (or a negative one) is an error at
/// its line, not an allocation failure, which aborts the process (no panic to catch). The lowering's largest
/// programs use a few thousand registers and kilobytes of stack.
const MAX_REGISTERS: i64 = 1 << 20;
pub(crate) const MAX_STACK_BYTES: i64 = 1 << 26;

fn count(tok: &str, what: &str, max: i64) -> PResult<usize> {
    let v = int(tok)?;
    if !(0..=max).contains(&v) {
        return Err(format!("{v} {what}: the simulator takes 0 to {max}"));
    }
    Ok(v as usize)
}

pub fn parse(text: &str) -> Result<Program, ParseError> {
    let mut prog = Program::default();
    let mut lines = text.lines().enumerate();
    let err = |line: usize, message: String| ParseError {
        line: line + 1,
        message,
    };
    // the registers the header's params and consts name, with their lines: checked once the header is read, as
    // 'regs' may come after them (a parameter's handle past the count panicked binding the parameters)
    let mut named: Vec<(usize, char, u32)> = Vec::new();
    // header
    loop {
        let Some((n, line)) = lines.next() else {
            return Err(err(0, "no 'code' section".into()));
        };
        let toks = tokenize(line);
        if toks.is_empty() {
            continue;
        }
        let r: PResult<()> = (|| {
            // the operands each header line reads (a short line indexed past its tokens panicked)
            let need = match toks[0].as_str() {
                "block_dim" | "tiling_key" | "stack" => 1,
                "regs" => 2,
                "mem" | "object" | "const" => 3,
                "param" | "loc" => 4,
                _ => 0,
            };
            if toks.len() <= need {
                return Err(format!(
                    "'{}' takes {need} operands, this line has {}",
                    toks[0],
                    toks.len() - 1
                ));
            }
            match toks[0].as_str() {
                "ascendir-sim" => {
                    if toks.get(1).map(|s| s.as_str()) != Some("1") {
                        return Err(format!(
                            "program format version {:?}; this simulator reads version 1",
                            toks.get(1)
                        ));
                    }
                }
                "kernel" => {
                    prog.kernel = toks.get(1).cloned().unwrap_or_default();
                    prog.kernel_type = toks.get(2).cloned().unwrap_or_else(|| "aiv".into());
                }
                "chip" => prog.chip = toks.get(1).cloned().unwrap_or_default(),
                "block_dim" => prog.block_dim = Some(int(&toks[1])? as u32),
                "tiling_key" => prog.tiling_key = Some(int(&toks[1])?),
                "mem" => {
                    let kind = MemKind::parse(&toks[1]).ok_or_else(|| format!("unknown memory '{}'", toks[1]))?;
                    prog.memories
                        .push((kind, int(&toks[2])? as usize, int(&toks[3])? as usize));
                }
                "param" => {
                    let index = int(&toks[1])? as u32;
                    let name = toks[2].clone();
                    let (handle, scalar) = if toks[4] == "gm" {
                        (Some(reg(&toks[3], 'h')?), None)
                    } else {
                        (
                            None,
                            Some(Sv {
                                reg: reg(&toks[3], 'r')?,
                                ty: sty(&toks[4])?,
                            }),
                        )
                    };
                    match (handle, scalar) {
                        (Some(h), _) => named.push((n, 'h', h)),
                        (_, Some(s)) => named.push((n, 'r', s.reg)),
                        _ => {}
                    }
                    prog.params.push(ParamDecl {
                        index,
                        name,
                        handle,
                        scalar,
                    });
                }
                "file" => prog.files.push(toks.get(2).cloned().unwrap_or_default()),
                "loc" => prog.locs.push(Loc {
                    file: int(&toks[2])? as u32,
                    line: int(&toks[3])? as u32,
                    col: int(&toks[4])? as u32,
                }),
                "regs" => {
                    prog.n_regs = count(&toks[1], "scalar registers", MAX_REGISTERS)?;
                    prog.n_handles = count(&toks[2], "handle registers", MAX_REGISTERS)?;
                }
                "stack" => prog.stack_bytes = count(&toks[1], "stack bytes", MAX_STACK_BYTES)?,
                "object" => {
                    let kind = match toks[2].as_str() {
                        "pipe" => ObjectKind::Pipe,
                        "queue" => ObjectKind::Queue,
                        "tbuf" => ObjectKind::TBuf,
                        "allocator" => ObjectKind::Allocator,
                        _ => ObjectKind::Opaque,
                    };
                    let attrs: Vec<(String, String)> = toks[4..]
                        .iter()
                        .filter_map(|t| t.split_once('='))
                        .map(|(k, v)| (k.to_string(), v.to_string()))
                        .collect();
                    let get = |k: &str| attrs.iter().find(|(a, _)| a == k).map(|(_, v)| v.clone());
                    let decl = ObjectDecl {
                        kind,
                        name: toks[3].clone(),
                        mem: get("mem").and_then(|m| MemKind::parse(&m)),
                        depth: get("depth").and_then(|d| d.parse().ok()).unwrap_or(1),
                        fwd: get("fwd"),
                        back: get("back"),
                        attrs,
                    };
                    let idx = reg(&toks[1], 'o')? as usize;
                    if idx != prog.objects.len() {
                        return Err(format!("object o{idx} out of order"));
                    }
                    prog.objects.push(decl);
                }
                "const" => {
                    let r = reg(&toks[1], 'r')?;
                    named.push((n, 'r', r));
                    let ty = sty(&toks[2])?;
                    prog.consts.push((r, ty.norm(int(&toks[3])? as u64)));
                }
                "code" => return Err("\u{0}code".into()),
                other => return Err(format!("unknown header line '{other}'")),
            }
            Ok(())
        })();
        match r {
            Ok(()) => {}
            Err(m) if m == "\u{0}code" => break,
            Err(m) => return Err(err(n, m)),
        }
    }
    for &(line, prefix, x) in &named {
        header_register_declared(&prog, prefix, x).map_err(|m| err(line, m))?;
    }
    // code: labels first
    let mut labels: HashMap<String, u32> = HashMap::new();
    let mut pending: Vec<Pending> = Vec::new();
    let mut ended = false;
    for (n, line) in lines {
        let toks = tokenize(line);
        if toks.is_empty() {
            continue;
        }
        if toks[0] == "end" {
            ended = true;
            break;
        }
        if toks.len() == 1 && toks[0].ends_with(':') {
            labels.insert(toks[0].trim_end_matches(':').to_string(), pending.len() as u32);
            continue;
        }
        let mut i = 0;
        let mut loc = -1;
        if let Some(l) = toks[0].strip_prefix('@') {
            loc = l
                .parse::<i32>()
                .map_err(|_| err(n, format!("bad location '{}'", toks[0])))?;
            i = 1;
        }
        let mut results = Vec::new();
        if let Some(eq) = toks[i..].iter().position(|t| t == "=") {
            results = toks[i..i + eq]
                .iter()
                .map(|t| t.trim_end_matches(',').to_string())
                .collect();
            i += eq + 1;
        }
        let opcode = toks.get(i).cloned().ok_or_else(|| err(n, "no opcode".into()))?;
        pending.push(Pending {
            line: n,
            loc,
            results,
            opcode,
            operands: toks[i + 1..].to_vec(),
        });
    }
    if !ended {
        return Err(err(text.lines().count(), "no 'end' after the code".into()));
    }
    let mut code_lines = Vec::with_capacity(pending.len());
    for p in pending {
        code_lines.push(p.line);
        let op = decode(&p, &labels).map_err(|m| err(p.line, m))?;
        prog.call_heads
            .push((p.opcode == "call").then(|| p.operands.first().cloned()).flatten());
        let regs = if matches!(op, Op::Api(_)) {
            let args = call_args(&p).map_err(|m| err(p.line, m))?;
            check_call_operands(&prog, &args).map_err(|m| err(p.line, m))?;
            Some(Box::new(crate::taint::call_regs(&args)))
        } else {
            None
        };
        prog.call_regs.push(regs);
        prog.code.push(Instr { loc: p.loc, op });
    }
    // every instruction's operands, at its line (branch targets need the whole code)
    for (ins, &line) in prog.code.iter().zip(&code_lines) {
        check_instruction(&prog, &ins.op).map_err(|m| err(line, m))?;
    }
    Ok(prog)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_program_parses() {
        let text = "ascendir-sim 1\nkernel k aiv\nchip 910B2\nmem UB 196608 32\nparam 0 x h0 gm\nregs 3 1\nstack 0\n\
                    const r0 i32 5\ncode\nL1:\n  @0 r1 = addi.i32 r0 r0\n  r2 = cmpi.slt.i32 r1 r0\n  brz r2 L2\n  br L1\nL2:\n  ret\nend\n";
        let p = parse(text).unwrap();
        assert_eq!(p.code.len(), 5);
        assert!(matches!(p.code[2].op, Op::Brz { target: 4, .. }));
        assert_eq!(p.consts, vec![(0, 5)]);
    }
}
