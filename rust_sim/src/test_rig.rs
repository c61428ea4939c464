//! The rig the simulator's unit tests share: a program built from text, run on one core with its GM buffers
//! bound to the program's `param` lines and local memory filled beforehand (or as a whole launch), then read
//! back. The cube tests' rig (cube/tests.rs) writes its header and the fractal layouts around this one.

use crate::checks::Findings;
use crate::core::{self, Core};
use crate::memory::{Gm, GmRole, Handle, LocalMem, MemKind, OwnedBuf, Space};
use crate::parse::parse;
use crate::program::Program;

/// A program's header and the data its run starts from.
pub(crate) struct Rig {
    head: String,
    gm: Vec<(GmRole, Vec<u8>)>,
    fills: Vec<(MemKind, usize, Vec<u8>)>,
}

/// One run: the core afterwards (registers, local memories), the GM buffers' bytes and the findings.
pub(crate) struct Out {
    pub(crate) core: Core,
    pub(crate) gm: Vec<Vec<u8>>,
    pub(crate) findings: Findings,
}

impl Rig {
    /// `head`: the program's lines between the format line and `code` (kernel, chip, mem, param, regs, stack,
    /// const), each ending in a newline.
    pub(crate) fn new(head: impl Into<String>) -> Rig {
        Rig {
            head: head.into(),
            gm: Vec::new(),
            fills: Vec::new(),
        }
    }

    /// The bytes of the GM buffer of the next `param` line (in index order); its handle covers all of them.
    pub(crate) fn gm(mut self, role: GmRole, data: Vec<u8>) -> Rig {
        self.gm.push((role, data));
        self
    }

    /// Writes `data` into local memory `m` at byte `at` before the run, marked as written.
    pub(crate) fn fill(mut self, m: MemKind, at: usize, data: Vec<u8>) -> Rig {
        self.fills.push((m, at, data));
        self
    }

    /// The program: the head around `code` (instructions, one per line; `ret` follows).
    fn program(&self, code: &str) -> Program {
        let text = format!("ascendir-sim 1\n{}code\n{code}\n  ret\nend\n", self.head);
        let prog = parse(&text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
        assert_eq!(prog.params.len(), self.gm.len(), "one GM buffer per param line\n{text}");
        prog
    }

    /// Calls `run` with GM buffers holding copies of the rig's GM data, named as `prog`'s params; its result
    /// and those buffers' bytes afterwards.
    fn on_gm<T>(&self, prog: &Program, run: impl FnOnce(&mut Gm) -> T) -> (T, Vec<Vec<u8>>) {
        let mut owned: Vec<OwnedBuf> = self.gm.iter().map(|(_, d)| OwnedBuf::new(d.clone())).collect();
        // SAFETY: `owned` outlives `gm`, which is dropped before the bytes are read back below.
        let bufs = owned
            .iter_mut()
            .zip(self.gm.iter().zip(&prog.params))
            .map(|(o, ((role, _), p))| unsafe { o.gm(&p.name, *role) })
            .collect();
        let mut gm = Gm { bufs };
        let result = run(&mut gm);
        drop(gm);
        (result, owned.into_iter().map(|o| o.data).collect())
    }

    /// Runs `code` as core 0 of 1, its GM parameters' handles over their buffers and the fills written.
    pub(crate) fn run(&self, code: &str) -> Out {
        let prog = self.program(code);
        let ((core, findings), gm) = self.on_gm(&prog, |gm| {
            let mut core = Core::new(&prog, 0, 1);
            for (i, p) in prog.params.iter().enumerate() {
                if let Some(h) = p.handle {
                    core.h[h as usize] = Handle {
                        space: Space::Gm(i as u32),
                        addr: 0,
                        len: gm.bufs[i].len() as i64,
                        alloc: 0,
                    };
                }
            }
            for (m, at, data) in &self.fills {
                let size = prog.memory(*m).expect("a fill of a memory the program declares").0;
                let mem = core.mem[*m as usize].get_or_insert_with(|| LocalMem::new(size));
                mem.data.as_mut_slice()[*at..*at + data.len()].copy_from_slice(data);
                mem.init[*at..*at + data.len()].fill(1);
            }
            let mut findings = Findings::new();
            // enough for the cube tests' whole matmuls; the single instructions use a few hundred steps
            let mut budget = 1_000_000u64;
            core::run(&mut core, gm, &prog, &mut findings, &mut budget);
            (core, findings)
        });
        Out { core, gm, findings }
    }

    /// Runs `code` as a whole launch of `block_dim` blocks (every core of a MIX block) on 24 cores; the fills
    /// are not written (a launch starts from empty local memories). The findings and GM afterwards.
    pub(crate) fn launch(&self, code: &str, block_dim: u32) -> (Findings, Vec<Vec<u8>>) {
        assert!(self.fills.is_empty(), "a launch does not write the fills");
        let prog = self.program(code);
        let cfg = crate::sim::Config {
            block_dim,
            cores: 24,
            budget: 1_000_000,
            timing: None,
            trace_limit: None,
        };
        let (out, gm) = self.on_gm(&prog, |gm| crate::sim::run(&prog, gm, &cfg));
        (out.findings, gm)
    }
}

impl Out {
    /// Local memory `m` after the run (empty when the program never made it).
    pub(crate) fn mem(&self, m: MemKind) -> &[u8] {
        self.core.mem[m as usize]
            .as_ref()
            .map(|l| l.data.as_slice())
            .unwrap_or(&[])
    }

    /// The findings' codes, in order.
    pub(crate) fn codes(&self) -> Vec<&'static str> {
        self.findings.list.iter().map(|f| f.code).collect()
    }

    /// `n` floats of UB from byte `at`.
    pub(crate) fn ub_f32(&self, at: usize, n: usize) -> Vec<f32> {
        read_f32(&self.ub().data.as_slice()[at..at + 4 * n])
    }

    /// UB after the run (the program must declare it).
    pub(crate) fn ub(&self) -> &LocalMem {
        self.core.mem[MemKind::Ub as usize].as_ref().expect("UB")
    }
}

/// Little-endian f32 bytes.
pub(crate) fn f32_bytes(v: impl IntoIterator<Item = f32>) -> Vec<u8> {
    v.into_iter().flat_map(f32::to_le_bytes).collect()
}

/// The f32 values of little-endian bytes.
pub(crate) fn read_f32(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}
