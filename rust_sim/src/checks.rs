//! Dynamic findings, in the spirit of Miri and msSanitizer: each at the source location of the instruction
//! that did it, with the core and the bytes or elements involved. Codes ASC950-ASC999 (rule pages in
//! passes/sim/rules.py, listed by `ascendc-check rules`).
//!
//! A finding that repeats at one location (a loop, every core) is reported once, with how often and on how
//! many cores it happened.

use std::collections::HashMap;

/// Finding codes.
pub mod code {
    /// GM read or write outside the buffer the kernel was given
    pub const GM_OUT_OF_BOUNDS: &str = "ASC950";
    /// UB / L1 / L0 / BT / FB access outside the memory
    pub const LOCAL_OUT_OF_BOUNDS: &str = "ASC951";
    /// a read of memory no instruction wrote (a scalar read, or an output element holding such data)
    pub const UNINITIALISED_READ: &str = "ASC952";
    /// two cores write the same GM bytes without atomics
    pub const CROSS_CORE_WRITE: &str = "ASC953";
    /// a write through one buffer lands in another buffer that is live
    pub const LIVE_TENSOR_OVERWRITTEN: &str = "ASC954";
    /// the queue protocol broken at run time (DeQue of an empty queue, AllocTensor with no free buffer, ...)
    pub const QUEUE_MISUSE: &str = "ASC955";
    /// a wait no set can satisfy (flags, queues, SyncAll)
    pub const DEADLOCK: &str = "ASC956";
    /// the instruction budget ran out
    pub const BUDGET: &str = "ASC957";
    /// the executed path reaches a construct the simulator does not model
    pub const NOT_MODELLED: &str = "ASC958";
    /// an operand out of its documented range at run time (repeat, mask, alignment, count vs tensor size)
    pub const INVALID_OPERAND: &str = "ASC959";
    /// scalar integer division by zero
    pub const DIVISION_BY_ZERO: &str = "ASC960";
    /// output elements no core wrote
    pub const OUTPUT_NOT_WRITTEN: &str = "ASC961";
    /// a GM access past the end of a tensor, inside the padding the framework allocates after it
    pub const GM_TENSOR_PADDING: &str = "ASC962";
    /// a GM write into an input tensor the op does not declare as updated in place
    pub const INPUT_WRITTEN: &str = "ASC963";
    /// two cores write one 64-byte GM line, one of them with SetValue (through the data cache)
    pub const SHARED_CACHE_LINE: &str = "ASC964";
    /// two pipes of one core access the same local bytes, one of them writing, with nothing ordering them
    pub const PIPE_RACE: &str = "ASC965";
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

#[derive(Clone, Debug)]
pub struct Finding {
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    /// location index in the program (-1: none)
    pub loc: i32,
    /// the core (block index) of the first occurrence; -1 when the finding is about the launch as a whole
    pub core: i64,
    pub notes: Vec<String>,
    /// how many times it happened at this location
    pub count: u64,
    /// on how many distinct cores
    pub cores: u64,
}

/// The findings of one run, deduplicated by (code, location).
#[derive(Default)]
pub struct Findings {
    pub list: Vec<Finding>,
    index: HashMap<(&'static str, i32), usize>,
    cores_seen: HashMap<usize, Vec<i64>>,
    /// a cap on distinct findings, so a kernel that misbehaves everywhere still ends quickly
    pub limit: usize,
}

impl Findings {
    pub fn new() -> Findings {
        Findings {
            limit: 200,
            ..Default::default()
        }
    }

    /// Records a finding; returns true when it is the first at its location.
    pub fn report(
        &mut self,
        code: &'static str,
        severity: Severity,
        loc: i32,
        core: i64,
        message: String,
        notes: Vec<String>,
    ) -> bool {
        if let Some(&i) = self.index.get(&(code, loc)) {
            let f = &mut self.list[i];
            f.count += 1;
            let seen = self.cores_seen.entry(i).or_default();
            if !seen.contains(&core) {
                seen.push(core);
                f.cores += 1;
            }
            return false;
        }
        if self.list.len() >= self.limit {
            return false;
        }
        self.index.insert((code, loc), self.list.len());
        self.cores_seen.insert(self.list.len(), vec![core]);
        self.list.push(Finding {
            code,
            severity,
            message,
            loc,
            core,
            notes,
            count: 1,
            cores: 1,
        });
        true
    }

    /// Records a finding as an error, or turns the warning already at its location into it (message, notes,
    /// severity; the count of what happened there stays): for a check that learns later that what it warned
    /// about did harm (ASC954: overwritten bytes read afterwards, clobber.rs).
    pub fn escalate(
        &mut self,
        code: &'static str,
        severity: Severity,
        loc: i32,
        core: i64,
        message: String,
        notes: Vec<String>,
    ) {
        if let Some(&i) = self.index.get(&(code, loc)) {
            let f = &mut self.list[i];
            if f.severity != severity && severity == Severity::Error {
                f.severity = severity;
                f.message = message;
                f.notes = notes;
                f.core = core;
            }
            return;
        }
        self.report(code, severity, loc, core, message, notes);
    }

    pub fn has(&self, code: &str) -> bool {
        self.list.iter().any(|f| f.code == code)
    }

    pub fn errors(&self) -> usize {
        self.list.iter().filter(|f| f.severity == Severity::Error).count()
    }
}

/// `[a, b)` as elements of `elem` bytes when it divides evenly, else as bytes.
pub fn describe_range(start: i64, len: i64, elem: usize) -> String {
    let e = elem.max(1) as i64;
    if e > 1 && start % e == 0 && len % e == 0 {
        format!("elements [{}, {})", start / e, (start + len) / e)
    } else {
        format!("bytes [{}, {})", start, start + len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeats_at_one_place_are_counted_once() {
        let mut f = Findings::new();
        assert!(f.report(code::DEADLOCK, Severity::Error, 3, 0, "a".into(), vec![]));
        assert!(!f.report(code::DEADLOCK, Severity::Error, 3, 1, "b".into(), vec![]));
        assert!(!f.report(code::DEADLOCK, Severity::Error, 3, 1, "c".into(), vec![]));
        assert!(f.report(code::DEADLOCK, Severity::Error, 4, 0, "d".into(), vec![]));
        assert_eq!(f.list.len(), 2);
        assert_eq!(f.list[0].count, 3);
        assert_eq!(f.list[0].cores, 2);
        assert_eq!(f.list[0].message, "a");
    }

    #[test]
    fn a_warning_escalates_once_into_an_error() {
        const C: &str = code::LIVE_TENSOR_OVERWRITTEN;
        let (w, e) = (Severity::Warning, Severity::Error);
        let mut f = Findings::new();
        f.report(C, w, 5, 0, "w".into(), vec![]);
        f.report(C, w, 5, 0, "w".into(), vec![]);
        f.escalate(C, e, 5, 2, "e".into(), vec!["n".into()]);
        f.escalate(C, e, 5, 3, "e2".into(), vec![]);
        assert_eq!(f.list.len(), 1);
        assert_eq!((f.list[0].severity, f.list[0].message.as_str()), (e, "e"));
        assert_eq!(f.list[0].count, 2);
        f.escalate(C, e, 6, 0, "new".into(), vec![]);
        assert_eq!(f.errors(), 2);
    }

    #[test]
    fn ranges_read_as_elements_when_aligned() {
        assert_eq!(describe_range(8, 16, 4), "elements [2, 6)");
        assert_eq!(describe_range(3, 5, 4), "bytes [3, 8)");
    }
}
