//! The Matmul object against a row-major reference: IterateAll and Iterate / GetTensorC, transposed operands,
//! tails, half output, partial sums into a CO1 tensor, a missing tiling, out-of-range matrices, and a MIX
//! block's AIC serving both of its AIVs.

use half::f16;

use crate::cube::tests::{f16_bytes, f32_bytes, lcg, read_f16, read_f32, reference, Rig};
use crate::memory::{GmRole, MemKind};

// ---------------------------------------------------------------------------------------------- Matmul

/// The cube rig with the two objects the programs name: the TPipe o0 and the Matmul object o1 (a program naming an
/// object it does not declare is a parse error).
fn matmul_rig(kernel_type: &str) -> Rig {
    Rig::new(kernel_type).objects("object o0 pipe pipe\nobject o1 opaque mm type=Matmul\n")
}

fn matmul_program(calls: &str) -> String {
    format!(
        "  call REGIST_MATMUL_OBJ.one tpipe=o0 workspace=h3 mm=o1 tiling.M=r1:i32 tiling.N=r2:i32 tiling.Ka=r3:i32 \
         tiling.Kb=r3:i32 tiling.singleCoreM=r1:i32 tiling.singleCoreN=r2:i32 tiling.singleCoreK=r3:i32 \
         tiling.baseM=r4:i32 tiling.baseN=r5:i32 tiling.iterateOrder=r6:i32\n{calls}"
    )
}

#[test]
fn matmul_iterate_all_and_iterate_get_tensor_c_give_the_same_c() {
    let (m, n, k) = (37usize, 45usize, 29usize);
    let mut seed = 3;
    let a: Vec<f32> = (0..m * k).map(|_| lcg(&mut seed)).collect();
    let b: Vec<f32> = (0..k * n).map(|_| lcg(&mut seed)).collect();
    let bias: Vec<f32> = (0..n).map(|j| j as f32 * 0.25).collect();
    let mut want = reference(&a, &b, m, n, k);
    for i in 0..m {
        for j in 0..n {
            want[i * n + j] += bias[j];
        }
    }
    let consts = [
        (1, "i32", m as u64),
        (2, "i32", n as u64),
        (3, "i32", k as u64),
        (4, "i32", 16),
        (5, "i32", 32),
        (6, "i32", 1),
    ];
    let rig = || {
        matmul_rig("aic")
            .gm("a", GmRole::Input, f16_bytes(&a))
            .gm("b", GmRole::Input, f16_bytes(&b))
            .gm("bias", GmRole::Input, f32_bytes(&bias))
            .gm("c", GmRole::Output, vec![0; m * n * 4])
    };
    let set = "  call SetTensorA.gm<T=f16> self=o1 gm=h0\n  call SetTensorB.gm<T=f16> self=o1 gm=h1\n  \
               call SetBias.gm<T=f32> self=o1 gm=h2\n";
    let out = rig().run(
        &consts,
        &matmul_program(&format!(
            "{set}  call IterateAll.gm<T=f32> self=o1 gm=h3\n  call End.plain self=o1"
        )),
    );
    assert!(out.codes().is_empty(), "{:?}", out.findings.list);
    assert_eq!(read_f32(&out.gm[3]), want);
    let looped = format!(
        "{set}L1:\n  r10:i1 = call Iterate.plain self=o1\n  brz r10 L2\n  call GetTensorC.gm<T=f32> self=o1 gm=h3\n  br L1\nL2:"
    );
    // any base block and either iteration order give the same C (each element summed over the whole K)
    for (base_m, base_n, order) in [(16, 32, 1), (16, 16, 0), (48, 16, 1), (64, 64, 0), (32, 48, 0)] {
        let mut c = consts;
        c[3] = (4, "i32", base_m);
        c[4] = (5, "i32", base_n);
        c[5] = (6, "i32", order);
        let out = rig().run(&c, &matmul_program(&looped));
        assert!(out.codes().is_empty(), "{:?}", out.findings.list);
        assert_eq!(
            read_f32(&out.gm[3]),
            want,
            "baseM {base_m} baseN {base_n} order {order}"
        );
    }
}

#[test]
fn matmul_transposed_operands_tails_and_half_output() {
    // A stored K x M, B stored N x K; SetTail computes the top-left 20 x 24 of a 32 x 32 C
    let (m, n, k) = (32usize, 32usize, 16usize);
    let a_t: Vec<f32> = (0..k * m).map(|i| (i % 11) as f32 - 5.0).collect();
    let b_t: Vec<f32> = (0..n * k).map(|i| (i % 13) as f32 - 6.0).collect();
    let a: Vec<f32> = (0..m * k).map(|x| a_t[(x % k) * m + x / k]).collect();
    let b: Vec<f32> = (0..k * n).map(|x| b_t[(x % n) * k + x / n]).collect();
    let want = reference(&a, &b, m, n, k);
    let out = matmul_rig("aic")
        .gm("a", GmRole::Input, f16_bytes(&a_t))
        .gm("b", GmRole::Input, f16_bytes(&b_t))
        .gm("bias", GmRole::Input, vec![])
        .gm("c", GmRole::Output, vec![0; m * n * 2])
        .run(
            &[
                (1, "i32", 32),
                (2, "i32", 32),
                (3, "i32", 16),
                (4, "i32", 16),
                (5, "i32", 16),
                (6, "i32", 0),
                (7, "i1", 1),
                (8, "i32", 20),
                (9, "i32", 24),
            ],
            &matmul_program(
                "  call SetTail.plain self=o1 tailM=r8:i32 tailN=r9:i32\n  \
                 call SetTensorA.gm<T=f16> self=o1 gm=h0 isTransposeA=r7:i1\n  \
                 call SetTensorB.gm<T=f16> self=o1 gm=h1 isTransposeB=r7:i1\n  \
                 call IterateAll.gm<T=f16> self=o1 gm=h3",
            ),
        );
    let c = read_f16(&out.gm[3]);
    for i in 0..m {
        for j in 0..n {
            let expect = if i < 20 && j < 24 {
                f16::from_f32(want[i * n + j]).to_f32()
            } else {
                0.0
            };
            assert_eq!(c[i * n + j], expect, "C({i},{j})");
        }
    }
}

#[test]
fn matmul_without_a_tiling_says_so() {
    let out = matmul_rig("aic").gm("a", GmRole::Input, vec![0; 64]).run(
        &[],
        "  call SetTensorA.gm<T=f16> self=o1 gm=h0\n  call SetTensorB.gm<T=f16> self=o1 gm=h0\n  \
         call IterateAll.gm<T=f32> self=o1 gm=h0",
    );
    assert_eq!(out.codes(), vec!["ASC958"]);
}

#[test]
fn matmul_past_the_end_of_its_matrices_reports_it_and_computes_what_is_inside() {
    // singleCoreM 32 over an A of 20 rows (no SetTail): rows 20..31 read past A and write past C
    let (m, n, k) = (20usize, 16usize, 16usize);
    let a: Vec<f32> = (0..m * k).map(|i| (i % 5) as f32).collect();
    let b: Vec<f32> = (0..k * n).map(|i| (i % 3) as f32).collect();
    let want = reference(&a, &b, m, n, k);
    let out = matmul_rig("aic")
        .gm("a", GmRole::Input, f16_bytes(&a))
        .gm("b", GmRole::Input, f16_bytes(&b))
        .gm("bias", GmRole::Input, vec![])
        .gm("c", GmRole::Output, vec![0; m * n * 4])
        .run(
            &[
                (1, "i32", 32),
                (2, "i32", 16),
                (3, "i32", 16),
                (4, "i32", 32),
                (5, "i32", 16),
                (6, "i32", 0),
            ],
            &matmul_program(
                "  call SetTensorA.gm<T=f16> self=o1 gm=h0\n  call SetTensorB.gm<T=f16> self=o1 gm=h1\n  \
                 call IterateAll.gm<T=f32> self=o1 gm=h3",
            ),
        );
    // one finding at the call, for the read past A and the write past C
    assert_eq!(out.codes(), vec!["ASC950"]);
    assert_eq!(out.findings.list[0].count, 2);
    assert_eq!(read_f32(&out.gm[3]), want);
}

#[test]
fn matmul_iterate_into_a_co1_tensor_leaves_nz_partial_sums_in_l0c() {
    let (m, n, k) = (20usize, 24usize, 16usize);
    let a: Vec<f32> = (0..m * k).map(|i| (i % 7) as f32 - 3.0).collect();
    let b: Vec<f32> = (0..k * n).map(|i| (i % 5) as f32 - 2.0).collect();
    let want = reference(&a, &b, m, n, k);
    let program = matmul_program(
        "  call SetTensorA.gm<T=f16> self=o1 gm=h0\n  call SetTensorB.gm<T=f16> self=o1 gm=h1\n  \
         h4 = LocalAt.f32 L0C r10:i32 r11:i32\n  \
         r12:i1 = call Iterate.co1<T=f32> self=o1 enPartialSum=r13:i1 localCmatrix=h4\n  \
         call SetTensorA.gm<T=f16> self=o1 gm=h0\n  call SetTensorB.gm<T=f16> self=o1 gm=h1\n  \
         r12:i1 = call Iterate.co1<T=f32> self=o1 enPartialSum=r14:i1 localCmatrix=h4",
    );
    let out = matmul_rig("aic")
        .gm("a", GmRole::Input, f16_bytes(&a))
        .gm("b", GmRole::Input, f16_bytes(&b))
        .gm("bias", GmRole::Input, vec![])
        .gm("c", GmRole::Output, vec![])
        .run(
            &[
                (1, "i32", m as u64),
                (2, "i32", n as u64),
                (3, "i32", k as u64),
                (4, "i32", 32),
                (5, "i32", 32),
                (6, "i32", 0),
                (10, "i32", 0),
                (11, "i32", 1024),
                (13, "i1", 0),
                (14, "i1", 1),
            ],
            &program,
        );
    assert!(out.codes().is_empty(), "{:?}", out.findings.list);
    // the second Iterate accumulated onto the first: 2 * A @ B, in NZ with rows rounded up to 32
    let l0c = read_f32(&out.mem(MemKind::L0c)[..2 * 32 * 16 * 4]);
    for i in 0..m {
        for j in 0..n {
            assert_eq!(
                l0c[(j / 16) * 32 * 16 + i * 16 + j % 16],
                2.0 * want[i * n + j],
                "C({i},{j})"
            );
        }
    }
}

#[test]
fn a_mix_blocks_aic_writes_c_for_both_of_its_aivs_one_request_after_the_other() {
    // both AIVs of a MIX 1:2 block ask for the same C (no offsets by GetBlockIdx): the block's AIC computes
    // and writes it twice, in turn, which is no race between cores
    let (m, n, k) = (32usize, 16usize, 16usize);
    let a: Vec<f32> = (0..m * k).map(|i| (i % 5) as f32).collect();
    let b: Vec<f32> = (0..k * n).map(|i| (i % 3) as f32).collect();
    let rig = || {
        matmul_rig("mix_aic_1_2")
            .gm("a", GmRole::Input, f16_bytes(&a))
            .gm("b", GmRole::Input, f16_bytes(&b))
            .gm("bias", GmRole::Input, vec![])
            .gm("c", GmRole::Output, vec![0; m * n * 4])
    };
    let consts = [
        (1, "i32", 32),
        (2, "i32", 16),
        (3, "i32", 16),
        (4, "i32", 32),
        (5, "i32", 16),
        (6, "i32", 0),
    ];
    let calls = "  call SetTensorA.gm<T=f16> self=o1 gm=h0\n  call SetTensorB.gm<T=f16> self=o1 gm=h1\n  \
                 call IterateAll.gm<T=f32> self=o1 gm=h3";
    let (findings, gm) = rig().launch(&consts, &matmul_program(calls), 1);
    assert!(findings.list.is_empty(), "{:?}", findings.list);
    assert_eq!(read_f32(&gm[3]), reference(&a, &b, m, n, k));
}
