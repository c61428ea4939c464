"""How many seeded bugs ascendc-check finds in real kernels: mutation testing of the rule catalog.

    .venv/bin/python bench/perf/mutants.py /path/to/kernels [--sample N] [--per-file 2] [--jobs 2]
                                           [--operators drop-free,double-free] [--json OUT] [--misses 5]

`realworld.py` measures recall on the bugs that models made in one benchmark; this measures it on bugs put
into kernels that vendors ship, the kind of held-out buggy kernel the rules must not be tuned to. Every
kernel file under the folder that checks clean (no error, within the time limit) gets, one at a time, one
small edit that makes it wrong in a way the documentation or the CPU-debug mode rules out: a FreeTensor
dropped or doubled, an EnQue dropped, a DeQue turned into an AllocTensor, a FreeTensor moved above the
tensor's last use, a SetFlag or WaitFlag dropped, a TQue moved to VECCALC, a second TPipe, a double scalar
for a tensor-scalar op, an unqualified AscendC call that argument-dependent lookup cannot find, an EnQue or
an InitBuffer written twice, a FreeTensor on another queue, `using namespace AscendC` deleted, a DeQue from
another queue, a LocalTensor declared with another element type, an InitBuffer of 1 MB, a DataCopy count plus
one, a Cast round mode the route does not take, an output GlobalTensor set up without its per-core offset.
The mutant
counts as found when the checker reports an error (code, line) the original did not have, or a warning of
the rule family expected to find it (InitBuffer twice, ASC212, is a warning); the table also
says how many of those are in the expected rule family and within three lines of the edit. Only edits on
lines the lowering of the original reaches are counted (an edit in code preprocessed away, in a template
never instantiated or in a function no kernel calls changes nothing the checker sees); the others are
listed as "not lowered", with the edits that leave the program correct (a `using namespace AscendC` that an
included header also has).

With `--projects`, op projects (op_host/ + op_kernel/) are mutated instead, with edits that break the
agreement between host and kernel: SetBlockDim deleted, REGISTER_TILING_DATA_CLASS naming another operator,
a tiling field misspelt on either side, the host's set_X of a field the kernel reads deleted.

Some edits cannot be proven wrong from the file alone (a dropped WaitFlag whose SetFlag sits in a callee
the checker cannot see, a dropped FreeTensor in code that never runs twice): misses are listed per operator
to read, not all of them are rule gaps. The edits are textual and line-based, so they only apply to lines
that hold exactly one such statement.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.perf.real_kernels import _on_alarm, _Timeout, kernel_files, project_dirs, sample  # noqa: E402

DEFAULT_JSON = ROOT / "bench" / "perf" / "results" / "mutants.json"
NEAR_LINES = 3

# One statement per line, as the edits need: `que.FreeTensor(x);`, `que.EnQue<T>(x);`, ...
_FREE = re.compile(r"^(\s*)([\w.\->\[\]]+?)(\.|->)FreeTensor\s*\(\s*(\w+)\s*\)\s*;\s*(//.*)?$")
_ENQUE = re.compile(r"^\s*[\w.\->\[\]]+?(\.|->)EnQue\s*(<[^;]*>)?\s*\(\s*\w+\s*\)\s*;\s*(//.*)?$")
_DEQUE = re.compile(r"(\.|->)DeQue\s*(<[^;()]*>)?\s*\(\s*\)")
_SETFLAG = re.compile(r"^\s*(AscendC::)?SetFlag\s*<[^;]*>\s*\([^;]*\)\s*;\s*(//.*)?$")
_WAITFLAG = re.compile(r"^\s*(AscendC::)?WaitFlag\s*<[^;]*>\s*\([^;]*\)\s*;\s*(//.*)?$")
_VECIN_QUE = re.compile(r"(TQue\s*<\s*(AscendC::)?(TPosition|QuePosition)::)VECIN\b")
_TPIPE_DECL = re.compile(r"^(\s*)(AscendC::)?TPipe\s+(\w+)\s*;\s*(//.*)?$")
_SCALAR_OP = re.compile(r"\b((AscendC::)?(Muls|Adds|Maxs|Mins))\s*(<[^;()]*>)?\s*\(")
_INIT_BUFFER = re.compile(r"^\s*[\w.\->\[\]]+?(\.|->)InitBuffer\s*\([^;]*\)\s*;\s*(//.*)?$")
_QUEUE_DECL = re.compile(r"\bTQue(Bind)?\s*<[^;{}()]*>\s+(\w+)\s*;")
_USING_ASCENDC = re.compile(r"^\s*using\s+namespace\s+AscendC\s*;\s*(//.*)?$")
_BARE_TYPE = re.compile(r"(?<!::)(?<![\w])(TPipe|TQue|TQueBind|TBuf|LocalTensor|GlobalTensor)\b(?!\s*\()")
_DEQUE_CALL = re.compile(r"([\w.\->\[\]]+?)(?:\.|->)DeQue\s*(<[^;()]*>)?\s*\(\s*\)")
_TENSOR_DECL = re.compile(r"^\s*(?:AscendC::)?LocalTensor\s*<\s*([\w:]+)\s*>\s+\w+\s*=\s*[\w.\->\[\]]+?(?:\.|->)"
                          r"(?:DeQue|AllocTensor|Get)\s*<\s*\1\s*>\s*\([^;]*\)\s*;\s*(//.*)?$")
_DATACOPY = re.compile(r"\b(AscendC::)?DataCopy\s*(<[^;()]*>)?\s*\(")
_ROUND_MODE = re.compile(r"RoundMode::(CAST_\w+)")
_SET_GLOBAL = re.compile(r"(\.|->)SetGlobalBuffer\s*\(")
_NOARG_CALL = re.compile(r"\bAscendC::((GetBlockIdx|GetBlockNum|GetSubBlockIdx|GetTaskRation)\s*\(\s*\)"
                         r"|PipeBarrier\s*<\s*PIPE_\w+\s*>\s*\(\s*\))")


@dataclass(frozen=True)
class Mutant:
    operator: str
    line: int          # 1-based line of the edit in the original file
    text: str          # the whole mutated file


@dataclass(frozen=True)
class Operator:
    name: str
    family: tuple[str, ...]      # code prefixes of the rules expected to find it
    what: str
    sites: Callable[[list[str]], Iterator[tuple[int, list[str]]]]  # (0-based line, new lines)
    needs_live: bool = True  # the edited line must be one the lowering of the original reaches
    # whether the mutated program is still correct (the edit changed nothing that matters), judged on it
    still_correct: Callable[[object], bool] | None = None


def _code_lines(lines: list[str]) -> Iterator[int]:
    """Indices of lines outside block comments and preprocessor-disabled `#if 0` regions, not comment-only."""
    in_block = False
    disabled = 0
    for i, line in enumerate(lines):
        stripped = line.strip()
        if in_block:
            if "*/" in stripped:
                in_block = False
            continue
        if stripped.startswith("/*") and "*/" not in stripped:
            in_block = True
            continue
        if re.match(r"#\s*if\s+0\b", stripped):
            disabled += 1
            continue
        if disabled and re.match(r"#\s*if", stripped):
            disabled += 1
            continue
        if disabled and re.match(r"#\s*endif", stripped):
            disabled -= 1
            continue
        if disabled or stripped.startswith("//"):
            continue
        yield i


def _drop(pattern: re.Pattern[str]) -> Callable[[list[str]], Iterator[tuple[int, list[str]]]]:
    def sites(lines: list[str]) -> Iterator[tuple[int, list[str]]]:
        for i in _code_lines(lines):
            if pattern.match(lines[i]):
                yield i, lines[:i] + lines[i + 1:]
    return sites


def _double_free(lines: list[str]) -> Iterator[tuple[int, list[str]]]:
    for i in _code_lines(lines):
        if _FREE.match(lines[i]):
            yield i, lines[:i + 1] + [lines[i]] + lines[i + 1:]


def _free_before_use(lines: list[str]) -> Iterator[tuple[int, list[str]]]:
    """Move `q.FreeTensor(x);` above the closest earlier statement of the same block that uses x."""
    code = list(_code_lines(lines))
    for pos, i in enumerate(code):
        match = _FREE.match(lines[i])
        if not match:
            continue
        var = re.compile(rf"\b{re.escape(match.group(4))}\b")
        for j in reversed(code[:pos]):
            text = lines[j]
            if "{" in text or "}" in text:
                break  # leave the block: the move would change scope, not order
            if var.search(text):
                if _DEQUE.search(text) or "AllocTensor" in text or re.search(r"\bLocalTensor\b", text):
                    break  # the tensor's definition: nothing uses it between there and the free
                yield i, lines[:j] + [lines[i]] + lines[j:i] + lines[i + 1:]
                break


def _alloc_for_deque(lines: list[str]) -> Iterator[tuple[int, list[str]]]:
    for i in _code_lines(lines):
        match = _DEQUE.search(lines[i])
        if match and match.group(2):
            new = lines[i][:match.start()] + f"{match.group(1)}AllocTensor{match.group(2)}()" + lines[i][match.end():]
            yield i, lines[:i] + [new] + lines[i + 1:]


def _veccalc_queue(lines: list[str]) -> Iterator[tuple[int, list[str]]]:
    for i in _code_lines(lines):
        if _VECIN_QUE.search(lines[i]):
            yield i, lines[:i] + [_VECIN_QUE.sub(r"\1VECCALC", lines[i], count=1)] + lines[i + 1:]


def _second_pipe(lines: list[str]) -> Iterator[tuple[int, list[str]]]:
    """After `TPipe pipe;` declare a second pipe and give the first InitBuffer after it to that pipe."""
    for i in _code_lines(lines):
        match = _TPIPE_DECL.match(lines[i])
        if not match:
            continue
        name = match.group(3)
        init = re.compile(rf"\b{re.escape(name)}(\.|->)InitBuffer\s*\(")
        for j in range(i + 1, len(lines)):
            if init.search(lines[j]):
                extra = f"{match.group(1)}{match.group(2) or ''}TPipe {name}Extra;"
                moved = init.sub(lambda m: f"{name}Extra{m.group(1)}InitBuffer(", lines[j], count=1)
                yield i, lines[:i + 1] + [extra] + lines[i + 1:j] + [moved] + lines[j + 1:]
                break


def _split_args(text: str, start: int) -> tuple[list[tuple[int, int]], int] | None:
    """Spans of the top-level arguments of the call whose '(' is at `start`, and the index of its ')'."""
    depth = 0
    spans = []
    begin = start + 1
    for k in range(start, len(text)):
        ch = text[k]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                spans.append((begin, k))
                return spans, k
        elif ch == "," and depth == 1:
            spans.append((begin, k))
            begin = k + 1
    return None


def _double_scalar(lines: list[str]) -> Iterator[tuple[int, list[str]]]:
    """Muls/Adds/Maxs/Mins(dst, src, scalar, count): make the scalar a double."""
    for i in _code_lines(lines):
        match = _SCALAR_OP.search(lines[i])
        if not match:
            continue
        parsed = _split_args(lines[i], match.end() - 1)
        if not parsed or len(parsed[0]) < 4:
            continue
        begin, end = parsed[0][2]
        scalar = lines[i][begin:end].strip()
        new = lines[i][:begin] + f" static_cast<double>({scalar})" + lines[i][end:]
        yield i, lines[:i] + [new] + lines[i + 1:]


def _unqualify(lines: list[str]) -> Iterator[tuple[int, list[str]]]:
    """`AscendC::GetBlockIdx()` -> `GetBlockIdx()` in a file with no `using namespace AscendC`."""
    joined = "\n".join(lines)
    if re.search(r"using\s+namespace\s+AscendC\b|namespace\s+AscendC\s*\{", joined):
        return
    for i in _code_lines(lines):
        match = _NOARG_CALL.search(lines[i])
        if match:
            new = lines[i][:match.start()] + match.group(1) + lines[i][match.end():]
            yield i, lines[:i] + [new] + lines[i + 1:]


def _double_enque(lines: list[str]) -> Iterator[tuple[int, list[str]]]:
    for i in _code_lines(lines):
        if _ENQUE.match(lines[i]):
            yield i, lines[:i + 1] + [lines[i]] + lines[i + 1:]


def _init_buffer_twice(lines: list[str]) -> Iterator[tuple[int, list[str]]]:
    for i in _code_lines(lines):
        if _INIT_BUFFER.match(lines[i]):
            yield i, lines[:i + 1] + [lines[i]] + lines[i + 1:]


def _queue_names(lines: list[str]) -> list[str]:
    """The TQue members and variables the file declares, in order."""
    return list(dict.fromkeys(m.group(2) for m in _QUEUE_DECL.finditer("\n".join(lines))))


def _free_wrong_queue(lines: list[str]) -> Iterator[tuple[int, list[str]]]:
    """`inQueueX.FreeTensor(x)` -> `outQueueY.FreeTensor(x)`, with another TQue member of the file."""
    queues = _queue_names(lines)
    for i in _code_lines(lines):
        match = _FREE.match(lines[i])
        if not match:
            continue
        receiver = match.group(2).removeprefix("this->")
        other = next((q for q in queues if q != receiver), None)
        if receiver in queues and other is not None:
            new = f"{match.group(1)}{other}.FreeTensor({match.group(4)});"
            yield i, lines[:i] + [new] + lines[i + 1:]


def _deque_wrong_queue(lines: list[str]) -> Iterator[tuple[int, list[str]]]:
    """`x = inQueueX.DeQue<T>()` -> `x = inQueueY.DeQue<T>()`, with another TQue member of the file (a
    copy-paste slip: the other queue's FIFO is empty there, or holds a tensor of another stage)."""
    queues = _queue_names(lines)
    for i in _code_lines(lines):
        match = _DEQUE_CALL.search(lines[i])
        if not match:
            continue
        receiver = match.group(1).removeprefix("this->")
        other = next((q for q in queues if q != receiver), None)
        if receiver in queues and other is not None:
            new = lines[i][:match.start(1)] + other + lines[i][match.end(1):]
            yield i, lines[:i] + [new] + lines[i + 1:]


def _retype_tensor(lines: list[str]) -> Iterator[tuple[int, list[str]]]:
    """`LocalTensor<half> x = q.DeQue<half>();` -> the same with another element type on both sides (float for
    half, half for float and int8_t, int8_t for anything else: a template parameter such as T or DTYPE_X may
    well be half or float in the instance checked, where the edit would change nothing), so the tensor no
    longer matches the tensors and GM buffers it meets."""
    for i in _code_lines(lines):
        match = _TENSOR_DECL.match(lines[i])
        if not match:
            continue
        old = match.group(1).strip()
        new_type = {"half": "float", "float": "half", "int8_t": "half"}.get(old, "int8_t")
        element = re.compile(rf"<\s*{re.escape(old)}\s*>")
        new = element.sub(f"<{new_type}>", lines[i])
        yield i, lines[:i] + [new] + lines[i + 1:]


def _oversize_buffer(lines: list[str]) -> Iterator[tuple[int, list[str]]]:
    """`pipe.InitBuffer(q, 2, len)` -> `pipe.InitBuffer(q, 2, 1048608)`: over every on-chip buffer of every chip
    (1 MB + 32 bytes), as a length computed in elements times a size twice would be."""
    for i in _code_lines(lines):
        if not _INIT_BUFFER.match(lines[i]):
            continue
        start = lines[i].index("InitBuffer")
        parsed = _split_args(lines[i], lines[i].index("(", start))
        if not parsed or len(parsed[0]) < 2:
            continue
        begin, end = parsed[0][-1]
        new = lines[i][:begin] + " 1048608" + lines[i][end:]
        yield i, lines[:i] + [new] + lines[i + 1:]


def _misalign_copy(lines: list[str]) -> Iterator[tuple[int, list[str]]]:
    """`DataCopy(dst, src, n)` -> `DataCopy(dst, src, n + 1)`: the off-by-one that leaves a transfer length off
    the 32-byte grid. A length the checker can fold is proven wrong directly (ASC401); one read from the tiling
    only when another copy on the same path moves `n` of the same element size (ASC408), so a kernel with a
    single copy of that length is an expected miss."""
    for i in _code_lines(lines):
        match = _DATACOPY.search(lines[i])
        if not match:
            continue
        parsed = _split_args(lines[i], match.end() - 1)
        if not parsed or len(parsed[0]) != 3:
            continue
        begin, end = parsed[0][2]
        count = lines[i][begin:end].strip()
        if not re.fullmatch(r"[\w.\->()\s*+/]+", count) or "Params" in count or "params" in count:
            continue  # a DataCopyParams argument, not an element count
        new = lines[i][:begin] + f" ({count}) + 1" + lines[i][end:]
        yield i, lines[:i] + [new] + lines[i + 1:]


def _cast_round_mode(lines: list[str]) -> Iterator[tuple[int, list[str]]]:
    """`RoundMode::CAST_X` in a Cast -> `RoundMode::CAST_ODD`, which only float -> half takes (and
    `RoundMode::CAST_RINT` where it was CAST_ODD)."""
    for i in _code_lines(lines):
        if not re.search(r"\bCast\s*(<[^;()]*>)?\s*\(", lines[i]):
            continue
        match = _ROUND_MODE.search(lines[i])
        if match:
            mode = "CAST_RINT" if match.group(1) == "CAST_ODD" else "CAST_ODD"
            new = lines[i][:match.start(1)] + mode + lines[i][match.end(1):]
            yield i, lines[:i] + [new] + lines[i + 1:]


def _drop_core_offset(lines: list[str]) -> Iterator[tuple[int, list[str]]]:
    """`yGm.SetGlobalBuffer((__gm__ T*)y + offset, n)` -> `yGm.SetGlobalBuffer((__gm__ T*)y, n)` where the offset
    names the block index, for a GlobalTensor the file copies into: every core then writes the first core's
    slice. (Without the offset on an input, every core reads the same slice, which looks like a broadcast
    operand such as a norm's gamma: nothing to prove there.)"""
    joined = "\n".join(lines)
    written = set(re.findall(r"\bDataCopy(?:Pad)?\s*(?:<[^;()]*>)?\s*\(\s*(?:this->)?(\w+)\s*[\[,]", joined))
    for i in _code_lines(lines):
        match = _SET_GLOBAL.search(lines[i])
        receiver = re.search(r"(\w+)\s*$", lines[i][:match.start()]) if match else None
        if not match or not receiver or receiver.group(1) not in written:
            continue
        parsed = _split_args(lines[i], match.end() - 1)
        if not parsed:
            continue
        begin, end = parsed[0][0]
        pointer = lines[i][begin:end]
        plus = re.match(r"(\s*\(\s*__gm__\s+[\w:<>\s]+\*\s*\)\s*\(?\s*\w+\s*\)?)\s*\+\s*(.+)$", pointer, re.S)
        if not plus or not re.search(r"GetBlockIdx|blockIdx|BlockIdx|block_idx|coreIdx|CoreIdx|[Oo]ffset",
                                     plus.group(2)):
            continue
        new = lines[i][:begin] + plus.group(1).rstrip() + lines[i][end:]
        yield i, lines[:i] + [new] + lines[i + 1:]


def _drop_using(lines: list[str]) -> Iterator[tuple[int, list[str]]]:
    """Delete `using namespace AscendC;` where the file names an AscendC type without `AscendC::`."""
    joined = "\n".join(lines)
    if re.search(r"namespace\s+AscendC\s*\{", joined):
        return
    code = list(_code_lines(lines))
    usings = [i for i in code if _USING_ASCENDC.match(lines[i])]
    if len(usings) != 1:
        return
    if any(_BARE_TYPE.search(lines[i].split("//")[0]) for i in code if i != usings[0]):
        yield usings[0], lines[:usings[0]] + lines[usings[0] + 1:]


def _another_using_in_effect(program: object) -> bool:
    """A header the file includes has its own `using namespace AscendC` (or of a vendor namespace that brings
    it in), so deleting the file's own directive breaks nothing."""
    from frontend import ast as A

    for unit in program.units:  # type: ignore[attr-defined]
        for node in unit.ast.walk():
            if isinstance(node, A.UsingDirective) and node.namespace.name != "std":
                return True
    return False


OPERATORS = [
    Operator("drop-free", ("ASC2",), "a FreeTensor statement deleted", _drop(_FREE)),
    Operator("double-free", ("ASC2",), "a FreeTensor statement written twice", _double_free),
    Operator("drop-enque", ("ASC2",), "an EnQue statement deleted", _drop(_ENQUE)),
    Operator("alloc-for-deque", ("ASC2",), "DeQue<T>() replaced by AllocTensor<T>()", _alloc_for_deque),
    Operator("free-before-use", ("ASC2",), "a FreeTensor moved above the tensor's last use", _free_before_use),
    Operator("drop-setflag", ("ASC7",), "a SetFlag statement deleted", _drop(_SETFLAG)),
    Operator("drop-waitflag", ("ASC7",), "a WaitFlag statement deleted", _drop(_WAITFLAG)),
    Operator("veccalc-queue", ("ASC210",), "a VECIN TQue declared on VECCALC", _veccalc_queue),
    Operator("second-pipe", ("ASC211",), "a second TPipe takes one InitBuffer", _second_pipe),
    Operator("double-scalar", ("ASC503", "ASC508"), "the scalar of Muls/Adds/Maxs/Mins cast to double",
             _double_scalar),
    Operator("unqualify", ("ASC509",), "AscendC:: dropped from a no-argument call", _unqualify),
    Operator("double-enque", ("ASC2",), "an EnQue statement written twice", _double_enque),
    Operator("init-twice", ("ASC212",), "an InitBuffer statement written twice", _init_buffer_twice),
    Operator("free-wrong-queue", ("ASC205",), "FreeTensor on another queue of the file", _free_wrong_queue),
    Operator("deque-wrong-queue", ("ASC2",), "DeQue from another queue of the file", _deque_wrong_queue),
    Operator("retype-tensor", ("ASC1", "ASC5"), "a LocalTensor declared with another element type",
             _retype_tensor),
    Operator("oversize-buffer", ("ASC3",), "an InitBuffer length replaced by 1 MB + 32 bytes", _oversize_buffer),
    Operator("misalign-copy", ("ASC4",), "a DataCopy element count plus one", _misalign_copy),
    Operator("cast-round-mode", ("ASC5",), "a Cast's RoundMode replaced by CAST_ODD (CAST_RINT for CAST_ODD)",
             _cast_round_mode),
    Operator("drop-core-offset", ("ASC6",), "the per-core offset dropped from a SetGlobalBuffer pointer",
             _drop_core_offset),
    Operator("drop-using", ("ASC509",), "`using namespace AscendC;` deleted where bare AscendC types are used",
             _drop_using, needs_live=False, still_correct=_another_using_in_effect),
]


def mutants_of(text: str, operators: list[Operator], per_file: int) -> list[Mutant]:
    """At most `per_file` mutants per operator, at sites spread evenly over the file."""
    lines = text.split("\n")
    found = []
    for op in operators:
        sites = list(op.sites(lines))
        if len(sites) > per_file:
            step = len(sites) / per_file
            sites = [sites[int(k * step)] for k in range(per_file)]
        found += [Mutant(op.name, i + 1, "\n".join(new)) for i, new in sites]
    return found


def _checked(bundle: Callable[[], object], chip: str | None, timeout: int) -> list | None:  # type: ignore[type-arg]
    """The errors and warnings of checking the input `bundle()` reads within `timeout` seconds (for `chip`, or
    the one ascendc-check picks for it), or None on a timeout or a crash (either leaves the file or project
    out)."""
    from passes.verify import check_program, load_for_check

    signal.signal(signal.SIGALRM, _on_alarm)
    signal.alarm(timeout)
    try:
        program, target = load_for_check(bundle(), chip)  # type: ignore[arg-type]
        diags = check_program(program, chip=target)
    except (_Timeout, Exception):  # noqa: BLE001
        return None
    finally:
        signal.alarm(0)
    return [d for d in diags if d.is_error or d.severity.name == "WARNING"]


def _errors(path: str, text: str, chip: str | None, timeout: int) -> set[tuple[str, int, bool]] | None:
    """(code, line in `path`, is an error) of every error and warning on `text` checked as `path`."""
    from frontend.pipeline import read_text

    diags = _checked(lambda: read_text(text, name=path), chip, timeout)
    if diags is None:
        return None
    return {(d.code, d.span.line if d.span and str(d.span.file) == path else 0, d.is_error) for d in diags}


def _lowered_lines(path: str, text: str, chip: str | None) -> set[int]:
    """The lines of `path` that some op of the lowered original carries: code the checker sees. A site
    elsewhere is preprocessed away (`#if __NPU_ARCH__ == 3510`), in a template never instantiated, or in a
    function the kernel never calls."""
    from xdsl.dialects.builtin import FileLineColLoc

    from ascendir.lower import LoweringOptions, lower_program
    from frontend.pipeline import read_text
    from passes.verify import load_for_check

    program, target = load_for_check(read_text(text, name=path), chip)
    module = lower_program(program, LoweringOptions(chip=target)).module
    lines = set()
    for op in module.walk():
        loc = op.location
        if isinstance(loc, FileLineColLoc) and loc.filename.data == path:
            lines.add(loc.line.data)
    return lines


def _run_file(job: tuple[str, str, int, int, tuple[str, ...]]) -> dict[str, object]:
    path, chip, timeout, per_file, names = job
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    base = _errors(path, text, chip, timeout)
    if base is None:
        return {"path": path, "status": "timeout"}
    if any(is_error for _, _, is_error in base):
        return {"path": path, "status": "not-clean"}
    live = _lowered_lines(path, text, chip)
    operators = [op for op in OPERATORS if op.name in names]
    results = []
    needs_live = {op.name: op.needs_live for op in operators}
    still_correct = {op.name: op.still_correct for op in operators}
    family = {op.name: op.family for op in operators}
    for mutant in mutants_of(text, operators, per_file):
        if needs_live[mutant.operator] and mutant.line not in live:
            results.append({"operator": mutant.operator, "line": mutant.line, "errors": None, "live": False})
            continue
        check = still_correct[mutant.operator]
        if check is not None:
            from frontend.pipeline import load_text
            if check(load_text(mutant.text, name=path)):
                results.append({"operator": mutant.operator, "line": mutant.line, "errors": None, "live": False})
                continue
        found = _errors(path, mutant.text, chip, timeout)
        # new errors, and new warnings of the rules expected to find this edit (ASC212 is a warning)
        new = None if found is None else sorted(
            (code, line) for code, line, is_error in found - base if is_error or code.startswith(family[mutant.operator]))
        results.append({"operator": mutant.operator, "line": mutant.line, "errors": new, "live": True})
    return {"path": path, "status": "clean", "mutants": results}


# ---------------------------------------------------------------------------------------------------
# Op projects (`--projects`): edits that break the agreement between host and kernel
# ---------------------------------------------------------------------------------------------------

_FIELD_DEF = re.compile(r"TILING_DATA_FIELD_DEF(?:_ARR|_STRUCT)?\s*\(\s*[\w:]+\s*,\s*(?:[^,()]+,\s*)?(\w+)\s*\)")
_SET_BLOCK_DIM = re.compile(r"^\s*[\w.\->]+(\.|->)SetBlockDim\s*\([^;]*\)\s*;\s*(//.*)?$")
_REGISTER = re.compile(r"\bREGISTER_TILING_DATA_CLASS\s*\(\s*(\w+)\s*,")
ProjectSite = tuple[str, int, list[str]]  # (file relative to the project, 0-based line, the file's new lines)


def _project_fields(files: dict[str, list[str]]) -> set[str]:
    return {m.group(1) for rel, lines in files.items() if rel.startswith("op_host/")
            for m in _FIELD_DEF.finditer("\n".join(lines))}


def _host_files(files: dict[str, list[str]]) -> Iterator[tuple[str, list[str]]]:
    return ((rel, lines) for rel, lines in files.items() if rel.startswith("op_host/"))


def _kernel_files(files: dict[str, list[str]]) -> Iterator[tuple[str, list[str]]]:
    return ((rel, lines) for rel, lines in files.items() if rel.startswith("op_kernel/"))


def _drop_set_block_dim(files: dict[str, list[str]]) -> Iterator[ProjectSite]:
    for rel, lines in _host_files(files):
        for i in _code_lines(lines):
            if _SET_BLOCK_DIM.match(lines[i]):
                yield rel, i, lines[:i] + lines[i + 1:]


def _register_other_op(files: dict[str, list[str]]) -> Iterator[ProjectSite]:
    for rel, lines in _host_files(files):
        for i in _code_lines(lines):
            match = _REGISTER.search(lines[i])
            if match:
                new = lines[i][:match.start(1)] + match.group(1) + "Other" + lines[i][match.end(1):]
                yield rel, i, lines[:i] + [new] + lines[i + 1:]


def _field_typo(side: Callable[[dict[str, list[str]]], Iterator[tuple[str, list[str]]]], pattern: str
                ) -> Callable[[dict[str, list[str]]], Iterator[ProjectSite]]:
    """A use of a tiling field (`td.tileNum` in the kernel, `tiling.set_tileNum(` on the host) misspelt."""
    def sites(files: dict[str, list[str]]) -> Iterator[ProjectSite]:
        fields = _project_fields(files)
        for rel, lines in side(files):
            for i in _code_lines(lines):
                for match in re.finditer(pattern, lines[i]):
                    if match.group(1) in fields:
                        new = lines[i][:match.end(1)] + "Typo" + lines[i][match.end(1):]
                        yield rel, i, lines[:i] + [new] + lines[i + 1:]
                        break
    return sites


def _drop_field_set(files: dict[str, list[str]]) -> Iterator[ProjectSite]:
    """Delete the host's `tiling.set_X(...);` of a field X the kernel reads."""
    kernel_text = "\n".join("\n".join(lines) for _, lines in _kernel_files(files))
    for rel, lines in _host_files(files):
        for i in _code_lines(lines):
            match = re.match(r"^\s*[\w.\->]+(?:\.|->)set_(\w+)\s*\([^;]*\)\s*;\s*(//.*)?$", lines[i])
            if match and re.search(rf"\.\s*{re.escape(match.group(1))}\b", kernel_text):
                yield rel, i, lines[:i] + lines[i + 1:]


@dataclass(frozen=True)
class ProjectOperator:
    name: str
    family: tuple[str, ...]
    what: str
    sites: Callable[[dict[str, list[str]]], Iterator[ProjectSite]]


PROJECT_OPERATORS = [
    ProjectOperator("drop-set-block-dim", ("ASC906",), "the host's SetBlockDim statement deleted", _drop_set_block_dim),
    ProjectOperator("register-other-op", ("ASC802",), "REGISTER_TILING_DATA_CLASS names another operator",
                    _register_other_op),
    ProjectOperator("kernel-field-typo", ("ASC803",), "a tiling field the kernel reads, misspelt",
                    _field_typo(_kernel_files, r"\.\s*(\w+)\b(?!\s*\()")),
    ProjectOperator("host-field-typo", ("ASC803",), "a tiling field the host sets, misspelt",
                    _field_typo(_host_files, r"\bset_(\w+)\s*\(")),
    ProjectOperator("drop-field-set", ("ASC804",), "the host's set_X of a field the kernel reads deleted",
                    _drop_field_set),
]


def _project_diagnostics(folder: str, chip: str | None, timeout: int) -> set[tuple[str, str, int, bool]] | None:
    """(code, file relative to `folder`, line, is an error) of every error and warning on the project."""
    from frontend.readers import read_input

    diags = _checked(lambda: read_input(folder), chip, timeout)
    if diags is None:
        return None
    return {(d.code, os.path.relpath(str(d.span.file), folder) if d.span else "", d.span.line if d.span else 0,
             d.is_error) for d in diags}


def _run_project(job: tuple[str, str, int, int, tuple[str, ...]]) -> dict[str, object]:
    """Checks a copy of the project, then each mutant of it in that copy (one file changed at a time)."""
    import shutil
    import tempfile

    path, chip, timeout, per_file, names = job
    with tempfile.TemporaryDirectory(prefix="mutants-") as tmp:
        copy = os.path.join(tmp, os.path.basename(path))
        shutil.copytree(path, copy, ignore=shutil.ignore_patterns("tests", "examples", "docs", "*.md", "*.json5"))
        sources = {}
        for dirpath, _, filenames in os.walk(copy):
            for name in filenames:
                if name.endswith((".cpp", ".h", ".hpp", ".cc", ".asc")):
                    full = os.path.join(dirpath, name)
                    sources[os.path.relpath(full, copy)] = Path(full).read_text(encoding="utf-8", errors="replace")
        base = _project_diagnostics(copy, chip, timeout)
        if base is None:
            return {"path": path, "status": "timeout"}
        if any(is_error for *_, is_error in base):
            return {"path": path, "status": "not-clean"}
        files = {rel: text.split("\n") for rel, text in sources.items()}
        results = []
        for op in PROJECT_OPERATORS:
            if op.name not in names:
                continue
            sites = list(op.sites(files))
            if len(sites) > per_file:
                step = len(sites) / per_file
                sites = [sites[int(k * step)] for k in range(per_file)]
            for rel, line, new_lines in sites:
                target = os.path.join(copy, rel)
                Path(target).write_text("\n".join(new_lines), encoding="utf-8")
                try:
                    found = _project_diagnostics(copy, chip, timeout)
                finally:
                    Path(target).write_text(sources[rel], encoding="utf-8")
                new = None if found is None else sorted(
                    (code, f"{where}:{ln}") for code, where, ln, is_error in found - base
                    if is_error or code.startswith(op.family))
                results.append({"operator": op.name, "line": f"{rel}:{line + 1}", "errors": new, "live": True})
    return {"path": path, "status": "clean", "mutants": results}


def _near(where: int | str, edit: int | str) -> bool:
    """Whether a finding's line is within NEAR_LINES of the edit (`file:line` strings for projects)."""
    if isinstance(where, str) and isinstance(edit, str):
        (wf, _, wl), (ef, _, el) = where.rpartition(":"), edit.rpartition(":")
        return wf == ef and wl.isdigit() and el.isdigit() and abs(int(wl) - int(el)) <= NEAR_LINES
    return isinstance(where, int) and isinstance(edit, int) and abs(where - edit) <= NEAR_LINES


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("roots", type=Path, nargs="+")
    ap.add_argument("--chip", default=None,
                    help="check every file for this chip (default: as ascendc-check picks it per input)")
    ap.add_argument("--sample", type=int, default=0, help="only this many kernel files per root, fixed by hash")
    ap.add_argument("--per-file", type=int, default=2, help="mutants per operator and file")
    ap.add_argument("--operators", default="", help="comma-separated operator names (default: all)")
    ap.add_argument("--timeout", type=int, default=20, help="seconds per check")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", type=Path, default=DEFAULT_JSON)
    ap.add_argument("--misses", type=int, default=5, help="misses listed per operator")
    ap.add_argument("--projects", action="store_true",
                    help="mutate op projects (folders with op_host/ and op_kernel/) with host/kernel edits instead")
    args = ap.parse_args()

    operators: list[Operator] | list[ProjectOperator] = PROJECT_OPERATORS if args.projects else OPERATORS
    names = tuple(n.strip() for n in args.operators.split(",") if n.strip()) or tuple(op.name for op in operators)
    unknown = set(names) - {op.name for op in operators}
    if unknown:
        print(f"mutants: unknown operator(s) {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    files: list[Path] = []
    for root in args.roots:
        if not root.exists():
            print(f"mutants: '{root}' does not exist", file=sys.stderr)
            return 2
        if args.projects:
            found = project_dirs(root) if root.is_dir() else []
        else:
            found = kernel_files(root) if root.is_dir() else [root]
        files += sample(found, root, args.sample) if args.sample and root.is_dir() else found

    from multiprocessing import Pool

    from rich.console import Console
    from rich.table import Table

    started = time.perf_counter()
    jobs = [(str(p.resolve()), args.chip, args.timeout, args.per_file, names) for p in files]
    with Pool(args.jobs) as pool:
        results = list(pool.imap_unordered(_run_project if args.projects else _run_file, jobs, chunksize=1))
    seconds = time.perf_counter() - started

    by_status = defaultdict(int)
    stats: dict[str, dict[str, int]] = {op.name: defaultdict(int) for op in operators if op.name in names}
    misses: dict[str, list[str]] = defaultdict(list)
    family = {op.name: op.family for op in operators}
    for result in sorted(results, key=lambda r: str(r["path"])):
        by_status[str(result["status"])] += 1
        for m in result.get("mutants", []):  # type: ignore[union-attr]
            row = stats[m["operator"]]
            if not m["live"]:
                row["not_lowered"] += 1
                continue
            if m["errors"] is None:
                row["timeout"] += 1
                continue
            row["mutants"] += 1
            new = [tuple(e) for e in m["errors"]]
            if new:
                row["found"] += 1
                if any(code.startswith(family[m["operator"]]) for code, _ in new):
                    row["in_family"] += 1
                if any(_near(where, m["line"]) for _, where in new):
                    row["near"] += 1
            else:
                misses[m["operator"]].append(f"{result['path']}:{m['line']}")

    console = Console(width=max(Console().width, 110))
    what = "op projects" if args.projects else "kernel files"
    table = Table(title=f"seeded bugs found, {by_status['clean']} clean {what}, chip {args.chip or 'per input'}")
    for column in ("operator", "mutants", "found", "share", "in family", "near the edit", "not lowered",
                   "timeouts"):
        table.add_column(column, justify="left" if column == "operator" else "right")
    total = defaultdict(int)
    for name, row in stats.items():
        for key, value in row.items():
            total[key] += value
        share = f"{row['found'] / row['mutants']:.0%}" if row["mutants"] else "-"
        table.add_row(name, str(row["mutants"]), str(row["found"]), share, str(row["in_family"]),
                      str(row["near"]), str(row["not_lowered"]), str(row["timeout"]))
    share = f"{total['found'] / total['mutants']:.0%}" if total["mutants"] else "-"
    table.add_row("all", str(total["mutants"]), str(total["found"]), share, str(total["in_family"]),
                  str(total["near"]), str(total["not_lowered"]), str(total["timeout"]))
    console.print(table)
    for name, listed in misses.items():
        for miss in listed[:args.misses]:
            console.print(f"  missed {name}: {miss}", highlight=False, soft_wrap=True)
    console.print(f"files: {len(files)}; clean {by_status['clean']}, with errors {by_status['not-clean']}, "
                  f"timeouts {by_status['timeout']}   [{seconds:.0f} s]", highlight=False)

    report = {"roots": [str(r) for r in args.roots], "chip": args.chip, "files": len(files),
              "clean_files": by_status["clean"], "seconds": round(seconds, 1),
              "operators": {name: dict(row) for name, row in stats.items()},
              "all": dict(total), "misses": {k: v for k, v in misses.items()},
              "mutants": [{"path": r["path"], "operator": m["operator"], "line": m["line"], "live": m["live"],
                           "errors": m["errors"]} for r in results for m in r.get("mutants", [])]}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=1))
    console.print(f"wrote {args.json}", highlight=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
