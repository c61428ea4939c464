"""The statements of a ModelNew's methods and of the module's own functions, run over `ast` (never executed):
assignments, if/for/with/return/raise ..., and a call's frame (parameters bound, a user nn.Module class
instantiated through its __init__). Separate from the expressions and calls, which ascendir.testcase's
evaluator and model_args.py give.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any

from ascendir.model_values import MAX_DEPTH, MAX_LOOP, Flow, ModuleObject, describe_obj
from ascendir.testcase_types import MAX_STEPS
from ascendir.testcase_values import EvalError, Poison, Quiet, Tensor


class StatementRunner:
    """The statements of the file's functions and methods, and a call's frame: methods of _ModelEvaluator
    (model_args.py), which inherits them."""

    # ---- functions and classes of the file
    def run(self, fn: ast.FunctionDef, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        """Run a function of the file on evaluated arguments; gives what it returns."""
        if self.depth >= MAX_DEPTH:
            self.fail(f"calls nested more than {MAX_DEPTH} deep", node)
        env = self.bind_params(fn, args, kwargs, node)
        self.depth += 1
        try:
            flow = self.exec_block(fn.body, env)
        finally:
            self.depth -= 1
        if flow is not None and flow.kind == "return":
            return flow.value
        return None

    def bind_params(self, fn: ast.FunctionDef, args: list[Any], kwargs: dict[str, Any], node: ast.AST
                    ) -> dict[str, Any]:
        a = fn.args
        positional = [p.arg for p in a.posonlyargs + a.args]
        defaults = dict(zip(positional[len(positional) - len(a.defaults):], a.defaults))
        defaults.update({p.arg: d for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None})
        env: dict[str, Any] = {}
        if len(args) > len(positional) and a.vararg is None:
            self.fail(f"`{fn.name}` takes {len(positional)} positional arguments but is given {len(args)}", node)
        env.update(zip(positional, args))
        if a.vararg is not None:
            env[a.vararg.arg] = tuple(args[len(positional):])
        extra: dict[str, Any] = {}
        for k, v in kwargs.items():
            if k in env:
                self.fail(f"`{fn.name}` is given `{k}` twice", node)
            if k in positional or k in (p.arg for p in a.kwonlyargs):
                env[k] = v
            elif a.kwarg is not None:
                extra[k] = v
            else:
                self.fail(f"`{fn.name}` has no parameter `{k}`", node)
        if a.kwarg is not None:
            if extra:
                self.fail(f"`**{a.kwarg.arg}` of `{fn.name}` is not supported", node)
            env[a.kwarg.arg] = Poison(self.problem(f"`**{a.kwarg.arg}` is not evaluated", a.kwarg))
        for name in positional + [p.arg for p in a.kwonlyargs]:
            if name not in env:
                if name not in defaults:
                    self.fail(f"`{fn.name}` is missing its argument `{name}`", node)
                env[name] = self.eval(defaults[name], {})
        return env

    def instantiate(self, cls: ast.ClassDef, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> ModuleObject:
        obj = ModuleObject(cls.name, cls=cls)
        init = self.find_method(obj, "__init__")
        if init is not None:
            self.run(init, [obj, *args], kwargs, node)
        elif args or kwargs:
            self.fail(f"class `{cls.name}` has no `__init__` taking arguments", node)
        return obj

    # ---- statements
    def exec_block(self, body: Sequence[ast.stmt], env: dict[str, Any]) -> Flow | None:
        for stmt in body:
            self.steps += 1
            if self.steps > MAX_STEPS:
                self.fail("evaluation too long; the model is too complex", stmt)
            flow = self.exec_stmt(stmt, env)
            if flow is not None:
                return flow
        return None

    def exec_stmt(self, stmt: ast.stmt, env: dict[str, Any]) -> Flow | None:
        if isinstance(stmt, ast.AugAssign) and not isinstance(stmt.target, ast.Name):
            current = self.eval(stmt.target, env)
            self.bind(stmt.target, self.binop(stmt.op, current, self.eval(stmt.value, env), stmt), env, stmt)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            self.exec_assign(stmt, env)
        elif isinstance(stmt, ast.Expr):
            if not isinstance(stmt.value, ast.Constant):
                self.eval(stmt.value, env)
        elif isinstance(stmt, ast.Return):
            return Flow("return", None if stmt.value is None else self.eval(stmt.value, env))
        elif isinstance(stmt, ast.If):
            taken = stmt.body if self.truth(self.eval(stmt.test, env), stmt.test) else stmt.orelse
            return self.exec_block(taken, env)
        elif isinstance(stmt, ast.For):
            return self.exec_for(stmt, env)
        elif isinstance(stmt, ast.Raise):
            self.fail("the model raises an exception here for these inputs", stmt)
        elif isinstance(stmt, ast.Assert):
            try:
                holds = self.truth(self.eval(stmt.test, env), stmt.test)
            except (EvalError, Quiet):
                holds = True  # an assertion we cannot decide only checks
            if not holds:
                self.fail("this assertion fails for these inputs", stmt)
        elif isinstance(stmt, ast.With):
            return self.exec_block(stmt.body, env)
        elif isinstance(stmt, ast.Break):
            return Flow("break")
        elif isinstance(stmt, ast.Continue):
            return Flow("continue")
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            sub = type(self)(self.filename)
            sub.load_module(ast.Module(body=[stmt], type_ignores=[]))
            env.update(sub.globals)
        elif isinstance(stmt, (ast.Pass, ast.Delete)):
            pass
        elif isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
            # a nested function or class (a helper inside __init__): an error only where it is used
            env[stmt.name] = Poison(self.problem(f"`{stmt.name}` is defined inside a function; only the "
                                                 "module's own top-level functions and classes are run", stmt))
        else:
            self.fail(f"`{type(stmt).__name__.lower()}` statements are not evaluated", stmt)
        return None

    def exec_for(self, stmt: ast.For, env: dict[str, Any]) -> Flow | None:
        items = self.eval(stmt.iter, env)
        if isinstance(items, Tensor):
            items = self.iterate(items, stmt.iter)
        if not isinstance(items, (tuple, list, str)):
            self.fail(f"cannot iterate over {describe_obj(items)}", stmt.iter)
        if len(items) > MAX_LOOP:
            self.fail("loop too long to evaluate", stmt)
        for item in list(items):
            self.bind(stmt.target, item, env, stmt)
            flow = self.exec_block(stmt.body, env)
            if flow is not None and flow.kind == "break":
                return None
            if flow is not None and flow.kind == "return":
                return flow
        return self.exec_block(stmt.orelse, env)

    def bind(self, target: ast.expr, value: Any, env: dict[str, Any], stmt: ast.stmt) -> None:
        if isinstance(target, (ast.Attribute, ast.Subscript)):
            try:
                base = self.eval(target.value, env)
            except (EvalError, Quiet):
                base = None
            if isinstance(base, ModuleObject) and isinstance(target, ast.Attribute):
                base.attrs[target.attr] = value
                return
            if isinstance(base, list) and isinstance(target, ast.Subscript):
                index = self.eval(target.slice, env)
                if not isinstance(index, int) or isinstance(index, bool) or not -len(base) <= index < len(base):
                    self.fail("list assignment index is not a valid int", target)
                base[index] = value
                return
        super().bind(target, value, env, stmt)
