//! Load3Dv2 (img2col) against values computed by hand: a 3 x 3 filter with stride 2 and padding 1, dilation
//! 2, half and float, a window from (mStartPt, kStartPt), the transposing load into L0B, the FMATRIX and
//! padding registers, and the forms that are reported instead of run.
//!
//! The feature maps hold value(h, w, c) = h * W + w + 100 c (exact in half), laid out 5HD [C1][H][W][C0].

use crate::cube::load3d::{Img2col, Layout};
use crate::cube::tests::{f16_bytes, f32_bytes, read_f16, read_f32, Out, Rig};
use crate::memory::MemKind;

/// One Load3Dv2 call's parameters.
#[derive(Clone)]
struct P {
    t: &'static str,
    dst: &'static str,
    c: u64,
    h: u64,
    w: u64,
    pad: [u64; 4],
    stride: u64,
    filter: u64,
    dil: u64,
    m_ext: u64,
    k_ext: u64,
    m_start: u64,
    k_start: u64,
    transpose: u64,
    pad_value: i64,
    /// SetLoadDataBoundary's argument, in r29
    boundary: u64,
    /// enSmallK, in r17
    small_k: u64,
}

fn p(t: &'static str) -> P {
    P {
        t,
        dst: "L0A",
        c: if t == "f16" { 16 } else { 8 },
        h: 4,
        w: 4,
        pad: [1, 1, 1, 1],
        stride: 2,
        filter: 3,
        dil: 1,
        m_ext: 16,
        k_ext: 0,
        m_start: 0,
        k_start: 0,
        transpose: 0,
        pad_value: 0,
        boundary: 0,
        small_k: 0,
    }
}

/// The 5HD map of `p`'s shape with value(h, w, c) = h * W + w + 100 c.
fn fmap(p: &P) -> Vec<f32> {
    let c0 = match p.t {
        "f16" => 16,
        "i8" => 32,
        _ => 8,
    };
    let mut out = Vec::new();
    for c1 in 0..p.c / c0 {
        for h in 0..p.h {
            for w in 0..p.w {
                for c in 0..c0 {
                    out.push((h * p.w + w + 100 * (c1 * c0 + c)) as f32);
                }
            }
        }
    }
    out
}

fn value(p: &P, h: u64, w: u64, c: u64) -> f32 {
    (h * p.w + w + 100 * c) as f32
}

/// Runs `extra` (instructions before the load, e.g. SetFmatrix) and the load; the finding codes and output.
fn run(p: &P, extra: &str, fm_ctrl: u64) -> Out {
    run_load(p, extra, fm_ctrl, None)
}

/// `run` with the load written as `call` (a LoadData.3dv2pro line over the same registers) when given.
fn run_load(p: &P, extra: &str, fm_ctrl: u64, call: Option<&str>) -> Out {
    let map = fmap(p);
    let bytes = match p.t {
        "f16" => f16_bytes(&map),
        "i8" => map.iter().map(|v| *v as i64 as u8).collect(),
        _ => f32_bytes(&map),
    };
    let elems = map.len() as u64;
    let consts: Vec<(u32, &str, u64)> = vec![
        (0, "i32", 0),
        (1, "i32", elems),
        (2, "i32", 8192),
        (3, "i16", p.h),
        (4, "i16", p.w),
        (5, "i16", p.c),
        (6, "i16", p.k_ext),
        (7, "i16", p.m_ext),
        (8, "i16", p.k_start),
        (9, "i16", p.m_start),
        (10, "i8", p.stride),
        (11, "i8", p.filter),
        (12, "i8", p.dil),
        (13, "i1", p.transpose),
        (14, "i1", 0),
        (15, "i64", p.pad_value as u64),
        (16, "i1", fm_ctrl),
        (17, "i1", p.small_k),
        (20, "i32", p.pad[0]),
        (21, "i32", p.pad[1]),
        (22, "i32", p.pad[2]),
        (23, "i32", p.pad[3]),
        (24, "i32", 1),
        (25, "i32", 2),
        (26, "i32", 3),
        (29, "i32", p.boundary),
        (
            27,
            "i64",
            p.k_ext | (p.m_ext << 16) | (p.k_start << 32) | (p.m_start << 48),
        ),
        (
            28,
            "i64",
            p.stride | (p.stride << 8) | (p.filter << 16) | (p.filter << 24) | (p.dil << 32) | (p.dil << 40),
        ),
    ];
    let t = p.t;
    let mut code = format!(
        "  h0 = LocalAt.{t} L1 r0:i32 r1:i32\n  h1 = LocalAt.{t} {dst} r0:i32 r2:i32\n  \
         st.stack.i8 s0:4:i8 r0 r20\n  st.stack.i8 s0:4:i8 r24 r21\n  st.stack.i8 s0:4:i8 r25 r22\n  \
         st.stack.i8 s0:4:i8 r26 r23\n{extra}  \
         call LoadData.3dv2<T={t}> dst=h1 src=h0 loadDataParams.padList=s0:4:i8 loadDataParams.l1H=r3:i16 \
         loadDataParams.l1W=r4:i16 loadDataParams.channelSize=r5:i16 loadDataParams.kExtension=r6:i16 \
         loadDataParams.mExtension=r7:i16 loadDataParams.kStartPt=r8:i16 loadDataParams.mStartPt=r9:i16 \
         loadDataParams.strideW=r10:i8 loadDataParams.strideH=r10:i8 loadDataParams.filterW=r11:i8 \
         loadDataParams.filterH=r11:i8 loadDataParams.dilationFilterW=r12:i8 loadDataParams.dilationFilterH=r12:i8 \
         loadDataParams.enTranspose=r13:i1 loadDataParams.enSmallK=r17:i1 loadDataParams.padValue=r15:i64 \
         loadDataParams.filterSizeW=r14:i1 loadDataParams.filterSizeH=r14:i1 loadDataParams.fMatrixCtrl=r16:i1",
        dst = p.dst
    );
    if let Some(call) = call {
        code = code[..code.find("call LoadData.3dv2").unwrap()].to_string() + call;
    }
    Rig::new("aic").fill(MemKind::L1, 0, bytes).run(&consts, &code)
}

fn dst_values(out: &Out, p: &P) -> Vec<f32> {
    let m = if p.dst == "L0A" { MemKind::L0a } else { MemKind::L0b };
    if p.t == "f16" {
        read_f16(&out.mem(m)[..16384])
    } else {
        read_f32(&out.mem(m)[..16384])
    }
}

#[test]
fn img2col_source_positions_by_hand() {
    // 4 x 4 map, 3 x 3 filter, stride 2, padding 1: Wo = (4 + 2 - 3) / 2 + 1 = 2
    let g = Img2col {
        fm: crate::cube::load3d::Fmatrix {
            h: 4,
            w: 4,
            pad: [1, 1, 1, 1],
        },
        channels: 16,
        c0: 16,
        stride: (2, 2),
        filter: (3, 3),
        dilation: (1, 1),
    };
    assert_eq!(g.wo(), Some(2));
    // m 0 (oh 0, ow 0), kh 0, kw 0: input (-1, -1), padding
    assert_eq!(g.source(2, 0, 0), None);
    // m 0, kh 1, kw 1, c 3 (k = (1 * 3 + 1) * 16 + 3 = 67): input (0, 0), channel 3
    assert_eq!(g.source(2, 0, 67), Some(3));
    // m 3 (oh 1, ow 1), kh 2, kw 2, c 5 (k = 133): input (1 * 2 + 2 - 1, 3) = (3, 3)
    assert_eq!(g.source(2, 3, 133), Some((3 * 4 + 3) * 16 + 5));
    // dilation 2 on a 5 x 5 map without padding: one position, (kh, kw) reads (2 kh, 2 kw)
    let d = Img2col {
        fm: crate::cube::load3d::Fmatrix {
            h: 5,
            w: 5,
            pad: [0; 4],
        },
        dilation: (2, 2),
        stride: (1, 1),
        channels: 8,
        c0: 8,
        ..g
    };
    assert_eq!(d.wo(), Some(1));
    assert_eq!(d.source(1, 0, (3 + 2) * 8 + 3), Some((2 * 5 + 4) * 8 + 3));
    // the destination layouts: L0A ZZ with 9 fractals a row; B = X in L0B's ZN
    assert_eq!(Layout::AZz { k1: 9 }.index(3, 133, 16), 8 * 256 + 3 * 16 + 5);
    assert_eq!(Layout::BZn { n1: 2 }.index(2, 21, 16), 256 + 5 * 16 + 2);
    assert_eq!(Layout::ATransposed { k1: 1 }.index(5, 2, 16), 2 * 16 + 5);
}

#[test]
fn half_3x3_stride_2_padding_1_into_l0a() {
    let mut q = p("f16");
    q.k_ext = 144;
    q.pad_value = 0xBC00; // half -1.0: the register holds the bits... of an integer; see below
    let out = run(&q, "", 0);
    assert!(out.codes().is_empty(), "{:?}", out.findings.list);
    let l0a = dst_values(&out, &q);
    // padding positions hold padValue converted to half (the i64 register 0xBC00 = 48128 as a number)
    assert_eq!(l0a[0], 48128.0);
    // (m 0, k 67) -> input (0, 0) channel 3; ZZ index (0 * 9 + 4) * 256 + 0 * 16 + 3
    assert_eq!(l0a[4 * 256 + 3], value(&q, 0, 0, 3));
    // (m 3, k 133) -> input (3, 3) channel 5
    assert_eq!(l0a[8 * 256 + 3 * 16 + 5], value(&q, 3, 3, 5));
    // (m 1 = (oh 0, ow 1), k (kh 0, kw 2, c 0) = 32): input (-1, 3): padding at the top
    assert_eq!(l0a[2 * 256 + 16], 48128.0);
    // (m 2 = (oh 1, ow 0), k (kh 1, kw 0, c 7) = 55): input (2, -1): padding on the left
    assert_eq!(l0a[3 * 256 + 2 * 16 + 7], 48128.0);
}

#[test]
fn float_dilation_2_into_l0a() {
    let mut q = p("f32");
    q.h = 5;
    q.w = 5;
    q.pad = [0; 4];
    q.stride = 1;
    q.dil = 2;
    q.k_ext = 72;
    let out = run(&q, "", 0);
    assert!(out.codes().is_empty(), "{:?}", out.findings.list);
    let l0a = dst_values(&out, &q);
    // one position; (kh, kw, c) = (1, 2, 3) at k 43 reads input (2, 4) channel 3; ZZ index 5 * 128 + 3
    assert_eq!(l0a[5 * 128 + 3], value(&q, 2, 4, 3));
    // (kh, kw, c) = (0, 0, 7) reads (0, 0) channel 7
    assert_eq!(l0a[7], value(&q, 0, 0, 7));
}

#[test]
fn half_dilation_2_with_padding() {
    let mut q = p("f16");
    q.h = 6;
    q.w = 6;
    q.stride = 1;
    q.dil = 2;
    q.k_ext = 144;
    let out = run(&q, "", 0);
    assert!(out.codes().is_empty(), "{:?}", out.findings.list);
    let l0a = dst_values(&out, &q);
    // Wo = (6 + 2 - 5) / 1 + 1 = 4; m 5 = (oh 1, ow 1); (kh 2, kw 1, c 9): k (2 * 3 + 1) * 16 + 9 = 121
    // reads input (1 + 4 - 1, 1 + 2 - 1) = (4, 2)
    assert_eq!(l0a[7 * 256 + 5 * 16 + 9], value(&q, 4, 2, 9));
    // m 0, (kh 0, kw 0): input (-1, -1), padding 0
    assert_eq!(l0a[0], 0.0);
}

#[test]
fn a_window_from_m_start_and_k_start() {
    // 8 x 8 map, stride 1, padding 1: Wo = 8; the window rows 16..31, columns 16..47 (kw 1 and 2 of kh 0)
    let mut q = p("f16");
    q.h = 8;
    q.w = 8;
    q.stride = 1;
    q.m_start = 16;
    q.k_start = 16;
    q.k_ext = 32;
    let out = run(&q, "", 0);
    assert!(out.codes().is_empty(), "{:?}", out.findings.list);
    let l0a = dst_values(&out, &q);
    // window (1, 0) = X[17][16]: (oh 2, ow 1), (kh 0, kw 1, c 0) -> input (1, 1)
    assert_eq!(l0a[16], value(&q, 1, 1, 0));
    // window (15, 31) = X[31][47]: (oh 3, ow 7), (kh 0, kw 2, c 15) -> input (2, 8): right padding
    assert_eq!(l0a[256 + 15 * 16 + 15], 0.0);
    // window (15, 20) = X[31][36]: (kh 0, kw 2, c 4) -> input (2, 8)? no: kw 2 -> iw 7 + 2 - 1 = 8: padding;
    // window (14, 20) = X[30][36]: (oh 3, ow 6) -> input (2, 7) channel 4
    assert_eq!(l0a[256 + 14 * 16 + 4], value(&q, 2, 7, 4));
}

#[test]
fn a_load_into_l0b_is_b_equal_to_the_window_with_or_without_en_transpose() {
    for transpose in [1, 0] {
        load_into_l0b(transpose);
    }
}

fn load_into_l0b(transpose: u64) {
    // a 1 x 32 map of 32 channels with a 1 x 1 filter: X[m][k] = value(0, m, k); B = X in L0B's ZN
    let mut q = p("f16");
    q.dst = "L0B";
    q.h = 1;
    q.w = 32;
    q.c = 32;
    q.pad = [0; 4];
    q.stride = 1;
    q.filter = 1;
    q.m_ext = 32;
    q.k_ext = 32;
    q.transpose = transpose;
    let out = run(&q, "", 0);
    assert!(out.codes().is_empty(), "{:?}", out.findings.list);
    let l0b = dst_values(&out, &q);
    for (m, k) in [(2, 5), (17, 3), (20, 30)] {
        // B(p = m, j = k) at ((m / 16) * 2 + k / 16) * 256 + (k % 16) * 16 + m % 16
        let at = ((m / 16) * 2 + k / 16) * 256 + (k % 16) * 16 + m % 16;
        assert_eq!(
            l0b[at as usize],
            value(&q, 0, m, k),
            "B({m}, {k}), enTranspose {transpose}"
        );
    }
}

#[test]
fn the_right_fmatrix_register_and_the_padding_value() {
    // fMatrixCtrl reads the right register: unset, a finding; set with SetFmatrix(..., FMATRIX_RIGHT), it is
    // used instead of the params' l1H / l1W / padList (here no padding: (m 0, kh 0, kw 0) reads (0, 0))
    let mut q = p("f16");
    q.k_ext = 144;
    assert_eq!(run(&q, "", 1).codes(), vec!["ASC959"]);
    let set = "  call SetFmatrix.plain l1H=r3:i16 l1W=r4:i16 padList=s4:4:i8 fmatrixMode=FmatrixMode::FMATRIX_RIGHT\n";
    let out = run(&q, set, 1);
    assert!(out.codes().is_empty(), "{:?}", out.findings.list);
    let l0a = dst_values(&out, &q);
    // Wo = (4 - 3) / 2 + 1 = 1 without padding: m 0 (kh 0, kw 0, c 2) -> (0, 0) channel 2
    assert_eq!(l0a[2], value(&q, 0, 0, 2));
    // m 1 = (oh 1, ow 0), (kh 2, kw 2, c 1): input (4, 2), below the map: padding 0
    assert_eq!(l0a[8 * 256 + 16 + 1], 0.0);
}

#[test]
fn unmodelled_and_invalid_forms_are_reported() {
    let mut q = p("i8");
    q.c = 32;
    q.k_ext = 288;
    assert!(run(&q, "", 0).codes().is_empty()); // int8 into L0A
    q.dst = "L0B";
    assert_eq!(run(&q, "", 0).codes(), vec!["ASC959"]); // int8 into L0B: not on the 910B (dav_c220)
    q.dst = "L0A";
    q.transpose = 1;
    q.m_ext = 16;
    assert_eq!(run(&q, "", 0).codes(), vec!["ASC959"]); // int8 A = X^T: 32 x 32 squares, mExtension 16
    let mut r = p("f16");
    r.k_ext = 150; // not whole C0 columns
    assert_eq!(run(&r, "", 0).codes(), vec!["ASC959"]);
    let mut s = p("f16");
    s.k_ext = 160; // 144 columns in all
    assert_eq!(run(&s, "", 0).codes(), vec!["ASC959"]);
    let v1 = Rig::new("aic").run(
        &[(0, "i32", 0), (1, "i32", 256)],
        "  h0 = LocalAt.f16 L1 r0:i32 r1:i32\n  h1 = LocalAt.f16 L0A r0:i32 r1:i32\n  \
         call LoadData.3dv1<T=f16> dst=h1 src=h0",
    );
    assert_eq!(v1.codes(), vec!["ASC958"]);
}

#[test]
fn a_boundary_under_1024_bytes_is_reported() {
    let mut q = p("f16");
    q.k_ext = 144;
    // repeatTime 1 (the default) and boundary 0: the load runs
    let plain = "  call SetLoadDataRepeat.plain repeatParams.repeatStride=r0:i32 repeatParams.repeatTime=r24:i32 \
                 repeatParams.repeatMode=r0:i32\n  call SetLoadDataBoundary.plain boundaryValue=r0:i32\n";
    assert!(run(&q, plain, 0).codes().is_empty());
    // a boundary of 3 bytes: under a Load3Dv2's minimum of 1024
    let boundary = "  call SetLoadDataBoundary.plain boundaryValue=r26:i32\n";
    assert_eq!(run(&q, boundary, 0).codes(), vec!["ASC959"]);
}

/// SetLoadDataRepeat(repeatTime r26 = 3, repeatStride r25 = 2, repeatMode `mode`) before the load.
fn repeat(mode: &str) -> String {
    format!(
        "  call SetLoadDataRepeat.plain repeatParams.repeatStride=r25:i32 repeatParams.repeatTime=r26:i32 \
         repeatParams.repeatMode={mode}:i32\n"
    )
}

#[test]
fn repeats_along_the_height_load_windows_32_rows_apart_one_after_another() {
    // a 1 x 64 half map of 16 channels, 1 x 1 filter: X[m][k] = value(0, m, k) = m + 100 k; a 16 x 16 window,
    // repeatTime 3, repeatStride 2 (32 rows: 2 x 16 elements along the height): iteration r reads rows
    // 32 r .. 32 r + 15 and lands r fractals (256 elements) on; rows 64.. are past the map: padding (0)
    let mut q = p("f16");
    q.h = 1;
    q.w = 64;
    q.pad = [0; 4];
    q.stride = 1;
    q.filter = 1;
    q.m_ext = 16;
    q.k_ext = 16;
    for dst in ["L0A", "L0B"] {
        q.dst = dst;
        let out = run(&q, &repeat("r0"), 0);
        assert!(out.codes().is_empty(), "{dst}: {:?}", out.findings.list);
        let v = dst_values(&out, &q);
        // L0A ZZ: X-window (i, j) at i * 16 + j; L0B ZN (B's K the window's rows): at j * 16 + i
        let at = |r: usize, i: usize, j: usize| r * 256 + if dst == "L0A" { i * 16 + j } else { j * 16 + i };
        // X[3][2], X[37][3], X[47][15], X[64][0] (padding)
        assert_eq!(v[at(0, 3, 2)], 203.0, "{dst}");
        assert_eq!(v[at(1, 5, 3)], 337.0, "{dst}");
        assert_eq!(v[at(1, 15, 15)], 1547.0, "{dst}");
        assert_eq!(v[at(2, 0, 0)], 0.0, "{dst}");
        // without the repeat, the second fractal is not written (the memory's zeros)
        let once = dst_values(&run(&q, "", 0), &q);
        assert_eq!(once[at(1, 5, 3)], 0.0, "{dst}");
        assert_eq!(once[..256], v[..256], "{dst}");
    }
}

#[test]
fn repeats_along_the_width_or_into_a_transposed_l0a_are_reported() {
    let mut q = p("f16");
    q.k_ext = 144;
    assert_eq!(run(&q, &repeat("r24"), 0).codes(), vec!["ASC958"]); // repeatMode 1
    q.transpose = 1;
    q.k_ext = 16;
    assert_eq!(run(&q, &repeat("r0"), 0).codes(), vec!["ASC958"]); // A = X^T
}

/// The V2Pro form of `p`'s load (extConfig r27, filterConfig r28, fMatrixCtrl r16), after SetFmatrix and
/// SetLoadDataPaddingValue set what V2's call would have set itself.
fn pro_call(p: &P) -> String {
    let t = p.t;
    format!(
        "call SetFmatrix.plain l1H=r3:i16 l1W=r4:i16 padList=s0:4:i8 fmatrixMode=FmatrixMode::FMATRIX_LEFT\n  \
         call SetLoadDataPaddingValue.plain padValue=r15:i64\n  \
         call LoadData.3dv2pro<T={t}> dst=h1 src=h0 loadDataParams.channelSize=r5:i16 \
         loadDataParams.extConfig=r27:i64 loadDataParams.filterConfig=r28:i64 loadDataParams.enTranspose=r13:i1 \
         loadDataParams.enSmallK=r17:i1 loadDataParams.fMatrixCtrl=r16:i1"
    )
}

#[test]
fn the_v2pro_form_loads_what_v2_loads() {
    // the 3 x 3 stride 2 padding 1 half case, and a window from (mStartPt 16, kStartPt 48) with dilation 2 in float
    let mut q = p("f16");
    q.k_ext = 144;
    let mut r = p("f32");
    r.h = 6;
    r.w = 9;
    r.c = 16;
    r.dil = 2;
    r.stride = 1;
    r.m_ext = 16;
    r.k_ext = 40;
    r.m_start = 16;
    r.k_start = 48;
    for case in [q, r] {
        let v2 = run(&case, "", 0);
        let pro = run_load(&case, "", 0, Some(&pro_call(&case)));
        assert!(
            v2.codes().is_empty() && pro.codes().is_empty(),
            "{:?}",
            pro.findings.list
        );
        assert_eq!(dst_values(&v2, &case), dst_values(&pro, &case));
    }
}

#[test]
fn a_load_past_the_l1_boundary_goes_on_from_l1_byte_0() {
    // a 1 x 64 half map of 16 channels (2048 bytes) with the boundary at 1024: X[m][c] for m >= 32 reads the bytes
    // of m - 32, as SetLoadDataBoundary's page says (Load3Dv2: in bytes, at least 1024)
    let mut q = p("f16");
    q.h = 1;
    q.w = 64;
    q.pad = [0; 4];
    q.stride = 1;
    q.filter = 1;
    q.m_ext = 64;
    q.k_ext = 16;
    let set = "  call SetLoadDataBoundary.plain boundaryValue=r29:i32\n";
    let plain = run(&q, "", 0);
    assert!(plain.codes().is_empty());
    q.boundary = 1024;
    let wrapped = run(&q, set, 0);
    assert!(wrapped.codes().is_empty(), "{:?}", wrapped.findings.list);
    let (a, b) = (dst_values(&plain, &q), dst_values(&wrapped, &q));
    // L0A ZZ with one fractal per 16 rows: rows 0..32 alike, rows 32..64 those of 0..32
    assert_eq!(a[..512], b[..512]);
    assert_eq!(a[..512], b[512..1024]);
    assert_ne!(a[512..1024], b[512..1024]);
    // under 1024 bytes, the boundary is reported
    q.boundary = 512;
    assert_eq!(run(&q, set, 0).codes(), vec!["ASC959"]);
}

#[test]
fn reset_configs_from_the_program() {
    assert_eq!(crate::cube::load3d::reset_config(None), Ok((true, true)));
    assert_eq!(
        crate::cube::load3d::reset_config(Some("IS_RESER_LOAD3D_DEFAULT_CONFIG")),
        Ok((true, true))
    );
    assert_eq!(
        crate::cube::load3d::reset_config(Some("IsResetLoad3dConfig:_0=0:_1=1")),
        Ok((false, true))
    );
    assert_eq!(
        crate::cube::load3d::reset_config(Some("IsResetLoad3dConfig:isSetFMatrix=1:isSetPadding=0")),
        Ok((true, false))
    );
    assert!(crate::cube::load3d::reset_config(Some("MY_CONFIG")).is_err());
}

/// The int8 bytes of value(h, w, c), as the map holds them (wrapped to 8 bits).
fn byte(p: &P, h: u64, w: u64, c: u64) -> u8 {
    value(p, h, w, c) as i64 as u8
}

#[test]
fn int8_a_equal_to_the_window_transposed_by_32_x_32_squares() {
    // a 1 x 48 map of 64 int8 channels (C1 2), 1 x 1 filter: X[m][k] = value(0, m, k); the window's 32 rows from
    // mStartPt 16 by its 64 columns, transposed: A = X^T is 64 x 32 (M the channels, K the positions) in L0A's
    // ZZ of 16 x 32 fractals, one fractal a row of fractals: A[r][c] at (r / 16) * 512 + (r % 16) * 32 + c
    let mut q = p("i8");
    q.h = 1;
    q.w = 48;
    q.c = 64;
    q.pad = [0; 4];
    q.stride = 1;
    q.filter = 1;
    q.m_ext = 32;
    q.k_ext = 64;
    q.m_start = 16;
    q.transpose = 1;
    let out = run(&q, "", 0);
    assert!(out.codes().is_empty(), "{:?}", out.findings.list);
    let l0a = out.mem(MemKind::L0a);
    for (r, c) in [(0u64, 0u64), (37, 5), (63, 31), (16, 20), (40, 0)] {
        let at = ((r / 16) * 512 + (r % 16) * 32 + c) as usize;
        // A[r][c] = X[c][r] = the map at position 16 + c, channel r (channel 37 is c1 1, c0 5)
        assert_eq!(l0a[at], byte(&q, 0, 16 + c, r), "A[{r}][{c}]");
    }
    // A[37][5] by hand: value(0, 21, 37) = 21 + 3700 = 3721 = 14 * 256 + 137
    assert_eq!(l0a[2 * 512 + 5 * 32 + 5], 137);
    // two rows of fractals per 32 channels: K 64 would put (r 0, c 32) in the second fractal of the row; with
    // K 32 the fractal after the first is row 16's
    assert_eq!(l0a[512], byte(&q, 0, 16, 16));
}

#[test]
fn en_small_k_loads_what_the_plain_load_loads() {
    // the 910B's implementation does not pass enSmallK to the instruction (dav_c220 kernel_operator_mm_impl.h),
    // so the load with it set is the plain load, in V2 and V2Pro (before: ASC958)
    let mut q = p("f16");
    q.k_ext = 144;
    let plain = run(&q, "", 0);
    q.small_k = 1;
    let small = run(&q, "", 0);
    let pro = run_load(&q, "", 0, Some(&pro_call(&q)));
    for out in [&plain, &small, &pro] {
        assert!(out.codes().is_empty(), "{:?}", out.findings.list);
    }
    assert_eq!(dst_values(&plain, &q), dst_values(&small, &q));
    assert_eq!(dst_values(&plain, &q), dst_values(&pro, &q));
}

#[test]
fn the_library_internal_setters_set_what_the_public_ones_set() {
    // Load3DSetFMatrixCal / Load3DSetPaddingCal before a V2Pro load, as vendor kernels call them: the same load as
    // after SetFmatrix(..., FMATRIX_LEFT) and SetLoadDataPaddingValue; Load3DSetFMatrixBCal fills the right
    // register, which fMatrixCtrl reads
    let mut q = p("f16");
    q.k_ext = 144;
    q.pad_value = 7;
    let public = run_load(&q, "", 0, Some(&pro_call(&q)));
    let internal = pro_call(&q)
        .replace(
            "SetFmatrix.plain l1H=r3:i16 l1W=r4:i16 padList=s0:4:i8 fmatrixMode=FmatrixMode::FMATRIX_LEFT",
            "Load3DSetFMatrixCal.plain l1H=r3:i16 l1W=r4:i16 padList=s0:4:i8",
        )
        .replace("SetLoadDataPaddingValue.plain", "Load3DSetPaddingCal.plain");
    let via_cal = run_load(&q, "", 0, Some(&internal));
    let right = internal.replace("Load3DSetFMatrixCal", "Load3DSetFMatrixBCal");
    let via_right = run_load(&q, "", 1, Some(&right));
    for out in [&public, &via_cal, &via_right] {
        assert!(out.codes().is_empty(), "{:?}", out.findings.list);
    }
    let want = dst_values(&public, &q);
    // (m 0, k 0) is padding: the padding value, the bits 7 of an int given without T (half 7 * 2^-24)
    assert_eq!(want[0], 7.0 * (2.0f32).powi(-24));
    assert_eq!(dst_values(&via_cal, &q), want);
    assert_eq!(dst_values(&via_right, &q), want);
}
