//! The race check's clocks and shadow memory (race.rs, race/shadow.rs).

use super::*;

const V: usize = Pipe::V as usize;
const MTE2: usize = Pipe::Mte2 as usize;
const MTE3: usize = Pipe::Mte3 as usize;

fn at(st: &mut RaceState, pipe: usize, start: usize, end: usize, write: bool) -> Option<Race> {
    st.issue(pipe);
    st.current = pipe;
    let r = st.access(MemKind::Ub, start, end, write, pipe as i32);
    st.current = S;
    r
}

fn hard(event: u8) -> FlagKey {
    FlagKey::Hard { event, id: 0 }
}

#[test]
fn scalar_read_after_mte2_write_without_flag_races() {
    let mut st = RaceState::new();
    assert_eq!(at(&mut st, MTE2, 0, 64, true), None);
    let r = at(&mut st, S, 8, 10, false).expect("race");
    assert_eq!((r.first_pipe, r.first_write, r.start, r.end), (MTE2, true, 8, 10));
}

#[test]
fn a_flag_from_mte2_to_s_orders_the_read() {
    let mut st = RaceState::new();
    at(&mut st, MTE2, 0, 64, true);
    st.issue(MTE2);
    st.set(MTE2, hard(24));
    st.take(S, hard(24));
    assert_eq!(at(&mut st, S, 0, 64, false), None);
}

#[test]
fn the_compiler_sync_a_warning_assumes_orders_what_the_waiting_pipe_issues_next() {
    let mut st = RaceState::new();
    at(&mut st, MTE2, 0, 64, true);
    // MTE3 reading it unflagged races (an error: MTE2 <-> MTE3 is not the compiler's) ...
    let mut alone = RaceState::new();
    at(&mut alone, MTE2, 0, 64, true);
    assert!(at(&mut alone, MTE3, 0, 64, false).is_some());
    // ... but after a scalar read the compiler syncs (MTE2 -> S), S issues the MTE3 copy after MTE2 is done
    assert!(at(&mut st, S, 0, 8, false).is_some());
    st.assume_compiler_sync(MTE2, S);
    assert_eq!(at(&mut st, MTE3, 0, 64, false), None);
    // the sync covers what MTE2 did before it, not what it does after
    at(&mut st, MTE2, 64, 128, true);
    assert!(at(&mut st, MTE3, 64, 128, false).is_some());
}

#[test]
fn a_flag_to_another_pipe_does_not_order_s() {
    let mut st = RaceState::new();
    at(&mut st, MTE2, 0, 64, true);
    st.issue(MTE2);
    st.set(MTE2, hard(4));
    st.issue(V);
    st.take(V, hard(4));
    assert_eq!(at(&mut st, V, 0, 64, false), None);
    assert!(at(&mut st, S, 0, 4, false).is_some());
}

#[test]
fn scalar_to_pipe_is_ordered_by_issue() {
    let mut st = RaceState::new();
    assert_eq!(at(&mut st, S, 0, 4, true), None);
    assert_eq!(at(&mut st, MTE3, 0, 32, false), None);
    // but a later scalar write is not ordered after MTE3's read
    let r = at(&mut st, S, 0, 4, true).expect("write after read");
    assert_eq!((r.first_pipe, r.first_write), (MTE3, false));
}

#[test]
fn same_pipe_is_ordered_and_disjoint_bytes_do_not_race() {
    let mut st = RaceState::new();
    at(&mut st, V, 0, 64, true);
    assert_eq!(at(&mut st, V, 0, 64, false), None);
    assert_eq!(at(&mut st, MTE3, 64, 128, false), None);
    assert!(at(&mut st, MTE3, 32, 96, false).is_some());
}

#[test]
fn pipe_barrier_all_orders_everything() {
    let mut st = RaceState::new();
    at(&mut st, MTE2, 0, 64, true);
    at(&mut st, V, 64, 128, true);
    st.barrier_all();
    assert_eq!(at(&mut st, S, 0, 128, false), None);
    assert_eq!(at(&mut st, MTE3, 0, 128, false), None);
    // what comes after the barrier is not ordered before the barrier's other pipes' later work
    at(&mut st, V, 0, 64, true);
    assert!(at(&mut st, MTE3, 0, 64, false).is_some());
}

#[test]
fn a_flag_is_a_count_and_each_wait_takes_the_oldest_release() {
    let mut st = RaceState::new();
    at(&mut st, MTE2, 0, 32, true);
    st.set(MTE2, hard(4));
    at(&mut st, MTE2, 32, 64, true);
    st.set(MTE2, hard(4));
    st.take(V, hard(4));
    assert_eq!(at(&mut st, V, 0, 32, false), None);
    assert!(at(&mut st, V, 32, 64, false).is_some());
    st.take(V, hard(4));
    assert_eq!(at(&mut st, V, 32, 64, false), None);
}

#[test]
fn write_after_read_needs_the_reverse_flag() {
    let mut st = RaceState::new();
    at(&mut st, MTE2, 0, 64, true);
    st.set(MTE2, hard(4));
    st.take(V, hard(4));
    at(&mut st, V, 0, 64, false);
    // MTE2 reloading the buffer before V is done with it
    let r = at(&mut st, MTE2, 0, 64, true).expect("war");
    assert_eq!((r.first_pipe, r.first_write), (V, false));
    st.set(V, hard(5));
    st.take(MTE2, hard(5));
    assert_eq!(at(&mut st, MTE2, 0, 64, true), None);
}

#[test]
fn scalar_accesses_leave_no_record_and_later_pipes_are_ordered_after_them() {
    let mut st = RaceState::new();
    at(&mut st, MTE2, 0, 400, true);
    st.set(MTE2, hard(24));
    st.take(S, hard(24));
    for i in (0..100).rev() {
        assert_eq!(at(&mut st, S, i * 4, i * 4 + 4, true), None);
    }
    assert_eq!(st.shadow[MemKind::Ub as usize].len(), 1);
    // V comes after S's writes (issue), and through S's clock after MTE2's write too
    assert_eq!(at(&mut st, V, 0, 400, false), None);
}

#[test]
fn a_pipe_write_over_bytes_s_wrote_after_an_unordered_read_is_still_checked() {
    let mut st = RaceState::new();
    at(&mut st, MTE3, 0, 64, false);
    // S writes what MTE3 may still be reading
    assert!(at(&mut st, S, 0, 4, true).is_some());
}

#[test]
fn the_unit_flag_handshake_orders_mmad_and_fixpipe_both_ways() {
    const M: usize = Pipe::M as usize;
    const FIX: usize = Pipe::Fix as usize;
    // without the handshake Fixpipe's read of what Mmad wrote races
    let mut plain = RaceState::new();
    at(&mut plain, M, 0, 1024, true);
    assert!(at(&mut plain, FIX, 0, 1024, false).is_some());
    let mut st = RaceState::new();
    at(&mut st, M, 0, 1024, true);
    st.unit_handshake(M, FIX);
    assert_eq!(at(&mut st, FIX, 0, 1024, false), None);
    // the next Mmad (unitFlag on) overwrites the units only after Fixpipe read them
    st.unit_handshake(FIX, M);
    assert_eq!(at(&mut st, M, 0, 1024, true), None);
    // a Fixpipe without the handshake does not come after that second Mmad
    assert!(at(&mut st, FIX, 0, 1024, false).is_some());
}

#[test]
fn a_read_over_bytes_with_and_without_history_ends_and_covers_both() {
    // a read of [0, 256) where only [64, 128) and [192, 224) have history (each gap once, not again and
    // again: before, a read starting in a gap inserted gaps without end)
    let mut st = RaceState::new();
    at(&mut st, V, 64, 128, true);
    at(&mut st, V, 192, 224, true);
    at(&mut st, V, 0, 256, false);
    let segs = &st.shadow[MemKind::Ub as usize];
    let runs: Vec<(usize, usize)> = segs.iter().map(|s| (s.start, s.end)).collect();
    assert_eq!(runs, vec![(0, 64), (64, 128), (128, 192), (192, 224), (224, 256)]);
    assert!(segs.iter().all(|s| s.reads[V].0 > 0));
    // and a later MTE3 write of all of it races with V's read (nothing orders them)
    assert!(at(&mut st, MTE3, 0, 256, true).is_some());
}
