"""Where a MultiKernelBench answer's op binding is and what it launches: its python_bind unit, the function the
module binds, the `EXEC_NPU_CMD(aclnn<ThisOp>, ...)` calls that function makes, and why a binding that makes none
never runs the answer's kernel. Read from the frontend's AST; nothing runs (binding_replay.py interprets it)."""

from __future__ import annotations

from typing import Any

from frontend import ast as A


def last_name(name: A.Name) -> str:
    """The last part of a qualified name (`at::empty` -> `empty`)."""
    return name.qname.parts[-1].name


def binding_unit(program: Any) -> Any | None:
    """The program's python_bind unit (its frontend AST), or None."""
    return next((u.ast for u in program.units if u.unit.role == "python_bind" and u.ast is not None), None)


def functions(unit: Any) -> dict[str, A.FunctionDecl]:
    return {fn.name.parts[-1].name: fn for fn in unit.walk() if isinstance(fn, A.FunctionDecl) and fn.body}


def bound_function(unit: Any) -> A.FunctionDecl | None:
    """The function the module binds: `m.def("name", &fn, ...)` (or `m.impl`), else the only function with a
    tensor parameter."""
    fns = functions(unit)
    for node in unit.walk():
        if isinstance(node, A.Call) and isinstance(node.callee, A.Member) and node.callee.member in ("def", "impl") \
                and len(node.args) >= 2:
            target = node.args[1]
            while isinstance(target, A.Unary) and target.op == "&":
                target = target.operand
            if isinstance(target, A.Name) and last_name(target) in fns:
                return fns[last_name(target)]
    tensor_fns = [f for f in fns.values() if any("Tensor" in str(getattr(p.type.base, "parts", p.type.base))
                                                 for p in f.params)]
    return tensor_fns[0] if len(tensor_fns) == 1 else None


def _dead(node: A.Node) -> bool:
    """`if (false)` / `if (0)`: a branch that never runs."""
    return isinstance(node, A.If) and isinstance(node.cond, A.BoolLit | A.IntLit) and not node.cond.value


def kernel_calls(program: Any) -> list[A.Call]:
    """The `EXEC_NPU_CMD(aclnn<ThisOp>, ...)` calls the bound function makes, itself or through the unit's
    helpers, outside `if (false)` blocks (comments hold none: the parser drops them)."""
    unit = binding_unit(program)
    fn = unit and bound_function(unit)
    if fn is None:
        return []
    want = f"aclnn{program.bundle.op_name}"
    fns = functions(unit)
    found: list[A.Call] = []
    seen: set[str] = set()

    def visit(node: A.Node) -> None:
        if _dead(node):
            if node.otherwise is not None:  # type: ignore[attr-defined]
                visit(node.otherwise)  # type: ignore[attr-defined]
            return
        if isinstance(node, A.Call) and isinstance(node.callee, A.Name):
            name = last_name(node.callee)
            if name == "EXEC_NPU_CMD" and node.args and isinstance(node.args[0], A.Name) \
                    and last_name(node.args[0]) == want:
                found.append(node)
            elif name in fns and name not in seen:
                seen.add(name)
                visit(fns[name].body)
        for child in node.children():
            visit(child)

    visit(fn.body)
    return found


def bypass_reason(program: Any) -> str:
    """Why the binding never runs the answer's kernel ('' when it does, or has no binding)."""
    unit = binding_unit(program)
    if unit is None or bound_function(unit) is None:
        return ""
    if kernel_calls(program):
        return ""
    others = sorted({last_name(c.args[0]) for c in unit.walk() if isinstance(c, A.Call) and isinstance(c.callee, A.Name)
                     and last_name(c.callee) == "EXEC_NPU_CMD" and c.args and isinstance(c.args[0], A.Name)})
    also = f" (it calls {', '.join(others)}: CANN's operators, not this answer's)" if others else ""
    return (f"the binding never calls aclnn{program.bundle.op_name}{also}: ATen computes the result on hardware, "
            "so the kernel is judged on the op's inputs directly")
