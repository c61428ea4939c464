"""Tiling and coverage (ASC6xx): how many cores run the kernel, from what is provable in the sources.

Without the test shapes only constants are certain: a launch `k<<<N, ...>>>` or a host `SetBlockDim(N)`
with a literal N. The limits depend on the kernel type: vector-only kernels count AIV cores, cube-only
kernels AIC cores, mixed kernels (1 AIC + 2 AIV) groups.
"""

from __future__ import annotations

from frontend import ast as A
from frontend.diagnostics import Note, Severity
from passes.verify.ir import ops_of
from passes.verify.project import calls, const_int, nodes, nodes_per_unit, report_once, span
from passes.verify.rules import CheckContext, rule

MAX_BLOCK_DIM = 65535

# Calls that make every core wait for all others: more blocks than cores then never finish.
_ALL_CORE_BARRIERS = ("SyncAll", "CrossCoreWaitFlag", "IBWait")


def _kernel_type(ctx: CheckContext) -> str:
    """The kernel type of the program's kernels ("aiv", "aic", "mix"), from the lowering or the sources."""
    kinds = set()
    for op in ops_of(ctx):
        if op.name == "ascendc.kernel":
            kind = op.attributes.get("kernel_type") or op.properties.get("kernel_type")
            text = getattr(kind, "data", "default")
            kinds.add(text)
    for call in calls(nodes(ctx, "kernel"), "KERNEL_TASK_TYPE_DEFAULT"):
        if call.args:
            arg = call.args[0]
            if isinstance(arg, A.Name):
                kinds.add(arg.qname.parts[-1].name.lower())
    text = " ".join(sorted(kinds))
    if "mix" in text:
        return "mix"
    if "aic" in text and "aiv" not in text:
        return "aic"
    if any(n in text for n in ("aiv", "vector")):
        return "aiv"
    uses_cube = any(c.callee_name in ("Mmad", "LoadData", "Fixpipe") for c in calls(nodes(ctx, "kernel")))
    uses_matmul = any(c.callee_name in ("REGIST_MATMUL_OBJ", "IterateAll") for c in calls(nodes(ctx, "kernel")))
    if uses_matmul:
        return "mix"
    return "aic" if uses_cube else "aiv"


def _cores(ctx: CheckContext, kind: str) -> int | None:
    try:
        return int(ctx.chip.max_block_dim(kind))
    except ValueError:  # an unknown kernel type for this chip: no limit we can prove
        return None


def _waits_for_all(ctx: CheckContext) -> bool:
    return any(True for _ in calls(nodes(ctx, "kernel"), *_ALL_CORE_BARRIERS))


def _check_block_dim(ctx: CheckContext, node: A.Node, value: int, how: str) -> None:
    if value < 1 or value > MAX_BLOCK_DIM:
        report_once(ctx, span(node), f"{how} is {value}; blockDim must be in [1, {MAX_BLOCK_DIM}]")
        return
    kind = _kernel_type(ctx)
    cores = _cores(ctx, kind)
    if cores is None or value <= cores:
        return
    unit = {"aiv": "vector cores", "aic": "cube cores", "mix": "AIC+AIV groups"}.get(kind, "cores")
    if kind == "mix" or _waits_for_all(ctx):
        report_once(ctx, span(node), f"{how} is {value} but {ctx.chip.name} has {cores} {unit}; blocks that wait for "
                   "each other never all run at once",
                   Note(f"use at most {cores} blocks (GetCoreNum{'Aic' if kind == 'mix' else 'Aiv'}())", kind="help"))
    else:
        report_once(ctx, span(node), f"{how} is {value} but {ctx.chip.name} has {cores} {unit}; the blocks run in "
                   f"{-(-value // cores)} waves", severity=Severity.WARNING)


def _int_constants(walked: list[A.Node]) -> dict[str, int | None]:
    """`constexpr` / `const` integers initialised with a literal, by name (None: declared twice, differently)."""
    out: dict[str, int | None] = {}
    for node in walked:
        if isinstance(node, A.VarDecl) and ("constexpr" in node.specifiers or "const" in node.specifiers
                                            or "const" in (node.declarators[0].type.qualifiers if node.declarators else [])):
            for d in node.declarators:
                value = const_int(d.init) if d.init is not None else None
                if d.name in out and out[d.name] != value:
                    out[d.name] = None
                else:
                    out[d.name] = value
    return out


def _block_dim_value(node: A.Node, constants: dict[str, int | None]) -> int | None:
    value = const_int(node)
    if value is None and isinstance(node, A.Name) and len(node.qname.parts) == 1:
        value = constants.get(node.qname.parts[-1].name)
    return value


@rule(
    "ASC601", "block-dim-over-cores", "tiling",
    summary="A constant blockDim (kernel launch or SetBlockDim) beyond the chip's cores for the kernel type.",
    why="blockDim must lie in [1, 65535]. Mixed (cube + vector) kernels and kernels that synchronise all "
        "cores (SyncAll) need every block resident at once: more blocks than AIC+AIV groups (or cores) hang. "
        "Otherwise extra blocks run in waves, which costs a full extra pass (a warning).",
    example="context->SetBlockDim(64);      // a Matmul (mix) kernel on 910B2: 24 groups\n"
            "add_custom<<<0, nullptr, stream>>>(x, y, z);",
    instead="context->SetBlockDim(ascendcPlatform.GetCoreNumAic());\nadd_custom<<<8, nullptr, stream>>>(x, y, z);",
)
def block_dim_over_cores(ctx: CheckContext) -> None:
    for _, walked in nodes_per_unit(ctx):
        launches = [n for n in walked if isinstance(n, A.KernelLaunch) and n.config]
        setters = [c for c in calls(walked, "SetBlockDim") if isinstance(c.callee, A.Member) and c.args]
        if not launches and not setters:
            continue
        constants = _int_constants(walked)
        for launch in launches:
            value = _block_dim_value(launch.config[0], constants)
            if value is not None:
                _check_block_dim(ctx, launch.config[0], value, "the launch's blockDim")
        for call in setters:
            value = _block_dim_value(call.args[0], constants)
            if value is not None:
                _check_block_dim(ctx, call.args[0], value, "SetBlockDim")
