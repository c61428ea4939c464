"""Variables in the host lowering: handles held in cells that rebinding updates (HandleCell), namespace-scope
variables made on first use, declarations of handles, `gert::Shape` objects and `std::vector`s, and the
variables a call writes through a reference.

Separate because handles never live in memory: where a device variable is a memref cell, a host one is
often a Python-side binding, and this is where the two part.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from xdsl.dialects import memref
from xdsl.dialects.builtin import MemRefType, NoneType
from xdsl.ir import Block, SSAValue

from ascendir.dialects import host as hd
from ascendir import host_eval_left_out
from ascendir.lower import ctypes as C
from ascendir.lower import host_pair, host_std, host_vector, host_vector_table, host_tiling_api
from ascendir.lower import host_branch_merge, host_cstring, host_streams, namespace_lookup
from ascendir.lower.ctypes import CType, Scalar
from ascendir.lower.frame import at_block_entry
from ascendir.lower.function import Unsupported, non_const_reference
from ascendir.lower.ast_queries import type_text
from ascendir.lower.astwalk import walk
from ascendir.lower.fast_ops import NO_SIZES
from ascendir.lower.host_handles import (
    HandleCell,
    HostError,
    HostT,
    VectorItems,
    getter_pointer,
    handle_kind,
    is_host,
    unbound_shape,
)
from ascendir.lower.values import Binding, Cell, Val
from frontend import ast as A


def _mutable_global(vd: A.VarDecl, decl: A.Declarator) -> bool:
    return not ({"constexpr", "const"} & set(vd.specifiers)) and "const" not in decl.type.qualifiers


# std::vector members that change its elements or its size
_VECTOR_WRITERS = frozenset({"push_back", "emplace_back", "pop_back", "resize"})

# methods of the runtime's handles that fill their last argument through a reference
_LAST_ARG_OUT = ("GetCoreMemSize", "GetLocalMemSize", "GetPlatformRes")


class HostDeclarations:
    """Variables: methods of HostLowerer (host.py), which inherits them."""

    def lookup(self, name: str) -> Binding | None:
        found = super().lookup(name)
        if found is None and namespace_lookup.declares(self.scope, name):
            keys = namespace_lookup.keys(self.scope, name, namespace_lookup.namespace_here(self))
            # (an ambiguous name is left to expr_Name, which reports it)
            return self._global_variable(keys[0]) if len(keys) == 1 else None
        return found

    def _global_constant(self, vd: A.VarDecl, decl: A.Declarator, e: A.Node) -> Val:
        t = self.resolve_type(decl.type, decl)
        if isinstance(t, HostT) and t.detail in host_std.MAP_TYPES and isinstance(decl.init, A.InitList):
            return host_std.make_map(self, t, decl.init.items, e)  # a table, const or not: only read
        if isinstance(t, HostT) and t.detail in host_std.SET_TYPES and isinstance(decl.init, A.InitList):
            return host_std.make_set(self, t, decl.init.items, e)
        if isinstance(t, HostT) and t.detail == "vector" and isinstance(decl.init, A.InitList) and \
                not _mutable_global(vd, decl):
            return host_std.make_seq(self, t, decl.init.items, e)  # `static const std::vector<T> v = {...}`
        ns = namespace_lookup.namespace_of(self.scope, decl)
        if _mutable_global(vd, decl) and ns is not None:
            cell = self._global_variable(namespace_lookup.key(ns, decl.name))
            if cell is not None:
                return self.read_binding(cell, e)
        return super()._global_constant(vd, decl, e)

    def _global_variable(self, key: str) -> Binding | None:
        """The cell of a namespace-scope variable that is not a constant (by its key in Scope.constants), made on
        first use in the entry block (every use, under any control flow, comes after it), holding its initialiser
        or zero; None for a constant (those fold) or a type the lowering cannot hold."""
        if key in self.globals:
            return self.globals[key]
        vd, decl = self.scope.constants[key]
        name = decl.name
        if not _mutable_global(vd, decl) or self._entry_block is None:
            return None
        # the initialiser sees only namespace scope, its own namespace's first
        with at_block_entry(self, self._entry_block, name, key, set()):
            t = self.resolve_type(decl.type, decl)
            init: Val | None = None
            if decl.init is not None:
                init = (self.init_list(t, decl.init.items, decl) if isinstance(decl.init, A.InitList)
                        else self.expr(decl.init))
            if isinstance(t, C.UnknownT) and t.text == "auto" and init is not None:
                t = init.ctype  # `auto aivNum = 1;` at namespace scope: an int, assigned later (NPUKernelBench Lerp)
            if isinstance(t, C.ArrayT):
                cell: Binding = self.new_array(t, name, decl, init)
            elif isinstance(t, Scalar):
                cell = self.new_cell(t, name, decl, self.convert(init, t, decl) if init is not None
                                     else Val(t, const=0))
            elif isinstance(t, HostT) and t.kind == "string" and "*" not in decl.type.pointers:
                cell = self._string_cell(name, init, decl)
            elif isinstance(t, C.TilingT | C.ClassT) and t.name in self.scope.tiling_structs and init is None:
                cell = self.new_cell(C.TilingT(t.name), name, decl)  # a tiling struct object: a local struct
            else:
                return None
        self.globals[key] = cell
        return cell

    def _string_cell(self, name: str, init: Val | None, node: A.Node) -> Cell:
        """A namespace-scope `std::string` (ops-nn mse_loss_v2's `std::string reduction = REDUCTION_MEAN;`, set
        from an attribute in one helper and compared in others): a memory cell holding its text, since the
        functions assign it after early returns and under `if`s, where rebinding a handle cannot follow."""
        alloca = memref.AllocaOp.create(result_types=[MemRefType(hd.StringType(), [])],
                                        properties={"operandSegmentSizes": NO_SIZES})
        ref = self.emit(alloca, node).results[0]
        ref.name_hint = name if name.isidentifier() else None
        cell = Cell(HostT("string"), ref, name)
        self.store(cell, init if init is not None else Val(C.UnknownT("std::string"), const=""), node)
        return cell

    def new_cell(self, t: CType, name: str, node: A.Node, init: Val | None = None) -> Cell:
        if self.shape_objects and init is None and isinstance(t, HostT) and t.kind == "shape" and \
                isinstance(node, A.Declarator) and not node.type.pointers:
            # a gert::Shape data member of a tiling class (`gert::Shape xShape_;`): an object of its own, which an
            # assignment anywhere (under an `if` too) copies into, as a `gert::Shape s;` variable is
            buffer = self.emit(hd.ShapeLocalOp(), node).results[0]
            buffer.name_hint = name if name.isidentifier() else None
            return Val(HostT("shape_buffer"), buffer)  # type: ignore[return-value]
        if self.shape_objects and init is None and isinstance(t, HostT) and t.kind == "shape" and \
                isinstance(node, A.Call):
            # what an inlined function returning a gert::Shape (by value or const reference) returns: an object
            # each of its returns copies into, under an `if` too (ops-nn's EnsureNotScalar: a {1} shape for a
            # scalar, else its argument)
            buffer = self.emit(hd.ShapeLocalOp(), node).results[0]
            return HandleCell(HostT("shape_buffer"), None, name, value=Val(HostT("shape_buffer"), buffer),
                              block=self.builder.insertion_point.block)
        if init is None and isinstance(t, HostT) and t.kind == "unmodelled" and t.detail == "vector" and \
                isinstance(node, A.Declarator) and not node.type.pointers and \
                (elem := host_vector.element_type(self, node.type)) is not None:
            # a std::vector data member of a tiling class (`vector<int64_t> updateShape;`): an empty vector
            vec = host_vector.declare(self, name, elem, [], node)
            return HandleCell(vec.ctype, None, name, value=vec,  # type: ignore[arg-type]
                              block=self.builder.insertion_point.block)
        if isinstance(t, C.TilingT) and init is None and t.name in self.scope.tiling_structs:
            # a tiling struct member of a class (`XTilingData tilingData;` in a tiling helper class): a local
            # struct, as a variable of that type is
            init = self._tiling_local(t.name, node)
        if isinstance(t, HostT) and t.kind == "string" and isinstance(node, A.Declarator) and \
                not node.type.pointers and self.frames and self.frame.this is not None and \
                any(d is node for _, d in self.frame.this.info.fields):
            # a std::string data member (ops-nn mat_mul_v3's MatmulV3CompileInfo::socVersionStr): a memory cell, as
            # a namespace-scope one is, so that copying its object under an `if` (`compileInfo_ = *p;` in
            # GetPlatformInfo) copies it, and the members after it, instead of stopping at it
            return self._string_cell(name, init, node)
        if is_host(t) or isinstance(t, C.Pointer) or (init is not None and is_host(init.ctype)):
            # host code has no device pointers: every pointer variable holds a handle
            value = init if init is not None else Val(t if is_host(t) else HostT("poison", name))
            return HandleCell(t, None, name, value=value, block=self.builder.insertion_point.block)  # type: ignore[arg-type]
        return super().new_cell(t, name, node, init)

    def _forget_effects(self, st: A.Node) -> None:
        # (where: a gap the run never reaches, in a branch for another chip, does not make its values untrusted)
        if st.span is not None and self.builder is not None:
            self.emit(hd.LeftOutOp(host_eval_left_out.span_text(st.span)), st)
        super()._forget_effects(st)  # type: ignore[misc]

    def load(self, cell: Cell, node: A.Node) -> Val:
        if isinstance(cell, HandleCell):
            assert cell.value is not None
            return cell.value
        return super().load(cell, node)

    def store(self, cell: Cell, v: Val, node: A.Node) -> None:
        if not isinstance(cell, HandleCell) and cell.ctype == host_cstring.CSTRING:
            host_cstring.store(self, cell, v, node)  # `++lhs`, `p = attrs->GetStr(1)`: the text it points to now
            return
        if not isinstance(cell, HandleCell) and cell.ctype == HostT("string"):
            text = self._as_string(v, node)  # `s = "mean"`, `s = attrs->GetAttrPointer<char>(0)`, `s = other`
            held = (self.emit(hd.StrConstOp(text.const), node).results[0] if isinstance(text.const, str)
                    and text.ssa is None else self.ssa(text, node))
            self.emit(memref.StoreOp.get(held, cell.ref, []), node)
            return
        if isinstance(cell, HandleCell) and handle_kind(cell.value) == "shape_buffer" and \
                isinstance(cell.ctype, HostT) and cell.ctype.kind == "shape_buffer":
            self.emit(hd.ShapeAssignOp(self.ssa(cell.value, node), self._shape_value(v, node)), node)
            return
        if isinstance(cell, HandleCell):
            # a rebinding on the path of every later read, one inside the branches of an `if` (merged after it:
            # host_branch_merge), or one that may stand for every path
            # (recorded first: the rest of a list after an `if` that exits is both a continuation and a branch)
            merged = host_branch_merge.record(self, cell, node)  # type: ignore[arg-type]
            if not (merged or self._in_continuation_of(cell.block) or host_branch_merge.path_free(cell.value, v)):
                raise Unsupported(f"assigning '{cell.name}' (a {cell.ctype}) under control flow is not modelled", node)
            cell.value = v
            return
        super().store(cell, v, node)

    def _in_continuation_of(self, block: Block | None) -> bool:
        """Whether the insertion point is `block`, or a block reached from it only through the continuations of
        early exits (lower_stmts: `OP_CHECK_NULL_WITH_CONTEXT(context, p); ... p = context->GetInputDesc(1);`
        puts the rest of the function in the else branch of the check): then rebinding a handle variable there
        is its value on every path that reads it later, as every later statement of the list is in that block.
        A block under a real `if` or a loop body is no continuation."""
        if block is None:
            return False
        current: Block | None = self.builder.insertion_point.block
        while current is not None and current is not block and current in self.continuation_blocks:
            parent = current.parent_op()
            current = parent.parent_block() if parent is not None else None
        return current is block

    def read_binding(self, b: Binding, node: A.Node) -> Val:
        if isinstance(b, HandleCell):
            assert b.value is not None
            return b.value  # the base would overwrite `obj` (the handle's payload) with the cell
        return super().read_binding(b, node)

    def assigned_names(self, body: A.Node) -> set[str]:
        """Also the variables a call writes through a reference: `GetCoreMemSize(type, ubSize)` and
        non-const reference parameters of helper functions (they must be cells to be written)."""
        hit = self._out_args_cache.get(id(body))
        if hit is not None:
            return hit
        names = set(super().assigned_names(body)) | self.passed_by_reference(body)
        self._out_args_cache[id(body)] = names
        for node in walk(body):
            if isinstance(node, A.Call) and isinstance(node.callee, A.Member) and \
                    node.callee.member in _VECTOR_WRITERS and isinstance(node.callee.obj, A.Name) and \
                    len(node.callee.obj.qname.parts) == 1:
                # `dtype.push_back(x)` of a `std::vector<T> dtype = {a, b};`: a vector whose items change is a
                # run-time one (host_vector), not the list of its initial items
                names.add(node.callee.obj.qname.parts[0].name)
            if not isinstance(node, A.Call) or not node.args:
                continue
            outs: list[A.Node] = []
            callee = node.callee
            if isinstance(callee, A.Member) and callee.member in _LAST_ARG_OUT or isinstance(
                    callee, A.Name) and callee.qname.parts[-1].name == "GetDataTypeLength":
                outs.append(node.args[-1])
            elif isinstance(callee, A.Name) and callee.qname.parts[-1].name in host_tiling_api.OUT_ARGS:
                outs += [node.args[i] for i in host_tiling_api.OUT_ARGS[callee.qname.parts[-1].name]
                         if i < len(node.args)]
            elif isinstance(callee, A.Name) and callee.qname.parts[-1].name == "GetCumSumMaxMinTmpSize":
                outs += node.args[-2:]  # maxValue, minValue
            elif isinstance(callee, A.Name) and callee.qname.parts[-1].name in self.scope.functions:
                # a member passed by reference (`Split(this->rows)`); plain variables are in the set already
                fn = self.scope.functions[callee.qname.parts[-1].name][0]
                outs += [a for p, a in zip(fn.params, node.args)
                         if non_const_reference(p) and isinstance(a, A.Member)]
            for out in outs:
                if isinstance(out, A.Name) and len(out.qname.parts) == 1:
                    names.add(out.qname.parts[0].name)
                elif isinstance(out, A.Member) and isinstance(out.obj, A.This):
                    names.add(out.member)
        return names

    def _out_parameters(self, fn: A.FunctionDecl, args: Sequence[Val], call: A.Call) -> Sequence[Val]:
        """Also: a pointer variable passed to a non-const reference to a pointer (ops-nn smooth_l1_loss_v2's
        `PrepareTilingInputs(context, tiling, info)` with `SmoothL1LossV2TilingData*& tiling`, which sets it to
        GetTilingData's struct) is the caller's variable itself. A pointer variable is a handle cell here, and
        reading one gives what it holds, not the variable: without this the callee's `tiling = ...` had nothing
        to write ('not a variable'), and the caller's stayed nullptr."""
        changed = list(super()._out_parameters(fn, args, call))  # type: ignore[misc]
        if len(call.args) != len(changed):
            return changed
        for i, (p, a) in enumerate(zip(fn.params, call.args)):
            if not (non_const_reference(p) and "*" in p.type.pointers and isinstance(a, A.Name)
                    and len(a.qname.parts) == 1):
                continue
            bound = self.lookup(a.qname.parts[0].name)
            if isinstance(bound, HandleCell):
                changed[i] = replace(changed[i], obj=bound)  # (_bind_params binds a reference to a cell it is given)
        return changed

    def declare(self, st: A.VarDecl) -> None:
        for i, d in enumerate(st.declarators):
            try:
                super().declare(replace(st, declarators=[d]) if len(st.declarators) > 1 else st)
            except (Unsupported, HostError):
                # later uses of these names report the skipped statement, not an undeclared identifier
                for rest in st.declarators[i:]:
                    self.bind(rest.name, Val(HostT("poison", rest.name)))
                raise

    def _declarator_init(self, d: A.Declarator, t: CType) -> Val | None:
        if host_pair.declares_pair(d) and (d.init is not None or d.ctor_args):
            try:
                return host_pair.declare(self, d)  # type: ignore[arg-type]
            except Unsupported as exc:
                self.report.failed(exc)
                return Val(HostT("poison", d.name))
        if isinstance(t, HostT) and t.kind == "unmodelled" and t.detail not in host_std.MAP_TYPES | host_std.SET_TYPES:
            return None  # `std::vector<T> v = {...}`: the initialiser is not needed to declare it
        if isinstance(t, HostT) and t.kind == "matmul_tiling" and d.init is None and not d.ctor_args and \
                "*" not in d.type.pointers and "&" not in d.type.pointers:
            # `matmul_tiling::MultiCoreMatmulTiling mm_;` a class member (ops-nn mat_mul_v3's tiling class), built
            # with the object as a local of the type is: the library's own sizes
            return self._construct(t, [], d)
        try:
            return super()._declarator_init(d, t)
        except (Unsupported, HostError) as exc:
            # declare the name as poison: its uses are left out with a note, instead of running on an
            # undefined value (which the evaluator cannot run) or cascading into undeclared identifiers
            if isinstance(exc, Unsupported):
                self.report.failed(exc)
            return Val(HostT("poison", d.name))

    def bind_local(self, name: str, t: CType, init: Val | None, d: A.Node, st: A.Node, is_ref: bool = False) -> None:
        if host_pair.is_pair_value(init):
            self.bind(name, init)  # type: ignore[arg-type]  # a std::pair or an array of them: only read
            return
        if host_cstring.is_char_pointer(t) and init is not None and host_cstring.is_text(init) and not is_ref \
                and name in self.frame.assigned:
            # `const char* lhs` moved with `++lhs` in a loop (a parameter too): a cell of the text it points to
            self.bind(name, host_cstring.make_cell(self, name, init, d))
            return
        if isinstance(t, C.ArrayT) and isinstance(C.ir_type(C.array_shape(t)[1]), NoneType):
            # the evaluator has no form for such an element (it would stop at the array's allocation)
            written = type_text(d.type, full=True) if isinstance(d, A.Declarator) else str(C.array_shape(t)[1])
            raise Unsupported(f"an array of {written} (its element type is not modelled)", d)
        if self.shape_objects and isinstance(t, HostT) and t.kind in ("shape", "shape_buffer") and \
                isinstance(d, A.Declarator) and "*" not in d.type.pointers and not getter_pointer(init):
            self._bind_shape_object(name, d, init, is_ref)
            return
        if isinstance(t, HostT) and t.kind == "string" and init is not None and \
                handle_kind(init) in ("attr_ptr", "cstring") and not is_ref:
            init = self._as_string(init, d)  # `std::string s = attrs->GetAttrPointer<char>(i);`: its text
        if isinstance(t, HostT) and t.kind == "string" and init is None and not is_ref:
            # `std::string value;`: empty until a call fills it through a reference (GetPlatformRes)
            init = Val(t, self.emit(hd.StrConstOp(""), d).results[0])
        if isinstance(t, C.TilingT) and init is None:
            init = self._tiling_local(t.name, d)  # `XTilingData tiling;`
        if isinstance(t, HostT) and t.kind == "matmul_tiling" and init is None:
            init = self._construct(t, [], d)  # `MultiCoreMatmulTiling tiling;`: the library's own sizes
        if isinstance(t, HostT) and t.kind == "unmodelled" and init is None and t.detail == "vector":
            items = self._vector_items(d)
            elem = host_vector.element_type(self, d.type) if isinstance(d, A.Declarator) else None
            if items is not None and elem is not None and name in self.frame.assigned:
                # `std::vector<uint64_t> counter = {0, 0};` then `counter[0] = ...` (ops-math
                # stateless_random_uniform_v2): a run-time vector holding the items
                self.bind(name, host_vector.declare_items(self, name, elem, items.values, d))
                return
            rows = host_vector_table.element_type(self, d.type) if isinstance(d, A.Declarator) else None
            if rows is not None and isinstance(d, A.Declarator) and not d.ctor_args and (
                    d.init is None or name in self.frame.assigned and isinstance(d.init, A.InitList)):
                # `std::vector<std::vector<uint64_t>> calBaseMNK;` then push_back (mat_mul_v3's CalcBase): a
                # run-time table, holding the braced rows it starts with
                given = tuple(host_std.make_seq(self, t, i.items, i) if isinstance(i, A.InitList) else self.expr(i)
                              for i in (d.init.items if isinstance(d.init, A.InitList) else ()))
                self.bind(name, host_vector_table.declare(self, name, rows, d, given))
                return
            if items is None and isinstance(d, A.Declarator) and isinstance(d.init, A.InitList) and d.init.items \
                    and all(isinstance(i, A.InitList) for i in d.init.items) and name not in self.frame.assigned:
                # `const std::vector<std::vector<ge::DataType>> rows = {{...}, {...}};` of constants, only read
                # (mat_mul_v3's supported dtype combinations): a table of tables, as a namespace-scope one is
                self.bind(name, host_std.make_seq(self, t, d.init.items, d))
                return
            if items is not None:
                # its only modelled use is a shape made from it; any other use reports the gap there
                self.bind(name, Val(t, obj=items))
                return
            if elem is not None and not isinstance(d.init, A.InitList):  # type: ignore[union-attr]
                self.bind(name, host_vector.declare(self, name, elem, list(d.ctor_args or []), d))  # type: ignore[union-attr]
                return
        if isinstance(t, HostT) and t.kind == "unmodelled" and t.detail in host_streams.STRING_STREAMS and init is None:
            self.bind(name, host_streams.declare(t.detail))  # `std::ostringstream info;`, written for logs
            return
        if isinstance(t, HostT) and init is None:
            if t.kind == "unmodelled":
                self.report.unsupported(f"'{t.detail}' objects are not modelled by the host lowering", d)
            init = Val(t if t.kind == "unmodelled" else HostT("poison", name))
        if init is not None and is_host(init.ctype):
            if init.ssa is not None and init.ssa.name_hint is None and name.isidentifier():
                init.ssa.name_hint = name
            self.bind(name, self.new_cell(init.ctype, name, d, init) if name in self.frame.assigned else init)
            return
        super().bind_local(name, t, init, d, st, is_ref)

    def _vector_items(self, d: A.Node) -> VectorItems | None:
        """`std::vector<int64_t> v = {a, b};` / `v{a, b}`: its elements, read where it is declared, for a
        `ge::Shape s(v)` made from it (the srcShape a library tiling API takes); None for any other vector."""
        if not isinstance(d, A.Declarator) or not isinstance(d.init, A.InitList) or d.type.pointers:
            return None
        base = d.type.base
        if not isinstance(base, A.QualifiedName) or not base.parts[-1].template_args:
            return None
        values = [self.expr(item) for item in d.init.items]
        if not all(isinstance(v.ctype, Scalar) for v in values):
            return None
        return VectorItems(tuple(values))

    def _bind_shape_object(self, name: str, d: A.Declarator, init: Val | None, is_ref: bool) -> None:
        """`gert::Shape s;`, `gert::Shape s = *x;`, `const gert::Shape& r = *y;` in an InferShape function.

        A reference names the object it is bound to; a const copy is the value it copies; any other copy
        is an object of its own. None of them is rebound by an assignment, which copies into the object.
        """
        if is_ref:
            if init is None:
                raise Unsupported(f"reference '{name}' without an initialiser", d)
            self.bind(name, init)
            return
        if "const" in d.type.qualifiers and init is not None:
            self.bind(name, Val(HostT("shape"), self._shape_value(init, d)))
            return
        buffer = self.emit(hd.ShapeLocalOp(), d).results[0]
        buffer.name_hint = name if name.isidentifier() else None
        if init is not None:
            self.emit(hd.ShapeAssignOp(buffer, self._shape_value(init, d)), d)
        self.bind(name, Val(HostT("shape_buffer"), buffer))

    def _shape_value(self, v: Val, node: A.Node) -> SSAValue:
        """The dims a shape handle holds now, as a `!host.shape` value."""
        if unbound_shape(v):
            raise Unsupported("a gert::Shape the host lowering did not see set (a class member, or one set "
                              "under control flow) is not modelled", node)
        if handle_kind(v) == "shape":
            return self.ssa(v, node)
        if handle_kind(v) == "shape_buffer":
            return self.emit(hd.ShapeReadOp(self.ssa(v, node)), node).results[0]
        raise Unsupported(f"a gert::Shape made from {v.ctype} is not modelled", node)
