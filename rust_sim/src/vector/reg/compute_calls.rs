//! The program's register compute calls beyond calls.rs's arithmetic: compare and select ([`cmpsel`]), the logic
//! instructions on vector and mask registers, Cast ([`vconv`]), Reduce and Arange ([`reduce`]). Operands as in
//! calls.rs (`vN` / `pN` registers); the template arguments carry the modes the lowering read from the C++
//! template arguments: `cmp=GT`, `reduce=SUM`, `layout=ZERO,sat=SAT,round=CAST_RINT,mode=ZEROING` (a CastTrait),
//! `U=f16` (the source element type of Cast and of a widening Reduce).

use crate::api::{Args, Pipe, Registry};
use crate::core::{Ctx, Flow};
use crate::dtype::{DType, RoundMode};
use crate::program::Sv;
use crate::vector::reg::calls::{elem_or_u8, flow_or_not_modelled, reg_operand, reg_width};
use crate::vector::reg::cmpsel::{self, CmpMode, LogicOp};
use crate::vector::reg::file::RegFile;
use crate::vector::reg::ops::MergeMode;
use crate::vector::reg::reduce::{self, ReduceKind};
use crate::vector::reg::relayout;
use crate::vector::reg::vconv::{self, CastTrait, SatMode};

#[derive(Debug)]
enum Kind {
    Compare {
        cmp: CmpMode,
        dst: usize,
        a: usize,
        b: usize,
        mask: usize,
    },
    Compares {
        cmp: CmpMode,
        dst: usize,
        a: usize,
        scalar: Sv,
        mask: usize,
    },
    Select {
        dst: usize,
        a: usize,
        b: usize,
        mask: usize,
    },
    MaskSelect {
        dst: usize,
        a: usize,
        b: usize,
        mask: usize,
    },
    Logic {
        op: LogicOp,
        dst: usize,
        a: usize,
        b: usize,
        mask: usize,
    },
    MaskLogic {
        op: LogicOp,
        dst: usize,
        a: usize,
        b: usize,
        mask: usize,
    },
    Cast {
        u: DType,
        trait_: CastTrait,
        dst: usize,
        src: usize,
        mask: usize,
    },
    Reduce {
        kind: ReduceKind,
        u: DType,
        dst: usize,
        src: usize,
        mask: usize,
    },
    Arange {
        dst: usize,
        scalar: Sv,
    },
    /// `Truncate<T, roundMode>` (vconv.rs)
    Truncate {
        round: RoundMode,
        dst: usize,
        src: usize,
        mask: usize,
    },
    /// `Pack` / `UnPack` (`unpack` false / true) of half `part` of a register
    Repack {
        unpack: bool,
        u: DType,
        part: usize,
        dst: usize,
        src: usize,
    },
    /// `Pack` / `UnPack` (MaskPack / MaskUnPack) of MaskRegs (mask.rs `pack` / `unpack`)
    MaskRepack {
        unpack: bool,
        part: usize,
        dst: usize,
        src: usize,
    },
    /// `Gather(dst, src, index)` of registers (relayout.rs)
    GatherReg {
        dst: usize,
        src: usize,
        index: usize,
    },
    /// `Interleave` / `DeInterleave` (`de` true) of two registers into two
    Zip {
        de: bool,
        dst: [usize; 2],
        src: [usize; 2],
    },
    /// `Move(dst, src, mask)` of vector registers (copy_intf.h:33-34: MERGING by default; dav_3510
    /// copy_impl.h:45-47 `vmov` under the mask)
    MoveMasked {
        dst: usize,
        src: usize,
        mask: usize,
    },
}

#[derive(Debug)]
struct ComputeCall {
    name: String,
    t: DType,
    mode: MergeMode,
    width: usize,
    kind: Kind,
}

fn merge_mode(text: Option<&str>) -> Result<MergeMode, String> {
    match text {
        None | Some("ZEROING") => Ok(MergeMode::Zeroing),
        Some("MERGING") => Ok(MergeMode::Merging),
        Some(other) => Err(format!("MaskMergeMode::{other} is not modelled")),
    }
}

/// Decodes one call (calls.rs hands over `Move` with a mask).
pub(crate) fn decode(a: &Args) -> Result<Box<dyn crate::api::ApiOp>, String> {
    let api = a.api.trim_start_matches("Reg::");
    let width = reg_width(a)?;
    let t = elem_or_u8(a)?;
    let mode = match (api, a.targ("mode")) {
        ("Move", None) => MergeMode::Merging, // Move's default (copy_intf.h:33)
        (_, m) => merge_mode(m)?,
    };
    let v = |n: &str| reg_operand(a, n, 'v');
    let p = |n: &str| reg_operand(a, n, 'p');
    let on_masks = a.name("dst").is_some_and(|d| d.starts_with('p'));
    let cmp = || CmpMode::from_name(a.targ("cmp").unwrap_or("EQ"));
    let u = || if a.targ("U").is_some() { a.dtype("U") } else { Ok(t) };
    let kind = match api {
        "Compare" => Kind::Compare {
            cmp: cmp()?,
            dst: p("dst")?,
            a: v("src0")?,
            b: v("src1")?,
            mask: p("mask")?,
        },
        // CompareScalar is Compares under its older name (kernel_reg_compute_vec_cmpsel_intf_impl.h:44-53: both
        // CompareScalarImpl)
        "Compares" | "CompareScalar" => Kind::Compares {
            cmp: cmp()?,
            dst: p("dst")?,
            a: v("src")?,
            scalar: a.sv("scalar")?,
            mask: p("mask")?,
        },
        "Select" if on_masks => Kind::MaskSelect {
            dst: p("dst")?,
            a: p("src0")?,
            b: p("src1")?,
            mask: p("mask")?,
        },
        "Select" => Kind::Select {
            dst: v("dst")?,
            a: v("src0")?,
            b: v("src1")?,
            mask: p("mask")?,
        },
        "And" | "Or" | "Xor" | "Not" => {
            let op = LogicOp::from_name(api).ok_or("no logic op")?;
            let second = if op == LogicOp::Not { "src0" } else { "src1" };
            if on_masks {
                Kind::MaskLogic {
                    op,
                    dst: p("dst")?,
                    a: p("src0")?,
                    b: p(second)?,
                    mask: p("mask")?,
                }
            } else {
                Kind::Logic {
                    op,
                    dst: v("dst")?,
                    a: v("src0")?,
                    b: v(second)?,
                    mask: p("mask")?,
                }
            }
        }
        "Cast" => Kind::Cast {
            u: u()?,
            trait_: CastTrait {
                layout: vconv::layout_from_name(a.targ("layout").unwrap_or("UNKNOWN"))?,
                sat: SatMode::from_name(a.targ("sat").unwrap_or("UNKNOWN"))?,
                mode,
                round: match a.targ("round") {
                    None | Some("UNKNOWN") => None,
                    Some(r) => Some(RoundMode::parse(r).ok_or_else(|| format!("'{r}' is no RoundMode"))?),
                },
            },
            dst: v("dst")?,
            src: v("src")?,
            mask: p("mask")?,
        },
        // ReduceSum / ReduceMax / ReduceMin are Reduce<SUM / MAX / MIN> (vec_reduce_intf_impl.h:38-66)
        "Reduce" | "ReduceSum" | "ReduceMax" | "ReduceMin" => {
            if mode != MergeMode::Zeroing {
                return Err("Reduce supports ZEROING only (dav_3510 vec_reduce_impl.h:49)".to_string());
            }
            let kind = match api {
                "ReduceSum" => "SUM",
                "ReduceMax" => "MAX",
                "ReduceMin" => "MIN",
                _ => a.targ("reduce").unwrap_or("SUM"),
            };
            Kind::Reduce {
                kind: ReduceKind::from_name(kind)?,
                u: u()?,
                dst: v("dst")?,
                src: v("src")?,
                mask: p("mask")?,
            }
        }
        "Arange" => {
            if let Some(order) = a.targ("order").filter(|o| !o.ends_with("INCREASE_ORDER")) {
                return Err(format!("Arange with IndexOrder::{order} is not modelled"));
            }
            Kind::Arange {
                dst: v("dst")?,
                scalar: a.sv("scalar")?,
            }
        }
        "Truncate" => {
            if mode != MergeMode::Zeroing {
                return Err("Truncate supports ZEROING only (dav_3510 vec_vconv_impl.h:349-351)".to_string());
            }
            let r = a.targ("round").unwrap_or("CAST_NONE");
            Kind::Truncate {
                round: RoundMode::parse(r).ok_or_else(|| format!("'{r}' is no RoundMode"))?,
                dst: v("dst")?,
                src: v("src")?,
                mask: p("mask")?,
            }
        }
        "Pack" | "UnPack" if a.name("dst").is_some_and(|d| d.starts_with('p')) => Kind::MaskRepack {
            unpack: api == "UnPack",
            part: match a.targ("part") {
                None | Some("LOWEST") => 0,
                Some("HIGHEST") => 1,
                Some(other) => return Err(format!("'{other}' is no HighLowPart")),
            },
            dst: p("dst")?,
            src: p("src")?,
        },
        "Pack" | "UnPack" => Kind::Repack {
            unpack: api == "UnPack",
            u: u()?,
            part: match a.targ("part") {
                None | Some("LOWEST") => 0,
                Some("HIGHEST") => 1,
                Some(other) => return Err(format!("'{other}' is no HighLowPart")),
            },
            dst: v("dst")?,
            src: v("src")?,
        },
        // Gather(dst, ubAddr, index, mask): the UB form is a load (transfer.rs)
        "Gather" if a.has("addr") => return crate::vector::reg::transfer::decode(a),
        "Gather" => Kind::GatherReg {
            dst: v("dst")?,
            src: v("src")?,
            index: v("index")?,
        },
        "Interleave" | "DeInterleave" => Kind::Zip {
            de: api == "DeInterleave",
            dst: [v("dst0")?, v("dst1")?],
            src: [v("src0")?, v("src1")?],
        },
        "Move" if a.name("dst").is_some_and(|d| d.starts_with('p')) => {
            return Err("Move of mask registers under a mask (what it writes outside the mask is not said)".to_string())
        }
        "Move" => Kind::MoveMasked {
            dst: v("dst")?,
            src: v("src")?,
            mask: p("mask")?,
        },
        _ => return Err(format!("the register API's {api} is not modelled")),
    };
    Ok(Box::new(ComputeCall {
        name: format!("Reg::{api}"),
        t,
        mode,
        width,
        kind,
    }))
}

impl ComputeCall {
    fn file<'c>(&self, cx: &'c mut Ctx) -> &'c mut RegFile {
        cx.core.reg_file.get_or_insert_with(|| RegFile::new(self.width))
    }

    fn run(&self, cx: &mut Ctx) -> Result<Flow, String> {
        let t = self.t;
        match self.kind {
            Kind::Compare { cmp, dst, a, b, mask } => {
                let m = self.file(cx).mask(mask).clone();
                let src = self.file(cx).read(&[a, b]);
                cmpsel::compare(t, cmp, self.file(cx).mask(dst), &src[0], &src[1], &m);
            }
            Kind::Compares {
                cmp,
                dst,
                a,
                scalar,
                mask,
            } => {
                let m = self.file(cx).mask(mask).clone();
                let bits = cx.value_as(scalar, t);
                let src = self.file(cx).read(&[a]);
                cmpsel::compare_scalar(t, cmp, self.file(cx).mask(dst), &src[0], bits, &m);
            }
            Kind::Select { dst, a, b, mask } => {
                let m = self.file(cx).mask(mask).clone();
                let src = self.file(cx).read(&[a, b]);
                cmpsel::select(t, self.file(cx).vreg(dst), &src[0], &src[1], &m);
            }
            Kind::MaskSelect { dst, a, b, mask } => {
                let f = self.file(cx);
                let (ma, mb, mm) = (f.mask(a).clone(), f.mask(b).clone(), f.mask(mask).clone());
                cmpsel::mask_select(f.mask(dst), &ma, &mb, &mm);
            }
            Kind::Logic { op, dst, a, b, mask } => {
                let m = self.file(cx).mask(mask).clone();
                let src = self.file(cx).read(&[a, b]);
                cmpsel::logic(op, t, self.file(cx).vreg(dst), &src[0], &src[1], &m, self.mode);
            }
            Kind::MaskLogic { op, dst, a, b, mask } => {
                let f = self.file(cx);
                let (ma, mb, mm) = (f.mask(a).clone(), f.mask(b).clone(), f.mask(mask).clone());
                cmpsel::mask_logic(op, f.mask(dst), &ma, &mb, &mm);
            }
            Kind::Cast {
                u,
                trait_,
                dst,
                src,
                mask,
            } => {
                let m = self.file(cx).mask(mask).clone();
                let s = self.file(cx).read(&[src]);
                // CTRL[60] = 1 (the default) saturates by CTRL's bits, not the trait's SatMode (ctrl.rs)
                let trait_ = crate::vector::reg::ctrl::effective_trait(self.file(cx).ctrl, t, u, &trait_);
                vconv::cast(t, u, &trait_, self.file(cx).vreg(dst), &s[0], &m)?;
            }
            Kind::Reduce {
                kind,
                u,
                dst,
                src,
                mask,
            } => {
                let m = self.file(cx).mask(mask).clone();
                let s = self.file(cx).read(&[src]);
                reduce::reduce(kind, t, u, self.file(cx).vreg(dst), &s[0], &m)?;
            }
            Kind::Truncate { round, dst, src, mask } => {
                let m = self.file(cx).mask(mask).clone();
                let s = self.file(cx).read(&[src]);
                vconv::truncate(t, round, self.file(cx).vreg(dst), &s[0], &m)?;
            }
            Kind::Repack {
                unpack,
                u,
                part,
                dst,
                src,
            } => {
                let s = self.file(cx).read(&[src]);
                let d = self.file(cx).vreg(dst);
                if unpack {
                    relayout::unpack(t, u, part, d, &s[0])?;
                } else {
                    relayout::pack(t, u, part, d, &s[0])?;
                }
            }
            Kind::MaskRepack { unpack, part, dst, src } => {
                let s = self.file(cx).mask(src).clone();
                *self.file(cx).mask(dst) = if unpack {
                    crate::vector::reg::mask::unpack(&s, part)
                } else {
                    crate::vector::reg::mask::pack(&s, part)
                };
            }
            Kind::GatherReg { dst, src, index } => {
                let s = self.file(cx).read(&[src, index]);
                relayout::gather(t, self.file(cx).vreg(dst), &s[0], &s[1])?;
            }
            Kind::Zip { de, dst, src } => {
                let s = self.file(cx).read(&src);
                let (mut d0, mut d1) = (s[0].clone(), s[1].clone());
                if de {
                    relayout::deinterleave(t, &mut d0, &mut d1, &s[0], &s[1]);
                } else {
                    relayout::interleave(t, &mut d0, &mut d1, &s[0], &s[1]);
                }
                *self.file(cx).vreg(dst[0]) = d0;
                *self.file(cx).vreg(dst[1]) = d1;
            }
            Kind::MoveMasked { dst, src, mask } => {
                let m = self.file(cx).mask(mask).clone();
                let s = self.file(cx).read(&[src]);
                let d = self.file(cx).vreg(dst);
                let t = if t == DType::Bool { DType::U8 } else { t };
                for i in 0..d.lanes(t) {
                    if m.active(t, i) {
                        d.set(t, i, s[0].get(t, i));
                    } else if self.mode == MergeMode::Zeroing {
                        d.set(t, i, 0);
                    }
                }
            }
            Kind::Arange { dst, scalar } => {
                let bits = cx.value_as(scalar, t);
                reduce::arange(t, self.file(cx).vreg(dst), bits);
            }
        }
        Ok(Flow::Next)
    }
}

impl crate::api::ApiOp for ComputeCall {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let result = self.run(cx);
        flow_or_not_modelled(cx, &self.name, result)
    }
}

pub fn register(r: &mut Registry) {
    let apis = [
        "Compare",
        "Compares",
        "Select",
        "And",
        "Or",
        "Xor",
        "Not",
        "Cast",
        "Reduce",
        "Arange",
        "Pack",
        "UnPack",
        "Interleave",
        "DeInterleave",
        "Truncate",
        "CompareScalar",
        "ReduceSum",
        "ReduceMax",
        "ReduceMin",
        "Gather",
    ];
    let heads: Vec<String> = apis.iter().map(|a| format!("Reg::{a}")).collect();
    let refs: Vec<&str> = heads.iter().map(String::as_str).collect();
    r.add_all(&refs, &["plain"], decode);
}

#[cfg(test)]
mod tests {
    use crate::api::{registry, Args};

    #[test]
    fn a_masked_move_merges_by_default() {
        use crate::api::Arg;
        let mut a = Args {
            api: "Reg::Move".to_string(),
            overload: "plain".to_string(),
            targs: vec![("T".into(), "f32".into()), ("vl".into(), "256".into())],
            ..Default::default()
        };
        for (k, v) in [("dst", "v0"), ("src", "v1"), ("mask", "p0")] {
            a.named.push((k.to_string(), Arg::Name(v.to_string())));
        }
        let op = super::decode(&a).unwrap();
        assert!(format!("{op:?}").contains("Merging"));
        a.targs.push(("mode".into(), "ZEROING".into()));
        assert!(format!("{:?}", super::decode(&a).unwrap()).contains("Zeroing"));
        a.named[0].1 = Arg::Name("p1".to_string());
        a.named[1].1 = Arg::Name("p2".to_string());
        assert!(super::decode(&a).is_err());
    }

    #[test]
    fn the_compute_calls_are_registered() {
        let heads = registry().heads();
        for api in [
            "Compare", "Compares", "Select", "And", "Not", "Cast", "Reduce", "Arange",
        ] {
            assert!(heads.iter().any(|h| h == &format!("Reg::{api}.plain")), "{api}");
        }
    }
}
