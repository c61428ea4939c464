//! Compare / CompareScalar (a bit per element, bit i = element i, LSB first in each byte) and Select.
//!
//! Select picks src0 where the selection bit is 1 and src1 (a tensor, or a scalar in
//! VSEL_TENSOR_SCALAR_MODE) where it is 0. In VSEL_TENSOR_SCALAR_MODE and VSEL_TENSOR_TENSOR_MODE the bits lie
//! one after another in the selMask tensor, one per element; in VSEL_CMPMASK_SPR mode the same 128 (half) or
//! 64 (float) bits select the lanes of every repeat: the selMask tensor's, or the CMPMASK register a Compare
//! without destination set.

use crate::api::{ApiOp, Args, EnumArg, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::memory::Space;
use crate::program::Sv;
use crate::vector::elem::{load_f32, load_i64, CHUNK};
use crate::vector::{check_count_fits, check_footprint, elementwise, geoms, plan, Form, Run};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CmpMode {
    Lt,
    Gt,
    Ge,
    Eq,
    Ne,
    Le,
}

fn cmp_mode(name: &str) -> Option<CmpMode> {
    Some(match name {
        "LT" => CmpMode::Lt,
        "GT" => CmpMode::Gt,
        "GE" => CmpMode::Ge,
        "EQ" => CmpMode::Eq,
        "NE" => CmpMode::Ne,
        "LE" => CmpMode::Le,
        _ => return None,
    })
}

fn cmp_mode_index(i: i64) -> Option<CmpMode> {
    [
        CmpMode::Lt,
        CmpMode::Gt,
        CmpMode::Ge,
        CmpMode::Eq,
        CmpMode::Ne,
        CmpMode::Le,
    ]
    .get(i as usize)
    .copied()
}

fn resolve_mode(cx: &Ctx, arg: &EnumArg) -> Option<CmpMode> {
    match arg {
        EnumArg::Name(n) => cmp_mode(n),
        EnumArg::Reg(sv) => cmp_mode_index(cx.int(*sv)),
    }
}

#[inline]
fn holds_f(m: CmpMode, a: f32, b: f32) -> bool {
    match m {
        CmpMode::Lt => a < b,
        CmpMode::Gt => a > b,
        CmpMode::Ge => a >= b,
        CmpMode::Eq => a == b,
        CmpMode::Ne => a != b,
        CmpMode::Le => a <= b,
    }
}

#[inline]
fn holds_i(m: CmpMode, a: i64, b: i64) -> bool {
    match m {
        CmpMode::Lt => a < b,
        CmpMode::Gt => a > b,
        CmpMode::Ge => a >= b,
        CmpMode::Eq => a == b,
        CmpMode::Ne => a != b,
        CmpMode::Le => a <= b,
    }
}

#[derive(Debug)]
enum Rhs {
    Tensor(u32),
    Scalar(Sv),
}

#[derive(Debug)]
struct Compare {
    t: DType,
    /// None: the result goes to the CMPMASK register
    dst: Option<u32>,
    src0: u32,
    src1: Rhs,
    mode: EnumArg,
    form: Form,
    name: String,
}

fn decode_compare(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let scalar = a.api != "Compare";
    let src1 = if scalar {
        Rhs::Scalar(a.sv("src1Scalar").or_else(|_| a.sv("src1"))?)
    } else {
        Rhs::Tensor(a.handle("src1")?)
    };
    let strides: &[(&str, &str)] = if scalar {
        &[("", ""), ("srcBlkStride", "srcRepStride")]
    } else {
        &[
            ("", ""),
            ("src0BlkStride", "src0RepStride"),
            ("src1BlkStride", "src1RepStride"),
        ]
    };
    let mut form = Form::decode(a, "repeatParams", strides)?;
    if let Form::Repeat { strides, .. } = &mut form {
        strides.remove(0); // the destination is bits, not a strided tensor
    }
    Ok(Box::new(Compare {
        t: a.dtype("T")?,
        dst: if a.overload.starts_with("cmpmask") {
            None
        } else {
            Some(a.handle("dst")?)
        },
        src0: a.handle("src0")?,
        src1,
        mode: a.enum_or_reg("cmpMode")?,
        form,
        name: a.api.clone(),
    }))
}

impl ApiOp for Compare {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let Some(mode) = resolve_mode(cx, &self.mode) else {
            cx.report(code::INVALID_OPERAND, format!("{} with an unknown CMPMODE", self.name));
            return Flow::Next;
        };
        let mut hs = vec![self.src0];
        if let Rhs::Tensor(h) = self.src1 {
            hs.push(h);
        }
        let g = geoms(cx, &hs, &vec![self.t; hs.len()]);
        let form = &self.form;
        let names = ["src0", "src1"];
        let Some(p) = plan(cx, form, &g, &self.name) else {
            return Flow::Next;
        };
        check_count_fits(cx, form, &g, &names, &self.name);
        let Some(mem) = check_footprint(cx, &g, &p.runs, &names, &self.name) else {
            return Flow::Next;
        };
        let t = self.t;
        let scalar = match self.src1 {
            Rhs::Scalar(sv) => Some(cx.value_as(sv, t)),
            Rhs::Tensor(_) => None,
        };
        // the bits, by element index
        let total = p
            .runs
            .iter()
            .map(|r| r.rep as u64 * p.lanes as u64 + r.lane as u64 + r.n as u64)
            .max()
            .unwrap_or(0);
        let mut bits = vec![0u8; total.div_ceil(8) as usize];
        let mut written = vec![false; bits.len()];
        let mut init_ok = true;
        {
            let local = cx.local(mem);
            for run in &p.runs {
                let e0 = run.rep as u64 * p.lanes as u64 + run.lane as u64;
                let mut done = 0usize;
                while done < run.n as usize {
                    let m = (run.n as usize - done).min(CHUNK);
                    let sz = t.size();
                    let a_at = run.addr[0] as usize + done * sz;
                    let a_bytes = &local.data.as_slice()[a_at..a_at + m * sz];
                    init_ok &= crate::memory::all_ones(&local.init[a_at..a_at + m * sz]);
                    let b_bytes: Vec<u8> = match scalar {
                        Some(bitsv) => {
                            let mut v = vec![0u8; m * sz];
                            for c in v.chunks_exact_mut(sz) {
                                t.store_bits(c, bitsv);
                            }
                            v
                        }
                        None => {
                            let b_at = run.addr[1] as usize + done * sz;
                            init_ok &= crate::memory::all_ones(&local.init[b_at..b_at + m * sz]);
                            local.data.as_slice()[b_at..b_at + m * sz].to_vec()
                        }
                    };
                    let res = compare_chunk(mode, t, a_bytes, &b_bytes, m);
                    for (k, r) in res.iter().enumerate() {
                        let e = e0 + (done + k) as u64;
                        let (byte, bit) = ((e / 8) as usize, e % 8);
                        if *r {
                            bits[byte] |= 1 << bit;
                        }
                        written[byte] = true;
                    }
                    done += m;
                }
            }
        }
        match self.dst {
            None => {
                let mut w = [0u64; 2];
                for (i, b) in bits.iter().enumerate().take(16) {
                    w[i / 8] |= (*b as u64) << ((i % 8) * 8);
                }
                cx.core.cmpmask = w;
            }
            Some(d) => {
                let dh = cx.handle(d);
                let Some(at) = cx.range(dh, 0, bits.len() as i64, true, 1, &self.name) else {
                    return Flow::Next;
                };
                let Space::Local(dm) = dh.space else { return Flow::Next };
                cx.check_local_write(dm, at, bits.len(), dh.alloc, &self.name);
                let local = cx.local(dm);
                for (i, (b, w)) in bits.iter().zip(&written).enumerate() {
                    if !*w {
                        continue;
                    }
                    // lanes outside the mask keep their old bits
                    let old = local.data.as_slice()[at + i];
                    let touched = touched_bits(&p.runs, p.lanes as u64, i as u64);
                    local.data.as_mut_slice()[at + i] = (old & !touched) | (b & touched);
                    local.init[at + i] = init_ok as u8;
                }
            }
        }
        Flow::Next
    }
}

/// Which bits of result byte `byte` the runs compute.
fn touched_bits(runs: &[Run], lanes: u64, byte: u64) -> u8 {
    let mut m = 0u8;
    for r in runs {
        let e0 = r.rep as u64 * lanes + r.lane as u64;
        let e1 = e0 + r.n as u64;
        for bit in 0..8 {
            let e = byte * 8 + bit;
            if e >= e0 && e < e1 {
                m |= 1 << bit;
            }
        }
    }
    m
}

fn compare_chunk(mode: CmpMode, t: DType, a: &[u8], b: &[u8], m: usize) -> Vec<bool> {
    if t.is_float() {
        let mut x = [0f32; CHUNK];
        let mut y = [0f32; CHUNK];
        load_f32(t, a, &mut x[..m]);
        load_f32(t, b, &mut y[..m]);
        x[..m].iter().zip(&y[..m]).map(|(p, q)| holds_f(mode, *p, *q)).collect()
    } else {
        let mut x = [0i64; CHUNK];
        let mut y = [0i64; CHUNK];
        load_i64(t, a, &mut x[..m]);
        load_i64(t, b, &mut y[..m]);
        x[..m].iter().zip(&y[..m]).map(|(p, q)| holds_i(mode, *p, *q)).collect()
    }
}

// ---------------------------------------------------------------------------------------------------------
// Select

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SelMode {
    CmpMaskSpr,
    TensorScalar,
    TensorTensor,
}

#[derive(Debug)]
struct Select {
    t: DType,
    dst: u32,
    sel: Option<u32>,
    src0: u32,
    src1: Rhs,
    mode: Option<EnumArg>,
    fixed_mode: Option<SelMode>,
    form: Form,
}

fn decode_select(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let src1 = match a.get("src1") {
        Some(crate::api::Arg::Handle(h)) => Rhs::Tensor(*h),
        Some(crate::api::Arg::Reg(sv)) => Rhs::Scalar(*sv),
        _ if a.overload == "selmask_scalar" => Rhs::Scalar(Sv {
            reg: 0,
            ty: crate::dtype::STy::I64,
        }),
        other => return Err(format!("Select src1 {other:?}")),
    };
    let fixed_mode = match a.overload.as_str() {
        "cmpmask_tensor" => match a.targ("selMode") {
            Some("VSEL_TENSOR_TENSOR_MODE") => Some(SelMode::TensorTensor),
            _ => Some(SelMode::CmpMaskSpr),
        },
        "selmask_scalar" => Some(SelMode::TensorScalar),
        _ => None,
    };
    let strides: &[(&str, &str)] = &[
        ("dstBlkStride", "dstRepStride"),
        ("src0BlkStride", "src0RepStride"),
        ("src1BlkStride", "src1RepStride"),
    ];
    let form = if a.overload.ends_with("count") {
        Form::Count(a.sv("count")?)
    } else if a.has("mask") {
        Form::decode(a, "repeatParams", strides)?
    } else {
        // no mask operand: the mask register
        let mut b = a.clone();
        b.targs.push(("isSetMask".into(), "false".into()));
        b.named.push(("mask".into(), crate::api::Arg::Reg(a.sv("repeatTime")?))); // unused: isSetMask=false
        Form::decode(&b, "repeatParams", strides)?
    };
    Ok(Box::new(Select {
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        sel: a.handle("selMask").ok(),
        src0: a.handle("src0")?,
        src1,
        mode: if a.has("selMode") {
            Some(a.enum_or_reg("selMode")?)
        } else {
            None
        },
        fixed_mode,
        form,
    }))
}

impl ApiOp for Select {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let mode = match (&self.mode, self.fixed_mode) {
            (_, Some(m)) => m,
            (Some(EnumArg::Name(n)), _) => match n.as_str() {
                "VSEL_CMPMASK_SPR" => SelMode::CmpMaskSpr,
                "VSEL_TENSOR_SCALAR_MODE" => SelMode::TensorScalar,
                _ => SelMode::TensorTensor,
            },
            (Some(EnumArg::Reg(sv)), _) => match cx.int(*sv) {
                0 => SelMode::CmpMaskSpr,
                1 => SelMode::TensorScalar,
                _ => SelMode::TensorTensor,
            },
            (None, None) => SelMode::TensorTensor,
        };
        let mut hs = vec![self.dst, self.src0];
        if let Rhs::Tensor(h) = self.src1 {
            if mode != SelMode::TensorScalar {
                hs.push(h);
            }
        }
        let g = geoms(cx, &hs, &vec![self.t; hs.len()]);
        let names = ["dst", "src0", "src1"];
        let Some(p) = plan(cx, &self.form, &g, "Select") else {
            return Flow::Next;
        };
        check_count_fits(cx, &self.form, &g, &names, "Select");
        let Some(mem) = check_footprint(cx, &g, &p.runs, &names, "Select") else {
            return Flow::Next;
        };
        let lanes = p.lanes as u64;
        let total = p
            .runs
            .iter()
            .map(|r| r.rep as u64 * lanes + r.lane as u64 + r.n as u64)
            .max()
            .unwrap_or(0);
        // the selection bits
        let sel: Vec<u8> = if mode == SelMode::CmpMaskSpr && self.sel.is_none() {
            let w = cx.core.cmpmask;
            w.iter().flat_map(|x| x.to_le_bytes()).collect()
        } else {
            let Some(sh) = self.sel else {
                cx.report(code::INVALID_OPERAND, "Select without a selection mask".into());
                return Flow::Next;
            };
            let h = cx.handle(sh);
            let need = if mode == SelMode::CmpMaskSpr {
                lanes.div_ceil(8)
            } else {
                total.div_ceil(8)
            } as i64;
            let Some(at) = cx.range(h, 0, need, false, 1, "Select (its selMask)") else {
                return Flow::Next;
            };
            match h.space {
                Space::Local(m) => cx.local(m).data.as_slice()[at..at + need as usize].to_vec(),
                _ => return Flow::Next,
            }
        };
        let t = self.t;
        let size = t.size();
        let scalar = match self.src1 {
            Rhs::Scalar(sv) if mode == SelMode::TensorScalar => Some(cx.value_as(sv, t)),
            _ => None,
        };
        let per_repeat = mode == SelMode::CmpMaskSpr;
        elementwise(cx, mem, &p, &g, "Select", &mut |srcs, out, m, e0| {
            for k in 0..m {
                let e = e0 + k as u64;
                let idx = if per_repeat { e % lanes } else { e };
                let byte = (idx / 8) as usize;
                let on = byte < sel.len() && (sel[byte] >> (idx % 8)) & 1 == 1;
                let o = &mut out[k * size..(k + 1) * size];
                if on {
                    o.copy_from_slice(&srcs[0][k * size..(k + 1) * size]);
                } else if let Some(bits) = scalar {
                    t.store_bits(o, bits);
                } else if srcs.len() > 1 {
                    o.copy_from_slice(&srcs[1][k * size..(k + 1) * size]);
                }
            }
        });
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(
        &["Compare"],
        &["count", "mask", "bitmask", "cmpmask", "cmpmask_bitmask"],
        decode_compare,
    );
    r.add_all(
        &["CompareScalar", "Compares"],
        &["count", "mask", "bitmask"],
        decode_compare,
    );
    r.add_all(
        &["Select"],
        &[
            "tensor_count",
            "scalar_count",
            "tensor_mask",
            "tensor_bitmask",
            "scalar_mask",
            "scalar_bitmask",
            "cmpmask_tensor",
            "selmask_scalar",
        ],
        decode_select,
    );
}
