//! The context's accessors: findings at the running instruction, registers, local memories, and a catalog
//! call's run with the race and timing bookkeeping around it.

use super::*;

impl<'a> Ctx<'a> {
    // ------------------------------------------------------------------ findings

    pub fn report(&mut self, code: &'static str, message: String) {
        self.findings.report(
            code,
            Severity::Error,
            self.loc,
            self.core.block_idx as i64,
            message,
            Vec::new(),
        );
    }

    pub fn report_notes(&mut self, code: &'static str, message: String, notes: Vec<String>) {
        self.findings.report(
            code,
            Severity::Error,
            self.loc,
            self.core.block_idx as i64,
            message,
            notes,
        );
    }

    pub fn warn(&mut self, code: &'static str, message: String) {
        self.findings.report(
            code,
            Severity::Warning,
            self.loc,
            self.core.block_idx as i64,
            message,
            Vec::new(),
        );
    }

    // ------------------------------------------------------------------ registers

    #[inline]
    pub fn raw(&self, r: R) -> u64 {
        self.core.r[r as usize]
    }

    #[inline]
    pub fn int(&self, sv: Sv) -> i64 {
        sv.ty.sext(self.core.r[sv.reg as usize])
    }

    #[inline]
    pub fn uint(&self, sv: Sv) -> u64 {
        sv.ty.zext(self.core.r[sv.reg as usize])
    }

    #[inline]
    pub fn float(&self, sv: Sv) -> f64 {
        sv.ty.to_f64(self.core.r[sv.reg as usize])
    }

    /// A scalar operand's value in element type `dt` (a float register converted to an integer type, or the
    /// other way, as a C conversion would).
    pub fn value_as(&self, sv: Sv, dt: DType) -> u64 {
        let bits = self.core.r[sv.reg as usize];
        if sv.ty.is_float() == dt.is_float() && sv.ty.bits() as usize == dt.size() * 8 {
            return bits;
        }
        if sv.ty.is_float() {
            dt.from_f64(sv.ty.to_f64(bits))
        } else if dt.is_float() {
            dt.from_f64(sv.ty.sext(bits) as f64)
        } else {
            dt.from_i64(sv.ty.sext(bits))
        }
    }

    #[inline]
    pub fn set(&mut self, r: R, ty: STy, bits: u64) {
        self.core.r[r as usize] = ty.norm(bits);
    }

    #[inline]
    pub fn handle(&self, h: H) -> Handle {
        self.core.h[h as usize]
    }

    #[inline]
    pub fn set_handle(&mut self, h: H, v: Handle) {
        self.core.h[h as usize] = v;
    }

    // ------------------------------------------------------------------ memories

    /// GetValue's read (the instruction's and LocalTensor / GlobalTensor::GetValue's) of an `elem` scalar at byte
    /// `at` of `space`, in range: its bits, and the mask of those that bytes nothing wrote form
    /// (taint::unwritten_bits; 0 when every byte was written).
    pub fn read_scalar(&mut self, space: Space, at: usize, elem: DType) -> (u64, u64) {
        let n = elem.size();
        let mut flags = [1u8; 8];
        let bits = match space {
            Space::Gm(b) => {
                let buf = &self.gm.bufs[b as usize];
                if !buf.all_init(at, n) {
                    buf.init_flags(at, &mut flags[..n]);
                }
                elem.load_bits(&buf.bytes()[at..])
            }
            Space::Local(m) => {
                let mem = self.local(m);
                flags[..n].copy_from_slice(&mem.init[at..at + n]);
                elem.load_bits(&mem.data.as_slice()[at..])
            }
            Space::Null => 0,
        };
        (bits, crate::taint::unwritten_bits(&flags[..n], elem.is_float()))
    }

    pub fn local(&mut self, m: MemKind) -> &mut LocalMem {
        let idx = m as usize;
        if self.core.mem[idx].is_none() {
            let size = self.prog.memory(m).map(|(s, _)| s).unwrap_or(0);
            self.core.mem[idx] = Some(LocalMem::new(size));
        }
        self.core.mem[idx].as_mut().unwrap()
    }

    pub fn local_size(&self, m: MemKind) -> usize {
        self.prog.memory(m).map(|(s, _)| s).unwrap_or(0)
    }

    /// Runs a catalog call; when time is modelled, records what it cost (timing/mod.rs).
    pub fn exec_api(&mut self, api: &dyn crate::api::ApiOp) -> Flow {
        crate::timing::begin_op(self.core);
        let pipe = api.pipe().index();
        self.core.race.issue(pipe);
        let outer = std::mem::replace(&mut self.core.race.current, pipe);
        let flow = api.exec(self);
        crate::race_unchanged::settle(self);
        self.core.race.current = outer;
        crate::timing::end_op(self, api.pipe(), flow);
        flow
    }
}
