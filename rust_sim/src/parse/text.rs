//! The text form of operands: tokens, registers (`r7`, `h2`, `o1`), typed scalars (`r7:i32`), numbers, element
//! and scalar type names, and stack arrays (`s16:4`).

use super::PResult;
use crate::dtype::{DType, STy};
use crate::program::Sv;

/// Splits a line into tokens: whitespace-separated, "quoted strings" kept whole, `;` starts a comment.
pub(super) fn tokenize(line: &str) -> Vec<String> {
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

pub(super) fn reg(tok: &str, prefix: char) -> PResult<u32> {
    let t = tok.trim_end_matches(',');
    let body = t
        .strip_prefix(prefix)
        .ok_or_else(|| format!("expected a {prefix} register, found '{tok}'"))?;
    let body = body.split(':').next().unwrap_or(body);
    body.parse::<u32>().map_err(|_| format!("bad register '{tok}'"))
}

/// `r7:i32` -> Sv
pub(super) fn sv(tok: &str) -> PResult<Sv> {
    let (r, ty) = tok
        .split_once(':')
        .ok_or_else(|| format!("expected rN:type, found '{tok}'"))?;
    Ok(Sv {
        reg: reg(r, 'r')?,
        ty: STy::parse(ty).ok_or_else(|| format!("unknown scalar type '{ty}'"))?,
    })
}

pub(super) fn opt_sv(tok: &str) -> PResult<Option<Sv>> {
    if tok == "-" {
        Ok(None)
    } else {
        sv(tok).map(Some)
    }
}

pub(super) fn dtype(name: &str) -> PResult<DType> {
    DType::parse(name).ok_or_else(|| format!("unknown element type '{name}'"))
}

pub(super) fn sty(name: &str) -> PResult<STy> {
    STy::parse(name).ok_or_else(|| format!("unknown scalar type '{name}'"))
}

pub(super) fn int(tok: &str) -> PResult<i64> {
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

/// `s16:4` -> (offset 16, length 4); the length defaults to 1.
pub(super) fn stack_off(tok: &str) -> PResult<(u32, u32)> {
    let parts: Vec<&str> = tok.trim_start_matches('s').split(':').collect();
    Ok((int(parts[0])? as u32, int(parts.get(1).copied().unwrap_or("1"))? as u32))
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
}
