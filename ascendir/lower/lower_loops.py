"""Loops and `switch` in the function lowering: counted `for` loops as scf.for, the others as scf.while,
`switch` as a chain of scf.if, and `break` / `continue` through flag cells.

Separate from the other statements because loops carry their own state (the flag cells of each loop,
innermost last) and their own analysis (is this loop counted?).
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.ir import Block, Region

from ascendir.lower import ctypes as C
from ascendir.lower.ast_queries import always_exits, contains_break, contains_continue, contains_return
from ascendir.lower.ctypes import Scalar
from ascendir.lower.errors import Unsupported
from ascendir.lower.fast_ops import name_hint
from ascendir.lower.values import Cell, ExitKind, Val
from frontend import ast as A


class LoopLowering:
    """Loops and `switch`: methods of FunctionLowerer (function.py), which inherits them."""

    def lower_for(self, st: A.For) -> None:
        self.frame.scopes.append({})
        try:
            counted = self._counted_loop(st)
            if counted is not None:
                self._lower_counted_for(st, *counted)
                return
            if st.init is not None:
                self.lower_stmt(st.init)
            self.lower_while(st.cond, st.body, st, step=st.step)
        finally:
            self.frame.scopes.pop()

    def _counted_loop(self, st: A.For) -> tuple[str, Scalar, A.Node, A.Node, int, bool] | None:
        """`for (T i = a; i < b; i++ / i += c)` whose body neither assigns i nor breaks: an scf.for."""
        if not isinstance(st.init, A.VarDecl) or len(st.init.declarators) != 1:
            return None
        d = st.init.declarators[0]
        if d.init is None or isinstance(d.init, A.InitList):
            return None
        t = self.resolve_type(d.type)
        if not isinstance(t, Scalar) or t.is_float or t.kind == "bool":
            return None
        cond = st.cond
        if not (isinstance(cond, A.Binary) and cond.op in ("<", "<=", "!=") and _is_name(cond.lhs, d.name)):
            return None
        step = st.step
        if isinstance(step, A.IncDec) and step.op == "++" and _is_name(step.operand, d.name):
            by = 1
        elif isinstance(step, A.Assign) and step.op == "+=" and _is_name(step.target, d.name):
            c = self.const_eval(step.value)
            if not isinstance(c, int) or c <= 0:
                return None
            by = c
        else:
            return None
        if d.name in self.written_names(st.body) or contains_break(st.body) or contains_return(st.body):
            return None
        if cond.op == "!=" and by != 1:
            return None
        return (d.name, t, d.init, cond.rhs, by, cond.op == "<=")

    def _lower_counted_for(self, st: A.For, name: str, t: Scalar, lb_e: A.Node, ub_e: A.Node, step: int,
                           inclusive: bool) -> None:
        # C++ compares `i < ub` after the integral promotions and the usual arithmetic conversions: a uint16_t i
        # counts to 40000 as an int. So the loop counts in i's promoted type (an scf.for compares signed, which
        # i's own 8- or 16-bit type would get wrong past its signed half), and the body sees the value converted
        # back to i's type, which is what i holds. The bound (`ub + 1` of an inclusive one, computed in the
        # common type) is converted into the counting type: the same trip count whenever it lies within i's
        # range, and past it C++'s own loop never ends, since i wraps before reaching it.
        counter = C.promote(t)
        lb = self.convert(self.convert(self.expr(lb_e), t, st), counter, st)
        ub = self.expr(ub_e)
        if inclusive:
            ub = self.arith("+", ub, Val(t, const=1), st)
        ub = self.convert(ub, counter, st)
        lb_s, ub_s, step_s = self.ssa(lb, st), self.ssa(ub, st), self.const_ssa(step, counter, st)
        body = Block(arg_types=[C.scalar_ir_type(counter)])
        body.args[0].name_hint = name_hint(name)
        for_op = self.emit(scf.ForOp(lb_s, ub_s, step_s, [], body), st)
        with self.at_end_of(for_op.body.block):
            i = self.convert(Val(counter, for_op.body.block.args[0]), t, st)
            if i.ssa is not None and i.ssa is not for_op.body.block.args[0]:
                i.ssa.name_hint = name_hint(name)
            self.frame.scopes.append({name: i})
            self.frame.loop_flags.append(self._loop_flag_cells(st.body, st, allow_break=False))
            try:
                self.lower_loop_body(st.body)
            finally:
                self.frame.loop_flags.pop()
                self.frame.scopes.pop()
            self.emit(scf.YieldOp(), st)

    def _loop_flag_cells(self, body: A.Node, node: A.Node, allow_break: bool = True) -> dict[str, Cell | None]:
        flags: dict[str, Cell | None] = {ExitKind.BREAK: None, ExitKind.CONTINUE: None}
        if allow_break and contains_break(body):
            flags[ExitKind.BREAK] = self.new_cell(C.BOOL, "break_flag", node, Val(C.BOOL, const=0))
        return flags

    def lower_loop_body(self, body: A.Node) -> None:
        flags = self.frame.loop_flags[-1]
        if contains_continue(body):
            flags[ExitKind.CONTINUE] = self.new_cell(C.BOOL, "continue_flag", body, Val(C.BOOL, const=0))
        self.frame.scopes.append({})
        try:
            stmts = body.body if isinstance(body, A.Compound) else [body]
            self.lower_stmts(stmts, top="loop")
            if not (stmts and always_exits(stmts[-1])):
                # the objects declared in the body end with each iteration (catlass's BlockEpilogue, made per
                # group, waits in its destructor for the flags its constructor set)
                self.run_destructors(self.frame.scopes[-1], body)
        finally:
            self._owned.pop(id(self.frame.scopes.pop()), None)

    def lower_while(self, cond_e: A.Node | None, body: A.Node, st: A.Node, step: A.Expr | None = None,
                    first_flag: Cell | None = None) -> None:
        if cond_e is not None:
            c = self.const_eval(cond_e) if not isinstance(cond_e, A.VarDecl) else None
            if c is not None and not c and first_flag is None:
                return  # while (false)
        flags = self._loop_flag_cells(body, st)
        before = Block()
        after = Block()
        self.emit(scf.WhileOp([], [], Region(before), Region(after)), st)
        with self.at_end_of(before):
            cond = self.condition(cond_e) if cond_e is not None else Val(C.BOOL, const=1)
            c_ssa = self.ssa(cond, st)
            if first_flag is not None:
                c_ssa = self.emit(arith.OrIOp(self.load(first_flag, st).ssa, c_ssa), st).results[0]  # type: ignore[arg-type]
            stops = [flags[ExitKind.BREAK]]
            if contains_return(body):
                stops.append(self.frame.return_flag)
            for stop in stops:
                if stop is not None:
                    not_stopped = self.emit(arith.XOrIOp(self.load(stop, st).ssa, self.const_ssa(1, C.BOOL, st)), st)  # type: ignore[arg-type]
                    c_ssa = self.emit(arith.AndIOp(c_ssa, not_stopped.results[0]), st).results[0]
            self.emit(scf.ConditionOp(c_ssa), st)
        with self.at_end_of(after):
            if first_flag is not None:
                self.store(first_flag, Val(C.BOOL, const=0), st)
            self.frame.loop_flags.append(flags)
            try:
                self.lower_loop_body(body)
                if step is not None:
                    guard = self._no_exit_condition({ExitKind.BREAK}, st)
                    if guard is None:
                        self.expr(step)
                    else:
                        if_op = self.emit(scf.IfOp(guard, [], Region(Block())), st)
                        with self.at_end_of(if_op.regions[0].block):
                            self.expr(step)
                            self.emit(scf.YieldOp(), st)
            finally:
                self.frame.loop_flags.pop()
            self.emit(scf.YieldOp(), st)

    def lower_do_while(self, st: A.DoWhile) -> None:
        c = self.const_eval(st.cond)
        if c is not None and not c and not contains_break(st.body) and not contains_continue(st.body):
            self.lower_block(st.body)  # do { ... } while (0): the macro idiom
            return
        first = self.new_cell(C.BOOL, "first_iteration", st, Val(C.BOOL, const=1))
        self.lower_while(st.cond, st.body, st, first_flag=first)

    def lower_switch(self, st: A.Switch) -> None:
        value = self.expr(st.cond) if not isinstance(st.cond, A.VarDecl) else self.condition(st.cond)
        body = st.body.body if isinstance(st.body, A.Compound) else [st.body]
        cases: list[tuple[list[A.Expr | None], list[A.Node]]] = []
        for item in body:
            if isinstance(item, A.Case):
                if cases and not cases[-1][1]:
                    cases[-1][0].append(item.value)
                else:
                    cases.append(([item.value], []))
            elif cases:
                cases[-1][1].append(item)
        # fallthrough: a case without a final break runs into the next one
        bodies: list[list[A.Node]] = []
        for i, (_, stmts) in enumerate(cases):
            run = list(stmts)
            j = i
            while not (run and isinstance(run[-1], A.Break | A.Return | A.Continue)) and j + 1 < len(cases):
                j += 1
                run += cases[j][1]
            if run and isinstance(run[-1], A.Break):
                run = run[:-1]
            bodies.append(run)
        default = next((i for i, (vals, _) in enumerate(cases) if None in vals), None)
        self.frame.loop_flags.append({ExitKind.BREAK: None, ExitKind.CONTINUE: None,
                                      **({"outer": self.frame.loop_flags[-1]} if self.frame.loop_flags else {})})  # type: ignore[dict-item]
        if any(contains_break(A.Compound(st.span, b)) for b in bodies):
            self.frame.loop_flags[-1][ExitKind.BREAK] = self.new_cell(C.BOOL, "switch_break", st, Val(C.BOOL, const=0))
        try:
            self._lower_cases(value, cases, bodies, default, 0, st)
        finally:
            self.frame.loop_flags.pop()

    def _lower_cases(self, value: Val, cases: list[tuple[list[A.Expr | None], list[A.Node]]],
                     bodies: list[list[A.Node]], default: int | None, i: int, st: A.Node) -> None:
        while i < len(cases) and None in cases[i][0] and [v for v in cases[i][0] if v is not None] == []:
            i += 1  # the default case runs last, when nothing matched
        if i >= len(cases):
            if default is not None:
                self.frame.scopes.append({})
                self.lower_stmts(bodies[default], top="case")
                self.frame.scopes.pop()
            return
        match: Val | None = None
        for v in cases[i][0]:
            if v is None:
                continue
            eq = self.compare("==", value, self.expr(v), st)
            match = eq if match is None else self.logical("||", match, eq, st)
        assert match is not None
        if match.const is not None:
            if match.const:
                self.frame.scopes.append({})
                self.lower_stmts(bodies[i], top="case")
                self.frame.scopes.pop()
            else:
                self._lower_cases(value, cases, bodies, default, i + 1, st)
            return
        if_op = self.emit(scf.IfOp(self.ssa(match, st), [], Region(Block()), Region(Block())), st)
        with self.at_end_of(if_op.regions[0].block):
            self.frame.scopes.append({})
            self.lower_stmts(bodies[i], top="case")
            self.frame.scopes.pop()
            self.emit(scf.YieldOp(), st)
        with self.at_end_of(if_op.regions[1].block):
            self._lower_cases(value, cases, bodies, default, i + 1, st)
            self.emit(scf.YieldOp(), st)

    def lower_loop_exit(self, st: A.Node) -> None:
        kind = ExitKind.BREAK if isinstance(st, A.Break) else ExitKind.CONTINUE
        flags = self.frame.loop_flags
        if not flags:
            raise Unsupported(f"'{kind}' outside a loop or switch", st)
        target = flags[-1]
        if kind == ExitKind.CONTINUE and "outer" in target:
            target = target["outer"]  # type: ignore[assignment]
        cell = target.get(kind)
        if cell is None and kind == ExitKind.CONTINUE:
            cell = target[kind] = self.new_cell(C.BOOL, "continue_flag", st, Val(C.BOOL, const=0))
        if cell is not None:
            self.store(cell, Val(C.BOOL, const=1), st)


def _is_name(e: A.Node | None, name: str) -> bool:
    return isinstance(e, A.Name) and len(e.qname.parts) == 1 and e.qname.parts[0].name == name
