"""The evaluator of a reference program's syntax tree: module-level constants, `get_inputs()` /
`get_init_inputs()` run abstractly (tensors as shape and dtype), never executed.

Evaluator (this module) holds the statements, names, literals and boolean logic; it inherits the rest:

- testcase_eval_arith.py (EvalArithmetic): arithmetic and comparisons, broadcasting, type promotion, matmul;
- testcase_eval_access.py (EvalAccess): subscripts and slicing, attributes, call dispatch, argument checks;
- testcase_eval_functions.py (EvalFunctions): Python builtins, torch / F / math functions, cat and stack;
- testcase_eval_methods.py (EvalMethods): tensor methods (casts, reshapes, reductions);
- testcase_names.py: the builtins, torch functions and methods it knows by name.
"""

from __future__ import annotations

import ast
from typing import Any, NoReturn

from ascendir.testcase_dtypes import dtype_category
from ascendir.testcase_eval_access import EvalAccess
from ascendir.testcase_eval_arith import EvalArithmetic
from ascendir.testcase_eval_functions import EvalFunctions
from ascendir.testcase_eval_methods import EvalMethods
from ascendir.testcase_names import BUILTINS, IGNORED_CALLS
from ascendir.testcase_types import MAX_SEQ, MAX_STEPS, TestCaseProblem
from ascendir.testcase_values import (
    Builtin,
    DType,
    EvalError,
    Method,
    Module,
    Poison,
    Quiet,
    Tensor,
    UserFunc,
    describe,
    loc,
)


class Evaluator(EvalArithmetic, EvalAccess, EvalFunctions, EvalMethods):
    """A reference program's module level and functions evaluated over the syntax tree, values abstract."""

    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.diagnostics: list[TestCaseProblem] = []
        self.globals: dict[str, Any] = {}
        self.steps = 0

    # ---- diagnostics
    def problem(self, message: str, node: ast.AST | None, severity: str = "error") -> TestCaseProblem:
        line, col = loc(node)
        return TestCaseProblem(message, line, col, severity, self.filename)

    def report(self, message: str, node: ast.AST | None, severity: str = "error") -> None:
        self.diagnostics.append(self.problem(message, node, severity))

    def fail(self, message: str, node: ast.AST | None) -> NoReturn:
        raise EvalError(message, node)

    # ---- module level
    def load_module(self, tree: ast.Module) -> None:
        for stmt in tree.body:
            if isinstance(stmt, ast.Import):
                for alias in stmt.names:
                    if alias.asname:
                        self.globals[alias.asname] = Module(alias.name)
                    else:
                        root = alias.name.split(".")[0]
                        self.globals[root] = Module(root)
            elif isinstance(stmt, ast.ImportFrom):
                if stmt.level or not stmt.module:
                    for alias in stmt.names:
                        self.globals[alias.asname or alias.name] = Poison(self.problem(
                            f"`{alias.asname or alias.name}` comes from a relative import", stmt))
                    continue
                for alias in stmt.names:
                    if alias.name != "*":
                        try:
                            value = self.module_attr(Module(stmt.module), alias.name, stmt)
                        except EvalError as e:
                            value = Poison(self.problem(e.message, e.node))
                        self.globals[alias.asname or alias.name] = value
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.globals[stmt.name] = UserFunc(stmt.name, stmt.lineno)
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                self.exec_assign(stmt, self.globals)
            elif isinstance(stmt, (ast.Expr, ast.Pass)):
                continue
            else:
                self.poison_targets(stmt, self.globals, None)

    def poison_targets(self, stmt: ast.stmt, env: dict[str, Any], reported: TestCaseProblem | None) -> None:
        kind = type(stmt).__name__.lower()
        for sub in ast.walk(stmt):
            names: list[str] = []
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                names = [sub.id]
            elif isinstance(sub, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
                names = [sub.name]
            elif isinstance(sub, (ast.Import, ast.ImportFrom)):
                names = [(a.asname or a.name).split(".")[0] for a in sub.names]
            for name in names:
                if reported is not None:
                    env[name] = Poison(None)
                else:
                    env[name] = Poison(self.problem(
                        f"`{name}` is assigned inside an `{kind}` statement, which is not evaluated", sub))

    # ---- statements
    def exec_assign(self, stmt: ast.Assign | ast.AnnAssign | ast.AugAssign, env: dict[str, Any]) -> None:
        if isinstance(stmt, ast.AnnAssign):
            if stmt.value is None:
                return
            targets: list[ast.expr] = [stmt.target]
            value_node = stmt.value
        elif isinstance(stmt, ast.AugAssign):
            targets = [stmt.target]
            value_node = ast.BinOp(left=ast.Name(id=getattr(stmt.target, "id", "?"), ctx=ast.Load()),
                                   op=stmt.op, right=stmt.value)
            ast.copy_location(value_node, stmt)
            ast.copy_location(value_node.left, stmt.target)
            if not isinstance(stmt.target, ast.Name):
                value_node = stmt.value  # handled by the target check below
        else:
            targets = list(stmt.targets)
            value_node = stmt.value
        value: Any
        try:
            value = self.eval(value_node, env)
        except EvalError as e:
            value = Poison(self.problem(e.message, e.node))
        except Quiet:
            value = Poison(None)
        for target in targets:
            self.bind(target, value, env, stmt)

    def bind(self, target: ast.expr, value: Any, env: dict[str, Any], stmt: ast.stmt) -> None:
        if isinstance(target, ast.Name):
            env[target.id] = value
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            names = [t for t in target.elts]
            if isinstance(value, Poison):
                self.bind_all(names, value, env, stmt)
                return
            if isinstance(value, Tensor) and value.shape:
                value = tuple(Tensor(value.shape[1:], value.dtype) for _ in range(min(value.shape[0],
                                                                                      MAX_SEQ)))
            starred = [i for i, t in enumerate(names) if isinstance(t, ast.Starred)]
            if not isinstance(value, (tuple, list)) or len(starred) > 1:
                problem = self.problem(f"cannot unpack {describe(value)} here", target)
                for t in names:
                    self.bind(t.value if isinstance(t, ast.Starred) else t, Poison(problem), env, stmt)
                return
            if starred:
                i = starred[0]
                after = len(names) - i - 1
                if len(value) < len(names) - 1:
                    self.bind_all(names, Poison(self.problem("too few values to unpack", target)), env, stmt)
                    return
                parts = list(value[:i]) + [list(value[i:len(value) - after])] + list(value[len(value) - after:])
            else:
                if len(value) != len(names):
                    problem = self.problem(f"cannot unpack {len(value)} values into {len(names)} names", target)
                    self.bind_all(names, Poison(problem), env, stmt)
                    return
                parts = list(value)
            for t, v in zip(names, parts):
                self.bind(t.value if isinstance(t, ast.Starred) else t, v, env, stmt)
            return
        if isinstance(target, (ast.Subscript, ast.Attribute)):
            # `x[mask] = 0` or `x.data = ...`: a tensor keeps its shape and dtype
            try:
                base = self.eval(target.value, env)
            except (EvalError, Quiet):
                base = None
            if isinstance(base, Tensor):
                return
            self.report("assignment to an item or attribute of a non-tensor is not supported", target)
            return
        self.report("unsupported assignment target", target)

    def bind_all(self, names: list[ast.expr], value: Any, env: dict[str, Any], stmt: ast.stmt) -> None:
        for t in names:
            self.bind(t.value if isinstance(t, ast.Starred) else t, value, env, stmt)

    def run_function(self, fn: ast.FunctionDef) -> tuple[list[tuple[Any, ast.expr]] | None, ast.AST]:
        """Evaluate a no-argument function returning a list; gives (value, node) per entry."""
        if fn.args.args or fn.args.posonlyargs or fn.args.kwonlyargs or fn.args.vararg or fn.args.kwarg:
            self.report(f"`{fn.name}()` takes parameters; only a function without parameters is understood",
                        fn, "warning")
        if fn.decorator_list:
            self.report(f"decorators on `{fn.name}()` are ignored", fn.decorator_list[0], "warning")
        env: dict[str, Any] = {}
        for i, stmt in enumerate(fn.body):
            if isinstance(stmt, ast.Return):
                return self.eval_return(stmt, env, fn), stmt
            if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                self.exec_assign(stmt, env)
            elif isinstance(stmt, ast.Pass):
                continue
            elif isinstance(stmt, ast.Expr):
                if i == 0 and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
                    continue  # docstring
                if isinstance(stmt.value, ast.Constant):
                    continue
                if isinstance(stmt.value, ast.Call):
                    try:
                        callee = self.eval(stmt.value.func, env)
                    except (EvalError, Quiet):
                        callee = None
                    if isinstance(callee, Module) and callee.name in IGNORED_CALLS:
                        continue
                    if isinstance(callee, Method) and isinstance(callee.obj, Tensor):
                        continue  # an in-place tensor method: shape and dtype stay
                self.report("expression statement ignored", stmt, "warning")
            else:
                problem = self.problem(
                    f"`{type(stmt).__name__.lower()}` statements in `{fn.name}()` are not evaluated", stmt)
                self.diagnostics.append(problem)
                self.poison_targets(stmt, env, problem)
        self.report(f"`{fn.name}()` has no `return` at its top level", fn)
        return None, fn

    def eval_return(self, stmt: ast.Return, env: dict[str, Any], fn: ast.FunctionDef
                    ) -> list[tuple[Any, ast.expr]] | None:
        if stmt.value is None:
            self.report(f"`{fn.name}()` returns nothing", stmt)
            return None
        node = stmt.value
        if isinstance(node, (ast.List, ast.Tuple)):
            out: list[tuple[Any, ast.expr]] = []
            for elt in node.elts:
                try:
                    if isinstance(elt, ast.Starred):
                        seq = self.eval(elt.value, env)
                        if not isinstance(seq, (tuple, list)):
                            self.fail(f"cannot unpack {describe(seq)} with `*`", elt)
                        out.extend((v, elt) for v in seq)
                    else:
                        out.append((self.eval(elt, env), elt))
                except EvalError as e:
                    self.report(e.message, e.node)
                except Quiet:
                    pass
            return out
        try:
            value = self.eval(node, env)
        except EvalError as e:
            self.report(e.message, e.node)
            return None
        except Quiet:
            return None
        if not isinstance(value, (list, tuple)):
            self.report(f"`{fn.name}()` must return a list, not {describe(value)}", node)
            return None
        return [(v, node) for v in value]

    # ---- expressions
    def lookup(self, name: str, env: dict[str, Any], node: ast.AST) -> Any:
        if name in env:
            value = env[name]
        elif name in self.globals:
            value = self.globals[name]
        elif name in BUILTINS:
            return Builtin(name)
        else:
            self.fail(f"name `{name}` is not defined", node)
        if isinstance(value, Poison):
            if value.problem is not None and not value.reported:
                value.reported = True
                p = value.problem
                if (p.line, p.col) != loc(node):
                    p = TestCaseProblem(f"{p.message} (needed for `{name}` at line {loc(node)[0]})",
                                        p.line, p.col, p.severity, p.filename)
                self.diagnostics.append(p)
            raise Quiet
        return value

    def eval(self, node: ast.expr, env: dict[str, Any]) -> Any:
        self.steps += 1
        if self.steps > MAX_STEPS:
            self.fail("evaluation too long; the test case is too complex", node)
        method = getattr(self, "eval_" + type(node).__name__, None)
        if method is None:
            self.fail(f"unsupported expression ({type(node).__name__})", node)
        return method(node, env)

    def eval_Constant(self, node: ast.Constant, env: dict[str, Any]) -> Any:
        v = node.value
        if v is None or isinstance(v, (bool, float, str)):
            return v
        if isinstance(v, int):
            return self.check_int(v, node)
        self.fail(f"unsupported constant {type(v).__name__}", node)

    def eval_Name(self, node: ast.Name, env: dict[str, Any]) -> Any:
        if node.id in ("True", "False", "None"):
            return {"True": True, "False": False, "None": None}[node.id]
        return self.lookup(node.id, env, node)

    def eval_seq(self, elts: list[ast.expr], env: dict[str, Any]) -> list[Any]:
        out: list[Any] = []
        for elt in elts:
            if isinstance(elt, ast.Starred):
                v = self.eval(elt.value, env)
                if isinstance(v, Tensor):
                    v = self.iterate(v, elt)
                if not isinstance(v, (tuple, list, str)):
                    self.fail(f"cannot unpack {describe(v)} with `*`", elt)
                out.extend(v)
            else:
                out.append(self.eval(elt, env))
            if len(out) > MAX_SEQ:
                self.fail("sequence too long", elt)
        return out

    def eval_Tuple(self, node: ast.Tuple, env: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(self.eval_seq(node.elts, env))

    def eval_List(self, node: ast.List, env: dict[str, Any]) -> list[Any]:
        return self.eval_seq(node.elts, env)

    def eval_ListComp(self, node: ast.ListComp, env: dict[str, Any]) -> list[Any]:
        if len(node.generators) != 1 or node.generators[0].is_async:
            self.fail("only a list comprehension with one `for` is supported", node)
        gen = node.generators[0]
        items = self.eval(gen.iter, env)
        if isinstance(items, Tensor):
            items = self.iterate(items, gen.iter)
        if not isinstance(items, (tuple, list, str)):
            self.fail(f"cannot iterate over {describe(items)}", gen.iter)
        out: list[Any] = []
        local = dict(env)
        for item in items:
            self.bind(gen.target, item, local, ast.Pass())
            if all(self.truth(self.eval(cond, local), cond) for cond in gen.ifs):
                out.append(self.eval(node.elt, local))
        return out

    def iterate(self, t: Tensor, node: ast.AST) -> list[Any]:
        if not t.shape:
            self.fail("cannot iterate over a 0-dim tensor", node)
        if t.shape[0] > MAX_SEQ:
            self.fail("tensor too long to iterate over", node)
        return [Tensor(t.shape[1:], t.dtype)] * t.shape[0]

    def truth(self, v: Any, node: ast.AST) -> bool:
        if isinstance(v, (bool, int, float, str, tuple, list)) or v is None:
            return bool(v)
        if isinstance(v, DType):
            return True
        self.fail(f"the truth value of {describe(v)} is not known statically", node)

    def eval_IfExp(self, node: ast.IfExp, env: dict[str, Any]) -> Any:
        return self.eval(node.body if self.truth(self.eval(node.test, env), node.test) else node.orelse, env)

    def eval_BoolOp(self, node: ast.BoolOp, env: dict[str, Any]) -> Any:
        value: Any = None
        for operand in node.values:
            value = self.eval(operand, env)
            truth = self.truth(value, operand)
            if isinstance(node.op, ast.And) and not truth:
                return value
            if isinstance(node.op, ast.Or) and truth:
                return value
        return value

    def eval_UnaryOp(self, node: ast.UnaryOp, env: dict[str, Any]) -> Any:
        v = self.eval(node.operand, env)
        if isinstance(v, Tensor):
            if isinstance(node.op, ast.Not):
                self.fail("`not` of a tensor is not known statically", node)
            if isinstance(node.op, ast.Invert) and dtype_category(v.dtype) == 2:
                self.fail("`~` of a floating-point tensor", node)
            return v
        if isinstance(node.op, ast.Not):
            return not self.truth(v, node.operand)
        if not isinstance(v, (int, float)):
            self.fail(f"unary operator on {describe(v)}", node)
        if isinstance(node.op, ast.USub):
            return self.check_int(-v, node) if isinstance(v, int) else -v
        if isinstance(node.op, ast.UAdd):
            return +v
        if isinstance(v, float):
            self.fail("`~` of a float", node)
        return ~v
