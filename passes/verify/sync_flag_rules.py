"""The synchronisation rules on the flag interpreter's results: a WaitFlag whose flag is never set, a SetFlag
never waited for, a flag set twice; and the rules on single calls: PipeBarrier<PIPE_S>, event ids out of
range, a flag within one pipe.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Operation

from ascendir.dialects import ascendc as asc
from passes.verify.happens_before import event_pipes
from passes.verify.op_index import module_index
from passes.verify.rules import CheckContext, rule
from passes.verify.sync_flags import (
    ANY_ID,
    FLAG_SET,
    MAX_COUNT,
    FlagInterpreter,
    Key,
    State,
    flag_key,
    flag_ops,
    kernel_analysis,
)
from passes.verify.sync_ir import api_template, has_receiver, kernels_to_check, order_key
from passes.verify.value_fold import fold_int


def _keys_used(kernel: asc.KernelOp, name: str) -> set[Key]:
    out: set[Key] = set()
    for op in flag_ops(kernel):
        event, ident = flag_key(op)
        if op.api.data == name and event is not None and ident is not None:
            out.add((event, ident))
    return out


def _counted_events_used(kernel: asc.KernelOp, name: str, skip: set[str]) -> set[str]:
    """The HardEvents of `name` calls (SetFlag or WaitFlag) whose flags are counted, not told apart by id."""
    out: set[str] = set()
    for op in flag_ops(kernel):
        event, ident = flag_key(op)
        if op.api.data == name and event is not None and (ident is None or event in skip):
            out.add(event)
    return out


def _flag_text(key: Key) -> str:
    return f"HardEvent::{key[0]}" if key[1] == ANY_ID else f"HardEvent::{key[0]}, event id {key[1]}"


def _analysed_kernels(
        ctx: CheckContext) -> Iterator[tuple[asc.KernelOp, tuple[FlagInterpreter, State, set[str]]]]:
    """The kernels to check, each with the flag interpreter's run over it (the interpreter, the flags' final
    state, the events whose flags are counted); a kernel it could not run is passed over."""
    for kernel in kernels_to_check(ctx):
        result = kernel_analysis(kernel)
        if result is not None:
            yield kernel, result


def _plain_flag_calls(ctx: CheckContext) -> Iterator[asc.ApiCallOp]:
    """The SetFlag and WaitFlag calls of the module that are AscendC's free functions (no receiver object)."""
    for op in module_index(ctx.module).of("sync"):
        if op.api.data in ("SetFlag", "WaitFlag") and not has_receiver(op):
            yield op


@rule(
    "ASC701", "waitflag-never-set", "sync",
    summary="A WaitFlag whose (event, id) no SetFlag can have set on any path before it.",
    why="WaitFlag<E>(id) blocks the waiting pipe until flag (E, id) is 1. If no SetFlag of the same event "
        "and id ran before it, the pipe waits forever: the kernel hangs until the runtime's timeout, with "
        "no message pointing at the line. A loop that waits at the top of each iteration needs the flag "
        "pre-set once before the loop (and one last WaitFlag after it to drain the final set).",
    example="for (int i = 0; i < n; ++i) {\n"
            "    WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);   // iteration 0: nothing set it\n"
            "    CopyIn(i); Compute(i); CopyOut(i);\n"
            "    SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);\n"
            "}",
    instead="SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);        // pre-set\n"
            "for (int i = 0; i < n; ++i) {\n"
            "    WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);\n"
            "    CopyIn(i); Compute(i); CopyOut(i);\n"
            "    SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);\n"
            "}\n"
            "WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);       // drain",
)
def waitflag_never_set(ctx: CheckContext) -> None:
    for kernel, (interp, _final, skip) in _analysed_kernels(ctx):
        reported: set[Operation] = set()
        for f in interp.findings.values():
            if f.code == "ASC701" and f.key[1] == ANY_ID:
                reported.add(f.op)
                ctx.report(f.op, f"WaitFlag<{_flag_text(f.key)}> waits while no SetFlag of that event, whatever "
                                 f"its id, has left a flag set on any path here; the pipe blocks forever")
            elif f.code == "ASC701":
                reported.add(f.op)
                ctx.report(f.op, f"WaitFlag<{_flag_text(f.key)}> waits for a flag no SetFlag has set on any path "
                                 f"here; the pipe blocks forever")
        sets = _keys_used(kernel, "SetFlag")
        set_events = {event for event, _ in sets} | _counted_events_used(kernel, "SetFlag", skip)
        for op in flag_ops(kernel):
            event, ident = flag_key(op)
            if op.api.data != "WaitFlag" or op in reported or event is None:
                continue
            if (ident is None or event in skip) and event not in set_events:
                ctx.report(op, f"WaitFlag<HardEvent::{event}> has no SetFlag of the same event in the kernel; "
                               f"the pipe blocks forever")
            elif ident is not None and event not in skip and (event, ident) not in sets:
                ctx.report(op, f"WaitFlag<{_flag_text((event, ident))}> has no SetFlag of the same event and id "
                               f"in the kernel; the pipe blocks forever")


@rule(
    "ASC702", "setflag-never-waited", "sync",
    summary="A SetFlag whose (event, id) is still set when the kernel ends, or is never waited for at all.",
    why="Every SetFlag must be consumed by a WaitFlag of the same event and id. A flag left set at the end "
        "of the kernel stays set in hardware: the next kernel on the core sees a stale flag and its first "
        "WaitFlag passes too early (racing on UB). msSanitizer's synccheck reports it as 'Unpaired set_flag "
        "instructions detected'. A loop that pre-sets before the loop must drain with a WaitFlag after it.",
    example="SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);        // pre-set\n"
            "for (int i = 0; i < n; ++i) {\n"
            "    WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);\n"
            "    ...\n"
            "    SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);\n"
            "}                                                // the last set is never waited for",
    instead="...\n"
            "}\n"
            "WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);       // drain the last set",
)
def setflag_never_waited(ctx: CheckContext) -> None:
    for kernel, (_interp, final, skip) in _analysed_kernels(ctx):
        reported: set[Operation] = set()
        for key, (values, setters) in sorted(final.items(), key=lambda kv: kv[0]):
            if key[1] == ANY_ID:
                if 0 not in values and setters:
                    last = max(setters, key=order_key)
                    reported.add(last)
                    fewest = min(values)
                    more = "at least" if fewest == MAX_COUNT else "still"
                    ctx.report(last, f"{more} {fewest} flag{'s' if fewest != 1 else ''} of {_flag_text(key)} "
                                     f"{'are' if fewest != 1 else 'is'} set when the kernel ends on every path: "
                                     f"more SetFlag than WaitFlag of this event")
                continue
            if values != FLAG_SET:
                continue
            for op in sorted(setters, key=order_key):
                reported.add(op)
                ctx.report(op, f"SetFlag<{_flag_text(key)}> is still set when the kernel ends; no WaitFlag "
                               f"consumes it")
        waits = _keys_used(kernel, "WaitFlag")
        wait_events = {event for event, _ in waits} | _counted_events_used(kernel, "WaitFlag", skip)
        for op in flag_ops(kernel):
            event, ident = flag_key(op)
            if op.api.data != "SetFlag" or op in reported or event is None:
                continue
            if (ident is None or event in skip) and event not in wait_events:
                ctx.report(op, f"SetFlag<HardEvent::{event}> has no WaitFlag of the same event in the kernel; "
                               f"the flag stays set")
            elif (ident is not None and event not in skip and (event, ident) not in waits):
                ctx.report(op, f"SetFlag<{_flag_text((event, ident))}> has no WaitFlag of the same event and id "
                               f"in the kernel; the flag stays set")


@rule(
    "ASC703", "setflag-twice", "sync",
    summary="A SetFlag of an (event, id) that is already set on every path, with no WaitFlag in between.",
    why="A hardware flag is one bit: setting it twice sets it once. The second SetFlag's WaitFlag then finds "
        "the flag already consumed and blocks forever, or the first WaitFlag lets the consumer run before "
        "the second producer's work finished (a race). Use another event id for the second hand-off, or wait "
        "for the first before setting again.",
    example="SetFlag<HardEvent::MTE2_V>(EVENT_ID0);\n"
            "SetFlag<HardEvent::MTE2_V>(EVENT_ID0);   // still set\n"
            "WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);\n"
            "WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);  // hangs",
    instead="SetFlag<HardEvent::MTE2_V>(EVENT_ID0);\n"
            "SetFlag<HardEvent::MTE2_V>(EVENT_ID1);\n"
            "WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);\n"
            "WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);",
)
def setflag_twice(ctx: CheckContext) -> None:
    for _kernel, (interp, _final, _skip) in _analysed_kernels(ctx):
        for f in interp.findings.values():
            if f.code != "ASC703":
                continue
            notes = [ctx.note_at(o, "set here before") for o in sorted(f.other - {f.op}, key=order_key)[:1]]
            ctx.report(f.op, f"SetFlag<{_flag_text(f.key)}> while the flag is already set on every path; the "
                             f"first set is lost", *notes)


@rule(
    "ASC704", "pipe-barrier-scalar", "sync",
    summary="PipeBarrier<PIPE_S>: a barrier on the scalar pipe.",
    why="The scalar unit issues every instruction in program order itself, so a barrier on PIPE_S means "
        "nothing and is rejected as illegal by the API. To order scalar work against another pipe use a "
        "flag (SetFlag/WaitFlag<HardEvent::V_S> or S_V ...); to stop everything use PipeBarrier<PIPE_ALL>.",
    example="Add(z, x, y, n);\nPipeBarrier<PIPE_S>();\nfloat v = z.GetValue(0);",
    instead="Add(z, x, y, n);\nSetFlag<HardEvent::V_S>(EVENT_ID0);\nWaitFlag<HardEvent::V_S>(EVENT_ID0);\n"
            "float v = z.GetValue(0);",
)
def pipe_barrier_scalar(ctx: CheckContext) -> None:
    for op in module_index(ctx.module).of("sync"):
        if op.api.data == "PipeBarrier" and api_template(op) == "PIPE_S":
            ctx.report(op, "PipeBarrier<PIPE_S> is illegal; order scalar work with SetFlag/WaitFlag or use "
                           "PipeBarrier<PIPE_ALL>")


@rule(
    "ASC705", "event-id-out-of-range", "sync",
    summary="SetFlag/WaitFlag with a constant event id the chip does not have.",
    why="Each HardEvent has a small number of hardware flags: ids 0-7 on Atlas A2/A3 and 310P, 0-3 on the "
        "910 training chip. A larger id selects another event's flag or is cut to its low bits, so the "
        "Set and the Wait no longer meet: hangs or races that depend on the chip.",
    example="SetFlag<HardEvent::V_MTE3>(8);",
    instead="SetFlag<HardEvent::V_MTE3>(EVENT_ID7);   // or an id from pipe.AllocEventID / FetchEventID",
)
def event_id_out_of_range(ctx: CheckContext) -> None:
    limit = ctx.chip.event_ids
    for op in _plain_flag_calls(ctx):
        ident = fold_int(op.args[0]) if op.args else None
        if ident is not None and not 0 <= ident < limit:
            ctx.report(op, f"{op.api.data} with event id {ident}; {ctx.chip.name} has event ids 0..{limit - 1}")


@rule(
    "ASC706", "flag-within-one-pipe", "sync",
    summary="SetFlag/WaitFlag with a HardEvent whose producer and consumer are the same pipe (V_V).",
    why="A flag hands work from one pipe to another; within one pipe instructions are ordered by "
        "PipeBarrier<pipe>, not by an event. A same-pipe event either does not order anything the way it "
        "looks (the pipe runs ahead of its own flag) or stalls the pipe on itself.",
    example="Add(t, t, t, n);\nSetFlag<HardEvent::V_V>(EVENT_ID0);\nWaitFlag<HardEvent::V_V>(EVENT_ID0);\nExp(t, t, n);",
    instead="Add(t, t, t, n);\nPipeBarrier<PIPE_V>();\nExp(t, t, n);",
)
def flag_within_one_pipe(ctx: CheckContext) -> None:
    for op in _plain_flag_calls(ctx):
        event = api_template(op)
        pipes = event_pipes(event) if event is not None else None
        if pipes is None:
            continue
        src, dst = pipes
        if src == dst:
            ctx.report(op, f"{op.api.data}<HardEvent::{event}> syncs pipe {src} with itself; use "
                           f"PipeBarrier<PIPE_{src}>() to order one pipe")
