"""Queue and pipe ops in the buffer state machine: TPipe and TQue declarations, AllocTensor, EnQue, DeQue and
FreeTensor on a tensor's FSM, API calls that use tensors, and opaque calls that make a queue unknown.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects import memref
from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation, SSAValue

from ascendir.catalog import QueueEvent
from ascendir.dialects import ascendc as asc
from passes.verify import flag_edges, happens_before, queue_reuse
from passes.verify.buffer_ir import line_of, stored_pipe, tensor_root
from passes.verify.buffer_states import DEQUE, ENQUE, FREE, OCCUPIED, UNKNOWN, QueueState, State
from passes.verify.ir import constant_of


# LocalTensor methods that only read the tensor's descriptor, not its buffer.
_METADATA_METHODS = frozenset({"GetSize", "GetLength", "GetPhyAddr", "GetPosition", "operator[]", "ReinterpretCast"})
# queue methods that change the queue in ways the state does not follow
_HAVOC_QUEUE_METHODS = frozenset({"AllocTensor", "DeQue", "FreeAllEvent", "FreeTensor", "EnQue"})


class QueueSteps:
    """Queue and pipe ops: methods of Analysis (buffer_state.py), which inherits them."""

    def _tque(self, op: asc.TQueOp, s: State) -> State:
        s = s.copy()
        s.queues[self.idx(op.result)] = QueueState(False, None, 0, (), None)
        return s

    def _use(self, op: Operation, api: str, operands: Iterable[SSAValue], s: State) -> State:
        """An API reads or writes these tensors: none may be freed or still enqueued. A freed tensor only read
        while its buffer cannot have been handed out again, and an enqueued one read on the consumer pipe
        after a SetFlag/WaitFlag pair of the DeQue's event, are warnings (queue_reuse.py)."""
        after_free: str | None = None
        before_deque: str | None = None
        free_note: tuple[Operation, str] | None = None
        enq_note: tuple[Operation, str] | None = None
        free_soft = enq_soft = True
        freed_write = False
        checked = False
        written: set[int] = set()
        kept: set[int] = set()  # freed tokens written here by a write that keeps them intact (freed_write_is_safe)
        opened: list[tuple[int, int]] = []  # freed (token, queue) read here on a pipe their next writer may overtake
        for v in operands:
            if not isinstance(v.type, asc.LocalTensorType):
                continue
            checked = True
            t = self.token_of(s, v)
            if t is None:
                continue
            qi, st, _, last = s.tokens[t]
            qname = self._names.get(qi, "its queue")
            where = self._op_index.get(last)
            position, source = self._position(qi), self._source(qi)
            write = queue_reuse.writes(op, v)
            if write:
                written.add(t)
            if st == FREE:
                if write:
                    soft = t in s.intact and queue_reuse.freed_write_is_safe(position, op, source)
                    if soft:
                        kept.add(t)
                    freed_write = True
                else:
                    soft = t in s.intact and queue_reuse.only_reads(op, v)
                    if soft and not queue_reuse.freed_read_is_safe(position, op, source):
                        # safe only if every later write of the buffer is ordered after the read: open it
                        # (happens_before.py); a later writer that is not makes the finding an error
                        soft = happens_before.pipe_of(op) is not None
                        if soft:
                            opened.append((t, qi))
                if after_free is None or (free_soft and not soft):
                    after_free = f"{api} uses a tensor of {qname} after FreeTensor gave its buffer back"
                    free_note = (where, "freed here") if where is not None else None
                free_soft = free_soft and soft
            elif st == ENQUE and not _producer_reads(op, v):
                pipes = self._queue_pipes(qi)
                consumer = pipes[1] if pipes is not None else None
                produced = s.produced.get(t)
                soft = (produced is not None and produced.orders(consumer) and queue_reuse.only_reads(op, v)
                        and consumer is not None and queue_reuse.runs_on(op, consumer))
                if before_deque is None or (enq_soft and not soft):
                    before_deque = (f"{api} uses a tensor of {qname} that is enqueued and not yet dequeued; "
                                    f"DeQue it first")
                    enq_note = (where, "enqueued here") if where is not None else None
                enq_soft = enq_soft and soft
        if checked:
            free_notes = [free_note] if free_note else []
            if after_free is not None and free_soft:
                if freed_write:
                    free_notes += [(op, queue_reuse.WRITE_ROTATION_NOTE), (op, queue_reuse.WRITE_NOTE)]
                else:
                    free_notes.append((op, queue_reuse.ROTATION_NOTE))
                    if opened:
                        free_notes.append((op, queue_reuse.ORDER_NOTE.format(pipe=happens_before.pipe_of(op))))
            self.check("ASC201", op, after_free, *free_notes, soft=after_free is not None and free_soft)
            enq_notes = [enq_note] if enq_note else []
            if before_deque is not None and enq_soft:
                event = next((events.forward if (events := self._queue_events(s.tokens[t][0])) else None
                              for v in operands
                              if (t := self.token_of(s, v)) is not None and s.tokens[t][1] == ENQUE), None)
                enq_notes.append((op, queue_reuse.FLAG_NOTE.format(event=event)))
            self.check("ASC202", op, before_deque, *enq_notes, soft=before_deque is not None and enq_soft)
        if s.reads and written:
            reads, unordered = happens_before.after_write(s.reads, written, happens_before.pipe_of(op))
            if unordered:
                self._writes_unordered(unordered, op, s)
                s = s.copy()
                s.reads = reads
        if opened:
            s = s.copy()
            pipe = happens_before.pipe_of(op)
            assert pipe is not None
            for t, qi in opened:
                read = happens_before.PendingRead.start(pipe, qi, s.slots.get(t), t)
                s.reads[id(op)] = s.reads[id(op)].meet(read) if id(op) in s.reads else read
        if (written - kept) & s.intact or written & s.produced.keys():
            # a write ends what a free left intact (unless the write itself is safe by the rotation: the bytes
            # are still no other tensor's) and what flags ordered the last write before
            s = s.copy()
            s.intact = s.intact - (written - kept)
            s.produced = {t: r for t, r in s.produced.items() if t not in written}
        return s

    def _writes_unordered(self, reads: list[int], writer: Operation, s: State, how: str | None = None) -> None:
        """Open reads (happens_before.py) whose buffer `writer` may write with nothing ordering it after them:
        each read's ASC201 is an error, with a note at the first such writer (Analysis.run) that says `how`
        it writes the buffer (by default: on its pipe)."""
        for k in reads:
            if how is None:
                pipe = happens_before.pipe_of(writer)
                how = (f"the buffer is written again here on PIPE_{pipe}" if pipe is not None else
                       "the buffer is written again here by an instruction whose pipe is not known")
            self._unordered.setdefault(k, (writer, s.reads[k].pipe, how))

    def _position(self, qi: int) -> str:
        decl = self._decls.get(qi)
        qtype = decl.results[0].type if decl is not None else None
        return qtype.position.data if isinstance(qtype, asc.TQueType) else "?"

    def _source(self, qi: int) -> str:
        """A TQueBind's source position where it is not the one its position implies (VECIN for a copy
        through UB), else ''."""
        decl = self._decls.get(qi)
        qtype = decl.results[0].type if decl is not None else None
        return qtype.source.data if isinstance(qtype, asc.TQueType) else ""

    def _queue_events(self, qi: int) -> QueueEvent | None:
        """The events behind queue qi's operations (flag_edges.py), from its positions."""
        return flag_edges.queue_events(self._position(qi), self._source(qi), self.chip.npu_arch)

    def _queue_pipes(self, qi: int) -> tuple[str, str] | None:
        """(the pipe that writes queue qi's tensors before EnQue, the pipe its DeQue holds): the pipes of
        its forward event (MTE2 -> V for VECIN, V -> MTE3 for VECOUT, MTE2 -> MTE3 for TQueBind<VECIN,
        VECOUT>)."""
        events = self._queue_events(qi)
        return happens_before.event_pipes(events.forward) if events is not None else None

    def _queue_flag(self, s: State, api: str, qi: int, token: int | None) -> State:
        """The flag behind EnQue (`api` SetFlag) or DeQue (WaitFlag) of queue qi: its forward event for the
        tensor `token` (None: not known)."""
        events = self._queue_events(qi)
        if events is None:
            return s
        return flag_edges.queue_edge(s, api, events.forward, qi, token, self._queue_pipes)

    def _buffer_flag(self, s: State, api: str, qi: int, slot: int | None) -> State:
        """The flag behind FreeTensor (`api` SetFlag) or AllocTensor (WaitFlag) of queue qi: its backward event
        for buffer `slot` (None: not known)."""
        events = self._queue_events(qi)
        if events is None:
            return s
        return flag_edges.buffer_edge(s, api, events.backward, qi, slot, self._queue_pipes)

    @staticmethod
    def _slot(s: State, qi: int, slot: int | None) -> int | None:
        """Which buffer of queue qi a tensor holds: `slot` where the rotation tells it, else the only one."""
        q = s.queues.get(qi)
        return 0 if slot is None and q is not None and q.nbuf == 1 else slot

    def _held_slots(self, s: State, qi: int) -> list[int] | None:
        """The buffers of queue qi taken now, when every taken one is known (its count agrees)."""
        q = s.queues.get(qi)
        if q is None or q.count is None:
            return None
        held: list[int] = []
        for t, tok in s.tokens.items():
            if tok[0] != qi:
                continue
            if tok[1] == UNKNOWN:
                return None
            if tok[1] in (OCCUPIED, ENQUE, DEQUE):
                if t not in s.slots:
                    return None
                held.append(s.slots[t])
        return held if len(held) == q.count else None

    def _api_call(self, op: asc.ApiCallOp, s: State) -> State:
        family, api = op.FAMILY, op.api.data
        if family == "queue":
            if api in _HAVOC_QUEUE_METHODS and op.args:
                if api == "AllocTensor" and s.reads:  # a buffer handed out where the analysis does not see it
                    unordered = happens_before.on_queues(s.reads, {self.idx(op.args[0])})
                    if unordered:
                        self._writes_unordered(unordered, op, s, "the buffer may be handed out again here")
                        s = s.copy()
                        s.reads = {k: r for k, r in s.reads.items() if k not in unordered}
                return self._havoc_queue(s, op.args[0])
            return s
        if family == "sync":
            return self._flag(op, s)
        if family == "pipe":
            if api == "Reset" and op.args:
                return self._reset(s, self.pipe_idx(op.args[0]), op)
            if api == "Destroy" and op.args:
                return self._destroy(s, self.pipe_idx(op.args[0]), op)
            return s
        for a in op.args:
            if isinstance(a.type, asc.TPipeType):
                s = self._pipe_use(op, a, s)
        if family in ("buffer", "global_tensor"):
            return s
        if family == "local_tensor" and api in _METADATA_METHODS:
            return s
        return self._use(op, api, op.args, s)

    def _flag(self, op: asc.ApiCallOp, s: State) -> State:
        """SetFlag, WaitFlag and full barriers: edges of the happens-before relation (happens_before.py) that
        the open reads of freed buffers and the producer writes of held queue tensors follow. A chain of
        them from the pipe a queue's DeQue event starts from (MTE2 for VECIN) to its consumer (V) orders the
        tensor's writes before a use on that pipe just as the DeQue would."""
        api = op.api.data
        if happens_before.is_full_barrier(op):
            # everything before the barrier is ordered before everything after it
            held = {t for t, tok in s.tokens.items() if tok[1] in (OCCUPIED, ENQUE, DEQUE)
                    and self._producer_pipe(tok[0]) is not None}
            if not s.reads and not held:
                return s
            s = s.copy()
            s.reads = {}
            s.produced = {**s.produced, **{t: happens_before.Reach(happens_before.PIPES, frozenset()) for t in held}}
            return s
        if api not in ("SetFlag", "WaitFlag") or not op.args:
            return s
        targs = op.template_args
        first = targs.data[0] if targs is not None and targs.data else None
        event = queue_reuse.event_name(first.data if isinstance(first, StringAttr) else None)
        if event is None:
            return s
        ident = constant_of(op.args[0])
        if ident is None:  # an id fetched at run time: the same variable on both sides
            ident_v = queue_reuse.flag_id_root(op.args[0])
            ident = ("cell", self.idx(ident_v.owner.memref)) if isinstance(ident_v.owner, memref.LoadOp) \
                else ("value", self.idx(ident_v))
        return flag_edges.edge(s, api, event, (event, ident), self._queue_pipes)

    def _producer_pipe(self, qi: int) -> str | None:
        """The pipe that writes a queue's tensors before EnQue: where its DeQue event starts (MTE2 for VECIN,
        V for VECOUT, MTE2 for TQueBind<VECIN, VECOUT>)."""
        pipes = self._queue_pipes(qi)
        return pipes[0] if pipes is not None else None

    def _opaque(self, op: asc.OpaqueCallOp, s: State) -> State:
        if s.reads:
            # a call not followed may write the buffer of an open read (it gets the queue, or a tensor that
            # may hold the buffer), on a pipe not known
            queues = {self.idx(a) for a in op.args if isinstance(a.type, asc.TQueType)}
            tokens = {t for a in op.args if isinstance(a.type, asc.LocalTensorType)
                      and (t := self.token_of(s, a)) is not None}
            unordered = happens_before.on_queues(s.reads, queues) + happens_before.after_write(s.reads, tokens, None)[1]
            if unordered:
                self._writes_unordered(unordered, op, s, "the buffer goes here to a call the check does not "
                                                         "follow, which may write it")
                s = s.copy()
                s.reads = {k: r for k, r in s.reads.items() if k not in unordered}
        for a in op.args:
            if isinstance(a.type, asc.TQueType):
                s = self._havoc_queue(s, a)
            elif isinstance(a.type, asc.TPipeType) and op.callee.data.endswith("Destroy"):
                s = self._destroy(s, self.pipe_idx(a), op)
            elif isinstance(a.type, asc.TPipeType):
                s = self._pipe_use(op, a, s)
        # a call not followed may write the tensors it gets: what a free left intact or a flag pair ordered ends
        touched = {t for a in op.args if isinstance(a.type, asc.LocalTensorType)
                   and (t := self.token_of(s, a)) is not None}
        if touched & (s.intact | s.produced.keys()):
            s = s.copy()
            s.intact = s.intact - touched
            s.produced = {t: r for t, r in s.produced.items() if t not in touched}
        return s

    def _havoc_queue(self, s: State, q: SSAValue) -> State:
        qi = self.idx(q)
        if qi not in s.queues:
            return s
        s = s.copy()
        q = s.queues[qi]
        # a helper that gets the queue may also InitBuffer it
        s.queues[qi] = q.replace(count=None, fifo=None, inited=None if q.inited is False else q.inited,
                                 cursor=None)
        s.tokens = {t: (tok if tok[0] != qi else (qi, UNKNOWN, tok[2], tok[3])) for t, tok in s.tokens.items()}
        return flag_edges.forget(s, {qi})

    def _reset(self, s: State, pipe: int, op: Operation) -> State:
        """The pipe's buffers are given back: its queues are gone, and the bytes of an open read may be handed
        to a TBuf or queue the analysis cannot tell apart, so each open read of them counts as overtaken
        (Reset waits for the buffers' free events only, which were set before such a read)."""
        dead = {qi for qi, q in s.queues.items() if q.pipe == pipe}
        unordered = happens_before.on_queues(s.reads, dead)
        if unordered:
            self._writes_unordered(unordered, op, s, "TPipe::Reset gives the buffer back here")
        s = s.copy()
        s.reads = {k: r for k, r in s.reads.items() if k not in unordered}
        s.inits = tuple(i for i in s.inits if i.pipe != pipe)
        s.over = frozenset()
        for qi in dead:
            s.queues[qi] = QueueState(False, None, 0, (), None)
        s.tokens = {t: (tok if tok[0] not in dead else (tok[0], UNKNOWN, tok[2], tok[3])) for t, tok in s.tokens.items()}
        s.tbufs = frozenset()
        return flag_edges.forget(s, dead)

    def _destroy(self, s: State, pipe: int, op: Operation) -> State:
        """`pipe.Destroy()`: its buffers are given back and it no longer counts as alive, so a next TPipe
        may be created (the documented way to use several pipes in one kernel, one after the other). It ends
        with PipeBarrier<PIPE_ALL> (asc-devkit's kernel_tpipe_impl.h; ~TPipe calls it too): every open read
        of a freed buffer is done before anything after it."""
        if s.reads:
            s = s.copy()
            s.reads = {}
        s = self._reset(s, pipe, op)
        s.pipes = s.pipes - {pipe}
        s.busy = s.busy - {pipe}
        return s

    def _tpipe(self, op: asc.TPipeOp, s: State) -> State:
        s = s.copy()
        s.pipes = s.pipes | {self.idx(op.result)}
        return s

    def _pipe_use(self, op: Operation, pipe: SSAValue, s: State) -> State:
        """A TPipe takes part in an op (InitBuffer, REGIST_MATMUL_OBJ, a helper it is passed to). Two pipes
        in use at once hand out the same local memory and event ids; pipes used one after the other, each
        destroyed before the next is used, are the documented way to have several (vendor kernels declare
        them all up front)."""
        resolved = stored_pipe(pipe)
        if resolved is None:
            return s  # which pipe this is cannot be told
        pi = self.idx(resolved)
        others = sorted((s.busy & s.pipes) - {pi})
        if others:
            first, second = self._decls.get(others[0]), self._decls.get(pi)
            notes = [(d, what) for d, what in ((first, "the TPipe still in use is declared here"),
                                                (second, "the TPipe used here is declared here")) if d is not None]
            here, there = self._names.get(pi, "pipe"), self._names.get(others[0], "pipe")
            if here == there:  # a member `pipe` and a local `pipe`: say which is which
                here, there = (f"{name} (declared on line {line_of(d)[0]})" if d is not None else name
                               for name, d in ((here, second), (there, first)))
            self.check("ASC211", op, f"TPipe '{here}' is used while TPipe '{there}' is still in use; a kernel "
                                     "has one TPipe at a time (Destroy() the first before using the next)", *notes)
        else:
            self.check("ASC211", op, None)
        if pi in s.busy:
            return s
        s = s.copy()
        s.busy = s.busy | {pi}
        return s

    def _alloc(self, op: asc.AllocTensorOp, s: State) -> State:
        qi = self.idx(op.queue)
        q = s.queues.get(qi)
        if q is None:
            return s
        problem = None
        notes: list[tuple[Operation, str]] = []
        if q.inited is True and q.nbuf is not None and q.count is not None and q.count >= q.nbuf:
            qname = self.name(op.queue)
            problem = (f"AllocTensor on {qname} blocks forever: all {q.nbuf} of its buffer"
                       f"{'s are' if q.nbuf != 1 else ' is'} taken and none is freed before")
            held = {tok[2] for tok in s.tokens.values() if tok[0] == qi and tok[1] in (OCCUPIED, ENQUE, DEQUE)}
            # in source order (the token names its AllocTensor by id(), which differs from run to run)
            takers = sorted((self._op_index[h] for h in held if h in self._op_index), key=line_of)
            notes = [(taker, "buffer taken here") for taker in takers[:2]]
        elif q.inited is False:
            # (reported only when no path reaching the AllocTensor ran InitBuffer: a path that skipped it
            # may be one the analysis cannot rule out, `if (hasBias) InitBuffer(...)` ... `if (hasBias)`)
            problem = (f"AllocTensor on {self.name(op.queue)} blocks forever: no InitBuffer gave the queue any "
                       "buffers on this path")
        self.check("ASC206", op, problem, *notes)
        held = self._held_slots(s, qi) if q.nbuf and q.cursor is not None else None
        pick = queue_reuse.next_slot(q.nbuf, q.cursor, held) if held is not None and q.nbuf and \
            q.cursor is not None else None
        s = s.copy()
        t = s.next_tok
        s.next_tok += 1
        s.tokens[t] = (qi, OCCUPIED, id(op), id(op))
        s.vals[self.idx(op.result)] = t
        cursor = None if pick is None or not q.nbuf else (pick + 1) % q.nbuf
        s.queues[qi] = q.replace(count=None if q.count is None else q.count + 1, cursor=cursor)
        if pick is not None:
            s.slots[t] = pick
        if s.reads:
            s.reads = happens_before.after_alloc(s.reads, qi, pick, t)
        # a freed buffer this AllocTensor may have taken is no longer intact
        s.intact = frozenset(f for f in s.intact
                             if s.tokens.get(f, (None,))[0] != qi or (pick is not None and s.slots.get(f) not in
                                                                      (None, pick)))
        # it waits on the backward event the FreeTensor of the buffer it takes set
        return self._buffer_flag(s, "WaitFlag", qi, self._slot(s, qi, pick))

    def _free(self, op: asc.FreeTensorOp, s: State) -> State:
        qi = self.idx(op.queue)
        q = s.queues.get(qi)
        qname = self.name(op.queue)
        root = tensor_root(op.tensor).owner
        if isinstance(root, asc.TBufGetOp | asc.LocalAllocOp):
            src = "a TBuf" if isinstance(root, asc.TBufGetOp) else "LocalMemAllocator"
            self.check("ASC205", op, f"FreeTensor on {qname} of a tensor from {src}; only tensors taken from "
                                     f"{qname} can be freed")
            return s
        t = self.token_of(s, op.tensor)
        problem = None
        notes: list[tuple[Operation, str]] = []
        if t is not None:
            tq, st, _, last = s.tokens[t]
            where = self._op_index.get(last)
            if st == FREE:
                problem = f"FreeTensor on {qname} frees a tensor that is already free"
                if where is not None:
                    notes.append((where, "first freed here"))
            elif tq != qi and st != UNKNOWN:
                problem = (f"FreeTensor on {qname} of a tensor taken from {self._names.get(tq, 'another queue')}; "
                           f"free it on the queue it came from")
        elif q is not None and q.inited is True and q.count == 0:
            problem = f"FreeTensor on {qname} while none of its buffers is taken"
        self.check("ASC205", op, problem, *notes)
        if q is None:
            return s
        s = s.copy()
        slot: int | None = None  # the buffer given back, where known
        if t is not None and s.tokens[t][0] == qi:
            tq, st, site, _ = s.tokens[t]
            s.tokens[t] = (tq, FREE, site, id(op))
            if st != FREE:
                s.intact = s.intact | {t}
            slot = s.slots.get(t)
            was_live = st in (OCCUPIED, ENQUE, DEQUE)
            count = None if q.count is None or st == UNKNOWN else (q.count - 1 if was_live else q.count)
            s.queues[qi] = q.replace(count=count)
            s.produced.pop(t, None)  # (ASC202 asks it of enqueued tensors only)
        elif t is not None:
            s.queues[qi] = q.replace(count=None, fifo=None)
        else:
            count = None if q.count is None or q.count == 0 else q.count - 1
            s.queues[qi] = q.replace(count=count)
        # it sets the backward event for the buffer, which the AllocTensor that takes it again waits on (a
        # tensor of another queue: which buffer's flag is set is not known)
        foreign = t is not None and s.tokens[t][0] != qi
        return self._buffer_flag(s, "SetFlag", qi, None if foreign else self._slot(s, qi, slot))

    def _enque(self, op: asc.EnQueOp, s: State) -> State:
        qi = self.idx(op.queue)
        q = s.queues.get(qi)
        s = self._use(op, "EnQue", [op.tensor], s)
        if q is None:
            return s
        qtype = op.queue.type
        depth = qtype.depth.data if isinstance(qtype, asc.TQueType) else 0
        problem = None
        if q.inited is True and q.fifo is not None and depth >= 1 and len(q.fifo) >= depth:
            qname = self.name(op.queue)
            problem = (f"EnQue on {qname} with {len(q.fifo)} tensor{'s' if len(q.fifo) != 1 else ''} already "
                       f"waiting; its depth is {depth} (DeQue before enqueuing again, or raise the TQue depth)")
        if q.inited is not False:
            self.check("ASC203", op, problem)
        t = self.token_of(s, op.tensor)
        s = s.copy()
        if t is not None and s.tokens[t][0] == qi:
            tq, st, site, _ = s.tokens[t]
            s.tokens[t] = (tq, ENQUE if st != UNKNOWN else UNKNOWN, site, id(op))
            s.queues[qi] = q.replace(fifo=None if q.fifo is None else (*q.fifo, t))
        elif t is not None:
            s.queues[qi] = q.replace(count=None, fifo=None)
        else:
            s.queues[qi] = q.replace(fifo=None if q.fifo is None else (*q.fifo, -1))
        # it sets the forward event for the tensor, which the DeQue that takes it out waits on
        return self._queue_flag(s, "SetFlag", qi, t if t is not None and s.tokens[t][0] == qi else None)

    def _deque(self, op: asc.DeQueOp, s: State) -> State:
        qi = self.idx(op.queue)
        q = s.queues.get(qi)
        if q is None:
            return s
        problem = None
        if q.inited is not None and q.fifo is not None and not q.fifo:
            problem = f"DeQue on {self.name(op.queue)} finds no tensor: nothing was enqueued on this path"
            if q.inited is False:
                problem += ", and no InitBuffer gave the queue buffers"
        self.check("ASC204", op, problem)
        s = s.copy()
        if q.fifo:
            head, rest = q.fifo[0], q.fifo[1:]
            s.queues[qi] = q.replace(fifo=rest)
            if head in s.tokens:
                tq, st, site, _ = s.tokens[head]
                s.tokens[head] = (tq, DEQUE if st == ENQUE else UNKNOWN, site, id(op))
                s.vals[self.idx(op.result)] = head
                # it waits on the forward event the EnQue of that tensor set
                return self._queue_flag(s, "WaitFlag", qi, head)
        elif q.fifo is not None and problem is None:
            s.queues[qi] = q.replace(fifo=None)
        elif q.fifo is None:
            # which tensor came out is not known: any of the queue's enqueued tensors may be the one
            s.tokens = {t: (tok if tok[0] != qi or tok[1] != ENQUE else (qi, UNKNOWN, tok[2], tok[3]))
                        for t, tok in s.tokens.items()}
        # (a DeQue known to find nothing leaves the FIFO known empty, so the same DeQue in the next loop
        # iteration is judged the same way instead of against a forgotten FIFO)
        s.vals.pop(self.idx(op.result), None)
        # which tensor's flag it waits on is not known
        return self._queue_flag(s, "WaitFlag", qi, None)


# vector APIs: they run on the V pipe, which produces what a VECOUT queue holds. Duplicate and the sort family
# are not (yet) read here as the producer's own reads: the rule was measured without them
_VECTOR_FAMILIES = asc.VECTOR_PIPE_FAMILIES - {"duplicate", "sort"}


def _producer_reads(op: Operation, tensor: SSAValue) -> bool:
    """Whether `op` only reads `tensor`, a VECOUT tensor already enqueued, on the vector pipe that wrote it
    (ops-nn's add_rms_norm_cast: `outQueueY.EnQue(y); Cast(yFp32, y, ...)`). The EnQue orders the copy-out
    after the writes before it; a later read on the same pipe races with nothing, as the copy-out reads too.
    A write there, or a read on another pipe (a DataCopy out without DeQue, a GetValue), stays ASC202."""
    if not isinstance(op, asc.ApiCallOp) or op.FAMILY not in _VECTOR_FAMILIES:
        return False
    if not isinstance(tensor.type, asc.LocalTensorType) or tensor.type.position.data != "VECOUT":
        return False
    return queue_reuse.only_reads(op, tensor)
