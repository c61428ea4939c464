"""Queue-protocol bugs: the TQue buffer life cycle (Alloc -> EnQue -> DeQue -> Free) broken, one TPipe rule."""

from __future__ import annotations

import re
from collections.abc import Iterator

from passes.mutate.lines import Site, code_lines, drop_matching, replaced, repeat_matching, split_args
from passes.mutate.model import Operator

# One statement per line, as the edits need: `que.FreeTensor(x);`, `que.EnQue<T>(x);`, ...
FREE = re.compile(r"^(\s*)([\w.\->\[\]]+?)(\.|->)FreeTensor\s*\(\s*(\w+)\s*\)\s*;\s*(//.*)?$")
ENQUE = re.compile(r"^\s*[\w.\->\[\]]+?(\.|->)EnQue\s*(<[^;]*>)?\s*\(\s*\w+\s*\)\s*;\s*(//.*)?$")
DEQUE = re.compile(r"(\.|->)DeQue\s*(<[^;()]*>)?\s*\(\s*\)")
DEQUE_CALL = re.compile(r"([\w.\->\[\]]+?)(?:\.|->)DeQue\s*(<[^;()]*>)?\s*\(\s*\)")
VECIN_QUE = re.compile(r"(TQue\s*<\s*(AscendC::)?(TPosition|QuePosition)::)VECIN\b")
TPIPE_DECL = re.compile(r"^(\s*)(AscendC::)?TPipe\s+(\w+)\s*;\s*(//.*)?$")
INIT_BUFFER = re.compile(r"^\s*[\w.\->\[\]]+?(\.|->)InitBuffer\s*\([^;]*\)\s*;\s*(//.*)?$")
QUEUE_DECL = re.compile(r"\bTQue(Bind)?\s*<[^;{}()]*>\s+(\w+)\s*;")


def queue_names(lines: list[str]) -> list[str]:
    """The TQue members and variables the file declares, in order."""
    return list(dict.fromkeys(m.group(2) for m in QUEUE_DECL.finditer("\n".join(lines))))


def _free_before_use(lines: list[str]) -> Iterator[Site]:
    """Move `q.FreeTensor(x);` above the closest earlier statement of the same block that uses x."""
    code = list(code_lines(lines))
    for pos, i in enumerate(code):
        match = FREE.match(lines[i])
        if not match:
            continue
        var = re.compile(rf"\b{re.escape(match.group(4))}\b")
        for j in reversed(code[:pos]):
            text = lines[j]
            if "{" in text or "}" in text:
                break  # leave the block: the move would change scope, not order
            if var.search(text):
                if DEQUE.search(text) or "AllocTensor" in text or re.search(r"\bLocalTensor\b", text):
                    break  # the tensor's definition: nothing uses it between there and the free
                yield i, lines[:j] + [lines[i]] + lines[j:i] + lines[i + 1:]
                break


def _alloc_for_deque(lines: list[str]) -> Iterator[Site]:
    for i in code_lines(lines):
        match = DEQUE.search(lines[i])
        if match and match.group(2):
            new = lines[i][:match.start()] + f"{match.group(1)}AllocTensor{match.group(2)}()" + lines[i][match.end():]
            yield i, replaced(lines, i, new)


def _veccalc_queue(lines: list[str]) -> Iterator[Site]:
    for i in code_lines(lines):
        if VECIN_QUE.search(lines[i]):
            yield i, replaced(lines, i, VECIN_QUE.sub(r"\1VECCALC", lines[i], count=1))


def _second_pipe(lines: list[str]) -> Iterator[Site]:
    """After `TPipe pipe;` declare a second pipe and give the first InitBuffer after it to that pipe."""
    for i in code_lines(lines):
        match = TPIPE_DECL.match(lines[i])
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


def _free_wrong_queue(lines: list[str]) -> Iterator[Site]:
    """`inQueueX.FreeTensor(x)` -> `outQueueY.FreeTensor(x)`, with another TQue member of the file."""
    queues = queue_names(lines)
    for i in code_lines(lines):
        match = FREE.match(lines[i])
        if not match:
            continue
        receiver = match.group(2).removeprefix("this->")
        other = next((q for q in queues if q != receiver), None)
        if receiver in queues and other is not None:
            yield i, replaced(lines, i, f"{match.group(1)}{other}.FreeTensor({match.group(4)});")


def _deque_wrong_queue(lines: list[str]) -> Iterator[Site]:
    """`x = inQueueX.DeQue<T>()` -> `x = inQueueY.DeQue<T>()`, with another TQue member of the file (a
    copy-paste slip: the other queue's FIFO is empty there, or holds a tensor of another stage)."""
    queues = queue_names(lines)
    for i in code_lines(lines):
        match = DEQUE_CALL.search(lines[i])
        if not match:
            continue
        receiver = match.group(1).removeprefix("this->")
        other = next((q for q in queues if q != receiver), None)
        if receiver in queues and other is not None:
            yield i, replaced(lines, i, lines[i][:match.start(1)] + other + lines[i][match.end(1):])


def _queue_without_count(lines: list[str]) -> Iterator[Site]:
    """`pipe.InitBuffer(que, BUFFER_NUM, len)` -> `pipe.InitBuffer(que, len)`: a TQue given the TBuf form of
    InitBuffer, which has no buffer count (the real failure: InitBuffer handed the wrong buffer kind)."""
    queues = set(queue_names(lines))
    for i in code_lines(lines):
        if not INIT_BUFFER.match(lines[i]):
            continue
        start = lines[i].index("InitBuffer")
        parsed = split_args(lines[i], lines[i].index("(", start))
        if not parsed or len(parsed[0]) != 3:
            continue
        (b0, e0), (b1, _), _ = parsed[0]
        if lines[i][b0:e0].strip().removeprefix("this->") not in queues:
            continue
        yield i, replaced(lines, i, lines[i][:b1] + lines[i][parsed[0][2][0]:])


QUEUE_OPERATORS = [
    Operator("drop-free", ("ASC2",), "a FreeTensor statement deleted", drop_matching(FREE),
             "queue_protocol", "free every tensor taken from a queue (AllocTensor or DeQue) with FreeTensor once "
             "its last use is done, or the queue runs out of buffers and the next AllocTensor hangs"),
    Operator("double-free", ("ASC2",), "a FreeTensor statement written twice", repeat_matching(FREE),
             "queue_protocol", "free a tensor exactly once: the second FreeTensor gives back a buffer the queue "
             "already owns and corrupts its event flags"),
    Operator("drop-enque", ("ASC2",), "an EnQue statement deleted", drop_matching(ENQUE),
             "queue_protocol", "EnQue the tensor after writing it, so that the DeQue of the next stage waits "
             "for the data instead of reading an empty queue"),
    Operator("alloc-for-deque", ("ASC2",), "DeQue<T>() replaced by AllocTensor<T>()", _alloc_for_deque,
             "queue_protocol", "take the tensor the previous stage enqueued with DeQue; AllocTensor hands out an "
             "empty buffer and the enqueued one is never consumed"),
    Operator("free-before-use", ("ASC2",), "a FreeTensor moved above the tensor's last use", _free_before_use,
             "queue_protocol", "call FreeTensor only after the tensor's last use: once freed, the buffer can be "
             "refilled by the next CopyIn while it is still read"),
    Operator("double-enque", ("ASC2",), "an EnQue statement written twice", repeat_matching(ENQUE),
             "queue_protocol", "enqueue each tensor once; a second EnQue of the same buffer exceeds the queue "
             "depth and the stages fall out of step"),
    Operator("init-twice", ("ASC212",), "an InitBuffer statement written twice", repeat_matching(INIT_BUFFER),
             "queue_protocol", "give each queue or TBuf its buffers with one InitBuffer call; a second one "
             "allocates again and leaks UB"),
    Operator("free-wrong-queue", ("ASC205",), "FreeTensor on another queue of the file", _free_wrong_queue,
             "queue_protocol", "free a tensor on the queue it was taken from"),
    Operator("deque-wrong-queue", ("ASC2",), "DeQue from another queue of the file", _deque_wrong_queue,
             "queue_protocol", "DeQue from the queue the previous stage enqueued into"),
    Operator("veccalc-queue", ("ASC210",), "a VECIN TQue declared on VECCALC", _veccalc_queue,
             "kernel_api_misuse", "declare input queues on TPosition::VECIN; VECCALC is for TBuf scratch space "
             "and a TQue there is rejected"),
    Operator("second-pipe", ("ASC211",), "a second TPipe takes one InitBuffer", _second_pipe,
             "kernel_api_misuse", "use one TPipe per kernel for every InitBuffer: two pipes hand out the same "
             "UB addresses"),
    Operator("queue-without-count", ("ASC1", "ASC2"), "a TQue's InitBuffer given the TBuf form (no buffer count)",
             _queue_without_count, "kernel_api_misuse",
             "InitBuffer of a TQue takes (queue, buffer count, bytes); the two-argument form is for TBuf"),
]
