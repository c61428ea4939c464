//! The core's memory accesses: bounds checks, copies and stores between GM and the local memories, and
//! the record of GM writes the cross-core checks read (sim.rs).

use super::*;

/// A run of GM bytes one core wrote at one place, for the cross-core overlap check.
#[derive(Clone, Debug)]
pub struct WriteRec {
    pub buf: u32,
    pub start: i64,
    pub end: i64,
    pub loc: i32,
    pub epoch: u32,
    pub elem: u32,
    /// written by the scalar unit (SetValue): through the data cache, whose 64-byte lines go back whole
    pub scalar: bool,
    /// the bytes written, for writes of at most CONTENT_BYTES (a flag, a count): two cores writing the same bytes
    /// leave the same result whichever is last (sim.rs cross_core_writes)
    pub content: Option<Vec<u8>>,
    /// run_hash of the bytes of [start, end) (None where the bytes were not all seen): two
    /// cores writing the same whole run, however large (where_broadcast's 8 cores each writing all 8 MB of z),
    /// compare by it
    pub hash: Option<u64>,
}

/// The longest write whose bytes WriteRec keeps.
pub const CONTENT_BYTES: usize = 64;

/// A hash of the bytes `bytes` written at byte `start` of a buffer, made so that a run written in pieces hashes
/// as the whole run does: the wrapping sum over the aligned 8-byte words the bytes touch of (the word's value with
/// only those bytes, the others 0) x an odd key of the word's index. Two records' hashes add up to their merged
/// run's. A word at a time, where FNV-1a's byte chain (one multiply's latency a byte) took 17% of a 64 MB
/// softmax's simulation.
pub fn run_hash(start: i64, bytes: &[u8]) -> u64 {
    let key = |w: i64| {
        // splitmix64's finaliser: keys of neighbouring words unrelated, so no simple pattern of differences sums
        // to 0
        let mut z = (w as u64).wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) | 1
    };
    let partial = |at: i64, part: &[u8]| {
        let word = at.div_euclid(8);
        let mut v = 0u64;
        for (i, &b) in part.iter().enumerate() {
            v |= (b as u64) << (8 * ((at + i as i64).rem_euclid(8)));
        }
        v.wrapping_mul(key(word))
    };
    let head = ((8 - start.rem_euclid(8)) % 8).min(bytes.len() as i64) as usize;
    let mut h = partial(start, &bytes[..head]);
    let body = &bytes[head..];
    let first = (start + head as i64).div_euclid(8);
    let mut words = body.chunks_exact(8);
    for (i, w) in (&mut words).enumerate() {
        let v = u64::from_le_bytes(w.try_into().unwrap_or_default());
        h = h.wrapping_add(v.wrapping_mul(key(first + i as i64)));
    }
    let tail = words.remainder();
    if !tail.is_empty() {
        h = h.wrapping_add(partial(start + (bytes.len() - tail.len()) as i64, tail));
    }
    h
}

impl<'a> Ctx<'a> {
    /// Where `len` bytes at byte `off` of `h` are, if inside their memory; reports out-of-bounds accesses.
    /// `elem` is the element size, for the message.
    pub fn range(&mut self, h: Handle, off: i64, len: i64, write: bool, elem: usize, what: &str) -> Option<usize> {
        let start = h.addr.wrapping_add(off);
        let verb = if write { "writes" } else { "reads" };
        match h.space {
            Space::Null => {
                self.report(
                    code::GM_OUT_OF_BOUNDS,
                    format!(
                        "{what} {verb} {len} bytes through a tensor that has no memory (a GlobalTensor before \
                     SetGlobalBuffer, or a LocalTensor never allocated)"
                    ),
                );
                None
            }
            Space::Gm(i) => {
                let size = self.gm.bufs[i as usize].len();
                if in_bounds(start, len, size) {
                    let tensor = self.gm.bufs[i as usize].tensor_len() as i64;
                    if start + len > tensor && len > 0 {
                        self.past_tensor(i, start, len, write, elem, what);
                    }
                    return Some(start as usize);
                }
                let name = self.gm.bufs[i as usize].name.clone();
                let tensor = self.gm.bufs[i as usize].tensor_len();
                let past = if start < 0 {
                    format!("{} bytes before its start", -start)
                } else if tensor < size {
                    format!(
                        "{} bytes past the end of its {size}-byte allocation",
                        start + len - size as i64
                    )
                } else {
                    format!("{} bytes past its end", start + len - size as i64)
                };
                self.report(
                    code::GM_OUT_OF_BOUNDS,
                    format!(
                        "{what} {verb} {} of GM '{name}', which holds {tensor} bytes ({} elements): {past}",
                        describe_range(start, len, elem),
                        tensor / elem.max(1)
                    ),
                );
                None
            }
            Space::Local(m) => {
                let size = self.local_size(m);
                if in_bounds(start, len, size) {
                    crate::race::check(self, m, start as usize, len as usize, write, elem, what);
                    crate::clobber::access(self, m, start as usize, len as usize, write, h.alloc, what);
                    return Some(start as usize);
                }
                self.report(
                    code::LOCAL_OUT_OF_BOUNDS,
                    format!(
                        "{what} {verb} bytes [{start}, {}) of {}, which has {size} bytes",
                        start + len,
                        m.name()
                    ),
                );
                None
            }
        }
    }

    /// An access of GM buffer `i` that reaches past its tensor into the padding allocated after it: harmless on
    /// the device (the bytes are the allocation's), but what is read there is not the tensor's data.
    fn past_tensor(&mut self, i: u32, start: i64, len: i64, write: bool, elem: usize, what: &str) {
        let buf = &self.gm.bufs[i as usize];
        let (name, tensor, size) = (buf.name.clone(), buf.tensor_len() as i64, buf.len());
        let verb = if write { "writes" } else { "reads" };
        let past = start + len - tensor.max(start);
        self.warn(
            code::GM_TENSOR_PADDING,
            format!(
                "{what} {verb} {} of GM '{name}', whose tensor holds {tensor} bytes ({} elements): {past} bytes \
                 past its end, inside the padding of its {size}-byte allocation",
                describe_range(start, len, elem),
                tensor / elem.max(1) as i64
            ),
        );
    }

    /// A write into input tensor `i` (a buffer the op reads and does not declare as updated in place): the
    /// caller's tensor changes under it, so an answer could leave its result there or clobber what it was
    /// given. Bytes in the padding after the tensor are ASC962's, not this check's.
    fn input_written(&mut self, i: u32, start: usize, len: usize, elem: usize, what: &str) {
        let buf = &self.gm.bufs[i as usize];
        let tensor = buf.tensor_len();
        if start >= tensor || len == 0 {
            return;
        }
        let end = (start + len).min(tensor);
        let name = buf.name.clone();
        self.warn(
            code::INPUT_WRITTEN,
            format!(
                "{what} writes {} of input '{name}', which the op does not update in place: the caller's tensor \
                 changes",
                describe_range(start as i64, (end - start) as i64, elem)
            ),
        );
    }

    /// A write of `len` bytes at `start` of local memory `m` through a tensor of allocation `alloc`: reports
    /// a write past the tensor's buffer into another buffer that is in use.
    pub fn check_local_write(&mut self, m: MemKind, start: usize, len: usize, alloc: u32, what: &str) {
        if alloc == 0 || len == 0 {
            return;
        }
        let own = &self.core.allocs[(alloc - 1) as usize];
        let (s, e) = (start as i64, (start + len) as i64);
        if s >= own.start && e <= own.start + own.len {
            return;
        }
        let own_name = own.name.clone();
        let (own_start, own_len) = (own.start, own.len);
        // every buffer in use the write reaches
        let victims: Vec<(u32, usize, usize)> = self
            .core
            .allocs
            .iter()
            .enumerate()
            .filter(|(i, a)| *i as u32 + 1 != alloc && a.mem == m && a.live && a.start < e && s < a.start + a.len)
            .map(|(i, a)| (i as u32 + 1, a.start.max(s) as usize, (a.start + a.len).min(e) as usize))
            .collect();
        if !victims.is_empty() {
            let allocs = &self.core.allocs;
            let part = |&(i, vs, ve): &(u32, usize, usize)| {
                let v = &allocs[(i - 1) as usize];
                format!("bytes [{}, {}) of {}", vs as i64 - v.start, ve as i64 - v.start, v.name)
            };
            let reached: Vec<String> = victims.iter().map(part).collect();
            let verb = if reached.len() > 1 { "are" } else { "is" };
            let message = format!(
                "{what} writes {} bytes past the end of {own_name} ({own_len} bytes at {} address {own_start}), into \
                 {}, which {verb} in use",
                e.max(own_start + own_len) - (own_start + own_len),
                m.name(),
                reached.join(" and ")
            );
            // an error only once the overwritten bytes are read (clobber.rs)
            crate::clobber::overflow(self, m, alloc, &victims, message);
        }
    }

    /// Marks `len` bytes of local memory written with initialised data.
    #[inline]
    pub fn mark_local(&mut self, m: MemKind, start: usize, len: usize) {
        let mem = self.local(m);
        mem.init[start..start + len].fill(1);
    }

    /// Records a GM write by this core (for the cross-core overlap and uninitialised-output checks).
    #[allow(clippy::too_many_arguments)]
    pub fn note_gm_write(
        &mut self,
        buf: u32,
        start: i64,
        len: i64,
        elem: usize,
        poisoned: bool,
        scalar: bool,
        data: &[u8],
    ) {
        // bytes in the padding after a tensor hold nothing anyone reads: no race or output check there
        let end = (start + len).min(self.gm.bufs[buf as usize].tensor_len() as i64);
        if end <= start {
            return;
        }
        let kept = (end - start) as usize;
        let content = (kept <= CONTENT_BYTES && kept <= data.len()).then(|| data[..kept].to_vec());
        let tracked = self.core.atomic == Atomic::None;
        let rec = WriteRec {
            buf,
            start,
            end,
            loc: self.loc,
            epoch: self.core.epoch,
            elem: elem as u32,
            scalar,
            content,
            hash: None,
        };
        let bytes = &data[..kept.min(data.len())];
        if tracked {
            push_merged(&mut self.core.writes, rec.clone(), Some(bytes));
        }
        if poisoned {
            push_merged(&mut self.core.poison_writes, rec, None);
        }
    }

    /// Copies `len` bytes between two places (GM or local), with their initialised-ness, after checking both;
    /// `elem` is the element size for messages and atomics. Returns false when nothing was copied.
    #[allow(clippy::too_many_arguments)]
    pub fn copy(&mut self, dst: Handle, doff: i64, src: Handle, soff: i64, len: i64, elem: DType, what: &str) -> bool {
        if len <= 0 {
            return true;
        }
        let Some(s) = self.range(src, soff, len, false, elem.size(), what) else {
            return false;
        };
        let Some(d) = self.range(dst, doff, len, true, elem.size(), what) else {
            return false;
        };
        if let Some(m) = crate::timing::meter(self.core) {
            m.copy(len as u64, (src.space, s), (dst.space, d));
        }
        let n = len as usize;
        // gather the source bytes and their initialised-ness (in the core's scratch: no allocation per copy)
        let (mut data, mut init) = std::mem::take(&mut self.core.copy_scratch);
        data.resize(n, 0);
        init.resize(n, 0);
        match src.space {
            Space::Gm(i) => {
                let buf = &self.gm.bufs[i as usize];
                data[..n].copy_from_slice(&buf.bytes()[s..s + n]);
                buf.init_flags(s, &mut init[..n]);
            }
            Space::Local(m) => {
                let mem = self.local(m);
                data[..n].copy_from_slice(&mem.data.as_slice()[s..s + n]);
                init[..n].copy_from_slice(&mem.init[s..s + n]);
            }
            Space::Null => {
                self.core.copy_scratch = (data, init);
                return false;
            }
        }
        self.store_bytes(dst, d, &data[..n], &init[..n], elem, what);
        self.core.copy_scratch = (data, init);
        true
    }

    /// Writes `data` (with per-byte initialised flags) at resolved byte `d` of `dst`'s memory, applying the
    /// core's atomic mode to GM.
    pub fn store_bytes(&mut self, dst: Handle, d: usize, data: &[u8], init: &[u8], elem: DType, what: &str) {
        let n = data.len();
        match dst.space {
            Space::Gm(i) => {
                let atomic = self.core.atomic;
                let poisoned = !crate::memory::all_ones(init);
                {
                    let buf = &mut self.gm.bufs[i as usize];
                    let bytes = &mut buf.bytes_mut()[d..d + n];
                    match atomic {
                        Atomic::None => bytes.copy_from_slice(data),
                        Atomic::Add(t) | Atomic::Max(t) | Atomic::Min(t) => atomic_apply(atomic, t, bytes, data),
                    }
                    if let Some(sh) = buf.shadow_for_write() {
                        let sh = &mut sh[d..d + n];
                        if atomic != Atomic::None {
                            for (o, &b) in sh.iter_mut().zip(init) {
                                // accumulating into memory nobody wrote keeps it unknown
                                *o = if b == 0 || *o != 1 { 2 } else { 1 };
                            }
                        } else if !poisoned {
                            sh.fill(1);
                        } else {
                            for (o, &b) in sh.iter_mut().zip(init) {
                                *o = 1 + (b == 0) as u8;
                            }
                        }
                    }
                }
                let role = self.gm.bufs[i as usize].role;
                if role == GmRole::Input {
                    self.input_written(i, d, n, elem.size(), what);
                }
                self.note_gm_write(
                    i,
                    d as i64,
                    n as i64,
                    elem.size(),
                    poisoned && matches!(role, GmRole::Output | GmRole::Workspace),
                    what == "SetValue",
                    data,
                );
            }
            Space::Local(m) => {
                self.check_local_write(m, d, n, dst.alloc, what);
                let mem = self.local(m);
                mem.data.as_mut_slice()[d..d + n].copy_from_slice(data);
                mem.init[d..d + n].copy_from_slice(init);
            }
            Space::Null => {}
        }
    }
}

/// Appends `rec`, or extends the last record when `rec` continues it; with `bytes` (what `rec` wrote), the
/// record's hash covers them.
fn push_merged(list: &mut Vec<WriteRec>, mut rec: WriteRec, bytes: Option<&[u8]>) {
    let bytes = bytes.filter(|b| b.len() as i64 == rec.end - rec.start);
    if let Some(last) = list.last_mut() {
        if last.buf == rec.buf
            && last.loc == rec.loc
            && last.epoch == rec.epoch
            && last.scalar == rec.scalar
            && last.end == rec.start
        {
            last.end = rec.end;
            last.content = match (last.content.take(), rec.content) {
                (Some(mut a), Some(b)) if a.len() + b.len() <= CONTENT_BYTES => {
                    a.extend(b);
                    Some(a)
                }
                _ => None,
            };
            last.hash = match (last.hash, bytes) {
                (Some(h), Some(b)) => Some(h.wrapping_add(run_hash(rec.start, b))),
                _ => None,
            };
            return;
        }
    }
    rec.hash = bytes.map(|b| run_hash(rec.start, b));
    list.push(rec);
}

fn atomic_apply(mode: Atomic, t: DType, dst: &mut [u8], src: &[u8]) {
    let size = t.size();
    for (d, s) in dst.chunks_exact_mut(size).zip(src.chunks_exact(size)) {
        let (a, b) = (t.load_bits(d), t.load_bits(s));
        let r = if t.is_float() {
            let (x, y) = (t.to_f64(a), t.to_f64(b));
            let v = match mode {
                // accumulate in f32 and round to the element type once, as the vector unit does
                Atomic::Add(_) => (x as f32 + y as f32) as f64,
                Atomic::Max(_) => x.max(y),
                Atomic::Min(_) => x.min(y),
                Atomic::None => y,
            };
            t.from_f64(v)
        } else {
            let (x, y) = (t.to_i64(a), t.to_i64(b));
            let v = match mode {
                Atomic::Add(_) => x.wrapping_add(y),
                Atomic::Max(_) => x.max(y),
                Atomic::Min(_) => x.min(y),
                Atomic::None => y,
            };
            t.from_i64(v)
        };
        t.store_bits(d, r);
    }
}

#[cfg(test)]
mod tests {
    use super::run_hash;

    #[test]
    fn a_run_hashed_in_pieces_hashes_as_the_whole_run() {
        let bytes: Vec<u8> = (0..203u32).map(|i| (i * 37 % 251) as u8).collect();
        for start in [0i64, 3, 8, 13] {
            let whole = run_hash(start, &bytes);
            for cuts in [[1usize, 2], [5, 9], [7, 8], [64, 130], [100, 201]] {
                let (a, rest) = bytes.split_at(cuts[0]);
                let (b, c) = rest.split_at(cuts[1] - cuts[0]);
                let sum = run_hash(start, a)
                    .wrapping_add(run_hash(start + cuts[0] as i64, b))
                    .wrapping_add(run_hash(start + cuts[1] as i64, c));
                assert_eq!(sum, whole, "start {start} cuts {cuts:?}");
            }
            // one byte changed, or two bytes swapped, changes it
            let mut other = bytes.clone();
            other[77] ^= 1;
            assert_ne!(run_hash(start, &other), whole);
            other = bytes.clone();
            other.swap(10, 11);
            assert_ne!(run_hash(start, &other), whole);
        }
    }
}
