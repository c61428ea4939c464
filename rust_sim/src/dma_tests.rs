//! DataCopy's count and DataCopyParams forms (dma.rs) against values worked out by hand from the documented
//! semantics (ascendc-reference.md, DataCopy [DG 0326]): a count whose bytes are not a multiple of 32 is cut down
//! to the whole 32-byte blocks it fills, silently on the device (a warning here); DataCopyParams moves blockCount
//! blocks of blockLen 32-byte units, srcStride / dstStride being the gaps, in 32-byte units, between the end of one
//! block and the start of the next on each side. DataCopyPad's own tests are in dma.rs.

use crate::checks::{Finding, Severity};
use crate::memory::{GmRole, MemKind};
use crate::test_rig::{f32_bytes, read_f32, Out, Rig};

/// One AIV core: GM buffer h0 of `gm` floats (role `role`), h1 a UB float tensor of 64 elements at byte 0 (`ub`
/// written there first, when given), and the registers `regs` (i32 constants r2, r3, ...).
fn run(role: GmRole, gm: Vec<f32>, ub: Option<Vec<f32>>, regs: &[i64], code: &str) -> Out {
    let mut head = String::from("kernel k aiv\nchip 910B2\nmem UB 196608 32\nparam 0 x h0 gm\nregs 64 32\nstack 0\n");
    head += "const r1 i32 0\nconst r0 i32 64\n";
    for (i, v) in regs.iter().enumerate() {
        head += &format!("const r{} i32 {v}\n", i + 2);
    }
    let mut rig = Rig::new(head).gm(role, f32_bytes(gm));
    if let Some(ub) = ub {
        rig = rig.fill(MemKind::Ub, 0, f32_bytes(ub));
    }
    rig.run(&format!("  h1 = LocalAt.f32 UB r1:i32 r0:i32\n{code}"))
}

/// `count` (a register) floats, in the direction `dir` (gm_to_local, local_to_gm).
fn count_copy(dir: &str, count: &str) -> String {
    let (dst, src) = if dir == "gm_to_local" {
        ("h1", "h0")
    } else {
        ("h0", "h1")
    };
    format!("  call DataCopy.count_{dir}<T=f32> dst={dst} src={src} count={count}:i32")
}

/// DataCopyParams from registers: blockCount, blockLen, srcStride, dstStride.
fn params_copy(dir: &str, [count, len, src_stride, dst_stride]: [&str; 4]) -> String {
    let (dst, src) = if dir == "gm_to_local" {
        ("h1", "h0")
    } else {
        ("h0", "h1")
    };
    format!(
        "  call DataCopy.params_{dir}<T=f32> dst={dst} src={src} repeatParams.blockCount={count}:i32 \
         repeatParams.blockLen={len}:i32 repeatParams.srcStride={src_stride}:i32 \
         repeatParams.dstStride={dst_stride}:i32"
    )
}

/// Which of the first `n` UB floats the run wrote (none when it never touched UB).
fn ub_written(out: &Out, n: usize) -> Vec<bool> {
    match out.core.mem[MemKind::Ub as usize].as_ref() {
        None => vec![false; n],
        Some(ub) => ub.init[..4 * n]
            .chunks_exact(4)
            .map(|c| c.iter().all(|&b| b != 0))
            .collect(),
    }
}

fn warnings(out: &Out) -> Vec<&Finding> {
    out.findings
        .list
        .iter()
        .filter(|f| f.severity == Severity::Warning)
        .collect()
}

fn range(from: i32, to: i32) -> Vec<f32> {
    (from..=to).map(|i| i as f32).collect()
}

#[test]
fn a_count_of_40_bytes_moves_one_32_byte_block_into_ub() {
    // 10 floats = 40 bytes: one whole block (8 floats) moves, the last 8 bytes do not
    let out = run(
        GmRole::Input,
        range(1, 48),
        None,
        &[10],
        &count_copy("gm_to_local", "r2"),
    );
    assert_eq!(out.ub_f32(0, 8), range(1, 8));
    assert_eq!(ub_written(&out, 10), [vec![true; 8], vec![false; 2]].concat());
    let w = warnings(&out);
    assert_eq!(w.len(), 1, "{:?}", out.findings.list);
    assert_eq!(w[0].code, "ASC959");
    assert!(
        w[0].message.contains("40 bytes) moves 32 bytes") && w[0].message.contains("drops the last 8 bytes"),
        "{}",
        w[0].message
    );
}

#[test]
fn a_count_under_one_block_moves_nothing() {
    // 7 floats = 28 bytes: no whole block
    let out = run(
        GmRole::Input,
        range(1, 48),
        None,
        &[7],
        &count_copy("gm_to_local", "r2"),
    );
    assert_eq!(ub_written(&out, 8), vec![false; 8]);
    assert!(warnings(&out)[0].message.contains("moves 0 bytes"));
}

#[test]
fn a_count_of_48_bytes_writes_one_block_of_gm_and_leaves_the_rest() {
    // UB 101..116 out to a GM output of 16 x -1: 12 floats = 48 bytes, one block (8 floats) reaches GM
    let out = run(
        GmRole::Output,
        vec![-1.0; 16],
        Some(range(101, 116)),
        &[12],
        &count_copy("local_to_gm", "r2"),
    );
    assert_eq!(read_f32(&out.gm[0]), [range(101, 108), vec![-1.0; 8]].concat());
    assert!(warnings(&out)[0].message.contains("drops the last 16 bytes"));
}

#[test]
fn a_count_of_whole_blocks_moves_all_of_them_and_warns_of_nothing() {
    let out = run(
        GmRole::Input,
        range(1, 48),
        None,
        &[24],
        &count_copy("gm_to_local", "r2"),
    );
    assert_eq!(out.ub_f32(0, 24), range(1, 24));
    assert!(out.findings.list.is_empty(), "{:?}", out.findings.list);
}

#[test]
fn params_src_stride_skips_gm_blocks_between_the_ones_it_reads() {
    // 3 blocks of 1 x 32 bytes, a gap of 1 block after each in GM, none in UB: GM floats 1-8, 17-24, 33-40
    let out = run(
        GmRole::Input,
        range(1, 48),
        None,
        &[3, 1, 1, 0],
        &params_copy("gm_to_local", ["r2", "r3", "r4", "r5"]),
    );
    assert_eq!(out.ub_f32(0, 24), [range(1, 8), range(17, 24), range(33, 40)].concat());
    assert_eq!(ub_written(&out, 32), [vec![true; 24], vec![false; 8]].concat());
    assert!(out.findings.list.is_empty(), "{:?}", out.findings.list);
}

#[test]
fn params_dst_stride_leaves_gm_blocks_between_the_ones_it_writes() {
    // UB 101..132: 2 blocks of 2 x 32 bytes (16 floats) each, contiguous in UB, a gap of 1 block after each in GM
    let out = run(
        GmRole::Output,
        vec![-1.0; 48],
        Some(range(101, 132)),
        &[2, 2, 0, 1],
        &params_copy("local_to_gm", ["r2", "r3", "r4", "r5"]),
    );
    let want = [range(101, 116), vec![-1.0; 8], range(117, 132), vec![-1.0; 8]].concat();
    assert_eq!(read_f32(&out.gm[0]), want);
    assert!(out.findings.list.is_empty(), "{:?}", out.findings.list);
}

#[test]
fn params_strides_on_both_sides_move_blocks_from_gap_to_gap() {
    // 2 blocks of 1 x 32 bytes: GM gap 2 blocks, UB gap 1 block. GM floats 1-8 to UB 0-7, GM 25-32 to UB 16-23
    let out = run(
        GmRole::Input,
        range(1, 48),
        None,
        &[2, 1, 2, 1],
        &params_copy("gm_to_local", ["r2", "r3", "r4", "r5"]),
    );
    assert_eq!(out.ub_f32(0, 8), range(1, 8));
    assert_eq!(out.ub_f32(64, 8), range(25, 32));
    assert_eq!(
        ub_written(&out, 24),
        [vec![true; 8], vec![false; 8], vec![true; 8]].concat()
    );
}

#[test]
fn params_with_no_blocks_moves_nothing_and_says_so() {
    let out = run(
        GmRole::Input,
        range(1, 48),
        None,
        &[0, 1, 0, 0],
        &params_copy("gm_to_local", ["r2", "r3", "r4", "r5"]),
    );
    assert_eq!(ub_written(&out, 8), vec![false; 8]);
    let w = warnings(&out);
    assert!(
        w.len() == 1 && w[0].message.contains("blockCount 0 and blockLen 1 moves nothing"),
        "{w:?}"
    );
}
