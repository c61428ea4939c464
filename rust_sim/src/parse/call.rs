//! A catalog call (`call Api.overload<T=f16,...> name=value ...`) -> `Args`, and the `Op` its family's decoder
//! makes of them, or an `Unsupported` instruction naming the call when no decoder takes it.

use super::decode::{operand, unsupported};
use super::text::{dtype, int, reg, sv};
use super::{PResult, Pending};
use crate::api::{registry, Arg, Args};
use crate::dtype::STy;
use crate::program::{Op, Sv};

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

/// `call Api.overload<T=f16,...> name=value ...`
pub(super) fn call(p: &Pending) -> PResult<Op> {
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
pub(super) fn call_args(p: &Pending) -> PResult<Args> {
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
    use crate::parse::parse;
    use crate::program::Op;

    #[test]
    fn unknown_calls_become_unsupported() {
        let text =
            "ascendir-sim 1\nkernel k aiv\nregs 1 1\nstack 0\ncode\n  call Frobnicate.plain<T=f16> x=h0\n  ret\nend\n";
        let p = parse(text).unwrap();
        assert!(matches!(&p.code[0].op, Op::Unsupported { what, .. } if what.contains("Frobnicate")));
    }
}
