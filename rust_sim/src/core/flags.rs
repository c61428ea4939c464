//! The core's pipes and flags: work issued to a blocked pipe waits in its queue; SetFlag and WaitFlag
//! release it (the scheme core/mod.rs's header describes).

use super::*;

impl<'a> Ctx<'a> {
    // ------------------------------------------------------------------ pipes

    /// Issues pipe work: runs it now, or queues it behind a wait (the registers as they are now).
    pub fn defer_if_blocked(&mut self, pipe: Pipe) -> bool {
        if pipe == Pipe::S || pipe == Pipe::All || self.core.sync.blocked[pipe.index()].is_none() {
            return false;
        }
        let snap = Rc::new(Snapshot {
            r: self.core.r.clone(),
            h: self.core.h.clone(),
        });
        self.core.sync.pending[pipe.index()].push_back(crate::sync::Deferred::Instr { pc: self.pc, snap });
        true
    }

    /// SetFlag on `pipe` (deferred if the pipe is blocked); releases a pipe waiting for it.
    pub fn set_flag(&mut self, pipe: Pipe, key: FlagKey) {
        self.core.race.issue(pipe.index());
        if pipe != Pipe::S && self.core.sync.blocked[pipe.index()].is_some() {
            self.core.sync.pending[pipe.index()].push_back(crate::sync::Deferred::Set(key));
            return;
        }
        *self.core.sync.flags.entry(key).or_insert(0) += 1;
        self.core.race.set(pipe.index(), key);
        crate::timing::flag_set(self.core, self.pc, pipe, key);
        self.release();
    }

    /// WaitFlag on `pipe`: consumes the flag if set; otherwise blocks the pipe (or, on PIPE_S, the scalar unit
    /// for good: a deadlock). Returns false when the scalar unit deadlocked.
    pub fn wait_flag(&mut self, pipe: Pipe, key: FlagKey) -> bool {
        self.core.race.issue(pipe.index());
        if pipe != Pipe::S && self.core.sync.blocked[pipe.index()].is_some() {
            self.core.sync.pending[pipe.index()].push_back(crate::sync::Deferred::Wait(key, self.loc));
            return true;
        }
        if self.core.sync.take(key) {
            self.core.race.take(pipe.index(), key);
            crate::timing::flag_wait(self.core, self.pc, pipe, key);
            return true;
        }
        if pipe == Pipe::S || pipe == Pipe::All {
            let what = self.describe_flag(key);
            self.report_notes(
                code::DEADLOCK,
                format!("the scalar unit waits for {what}, which nothing sets: the core hangs here"),
                self.core.sync.blocked_notes(self.prog),
            );
            return false;
        }
        self.core.sync.blocked[pipe.index()] = Some((key, self.loc));
        true
    }

    /// Releases pipes whose flags are set and runs what waited in them, until nothing changes.
    fn release(&mut self) {
        loop {
            let mut progressed = false;
            for p in 0..PIPES {
                let Some((key, _)) = self.core.sync.blocked[p] else {
                    continue;
                };
                if !self.core.sync.take(key) {
                    continue;
                }
                self.core.race.take(p, key);
                crate::timing::flag_wait(self.core, self.pc, crate::timing::PIPE_AT[p], key);
                self.core.sync.blocked[p] = None;
                progressed = true;
                while self.core.sync.blocked[p].is_none() {
                    let Some(item) = self.core.sync.pending[p].pop_front() else {
                        break;
                    };
                    match item {
                        crate::sync::Deferred::Set(k) => {
                            *self.core.sync.flags.entry(k).or_insert(0) += 1;
                            self.core.race.set(p, k);
                            crate::timing::flag_set(self.core, self.pc, crate::timing::PIPE_AT[p], k);
                        }
                        crate::sync::Deferred::Wait(k, loc) => {
                            if self.core.sync.take(k) {
                                self.core.race.take(p, k);
                                crate::timing::flag_wait(self.core, self.pc, crate::timing::PIPE_AT[p], k);
                            } else {
                                self.core.sync.blocked[p] = Some((k, loc));
                            }
                        }
                        crate::sync::Deferred::Instr { pc, snap } => self.run_deferred(pc, &snap),
                    }
                }
            }
            if !progressed {
                break;
            }
        }
    }

    fn run_deferred(&mut self, pc: usize, snap: &Snapshot) {
        let prog = self.prog;
        let saved_r = std::mem::replace(&mut self.core.r, snap.r.clone());
        let saved_h = std::mem::replace(&mut self.core.h, snap.h.clone());
        let (saved_loc, saved_pc) = (self.loc, self.pc);
        self.loc = prog.code[pc].loc;
        self.pc = pc;
        if let Op::Api(api) = &prog.code[pc].op {
            let _ = self.exec_api(&**api);
        }
        self.loc = saved_loc;
        self.pc = saved_pc;
        // what the deferred instruction wrote to registers (an output parameter) is lost, as on hardware the
        // scalar unit had moved on; memory effects stay
        self.core.r = saved_r;
        self.core.h = saved_h;
    }

    pub fn describe_flag(&self, key: FlagKey) -> String {
        key.describe(self.prog)
    }
}
