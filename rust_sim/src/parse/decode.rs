//! One instruction line -> `Op`: the scalar, control-flow, pointer, buffer and SIMT instructions (catalog calls
//! go to call.rs).

use std::collections::HashMap;

use super::call::call;
use super::text::{dtype, int, opt_sv, reg, stack_off, sty, sv};
use super::{PResult, Pending};
use crate::memory::MemKind;
use crate::program::Op;
use crate::scalar;

fn target(labels: &HashMap<String, u32>, name: &str) -> PResult<u32> {
    labels.get(name).copied().ok_or_else(|| format!("no label '{name}'"))
}

pub(super) fn operand(p: &Pending, i: usize) -> PResult<&str> {
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

pub(super) fn decode(p: &Pending, labels: &HashMap<String, u32>) -> PResult<Op> {
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

pub(super) fn unsupported(p: &Pending, what: String) -> PResult<Op> {
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

#[cfg(test)]
mod tests {
    use crate::parse::parse;
    use crate::program::Op;

    #[test]
    fn left_out_marks_and_named_undefs_parse() {
        let text = "ascendir-sim 1\nkernel k aiv\nregs 2 0\nstack 0\ncode\n  left_out \"operator '%'\"\n  \
                    r0 = undef \"TOTAL_VEC_LOCAL_SIZE\"\n  r1 = undef\n  ret\nend\n";
        let p = parse(text).unwrap();
        assert!(matches!(&p.code[0].op, Op::LeftOut { what } if what == "operator '%'"));
        assert!(matches!(&p.code[1].op, Op::Undef { d: 0, what: Some(w) } if w == "TOTAL_VEC_LOCAL_SIZE"));
        assert!(matches!(&p.code[2].op, Op::Undef { d: 1, what: None }));
    }
}
