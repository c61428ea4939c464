//! The timing model against schedules computed by hand: a three-stage MTE2 -> V -> MTE3 pipeline with one and
//! with two buffers per queue, waves of blocks over fewer cores, HBM shared by cores copying at once, the
//! scalar unit stalled by a wait on PIPE_S, and the trace's shape.

use crate::memory::{Gm, GmRole, OwnedBuf};
use crate::parse::parse;
use crate::sim::{self, Config, Outcome};

use super::{ChipTables, Params};

/// Round numbers: 1 GHz, a free scalar unit, 100 cycles of GM latency, 32 bytes per cycle each way, a vector
/// repeat per cycle after 2 cycles of startup, flags of 1 cycle, and HBM of `hbm` bytes per cycle.
fn params(hbm: f64) -> Params {
    let mut t = ChipTables::default();
    for (k, v) in [
        ("clock_mhz", 1000.0),
        ("timing.hbm_gbps", hbm),
        ("timing.scalar_cycles", 0.0),
        ("timing.vector_startup_cycles", 2.0),
        ("throughput.vector_simple", 256.0),
        ("latency.gm_fixed", 100.0),
        ("latency.set_flag", 1.0),
        ("bandwidth.gm_ub", 32.0),
        ("bandwidth.ub_gm", 32.0),
    ] {
        t.values.insert(k.to_string(), v);
    }
    Params::from_tables(&t)
}

/// x -> y = x + 1 in `tiles` tiles of 512 halves (1 KiB), with `bufs` buffers per queue: CopyIn (MTE2),
/// Compute (V), CopyOut (MTE3) per tile, as an AscendC kernel's Process loop issues them.
fn pipeline(bufs: u32, tiles: u32) -> String {
    format!(
        "ascendir-sim 1\nkernel pipe3 aiv\nchip 910B2\nblock_dim 1\nmem UB 196608 32\nparam 0 x h0 gm\nparam 1 y h1 gm\n\
         regs 16 8\nstack 0\nobject o0 pipe pipe\n\
         object o1 queue inQ pos=VECIN depth=2 mem=UB fwd=MTE2_V back=V_MTE2\n\
         object o2 queue outQ pos=VECOUT depth=2 mem=UB fwd=V_MTE3 back=MTE3_V\n\
         const r0 i32 0\nconst r1 i32 512\nconst r2 i32 {tiles}\nconst r3 i32 1024\nconst r4 i32 {bufs}\n\
         const r5 f16 0x3c00\nconst r6 i32 1\n\
         code\n  obj.init o0\n  obj.init o1\n  obj.init o2\n  InitBuffer o0 o1 r4:i32 r3:i32\n  InitBuffer o0 o2 r4:i32 r3:i32\n\
         L1:\n  r7 = cmpi.slt.i32 r0 r2\n  brz r7 L2\n  r8 = muli.i32 r0 r1\n\
           h2 = AllocTensor.f16 o1\n  h3 = sub.f16 h0 r8:i32\n\
           call DataCopy.count_gm_to_local<T=f16> dst=h2 src=h3 count=r1:i32\n  r9 = EnQue o1 h2\n\
           h4 = DeQue.f16 o1\n  h5 = AllocTensor.f16 o2\n\
           call Adds.count<T=f16> dst=h5 src=h4 scalarValue=r5:f16 count=r1:i32\n\
           r10 = EnQue o2 h5\n  FreeTensor o1 h4\n\
           h6 = DeQue.f16 o2\n  h7 = sub.f16 h1 r8:i32\n\
           call DataCopy.count_local_to_gm<T=f16> dst=h7 src=h6 count=r1:i32\n  FreeTensor o2 h6\n\
           r11 = addi.i32 r0 r6\n  r0 = mov r11\n  br L1\nL2:\n  ret\nend\n"
    )
}

/// Runs `text` with x = 32 KiB of halves (i mod 7) and y = `out` bytes.
fn launch(text: &str, p: Params, block_dim: u32, cores: u32, trace: bool, out: usize) -> (Outcome, Vec<u8>) {
    let prog = parse(text).unwrap_or_else(|e| panic!("{e:?}"));
    let x: Vec<u8> = (0..16384u32)
        .flat_map(|i| half::f16::from_f32((i % 7) as f32).to_le_bytes())
        .collect();
    let mut owned = [OwnedBuf::new(x), OwnedBuf::new(vec![0u8; out])];
    let [a, b] = &mut owned;
    let bufs = unsafe { vec![a.gm("x", GmRole::Input), b.gm("y", GmRole::Output)] };
    let mut gm = Gm { bufs };
    let cfg = Config {
        block_dim,
        cores,
        budget: 1_000_000,
        timing: Some(p),
        trace_limit: trace.then_some(100_000),
    };
    let out = sim::run(&prog, &mut gm, &cfg);
    drop(gm);
    let [_, y] = owned;
    (out, y.data)
}

#[test]
fn double_buffered_pipeline_matches_the_hand_schedule() {
    // per tile: MTE2 copy 100 + 1024/32 = 132 cycles, Adds 2 + 4 repeats = 6, MTE3 copy 132, each flag 1.
    // Tile 0: MTE2 [0,132] enque@133; V waits to 133, Adds [133,139], enque out@140, free in@141;
    //   MTE3 waits to 140, copy [140,272], free out@273.
    // Tile 1 (other buffers, no waits for frees): MTE2 [133,265]@266; V [266,272]@273,@274; MTE3 [273,405]@406.
    // Tile 2 (buffer 0 again, freed long ago): MTE2 [266,398]@399; V [399,405]@406,@407; MTE3 [406,538]@539.
    // Tile 3: MTE2 [399,531]@532; V [532,538]@539,@540; MTE3 [539,671]@672. The kernel ends at 672.
    let (out, y) = launch(&pipeline(2, 4), params(1e6), 1, 1, false, 4096);
    assert!(out.completed && out.findings.list.is_empty(), "{:?}", out.findings.list);
    let rep = out.timing.unwrap();
    assert_eq!(rep.cycles, 672.0);
    assert_eq!(rep.busy[crate::api::Pipe::Mte2.index()], 4.0 * 133.0);
    assert_eq!(rep.busy[crate::api::Pipe::V.index()], 4.0 * 8.0);
    assert_eq!(rep.bound, crate::api::Pipe::Mte2);
    // the values are computed too: y = x + 1 over the first 4 tiles
    let y1 = half::f16::from_le_bytes([y[2], y[3]]).to_f32();
    assert_eq!(y1, 2.0);
}

#[test]
fn single_buffered_pipeline_waits_for_each_free() {
    // one buffer per queue: MTE2 of tile i+1 waits for V to free tile i, V for MTE3 to free its output.
    // Tile 0 as above (MTE2 [0,132]@133, V [133,139]@140,@141, MTE3 [140,272]@273).
    // Tile 1: MTE2 waits for free@141: [141,273]@274; V waits 274 (out freed @273): [274,280]@281,@282;
    //   MTE3 [281,413]@414.
    // Tile 2: MTE2 [282,414]@415; V [415,421]@422,@423; MTE3 [422,554]@555.
    // Tile 3: MTE2 [423,555]@556; V [556,562]@563,@564; MTE3 [563,695]@696.
    let (out, _) = launch(&pipeline(1, 4), params(1e6), 1, 1, false, 4096);
    assert_eq!(out.timing.unwrap().cycles, 696.0);
}

#[test]
fn blocks_beyond_the_cores_run_in_waves() {
    let (out, _) = launch(&pipeline(2, 1), params(1e6), 4, 2, false, 1024);
    let rep = out.timing.unwrap();
    // one tile alone: MTE2 [0,132]@133, V [133,139]@140,@141, MTE3 [140,272]@273
    assert_eq!(rep.waves, 2);
    assert_eq!(rep.cycles, 2.0 * 273.0);
    let placed: Vec<(u32, u32, f64)> = rep.blocks.iter().map(|b| (b.block, b.core, b.start)).collect();
    assert_eq!(placed, vec![(0, 0, 0.0), (1, 1, 0.0), (2, 0, 273.0), (3, 1, 273.0)]);
}

/// `bytes` bytes GM -> UB on MTE2 and nothing else, from block * `stride` bytes on.
fn copy_in(bytes: u32, stride: u32) -> String {
    let (count, step) = (bytes / 2, stride / 2);
    format!(
        "ascendir-sim 1\nkernel copyin aiv\nchip 910B2\nmem UB 196608 32\nparam 0 x h0 gm\nparam 1 y h1 gm\n\
         regs 8 4\nstack 0\nobject o0 pipe pipe\nobject o1 queue inQ pos=VECIN depth=1 mem=UB fwd=MTE2_V back=V_MTE2\n\
         const r0 i32 1\nconst r1 i32 {bytes}\nconst r2 i32 {count}\nconst r3 i64 {step}\n\
         code\n  obj.init o0\n  obj.init o1\n  InitBuffer o0 o1 r0:i32 r1:i32\n  h2 = AllocTensor.f16 o1\n\
           r4:i64 = call GetBlockIdx.plain\n  r5 = muli.i64 r4 r3\n  h3 = sub.f16 h0 r5:i64\n\
           call DataCopy.count_gm_to_local<T=f16> dst=h2 src=h3 count=r2:i32\n  ret\nend\n"
    )
}

#[test]
fn cores_copying_at_once_share_the_hbm() {
    // 8 KiB at 32 B/c after 100 cycles of latency: 356 cycles alone. Four cores at once on 64 B/c of HBM
    // stream at 16 B/c each: 100 + 8192/16 = 612 cycles; with HBM to spare, 356.
    let (alone, _) = launch(&copy_in(8192, 8192), params(1e6), 4, 4, false, 0);
    assert_eq!(alone.timing.unwrap().cycles, 356.0);
    let (shared, _) = launch(&copy_in(8192, 8192), params(64.0), 4, 4, false, 0);
    let rep = shared.timing.unwrap();
    assert!((rep.cycles - 612.0).abs() < 1.0, "{}", rep.cycles);
    assert!((rep.hbm_utilization - 4.0 * 8192.0 / (612.0 * 64.0)).abs() < 0.01);
    // one core alone never waits for the HBM it cannot fill
    let (one, _) = launch(&copy_in(8192, 8192), params(64.0), 1, 4, false, 0);
    assert_eq!(one.timing.unwrap().cycles, 356.0);
}

#[test]
fn bytes_every_core_reads_come_from_hbm_once() {
    // four cores read the same 8 KiB: 8 KiB from HBM, the other 24 KiB hit in L2, so 64 B/c of HBM is room
    // enough: each core's 8 KiB mix asks 32 B/c x 1/4 of it
    let (same, _) = launch(&copy_in(8192, 0), params(64.0), 4, 4, false, 0);
    let rep = same.timing.unwrap();
    assert_eq!(rep.cycles, 356.0);
    // on 4 B/c of HBM: the misses (a quarter, 8 B/c a core, 32 asked in all) get 1/8 of their rate, so a byte
    // takes 0.75 + 0.25 * 8 times as long: 100 + 256 * 2.75
    let (starved, _) = launch(&copy_in(8192, 0), params(4.0), 4, 4, false, 0);
    let rep = starved.timing.unwrap();
    assert!((rep.cycles - (100.0 + 256.0 * 2.75)).abs() < 1.0, "{}", rep.cycles);
}

#[test]
fn a_wait_on_the_scalar_unit_stalls_what_it_issues_next() {
    // the scalar unit waits for MTE2's copy (SetFlag<MTE2_S> after it) before issuing a second copy
    let text = "ascendir-sim 1\nkernel k aiv\nchip 910B2\nmem UB 196608 32\nparam 0 x h0 gm\nparam 1 y h1 gm\n\
                regs 4 4\nstack 0\nobject o0 pipe pipe\n\
                object o1 queue inQ pos=VECIN depth=1 mem=UB fwd=MTE2_V back=V_MTE2\n\
                const r0 i32 1\nconst r1 i32 1024\nconst r2 i32 512\nconst r3 i32 0\n\
                code\n  obj.init o0\n  obj.init o1\n  InitBuffer o0 o1 r0:i32 r1:i32\n  h2 = AllocTensor.f16 o1\n\
                call DataCopy.count_gm_to_local<T=f16> dst=h2 src=h0 count=r2:i32\n\
                call SetFlag.plain<event=MTE2_S> eventID=r3:i32\n\
                call WaitFlag.plain<event=MTE2_S> eventID=r3:i32\n\
                call DataCopy.count_local_to_gm<T=f16> dst=h1 src=h2 count=r2:i32\n  ret\nend\n";
    let (out, _) = launch(text, params(1e6), 1, 1, false, 1024);
    assert!(out.findings.list.is_empty(), "{:?}", out.findings.list);
    // copy in [0,132], set @133 on MTE2, the scalar unit resumes at 133, copy out [133,265]
    assert_eq!(out.timing.unwrap().cycles, 265.0);
}

#[test]
fn the_trace_has_a_track_per_core_and_pipe_and_a_flow_per_flag() {
    let (out, _) = launch(&pipeline(2, 2), params(1e6), 2, 2, true, 2048);
    let rep = out.timing.unwrap();
    let trace = rep.trace.unwrap();
    assert!(trace.starts_with("{\"displayTimeUnit\":\"ns\",\"traceEvents\":["));
    for core in 0..2 {
        assert!(trace.contains(&format!("\"name\":\"process_name\",\"ph\":\"M\",\"pid\":{core},")));
        assert!(trace.contains(&format!(
            "\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":{core},\"tid\":4,\"args\":{{\"name\":\"PIPE_MTE2\"}}"
        )));
    }
    let starts = trace.matches("\"ph\":\"s\"").count();
    let ends = trace.matches("\"ph\":\"f\"").count();
    // per core and tile: 4 queue events (in enque, in free, out enque, out free), each waited for except the
    // frees of the last tiles' buffers
    assert_eq!(starts, 2 * 2 * 4);
    assert!(ends > 0 && ends <= starts);
    assert_eq!(trace.matches("\"name\":\"DataCopy\"").count(), 2 * 2 * 2);
    assert_eq!(trace.matches("\"name\":\"Adds\"").count(), 2 * 2);
}

#[test]
fn the_aivs_of_a_mix_block_wait_for_their_aic() {
    // the AIC copies 1 KiB GM -> L1 (100 + 1024 / 256 = 104 cycles) and sets cross-core flag 0 for its AIVs on
    // MTE2 (@105); each AIV waits for it, then copies 1 KiB GM -> UB (132 cycles): the block ends at 237
    let text = "ascendir-sim 1\nkernel k mix_aic_1_2\nchip 910B2\nmem UB 196608 32\nmem L1 524288 32\n\
                param 0 x h0 gm\nparam 1 y h1 gm\nregs 8 4\nstack 0\nobject o0 pipe pipe\n\
                object o1 queue inQ pos=VECIN depth=1 mem=UB fwd=MTE2_V back=V_MTE2\n\
                object o2 queue aQ pos=A1 depth=1 mem=L1 fwd=MTE2_MTE1 back=MTE1_MTE2\n\
                const r1 i32 1\nconst r2 i32 1024\nconst r3 i32 0\nconst r4 i32 512\n\
                code\n  obj.init o0\n  obj.init o1\n  obj.init o2\n  r5 = core.is AIV\n  brz r5 L1\n\
                InitBuffer o0 o1 r1:i32 r2:i32\n  h2 = AllocTensor.f16 o1\n\
                call CrossCoreWaitFlag.plain flagId=r3:i32\n\
                call DataCopy.count_gm_to_local<T=f16> dst=h2 src=h0 count=r4:i32\n  ret\n\
                L1:\n  InitBuffer o0 o2 r1:i32 r2:i32\n  h3 = AllocTensor.f16 o2\n\
                call DataCopy.count_gm_to_local<T=f16> dst=h3 src=h0 count=r4:i32\n\
                call CrossCoreSetFlag.plain<modeId=2,pipe=PIPE_MTE2> flagId=r3:i32\n  ret\nend\n";
    let (out, _) = launch(text, params(1e6), 1, 1, true, 0);
    assert!(out.completed && out.findings.list.is_empty(), "{:?}", out.findings.list);
    let rep = out.timing.unwrap();
    assert_eq!(rep.cycles, 237.0);
    // the block's three cores start together, each on a track of its own
    let placed: Vec<(u32, f64, f64)> = rep.blocks.iter().map(|b| (b.core, b.start, b.end)).collect();
    assert_eq!(placed, vec![(0, 0.0, 237.0), (1, 0.0, 237.0), (2, 0.0, 105.0)]);
    let trace = rep.trace.unwrap();
    assert!(trace.contains("\"name\":\"CrossCoreWaitFlag\""));
    assert!(trace.contains("core 2 (AIC)"));
}
