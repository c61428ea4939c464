//! AscendIR's NPU simulator (rust_sim/PROGRAM.md describes the program it runs and the execution model).
//!
//! This file is the pyo3 surface only: argument checks, the numpy buffers borrowed for the run, the GIL
//! released around it, and panics caught so that none reaches Python.

pub mod api;
pub mod checks;
pub mod clobber;
pub mod core;
pub mod cube;
pub mod dma;
#[cfg(test)]
mod dma_tests;
pub mod dtype;
pub mod int4;
pub mod loop_mode;
pub mod memory;
pub mod mix;
pub mod nddma;
pub mod parse;
pub mod program;
pub mod queue;
pub mod race;
pub mod race_unchanged;
pub mod scalar;
pub mod scalar_bits;
pub mod sim;
pub mod simt;
pub mod sync;
pub mod system;
pub mod taint;
pub mod tensor;
#[cfg(test)]
mod test_rig;
pub mod timing;
pub mod vector;

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::memory::{Gm, GmBuf, GmRole};

/// Crate version, so Python can tell which build it imported.
pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// Round `bytes` up to the next multiple of `align` (a power of two or not);
/// the rule TPipe::InitBuffer applies to every buffer length (32 B on UB).
pub fn align_up(bytes: u64, align: u64) -> Option<u64> {
    if align == 0 {
        return None;
    }
    bytes.checked_add(align - 1).map(|v| v / align * align)
}

#[pyfunction(name = "version")]
fn py_version() -> &'static str {
    version()
}

#[pyfunction(name = "align_up")]
fn py_align_up(bytes: u64, align: u64) -> PyResult<u64> {
    align_up(bytes, align).ok_or_else(|| {
        PyValueError::new_err(format!(
            "cannot align {bytes} bytes to {align}: alignment must be positive and the result must fit in 64 bits"
        ))
    })
}

/// The `Api.overload` heads the simulator decodes (what it models).
#[pyfunction]
fn supported_calls() -> Vec<String> {
    api::registry().heads()
}

/// Parses a program and reports its size, or raises ValueError naming the bad line.
#[pyfunction]
fn check_program(text: &str) -> PyResult<(usize, usize, usize)> {
    let prog = catch_unwind(|| parse::parse(text))
        .map_err(|panic| {
            PyRuntimeError::new_err(format!(
                "the simulator failed while reading the program (a bug; please report): {}",
                panic_text(panic.as_ref())
            ))
        })?
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok((prog.code.len(), prog.n_regs, prog.n_handles))
}

/// One GM buffer as Python passes it: name, role, the array (None: a null pointer).
type PyBuffer<'py> = (String, String, Option<Bound<'py, PyArray1<u8>>>);

/// Raw GM buffers for the run, sendable to the thread that runs without the GIL.
struct Buffers(Vec<GmBuf>);
// SAFETY: the arrays stay borrowed read-write (the PyReadwriteArray guards live in `run`) until the run ends,
// and only the simulating thread touches them meanwhile.
unsafe impl Send for Buffers {}

fn role(name: &str) -> PyResult<GmRole> {
    Ok(match name {
        "input" => GmRole::Input,
        "inplace" => GmRole::InPlace,
        "output" => GmRole::Output,
        "workspace" => GmRole::Workspace,
        "tiling" => GmRole::Tiling,
        _ => return Err(PyValueError::new_err(format!("unknown buffer role '{name}'"))),
    })
}

/// The chip's timing tables as Python passes them: `table.key` numbers, and measured curves by route
/// (`gm_ub`: [(KiB, GiB/s), ...]).
type TimingTables = (HashMap<String, f64>, HashMap<String, Vec<(f64, f64)>>);

/// Runs `program` on `buffers` (one per kernel GM parameter, in order: (name, role, contiguous uint8 numpy
/// array or None); roles: input, inplace (an input the op updates in place), output, workspace, tiling);
/// `tensor_bytes`, one per buffer, says how many of its bytes are the tensor (None: all), the
/// rest being the padding allocated after it; `aliases`, one per buffer, gives for a parameter with no memory of
/// its own (its array None, its role not read) the index of the buffer it addresses (a ref tensor: the op's
/// input and output of one name are one memory, the kernel's two parameters for it one address). With
/// `block_dim` blocks on a chip with `cores` cores of the kernel's kind, stopping after
/// `budget` instructions. The arrays are read and written in place. With `timing` (the chip's timing tables)
/// the launch is also timed, and with `trace` (an event limit) a Chrome trace is written. Returns a dict:
/// findings (list of dicts), instructions, per_core, completed, timing (a dict, or None), trace (JSON text, or
/// None).
#[pyfunction]
#[pyo3(signature = (program, buffers, block_dim, cores, budget, timing=None, trace=None, tensor_bytes=None,
                    aliases=None))]
#[allow(clippy::too_many_arguments)]
fn run<'py>(
    py: Python<'py>,
    program: &str,
    buffers: Vec<PyBuffer<'py>>,
    block_dim: u32,
    cores: u32,
    budget: u64,
    timing: Option<TimingTables>,
    trace: Option<usize>,
    tensor_bytes: Option<Vec<Option<usize>>>,
    aliases: Option<Vec<Option<u32>>>,
) -> PyResult<Bound<'py, PyDict>> {
    let prog = catch_unwind(|| parse::parse(program))
        .map_err(|panic| {
            PyRuntimeError::new_err(format!(
                "the simulator failed while reading the program (a bug; please report): {}",
                panic_text(panic.as_ref())
            ))
        })?
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    if block_dim == 0 || block_dim > 65535 {
        return Err(PyValueError::new_err(format!(
            "blockDim {block_dim}: it must be 1 to 65535"
        )));
    }
    let mut guards = Vec::new();
    let mut bufs = Vec::new();
    if let Some(t) = &tensor_bytes {
        if t.len() != buffers.len() {
            return Err(PyValueError::new_err(format!(
                "tensor_bytes has {} entries for {} buffers",
                t.len(),
                buffers.len()
            )));
        }
    }
    let aliases = aliases.unwrap_or_else(|| vec![None; buffers.len()]);
    if aliases.len() != buffers.len() {
        return Err(PyValueError::new_err(format!(
            "aliases has {} entries for {} buffers",
            aliases.len(),
            buffers.len()
        )));
    }
    for (k, (name, role_name, array)) in buffers.iter().enumerate() {
        if let Some(j) = aliases[k] {
            let target = aliases
                .get(j as usize)
                .map(|a| (a.is_none(), buffers[j as usize].2.is_some()));
            if target != Some((true, true)) || array.is_some() {
                return Err(PyValueError::new_err(format!(
                    "buffer '{name}' addresses buffer {j}: that must be another buffer with an array, and \
                     '{name}' has none of its own"
                )));
            }
            bufs.push(GmBuf::alias_of(name.clone(), j));
            continue;
        }
        let role = role(role_name)?;
        let tensor = tensor_bytes.as_ref().and_then(|t| t[k]);
        match array {
            Some(arr) => {
                let mut rw = arr
                    .try_readwrite()
                    .map_err(|e| PyValueError::new_err(format!("buffer '{name}' cannot be written in place: {e}")))?;
                let slice = rw
                    .as_slice_mut()
                    .map_err(|_| PyValueError::new_err(format!("buffer '{name}' is not a contiguous array")))?;
                let (ptr, len) = (slice.as_mut_ptr(), slice.len());
                // SAFETY: the read-write guard keeps the array borrowed and alive until the run returns
                let buf = unsafe { GmBuf::from_raw(name.clone(), role, ptr, len) };
                bufs.push(match tensor {
                    Some(n) => buf.with_tensor_len(n),
                    None => buf,
                });
                guards.push(rw);
            }
            None => bufs.push(unsafe { GmBuf::from_raw(name.clone(), role, std::ptr::null_mut(), 0) }),
        }
    }
    let cfg = sim::Config {
        block_dim,
        cores: cores.max(1),
        budget,
        timing: timing.map(|(values, curves)| timing::Params::from_tables(&timing::ChipTables { values, curves })),
        trace_limit: trace,
    };
    let sendable = Buffers(bufs);
    let result = py.detach(move || {
        let mut sendable = sendable;
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let mut gm = Gm {
                bufs: std::mem::take(&mut sendable.0),
            };
            sim::run(&prog, &mut gm, &cfg)
        }));
        outcome.map(|o| (o, prog))
    });
    drop(guards);
    let (outcome, prog) = result.map_err(|panic| {
        PyRuntimeError::new_err(format!(
            "the simulator failed (a bug; please report): {}",
            panic_text(panic.as_ref())
        ))
    })?;
    let out = PyDict::new(py);
    let findings = PyList::empty(py);
    for f in &outcome.findings.list {
        let d = PyDict::new(py);
        d.set_item("code", f.code)?;
        d.set_item(
            "severity",
            match f.severity {
                checks::Severity::Error => "error",
                checks::Severity::Warning => "warning",
            },
        )?;
        d.set_item("message", &f.message)?;
        if f.loc >= 0 && (f.loc as usize) < prog.locs.len() {
            let l = &prog.locs[f.loc as usize];
            d.set_item("file", prog.files.get(l.file as usize).cloned().unwrap_or_default())?;
            d.set_item("line", l.line)?;
            d.set_item("col", l.col)?;
        }
        d.set_item("core", f.core)?;
        d.set_item("count", f.count)?;
        d.set_item("cores", f.cores)?;
        d.set_item("notes", f.notes.clone())?;
        findings.append(d)?;
    }
    out.set_item("findings", findings)?;
    out.set_item("instructions", outcome.instructions)?;
    out.set_item("per_core", outcome.per_core.clone())?;
    out.set_item("completed", outcome.completed)?;
    match &outcome.timing {
        Some(rep) => {
            out.set_item("timing", timing_dict(py, rep)?)?;
            out.set_item("trace", rep.trace.as_deref())?;
        }
        None => {
            out.set_item("timing", py.None())?;
            out.set_item("trace", py.None())?;
        }
    }
    Ok(out)
}

/// The timing report as a dict: cycles, microseconds, per-pipe figures, the bound, HBM use, waves, blocks.
fn timing_dict<'py>(py: Python<'py>, rep: &timing::Report) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("cycles", rep.cycles.ceil() as u64)?;
    d.set_item("microseconds", rep.microseconds)?;
    d.set_item("clock_mhz", rep.clock_mhz)?;
    let pipes = PyDict::new(py);
    for p in timing::trace::TRACK_PIPES {
        let e = PyDict::new(py);
        let busy = rep.busy[p.index()];
        e.set_item("busy", busy.round() as u64)?;
        e.set_item("busy_all_blocks", rep.busy_total[p.index()].round() as u64)?;
        e.set_item("utilization", if rep.cycles > 0.0 { busy / rep.cycles } else { 0.0 })?;
        pipes.set_item(p.name(), e)?;
    }
    d.set_item("pipes", pipes)?;
    d.set_item("bound", rep.bound.name())?;
    d.set_item("gm_bytes", rep.gm_bytes)?;
    d.set_item("hbm_bytes", rep.hbm_bytes)?;
    d.set_item("hbm_utilization", rep.hbm_utilization)?;
    d.set_item("waves", rep.waves)?;
    d.set_item("cores", rep.cores)?;
    d.set_item("unmodelled", rep.unmodelled)?;
    // [(api, calls)]: the calls of APIs without a timing class (timed by a guess)
    d.set_item("unmodelled_apis", rep.unknown_apis.clone())?;
    d.set_item("truncated", rep.truncated)?;
    d.set_item("hbm_rounds", rep.rounds)?;
    let blocks = PyList::empty(py);
    for b in &rep.blocks {
        blocks.append((b.block, b.core, b.start.round() as u64, b.end.ceil() as u64))?;
    }
    d.set_item("blocks", blocks)?;
    Ok(d)
}

thread_local! {
    /// The message and place of the last panic on this thread, kept by the hook for the exception's text.
    static LAST_PANIC: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Panics are caught and become a RuntimeError carrying their message and place, so the default hook's
/// "thread panicked at ..." on stderr would only be noise beside the exception. This library's own std holds
/// the hook (a cdylib links its own), so other extensions in the process keep theirs.
fn keep_panics_for_the_exception() {
    std::panic::set_hook(Box::new(record_panic));
}

/// The hook's work: keeps the panic's message and place for this thread's panic_text.
fn record_panic(info: &std::panic::PanicHookInfo<'_>) {
    let msg = payload_text(info.payload());
    let at = info
        .location()
        .map(|l| format!(" (at {}:{})", l.file(), l.line()))
        .unwrap_or_default();
    LAST_PANIC.with(|p| *p.borrow_mut() = Some(format!("{msg}{at}")));
}

fn payload_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "unknown".into())
}

/// What a caught panic says: the hook's message with its place, else the payload's text.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    LAST_PANIC
        .with(|p| p.borrow_mut().take())
        .unwrap_or_else(|| payload_text(payload))
}

#[pymodule]
fn _sim(m: &Bound<'_, PyModule>) -> PyResult<()> {
    keep_panics_for_the_exception();
    m.add_function(wrap_pyfunction!(py_version, m)?)?;
    m.add_function(wrap_pyfunction!(py_align_up, m)?)?;
    m.add_function(wrap_pyfunction!(supported_calls, m)?)?;
    m.add_function(wrap_pyfunction!(check_program, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    // the parser's limit, for the launcher's message before a run (passes/sim/launch.py)
    m.add("MAX_STACK_BYTES", parse::MAX_STACK_BYTES)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        /// Whether this test thread's panics go to record_panic (the others keep the hook they had).
        static RECORDING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }

    /// The tests of one binary run in parallel threads and the panic hook is the process's: swapping it for a
    /// test and back would take the other threads' panics (a failing test's message) while it is swapped. So
    /// the test hook goes in once, for good, and hands every panic of a thread not RECORDING to the hook that
    /// was there before.
    fn record_on_recording_threads() {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            let previous = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                if RECORDING.with(|r| r.get()) {
                    record_panic(info)
                } else {
                    previous(info)
                }
            }));
        });
    }

    #[test]
    fn a_caught_panic_keeps_its_message_and_place() {
        record_on_recording_threads();
        RECORDING.with(|r| r.set(true));
        let caught = catch_unwind(|| {
            let regs = [0u64; 3];
            let at = std::hint::black_box(7usize);
            regs[at]
        });
        RECORDING.with(|r| r.set(false));
        let text = panic_text(caught.expect_err("indexing past the end panics").as_ref());
        assert!(text.contains("index out of bounds"), "{text}");
        assert!(text.contains("(at rust_sim/src/lib.rs:"), "{text}");
        // the hook's record is taken once: a later payload is read from itself
        assert_eq!(panic_text(&"plain"), "plain");
    }

    #[test]
    fn a_panic_on_a_thread_not_recording_goes_to_the_hook_before() {
        // what a test failing beside the one above needs: its panic is not taken into LAST_PANIC (and lost)
        record_on_recording_threads();
        let caught = catch_unwind(|| panic!("reaches the previous hook"));
        assert!(caught.is_err());
        assert_eq!(LAST_PANIC.with(|p| p.borrow_mut().take()), None);
    }

    #[test]
    fn align_up_rounds_to_multiple() {
        assert_eq!(align_up(0, 32), Some(0));
        assert_eq!(align_up(1, 32), Some(32));
        assert_eq!(align_up(32, 32), Some(32));
        assert_eq!(align_up(100, 32), Some(128));
    }

    #[test]
    fn align_up_rejects_zero_and_overflow() {
        assert_eq!(align_up(5, 0), None);
        assert_eq!(align_up(u64::MAX, 32), None);
    }

    #[test]
    fn version_is_set() {
        assert!(!version().is_empty());
    }
}
