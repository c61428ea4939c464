"""Whether every path of a host function that returns success calls SetBlockDim first (BlockDimPaths),
following the helpers it calls, the class's own methods and the objects built from the tiling context; what is
not followed counts as setting it, so a report names a path that is there in the source.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from frontend import ast as A
from passes.verify.project import name_of


BLOCK_DIM_SETTERS = ("SetBlockDim", "SetAicpuBlockDim")


class BlockDimPaths:
    """Whether every path of a host function that returns success calls SetBlockDim first.

    Only what is understood is judged: a path through a construct not followed here (switch, try, goto, a
    return of a value that is not a graph status) counts as setting it, so a report names a path that is
    there in the source. Branches are taken both ways, as elsewhere in the checker."""

    def __init__(self, functions: dict[str, list[A.FunctionDecl]], free: dict[str, list[A.FunctionDecl]],
                 methods: dict[str, A.FunctionDecl] | None = None, context_members: tuple[str, ...] = ()) -> None:
        self.functions = functions  # every function and method by its own name (another object's `obj.F()`)
        self.free = free  # the functions outside classes, which a plain `F()` calls
        self.methods = methods or {}  # the tiling class's own, which `F()` and `this->F()` call
        self.context_members = context_members  # a tiling class's member holding the context (`context_`)
        self._may_set: dict[tuple[str, str], bool] = {}
        self._unset_returns: dict[int, A.Node | None] = {}  # id(function) -> its unset success return
        self._context_names: set[str] = set()  # the tiling context and the objects built from it
        self._context_params: set[str] = set()

    def unset_success_return(self, fn: A.FunctionDecl) -> A.Node | None:
        """The first `return ge::GRAPH_SUCCESS` of `fn` reached on a path without SetBlockDim."""
        assert fn.body is not None
        with self._inside(fn):
            found, _ = self._block(fn.body.body, False)
        return found

    def sets_anywhere(self, fn: A.FunctionDecl) -> bool:
        """Whether `fn` calls SetBlockDim on some path (or may, through what it calls)."""
        with self._inside(fn):
            return self._sets(fn.body)

    @contextmanager
    def _inside(self, fn: A.FunctionDecl) -> Iterator[None]:
        """While `fn` is followed: its tiling-context parameters and the objects built from them."""
        outer = self._context_names, self._context_params
        self._context_params = {p.name for p in fn.params if p.name and name_of(p.type) == "TilingContext"}
        self._context_params.update(self.context_members)
        self._context_names = _built_from(fn, self._context_params)
        try:
            yield
        finally:
            self._context_names, self._context_params = outer

    def may_set(self, key: tuple[str, str], candidates: list[A.FunctionDecl]) -> bool:
        """Whether a call of the user functions `candidates` (`_candidates`' answer) may set the block count:
        a user function that calls SetBlockDim on some path, or code that may (its helpers, code we do not
        have that it hands the context to). A call of it counts as setting the block count: whether it does
        can hang on what it is given (`InitTilingData(..., isEmpty)` sets it for empty inputs only, and the
        caller returns early exactly then), which is not followed here."""
        if key not in self._may_set:
            self._may_set[key] = False  # recursion: not proven
            for fn in candidates:
                with self._inside(fn):
                    if self._sets(fn.body):
                        self._may_set[key] = True
                        break
        return self._may_set[key]

    def _candidates(self, call: A.Call) -> tuple[tuple[str, str], list[A.FunctionDecl]]:
        """The functions of the project a call may run (a key for them, and them): the class's own method for
        `F()` and `this->F()`, a function outside classes for a plain `F()`, else any function or method of
        that name (methods of several classes share names: `obj.F()` may be any of them)."""
        callee = call.callee
        name = callee.qname.parts[-1].name if isinstance(callee, A.Name) else \
            callee.member if isinstance(callee, A.Member) else ""
        own = self._own_method(callee)
        if own is not None:
            return ("own", own), [self.methods[own]]
        if isinstance(callee, A.Name) and len(callee.qname.parts) == 1 and name in self.free:
            return ("free", name), self.free[name]
        return ("any", name), self.functions.get(name, [])

    def _block(self, stmts: list[A.Node], is_set: bool) -> tuple[A.Node | None, bool]:
        """(a success return reached without SetBlockDim, whether the end is reached without it)."""
        for i, st in enumerate(stmts):
            if is_set:
                return None, False
            found, is_set, ends = self._stmt(st, stmts[i + 1:])
            if found is not None:
                return found, False
            if ends:
                return None, False
        return None, not is_set

    def _stmt(self, st: A.Node, rest: list[A.Node]) -> tuple[A.Node | None, bool, bool]:
        """(an offending return in `st`, whether it sets on every path that goes on, whether no path goes on),
        for `st` reached without SetBlockDim and followed by the statements `rest` of its block."""
        if isinstance(st, A.Return):
            if self._sets(st.value):
                return None, True, True
            unset = _returns_success(st.value) or self._passes_on_unset_success(st.value)
            return (st if unset else None), False, True
        if isinstance(st, A.ExprStmt):
            return self._expression(st.expr)
        if isinstance(st, A.Compound):
            found, falls_unset = self._block(st.body, False)
            return found, not falls_unset, False
        if isinstance(st, A.If):
            if self._sets(st.cond):
                return None, True, False
            if any(self._returns_after_setting(_stmts(branch)) for branch in (st.then, st.otherwise)) \
                    and not _fills_ascendc_tiling(rest):
                # `if (compileInfo->isAscendc) { return TilingForAscendC(context); } return ge::GRAPH_SUCCESS;`:
                # the paths that go on are another implementation's, which launches no AscendC kernel (unless
                # they fill tiling data and a tiling key for one: `if (isRegbase) { return
                # RegbaseTiling(context); } ... context->SetTilingKey(key); return ge::GRAPH_SUCCESS;`)
                return None, True, False
            found, then_unset = self._block(_stmts(st.then), False)
            if found is not None:
                return found, False, False
            found, else_unset = self._block(_stmts(st.otherwise), False) if st.otherwise is not None else (None, True)
            return found, not (then_unset or else_unset), False
        if isinstance(st, A.For | A.While):
            found, _ = self._block(_stmts(st.body), False)
            return found, False, False  # the body may not run
        if isinstance(st, A.VarDecl):
            return None, any(self._sets(d.init) for d in st.declarators), False
        if isinstance(st, A.Switch | A.Try | A.DoWhile):
            return None, True, False  # not followed: taken as setting it
        return None, self._sets(st), False

    def _returns_after_setting(self, stmts: list[A.Node]) -> bool:
        """A branch that hands the tiling to another routine, which sets the block count, and returns. (A
        branch calling SetBlockDim itself, `if (total == 0) { context->SetBlockDim(1); return ...; }`, is
        an early exit of this tiling, whose other paths must set it too.)"""
        if not stmts or not isinstance(stmts[-1], A.Return) or not any(self._sets(st) for st in stmts):
            return False
        return not any(isinstance(n, A.Member) and n.member in BLOCK_DIM_SETTERS for st in stmts for n in st.walk())

    def _expression(self, e: A.Node) -> tuple[A.Node | None, bool, bool]:
        """An expression statement; a checking macro `OP_CHECK_IF(cond, log, return ge::GRAPH_FAILED)` is an
        `if` whose branch returns."""
        if isinstance(e, A.Call) and any(isinstance(a, A.ReturnArg) for a in e.args):
            if any(self._sets(a) for a in e.args if not isinstance(a, A.ReturnArg)):
                return None, True, False
            for a in e.args:
                if isinstance(a, A.ReturnArg) and _returns_success(a.value):
                    return a, False, False
            return None, False, False
        return None, self._sets(e), False

    def _passes_on_unset_success(self, value: A.Node | None) -> bool:
        """`return Helper();`, where the one function of that name never sets the block count and returns
        success on some path: that path is this function's success too."""
        if not isinstance(value, A.Call):
            return False
        fn = self._callee(value)
        if fn is None:
            return False
        if id(fn) not in self._unset_returns:
            self._unset_returns[id(fn)] = None  # recursion: not proven
            with self._inside(fn):
                self._unset_returns[id(fn)] = self._block(fn.body.body, False)[0]
        return self._unset_returns[id(fn)] is not None

    def _callee(self, call: A.Call) -> A.FunctionDecl | None:
        """The function a call runs, when that is certain: the class's own method, or the one function of
        that name."""
        _, candidates = self._candidates(call)
        return candidates[0] if len(candidates) == 1 else None

    def _own_method(self, callee: A.Node) -> str | None:
        """The name of the class's own method that `F(...)` or `this->F(...)` calls, if it is one."""
        if isinstance(callee, A.Name) and len(callee.qname.parts) == 1:
            name = callee.qname.parts[0].name
        elif isinstance(callee, A.Member) and isinstance(callee.obj, A.This):
            name = callee.member
        else:
            return None
        return name if name in self.methods else None

    def _sets(self, node: A.Node | None) -> bool:
        if node is None:
            return False
        for n in node.walk():  # (a lambda that sets it counts where it is written: it may be called later)
            if isinstance(n, A.Member) and n.member in BLOCK_DIM_SETTERS:
                return True
            if isinstance(n, A.Call) and isinstance(n.callee, A.Name | A.Member):
                key, candidates = self._candidates(n)
                if candidates:
                    if self.may_set(key, candidates):
                        return True
                elif self._may_set_unseen(n):
                    return True
        return False

    def _may_set_unseen(self, call: A.Call) -> bool:
        """A call of code we do not have that is handed the tiling context, or a method of an object built
        from it (`XTiling tiling(context); tiling.DoTiling();`, whose base class sets the block count)."""
        callee = call.callee
        if isinstance(callee, A.Member):
            receiver = name_of(callee.obj)
            if receiver in self._context_names and receiver not in self._context_params:
                return True
            if receiver in self._context_params:
                return False  # a gert API of the context itself (GetInputShape, ...)
        name = callee.qname.parts[-1].name if isinstance(callee, A.Name) else None
        if name is not None and (name.isupper() or name.startswith(_QUERY_PREFIXES)):
            return False  # a logging or checking macro, a query (`Ops::Base::GetUbBlockSize(context)`)
        return any(isinstance(a, A.Name) and a.qname.parts[-1].name in self._context_names for a in call.args)


# (builtin types, `int` or `unsigned long`, are written as strings in the AST)
_SCALAR_TYPES = frozenset({"size_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t",
                           "uint64_t"})

# Names of library functions that read from the context they are handed and set nothing on it.
_QUERY_PREFIXES = ("Get", "Is", "Has", "Check")

# What only the tiling of an AscendC kernel does with the context: save tiling data for it, pick its key.
_ASCENDC_TILING_CALLS = ("SaveToBuffer", "GetRawTilingData", "SetTilingKey")


def _fills_ascendc_tiling(stmts: list[A.Node]) -> bool:
    return any(isinstance(n, A.Member) and n.member in _ASCENDC_TILING_CALLS for st in stmts for n in st.walk())


def _built_from(fn: A.FunctionDecl, params: set[str]) -> set[str]:
    """`params` and the locals they are handed to when built (`XTiling tiling(context);`, `auto t = Make(context);`)."""
    names = set(params)
    assert fn.body is not None
    for node in fn.body.walk():
        if isinstance(node, A.VarDecl):
            for d in node.declarators:
                if (isinstance(d.type.base, str) or name_of(d.type) in _SCALAR_TYPES) and not d.type.pointers:
                    continue  # `int64_t ubBlockSize = GetUbBlockSize(context);` is a number, not an object
                handed = list(d.ctor_args)  # `XTiling tiling(context);`
                if d.init is not None:  # `auto t = XTiling(context);` (not `PlatformAscendC(context->GetPlatformInfo())`)
                    handed += [a for n in d.init.walk() if isinstance(n, A.Call) for a in n.args]
                if any(isinstance(a, A.Name) and a.qname.parts[-1].name in names for a in handed):
                    names.add(d.name)
    return names


def _stmts(node: A.Node | None) -> list[A.Node]:
    if node is None:
        return []
    return node.body if isinstance(node, A.Compound) else [node]


def _returns_success(value: A.Node | None) -> bool:
    """`ge::GRAPH_SUCCESS` (or SUCCESS): the launch goes ahead. Other values (failures, a called function's
    status, a variable) are not judged."""
    return isinstance(value, A.Name) and value.qname.parts[-1].name in ("GRAPH_SUCCESS", "SUCCESS")
