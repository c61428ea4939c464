"""Expressions on handles in the host lowering: members and indexing of handles, `*` / `&` / `!`,
short-circuit `&&` / `||` and `?:` whose other side may fail when it runs, `std::cout << ...`, and casts
and braced lists that construct a handle (gert::Shape, PlatformAscendC, std::string, a matmul tiling object).

Separate from the device expressions it falls back to: a sub-expression already lowered is handed to the
base as a stand-in name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from xdsl.dialects import scf
from xdsl.ir import Block, Region, SSAValue

from ascendir.dialects import ascendc as asc
from ascendir.dialects import host as hd
from ascendir.lower import array_pointer, namespace_lookup
from ascendir.lower import ctypes as C
from ascendir.lower import host_init_list, host_iterators, host_std, host_tensor_data, host_vector, \
    host_vector_compare, host_vector_table
from ascendir.lower import host_cstring, host_json, host_streams
from ascendir.lower.ctypes import CType, Scalar
from ascendir.lower.function import Unsupported
from ascendir.lower.astwalk import walk
from ascendir.lower.host_handles import (
    AttrRef,
    HandleCell,
    HostT,
    VectorItems,
    getter_pointer,
    handle_kind,
    is_host,
)
from ascendir.lower.values import Cell, Instance, Val
from frontend import ast as A


# The standard streams: what is written to them changes no tiling value (`std::cout << ... << std::endl;`).
_STREAMS = {"cout", "cerr", "clog"}


def _name_node(node: A.Node, name: str) -> A.Name:
    span = node.span
    return A.Name(span, A.QualifiedName(span, [A.NamePart(span, name)]))


def _c_string(v: Val) -> bool:
    """Whether `*v` / `v[i]` reads a character: a C string, a string attribute's pointer or a literal."""
    return host_cstring.is_cstring(v) or isinstance(v.obj, AttrRef) and v.obj.kind == "str" or \
        isinstance(v.const, str) and not is_host(v.ctype) and v.ssa is None


def _speculation_unsafe(node: A.Node) -> bool:
    """Whether evaluating `node` where C++ would not could fail when the tiling function runs: a call
    (`GetDim(k)` past the rank), a dereference (of an attribute pointer that may be null), a division
    (`b == 0 ? 0 : a / b`), an index, or a `std::string(p)` construction."""
    for n in walk(node):
        if isinstance(n, A.Call | A.Index | A.Assign | A.IncDec):
            return True
        if isinstance(n, A.Unary) and n.op == "*" or isinstance(n, A.Binary) and n.op in ("/", "%"):
            return True
        if isinstance(n, A.Cast) and isinstance(n.type.base, A.QualifiedName) and n.type.base.parts[-1].name == "string":
            return True
    return False


class HostExpressions:
    """Expressions on handles: methods of HostLowerer (host.py), which inherits them."""

    def _stand_in(self, v: Val, node: A.Node) -> A.Node:
        """A name bound to the already lowered `v`, so the base lowering does not lower `node` again."""
        if isinstance(node, A.This):
            return node
        self._temps += 1
        tmp = f"__host_tmp{self._temps}"
        self.bind(tmp, v.obj if isinstance(v.obj, Instance) else v)
        return _name_node(node, tmp)

    def expr_SizeOf(self, e: A.SizeOf) -> Val:
        if isinstance(e.operand, A.TypeRef) and not e.operand.pointers:
            t = self.resolve_type(e.operand)
            if isinstance(t, HostT) and t.kind in ("shape", "shape_buffer"):
                # gert::Shape is `size_t dim_num_; int64_t dims_[kMaxDimNum];` (ops-math is_finite's tiling,
                # a template over the shape type, sizes its blocks with sizeof(T) of a gert::Shape)
                return Val(C.U64, const=8 + 8 * hd.MAX_DIM_NUM)
        return super().expr_SizeOf(e)  # type: ignore[misc]

    def expr_Member(self, e: A.Member) -> Val:
        if isinstance(e.obj, A.This):
            return super().expr_Member(e)
        obj = self.expr(e.obj)
        if is_host(obj.ctype):
            return self._handle_member(obj, e.member, e)
        return super().expr_Member(replace(e, obj=self._stand_in(obj, e.obj)))

    def expr_Index(self, e: A.Index) -> Val:
        base = self.expr(e.base)
        if _c_string(base):
            # `p[i]` of a `const char*`: a character
            return host_cstring.char_at(self, host_cstring.make(self, base, e), self.expr(e.index), e)
        if not is_host(base.ctype):
            return super().expr_Index(replace(e, base=self._stand_in(base, e.base)))
        kind = handle_kind(base)
        if isinstance(base.obj, host_std.ConstSeq):
            return host_vector_table.seq_index(self, base, self.expr(e.index), e)  # `CALC_M_BASIC[i]`
        if host_std.is_model(base):
            return host_std.index(self, base, self.expr(e.index), e)
        if host_vector_table.is_table(base):
            return host_vector_table.row(self, base, self.expr(e.index), e)  # `t[i]`: a row view
        if host_vector.is_vector(base):
            return host_vector.read(self, base, self.expr(e.index), e)
        if kind == "tiling_array":
            return self._tiling_get(base, self.expr(e.index), e)
        if kind == "workspace":
            return self._workspace_size(self.expr(e.index), e)  # `workspaces[0] += n`: the size written before
        if kind == "json":
            return host_json.element(self, base, self.expr(e.index), e)  # `(*info)["_pattern"]`
        if kind == "list_data":  # an int64 element, or a float's bits as the float (host_tensor_data.py)
            return host_tensor_data.element(self, base, self.expr(e.index), e)
        if kind in ("shape", "shape_buffer") and self.shape_objects and not getter_pointer(base):
            # `shape[i]` / `(*x)[i]`: gert::Shape::operator[], GetDim without its range check
            pos = self.ssa(self.convert(self.expr(e.index), C.U64, e), e)
            return Val(C.I64, self.emit(hd.ShapeDimOp(self._shape_value(base, e), pos), e).results[0])
        raise Unsupported(f"reading an element of {base.ctype} is not modelled", e)

    def _workspace_size(self, index: Val, node: A.Node) -> Val:
        if not isinstance(index.const, int) or index.const < 0:
            raise Unsupported("workspace sizes read at a non-constant index are not modelled", node)
        return Val(C.U64, self.emit(hd.WorkspaceGetOp(self._context(node), index.const), node).results[0])

    def expr_Unary(self, e: A.Unary) -> Val:
        if e.op not in ("*", "&", "!"):
            return super().expr_Unary(e)
        if e.op == "&" and (view := array_pointer.element_address(self, e)) is not None:
            return view  # `&shape[k * 64]`: a pointer into a local array, not the element's value
        v = self.expr(e.operand)
        if e.op == "*" and _c_string(v):
            # `*lhs` of a `const char*` (a C string walked character by character): its first character
            return host_cstring.char_at(self, host_cstring.make(self, v, e), Val(C.I64, const=0), e)
        if not is_host(v.ctype):
            return super().expr_Unary(replace(e, operand=self._stand_in(v, e.operand)))
        if e.op == "&":
            return v
        if e.op == "*" and host_iterators.is_position(v):
            return host_iterators.deref(self, v, e)  # `*it` of a std::vector iterator: the element
        if e.op == "*" and (key := host_std.deref(v)) is not None:
            return key  # `*s.find(k)` of a std::set: the key
        if e.op == "*" and getter_pointer(v):
            # `*context->GetInputShape(i)`: the object, which is no longer null-checked or rebound
            return Val(v.ctype, self.ssa(v, e))
        if e.op == "!":
            return self._host_compare("==", v, Val(C.Pointer(C.VoidT()), const=0), e)
        if handle_kind(v) == "attr_ptr":
            return self._attr_value(v.obj, e)  # type: ignore[arg-type]
        if handle_kind(v) in ("workspace", "list_data"):
            return self.expr_Index(A.Index(e.span, e.operand, A.IntLit(e.span, "0", 0)))
        return v  # `*handle` is the object the handle points to: the same handle

    def arith(self, op: str, a: Val, b: Val, node: A.Node, operands: tuple[A.Node, A.Node] | None = None) -> Val:
        if op in ("+", "-") and (host_iterators.is_position(a) or host_iterators.is_position(b)):
            return host_iterators.step(self, op, a, b, node)  # `v.begin() + 1`, `it - v.begin()`
        if host_cstring.is_cstring(a) or host_cstring.is_cstring(b):
            return host_cstring.advance(self, op, a, b, node)  # `++lhs`, `p + 1` of a C string
        return super().arith(op, a, b, node, operands)  # type: ignore[misc]

    def expr_Binary(self, e: A.Binary) -> Val:
        if e.op == "<<" and self._stream_output(e):
            return self._print(e)
        member = host_init_list.membership(self, e) if e.op in ("==", "!=") else None  # type: ignore[arg-type]
        if member is not None:
            return member
        if e.op not in ("&&", "||") or not _speculation_unsafe(e.rhs):
            return super().expr_Binary(e)
        # `p != nullptr && *p > 0`, `n != 0 && t / n > 4`: the right side runs only when it decides.
        # It is lowered into a detached block first, so a failure leaves no half-built scf.if behind.
        lhs = self.to_bool(self.expr(e.lhs), e)
        if lhs.const is not None:
            if (e.op == "&&") != bool(lhs.const):
                return Val(C.BOOL, const=lhs.const)
            return self.to_bool(self.expr(e.rhs), e)
        evaluate, skip = Block(), Block()
        with self.at_end_of(evaluate):
            rhs = self.to_bool(self.expr(e.rhs), e)
            self.emit(scf.YieldOp(self.ssa(rhs, e)), e)
        with self.at_end_of(skip):
            self.emit(scf.YieldOp(self.const_ssa(int(e.op == "||"), C.BOOL, e)), e)
        regions = (Region(evaluate), Region(skip)) if e.op == "&&" else (Region(skip), Region(evaluate))
        if_op = scf.IfOp(self.ssa(lhs, e), [C.scalar_ir_type(C.BOOL)], *regions)
        return Val(C.BOOL, self.emit(if_op, e).results[0])

    def _stream_output(self, e: A.Binary) -> bool:
        """Whether `e` is `std::cout << a << b ...` (or cerr / clog): the left end of its `<<` chain is a
        standard stream the program does not declare itself."""
        left: A.Node = e
        while isinstance(left, A.Binary) and left.op == "<<":
            left = left.lhs
        if not isinstance(left, A.Name):
            return False
        parts = [p.name for p in left.qname.parts]
        if len(parts) == 1 and host_streams.is_stream(self.lookup(parts[0])):
            return True  # `info << ...` into a local std::ostringstream
        if parts[-1] not in _STREAMS or not (len(parts) == 1 or parts[:-1] == ["std"]):
            return False
        return len(parts) > 1 or self.lookup(parts[0]) is None and not namespace_lookup.declares(self.scope, parts[0])

    def _print(self, e: A.Binary) -> Val:
        """`std::cout << ...` prints and changes no tiling value: only operands with effects of their own
        (`n++`, an assignment, a call of the program's functions) are lowered, in order."""
        items: list[A.Node] = []
        node: A.Node = e
        while isinstance(node, A.Binary) and node.op == "<<":
            items.append(node.rhs)
            node = node.lhs
        for item in reversed(items):
            if any(isinstance(n, A.Assign | A.IncDec) or isinstance(n, A.Call) and isinstance(n.callee, A.Name)
                   and n.callee.qname.parts[-1].name in self.scope.functions for n in walk(item)):
                self.expr(item)
        return Val(HostT("stream"))

    def expr_Conditional(self, e: A.Conditional, expected: CType | None = None) -> Val:
        if not (_speculation_unsafe(e.then) or _speculation_unsafe(e.otherwise)):
            return super().expr_Conditional(e, expected)
        # `p == nullptr ? dflt : *p`, `b == 0 ? 0 : a / b`: each branch runs only when chosen. Both are
        # lowered into detached blocks first, so the scf.if can take their common C type (no probe
        # evaluation that would leave failing host queries behind).
        cond = self.to_bool(self.expr(e.cond), e)
        if cond.const is not None:
            return self.expr(e.then if cond.const else e.otherwise)
        blocks = [Block(), Block()]
        values: list[Val] = []
        for block, branch in zip(blocks, (e.then, e.otherwise)):
            with self.at_end_of(block):
                values.append(self.expr(branch))
        a, b = values[0].ctype, values[1].ctype
        if isinstance(a, HostT) and a == b and all(v.ssa is not None and v.obj is None for v in values):
            # `quant ? shape->GetOriginShape() : shape->GetStorageShape()` (ops-nn transpose_batch_mat_mul): two
            # handles of one kind, each a value of the host IR, chosen when the tiling runs
            for block, v in zip(blocks, values):
                with self.at_end_of(block):
                    self.emit(scf.YieldOp(v.ssa), e)  # type: ignore[arg-type]
            handle_type = values[0].ssa.type  # type: ignore[union-attr]
            if_op = scf.IfOp(self.ssa(cond, e), [handle_type], Region(blocks[0]), Region(blocks[1]))
            return Val(a, self.emit(if_op, e).results[0])
        if not (isinstance(a, Scalar) and isinstance(b, Scalar)):
            raise Unsupported(f"a conditional choosing between {a} and {b} is not modelled", e)
        t = C.common_type(a, b)
        for block, v in zip(blocks, values):
            with self.at_end_of(block):
                self.emit(scf.YieldOp(self.ssa(self.convert(v, t, e), e)), e)
        if_op = scf.IfOp(self.ssa(cond, e), [C.ir_type(t)], Region(blocks[0]), Region(blocks[1]))
        return Val(t, self.emit(if_op, e).results[0])

    def expr_Cast(self, e: A.Cast) -> Val:
        t = self.resolve_type(e.type)
        if isinstance(t, HostT):
            items = list(e.args) if e.args else [e.expr] if e.expr is not None else []
            if isinstance(e.expr, A.InitList):
                items = list(e.expr.items)
            return self._construct(t, items, e)
        made = self._temporary_from_handle(e, t)
        return made if made is not None else super().expr_Cast(e)

    def _temporary_from_handle(self, e: A.Cast, t: CType) -> Val | None:
        """`Tiling(context).DoTiling()` (ops-nn transpose_batch_mat_mul): a functional cast of a runtime handle to
        a class of the program is a temporary that class's constructor makes from it, as C++ reads `T(x)` for a
        class T. The device lowering takes a cast of an argument that is no scalar as that argument itself (a
        tensor passed on), which would make the handle the object and its class's methods the handle's."""
        if e.kind != "functional" or not isinstance(t, C.ClassT) or t.name not in self.scope.classes:
            return None
        items = list(e.args) if e.args else [e.expr] if e.expr is not None else []
        if len(items) != 1 or isinstance(items[0], A.InitList):
            return None
        info = self.scope.classes[t.name]
        if not any(c.params for c in info.constructors):
            return None
        v = self.expr(items[0])
        if is_host(v.ctype):
            return Val(t, obj=self.instantiate(t, "", e, [v]))
        stand_in = self._stand_in(v, items[0])  # (not lowered twice)
        return super().expr_Cast(replace(e, expr=stand_in, args=[stand_in] if e.args else e.args))

    def init_list(self, t: CType, items: Sequence[A.Node], node: A.Node) -> Val:
        if isinstance(t, HostT):
            return self._construct(t, items, node)
        if isinstance(t, C.TilingT):
            local = self._tiling_local(t.name, node)
            self._tiling_fill(local, items, node)
            return local
        if isinstance(t, C.ClassT):
            info = self.scope.classes.get(t.name)
            if info is not None and info.is_plain_struct and not info.constructors:
                return self._aggregate(t, info.fields, items, node)
        return super().init_list(t, items, node)

    def _aggregate(self, t: C.ClassT, fields: list[tuple[A.VarDecl, A.Declarator]], items: Sequence[A.Node],
                   node: A.Node) -> Val:
        """`S s{a, b}` / `s = {a, b}` of a plain struct: members in order, the rest value-initialised."""
        inst = self.instantiate(t, "", node)
        for i, (_, d) in enumerate(fields):
            member = inst.members.get(d.name)
            if not isinstance(member, Cell) or isinstance(member, HandleCell):
                continue
            if i < len(items):
                self.store(member, self.expr(items[i]), node)
            elif d.init is None and not d.ctor_args and isinstance(member.ctype, Scalar):
                self.store(member, Val(member.ctype, const=0), node)
        return Val(t, obj=inst)

    def _construct(self, t: HostT, items: Sequence[A.Node], node: A.Node) -> Val:
        if t.kind == "unmodelled" and t.detail == "vector" and \
                (vec := host_vector_compare.construct(self, list(items), node)) is not None:
            return vec  # `std::vector<int64_t>{0, 2, 1}`: a temporary
        if t.kind == "unmodelled" and t.detail in host_std.MAP_TYPES:
            return host_std.make_map(self, t, items, node)
        if t.kind == "unmodelled" and t.detail in host_std.SET_TYPES:
            return host_std.make_set(self, t, items, node)
        if t.kind in ("shape", "shape_buffer") and self.shape_objects:
            return self._make_shape(items, node)
        if t.kind == "platform":
            if len(items) != 1:
                raise Unsupported("PlatformAscendC takes the context's platform info", node)
            info = self.expr(items[0])
            if handle_kind(info) != "platform_info":
                raise Unsupported("PlatformAscendC is built from context->GetPlatformInfo() only", node)
            return self._platform(node)
        if t.kind == "string" and len(items) == 1:
            return self._as_string(self.expr(items[0]), node)
        if t.kind == "matmul_tiling" and len(items) <= 1:
            platform = self.expr(items[0]) if items else None
            if platform is not None and handle_kind(platform) != "platform":
                raise Unsupported(f"{t} built from {platform.ctype} is not modelled", node)
            multi_core = t.detail == "MultiCoreMatmulTiling"
            op = hd.MatmulCreateOp(self.ssa(platform, node) if platform is not None else None, multi_core)
            return Val(t, self.emit(op, node).results[0])
        raise Unsupported(f"constructing {t} is not modelled by the host lowering", node)

    def _make_shape(self, items: Sequence[A.Node], node: A.Node) -> Val:
        """`gert::Shape({a, b})`, `{a, b}` assigned to a shape, or a copy `gert::Shape(*x)`."""
        if len(items) == 1 and isinstance(items[0], A.InitList):
            items = items[0].items
        values = [self.expr(item) for item in items]
        if len(values) == 1 and handle_kind(values[0]) in ("shape", "shape_buffer"):
            return Val(HostT("shape"), self._shape_value(values[0], node))  # the copy constructor
        if len(values) == 1 and isinstance(values[0].obj, VectorItems):
            values = list(values[0].obj.values)  # ge::Shape(const std::vector<int64_t> &dims)
        if len(values) == 1 and host_vector.is_vector(values[0]):
            # the same constructor on a vector held at run time (one assigned after its declaration)
            return Val(HostT("shape"), host_vector.shape_of(self, values[0], node))
        dims: list[SSAValue] = []
        for v in values:
            if not isinstance(v.ctype, Scalar):
                raise Unsupported(f"a gert::Shape dim of type {v.ctype} is not modelled", node)
            dims.append(self.ssa(self.convert(v, C.I64, node), node))
        return Val(HostT("shape"), self.emit(hd.MakeShapeOp(dims), node).results[0])

    def _as_string(self, v: Val, node: A.Node) -> Val:
        if host_cstring.is_cstring(v):
            return Val(HostT("string"), self.ssa(v, node))  # `std::string(p)`: the text from where p points
        if handle_kind(v) == "attr_ptr" and isinstance(v.obj, AttrRef) and v.obj.kind == "str":
            return self._attr_value(v.obj, node)
        if handle_kind(v) == "string" or (isinstance(v.const, str) and isinstance(v.ctype, C.UnknownT)):
            return v
        if handle_kind(v) == "node_name":
            # `std::string(context->GetNodeName())`, kept for log messages (ops-nn swi_glu's tiling calculator
            # holds it in a member `opName_`): a string whose text only the framework knows, left out
            # (ascendc.undef), so that only a use of its text stops the run, not the object that holds it
            undef = self.emit(asc.UndefOp.create(result_types=[hd.StringType()]), node)
            return Val(HostT("string"), undef.results[0])
        raise Unsupported(f"a string made from {v.ctype} is not modelled", node)
