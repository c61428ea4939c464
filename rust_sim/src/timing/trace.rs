//! The launch as a Chrome trace (the JSON object format that chrome://tracing and Perfetto load): a process
//! per physical core, a thread per pipe, a complete event ("X") per instruction, SetFlag and WaitFlag, and a
//! flow ("s" -> "f") from each SetFlag to the WaitFlag it releases. Times are microseconds at the chip clock.

use std::fmt::Write;

use crate::api::Pipe;
use crate::program::Program;
use crate::sync::{FlagKey, HARD_EVENTS};

use super::cost::Model;
use super::Rec;

/// Pipes in track order (the trace's thread ids).
pub const TRACK_PIPES: [Pipe; 7] = [Pipe::S, Pipe::V, Pipe::M, Pipe::Mte1, Pipe::Mte2, Pipe::Mte3, Pipe::Fix];

pub struct Trace<'p> {
    out: String,
    events: usize,
    limit: usize,
    clock_mhz: f64,
    next_flow: u64,
    prog: &'p Program,
    /// events left out past the limit
    pub dropped: u64,
}

/// JSON string contents: quotes, backslashes and control characters escaped.
pub fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o
}

impl<'p> Trace<'p> {
    pub fn new(prog: &'p Program, clock_mhz: f64, limit: usize) -> Trace<'p> {
        Trace {
            out: String::from("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"),
            events: 0,
            limit,
            clock_mhz,
            next_flow: 1,
            prog,
            dropped: 0,
        }
    }

    fn us(&self, cycles: f64) -> f64 {
        cycles / self.clock_mhz
    }

    fn room(&mut self) -> bool {
        if self.events >= self.limit {
            self.dropped += 1;
            return false;
        }
        if self.events > 0 {
            self.out.push_str(",\n");
        }
        self.events += 1;
        true
    }

    /// Names the process of a physical core and the thread of each pipe.
    pub fn core(&mut self, core: u32, label: &str) {
        if !self.room() {
            return;
        }
        let _ = write!(
            self.out,
            "{{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":{core},\"tid\":0,\"args\":{{\"name\":\"{}\"}}}}",
            escape(label)
        );
        if self.room() {
            let _ = write!(
                self.out,
                "{{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":{core},\"tid\":0,\"args\":{{\"sort_index\":{core}}}}}"
            );
        }
        for p in TRACK_PIPES {
            if self.room() {
                let _ = write!(
                    self.out,
                    "{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":{core},\"tid\":{},\"args\":{{\"name\":\"{}\"}}}}",
                    p.index(),
                    p.name()
                );
            }
            if self.room() {
                let _ = write!(
                    self.out,
                    "{{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":{core},\"tid\":{},\"args\":{{\"sort_index\":{}}}}}",
                    p.index(),
                    p.index()
                );
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn slice(&mut self, core: u32, pipe: Pipe, name: &str, cat: &str, ts: f64, dur: f64, args: &str) {
        if !self.room() {
            return;
        }
        let (ts, dur) = (self.us(ts), self.us(dur.max(0.0)));
        let _ = write!(
            self.out,
            "{{\"name\":\"{}\",\"cat\":\"{cat}\",\"ph\":\"X\",\"pid\":{core},\"tid\":{},\"ts\":{ts:.6},\"dur\":{dur:.6},\"args\":{{{args}}}}}",
            escape(name),
            pipe.index()
        );
    }

    /// A block's lifetime on its core's scalar track.
    pub fn block(&mut self, core: u32, block: u32, start: f64, end: f64) {
        let args = format!("\"block\":{block},\"cycles\":{:.0}", end - start);
        self.slice(
            core,
            Pipe::S,
            &format!("block {block}"),
            "block",
            start,
            end - start,
            &args,
        );
    }

    #[allow(clippy::too_many_arguments)]
    pub fn op(&mut self, core: u32, block: u32, pipe: Pipe, pc: u32, start: f64, dur: f64, rec: &Rec, model: &Model) {
        let name = model.names.get(pc as usize).map(|s| s.as_str()).unwrap_or("");
        let name = if name.is_empty() { "instruction" } else { name };
        let mut args = format!("\"block\":{block},\"cycles\":{dur:.1}");
        let what = if rec.gm_bytes > 0 || (rec.lat > 0.0) {
            "bytes"
        } else {
            "amount"
        };
        let _ = write!(args, ",\"{what}\":{}", rec.amount);
        if let Some(i) = self.prog.code.get(pc as usize) {
            let _ = write!(args, ",\"src\":\"{}\"", escape(&self.prog.where_(i.loc)));
        }
        self.slice(core, pipe, name, "op", start, dur, &args);
    }

    fn flag_name(&self, key: Option<FlagKey>) -> String {
        if let Some(name) = key.and_then(super::matmul::MatmulState::name) {
            if let Some(FlagKey::Queue { buf, back, .. }) = key {
                return format!("{name}[{}] {}", buf % 2, if back { "free" } else { "full" });
            }
        }
        match key {
            Some(FlagKey::Hard { event, id }) => format!("{}#{id}", HARD_EVENTS[event as usize]),
            Some(FlagKey::Queue { obj, buf, back }) => {
                let q = self
                    .prog
                    .objects
                    .get(obj as usize)
                    .map(|o| o.name.as_str())
                    .unwrap_or("queue");
                format!("{q}[{buf}] {}", if back { "free" } else { "enque" })
            }
            None => "flag".into(),
        }
    }

    /// A cross-core flag instruction (`name`) on `pipe` from `ts` for `dur` (a wait: the time it stalled).
    pub fn cross(&mut self, core: u32, pipe: Pipe, name: &str, ts: f64, dur: f64) {
        self.slice(core, pipe, name, "flag", ts, dur, "");
    }

    /// A SetFlag on `pipe` from `ts` for `dur`; returns the id of the flow it starts.
    pub fn set(&mut self, core: u32, pipe: Pipe, key: Option<FlagKey>, ts: f64, dur: f64) -> u64 {
        let id = self.next_flow;
        self.next_flow += 1;
        let name = format!("SetFlag {}", self.flag_name(key));
        self.slice(core, pipe, &name, "flag", ts, dur, "");
        if self.room() {
            let _ = write!(
                self.out,
                "{{\"name\":\"flag\",\"cat\":\"flag\",\"ph\":\"s\",\"id\":{id},\"pid\":{core},\"tid\":{},\"ts\":{:.6}}}",
                pipe.index(),
                self.us(ts)
            );
        }
        id
    }

    /// A WaitFlag on `pipe` that held it from `ts` for `dur`: the stall (when it stalled), then the wait itself
    /// as a point at its release, which ends flow `id`.
    pub fn wait(&mut self, core: u32, pipe: Pipe, key: Option<FlagKey>, ts: f64, dur: f64, id: u64) {
        let flag = self.flag_name(key);
        if dur > 0.0 {
            self.slice(core, pipe, &format!("stall for {flag}"), "stall", ts, dur, "");
        }
        let release = ts + dur.max(0.0);
        self.slice(core, pipe, &format!("WaitFlag {flag}"), "flag", release, 0.0, "");
        if id != 0 && self.room() {
            let _ = write!(
                self.out,
                "{{\"name\":\"flag\",\"cat\":\"flag\",\"ph\":\"f\",\"bp\":\"e\",\"id\":{id},\"pid\":{core},\"tid\":{},\"ts\":{:.6}}}",
                pipe.index(),
                self.us(release)
            );
        }
    }

    pub fn finish(mut self, meta: &str) -> String {
        self.out.push_str("\n],\"otherData\":{");
        self.out.push_str(meta);
        self.out.push_str("}}\n");
        self.out
    }
}
