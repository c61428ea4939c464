"""Queue protocol (ASC2xx): the buffer state machine of TPipe/TQue along every path and loop iteration.

The path-sensitive work is done once per kernel by `buffer_state.analyze`; each rule here reports the
findings of its code (a problem that holds on every path reaching the op). TQue on VECCALC is read from
the declarations directly.
"""

from __future__ import annotations

from ascendir.dialects import ascendc as asc
from frontend.diagnostics import Severity
from passes.verify.buffer_state import analyze, location_key
from passes.verify.ir import ops_of_kind
from passes.verify.rules import CheckContext, rule


def _report(ctx: CheckContext, code: str) -> None:
    for f in analyze(ctx.module, ctx.chip).findings.get(code, []):
        ctx.report(f.op, f.message, *(ctx.note_at(op, msg) for op, msg in f.notes),
                   severity=Severity.WARNING if f.soft else None)


@rule(
    "ASC201", "use-after-free", "queue",
    summary="A tensor is read or written (vector op, DataCopy, GetValue/SetValue, EnQue) after FreeTensor gave "
            "its buffer back to the queue.",
    why="FreeTensor hands the buffer to the next AllocTensor at once (and, on hardware, signals the producer "
        "pipe that it may overwrite it). Using the old LocalTensor afterwards reads data another tile is "
        "loading into, or clobbers it: silently wrong results, or a state-machine abort in the CPU-debug build. "
        "A use is only a warning where the queue cannot have handed the buffer out again: no AllocTensor "
        "since the free can have taken it (AllocTensor takes the first free buffer after the queue's cursor, so "
        "with two buffers the next one takes the other), and the buffer's next writer cannot overtake it: a "
        "VECOUT buffer read or written by the vector pipe, which also writes it next, or read by GetValue, which "
        "is done before the next AllocTensor is issued. A read on another pipe than the buffer's next writer "
        "(a copy-out of a VECOUT buffer, a vector read of a VECIN buffer or of a TQueBind<VECIN, VECOUT> copy "
        "through UB, whose next copy-in waits only for what ran before the free) is a warning only when every "
        "later write of the buffer is ordered after it by the kernel's own SetFlag/WaitFlag pairs, a chain of "
        "them through any pipes (the MoE sorters' copy-out, then MTE3_MTE2, then MTE2_V before the next "
        "MrgSort), through another queue's EnQue/DeQue or FreeTensor/AllocTensor (the flags they are on "
        "hardware), or a barrier (PipeBarrier<PIPE_ALL>, SyncAll, TPipe::Destroy); an error, with a note at "
        "the write that may overtake it, otherwise. A copy into the freed buffer is always an error. A vector "
        "write there also relies on the compiler's auto-sync to order it after the "
        "queue's own copy-out (MTE3) still reading the buffer, as the simulator grades that race. Such code "
        "relies on the rotation: a change of the buffer count or of the order of AllocTensor calls breaks it "
        "(vendor AddRmsNorm and RmsNorm read xLocal and rstdLocal after their copy-out freed them, and "
        "AddRmsNorm's _multi_n.h gathers rstdLocal in place).",
    example="LocalTensor<half> x = inQueueX.DeQue<half>();\ninQueueX.FreeTensor(x);\n"
            "Add(zLocal, x, yLocal, tileLength);   // x's buffer is already free",
    instead="LocalTensor<half> x = inQueueX.DeQue<half>();\nAdd(zLocal, x, yLocal, tileLength);\n"
            "inQueueX.FreeTensor(x);              // free after the last use",
)
def use_after_free(ctx: CheckContext) -> None:
    _report(ctx, "ASC201")


@rule(
    "ASC202", "use-before-deque", "queue",
    summary="A tensor is used by an API while it is enqueued: EnQue was called and the matching DeQue was not.",
    why="EnQue only signals the consumer pipe (SetFlag); the data is safe to read on the consumer side only "
        "after DeQue has waited for that signal (WaitFlag). Reading the tensor in between races with the copy "
        "that fills it (MTE2 still writing while the vector unit reads), so results are random. Where an "
        "explicit SetFlag/WaitFlag pair of the event the DeQue would wait on (MTE2_V for VECIN, V_MTE3 for "
        "VECOUT) is set after the tensor's last write and waited before a read on the consumer pipe, the pair "
        "gives the DeQue's ordering: a warning (vendor InplaceAttnSoftmax does this). So does a chain of pairs "
        "through other pipes (MTE2_MTE3, then MTE3_V), another queue's EnQue and DeQue after the write (the "
        "flags they are on hardware), or a PipeBarrier<PIPE_ALL> between the write and the read; links in "
        "the wrong order, or one missing, order nothing.",
    example="DataCopy(xLocal, xGm[off], n);\ninQueueX.EnQue(xLocal);\nAbs(yLocal, xLocal, n);   // not dequeued",
    instead="DataCopy(xLocal, xGm[off], n);\ninQueueX.EnQue(xLocal);\n"
            "LocalTensor<float> x = inQueueX.DeQue<float>();\nAbs(yLocal, x, n);",
)
def use_before_deque(ctx: CheckContext) -> None:
    _report(ctx, "ASC202")


@rule(
    "ASC203", "enque-beyond-depth", "queue",
    summary="More consecutive EnQue calls on a TQue than its depth (the second template argument) allows, "
            "without a DeQue in between.",
    why="A TQue holds at most `depth` enqueued tensors. The CPU-debug build aborts with 'usedCount ... exceed "
        "depth limits'; on the NPU a depth-1 queue keeps only the last tensor, so the first DeQue returns the "
        "wrong buffer and the other one is never dequeued.",
    example="TQue<TPosition::VECIN, 1> inQueue;        // depth 1\ninQueue.EnQue(aLocal);\ninQueue.EnQue(bLocal);",
    instead="TQue<TPosition::VECIN, 2> inQueue;        // depth 2 for two tensors in flight\n"
            "inQueue.EnQue(aLocal);\ninQueue.EnQue(bLocal);",
)
def enque_beyond_depth(ctx: CheckContext) -> None:
    _report(ctx, "ASC203")


@rule(
    "ASC204", "deque-empty-queue", "queue",
    summary="DeQue on a queue in which no tensor was enqueued on any path reaching it (a queue no InitBuffer "
            "set up included).",
    why="DeQue waits for the producer's EnQue signal; with nothing enqueued it waits forever (the kernel "
        "hangs until the runtime times out), and the CPU-debug build aborts on the queue state. DeQue from "
        "a queue that InitBuffer never set up, usually a copy-paste slip of another queue's name, is the "
        "same hang.",
    example="LocalTensor<float> x = inQueueX.AllocTensor<float>();\nDataCopy(x, xGm, n);\n"
            "LocalTensor<float> y = inQueueX.DeQue<float>();   // EnQue is missing",
    instead="LocalTensor<float> x = inQueueX.AllocTensor<float>();\nDataCopy(x, xGm, n);\n"
            "inQueueX.EnQue(x);\nLocalTensor<float> y = inQueueX.DeQue<float>();",
)
def deque_empty_queue(ctx: CheckContext) -> None:
    _report(ctx, "ASC204")


@rule(
    "ASC205", "bad-free", "queue",
    summary="FreeTensor of a tensor that is already free, of a tensor taken from another queue or from a TBuf, "
            "or on a queue none of whose buffers is taken.",
    why="The buffer state machine only allows Free from a taken buffer of the same queue. A double free puts "
        "the buffer twice in the free list (two later AllocTensor calls get the same memory) and sets its "
        "release event twice; the CPU-debug build aborts on the state check or the pointer range check.",
    example="inQueueX.FreeTensor(xLocal);\ninQueueX.FreeTensor(xLocal);   // second free",
    instead="inQueueX.FreeTensor(xLocal);   // once, after the last use",
)
def bad_free(ctx: CheckContext) -> None:
    _report(ctx, "ASC205")


@rule(
    "ASC206", "alloc-all-buffers-taken", "queue",
    summary="AllocTensor on a queue whose InitBuffer buffers are all taken (allocated and not freed) on every "
            "path reaching it, or that no InitBuffer gave buffers on any path reaching it.",
    why="AllocTensor waits until one of the queue's buffers is freed. If none will be freed before this point, "
        "the core waits forever: the kernel hangs (the CPU-debug build aborts on the buffer state). A queue "
        "InitBuffer never set up has no buffer at all, so its first AllocTensor waits the same way. A path "
        "that skipped the InitBuffer is not enough to report: the analysis may not see that the same tiling "
        "flag guards both; only when every path reaching the AllocTensor skipped it.",
    example="pipe.InitBuffer(inQueueX, 1, 1024);\nLocalTensor<half> a = inQueueX.AllocTensor<half>();\n"
            "LocalTensor<half> b = inQueueX.AllocTensor<half>();   // the only buffer is taken",
    instead="pipe.InitBuffer(inQueueX, 2, 1024);   // one buffer per tensor held at once",
)
def alloc_all_buffers_taken(ctx: CheckContext) -> None:
    _report(ctx, "ASC206")


@rule(
    "ASC207", "alloc-leak-per-iteration", "queue",
    summary="A loop iteration takes more buffers of a queue (AllocTensor) than it gives back (FreeTensor), on "
            "every path through the body.",
    why="Each iteration keeps one more buffer; once the InitBuffer buffers are used up, AllocTensor waits for "
        "a free that never comes and the kernel hangs (on the third iteration of a double-buffered loop).",
    example="for (int i = 0; i < tileNum; i++) {\n    LocalTensor<float> y = outQueueY.AllocTensor<float>();\n"
            "    Exp(y, x, n);\n    DataCopy(yGm[i * n], y, n);   // y is never freed\n}",
    instead="for (int i = 0; i < tileNum; i++) {\n    LocalTensor<float> y = outQueueY.AllocTensor<float>();\n"
            "    ...\n    outQueueY.EnQue(y);\n    y = outQueueY.DeQue<float>();\n    DataCopy(yGm[i * n], y, n);\n"
            "    outQueueY.FreeTensor(y);\n}",
)
def alloc_leak_per_iteration(ctx: CheckContext) -> None:
    _report(ctx, "ASC207")


@rule(
    "ASC208", "buffers-per-position", "queue",
    summary="The TQue buffers of one TPosition (sum of InitBuffer num over the queues at that position) exceed "
            "the chip's limit (8, or 4 on Ascend 910). On the 950 (arch 3510) the vector core's queue buffers "
            "count together, over all UB positions, against its 28 buffer ids.",
    why="A queue buffer takes a hardware event id of its position's pipe pair at EnQue (until DeQue) and at "
        "FreeTensor (until its next AllocTensor), and there are only 8 per event (4 on 910). A loop that uses "
        "every buffer leaves each freed buffer holding an id, so all buffers of the position hold one at once. "
        "The CPU-debug build aborts with 'max buffer number in same queue position is 8'; on the NPU the ids "
        "run past the hardware's and flags of different buffers collide. The 950 synchronises vector-core "
        "queue buffers with buffer ids instead, each taken at InitBuffer from one pool of 28 for the whole "
        "core, so 9 VECIN buffers are fine there but 29 UB queue buffers are not.",
    example="pipe.InitBuffer(inQueueX, 4, len);   // VECIN: 4\npipe.InitBuffer(inQueueY, 4, len);   // 8\n"
            "pipe.InitBuffer(inQueueZ, 2, len);   // 10 > 8",
    instead="pipe.InitBuffer(inQueueX, 2, len);\npipe.InitBuffer(inQueueY, 2, len);\n"
            "pipe.InitBuffer(inQueueZ, 2, len);   // 6 VECIN buffers",
)
def buffers_per_position(ctx: CheckContext) -> None:
    _report(ctx, "ASC208")


@rule(
    "ASC209", "buffers-total", "queue",
    summary="More than 64 buffers over all InitBuffer calls of a TPipe (queue buffers plus one per TBuf).",
    why="The TPipe keeps a fixed table of 64 buffer descriptors; InitBuffer beyond it writes past the table "
        "(the CPU-debug build aborts, the NPU corrupts the pipe state).",
    example="for (int i = 0; i < 33; i++) pipe.InitBuffer(tmp[i], 2, 256);   // 66 buffers",
    instead="pipe.InitBuffer(tmpAll, 2 * 33 * 256);   // one TBuf, sliced with GetWithOffset",
)
def buffers_total(ctx: CheckContext) -> None:
    _report(ctx, "ASC209")


@rule(
    "ASC210", "tque-on-veccalc", "queue",
    summary="A TQue declared on TPosition::VECCALC; an error where it is used as a queue (EnQue/DeQue).",
    why="VECCALC is scratch memory used by the vector unit alone: its queue events connect the vector pipe to "
        "itself. Used as a queue, a DeQue there waits for no copy: a DataCopy into the tensor followed by "
        "EnQue/DeQue races the vector unit (an error). Used only as a pool of AllocTensor/FreeTensor buffers it "
        "compiles and works (asc-devkit's own matmul tests and vendor ops do so, and NPUKernelBench's "
        "SelectReduceMaxDSubExpReduceSumDRealDiv passes on hardware with six of them): a warning, as the "
        "TBuf<VECCALC> the API documents for scratch space does the same with less state.",
    severity=Severity.WARNING,
    example="TQue<TPosition::VECCALC, 1> tmpQueue;",
    instead="TBuf<TPosition::VECCALC> tmpBuf;\npipe.InitBuffer(tmpBuf, len);\n"
            "LocalTensor<float> tmp = tmpBuf.Get<float>();",
)
def tque_on_veccalc(ctx: CheckContext) -> None:
    seen: set[object] = set()
    # the declarations whose queue is enqueued into or dequeued from (by the queue's declaration), collected
    # at the first VECCALC queue: most kernels have none, and keying every EnQue/DeQue costs more than the rule
    queued: set[object] | None = None
    for op in ops_of_kind(ctx, (asc.TQueOp,)):
        t = op.result.type
        if isinstance(t, asc.TQueType) and t.position.data == "VECCALC" and location_key(op) not in seen:
            seen.add(location_key(op))
            if queued is None:
                queued = {location_key(q.owner) for use in ops_of_kind(ctx, (asc.EnQueOp, asc.DeQueOp))
                          for q in [use.queue] if isinstance(q.owner, asc.TQueOp)}
            if location_key(op) in queued:
                ctx.report(op, f"TQue '{op.var_name.data}' is on VECCALC and used as a queue: its EnQue/DeQue "
                               f"order nothing between pipes; queue data on VECIN/VECOUT, scratch memory is a "
                               f"TBuf<TPosition::VECCALC>", severity=Severity.ERROR)
            else:
                ctx.report(op, f"TQue '{op.var_name.data}' is on VECCALC; queues move data between pipes, "
                               f"scratch memory is a TBuf<TPosition::VECCALC>")


@rule(
    "ASC211", "multiple-tpipes", "queue",
    summary="A TPipe is used (InitBuffer, REGIST_MATMUL_OBJ, passed to a helper) while another TPipe of the "
            "kernel is still in use (used before and neither destroyed nor out of scope).",
    why="A TPipe owns the core's local memory and its event ids from address 0 on; two pipes in use at once "
        "hand out overlapping buffers and the same event ids, so the queues of one corrupt the other. One pipe "
        "at a time is the rule: pass the one pipe by pointer to the classes that need it, or Destroy() a pipe "
        "before the next one is used (declaring several up front is fine; vendor kernels do).",
    example="TPipe pipe;\nREGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.cubeTiling);\n"
            "op.Init(x, y);   // class KernelGemm { TPipe pipe; ... } fills its own pipe",
    instead="TPipe pipe;\nREGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.cubeTiling);\n"
            "op.Init(x, y, &pipe);   // the class keeps a TPipe*",
)
def multiple_tpipes(ctx: CheckContext) -> None:
    _report(ctx, "ASC211")


@rule(
    "ASC212", "init-buffer-twice", "queue",
    summary="InitBuffer is called a second time for the same TQue or TBuf on a path, with no pipe Reset between.",
    why="Each InitBuffer carves new memory from the pipe: the first buffers stay allocated and unreachable (the "
        "local-memory budget is spent twice) and the queue's state starts over, dropping tensors in flight.",
    example="pipe.InitBuffer(inQueueX, 2, len);\n...\npipe.InitBuffer(inQueueX, 2, len);",
    instead="pipe.InitBuffer(inQueueX, 2, len);   // once; call pipe.Reset() first to re-plan the memory",
    severity=Severity.WARNING,
)
def init_buffer_twice(ctx: CheckContext) -> None:
    _report(ctx, "ASC212")


@rule(
    "ASC213", "tbuf-get-without-init-buffer", "queue",
    summary="Get / GetWithOffset on a TBuf that nothing gives memory: no InitBuffer (nor any other call) takes "
            "the TBuf anywhere in the kernel.",
    why="A TBuf's memory is set by TPipe::InitBuffer, which points the TBuf at the bytes it carves from the "
        "position's memory. TBuf::Get builds its tensor from that record (asc-devkit kernel_tbuf_impl.h: "
        "`this->bufStart`, set only by InitBuffer and its kin): without it the pointer is not set, and Get "
        "writes through it and hands out a tensor at an address the pipe never planned, over the queues' "
        "buffers or outside the memory; the CPU debug build aborts on it. The rule reports only a TBuf whose "
        "every use is a Get: one passed to any other call (a helper not followed, PopStackBuffer) or stored "
        "may be given memory there.",
    example="pipe.InitBuffer(inQueueX, 2, tileBytes);\nLocalTensor<float> work = workBuf.Get<float>();\n"
            "ReduceSum<float>(sum, x, work, n);   // workBuf never got memory",
    instead="pipe.InitBuffer(inQueueX, 2, tileBytes);\npipe.InitBuffer(workBuf, workBytes);\n"
            "LocalTensor<float> work = workBuf.Get<float>();",
)
def tbuf_get_without_init_buffer(ctx: CheckContext) -> None:
    seen: set[object] = set()
    for decl in ops_of_kind(ctx, (asc.TBufOp,)):
        uses = [u.operation for u in decl.result.uses]
        gets = [op for op in uses if isinstance(op, asc.TBufGetOp)]
        # (a class template instantiated twice declares its TBuf twice: one finding)
        if gets and len(gets) == len(uses) and location_key(decl) not in seen:
            seen.add(location_key(decl))
            name = decl.var_name.data
            ctx.report(min(gets, key=location_key),
                       f"{name}.Get hands out a tensor of a TBuf no InitBuffer gives memory: its address and "
                       "length are not set",
                       ctx.note_at(decl, f"{name} is declared here and never passed to InitBuffer"))
