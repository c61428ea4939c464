"""Assignments and comparisons in the host lowering: writes through handles (tiling fields, workspace sizes,
shape dims and whole shapes), and handles compared (null checks, strings, shapes, StorageShapes) and
used as truth values.
"""

from __future__ import annotations

from dataclasses import replace

from xdsl.dialects import arith
from xdsl.ir import SSAValue

from ascendir.dialects import host as hd
from ascendir.lower import ctypes as C
from ascendir.lower import host_cstring, host_iterators, host_std, host_vector, host_vector_compare
from ascendir.lower.diagnostics import NOT_MODELLED, span_of
from ascendir.lower.function import Unsupported
from ascendir.lower.host_handles import (
    AttrRef,
    HandleCell,
    HostT,
    TensorRef,
    getter_pointer,
    handle_kind,
    is_host,
    unbound_shape,
)
from ascendir.lower.values import Val
from frontend import ast as A
from frontend.diagnostics import warning


def _struct_init_items(node: A.Node) -> list[A.Node] | None:
    """The items of `{...}` / `S{...}` / `S()`, or None for any other expression."""
    if isinstance(node, A.InitList):
        return list(node.items)
    if isinstance(node, A.Cast) and node.kind == "functional":
        if isinstance(node.expr, A.InitList):
            return list(node.expr.items)
        if node.expr is None and not node.args:
            return []
    return None


class HostAssignment:
    """Assignments and comparisons: methods of HostLowerer (host.py), which inherits them."""

    def expr_Assign(self, e: A.Assign) -> Val:
        if e.op == "=" and isinstance(e.value, A.InitList) and isinstance(e.target, A.Name) and \
                len(e.target.qname.parts) == 1:
            bound = self.lookup(e.target.qname.parts[0].name)  # type: ignore[attr-defined]
            if isinstance(bound, Val) and host_vector.is_vector(bound):
                # `v = {a, b};` on a std::vector of numbers: its new elements and size
                given = tuple(self.expr(i) for i in e.value.items)  # type: ignore[attr-defined]
                host_vector.assign_items(self, bound, given, e)  # type: ignore[arg-type]
                return bound
        items = _struct_init_items(e.value) if e.op == "=" else None
        if items is not None:
            target = self._tiling_target(e.target)
            if target is not None:
                self._tiling_fill(target, items, e)  # `*td = S{}`: value-initialise the whole struct
                return target
        return super().expr_Assign(e)

    def tensor_operator(self, e: A.Assign) -> Val | None:
        return None  # `a = b + c` on LocalTensors: there are none on the host

    def forget_scalar(self, name: str, node: A.Node) -> None:
        binding = self.lookup(name)  # type: ignore[attr-defined]
        if isinstance(binding, HandleCell):
            # a variable rebound while lowering, with no memory to store an unknown value in (a scalar set from a
            # handle's read): what the statement left out may have written is unknown, so a later read is reported
            binding.value = Val(HostT("poison", name))
            return
        super().forget_scalar(name, node)  # type: ignore[misc]

    def _tiling_target(self, target: A.Node) -> Val | None:
        """The tiling handle `target` (`td`, `*td`) names, found without lowering anything else."""
        if isinstance(target, A.Unary) and target.op == "*":
            target = target.operand
        if isinstance(target, A.Name) and len(target.qname.parts) == 1:
            b = self.lookup(target.qname.parts[0].name)
            v = b.value if isinstance(b, HandleCell) else b
            if isinstance(v, Val) and handle_kind(v) == "tiling":
                return v
        return None

    def assign(self, target: A.Node, value: Val, node: A.Node) -> None:
        if isinstance(target, A.Member) and not isinstance(target.obj, A.This):
            obj = self.expr(target.obj)
            if not is_host(obj.ctype):
                return super().assign(replace(target, obj=self._stand_in(obj, target.obj)), value, node)
            if handle_kind(obj) != "tiling":
                raise Unsupported(f"assigning member '{target.member}' of {obj.ctype} is not modelled", node)
            return self._tiling_set(obj, target.member, value, node)
        if isinstance(target, A.Index):
            base = self.expr(target.base)
            if not is_host(base.ctype):
                return super().assign(replace(target, base=self._stand_in(base, target.base)), value, node)
            return self._assign_element(base, self.expr(target.index), value, node)
        if isinstance(target, A.Unary) and target.op == "*":
            ptr = self.expr(target.operand)
            if not is_host(ptr.ctype):
                return super().assign(replace(target, operand=self._stand_in(ptr, target.operand)), value, node)
            if handle_kind(ptr) == "workspace":
                return self._assign_element(ptr, Val(C.I32, const=0), value, node)
            if handle_kind(ptr) == "shape_buffer":
                self.emit(hd.ShapeAssignOp(self.ssa(ptr, node), self._shape_value(value, node)), node)
                return None
            raise Unsupported(f"assigning through {ptr.ctype} is not modelled", node)
        if isinstance(target, A.Name) and len(target.qname.parts) > 1:
            # `optiling::dtype = v` (ops-nn mse_loss_v2): a namespace-scope variable named with its namespaces
            # is that variable, as it is when read (the read drops the program's namespaces the same way)
            parts = self.scope.without_namespaces(target.qname.parts)  # type: ignore[attr-defined]
            if len(parts) == 1:
                target = replace(target, qname=replace(target.qname, parts=parts))
        if isinstance(target, A.Name) and len(target.qname.parts) == 1:
            b = self.lookup(target.qname.parts[0].name)
            if isinstance(b, Val) and handle_kind(b) == "shape_buffer" and not getter_pointer(b):
                # a gert::Shape object (or a reference to one): assignment copies into it
                self.emit(hd.ShapeAssignOp(self.ssa(b, node), self._shape_value(value, node)), node)
                return None
            if isinstance(b, Val) and handle_kind(b) == "poison":
                raise Unsupported(f"'{target.qname.parts[0].name}' comes from a statement the host lowering left out",
                                  node)
        return super().assign(target, value, node)

    def _assign_element(self, base: Val, index: Val, value: Val, node: A.Node) -> None:
        if host_vector.is_vector(base):
            host_vector.write(self, base, index, value, node)
            return
        kind = handle_kind(base)
        if kind == "workspace":
            if not isinstance(index.const, int) or index.const < 0:
                raise Unsupported("workspace sizes written at a non-constant index are not modelled", node)
            count = base.obj
            if isinstance(count, int) and index.const >= count:
                self.report.add(warning(NOT_MODELLED, f"workspace index {index.const} is past the "
                                        f"{count} size(s) GetWorkspaceSizes returned", span_of(node)))
            v = self.ssa(self.convert(value, C.U64, node), node)
            self.emit(hd.SetWorkspaceOp(self._context(node), index.const, v), node)
            return
        if kind == "tiling_array":
            ref, path, arr = base.obj  # type: ignore[misc]
            self._set_field(base.ssa, ref, path, arr.elem, value, node, index)  # type: ignore[arg-type]
            return
        writable = not (getter_pointer(base) or unbound_shape(base))
        if kind == "shape_buffer" and self.shape_objects and writable:
            # `(*y)[i] = v`: operator[] writes the dims array and leaves the rank as it is, so a dim past the
            # rank is lost as with SetDim
            dim = self.ssa(self.convert(index, C.U64, node), node)
            v = self.ssa(self.convert(value, C.I64, node), node)
            self.emit(hd.ShapeSetDimOp(self.ssa(base, node), dim, v), node)
            return
        raise Unsupported(f"assigning an element of {base.ctype} is not modelled", node)

    def compare(self, op: str, a: Val, b: Val, node: A.Node, operands: tuple[A.Node, A.Node] | None = None) -> Val:
        if op in ("==", "!=") and isinstance(a.const, str) and isinstance(b.const, str) and \
                isinstance(a.ctype, C.UnknownT) and isinstance(b.ctype, C.UnknownT):
            # a std::string made from a known C string (GetNodeType()'s op type) against a literal
            return Val(C.BOOL, const=int((a.const == b.const) == (op == "==")))
        known = [v for v in (a, b) if isinstance(v.const, str) and not is_host(v.ctype) and v.ssa is None]
        if op in ("==", "!=") and known and any(host_cstring.is_null(v) for v in (a, b)):
            # a C string the lowering knows (a literal, GetCompiledJson()'s text) is never null
            return Val(C.BOOL, const=int(op == "!="))
        if op in ("==", "!=") and all(isinstance(v.ctype, C.Pointer) and v.const == 0 and v.ssa is None
                                      for v in (a, b)):
            # two null pointer constants (GetCompileInfo() of an op without compile info, against nullptr)
            return Val(C.BOOL, const=int(op == "=="))
        if is_host(a.ctype) or is_host(b.ctype):
            return self._host_compare(op, a, b, node)
        return super().compare(op, a, b, node, operands)

    def to_bool(self, v: Val, node: A.Node) -> Val:
        if host_cstring.is_cstring(v):
            return host_cstring.compare(self, "!=", v, Val(C.Pointer(C.VoidT()), const=0), node)
        if is_host(v.ctype):
            return self._host_compare("!=", v, Val(C.Pointer(C.VoidT()), const=0), node)
        return super().to_bool(v, node)

    def _host_compare(self, op: str, a: Val, b: Val, node: A.Node) -> Val:
        if host_cstring.is_cstring(a) or host_cstring.is_cstring(b):
            return host_cstring.compare(self, op, a, b, node)  # `lhs == nullptr` of a C string
        positions = host_iterators.compare(self, op, a, b, node)  # `it != v.end()`, `it < last`
        if positions is not None:
            return positions
        if op not in ("==", "!="):
            raise Unsupported(f"operator '{op}' on {a.ctype} and {b.ctype}", node)
        handle, other = (a, b) if is_host(a.ctype) else (b, a)
        held = host_vector_compare.compare(self, op, a, b, node)  # `perm == std::vector<int64_t>{0, 2, 1}`
        if held is not None:
            return held
        if host_std.is_model(a) or host_std.is_model(b):
            return host_std.compare(self, op, a, b, node)
        if handle_kind(handle) == "string" and isinstance(other.const, str) and not is_host(other.ctype):
            text = self.ssa(handle, node)
            if not isinstance(text.type, hd.StringType):
                # a std::string the lowering could not follow (a member of a struct whose type it could not
                # resolve reads as an undefined value): comparing that would be invalid IR, so it is a gap here
                raise Unsupported("comparing a std::string whose value the host lowering does not hold", node)
            eq = Val(C.BOOL, self.emit(hd.StrEqOp(text, other.const), node).results[0])
            return eq if op == "==" else self._not(eq, node)
        if handle_kind(handle) == "attr_ptr" and isinstance(other.const, str):
            raise Unsupported("comparing a 'const char*' attribute with a string literal compares addresses; "
                              "use strcmp or std::string", node)
        if self.shape_objects and handle_kind(a) in ("shape", "shape_buffer") and handle_kind(b) in ("shape", "shape_buffer") \
                and not (getter_pointer(a) or getter_pointer(b)):
            eq = Val(C.BOOL, self.emit(hd.ShapeEqOp(self._shape_value(a, node), self._shape_value(b, node)),
                                       node).results[0])
            return eq if op == "==" else self._not(eq, node)
        if handle_kind(a) == handle_kind(b) == "storage_shape" and isinstance(a.obj, TensorRef) and isinstance(b.obj, TensorRef):
            # gert::StorageShape::operator==: the origin shapes and the storage shapes both equal
            eqs = [self.emit(hd.ShapeEqOp(self._ref_shape(a.obj, kind, node), self._ref_shape(b.obj, kind, node)),
                             node).results[0] for kind in (hd.ShapeKind.ORIGIN, hd.ShapeKind.STORAGE)]
            eq = Val(C.BOOL, self.emit(arith.AndIOp(*eqs), node).results[0])
            return eq if op == "==" else self._not(eq, node)
        if is_host(other.ctype) or not (other.const == 0 and other.ssa is None):
            raise Unsupported(f"comparing {a.ctype} with {b.ctype} is not modelled", node)
        present = self._present(handle, node)
        return present if op == "!=" else self._not(present, node)

    def _ref_shape(self, ref: TensorRef, kind: hd.ShapeKind, node: A.Node) -> SSAValue:
        """The origin or storage shape of the tensor `ref` stands for, as a `!host.shape` value."""
        ctx = self._context(node)
        op = (hd.OutputShapeOp(ctx, ref.index, kind, at=ref.at) if ref.output
              else hd.InputShapeOp(ctx, ref.index, kind, at=ref.at))
        return self.emit(op, node).results[0]

    def _not(self, v: Val, node: A.Node) -> Val:
        if v.const is not None:
            return Val(C.BOOL, const=int(not v.const))
        return Val(C.BOOL, self.emit(arith.XOrIOp(self.ssa(v, node), self.const_ssa(1, C.BOOL, node)), node).results[0])

    def _present(self, h: Val, node: A.Node) -> Val:
        """Whether handle `h` is non-null: optional inputs and attributes may be absent, the rest never."""
        kind = handle_kind(h)
        optional = isinstance(h.obj, TensorRef) and h.obj.optional
        if kind in ("storage_shape", "tensor", "desc", "shape") and optional:
            has = hd.HasInputOp(self._context(node), h.obj.index, at=h.obj.at)
            return Val(C.BOOL, self.emit(has, node).results[0])
        if kind == "attr_ptr" and isinstance(h.obj, AttrRef):
            return Val(C.BOOL, self.emit(hd.HasAttrOp(self._context(node), h.obj.index, at=h.obj.at), node).results[0])
        if kind in ("poison", "unmodelled", "opaque"):
            raise Unsupported(f"{h.ctype} is not modelled by the host lowering", node)
        if kind == "context" and h.ssa is None:
            return Val(C.BOOL, const=0)  # a null handle member never assigned
        return Val(C.BOOL, const=1)
