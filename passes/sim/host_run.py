"""A host program on the simulator: its main lowered as the entry (ascendir/lower/host_program.py), the device
buffers its aclrtMalloc calls allocate bound to the run's tensors.

The buffers are the entry's GM parameters, in allocation order. Those main copies into from host arrays are the
inputs: the run's tensors, in that order or by the pointer variable's name (`deviceA=...`); one given no tensor is
filled with seeded random data of its host array's element type (passes/sim/random_inputs.py, as `ascendir run`
draws). Those main copies back are the outputs (one copied both ways is in place: its input is given or drawn, and
its output is what the kernel left there), each as a flat array of its host array's element type (the bytes
the program allocated); the rest (the workspace) start zeroed. blockDim is the launch's, when it folds (the
platform's AIC count folds to the chip's), else the caller's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from frontend.diagnostics import Diagnostic, Severity, Span, error

HOST_PROGRAM_NOT_RUN = "ASC958"  # a run that cannot start (passes/sim/rules.py)


def defines_main(text: str) -> bool:
    import re

    return re.search(r"\bint\s+main\s*\(", text) is not None


def is_host_program(units: Sequence[Any]) -> bool:
    """A source with a main and no kernel of its own (its kernels come from the headers it includes, as in
    catlass's examples), alone or with the other sources of its executable (read_bundle's `sources`): a host
    program. (A CANN 9 `.asc` file defines its kernels beside its main: a kernel source, whose kernels are run as
    they are.)"""
    if not units or not defines_main(units[0].text):
        return False
    return all("__global__" not in u.text and "__aicore__" not in u.text for u in units) and \
        not any(defines_main(u.text) for u in units[1:])


def as_host_program(bundle: Any) -> bool:
    """Marks a host program's source a kernel source: the device build compiles it too, so it is read with the
    kernel's macros. True when `bundle` is a host program."""
    if not is_host_program(bundle.units):
        return False
    for unit in bundle.units:
        unit.role = "kernel"
    return True


def read_bundle(path: str, fmt: str = "auto", include_dirs: Sequence[str] = (), sources: Sequence[str] = ()) -> Any:
    """The input at `path` read for a run (a frontend Bundle), its headers searched in `include_dirs` as -I folders
    are, a host program marked so (as_host_program). `sources`: the other sources of a host program's executable,
    compiled and linked with it (catlass 19_mla's CMakeLists builds mla.cpp with mla_tiling.cpp, which defines the
    tiling function main calls)."""
    import os

    from frontend.includes import CompileFlags
    from frontend.readers import collect_inputs
    from passes.sim.launch import SimError

    bundles = collect_inputs([path], fmt)
    if not bundles:
        raise SimError(f"{path}: nothing to run there")
    bundle = bundles[0]
    for source in sources:
        more = collect_inputs([source], "cpp")
        if not more or not more[0].units:
            raise SimError(f"{source}: no source to read there")
        bundle.units += more[0].units
        bundle.texts.update(more[0].texts)
    if include_dirs:
        bundle.flags = CompileFlags(tuple(os.path.abspath(d) for d in include_dirs)).then(bundle.flags)
    as_host_program(bundle)
    return bundle


def run_host_program(program: Any, chip: str, inputs: Sequence[Any] | Mapping[str, Any], args: Sequence[str],
                     *, block_dim: int | None = None, budget: int, timing: bool = True, trace: bool | int = False,
                     seed: int = 0, used_inputs: dict[str, np.ndarray] | None = None) -> Any:
    """Runs the host program's main on the simulator (see the module's docstring). `used_inputs`, when given, is
    filled with the input buffers' arrays as the kernel got them (those drawn at random included; an in-place
    buffer's as '<name>.in')."""
    from ascendir.lower import LoweringOptions
    from ascendir.lower.host_program import KERNEL_ATTR
    from passes.sim import NotModelled, build_program
    from passes.sim.launch import SIM_ERROR, SimResult, execute, numpy_dtype
    from passes.sim.lowering_cache import lowered_copy

    errors = [d for d in program.diagnostics if d.is_error]
    if errors:
        return SimResult({}, errors, completed=False)
    options = LoweringOptions(chip=chip, host_args=tuple(args))
    for attempt in range(_LOWERINGS):
        lowered = lowered_copy(program, options)
        findings = [d for d in lowered.diagnostics if d.is_error and d.code != "ASC103"]
        if not lowered.kernels:
            why = "; ".join(d.message for d in lowered.diagnostics if d.is_error or d.code == "ASC103")[:600]
            return SimResult({}, findings + [error(HOST_PROGRAM_NOT_RUN, "the host program's main could not be "
                                                   f"followed to a kernel launch{': ' + why if why else ''}", None)],
                             completed=False)
        kernel = lowered.kernels[0]
        described = json.loads(kernel.attributes[KERNEL_ATTR].data)  # type: ignore[attr-defined]
        marked, unknown, past_end = _marked_values(lowered.module)
        # vectors of objects whose count main computes, host memory's length, and host vectors the run is given
        # by name: main is lowered once more with them (ascendir/lower/host_program_vectors.py), and again when
        # that makes more counts known (a host buffer sized by values given: host_program_buffers.py)
        counts = tuple(sorted({**dict(options.host_counts),  # (those known already are no marks now)
                               **{k[len("count."):]: v for k, v in marked.items() if k.startswith("count.")}}.items()))
        given = _given_vectors(described, inputs)
        if attempt == _LOWERINGS - 1 or (counts, given) == (tuple(options.host_counts), tuple(options.host_given)):
            break
        options = LoweringOptions(chip=chip, host_args=tuple(args), host_counts=counts, host_given=given)
    if isinstance(inputs, Mapping):
        inputs = {n: a for n, a in inputs.items() if n not in {g[0] for g in options.host_given}}
    findings += _draws(described.get("random") or [], used_inputs)
    findings += [error(HOST_PROGRAM_NOT_RUN, g["why"], Span(*g["span"])) for g in described.get("gaps") or []]
    if described.get("kernel") is None:
        # main reaches its launch only through a call left out (a table of functions whose key the run could not
        # evaluate: ascendir/lower/function_tables.py), reported above
        return SimResult({}, findings + [error(HOST_PROGRAM_NOT_RUN, "main launches no kernel the lowering could "
                                               "follow", None)], completed=False)
    findings += _file_reads(described, inputs)
    for i, b in enumerate(described["buffers"]):  # an array main computes and copies in: those bytes
        if f"content.{i}" in marked and b["role"] == "input":
            b["content"] = marked[f"content.{i}"]
            if unwritten := sorted(set(marked.get(f"unwritten.content.{i}", ()))):
                findings.append(Diagnostic(HOST_PROGRAM_NOT_RUN, Severity.NOTE, f"main never writes element"
                                           f"{'s' * (len(unwritten) > 1)} {_ranges(unwritten)} of the host memory "
                                           f"it copies into device buffer '{b['name']}': copied as 0 (on the "
                                           "device, whatever that memory held)", None))
        elif f"content.{i}" in unknown and b["role"] == "input" and not (
                b["name"] in inputs if isinstance(inputs, Mapping) else inputs):
            # bytes main computes that its evaluation here could not follow (an operation it does not model, a
            # value only the device knows): the buffer would be drawn at random, a tiling the kernel runs away on
            source = f" from '{b['source']}'" if b.get("source") else ""
            findings.append(error(HOST_PROGRAM_NOT_RUN, f"main computes the bytes it copies into device buffer "
                                  f"'{b['name']}'{source}, and the run could not follow them: they are drawn at "
                                  f"random; give them with --input {b['name']}=FILE.npy", None))
    for i, b in enumerate(described["buffers"]):
        if b["size"] is None and f"size.{i}" not in unknown:
            b["size"] = marked.get(f"size.{i}", 0)  # an allocation main never reaches: no memory
    dim = marked.get("block_dim") or described.get("block_dim") or block_dim
    if not dim:
        return SimResult({}, findings + [error(HOST_PROGRAM_NOT_RUN, "the launch's blockDim does not fold to a "
                                               "number here: give it with --block-dim", None)], completed=False)
    from passes.sim.host_struct_reads import read_fields_from_gm

    read_fields_from_gm(lowered.module, program)  # `__gm__ S *` reads of a struct main copied there: from GM
    try:
        sim_program = build_program(lowered.module, chip, kernel.sym_name.data)
    except NotModelled as exc:
        return SimResult({}, findings + [error(SIM_ERROR, f"the simulator cannot run this kernel: it does not "
                                                          f"model {exc}", None)], completed=False)
    buffers = described["buffers"]
    sized = [b for b in buffers if b["size"] is None]
    if sized:
        read = (f": main's code reads past the end of an array ({'; '.join(past_end)}), whose value C++ leaves "
                "undefined" if past_end else "")
        return SimResult({}, findings + [error(HOST_PROGRAM_NOT_RUN, f"the size of device buffer "
                                               f"'{sized[0]['name']}' does not fold to a number here{read}", None)],
                         completed=False)
    arrays, outputs = _bind(buffers, inputs, np.random.default_rng(seed), numpy_dtype)
    if used_inputs is not None:
        # (an in-place buffer's input as '<name>.in': its name is the output's)
        used_inputs.update((b["name"] + (".in" if b["role"] == "inplace" else ""),
                            a.view(np.dtype(numpy_dtype(b["dtype"] or "uint8"))).copy())
                           for b, a in zip(buffers, arrays) if b["role"] in _COPIED_IN)
    roles = [b["role"] if b["role"] in ("input", "output", "inplace") else "workspace" for b in buffers]
    if len(sim_program.params) != len(buffers):
        return SimResult({}, findings + [error(HOST_PROGRAM_NOT_RUN, f"the entry has {len(sim_program.params)} "
                                               f"parameters for {len(buffers)} device buffers", None)],
                         completed=False)
    # the entry's parameters are the buffers, in allocation order (their names may be made unique again)
    triples = [(p.name, role, arr) for p, role, arr in zip(sim_program.params, roles, arrays)]
    return execute(sim_program, triples, int(dim), chip, budget=budget, timing=timing, trace=trace,
                   findings=findings, outputs=outputs, key=None)


_LOWERINGS = 3  # main lowered at most this often: plain, with the counts and values given, with the counts those make


def _file_reads(described: dict[str, Any], inputs: Sequence[Any] | Mapping[str, Any]) -> list[Any]:
    """What main reads from host files the run was not given (ascendir/lower/host_program_buffers.py): an error
    for a buffer main reads itself (its values make sizes, tiling), a note for one it copies to a device buffer
    not given either (drawn at random)."""
    from frontend.diagnostics import Diagnostic, Severity

    found = []
    given = set(inputs) if isinstance(inputs, Mapping) else set()
    for f in described.get("files") or []:
        name, reader, where = f["buffer"], f["reader"], Span(*f["span"])
        copies = [b["name"] for b in described["buffers"] if b.get("source") == name and b["role"] in _COPIED_IN]
        if not copies:
            found.append(error(HOST_PROGRAM_NOT_RUN, f"main reads host buffer '{name}' from a file ({reader}), "
                               f"which the run does not: give its values with --input {name}=FILE.npy", where))
        elif not given & set(copies):
            found.append(Diagnostic(HOST_PROGRAM_NOT_RUN, Severity.NOTE, f"device buffer '{copies[0]}' holds what "
                                    f"main reads from a file into '{name}' ({reader}), which the run does not: "
                                    f"drawn at random; give it with --input {copies[0]}=FILE.npy", where))
    return found


def _given_vectors(described: dict[str, Any], inputs: Sequence[Any] | Mapping[str, Any]
                   ) -> tuple[tuple[str, str, tuple[int | float, ...]], ...]:
    """Inputs given by a name no device buffer has: host vectors main computes with code the lowering cannot
    follow (catlass's GenerateGroupList draws in a loop and sorts), each as (name, C element type, values)."""
    if not isinstance(inputs, Mapping):
        return ()
    names = {b["name"] for b in described["buffers"]}
    given = []
    for name, array in inputs.items():
        a = np.asarray(array)
        if name in names or a.dtype.name not in _C_TYPES or a.ndim > 1:
            continue
        given.append((name, _C_TYPES[a.dtype.name], tuple(a.reshape(-1).tolist())))
    return tuple(given)


_C_TYPES = {"int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t", "uint16": "uint16_t", "int32": "int32_t",
            "uint32": "uint32_t", "int64": "int64_t", "uint64": "uint64_t", "float32": "float", "float64": "double"}


def _draws(draws: list[dict[str, Any]], used_inputs: dict[str, np.ndarray] | None) -> list[Any]:
    """The values main's rand() calls drew (ascendir/lower/host_random.py): said in a note, and kept as the
    input 'rand' (written beside the outputs), so a reference can be computed from the same values."""
    from frontend.diagnostics import Diagnostic, Severity, Span

    # a draw the lowering could not make (in a loop of main): its statement was left out, so what it computes
    # is wrong in the run; an error at the call
    found = [error(HOST_PROGRAM_NOT_RUN, d["why"], Span(*d["span"])) for d in draws if d["value"] is None]
    values = [d["value"] for d in draws if d["value"] is not None]
    if not values:
        return found
    if used_inputs is not None:
        used_inputs["rand"] = np.array(values, dtype=np.int64)
    first = next(d for d in draws if d["value"] is not None)
    shown = ", ".join(str(v) for v in values[:8]) + (", ..." if len(values) > 8 else "")
    return found + [Diagnostic(HOST_PROGRAM_NOT_RUN, Severity.NOTE, f"rand() is not the host's here: main drew "
                               f"{len(values)} value{'s' * (len(values) != 1)} ({shown}) from glibc's generator "
                               "seeded 1, time() being 0", Span(*first["span"]))]


def _ranges(numbers: list[int]) -> str:
    """[19, 20, 21, 26] -> '19-21, 26'."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(f"{a}-{b}" if b > a else str(a) for a, b in runs)


def _marked_values(module: Any) -> tuple[dict[str, Any], set[str], list[str]]:
    """The sizes and blockDim the lowering kept as marks (host_program.MARK), as main's code computes them
    (passes/sim/host_values.py), and those it may reach with a value not known here. The marks are dropped from
    `module`."""
    from ascendir.dialects import ascendc as asc
    from ascendir.lower.host_program import MARK
    from passes.sim.host_values import marked_values

    kernels = [op for op in module.walk() if isinstance(op, asc.KernelOp)]
    values = marked_values(kernels[0], MARK) if kernels else ({}, set(), [])
    for op in [op for op in module.walk() if isinstance(op, asc.OpaqueCallOp) and op.callee.data.startswith(MARK)]:
        op.detach()
        op.erase()
    return values


# a buffer main copies to the device: an input, or an in-place one it also copies back (its output, the bytes the
# kernel left there)
_COPIED_IN = ("input", "inplace")


def _bind(buffers: list[dict[str, Any]], inputs: Sequence[Any] | Mapping[str, Any], rng: Any,
          numpy_dtype: Any) -> tuple[list[np.ndarray], dict[str, np.ndarray]]:
    """Each buffer's bytes (a uint8 view of the array it holds) and the output arrays by buffer name."""
    from passes.sim.launch import SimError
    from passes.sim.random_inputs import random_input

    ins = [b for b in buffers if b["role"] in _COPIED_IN]
    given: dict[str, Any] = {}
    if isinstance(inputs, Mapping):
        unknown = [n for n in inputs if n not in {b["name"] for b in ins}]
        if unknown:
            raise SimError(f"no input buffer named '{unknown[0]}' (the program copies into "
                           f"{', '.join(b['name'] for b in ins) or 'none'})")
        given = dict(inputs)
    else:
        if len(inputs) > len(ins):
            raise SimError(f"{len(inputs)} inputs given for a program that copies {len(ins)} to the device")
        given = {b["name"]: a for b, a in zip(ins, inputs)}
    arrays: list[np.ndarray] = []
    outputs: dict[str, np.ndarray] = {}
    for b in buffers:
        dtype = np.dtype(numpy_dtype(b["dtype"] or "uint8"))
        count = b["size"] // dtype.itemsize
        if b["role"] in _COPIED_IN:
            arr = given.get(b["name"])
            if arr is None and b.get("content") is not None:
                arr = np.frombuffer(b["content"], np.uint8).copy()  # what main computed and copied there
            if arr is None:
                arr = random_input(count, b["dtype"] or "uint8", rng)
            arr = np.ascontiguousarray(arr)
            if arr.nbytes != b["size"]:
                raise SimError(f"input '{b['name']}' has {arr.nbytes} bytes; the program allocates {b['size']}")
            if b["role"] == "inplace":  # the kernel's writes land in a copy, the output; the input stays as given
                arr = arr.reshape(-1).copy()
                outputs[b["name"]] = arr.view(dtype) if arr.dtype != dtype else arr
            arrays.append(arr.reshape(-1).view(np.uint8))
        elif b["role"] == "output":
            out = np.zeros(count, dtype=dtype)
            outputs[b["name"]] = out
            arrays.append(out.view(np.uint8))
        else:
            arrays.append(np.zeros(b["size"], dtype=np.uint8))
    return arrays, outputs
