//! The NDDMA DataCopy on the asc-devkit page's own scenarios (transpose, broadcast, constant and nearest-value
//! padding), each checked element by element against the page's definition.

use crate::checks::Findings;
use crate::memory::GmRole;
use crate::test_rig::{f32_bytes, Rig};

/// Runs one 2-dimensional NDDMA copy of f32 from GM x = 0, 1, 2, ... (`n` floats) into UB (byte 0, 256
/// floats, first set to -7), with the loop arrays on the stack (`[dim0, dim1]` each) and `config`. Returns the
/// UB floats and the findings.
#[allow(clippy::type_complexity)]
fn run(n: usize, arrays: [[u64; 2]; 5], pad_value: f32, config: &str) -> (Vec<f32>, Findings) {
    // stack: loopSrcStride u64[5] at 0, loopDstStride u32[5] at 40, loopSize u32[5] at 64, Lp u8[5] at 88,
    // Rp u8[5] at 96
    let mut text = String::from("kernel k aiv\nchip 950PR\nmem UB 196608 32\nparam 0 x h0 gm\nregs 64 32\nstack 104\n");
    text += &format!(
        "const r1 i32 0\nconst r2 i32 256\nconst r3 f32 {}\nconst r4 f32 {}\n",
        pad_value.to_bits(),
        (-7.0f32).to_bits()
    );
    let mut code = String::from("  h1 = LocalAt.f32 UB r1:i32 r2:i32\n");
    code += "  call Duplicate.count<T=f32> dst=h1 scalarValue=r4:f32 count=r2:i32\n";
    code += "  call PipeBarrier.plain<pipe=PIPE_ALL>\n";
    let mut next = 5;
    for (col, (base, ty)) in arrays
        .iter()
        .zip([(0, "i64"), (40, "i32"), (64, "i32"), (88, "i8"), (96, "i8")])
    {
        for (k, v) in col.iter().enumerate() {
            text += &format!("const r{next} {ty} {v}\nconst r{} i64 {k}\n", next + 1);
            code += &format!("  st.stack.{ty} s{base}:5:{ty} r{}:i64 r{next}:{ty}\n", next + 1);
            next += 2;
        }
    }
    code += &format!(
        "  call DataCopy.nddma_gm_to_local<T=f32,dim=2{config}> dst=h1 src=h0 params.constantValue=r3:f32 \
         params.loopInfo.loopSrcStride=s0:5:i64 params.loopInfo.loopDstStride=s40:5:i32 \
         params.loopInfo.loopSize=s64:5:i32 params.loopInfo.loopLpSize=s88:5:i8 \
         params.loopInfo.loopRpSize=s96:5:i8\n"
    );
    let out = Rig::new(text)
        .gm(GmRole::Input, f32_bytes((0..n).map(|i| i as f32)))
        .run(&code);
    (out.ub_f32(0, 256), out.findings)
}

#[test]
fn transpose_puts_column_c_of_row_r_at_c_times_rows_plus_r() {
    // GM 4 x 8 (row stride 8), read 8 columns by 4 rows, UB 8 x 4: dst stride 4 for dim 0, 1 for dim 1
    let (ub, f) = run(32, [[1, 8], [4, 1], [8, 4], [0, 0], [0, 0]], 0.0, "");
    assert!(f.list.is_empty(), "{:?}", f.list);
    for r in 0..4 {
        for c in 0..8 {
            assert_eq!(ub[c * 4 + r], (r * 8 + c) as f32);
        }
    }
    assert_eq!(ub[32], -7.0, "nothing past the 32 destination elements");
}

#[test]
fn a_zero_source_stride_broadcasts_a_row() {
    // the page's broadcast: one row of 16 read 3 times (src stride 0 for dim 1)
    let (ub, f) = run(16, [[1, 0], [1, 16], [16, 3], [0, 0], [0, 0]], 0.0, "");
    assert!(f.list.is_empty(), "{:?}", f.list);
    for r in 0..3 {
        for c in 0..16 {
            assert_eq!(ub[r * 16 + c], c as f32);
        }
    }
}

#[test]
fn constant_padding_surrounds_the_data() {
    // 3 x 2 data from GM (row stride 4), 1 left / 2 right columns and 1 top / 1 bottom row of padding:
    // UB rows of 6 (1 + 3 + 2), 4 rows (1 + 2 + 1)
    let (ub, f) = run(8, [[1, 4], [1, 6], [3, 2], [1, 1], [2, 1]], 9.5, "");
    assert!(f.list.is_empty(), "{:?}", f.list);
    for r in 0..4 {
        for c in 0..6 {
            let inside = (1..3).contains(&r) && (1..4).contains(&c);
            let want = if inside { ((r - 1) * 4 + (c - 1)) as f32 } else { 9.5 };
            assert_eq!(ub[r * 6 + c], want, "row {r} column {c}");
        }
    }
    assert_eq!(ub[24], -7.0);
}

#[test]
fn nearest_value_padding_repeats_the_edge_of_each_dimension() {
    let (ub, f) = run(
        8,
        [[1, 4], [1, 6], [3, 2], [1, 1], [2, 1]],
        9.5,
        ",config=NdDmaConfig:_0=1",
    );
    assert!(f.list.is_empty(), "{:?}", f.list);
    for r in 0..4 {
        for c in 0..6 {
            let (sr, sc) = ((r as i64 - 1).clamp(0, 1), (c as i64 - 1).clamp(0, 2));
            assert_eq!(ub[r * 6 + c], (sr * 4 + sc) as f32, "row {r} column {c}");
        }
    }
}

#[test]
fn a_config_padding_replaces_every_dimensions() {
    // config loopLpSize = 0, loopRpSize = 1 over arrays that say 1 / 2: each dimension gets 0 left, 1 right
    let (ub, f) = run(
        8,
        [[1, 4], [1, 4], [3, 2], [1, 1], [2, 1]],
        0.0,
        ",config=NdDmaConfig:_0=0:_1=0:_2=1",
    );
    assert!(f.list.is_empty(), "{:?}", f.list);
    assert_eq!(&ub[..12], &[0.0, 1.0, 2.0, 0.0, 4.0, 5.0, 6.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
}

#[test]
fn a_read_past_gm_is_out_of_bounds() {
    let (_, f) = run(8, [[1, 8], [1, 8], [8, 2], [0, 0], [0, 0]], 0.0, "");
    assert!(f.list.iter().any(|d| d.code == "ASC950"), "{:?}", f.list);
}
