"""Statements in the function lowering (loops apart, see lower_loops.py): statement lists with early exits
guarded by flags, blocks and their destructors, `if` and `if constexpr`, `return`, and what a statement
that could not be lowered leaves unknown.

Separate from expressions: a statement decides the structure of the scf regions, an expression only adds
ops to the current block.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.builder import Builder, InsertPoint
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import MemRefType, StringAttr
from xdsl.ir import Block, Region, SSAValue

from ascendir.dialects import ascendc as asc
from ascendir.lower import absent_inputs, code_pointer, ctypes as C, function_tables, host_program, range_for
from ascendir.lower import namespace_lookup
from ascendir.lower.ast_queries import always_exits, callee_name, exits_of, node_text
from ascendir.lower.astwalk import facts
from ascendir.lower.diagnostics import NO_INSTANTIATION
from ascendir.lower.ctypes import Scalar
from ascendir.lower.errors import Unsupported
from ascendir.lower.fast_ops import file_line_col
from ascendir.lower.header_names import FLAGS_NOT_LOWERED, FLAG_CALLS
from ascendir.lower.lower_objects import destructor_of
from ascendir.lower.scope import collect_enum
from ascendir.lower.values import Binding, Cell, ExitKind, Instance, Val
from frontend import ast as A


class StatementLowering:
    """Statements: methods of FunctionLowerer (function.py), which inherits them."""

    # a static_assert in a function body is checked where it is lowered (the host lowering, which runs tiling
    # functions for their values, leaves them to the host compiler)
    checks_static_asserts = True

    def _static_assert(self, st: A.StaticAssert) -> None:
        """A static_assert whose condition folds to false makes the program ill-formed ([dcl.pre]/6): the build
        stops there. A function body is lowered once per instantiation of its template (inlined at each call), so
        one in a template is reported only for the arguments it fails with. A condition the lowering cannot
        fold (a trait of a header it did not read) says nothing, and nothing its evaluation reports is kept; nor
        is a failure while a template kernel no launch instantiates is checked with guessed arguments (ASC104)."""
        mark = self.report.mark()
        try:
            value = self.const_eval(st.cond)
        finally:
            self.report.rollback(mark)
        if value is None or isinstance(value, str) or value:
            return
        if any(d.code == NO_INSTANTIATION for d in self.report.diagnostics):
            return
        self.report.static_assertion_failed(st.message, st)

    def lower_stmts(self, stmts: Sequence[A.Node], top: str | None = None) -> None:
        """Lowers a statement list; after a statement that may leave early, the rest runs guarded.
        `top` says the list is the whole body of a function, loop or switch case (where an exiting `if`
        can take the rest of the list as its else branch)."""
        i = 0
        while i < len(stmts):
            st = stmts[i]
            rest = stmts[i + 1:]
            exits = exits_of(st)
            if exits and rest and top and isinstance(st, A.If) and st.otherwise is None and always_exits(st.then):
                # `if (c) { ...; return; } rest`: rest becomes the else branch
                self._lower_if_with_else_rest(st, rest, top)
                return
            self.lower_stmt(st)
            if exits and rest:
                guard = self._no_exit_condition(exits, st)
                if guard is not None:
                    if_op = self.emit(scf.IfOp(guard, [], Region(Block())), st)
                    self.continuation_blocks.add(if_op.regions[0].block)
                    with self.at_end_of(if_op.regions[0].block):
                        self.frame.scopes.append({})
                        self.lower_stmts(rest)
                        self.frame.scopes.pop()
                        self.emit(scf.YieldOp(), st)
                    return
            i += 1

    def _lower_if_with_else_rest(self, st: A.If, rest: Sequence[A.Node], top: str) -> None:
        try:
            cond = self.condition(st.cond)
        except Unsupported as exc:
            self.report.failed(exc)
            self.mark_left_out()
            self._forget_effects(st)
            self.lower_stmts(rest, top=top)  # the guarded branch is lost; the rest of the function is not
            return
        if cond.const is not None:
            if cond.const:
                self.lower_block(st.then)
            else:
                self.lower_stmts(rest, top=top)
            return
        if_op = self.emit(scf.IfOp(self.ssa(cond, st), [], Region(Block()), Region(Block())), st)
        self.continuation_blocks.add(if_op.regions[1].block)

        def lower_rest() -> None:
            self.frame.scopes.append({})
            self.lower_stmts(rest, top=top)
            self.frame.scopes.pop()

        self.lower_if_branches(st, if_op, cond, [lambda: self.lower_block(st.then), lower_rest])

    def _no_exit_condition(self, exits: set[str], node: A.Node) -> SSAValue | None:
        """i1 that is true when none of the flags `exits` names is set (None: nothing to guard)."""
        flags: list[Cell] = []
        frame = self.frame
        if ExitKind.RETURN in exits and frame.return_flag is not None:
            flags.append(frame.return_flag)
        if frame.loop_flags:
            for kind in (ExitKind.BREAK, ExitKind.CONTINUE):
                cell = frame.loop_flags[-1].get(kind)
                if kind in exits and cell is not None:
                    flags.append(cell)
        if not flags:
            return None
        any_set: SSAValue | None = None
        for f in flags:
            v = self.load(f, node).ssa
            assert v is not None
            any_set = v if any_set is None else self.emit(arith.OrIOp(any_set, v), node).results[0]
        true = self.const_ssa(1, C.BOOL, node)
        assert any_set is not None
        return self.emit(arith.XOrIOp(any_set, true), node).results[0]

    def lower_block(self, st: A.Node) -> None:
        self.frame.scopes.append({})
        try:
            if isinstance(st, A.Compound):
                self.lower_stmts(st.body)
            else:
                self.lower_stmts([st])
            if not (isinstance(st, A.Compound) and st.body and always_exits(st.body[-1])):
                self.run_destructors(self.frame.scopes[-1], st)
        finally:
            self._owned.pop(id(self.frame.scopes.pop()), None)

    def run_destructors(self, scope: dict[str, Binding], node: A.Node) -> None:
        """The destructors of the objects declared in `scope`, last declared first, as the block ends."""
        for inst in reversed(self._owned.pop(id(scope), [])):
            dtor = destructor_of(inst)
            if dtor is not None:
                self.inline_function(dtor, [], inst, node)

    def lower_stmt(self, st: A.Node) -> None:
        self._last_node = st
        if self.host_program is not None and host_program.skips(self, st):
            return  # host data, or host code after the launch (ascendir/lower/host_program.py)
        try:
            self._lower_stmt(st)
        except Unsupported as exc:
            if getattr(exc, "unplaced", False):  # (raised where no node was at hand, a name's lookup: here)
                exc.node = st
            self.report.failed(exc)
            self._forget_effects(st)
        self.mark_left_out()

    # the host lowering marks its gaps itself (host.left_out, evaluated by the host interpreter)
    marks_left_out = True
    _gaps_marked = 0  # how many of the reporter's gaps have a mark

    def mark_left_out(self) -> None:
        """Marks each gap met since the last mark (those of the statements inside this one have theirs, where
        they are) with an ascendc.left_out here, where the statement left out would have run, located at the
        gap: the run reports the gaps a core reaches (the left-out code may change what the kernel computes)
        and none it never reaches (a branch not taken, another chip's code)."""
        gaps = self.report.gaps
        if not self.marks_left_out:
            self._gaps_marked = len(gaps)
            return
        for message, span in gaps[self._gaps_marked:]:
            op = self.emit(asc.LeftOutOp(message))
            op.location = file_line_col(span.file, span.line, span.col)
        self._gaps_marked = len(gaps)

    def _forget_effects(self, st: A.Node) -> None:
        """What a statement that could not be lowered may have done becomes unknown, so that later checks do
        not build on the state from before it. The variables it writes get an unknown value (else a loop
        bound reads as the member's initial 0 when `count_ = tiling->ends[idx] - ...` was not lowered, and
        the loop as never running); if it calls anything, the queues in reach may have been used (a helper
        that enqueues, whose DeQue would then look like one on an empty queue)."""
        for name in sorted(self.written_names(st)):
            self.forget_scalar(name, st)
        if not facts(st).callish:
            return
        if self._may_use_flags(st):
            # the SetFlag/WaitFlag it holds, or its helper does, are lost: flag pairing cannot be judged
            self.emit(asc.OpaqueCallOp.create(properties={"callee": StringAttr(FLAGS_NOT_LOWERED)}), st)
        queues: dict[SSAValue, None] = {}
        bindings = [b for scope in self.frame.scopes for b in scope.values()]
        if self.frame.this is not None:
            bindings += list(self.frame.this.outermost().members.values())
        seen: set[int] = set()
        while bindings:
            b = bindings.pop()
            if isinstance(b, Val) and isinstance(b.ctype, C.QueueT) and b.ssa is not None:
                queues[b.ssa] = None
            elif isinstance(b, Instance) and id(b) not in seen:
                # an object in scope (`op.Init(..., UNDEFINED_MACRO, &pipe)` in the kernel body): the call
                # may have set up or used its queues
                seen.add(id(b))
                bindings += list(b.outermost().members.values())
        if queues:
            op = asc.OpaqueCallOp.create(operands=list(queues), properties={"callee": StringAttr("<not lowered>")})
            self.emit(op, st)

    def forget_scalar(self, name: str, node: A.Node) -> None:
        """The scalar variable `name` now holds a value not known here."""
        binding = self.lookup(name)
        if isinstance(binding, Cell) and isinstance(binding.ctype, Scalar):
            cell_t = binding.ref.type
            assert isinstance(cell_t, MemRefType)
            self.store_element(self.undef_ir(cell_t.element_type), binding.ref, list(binding.at), node)

    def _may_use_flags(self, st: A.Node, depth: int = 0) -> bool:
        """Whether `st` calls SetFlag/WaitFlag, directly or through the user functions it calls (remembered per
        node and depth for the program: a kernel with hundreds of statements out of reach walked its helpers'
        bodies again for each, 0.5 s apiece in ops-transformer batch_mat_mul_reduce_scatter_allto_all)."""
        key = (id(st), depth)
        known = self.scope.flag_users.get(key)
        if known is None:
            known = self.scope.flag_users[key] = self._walk_for_flags(st, depth)
        return known

    def _walk_for_flags(self, st: A.Node, depth: int) -> bool:
        for node in st.walk():
            if not isinstance(node, A.Call):
                continue
            name = callee_name(node)
            if name is None:
                continue
            if name in FLAG_CALLS:
                return True
            if depth < 3:
                helpers = [*self.scope.functions.get(name, ()),
                           *(fn for info in self.scope.classes.values() for fn in info.methods.get(name, ()))]
                if any(fn.body is not None and self._may_use_flags(fn.body, depth + 1) for fn in helpers):
                    return True
        return False

    def _lower_stmt(self, st: A.Node) -> None:
        if isinstance(st, A.Compound):
            self.lower_block(st)
        elif isinstance(st, A.ExprStmt):
            value = self.expr(st.expr)
            if isinstance(st.expr, A.Cast) and st.expr.kind == "functional" and (st.expr.args or st.expr.expr) \
                    and not isinstance(value.ctype, Scalar | C.VoidT):
                # `Name(args);` read as a temporary of a type that is discarded at once: if a call was meant
                # (a function the lowering did not find), nothing of it is in the IR, so say so
                self.report.unsupported(f"'{node_text(st.expr.type)}(...)' constructs a temporary {value.ctype} "
                                        "and discards it; no function of that name is called", st)
        elif isinstance(st, A.VarDecl):
            if not function_tables.declare_local(self, st):  # (a local array of functions: a table)
                self.declare(st)
        elif isinstance(st, A.If):
            self.lower_if(st)
        elif isinstance(st, A.For):
            code_pointer.lower_loop(self, lambda: self.lower_for(st))
        elif isinstance(st, A.While):
            code_pointer.lower_loop(self, lambda: self.lower_while(st.cond, st.body, st))
        elif isinstance(st, A.DoWhile):
            code_pointer.lower_loop(self, lambda: self.lower_do_while(st))
        elif isinstance(st, A.RangeFor) and range_for.lower(self, st):
            return  # over a C array: the loop over its positions ([stmt.ranged]/1)
        elif isinstance(st, A.Switch):
            self.lower_switch(st)
        elif isinstance(st, A.Return):
            self.lower_return(st)
        elif isinstance(st, A.Break | A.Continue):
            self.lower_loop_exit(st)
        elif isinstance(st, A.AliasDecl):
            # a block-scope `using Strategy = HighPerfStrategy;`: later declarations and template arguments in
            # this function name the type through it
            aliased = self.resolve_type(st.type)
            # (a register type is an UnknownT to the rest of the lowering, but a known one: `using RegDstT =
            # std::conditional<..., RegTensor<T, RegTraitNumTwo>, RegTensor<T>>::type;`, ops-nn max_pool_v3)
            if not isinstance(aliased, C.UnknownT) or isinstance(aliased, C.MatmulTypeT | C.RegisterApiT):
                self.frame.types[st.name] = aliased
            return
        elif isinstance(st, A.UsingDecl):
            namespace_lookup.declare_block_using(self, st)  # `using A::cnt;`: `cnt` in this block is A's
        elif isinstance(st, A.StaticAssert):
            if self.checks_static_asserts:
                self._static_assert(st)
            return
        elif isinstance(st, A.NullStmt | A.EmptyDecl | A.UsingDirective):
            return
        elif isinstance(st, A.MacroDecl):
            self.lower_macro_stmt(st)
        elif isinstance(st, A.ClassDecl | A.EnumDecl):
            # local types: collected with the program's declarations; variables declared with the type
            # (`union { int i; float f; } u;`) are declared like any other, of that type when it has a name
            if isinstance(st, A.EnumDecl) and st.name and st.name not in self.scope.enums:
                # an enum declared in a function body (`enum class ArgsIndex { M_INDEX = 1, ... };` in catlass's
                # GemmOptions::Parse): its enumerators are named from here on, `ArgsIndex::M_INDEX` too
                collect_enum(self.scope, st)
            for d in getattr(st, "declarators", None) or []:
                self._declare_with_local_type(st, d)
            return
        elif isinstance(st, A.Label):
            return
        else:
            raise Unsupported(f"{type(st).__name__.lower()} statements are not supported in device code", st)

    def lower_macro_stmt(self, st: A.MacroDecl) -> None:
        call = A.Call(st.span, A.Name(st.span, A.QualifiedName(st.span, [A.NamePart(st.span, st.name)])), st.args)
        self.expr(call)

    def _constexpr_condition(self, st: A.If, cond: Val) -> Val:
        """An `if constexpr` condition the lowering knows nothing of (a trait from a header that was not read,
        `platform::IsSupportAtomicAdd<T>()`; not one it models, like the core-type test of ASCEND_IS_AIV) is
        one compile-time value wherever the same condition is tested with the same template arguments. It is
        read from one cell per condition, set to an unknown value at the kernel's entry, so that the queue
        analysis knows the second test goes the way the first went (an InitBuffer under one test and the
        AllocTensor under the other are on the same path)."""
        if self.kernel_block is None:
            return cond
        key = (_shape_of(st.cond), tuple(sorted((k, str(v)) for k, v in self.frame.types.items())))
        try:
            cell = self._constexpr_cells.get(key)
        except TypeError:  # (a field value that is not hashable: no sharing)
            return cond
        if cell is None:
            first = self.kernel_block.first_op
            saved = self.builder
            self.builder = Builder(InsertPoint.before(first) if first is not None
                                   else InsertPoint.at_end(self.kernel_block))
            try:
                cell = self.new_cell(C.BOOL, "constexpr_condition", st)
                self.store(cell, Val(C.BOOL, self.undef(C.BOOL, st)), st)
            finally:
                self.builder = saved
            self._constexpr_cells[key] = cell
        return self.load(cell, st)

    def lower_if(self, st: A.If) -> None:
        cond = self.condition(st.cond)
        if cond.const is None and st.is_constexpr and cond.ssa is not None and isinstance(cond.ssa.owner, asc.UndefOp):
            cond = self._constexpr_condition(st, cond)
        if cond.const is not None:
            if cond.const:
                self.lower_block(st.then)
            elif st.otherwise is not None:
                self.lower_block(st.otherwise)
            return
        regions = [Region(Block()), Region(Block())] if st.otherwise is not None else [Region(Block())]
        if_op = self.emit(scf.IfOp(self.ssa(cond, st), [], *regions), st)
        otherwise = st.otherwise
        branches = [lambda: self.lower_block(st.then)]
        if otherwise is not None:
            branches.append(lambda: self.lower_block(otherwise))
        self.lower_if_branches(st, if_op, cond, branches)

    def lower_if_branches(self, st: A.If, if_op: scf.IfOp, cond: Val, branches: Sequence[Callable[[], None]]) -> None:
        """The branches of an `if` whose condition is known only when the code runs: branches[k] lowers the k-th
        into region k of `if_op`, ended here by its yield (the host lowering also merges the handle variables
        the branches rebind: host_branch_merge)."""
        for region, lower in zip(if_op.regions, branches):
            with self.at_end_of(region.block):
                lower()
                self.emit(scf.YieldOp(), st)

    def condition(self, e: A.Node) -> Val:
        if isinstance(e, A.MacroFlag):  # `if ASCEND_IS_AIC_CONV {` with the macro's header out of reach
            return Val(C.BOOL, self.undef(C.BOOL, e))
        if isinstance(e, A.VarDecl):  # `if (auto x = ...)`
            self.declare(e)
            d = e.declarators[0]
            return self.to_bool(self.expr(A.Name(d.span, A.QualifiedName(d.span, [A.NamePart(d.span, d.name)]))), e)
        return self.to_bool(self.expr(e), e)

    def to_bool(self, v: Val, node: A.Node) -> Val:
        if v.ctype == C.BOOL:
            return v
        if isinstance(v.obj, Instance):
            # `if (callback)`: its `operator bool` (which the parser names "operatorbool", as it does every
            # conversion function)
            conversion = next((n for n in ("operatorbool", "operator bool") if v.obj.find_method(n) is not None), None)
            if conversion is not None:
                return self.to_bool(self._operator_call(v.obj, conversion, node, []), node)
        if isinstance(v.ctype, Scalar | C.EnumT):
            if v.const is not None and not isinstance(v.const, str):
                return Val(C.BOOL, const=int(bool(v.const)))
            if isinstance(v.ctype, Scalar):
                zero = Val(v.ctype, const=0)
                return self.compare("!=", v, zero, node)
        if isinstance(v.ctype, C.Pointer):
            held = code_pointer.to_bool(self, v, node)  # `if (func)` with `void const *func` set at run time
            if held is not None:
                return held
            if absent_inputs.is_null(self, v):  # `if (finished)` on an absent optional input's parameter
                return Val(C.BOOL, const=0)
            return Val(C.BOOL, const=int(v.ssa is not None or v.obj is not None))
        return Val(C.BOOL, self.undef(C.BOOL, node))

    def _deduced_cell(self, t: Scalar, node: A.Node) -> Cell:
        """The return cell of the auto function being lowered, made where its body starts (Frame.deduce_after)."""
        frame = self.frame
        block, after = frame.deduce_block, frame.deduce_after
        saved = self.builder.insertion_point
        self.builder.insertion_point = InsertPoint.after(after) if after is not None else InsertPoint.at_start(block)
        try:
            return self.new_cell(t, f"{frame.name}_result", node)
        finally:
            self.builder.insertion_point = saved

    def lower_return(self, st: A.Return) -> None:
        frame = self.frame
        if st.value is not None and frame.deduce_block is not None and frame.deduced is None \
                and frame.deduce_block is not self.builder.insertion_point.block:
            # `auto Min(a, b) { if (a < b) { return a; } else { return b; } }` (catlass alignment.hpp): every
            # return of an auto function has the one type C++ deduces, so the first one here gives it; its cell
            # goes where the body starts, dominating every return and the read after the call
            value = self.expr(st.value)
            if not isinstance(value.ctype, Scalar):
                raise Unsupported(f"'{frame.name}' returns 'auto' ({value.ctype}) from a branch chosen at run time", st)
            frame.return_cell = self._deduced_cell(value.ctype, st)
            frame.deduce_block = None
            self.store(frame.return_cell, value, st)
        elif st.value is not None and frame.deduce_block is not None:
            if frame.deduced is not None or frame.deduce_block is not self.builder.insertion_point.block:
                raise Unsupported(f"'{frame.name}' returns 'auto' from a branch chosen at run time", st)
            frame.deduced = self.expr(st.value)  # `auto` deduced from the return the constant conditions chose
        elif st.value is not None and frame.return_object is not None:
            value = self.expr(st.value)
            if isinstance(value.obj, Instance):
                self._copy_members(frame.return_object, value.obj, st)  # `return GemmCoord{m, n, 0};`
            else:
                self.construct(frame.return_object, [value], st)
        elif st.value is not None and frame.return_cell is not None:
            self.store(frame.return_cell, self.expr(st.value), st)
        elif st.value is not None:
            self.expr(st.value)
        if frame.return_flag is not None:
            self.store(frame.return_flag, Val(C.BOOL, const=1), st)


def _shape_of(node: object) -> object:
    """An AST subtree as nested tuples without spans: equal for two spellings of the same expression."""
    if isinstance(node, A.Node):
        return (type(node).__name__, *(_shape_of(getattr(node, f)) for f in A.field_names(type(node))))
    if isinstance(node, list | tuple):
        return tuple(_shape_of(n) for n in node)
    return node
