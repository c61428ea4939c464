//! The Matmul object's C blocks: computing a block, writing it to C (GM, UB, L1) or to an L0C tensor as NZ
//! fractals, the converting run out of the accumulators, the object's registration and readiness, and the
//! timing model's record of each block (matmul/decode.rs decodes the calls, matmul/exec.rs runs them).

use super::*;

impl Call {
    /// The timing model's record of the cube pipeline computing the C block at (row, col, rows, cols), written
    /// out to `out` when given (timing/matmul.rs).
    pub(in crate::cube) fn time(&self, cx: &mut Ctx, block: (usize, usize, usize, usize), out: Option<Space>) {
        if cx.core.tlog.is_none() {
            return;
        }
        let out_elem = self.t.unwrap_or(DType::F32).size();
        let work = crate::timing::matmul::work_for(&cx.core.cube.matmuls[&self.obj], block, out_elem, out);
        if let Some(w) = work {
            crate::timing::matmul::compute(cx.core, cx.pc, &w);
        }
    }

    pub(super) fn register(&self, cx: &mut Ctx) -> Flow {
        let mix = cx.prog.kernel_type.starts_with("mix");
        for (obj, fields) in &self.objs {
            let get = |name: &str| fields.iter().find(|(n, _)| n == name).map(|(_, sv)| cx.int(*sv));
            let tiling = if get("M").is_some() && get("N").is_some() {
                Some(Tiling {
                    m: get("M").unwrap_or(0),
                    n: get("N").unwrap_or(0),
                    ka: get("Ka").unwrap_or(0),
                    kb: get("Kb").or(get("Ka")).unwrap_or(0),
                    single_m: get("singleCoreM").unwrap_or(0),
                    single_n: get("singleCoreN").unwrap_or(0),
                    single_k: get("singleCoreK").unwrap_or(0),
                    base_m: get("baseM").unwrap_or(0),
                    base_n: get("baseN").unwrap_or(0),
                    is_bias: get("isBias").unwrap_or(0) != 0,
                    order: get("iterateOrder").unwrap_or(0),
                })
            } else {
                None
            };
            let config = cx
                .prog
                .objects
                .get(*obj as usize)
                .and_then(|o| o.attr("config"))
                .map(split_config);
            let all = fields.iter().map(|(n, sv)| (n.clone(), cx.int(*sv))).collect();
            let m = cx.core.cube.matmuls.entry(*obj).or_default();
            *m = MatmulObj {
                tiling,
                single: [-1, -1, -1],
                config: config.unwrap_or_default(),
                fields: all,
                ..MatmulObj::default()
            };
        }
        if self.method == Method::Register && mix && !cx.core.aiv {
            // the AIC of a MIX kernel serves the AIV cores' calls from here on and returns (REGIST_MATMUL_OBJ
            // expands to the server loop and a return)
            return Flow::Stop;
        }
        Flow::Next
    }

    /// The object's tiling and shapes, or a finding saying what is missing.
    pub(in crate::cube) fn ready(&self, cx: &mut Ctx, what: &str) -> Option<(Tiling, [usize; 3], [i64; 5])> {
        let m = &cx.core.cube.matmuls[&self.obj];
        let missing = if m.tiling.is_none() {
            Some("its TCubeTiling (the host tiling did not give the simulator its fields)")
        } else if m.a.is_none() {
            Some("matrix A (no SetTensorA)")
        } else if m.b.is_none() {
            Some("matrix B (no SetTensorB)")
        } else {
            None
        };
        if let Some(why) = missing {
            cx.report(
                code::NOT_MODELLED,
                format!("Matmul::{what} without {why}: the object cannot compute C"),
            );
            return None;
        }
        m.shape()
    }

    pub(in crate::cube) fn result_handle(&self) -> Option<u32> {
        self.result_h
    }

    pub(super) fn set_result(&self, cx: &mut Ctx, v: bool) {
        if let Some(r) = self.result {
            cx.set(r.reg, r.ty, v as u64);
        }
    }

    /// Writes a block of C to `h` (GM or a local tensor) in C's type and layout.
    pub(in crate::cube) fn write_block(
        &self,
        cx: &mut Ctx,
        h: Handle,
        block: &Block,
        sequential: bool,
        atomic: i64,
        what: &str,
    ) {
        let obj = self.obj;
        let Some((_, s, org)) = cx.core.cube.matmuls[&obj].shape() else {
            return;
        };
        let ct = self.t.unwrap_or(DType::F32);
        let acc = accumulator_of(cx, obj);
        let (quant, scalar) = match quant_for(acc, ct) {
            Some(q) => {
                let m = &cx.core.cube.matmuls[&obj];
                let q = if matches!(q, Quant::Deqf16 | Quant::Req8 | Quant::Qf322b8) && m.quant_vector.is_some() {
                    match q {
                        Quant::Deqf16 => Quant::Vdeqf16,
                        Quant::Req8 => Quant::Vreq8,
                        _ => Quant::Vqf322b8,
                    }
                } else {
                    q
                };
                (q, m.quant_scalar.unwrap_or(0))
            }
            None => {
                cx.report(
                    code::INVALID_OPERAND,
                    format!(
                        "Matmul::{what} writes C as {}, which the accumulator {} does not convert to",
                        ct.name(),
                        acc.name()
                    ),
                );
                return;
            }
        };
        let per_channel: Vec<u64> = if matches!(quant, Quant::Vdeqf16 | Quant::Vreq8 | Quant::Vqf322b8) {
            let v = cx.core.cube.matmuls[&obj].quant_vector.unwrap();
            let Some(r) = read(
                cx,
                v,
                (block.col * 8) as i64,
                (block.cols * 8) as i64,
                8,
                "the Matmul quantisation vector",
            ) else {
                return;
            };
            (0..block.cols)
                .map(|j| DType::U64.load_bits(&r.data[j * 8..]))
                .collect()
        } else {
            Vec::new()
        };
        let nz = is_nz(cx, obj, 2, h);
        let size = ct.size();
        let local = matches!(h.space, Space::Local(_));
        // where element (i, j) of the block goes, in elements from the start of `h`
        let n_c = if org[4] > 0 { org[4] } else { org[1] }.max(0) as usize;
        let (base_row, base_col) = if sequential { (0, 0) } else { (block.row, block.col) };
        let row_stride = if sequential || (local && block.rows * block.cols < s[0] * s[1]) {
            // a block on its own: rows of the block's full base width
            cx.core.cube.matmuls[&obj]
                .tiling
                .map(|t| t.base_n.max(1) as usize)
                .unwrap_or(block.cols)
                .max(block.cols)
        } else if local {
            s[1]
        } else {
            n_c
        };
        let mut runs: Vec<(i64, Vec<u8>, Vec<u8>)> = Vec::new();
        for i in 0..block.rows {
            if nz {
                let m_pad = if sequential || local {
                    block.rows.div_ceil(16) * 16
                } else {
                    s[0].div_ceil(16) * 16
                };
                for col in 0..block.cols.div_ceil(16) {
                    let width = 16.min(block.cols - col * 16);
                    let (data, init) =
                        self.convert_run(block, i, col * 16, width, acc, ct, quant, scalar, &per_channel);
                    let (r, c) = (base_row + i, base_col + col * 16);
                    let at = (c / 16) * m_pad * 16 + r * 16 + c % 16;
                    runs.push(((at * size) as i64, data, init));
                }
            } else {
                let (data, init) = self.convert_run(block, i, 0, block.cols, acc, ct, quant, scalar, &per_channel);
                let at = (base_row + i) * row_stride + base_col;
                runs.push(((at * size) as i64, data, init));
            }
        }
        let saved = cx.core.atomic;
        if !local {
            cx.core.atomic = match atomic {
                1 => Atomic::Add(ct),
                2 => Atomic::Max(ct),
                3 => Atomic::Min(ct),
                _ => saved,
            };
        }
        runs.sort_by_key(|r| r.0);
        // on a MIX kernel the block's AIC writes C to GM for the AIV that asked
        let mix = crate::mix::mix_ratio(&cx.prog.kernel_type).is_some();
        let served = (!local && cx.core.aiv && mix)
            .then(|| cx.core.cube.cross.clone())
            .flatten();
        let own = served.as_ref().map(|_| std::mem::take(&mut cx.core.writes));
        write_runs(cx, h, &runs, ct, &format!("Matmul::{what}"));
        if let (Some(shared), Some(own)) = (served, own) {
            // two AIVs of a block asking for the same C: the AIC writes it twice, one request after the other,
            // which is no race between the two AIVs (a write one AIV makes itself still is, with the other's)
            let made = std::mem::replace(&mut cx.core.writes, own);
            let group = cx.core.cube.slot.group;
            let mut flags = shared.borrow_mut();
            for w in made {
                if flags.served.insert((group, w.buf, w.start, w.end, w.epoch)) {
                    cx.core.writes.push(w);
                }
            }
        }
        cx.core.atomic = saved;
    }

    #[allow(clippy::too_many_arguments)]
    fn convert_run(
        &self,
        block: &Block,
        i: usize,
        j0: usize,
        width: usize,
        acc: DType,
        ct: DType,
        quant: Quant,
        scalar: u64,
        per_channel: &[u64],
    ) -> (Vec<u8>, Vec<u8>) {
        let size = ct.size();
        let mut data = vec![0u8; width * size];
        let mut init = vec![0u8; width * size];
        for c in 0..width {
            let j = j0 + c;
            let bits = block.acc[i * block.cols + j] as u64;
            let param = if per_channel.is_empty() { scalar } else { per_channel[j] };
            ct.store_bits(&mut data[c * size..], convert(bits, acc, ct, quant, param, false));
            init[c * size..(c + 1) * size].fill(block.init[i * block.cols + j] as u8);
        }
        (data, init)
    }
}

/// A block's accumulators into an L0C tensor as NZ fractals (z-columns of the block's rows rounded up to 16).
pub(super) fn write_l0c(cx: &mut Ctx, h: Handle, b: &Block, t: DType) {
    let m_pad = b.rows.div_ceil(16) * 16;
    let mut runs = Vec::with_capacity(b.rows * b.cols.div_ceil(16));
    for col in 0..b.cols.div_ceil(16) {
        for i in 0..b.rows {
            let width = 16.min(b.cols - col * 16);
            let mut data = vec![0u8; width * 4];
            let mut init = vec![0u8; width * 4];
            for c in 0..width {
                let j = col * 16 + c;
                data[c * 4..c * 4 + 4].copy_from_slice(&b.acc[i * b.cols + j].to_le_bytes());
                init[c * 4..c * 4 + 4].fill(b.init[i * b.cols + j] as u8);
            }
            runs.push((((col * m_pad + i) * 16 * 4) as i64, data, init));
        }
    }
    write_runs(cx, h, &runs, t, "Matmul::Iterate (into L0C)");
}

/// What an L0C tensor holds for a block (the partial sums Iterate(true, c) accumulates onto).
pub(super) fn read_l0c(cx: &mut Ctx, h: Handle, row: usize, col: usize, rows: usize, cols: usize) -> Option<Block> {
    let m_pad = rows.div_ceil(16) * 16;
    let bytes = cols.div_ceil(16) * m_pad * 16 * 4;
    let r = read(cx, h, 0, bytes as i64, 4, "Matmul::Iterate (partial sums in L0C)")?;
    let mut acc = vec![0u32; rows * cols];
    let mut init = vec![false; rows * cols];
    for i in 0..rows {
        for j in 0..cols {
            let at = ((j / 16) * m_pad + i) * 64 + (j % 16) * 4;
            acc[i * cols + j] = u32::from_le_bytes([r.data[at], r.data[at + 1], r.data[at + 2], r.data[at + 3]]);
            init[i * cols + j] = r.is_init(at, 4);
        }
    }
    Some(Block {
        row,
        col,
        rows,
        cols,
        acc,
        init,
    })
}

/// The (row block, column block) of the idx-th Iterate: iterateOrder 0 walks M first, 1 walks N first.
pub(super) fn block_at(idx: usize, mi: usize, ni: usize, order: i64) -> (usize, usize) {
    if order == 1 {
        (idx / ni, idx % ni)
    } else {
        (idx % mi, idx / mi)
    }
}

/// The conversion out of the accumulator into C's type.
fn quant_for(acc: DType, ct: DType) -> Option<Quant> {
    Some(match (acc, ct) {
        (DType::F32, DType::F32) | (DType::I32, DType::I32) => Quant::None,
        (DType::F32, DType::F16) => Quant::F322F16,
        (DType::F32, DType::BF16) => Quant::F322BF16,
        (DType::I32, DType::F16) => Quant::Deqf16,
        (DType::I32, DType::I8) | (DType::I32, DType::U8) => Quant::Req8,
        (DType::F32, DType::I8) | (DType::F32, DType::U8) => Quant::Qf322b8,
        _ => return None,
    })
}

fn accumulator_of(cx: &Ctx, obj: u32) -> DType {
    let m = &cx.core.cube.matmuls[&obj];
    m.a.and_then(|a| crate::cube::accumulator(a.t)).unwrap_or(DType::F32)
}

/// Whether operand `which` (0 A, 1 B, 2 C, 3 bias) is NZ: as the declaration's MatmulType says, else NZ for
/// tensors in L1 and ND for GM and UB.
pub(super) fn is_nz(cx: &Ctx, obj: u32, which: usize, h: Handle) -> bool {
    let config = cx
        .core
        .cube
        .matmuls
        .get(&obj)
        .map(|m| m.config.clone())
        .unwrap_or_default();
    if let Some(arg) = config.get(which) {
        if arg.contains("CubeFormat::NZ") || arg.contains(",NZ,") {
            return true;
        }
        if arg.contains("CubeFormat::ND") || arg.contains(",ND") {
            return false;
        }
    }
    matches!(h.space, Space::Local(MemKind::L1))
}
