"""Inlining user functions in the function lowering: a call's frame, its parameters bound to the arguments
(references, out-parameters, conversions to a class), and which of a body's variables it writes (those
need memref cells rather than SSA values).

Separate from function.py because it is the one place where a call becomes a frame; statements and
expressions only ask it to inline.
"""

from __future__ import annotations

from collections.abc import Sequence

from ascendir.lower import ctypes as C
from ascendir.lower import aggregates, reference_members, register_moves, ub_pointer, unions
from ascendir.lower.ast_queries import (
    bare_name_arguments,
    memo,
    non_const_reference,
    returns_in,
    structural_returns,
)
from ascendir.lower.astwalk import facts
from ascendir.lower.ctypes import CType, Scalar
from ascendir.lower.errors import TooFewArguments, Unsupported
from ascendir.lower.frame import Frame
from ascendir.lower.lower_objects import object_parts
from ascendir.lower.values import Binding, Cell, Instance, Pack, Val
from frontend import ast as A


MAX_INLINE_DEPTH = 24


class FunctionInlining:
    """Inlining user functions: methods of FunctionLowerer (function.py), which inherits them."""

    def assigned_names(self, body: A.Node) -> set[str]:
        """Names written after their declaration somewhere in `body` (they need a cell)."""
        if isinstance(body, A.Node):
            return facts(body).assigned  # type: ignore[return-value]
        return memo(body, "assigned", lambda: self._assigned_names(body))  # type: ignore[no-any-return]

    def written_names(self, body: A.Node) -> set[str]:
        """The local variables `body` may change: those it assigns, and those it passes to a function of the
        program that takes that argument by non-const reference. `SetParams(params, rows)` filling a
        DataCopyParams in a loop: declared as a constant, its fields would keep their initial 0 where the
        copy reads them. (Members passed so stay as they are: an object member is not a cell.)"""
        written = self.assigned_names(body)
        by_reference = self.passed_by_reference(body)
        return written | by_reference if by_reference - written else written

    def passed_by_reference(self, body: object) -> set[str]:
        """The plain variables `body` passes where a function or method of that name takes a non-const
        reference (any overload: a cell too many only costs folding)."""
        # the register API's UpdateMask(uint32_t &count) (arch35 only) leaves count one register smaller
        updated = ({name for callee, i, name in bare_name_arguments(body) if callee == "UpdateMask" and i == 0}
                   | register_moves.stepped_addresses(body)  # the post-update loads and stores' addresses
                   if self.report.api_uncatalogued else set())
        if not self._any_reference_param():
            return updated  # no function of the program takes one: the body need not be walked
        return updated | {name for callee, i, name in bare_name_arguments(body) if self._takes_reference(callee, i)}

    def _any_reference_param(self) -> bool:
        """Whether any function, method or constructor of the program takes a non-const reference parameter."""
        if self._reference_taken is None:
            functions = [fn for fns in self.scope.functions.values() for fn in fns]
            functions += [fn for info in self.scope.classes.values() for fns in info.methods.values() for fn in fns]
            functions += [fn for info in self.scope.classes.values() for fn in info.constructors]
            self._reference_taken = any(non_const_reference(p) for fn in functions for p in fn.params)
        return self._reference_taken

    def _takes_reference(self, callee: str, position: int) -> bool:
        key = (callee, position)
        hit = self._reference_params.get(key)
        if hit is None:
            candidates = list(self.scope.functions.get(callee, ()))
            for key, info in self.scope.classes.items():
                candidates.extend(info.methods.get(callee, ()))
                if key.partition("<")[0].rsplit("::", 1)[-1] == callee:
                    # `S s(k);` with `S(int &n)`: the constructor writes k ([class.ctor], a function as any)
                    candidates.extend(info.constructors)
            hit = self._reference_params[key] = any(
                position < len(fn.params) and non_const_reference(fn.params[position]) for fn in candidates)
        return hit

    def _assigned_names(self, body: object) -> set[str]:
        # a statement list: what its statements write, from the facts each keeps (astwalk.written_root)
        items = body if isinstance(body, list | tuple) else ()
        return set().union(*(facts(n).assigned for n in items if isinstance(n, A.Node)))

    def _out_parameters(self, fn: A.FunctionDecl, args: Sequence[Val], call: A.Call) -> Sequence[Val]:
        """`uint32_t n = 0; GetSize(row, n);` with `void GetSize(uint32_t r, uint32_t& n)`: the caller's `n`
        was never assigned in its own body, so it is a constant, not a cell. The callee writes it through the
        reference: give `n` a cell now (in the scope that declares it, holding its current value), and pass
        the cell, so the write lands and later reads of `n` see it. The same holds for a parameter struct
        that a helper fills in (`DataCopyParams p{1, 0, 0, 0}; SetParams(p, rows, cols);`)."""
        if len(call.args) != len(args):
            return args
        scope = self.frame.scopes[-1]
        changed = list(args)
        for i, (p, a) in enumerate(zip(fn.params, call.args)):
            if not non_const_reference(p) or not isinstance(a, A.Name):
                continue
            name = a.qname.parts[-1].name
            bound = scope.get(name)
            if len(a.qname.parts) != 1 or not isinstance(bound, Val) or not isinstance(bound.ctype, Scalar | C.StructT):
                continue
            cell = self.new_cell(bound.ctype, name, call, bound)
            scope[name] = cell
            changed[i] = self.read_binding(cell, call)
        return changed

    def inline_function(self, fn: A.FunctionDecl, args: Sequence[Val], this: Instance | None, node: A.Node,
                        types: dict[str, object] | None = None, captured: dict[str, Binding] | None = None) -> Val:
        """`fn`'s body lowered in a frame of its own; `captured` are a lambda's captures (lambdas.py), in
        scope before the parameters. A struct member given to a reference parameter gets the parameter's final
        value back (reference_members.py)."""
        places = reference_members.places(self, fn, node) if fn.body is not None else []
        result = self._inline_body(fn, args, this, node, types, captured, places)
        reference_members.write_back(self, places, node)
        return result

    def _inline_body(self, fn: A.FunctionDecl, args: Sequence[Val], this: Instance | None, node: A.Node,
                     types: dict[str, object] | None, captured: dict[str, Binding] | None,
                     places: list[reference_members.Place]) -> Val:
        if fn.body is None:
            raise Unsupported(f"'{fn.name.parts[-1].name}' is declared but never defined", node)
        if len(self.frames) > MAX_INLINE_DEPTH:
            raise Unsupported(f"call chain deeper than {MAX_INLINE_DEPTH} (recursion is not allowed in device code)", node)
        env_types = dict(this.types) if this is not None else {}
        env_types.update(types or {})
        if isinstance(node, A.Call):
            args = self._out_parameters(fn, args, node)
        frame = Frame(fn.name.parts[-1].name, [dict(captured or {})], this, env_types, self.written_names(fn.body))
        frame.namespace = self.scope.declared_in.get(id(fn))
        self.frames.append(frame)
        try:
            self._bind_params(fn, args, node)  # (first: a trailing `-> decltype(count * sizeof(T))` names them)
            for place in places:
                bound = frame.scopes[0].get(place.param)
                place.cell = bound if isinstance(bound, Cell) else None
            frame.return_type = self.resolve_type(fn.return_type) if fn.return_type is not None else C.VoidT()
            returns = returns_in(fn.body)
            stmts = fn.body.body
            tail_return = bool(stmts) and isinstance(stmts[-1], A.Return) and len(returns) == 1
            if tail_return:
                self.lower_stmts(stmts[:-1], top="function")
                ret = stmts[-1]
                assert isinstance(ret, A.Return)
                if ret.value is not None and not isinstance(frame.return_type, C.VoidT):
                    # `return {m, n};` (tla's MakeShape `return {t...};`): the list initialises the return type
                    value = (self.init_list(frame.return_type, ret.value.items, ret.value)
                             if isinstance(ret.value, A.InitList) else self.expr(ret.value))
                    if isinstance(value.obj, Instance) and aggregates.designates_object(ret.value) and \
                            isinstance(frame.return_type, C.ClassT | C.TilingT) and \
                            not aggregates.local_by_value(fn, ret.value):
                        # `return s;` by value: the caller gets an object of its own (aggregates.py)
                        value = aggregates.copy(self, value, frame.return_type, f"{frame.name}_result", ret)
                    value = (self.convert(value, frame.return_type, ret) if isinstance(frame.return_type, Scalar)
                             else value)
                    self.run_destructors(frame.scopes[0], ret)
                    return value
                self.run_destructors(frame.scopes[0], ret)
                return Val(C.VoidT())
            if returns and isinstance(frame.return_type, C.ClassT) and frame.return_type.name in self.scope.classes:
                frame.return_object = self.instantiate(frame.return_type, f"{frame.name}_result", node,
                                                       construct=False)
            elif returns and isinstance(frame.return_type, C.UnknownT) and frame.return_type.text == "auto":
                frame.deduce_block, frame.deduce_after = self._mark()  # (no cell: the type is not known yet)
            elif returns and not isinstance(frame.return_type, C.VoidT):
                frame.return_cell = self.new_cell(frame.return_type, f"{frame.name}_result", node)
            self.begin_function_body(stmts, node)
            self.lower_stmts(stmts, top="function")
            self.run_destructors(frame.scopes[0], node)
            if frame.deduced is not None:
                return frame.deduced  # type: ignore[return-value]
            if frame.return_object is not None:
                return Val(frame.return_object.ctype, obj=frame.return_object)
            if frame.return_cell is not None:
                return self.load(frame.return_cell, node)
            return Val(C.VoidT())
        finally:
            self._owned.pop(id(frame.scopes[0]), None)
            self.frames.pop()

    def _bind_params(self, fn: A.FunctionDecl, args: Sequence[Val], node: A.Node) -> None:
        frame = self.frame
        for i, p in enumerate(fn.params):
            if p.name is None:
                continue
            if p.variadic:  # `Ts... values`: the rest of the arguments, as a pack
                self.bind(p.name, Val(C.UnknownT("parameter pack"), obj=Pack(tuple(args[i:]))))
                break
            ptype = self.param_type(p)
            if i < len(args):
                arg = args[i]
            elif p.default is not None:
                # (a braced default, `const DataCopyPadParams &pad = {}`, is a value of the parameter's type)
                braced = isinstance(p.default, A.InitList) and not isinstance(ptype, C.UnknownT)
                arg = self.expr(p.default, ptype if braced else None)
            elif fn.kind != "constructor" and frame.this is not None and len(fn.name.parts) == 1:
                # a method defined in its class body has no other declaration that could give defaults:
                # C++ rejects the call (KernelHive trilinear_upsample#3's 'op.Init(x, y)' of a 3-parameter
                # Init), so the answer does not compile; a gap here made it 'not evaluated' at run time
                required = sum(1 for q in fn.params if q.default is None and q.name is not None and not q.variadic)
                raise TooFewArguments(frame.name, len(args), required, node)
            else:
                raise Unsupported(f"too few arguments in call to '{frame.name}'", node)
            is_ref = "&" in p.type.pointers
            if isinstance(arg.obj, tuple) and arg.obj[0] == "init" and not isinstance(ptype, C.UnknownT):
                # `op.Init({x, y, n})`: a value of the parameter's type, its items read in the caller's scope
                callee = self.frames.pop()
                try:
                    arg = self.init_list(ptype, arg.obj[1].items, node)
                finally:
                    self.frames.append(callee)
            if isinstance(ptype, C.ClassT) and ptype.name in self.scope.classes and isinstance(arg.obj, list) \
                    and isinstance(arg.ctype, C.UnknownT) and arg.ctype.text == "init-list":
                # a braced list lowered before this parameter's class was known (an item of an outer list given
                # to a constructor): the object it makes (lower_objects.object_from_values)
                arg = self.object_from_values(ptype, arg.obj, node)
            if not self.check_tensor_conversion(arg, ptype, node, f"argument {i + 1} ('{p.name}') of '{frame.name}'"):
                arg = Val(ptype, self.undef(ptype, node))  # the body sees the declared type: no second error there
            if isinstance(ptype, C.TilingT | C.StructT) and isinstance(arg.ctype, Scalar):
                arg = self.tiling_view(arg) or arg
            if isinstance(ptype, Scalar) and isinstance(arg.obj, Instance):
                # an object given for a parameter declared a number (`uint32_t rows` given tla's `Int<128>{}`): the
                # parameter is the number the class's conversion operator gives ([dcl.init]/17.6.3), of the
                # declared type; bound as the object, `MakeShape(rows, ...)` in the body made a shape of Int<128>
                arg = self._converted(arg, node)
            given = arg.obj
            arg = self._converted_to_class(arg, ptype, p.name, node)
            if isinstance(arg.obj, Instance) and arg.obj is given and not is_ref \
                    and aggregates.written(self, fn, p.name, arg.obj):
                arg = aggregates.copy(self, arg, ptype, p.name, node)  # taken by value and changed: a copy
            if not is_ref:
                arg = unions.copy(self, arg, p.name, node)  # a union taken by value: its bytes, apart (unions.py)
            if isinstance(arg.obj, Instance) or isinstance(arg.obj, Cell) and is_ref:
                self.bind(p.name, arg.obj)  # references alias the caller's variable, as do objects not copied
                continue
            if isinstance(ptype, Scalar) and p.name in frame.assigned:
                self.bind(p.name, self.new_cell(ptype, p.name, node, arg))
            elif ub_pointer.is_ub_pointer(ptype) and p.name in frame.assigned and isinstance(arg.ctype, C.Pointer):
                # a UB pointer parameter the body steps (`(__local_mem__ T *&)src` given to a post-update
                # register load, arg_max_with_value_base.h): held as its address (ub_pointer.py) in a cell, as a
                # local pointer variable is; the caller's variable is a copy's source only (passed by value)
                self.bind(p.name, self.new_cell(ptype, p.name, node, ub_pointer.cast(arg, ptype)))
            elif isinstance(ptype, Scalar):
                self.bind(p.name, self.convert(arg, ptype, node))
            elif p.name in frame.assigned and isinstance(arg.ctype, C.LocalTensorT | C.StructT | C.TilingT) and not (
                    isinstance(arg.ctype, C.TilingT) and arg.ctype.path):
                # (a struct inside tiling data, `td.matMulTilingData`, is read through its root value: a cell of the
                # inner struct's type would hold the root and read its fields by the root's paths)
                self.bind(p.name, self.new_cell(arg.ctype, p.name, node, arg))
            else:
                self.bind(p.name, arg)

    def _converted_to_class(self, arg: Val, t: CType, name: str, node: A.Node) -> Val:
        """An argument for a parameter of user class `t` that is no object of that class (or of one derived from
        it): the temporary its converting constructor makes (`MakeLayoutInL0C(MatrixCoord const &)` given a
        Coord<2>). Anything else is passed as it is."""
        if not isinstance(t, C.ClassT) or t.name not in self.scope.classes:
            return arg
        inst = arg.obj if isinstance(arg.obj, Instance) else None
        if inst is not None and inst.info is not self.scope.classes[t.name]:
            own = [b for b in object_parts(inst) if b.info is self.scope.classes[t.name] and b.hidden]
            exact = [b for b in own if b.ctype.args == t.args[:len(b.ctype.args)]]
            if len(exact) == 1:
                # a base part with members of its own (one of tla's sibling EBO<I, T> bases, each holding its
                # `t_`): the parameter refers to that subobject, whose code reads its own members
                return Val(t, obj=exact[0])
        if inst is not None and (inst.info is self.scope.classes[t.name] or any(
                b.info is self.scope.classes[t.name] for b in object_parts(inst))):
            return arg
        if inst is None and not isinstance(arg.ctype, Scalar | C.ArrayT):
            return arg
        if not any(len(c.params) >= 1 for c in self.scope.classes[t.name].constructors):
            return arg
        return Val(t, obj=self.instantiate(t, name, node, [arg]))

    def begin_function_body(self, stmts: Sequence[A.Node], node: A.Node) -> None:
        """A function whose returns are not all structural (see `structural_returns`) gets a flag that
        is set on return and guards everything that could still run after it."""
        returns = [r for st in stmts for r in returns_in(st)]
        if {id(r) for r in returns} - structural_returns(stmts):
            self.frame.return_flag = self.new_cell(C.BOOL, f"{self.frame.name}_returned", node, Val(C.BOOL, const=0))
