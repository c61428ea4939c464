"""Buffer memory in the buffer state machine: InitBuffer and LocalMemAllocator blocks, and the checks of their
sizes against the chip's memories.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.ir import Operation

from ascendir.chips import Chip, tposition_memory
from ascendir.dialects import ascendc as asc
from ascendir.lower.ctypes import scalar_from_element
from passes.verify.buffer_states import Init, LocalBlock, QueueState, State, round32


class BufferAllocation:
    """Buffer memory: methods of Analysis (buffer_state.py), which inherits them."""

    def _init_buffer(self, op: asc.InitBufferOp, s: State) -> State:
        s = self._pipe_use(op, op.pipe, s)
        owner = op.buffer.owner
        if not isinstance(owner, asc.TQueOp | asc.TBufOp):
            return s
        is_queue = isinstance(owner, asc.TQueOp)
        btype = op.buffer.type
        position = btype.position.data if isinstance(btype, asc.TQueType | asc.TBufType) else "?"
        bi = self.idx(op.buffer)
        num_c = self.int_of(op.num, s) if op.num is not None else 1
        len_c = self.int_of(op.length, s)
        num = num_c if isinstance(num_c, int) and num_c >= 0 else None
        length = len_c if isinstance(len_c, int) and len_c >= 0 else None
        if not is_queue:
            num = 1
        init = Init(op, self.pipe_idx(op.pipe), bi, owner.var_name.data, is_queue, position, num, length)
        # InitBuffer twice on one path
        q = s.queues.get(bi)
        again = (q is not None and q.inited is True) if is_queue else bi in s.tbufs
        previous = next((i.op for i in reversed(s.inits) if i.buffer == bi), None)
        tail = " and the queue starts over" if is_queue else ""
        self.check("ASC212", op, f"InitBuffer on {init.name} a second time; the first buffers stay carved out of "
                                 f"{_memory_name(position, self.chip)}{tail}" if again else None,
                   *([(previous, "first InitBuffer here")] if again and previous is not None else []))
        s = s.copy()
        s.inits = (*s.inits, init)
        if is_queue:
            s.queues[bi] = QueueState(True, num, 0, (), init.pipe, 0)
            s.tokens = {t: tok for t, tok in s.tokens.items() if tok[0] != bi}
        else:
            s.tbufs = s.tbufs | {bi}
        self._limits(op, init, s)
        return s

    def _limits(self, op: Operation, init: Init, s: State) -> None:
        chip = self.chip
        over = set(s.over)
        # buffers per TPosition (TQue buffers hold hardware event ids); on a chip whose vector-core queue
        # buffers take ids from one pool instead (3510), UB queues count against that pool together
        problem = None
        if init.is_queue:
            queues = [i for i in s.inits if i.is_queue]
            pool = chip.vector_buffer_ids
            group: object
            if pool is not None and memory_of(init.position, chip) == "UB":
                group, limit = "vector ids", pool
                same = [i for i in queues if memory_of(i.position, chip) == "UB"]
                where = f"on the vector core; the {chip.name} gives each a buffer id at InitBuffer and has {pool}"
            else:
                group, limit = ("pos", init.position), chip.max_buffers_per_position
                same = [i for i in queues if i.position == init.position]
                where = f"in {init.position}; the {chip.name} allows {limit} per TPosition"
            total = sum(i.num or 0 for i in same)
            if group not in over and total > limit:
                problem = f"{total} TQue buffers {where}"
                over.add(group)
                notes = _largest_notes(same, key=lambda i: i.num or 0, what=lambda i: f"{i.name}: {i.num} buffers")
                self.check("ASC208", op, problem, *notes)
        if problem is None:
            self.check("ASC208", op, None)
        # buffers in total
        problem = None
        if "total" not in over:
            total = sum(i.count or 0 for i in s.inits)
            if total > chip.max_buffers_total:
                problem = f"{total} buffers over all InitBuffer calls; at most {chip.max_buffers_total} are allowed"
                over.add("total")
        self.check("ASC209", op, problem)
        # capacity of the memory the position lives in
        problem = None
        memory = memory_of(init.position, chip)
        size = memory_size(memory, chip) if memory is not None else None
        notes: list[tuple[Operation, str]] = []
        big = None
        if memory is not None and size is not None and (init.bytes or 0) > size:
            what = f"{init.num} x {round32(init.length or 0)} = {init.bytes}" if init.is_queue and init.num != 1 \
                else f"{init.bytes}"
            big = f"InitBuffer of {init.name} asks for {what} bytes; the {chip.name} {memory} holds {size}"
        self.check("ASC302", op, big)
        if memory is not None and size is not None and ("mem", memory) not in over:
            same = [i for i in s.inits if memory_of(i.position, chip) == memory]
            single = any((i.bytes or 0) > size for i in same)
            total = sum(i.bytes or 0 for i in same)
            if total > size and not single:
                unknown = any(i.bytes is None for i in same)
                problem = (f"{memory} buffers need {'at least ' if unknown else ''}{total} bytes; the {chip.name} "
                           f"{memory} holds {size}")
                over.add(("mem", memory))
                notes = _largest_notes([i for i in same if i.bytes], key=lambda i: i.bytes or 0,
                                       what=lambda i: f"{i.name}: {_describe_bytes(i)}")
        self.check("ASC301", op, problem, *notes)
        s.over = frozenset(over)

    def _local_alloc(self, op: asc.LocalAllocOp, s: State) -> State:
        atype = op.allocator.type
        hardware = atype.type_name.data.partition("<")[2].rstrip(">") if isinstance(atype, asc.ObjectType) else ""
        memory = {"UB": "UB", "L1": "L1", "L0A": "L0A", "L0B": "L0B", "L0C": "L0C"}.get(hardware.upper())
        count = self.int_of(op.count, s)
        rtype = op.result.type
        elem = scalar_from_element(rtype.element_type) if isinstance(rtype, asc.LocalTensorType) else None
        nbytes = count * elem.size if isinstance(count, int) and elem is not None else None
        if memory is None:
            return s
        ai = self.idx(op.allocator)
        block = LocalBlock(op, ai, memory, nbytes)
        s = s.copy()
        s.blocks = (*s.blocks, block)
        size = memory_size(memory, self.chip)
        problem = None
        notes: list[tuple[Operation, str]] = []
        if size is not None and ("alloc", ai) not in s.over:
            mine = [b for b in s.blocks if b.allocator == ai]
            total = sum(round32(b.bytes) for b in mine if b.bytes is not None)
            if total > size:
                unknown = any(b.bytes is None for b in mine)
                name = self._names.get(ai, "LocalMemAllocator")
                problem = (f"{name} hands out {'at least ' if unknown else ''}{total} bytes of {memory}; the "
                           f"{self.chip.name} {memory} holds {size}")
                s.over = s.over | {("alloc", ai)}
                biggest = sorted((b for b in mine if b.bytes), key=lambda b: -(b.bytes or 0))[:2]
                notes = [(b.op, f"{b.bytes} bytes here") for b in biggest if b.op is not op]
        self.check("ASC303", op, problem, *notes)
        return s


def _largest_notes(items: Sequence[Init], key: Callable[[Init], int],
                   what: Callable[[Init], str]) -> list[tuple[Operation, str]]:
    biggest = sorted(items, key=lambda i: -key(i))[:3]
    return [(i.op, str(what(i))) for i in biggest]


def _describe_bytes(i: Init) -> str:
    if i.is_queue and i.num != 1:
        return f"{i.num} x {round32(i.length or 0)} bytes"
    return f"{i.bytes} bytes"


def memory_of(position: str, chip: Chip) -> str | None:
    if position == asc.UNKNOWN_POSITION:
        return None
    try:
        return tposition_memory(position, chip.npu_arch)
    except ValueError:
        return None


def _memory_name(position: str, chip: Chip) -> str:
    return memory_of(position, chip) or "local memory"


def memory_size(memory: str, chip: Chip) -> int | None:
    if memory == "GM":
        return None
    try:
        return chip.memory_size(memory)
    except (ValueError, KeyError):
        return None
