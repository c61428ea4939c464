//! Loop mode and DataCopyPad's Compact mode, on the pages' definitions (SetLoopModePara.md,
//! GMToUB非对齐数据搬运(DataCopyPad).md).

use crate::checks::Findings;
use crate::memory::GmRole;
use crate::test_rig::{f32_bytes, read_f32, Rig};

/// Runs `code` on one 950 AIV core: GM h0 = x holds 0, 1, ..., 255 (f32), GM h2 = z 256 floats of 0; h1 a
/// UB tensor of 256 floats at byte 0, first filled with -1. Constants: r1 = 0, r2 = 256, r3 = -1.0f32 and
/// `consts` (`(register, type, value)`). Returns UB's floats, z and the findings.
fn run(consts: &[(u32, &str, u64)], code: &str) -> (Vec<f32>, Vec<f32>, Findings) {
    let mut text = String::from(
        "kernel k aiv\nchip 950PR\nmem UB 196608 32\nparam 0 x h0 gm\nparam 1 z h2 gm\nregs 64 32\n\
         stack 0\n",
    );
    text += &format!(
        "const r1 i32 0\nconst r2 i32 256\nconst r3 f32 {}\n",
        (-1.0f32).to_bits()
    );
    for (r, ty, v) in consts {
        text += &format!("const r{r} {ty} {v}\n");
    }
    let out = Rig::new(text)
        .gm(GmRole::Input, f32_bytes((0..256).map(|i| i as f32)))
        .gm(GmRole::Output, vec![0u8; 1024])
        .run(&format!(
            "  h1 = LocalAt.f32 UB r1:i32 r2:i32\n  call Duplicate.count<T=f32> dst=h1 scalarValue=r3:f32 \
             count=r2:i32\n  call PipeBarrier.plain<pipe=PIPE_ALL>\n{code}"
        ));
    (out.ub_f32(0, 256), read_f32(&out.gm[1]), out.findings)
}

/// SetLoopModePara's fields r10..r15 (loop1Size, loop2Size, loop1SrcStride, loop1DstStride, loop2SrcStride,
/// loop2DstStride) on `path`.
fn set(path: &str) -> String {
    format!(
        "  call SetLoopModePara.plain loopParams.loop1Size=r10:i32 loopParams.loop2Size=r11:i32 \
         loopParams.loop1SrcStride=r12:i64 loopParams.loop1DstStride=r13:i64 loopParams.loop2SrcStride=r14:i64 \
         loopParams.loop2DstStride=r15:i64 type=DataCopyMVType::{path}\n"
    )
}

/// DataCopyPad GM -> UB of 2 rows of 3 floats (blockLen r20 = 12 bytes), GM rows 8 floats apart (srcStride r21
/// = 20 bytes), isPad from r23 with value r24 = 9.0f32, in `mode`.
fn gm_to_ub(mode: &str) -> String {
    format!(
        "  call DataCopyPad.ext_gm_to_local<T=f32,mode={mode}> dst=h1 src=h0 dataCopyParams.blockCount=r22:i16 \
         dataCopyParams.blockLen=r20:i32 dataCopyParams.srcStride=r21:i32 dataCopyParams.dstStride=r1:i32 \
         dataCopyParams.rsv=r1:i32 padParams.isPad=r23:i1 padParams.leftPadding=r1:i32 \
         padParams.rightPadding=r1:i32 padParams.paddingValue=r24:f32\n"
    )
}

fn consts(is_pad: u64, loops: [u64; 6]) -> Vec<(u32, &'static str, u64)> {
    let mut c = vec![
        (20, "i32", 12),
        (21, "i32", 20),
        (22, "i16", 2),
        (23, "i1", is_pad),
        (24, "f32", 9.0f32.to_bits() as u64),
    ];
    for (k, (v, ty)) in loops.iter().zip(["i32", "i32", "i64", "i64", "i64", "i64"]).enumerate() {
        c.push((10 + k as u32, ty, *v));
    }
    c
}

#[test]
fn compact_packs_the_rows_and_pads_once_after_them() {
    let (ub, _, f) = run(&consts(1, [1; 6]), &gm_to_ub("Compact"));
    assert!(f.list.is_empty(), "{:?}", f.list);
    // rows 0..3 and 8..11 back to back, then 9.0 up to 32 bytes (24 -> 32: 2 floats)
    assert_eq!(&ub[..9], &[0.0, 1.0, 2.0, 8.0, 9.0, 10.0, 9.0, 9.0, -1.0]);
}

#[test]
fn normal_mode_keeps_each_row_in_its_own_32_bytes() {
    let (ub, _, f) = run(&consts(1, [1; 6]), &gm_to_ub("Normal"));
    assert!(f.list.is_empty(), "{:?}", f.list);
    assert_eq!(&ub[..3], &[0.0, 1.0, 2.0]);
    assert_eq!(&ub[8..11], &[8.0, 9.0, 10.0]);
}

#[test]
fn loop_mode_repeats_the_copy_at_its_strides_until_reset() {
    // inner loop 3 times (GM + 16 floats, UB + 8 floats), outer 2 times (GM + 64 floats, UB + 32 floats)
    let code = set("OUT_TO_UB")
        + &gm_to_ub("Compact")
        + "  call ResetLoopModePara.plain type=DataCopyMVType::OUT_TO_UB\n"
        + "  call PipeBarrier.plain<pipe=PIPE_ALL>\n"
        + &gm_to_ub("Compact").replace("dst=h1", "dst=h3");
    let code = format!("  h3 = LocalAt.f32 UB r25:i32 r26:i32\n{code}");
    let mut c = consts(1, [3, 2, 64, 32, 256, 128]);
    c.extend([(25, "i32", 768), (26, "i32", 8)]);
    let (ub, _, f) = run(&c, &code);
    assert!(f.list.is_empty(), "{:?}", f.list);
    for o in 0..2 {
        for i in 0..3 {
            let (s, d) = (o * 64 + i * 16, o * 32 + i * 8);
            let want = [s, s + 1, s + 2, s + 8, s + 9, s + 10].map(|v| v as f32);
            assert_eq!(&ub[d..d + 6], &want, "iteration ({o}, {i})");
        }
    }
    assert_eq!(ub[88], -1.0, "nothing past the last iteration");
}

#[test]
fn the_ub_to_gm_path_has_its_own_loop_mode() {
    // GM -> UB left normal; UB -> GM repeats a 4-float row twice (UB + 32 bytes, GM + 64 bytes)
    let copy_out = "  call DataCopyPad.ext_local_to_gm<T=f32,mode=Normal> dst=h2 src=h1 \
                    dataCopyParams.blockCount=r22:i16 dataCopyParams.blockLen=r27:i32 dataCopyParams.srcStride=r1:i32 \
                    dataCopyParams.dstStride=r1:i32 dataCopyParams.rsv=r1:i32\n";
    let code = set("UB_TO_OUT") + &gm_to_ub("Normal") + "  call PipeBarrier.plain<pipe=PIPE_ALL>\n" + copy_out;
    let mut c = consts(1, [2, 1, 32, 64, 0, 0]);
    c[2] = (22, "i16", 1);
    c.push((27, "i32", 16));
    let (_, z, f) = run(&c, &code);
    assert!(f.list.is_empty(), "{:?}", f.list);
    // UB row 0 = 0, 1, 2 (then the block's dummy data); UB row 1 (+ 8 floats) still -1 (nothing loaded there)
    assert_eq!(&z[..3], &[0.0, 1.0, 2.0]);
    assert_eq!(&z[16..20], &[-1.0; 4]);
    assert_eq!(&z[4..16], &[0.0; 12], "only the two rows are written");
}
