//! The program text (rust_sim/PROGRAM.md) -> Program. Errors name the line; a catalog call no family decodes
//! becomes an `Unsupported` instruction (a finding only if it runs).

use std::collections::HashMap;

use crate::api::{registry, Arg, Args};
use crate::dtype::{DType, STy};
use crate::memory::MemKind;
use crate::program::{Instr, Loc, ObjectDecl, ObjectKind, Op, ParamDecl, Program, Sv};
use crate::scalar;

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

/// Splits a line into tokens: whitespace-separated, "quoted strings" kept whole, `;` starts a comment.
fn tokenize(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = line.chars().peekable();
    let mut in_quote = false;
    while let Some(c) = chars.next() {
        if in_quote {
            match c {
                '\\' => {
                    if let Some(n) = chars.next() {
                        cur.push(n);
                    }
                }
                '"' => {
                    in_quote = false;
                    out.push(std::mem::take(&mut cur));
                }
                _ => cur.push(c),
            }
            continue;
        }
        match c {
            '"' => in_quote = true,
            ';' => break,
            c if c.is_whitespace() => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            _ => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn reg(tok: &str, prefix: char) -> PResult<u32> {
    let t = tok.trim_end_matches(',');
    let body = t
        .strip_prefix(prefix)
        .ok_or_else(|| format!("expected a {prefix} register, found '{tok}'"))?;
    let body = body.split(':').next().unwrap_or(body);
    body.parse::<u32>().map_err(|_| format!("bad register '{tok}'"))
}

/// `r7:i32` -> Sv
fn sv(tok: &str) -> PResult<Sv> {
    let (r, ty) = tok
        .split_once(':')
        .ok_or_else(|| format!("expected rN:type, found '{tok}'"))?;
    Ok(Sv {
        reg: reg(r, 'r')?,
        ty: STy::parse(ty).ok_or_else(|| format!("unknown scalar type '{ty}'"))?,
    })
}

fn opt_sv(tok: &str) -> PResult<Option<Sv>> {
    if tok == "-" {
        Ok(None)
    } else {
        sv(tok).map(Some)
    }
}

fn dtype(name: &str) -> PResult<DType> {
    DType::parse(name).ok_or_else(|| format!("unknown element type '{name}'"))
}

fn sty(name: &str) -> PResult<STy> {
    STy::parse(name).ok_or_else(|| format!("unknown scalar type '{name}'"))
}

fn int(tok: &str) -> PResult<i64> {
    let t = tok.trim();
    let (neg, body) = match t.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, t),
    };
    let v = if let Some(hex) = body.strip_prefix("0x") {
        u64::from_str_radix(hex, 16).map_err(|_| format!("bad number '{tok}'"))? as i64
    } else {
        body.parse::<u64>().map_err(|_| format!("bad number '{tok}'"))? as i64
    };
    Ok(if neg { v.wrapping_neg() } else { v })
}

/// Parses a named call operand.
fn arg(tok: &str) -> PResult<Arg> {
    if let Some(rest) = tok.strip_prefix('&') {
        return Ok(Arg::Out(if rest.contains(':') {
            sv(rest)?
        } else {
            Sv {
                reg: reg(rest, 'r')?,
                ty: STy::I64,
            }
        }));
    }
    if let Some(rest) = tok.strip_prefix("tiling:") {
        return Ok(Arg::Tiling(rest.to_string()));
    }
    let mut chars = tok.chars();
    let first = chars.next().unwrap_or(' ');
    let digits_follow = chars.next().is_some_and(|c| c.is_ascii_digit());
    if digits_follow {
        match first {
            'r' if tok.contains(':') => return Ok(Arg::Reg(sv(tok)?)),
            'h' => return Ok(Arg::Handle(reg(tok, 'h')?)),
            'o' => return Ok(Arg::Obj(reg(tok, 'o')?)),
            's' => {
                let parts: Vec<&str> = tok[1..].split(':').collect();
                if parts.len() == 3 {
                    return Ok(Arg::Stack {
                        off: int(parts[0])? as u32,
                        len: int(parts[1])? as u32,
                        elem: dtype(parts[2])?,
                    });
                }
            }
            _ => {}
        }
    }
    Ok(Arg::Name(tok.to_string()))
}

struct Pending {
    line: usize,
    loc: i32,
    results: Vec<String>,
    opcode: String,
    operands: Vec<String>,
}

pub fn parse(text: &str) -> Result<Program, ParseError> {
    let mut prog = Program::default();
    let mut lines = text.lines().enumerate();
    let err = |line: usize, message: String| ParseError {
        line: line + 1,
        message,
    };
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
                    prog.n_regs = int(&toks[1])? as usize;
                    prog.n_handles = int(&toks[2])? as usize;
                }
                "stack" => prog.stack_bytes = int(&toks[1])? as usize,
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
    for p in pending {
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
    let n_regs = prog.n_regs;
    if prog.consts.iter().any(|(r, _)| *r as usize >= n_regs) {
        return Err(err(0, "a constant register beyond the register count".into()));
    }
    check_registers(&prog).map_err(|m| err(0, m))?;
    Ok(prog)
}

/// Every register, object and stack array a call names exists: the families index them without checks, so a
/// program naming `r8255` of 99 registers would otherwise panic in the run instead of failing here.
fn check_call_operands(prog: &Program, args: &crate::api::Args) -> PResult<()> {
    use crate::api::Arg;
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

/// Every register an instruction names exists (so the interpreter can index without checks failing).
fn check_registers(prog: &Program) -> PResult<()> {
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
    for ins in &prog.code {
        match &ins.op {
            Op::Int2 { d, a, b, .. }
            | Op::Float2 { d, a, b, .. }
            | Op::Cmpi { d, a, b, .. }
            | Op::Cmpf { d, a, b, .. } => {
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
        match &ins.op {
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
    }
    Ok(())
}

fn target(labels: &HashMap<String, u32>, name: &str) -> PResult<u32> {
    labels.get(name).copied().ok_or_else(|| format!("no label '{name}'"))
}

fn operand(p: &Pending, i: usize) -> PResult<&str> {
    p.operands
        .get(i)
        .map(|s| s.as_str())
        .ok_or_else(|| format!("{}: missing operand {}", p.opcode, i + 1))
}

fn result(p: &Pending, prefix: char) -> PResult<u32> {
    let r = p
        .results
        .first()
        .ok_or_else(|| format!("{} needs a result", p.opcode))?;
    reg(r, prefix)
}

/// An element's size in bits as tensors hold it (int4b_t: 4).
fn elem_size(name: &str) -> PResult<u32> {
    Ok(dtype(name)?.bits())
}

/// The C++ sizeof of an element, in bits: pointer arithmetic steps by it (sizeof(int4b_t) is 1).
fn sizeof_bits(name: &str) -> PResult<u32> {
    Ok(dtype(name)?.size() as u32 * 8)
}

fn decode(p: &Pending, labels: &HashMap<String, u32>) -> PResult<Op> {
    let parts: Vec<&str> = p.opcode.split('.').collect();
    let head = parts[0];
    let o = |i: usize| operand(p, i);
    Ok(match head {
        "mov" => {
            let d = p.results.first().ok_or("mov needs a result")?;
            if d.starts_with('h') {
                Op::MovH {
                    d: reg(d, 'h')?,
                    a: reg(o(0)?, 'h')?,
                }
            } else {
                Op::Mov {
                    d: reg(d, 'r')?,
                    a: reg(o(0)?, 'r')?,
                }
            }
        }
        "select" => {
            let d = p.results.first().ok_or("select needs a result")?;
            if d.starts_with('h') {
                Op::SelectH {
                    d: reg(d, 'h')?,
                    c: reg(o(0)?, 'r')?,
                    a: reg(o(1)?, 'h')?,
                    b: reg(o(2)?, 'h')?,
                }
            } else {
                Op::Select {
                    d: reg(d, 'r')?,
                    c: reg(o(0)?, 'r')?,
                    a: reg(o(1)?, 'r')?,
                    b: reg(o(2)?, 'r')?,
                }
            }
        }
        "null" => Op::NullH { d: result(p, 'h')? },
        "undef" => {
            let d = p.results.first().ok_or("undef needs a result")?;
            if d.starts_with('h') {
                Op::NullH { d: reg(d, 'h')? }
            } else {
                Op::Undef {
                    d: reg(d, 'r')?,
                    what: o(0).ok().map(str::to_string),
                }
            }
        }
        "br" => Op::Br {
            target: target(labels, o(0)?)?,
        },
        "brz" => Op::Brz {
            c: reg(o(0)?, 'r')?,
            target: target(labels, o(1)?)?,
        },
        "ret" => Op::Ret,
        "cmpi" => Op::Cmpi {
            pred: scalar::parse_ipred(parts.get(1).copied().unwrap_or("")).ok_or("bad cmpi predicate")?,
            ty: sty(parts.get(2).copied().unwrap_or(""))?,
            d: result(p, 'r')?,
            a: reg(o(0)?, 'r')?,
            b: reg(o(1)?, 'r')?,
        },
        "cmpf" => Op::Cmpf {
            pred: scalar::parse_fpred(parts.get(1).copied().unwrap_or("")).ok_or("bad cmpf predicate")?,
            ty: sty(parts.get(2).copied().unwrap_or(""))?,
            d: result(p, 'r')?,
            a: reg(o(0)?, 'r')?,
            b: reg(o(1)?, 'r')?,
        },
        "fma" => Op::Fma {
            ty: sty(parts.get(1).copied().unwrap_or(""))?,
            d: result(p, 'r')?,
            a: reg(o(0)?, 'r')?,
            b: reg(o(1)?, 'r')?,
            c: reg(o(2)?, 'r')?,
        },
        "ld" => Op::LdStack {
            elem: dtype(parts.get(2).copied().unwrap_or(""))?,
            off: stack_off(o(0)?)?.0,
            len: stack_off(o(0)?)?.1,
            idx: reg(o(1)?, 'r')?,
            d: result(p, 'r')?,
        },
        "st" => Op::StStack {
            elem: dtype(parts.get(2).copied().unwrap_or(""))?,
            off: stack_off(o(0)?)?.0,
            len: stack_off(o(0)?)?.1,
            idx: reg(o(1)?, 'r')?,
            v: reg(o(2)?, 'r')?,
        },
        "ptradd" => Op::PtrAdd {
            elem: sizeof_bits(parts[1])?,
            d: result(p, 'h')?,
            a: reg(o(0)?, 'h')?,
            n: sv(o(1)?)?,
        },
        "ptr2int" => Op::PtrToInt {
            d: result(p, 'r')?,
            a: reg(o(0)?, 'h')?,
        },
        "int2ptr" => Op::IntToPtr {
            d: result(p, 'h')?,
            a: reg(o(0)?, 'r')?,
        },
        "ub2ptr" => Op::UbToPtr {
            d: result(p, 'h')?,
            a: reg(o(0)?, 'r')?,
        },
        "sub" => Op::SubTensor {
            elem: elem_size(parts[1])?,
            d: result(p, 'h')?,
            a: reg(o(0)?, 'h')?,
            n: sv(o(1)?)?,
        },
        "SetGlobalBuffer" => Op::SetGlobalBuffer {
            elem: elem_size(parts[1])?,
            d: result(p, 'h')?,
            p: reg(o(0)?, 'h')?,
            count: opt_sv(o(1)?)?,
        },
        "GetValue" => Op::GetValue {
            elem: dtype(parts[1])?,
            d: result(p, 'r')?,
            h: reg(o(0)?, 'h')?,
            idx: sv(o(1)?)?,
        },
        "SetValue" => Op::SetValue {
            elem: dtype(parts[1])?,
            h: reg(o(0)?, 'h')?,
            idx: sv(o(1)?)?,
            v: sv(o(2)?)?,
        },
        "obj" => Op::ObjInit { obj: reg(o(0)?, 'o')? },
        "InitBuffer" => Op::InitBuffer {
            pipe: reg(o(0)?, 'o')?,
            obj: reg(o(1)?, 'o')?,
            num: opt_sv(o(2)?)?,
            len: sv(o(3)?)?,
        },
        "AllocTensor" => Op::AllocTensor {
            q: reg(o(0)?, 'o')?,
            d: result(p, 'h')?,
        },
        "FreeTensor" => Op::FreeTensor {
            q: reg(o(0)?, 'o')?,
            h: reg(o(1)?, 'h')?,
        },
        "EnQue" => Op::EnQue {
            q: reg(o(0)?, 'o')?,
            h: reg(o(1)?, 'h')?,
            d: result(p, 'r')?,
        },
        "DeQue" => Op::DeQue {
            q: reg(o(0)?, 'o')?,
            d: result(p, 'h')?,
        },
        "TBufGet" => Op::TBufGet {
            b: reg(o(0)?, 'o')?,
            elem: elem_size(parts[1])?,
            count: opt_sv(o(1)?)?,
            off: opt_sv(o(2)?)?,
            d: result(p, 'h')?,
        },
        "LocalAlloc" => Op::LocalAlloc {
            a: reg(o(0)?, 'o')?,
            elem: elem_size(parts[1])?,
            count: sv(o(1)?)?,
            d: result(p, 'h')?,
        },
        "LocalAt" => Op::LocalAt {
            mem: MemKind::parse(o(0)?).ok_or("unknown memory")?,
            elem: elem_size(parts[1])?,
            addr: sv(o(1)?)?,
            count: sv(o(2)?)?,
            d: result(p, 'h')?,
        },
        "tiling" => match parts.get(1).copied() {
            Some("missing") => Op::TilingMissing {
                field: o(0)?.to_string(),
                d: result(p, 'r')?,
            },
            Some("key_is") => Op::TilingKeyIs {
                key: int(o(0)?)?,
                d: result(p, 'r')?,
            },
            _ => return Err(format!("unknown opcode {}", p.opcode)),
        },
        "core" => Op::CoreIs {
            aiv: o(0)? == "AIV",
            d: result(p, 'r')?,
        },
        "unsupported" => unsupported(p, o(0)?.to_string())?,
        "simt" => simt_op(p, &parts, labels)?,
        "left_out" => Op::LeftOut {
            what: o(0)?.to_string(),
        },
        "call" => call(p)?,
        _ => scalar_op(p, &parts)?,
    })
}

/// `rT = simt.begin rN L`, `simt.end`, `simt.sync`, `rD = simt.<warp function>.<ty> operands` (simt.rs).
fn simt_op(p: &Pending, parts: &[&str], labels: &HashMap<String, u32>) -> PResult<Op> {
    Ok(match parts.get(1).copied() {
        Some("begin") => Op::SimtBegin {
            d: result(p, 'r')?,
            n: reg(operand(p, 0)?, 'r')?,
            end: target(labels, operand(p, 1)?)?,
        },
        Some("end") => Op::SimtEnd,
        Some("sync") => Op::SimtSync,
        Some(name) if name.starts_with("atomic_") => {
            let (kind, operands) =
                crate::simt::AtomicKind::parse(name).ok_or_else(|| format!("unknown opcode {}", p.opcode))?;
            Op::SimtAtomic {
                kind,
                elem: dtype(parts.get(2).ok_or("an atomic needs its element type")?)?,
                d: result(p, 'r')?,
                h: reg(operand(p, 0)?, 'h')?,
                a: (1..=operands)
                    .map(|i| sv(operand(p, i)?))
                    .collect::<PResult<Vec<_>>>()?,
            }
        }
        Some(name) => {
            let (kind, operands) =
                crate::simt::WarpKind::parse(name).ok_or_else(|| format!("unknown opcode {}", p.opcode))?;
            let ty = sty(parts.get(2).ok_or("a warp function needs its type")?)?;
            let a = (0..operands)
                .map(|i| reg(operand(p, i)?, 'r'))
                .collect::<PResult<Vec<_>>>()?;
            Op::SimtWarp {
                kind,
                ty,
                d: result(p, 'r')?,
                a,
            }
        }
        None => return Err(format!("unknown opcode {}", p.opcode)),
    })
}

fn unsupported(p: &Pending, what: String) -> PResult<Op> {
    let mut results = Vec::new();
    let mut handles = Vec::new();
    for r in &p.results {
        if r.starts_with('h') {
            handles.push(reg(r, 'h')?);
        } else {
            results.push(reg(r, 'r')?);
        }
    }
    Ok(Op::Unsupported { what, results, handles })
}

fn stack_off(tok: &str) -> PResult<(u32, u32)> {
    let parts: Vec<&str> = tok.trim_start_matches('s').split(':').collect();
    Ok((int(parts[0])? as u32, int(parts.get(1).copied().unwrap_or("1"))? as u32))
}

fn scalar_op(p: &Pending, parts: &[&str]) -> PResult<Op> {
    let name = parts[0];
    let d = result(p, 'r')?;
    let a = reg(operand(p, 0)?, 'r')?;
    if let Some(op) = scalar::parse_int_bin(name) {
        return Ok(Op::Int2 {
            op,
            ty: sty(parts.get(1).copied().unwrap_or(""))?,
            d,
            a,
            b: reg(operand(p, 1)?, 'r')?,
        });
    }
    if let Some(op) = scalar::parse_float_bin(name) {
        return Ok(Op::Float2 {
            op,
            ty: sty(parts.get(1).copied().unwrap_or(""))?,
            d,
            a,
            b: reg(operand(p, 1)?, 'r')?,
        });
    }
    if let Some(op) = scalar::parse_unary(name) {
        return Ok(Op::Unary {
            op,
            ty: sty(parts.get(1).copied().unwrap_or(""))?,
            d,
            a,
        });
    }
    if let Some(op) = scalar::parse_conv(name) {
        return Ok(Op::Conv {
            op,
            from: sty(parts.get(1).copied().unwrap_or(""))?,
            to: sty(parts.get(2).copied().unwrap_or(""))?,
            d,
            a,
        });
    }
    Err(format!("unknown opcode '{}'", p.opcode))
}

/// `call Api.overload<T=f16,...> name=value ...`
fn call(p: &Pending) -> PResult<Op> {
    let args = call_args(p)?;
    let (api, overload) = (args.api.as_str(), args.overload.as_str());
    match registry().get(&args.head()) {
        Some(decoder) => match decoder(&args) {
            Ok(op) => Ok(Op::Api(op)),
            Err(why) => unsupported(
                p,
                format!("AscendC::{api} (overload '{overload}') as called here ({why})"),
            ),
        },
        None => unsupported(p, format!("AscendC::{api} (overload '{overload}')")),
    }
}

/// A call's head, template arguments and operands.
fn call_args(p: &Pending) -> PResult<Args> {
    let head_tok = operand(p, 0)?;
    let (head, targs_text) = match head_tok.split_once('<') {
        Some((h, rest)) => (h, rest.trim_end_matches('>')),
        None => (head_tok, ""),
    };
    let (api, overload) = head
        .rsplit_once('.')
        .ok_or_else(|| format!("call head '{head}' needs Api.overload"))?;
    let mut args = Args {
        api: api.to_string(),
        overload: overload.to_string(),
        ..Default::default()
    };
    for kv in targs_text.split(',').filter(|s| !s.is_empty()) {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("template argument '{kv}' needs name=value"))?;
        args.targs.push((k.to_string(), v.to_string()));
    }
    for tok in &p.operands[1..] {
        let (k, v) = tok
            .split_once('=')
            .ok_or_else(|| format!("operand '{tok}' needs name=value"))?;
        args.named.push((k.to_string(), arg(v)?));
    }
    for r in &p.results {
        args.results.push(if r.starts_with('h') {
            Arg::Handle(reg(r, 'h')?)
        } else if r.contains(':') {
            Arg::Reg(sv(r)?)
        } else {
            Arg::Reg(Sv {
                reg: reg(r, 'r')?,
                ty: STy::I64,
            })
        });
    }
    Ok(args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_keep_quotes_and_drop_comments() {
        assert_eq!(
            tokenize(r#"@3 r1 = unsupported "a b; c"  ; note"#),
            vec!["@3", "r1", "=", "unsupported", "a b; c"]
        );
    }

    #[test]
    fn a_small_program_parses() {
        let text = "ascendir-sim 1\nkernel k aiv\nchip 910B2\nmem UB 196608 32\nparam 0 x h0 gm\nregs 3 1\nstack 0\n\
                    const r0 i32 5\ncode\nL1:\n  @0 r1 = addi.i32 r0 r0\n  r2 = cmpi.slt.i32 r1 r0\n  brz r2 L2\n  br L1\nL2:\n  ret\nend\n";
        let p = parse(text).unwrap();
        assert_eq!(p.code.len(), 5);
        assert!(matches!(p.code[2].op, Op::Brz { target: 4, .. }));
        assert_eq!(p.consts, vec![(0, 5)]);
    }

    #[test]
    fn unknown_calls_become_unsupported() {
        let text =
            "ascendir-sim 1\nkernel k aiv\nregs 1 1\nstack 0\ncode\n  call Frobnicate.plain<T=f16> x=h0\n  ret\nend\n";
        let p = parse(text).unwrap();
        assert!(matches!(&p.code[0].op, Op::Unsupported { what, .. } if what.contains("Frobnicate")));
    }

    #[test]
    fn left_out_marks_and_named_undefs_parse() {
        let text = "ascendir-sim 1\nkernel k aiv\nregs 2 0\nstack 0\ncode\n  left_out \"operator '%'\"\n  \
                    r0 = undef \"TOTAL_VEC_LOCAL_SIZE\"\n  r1 = undef\n  ret\nend\n";
        let p = parse(text).unwrap();
        assert!(matches!(&p.code[0].op, Op::LeftOut { what } if what == "operator '%'"));
        assert!(matches!(&p.code[1].op, Op::Undef { d: 0, what: Some(w) } if w == "TOTAL_VEC_LOCAL_SIZE"));
        assert!(matches!(&p.code[2].op, Op::Undef { d: 1, what: None }));
    }

    #[test]
    fn bad_registers_are_errors() {
        let text = "ascendir-sim 1\nkernel k aiv\nregs 1 0\nstack 0\ncode\n  r5 = mov r0\nend\n";
        assert!(parse(text).is_err());
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
