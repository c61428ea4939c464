//! Region-proposal sorting of the Atlas inference (310P, arch 2002) and training (910, arch 1001) vector units:
//! ProposalConcat, ProposalExtract, RpSort16 and MrgSort4. The A2/A3 parts (2201) sort (score, index) pairs
//! with Sort32/MrgSort instead and report these four as unsupported; the catalog gives them to 2002 and 1001 only.
//!
//! A region proposal is 8 consecutive elements of T (half: 16 bytes, float: 32 bytes):
//! `[x1, y1, x2, y2, score, label, reserved, reserved]`. ProposalConcat writes 16 consecutive source elements
//! per repeat into one field (modeNumber 0..5) of 16 proposals; ProposalExtract reads one field of 16 proposals
//! per repeat into 16 consecutive elements. Both leave the other fields' bytes as they were.
//! RpSort16 sorts each group of 16 proposals by score, largest first; of equal scores the earlier proposal comes
//! first. MrgSort4 merges up to four score-sorted lists (`validBit`: a bit per list; lengths in proposals,
//! 0..4095) into one, largest score first, equal scores from the earlier list first; with
//! `ifExhaustedSuspension` it stops as soon as one list is used up. Each repeat advances the sources and the
//! destination by the four lengths together. Proposals move as whole 8-element records, bit for bit (kernels
//! keep integer indices in the coordinate fields).

use crate::api::{ApiOp, Args, Pipe, Registry, StackArray};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::memory::{Handle, Space};
use crate::program::Sv;

/// Elements in one region proposal.
pub const PROPOSAL_ELEMS: usize = 8;
/// Proposals per repeat of ProposalConcat, ProposalExtract and RpSort16.
pub const PER_REPEAT: usize = 16;
/// Field index of the score.
pub const SCORE: usize = 4;
/// Largest list length MrgSort4's config register holds (12 bits).
pub const MAX_LIST_LEN: u64 = 4095;

// ------------------------------------------------------------------------------------------- pure semantics

/// ProposalConcat: element `i` of `src` into field `mode` of proposal `i` of `dst`, for `n` proposals.
pub fn concat(dst: &mut [u8], src: &[u8], n: usize, mode: usize, size: usize) {
    let rec = PROPOSAL_ELEMS * size;
    for i in 0..n {
        let at = i * rec + mode * size;
        dst[at..at + size].copy_from_slice(&src[i * size..(i + 1) * size]);
    }
}

/// ProposalExtract: field `mode` of proposal `i` of `src` into element `i` of `dst`, for `n` proposals.
pub fn extract(dst: &mut [u8], src: &[u8], n: usize, mode: usize, size: usize) {
    let rec = PROPOSAL_ELEMS * size;
    for i in 0..n {
        let at = i * rec + mode * size;
        dst[i * size..(i + 1) * size].copy_from_slice(&src[at..at + size]);
    }
}

/// The score of the proposal at the start of `rec`.
fn score(rec: &[u8], t: DType) -> f64 {
    let size = t.size();
    t.to_f64(t.load_bits(&rec[SCORE * size..(SCORE + 1) * size]))
}

/// RpSort16 on whole records: each group of 16 proposals (`data`, and its per-byte flags `init`) sorted by
/// score, largest first, stable. `data.len()` is a whole number of groups.
pub fn sort16(data: &mut [u8], init: &mut [u8], t: DType) {
    let rec = PROPOSAL_ELEMS * t.size();
    let group = PER_REPEAT * rec;
    for (chunk, flags) in data.chunks_mut(group).zip(init.chunks_mut(group)) {
        let mut order: Vec<usize> = (0..chunk.len() / rec).collect();
        // a stable sort on "greater first": equal scores keep their order
        order.sort_by(|&a, &b| {
            let (sa, sb) = (score(&chunk[a * rec..], t), score(&chunk[b * rec..], t));
            sb.partial_cmp(&sa).unwrap_or(std::cmp::Ordering::Equal)
        });
        let (d, f) = (chunk.to_vec(), flags.to_vec());
        for (k, &i) in order.iter().enumerate() {
            chunk[k * rec..(k + 1) * rec].copy_from_slice(&d[i * rec..(i + 1) * rec]);
            flags[k * rec..(k + 1) * rec].copy_from_slice(&f[i * rec..(i + 1) * rec]);
        }
    }
}

/// One MrgSort4 merge: `lists[i]` holds list i's records (None: not valid). Returns, for each output record,
/// (list, position in that list); and the count taken from each list. The largest score goes first, the
/// earliest list among equal ones; with `suspend` the merge stops when a list is used up.
pub fn merge(lists: &[Option<&[u8]>; 4], t: DType, suspend: bool) -> (Vec<(usize, usize)>, [usize; 4]) {
    let rec = PROPOSAL_ELEMS * t.size();
    let lens: Vec<usize> = lists.iter().map(|l| l.map_or(0, |b| b.len() / rec)).collect();
    let mut taken = [0usize; 4];
    let mut out = Vec::new();
    if suspend && lists.iter().zip(&lens).any(|(l, &n)| l.is_some() && n == 0) {
        return (out, taken);
    }
    loop {
        let mut best: Option<(usize, f64)> = None;
        for (i, l) in lists.iter().enumerate() {
            let Some(bytes) = l else { continue };
            if taken[i] >= lens[i] {
                continue;
            }
            let s = score(&bytes[taken[i] * rec..], t);
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((i, s));
            }
        }
        let Some((i, _)) = best else { break };
        out.push((i, taken[i]));
        taken[i] += 1;
        if suspend && taken[i] == lens[i] {
            break;
        }
    }
    (out, taken)
}

// ------------------------------------------------------------------------------------------- memory helpers

pub(crate) fn read(cx: &mut Ctx, h: Handle, off: i64, n: usize, what: &str) -> Option<(Vec<u8>, Vec<u8>)> {
    let at = cx.range(h, off, n as i64, false, 1, what)?;
    match h.space {
        Space::Local(m) => {
            let local = cx.local(m);
            Some((
                local.data.as_slice()[at..at + n].to_vec(),
                local.init[at..at + n].to_vec(),
            ))
        }
        _ => {
            cx.report(
                code::INVALID_OPERAND,
                format!("{what}: an operand in GM; the sort instructions work on UB"),
            );
            None
        }
    }
}

pub(crate) fn write(cx: &mut Ctx, h: Handle, off: i64, data: &[u8], init: &[u8], t: DType, what: &str) {
    if data.is_empty() {
        return;
    }
    let Some(at) = cx.range(h, off, data.len() as i64, true, t.size(), what) else {
        return;
    };
    if let Space::Local(m) = h.space {
        cx.check_local_write(m, at, data.len(), h.alloc, what);
    }
    cx.store_bytes(h, at, data, init, t, what);
}

/// The element type, checked: half or float. None after reporting.
pub(crate) fn sort_type(cx: &mut Ctx, t: DType, what: &str) -> Option<DType> {
    if matches!(t, DType::F16 | DType::F32) {
        return Some(t);
    }
    cx.report(
        code::INVALID_OPERAND,
        format!(
            "{what} on {} elements; the sort instructions take half or float",
            t.name()
        ),
    );
    None
}

/// repeatTime, checked against its documented range 0..255. None after reporting.
pub(crate) fn repeat_of(cx: &mut Ctx, sv: Sv, what: &str) -> Option<usize> {
    let r = cx.int(sv);
    if !(0..=255).contains(&r) {
        cx.report(
            code::INVALID_OPERAND,
            format!("{what} with repeatTime {r}; it takes 0 to 255"),
        );
        return None;
    }
    Some(r as usize)
}

pub(crate) fn meter(cx: &mut Ctx, repeats: u64, elements: u64) {
    if let Some(m) = crate::timing::meter(cx.core) {
        m.vector(repeats, elements);
    }
}

// ------------------------------------------------------------------------------------------- ProposalConcat / Extract

#[derive(Debug)]
struct Field {
    t: DType,
    dst: u32,
    src: u32,
    repeat: Sv,
    mode: Sv,
    concat: bool,
}

fn decode_field(a: &Args, concat: bool) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(Field {
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        repeat: a.sv("repeatTime")?,
        mode: a.sv("modeNumber")?,
        concat,
    }))
}

impl ApiOp for Field {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let what = if self.concat {
            "ProposalConcat"
        } else {
            "ProposalExtract"
        };
        let Some(t) = sort_type(cx, self.t, what) else {
            return Flow::Next;
        };
        let Some(repeat) = repeat_of(cx, self.repeat, what) else {
            return Flow::Next;
        };
        let mode = cx.int(self.mode);
        if !(0..=5).contains(&mode) {
            cx.report(
                code::INVALID_OPERAND,
                format!("{what} with modeNumber {mode}; it takes 0 to 5 (x1, y1, x2, y2, score, label)"),
            );
            return Flow::Next;
        }
        let (size, n) = (t.size(), repeat * PER_REPEAT);
        let (dst, src) = (cx.handle(self.dst), cx.handle(self.src));
        let (flat, recs) = (n * size, n * PROPOSAL_ELEMS * size);
        meter(cx, repeat as u64, n as u64);
        if n == 0 {
            return Flow::Next;
        }
        if self.concat {
            let Some((s, s_init)) = read(cx, src, 0, flat, what) else {
                return Flow::Next;
            };
            let Some((mut d, mut d_init)) = read_for_update(cx, dst, recs, what) else {
                return Flow::Next;
            };
            concat(&mut d, &s, n, mode as usize, size);
            concat(&mut d_init, &s_init, n, mode as usize, size);
            write(cx, dst, 0, &d, &d_init, t, what);
        } else {
            let Some((s, s_init)) = read(cx, src, 0, recs, what) else {
                return Flow::Next;
            };
            let (mut d, mut d_init) = (vec![0u8; flat], vec![0u8; flat]);
            extract(&mut d, &s, n, mode as usize, size);
            extract(&mut d_init, &s_init, n, mode as usize, size);
            write(cx, dst, 0, &d, &d_init, t, what);
        }
        Flow::Next
    }
}

/// The bytes a partial write keeps: read without the race check's read (the instruction writes these bytes; the
/// ones it does not touch are not read by it either).
pub(crate) fn read_for_update(cx: &mut Ctx, h: Handle, n: usize, what: &str) -> Option<(Vec<u8>, Vec<u8>)> {
    let size = match h.space {
        Space::Local(m) => cx.local_size(m) as i64,
        _ => return read(cx, h, 0, n, what),
    };
    let start = h.addr;
    if start < 0 || start + n as i64 > size {
        // out of bounds: let the write's range check report it
        return Some((vec![0u8; n], vec![0u8; n]));
    }
    let Space::Local(m) = h.space else { unreachable!() };
    let local = cx.local(m);
    let at = start as usize;
    Some((
        local.data.as_slice()[at..at + n].to_vec(),
        local.init[at..at + n].to_vec(),
    ))
}

// ------------------------------------------------------------------------------------------- RpSort16

#[derive(Debug)]
struct RpSort16 {
    t: DType,
    dst: u32,
    src: u32,
    repeat: Sv,
}

fn decode_rpsort16(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(RpSort16 {
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        repeat: a.sv("repeatTime")?,
    }))
}

impl ApiOp for RpSort16 {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let what = "RpSort16";
        let Some(t) = sort_type(cx, self.t, what) else {
            return Flow::Next;
        };
        let Some(repeat) = repeat_of(cx, self.repeat, what) else {
            return Flow::Next;
        };
        let n = repeat * PER_REPEAT * PROPOSAL_ELEMS * t.size();
        meter(cx, repeat as u64, (repeat * PER_REPEAT) as u64);
        if n == 0 {
            return Flow::Next;
        }
        let (dst, src) = (cx.handle(self.dst), cx.handle(self.src));
        let Some((mut d, mut f)) = read(cx, src, 0, n, what) else {
            return Flow::Next;
        };
        sort16(&mut d, &mut f, t);
        write(cx, dst, 0, &d, &f, t, what);
        Flow::Next
    }
}

// ------------------------------------------------------------------------------------------- MrgSort4

/// The four list lengths of MrgSort4 and MrgSort: a `uint16_t[4]` on the scalar stack, or four registers.
#[derive(Debug)]
pub(crate) enum Lengths {
    Stack(StackArray),
    Regs([Sv; 4]),
}

impl Lengths {
    /// `name` (a `uint16_t[4]`) when the call passes it, else the four `strukt.elementLengths{i}` fields.
    pub(crate) fn decode(a: &Args, name: &str, strukt: &str) -> Result<Lengths, String> {
        if a.has(name) {
            return Ok(Lengths::Stack(a.array(name, 4, 0, "uint16_t[4]")?));
        }
        let [r0, r1, r2, r3] = [0, 1, 2, 3].map(|i| a.field(strukt, &format!("elementLengths{i}")));
        Ok(Lengths::Regs([r0?, r1?, r2?, r3?]))
    }

    /// The lengths as the 16-bit fields hold them.
    pub(crate) fn values(&self, cx: &Ctx) -> [u64; 4] {
        match self {
            Lengths::Stack(s) => s.first(cx, 0xFFFF),
            Lengths::Regs(regs) => regs.map(|r| cx.uint(r) & 0xFFFF),
        }
    }
}

#[derive(Debug)]
struct MrgSort4 {
    t: DType,
    dst: u32,
    srcs: [u32; 4],
    lengths: Lengths,
    suspend: Option<Sv>,
    valid: Sv,
    repeat: Option<Sv>,
}

fn decode_mrgsort4(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let mut srcs = [0u32; 4];
    for (i, s) in srcs.iter_mut().enumerate() {
        *s = a.handle(&format!("src.src{}", i + 1))?;
    }
    let lengths = Lengths::decode(a, "params.elementLengths", "params")?;
    Ok(Box::new(MrgSort4 {
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        srcs,
        lengths,
        suspend: a.opt_field("params", "ifExhaustedSuspension")?,
        valid: a.field("params", "validBit")?,
        repeat: a.opt_field("params", "repeatTimes")?,
    }))
}

impl ApiOp for MrgSort4 {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let what = "MrgSort4";
        let Some(t) = sort_type(cx, self.t, what) else {
            return Flow::Next;
        };
        let rec = PROPOSAL_ELEMS * t.size();
        let lens = self.lengths.values(cx);
        if let Some(i) = lens.iter().position(|&n| n > MAX_LIST_LEN) {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "{what}: elementLengths[{i}] is {}; a list holds 0 to {MAX_LIST_LEN} proposals (12 bits of the \
                     merge's config)",
                    lens[i]
                ),
            );
            return Flow::Next;
        }
        let valid = cx.uint(self.valid);
        if valid == 0 || valid > 15 {
            cx.report(
                code::INVALID_OPERAND,
                format!("{what} with validBit {valid}; it is a mask of the four lists (the API takes 3, 7 or 15)"),
            );
            return Flow::Next;
        }
        if !matches!(valid, 3 | 7 | 15) {
            cx.warn(
                code::INVALID_OPERAND,
                format!(
                    "{what} with validBit {valid}: the API takes 3, 7 or 15 (the first 2, 3 or 4 lists) and its \
                     CPU debug build asserts so; the device merges the lists whose bits are set"
                ),
            );
        }
        let repeat = self.repeat.map(|r| cx.uint(r)).unwrap_or(1);
        if !(1..=255).contains(&repeat) {
            cx.report(
                code::INVALID_OPERAND,
                format!("{what} with repeatTimes {repeat}; it takes 1 to 255"),
            );
            return Flow::Next;
        }
        let suspend = self.suspend.map(|s| cx.uint(s) != 0).unwrap_or(false);
        let dst = cx.handle(self.dst);
        let srcs: Vec<Handle> = self.srcs.iter().map(|&h| cx.handle(h)).collect();
        let step = lens.iter().sum::<u64>() as i64 * rec as i64;
        let mut total = 0u64;
        for r in 0..repeat as i64 {
            let mut data: [Option<(Vec<u8>, Vec<u8>)>; 4] = Default::default();
            let mut spans: Vec<(i64, i64)> = Vec::new();
            for i in 0..4 {
                if valid >> i & 1 == 0 {
                    continue;
                }
                let n = lens[i] as usize * rec;
                let Some(bytes) = read(cx, srcs[i], r * step, n, what) else {
                    return Flow::Next;
                };
                spans.push((srcs[i].addr + r * step, n as i64));
                data[i] = Some(bytes);
            }
            let lists: [Option<&[u8]>; 4] = std::array::from_fn(|i| data[i].as_ref().map(|(d, _)| d.as_slice()));
            let (order, _taken) = merge(&lists, t, suspend);
            let out_len = (order.len() * rec) as i64;
            let out_at = dst.addr + r * step;
            let same_mem = |h: &Handle| h.space == dst.space;
            if let Some(i) = (0..4).find(|&i| {
                valid >> i & 1 == 1
                    && same_mem(&srcs[i])
                    && spans
                        .iter()
                        .any(|&(s, n)| s == srcs[i].addr + r * step && s < out_at + out_len && out_at < s + n)
            }) {
                cx.report(
                    code::INVALID_OPERAND,
                    format!(
                        "{what}: the destination (bytes [{out_at}, {})) overlaps source list {} (the API does not \
                         allow source and destination to overlap)",
                        out_at + out_len,
                        i + 1
                    ),
                );
                return Flow::Next;
            }
            let mut out = Vec::with_capacity(order.len() * rec);
            let mut flags = Vec::with_capacity(order.len() * rec);
            for (i, k) in order {
                let (d, f) = data[i].as_ref().unwrap();
                out.extend_from_slice(&d[k * rec..(k + 1) * rec]);
                flags.extend_from_slice(&f[k * rec..(k + 1) * rec]);
            }
            total += (out.len() / rec) as u64;
            write(cx, dst, r * step, &out, &flags, t, what);
        }
        meter(cx, repeat, total);
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add("ProposalConcat.plain", |a| decode_field(a, true));
    r.add("ProposalExtract.plain", |a| decode_field(a, false));
    r.add("RpSort16.plain", decode_rpsort16);
    r.add("MrgSort4.plain", decode_mrgsort4);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(x: f32) -> [u8; 2] {
        half::f16::from_f32(x).to_bits().to_le_bytes()
    }

    /// `n` half proposals with the given scores and x1 = the proposal's number (an index kept as raw bits).
    fn proposals(scores: &[f32]) -> Vec<u8> {
        let mut out = vec![0u8; scores.len() * 16];
        for (i, &s) in scores.iter().enumerate() {
            out[i * 16..i * 16 + 2].copy_from_slice(&(i as u16).to_le_bytes());
            out[i * 16 + 8..i * 16 + 10].copy_from_slice(&h(s));
        }
        out
    }

    fn x1s(recs: &[u8]) -> Vec<u16> {
        recs.chunks(16).map(|r| u16::from_le_bytes([r[0], r[1]])).collect()
    }

    #[test]
    fn concat_and_extract_move_one_field() {
        // 16 half elements 0..16 into the score field (4) of 16 proposals whose other bytes are 0xAA
        let src: Vec<u8> = (0..16u16).flat_map(|v| v.to_le_bytes()).collect();
        let mut dst = vec![0xAAu8; 16 * 16];
        concat(&mut dst, &src, 16, SCORE, 2);
        for i in 0..16 {
            let rec = &dst[i * 16..(i + 1) * 16];
            assert_eq!(u16::from_le_bytes([rec[8], rec[9]]), i as u16);
            assert!(rec[..8].iter().chain(&rec[10..]).all(|&b| b == 0xAA));
        }
        let mut back = vec![0u8; 32];
        extract(&mut back, &dst, 16, SCORE, 2);
        assert_eq!(back, src);
        // label (5) of float proposals: bytes 20..24 of each 32-byte record
        let fsrc: Vec<u8> = [1.5f32, -2.0].iter().flat_map(|v| v.to_le_bytes()).collect();
        let mut fdst = vec![0u8; 64];
        concat(&mut fdst, &fsrc, 2, 5, 4);
        assert_eq!(&fdst[20..24], &1.5f32.to_le_bytes());
        assert_eq!(&fdst[52..56], &(-2.0f32).to_le_bytes());
    }

    #[test]
    fn sort16_orders_each_group_by_score_and_keeps_ties_in_order() {
        // two groups; scores hand-picked: ties at 3.0 (proposals 1 and 4) and at -1.0 in the second group
        let mut scores = vec![
            0.5f32, 3.0, -7.0, 2.0, 3.0, 0.0, 1.0, -1.0, 9.0, 4.0, 0.25, -0.5, 6.0, 5.0, 8.0, 7.0,
        ];
        scores.extend([-1.0f32; 16]);
        scores[16] = 2.0;
        let mut data = proposals(&scores);
        let mut init = vec![1u8; data.len()];
        sort16(&mut data, &mut init, DType::F16);
        assert_eq!(
            x1s(&data[..256]),
            vec![8, 14, 15, 12, 13, 9, 1, 4, 3, 6, 0, 10, 5, 11, 7, 2]
        );
        // the second group: 2.0 first, then the fifteen -1.0s in their order
        assert_eq!(x1s(&data[256..]), (16..32).collect::<Vec<u16>>());
    }

    #[test]
    fn merge_takes_largest_first_and_earlier_list_on_ties() {
        let a = proposals(&[9.0, 5.0, 1.0]);
        let b = proposals(&[7.0, 5.0]);
        let c = proposals(&[8.0]);
        let (order, taken) = merge(&[Some(&a), Some(&b), Some(&c), None], DType::F16, false);
        // 9(a0) 8(c0) 7(b0) 5(a1, list a before b) 5(b1) 1(a2)
        assert_eq!(order, vec![(0, 0), (2, 0), (1, 0), (0, 1), (1, 1), (0, 2)]);
        assert_eq!(taken, [3, 2, 1, 0]);
    }

    #[test]
    fn merge_with_suspension_stops_at_the_first_list_used_up() {
        let a = proposals(&[9.0, 5.0, 1.0]);
        let b = proposals(&[7.0, 6.0]);
        let (order, taken) = merge(&[Some(&a), Some(&b), None, None], DType::F16, true);
        // 9(a0) 7(b0) 6(b1): list b is used up, the merge stops before a's 5 and 1
        assert_eq!(order, vec![(0, 0), (1, 0), (1, 1)]);
        assert_eq!(taken, [1, 2, 0, 0]);
        // one valid list: it is copied
        let (order, _) = merge(&[Some(&a), None, None, None], DType::F16, true);
        assert_eq!(order, vec![(0, 0), (0, 1), (0, 2)]);
    }

    #[test]
    fn merge_of_float_proposals_reads_the_score_at_bytes_16_to_20() {
        let mut a = vec![0u8; 64];
        let mut b = vec![0u8; 32];
        a[16..20].copy_from_slice(&(-1.0f32).to_le_bytes());
        a[48..52].copy_from_slice(&(-3.0f32).to_le_bytes());
        b[16..20].copy_from_slice(&(-2.0f32).to_le_bytes());
        let (order, _) = merge(&[Some(&a), Some(&b), None, None], DType::F32, false);
        assert_eq!(order, vec![(0, 0), (1, 0), (0, 1)]);
    }
}
