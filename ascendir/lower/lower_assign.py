"""Assignments in the function lowering: `=` and compound assignments to scalars, cells, array elements,
members and objects, `++` / `--`, LocalTensor operators (`dst = a + b`, `mask = a < b`), and a user
class's `operator[]` / `operator()` as an assignment target.

Separate because a write is where the lowering decides what stays an SSA value and what goes to a cell.
"""

from __future__ import annotations

from xdsl.dialects import memref
from xdsl.dialects.builtin import UNKNOWN_LOC, StringAttr

from ascendir.dialects import ascendc as asc
from ascendir.lower import ctypes as C, array_pointer, list_tensor, register_api
from ascendir.lower import aggregates, block_local, code_pointer, object_layout, ub_pointer, unions
from ascendir.lower.ctypes import Scalar
from ascendir.lower.errors import Unsupported
from ascendir.lower.header_names import COMPARE_MODES, TENSOR_OPERATORS
from ascendir.lower.values import Cell, Instance, Val
from frontend import ast as A


def _calls_user_operator(target: A.Node) -> bool:
    """An assignment target that may be a user operator's reference result: `x[i]`, `x.operator[](i)`."""
    if isinstance(target, A.Index):
        return True
    return (isinstance(target, A.Call) and isinstance(target.callee, A.Member)
            and target.callee.member.startswith("operator"))


def _calls_method(target: A.Node) -> bool:
    """An assignment target that may be an accessor's reference result: `problemShape.m() = n` (catlass's
    GemmCoord::m() returns `this->At(M_INDEX)`, a reference to an element of what the object holds)."""
    return isinstance(target, A.Call) and isinstance(target.callee, A.Member)


class AssignmentLowering:
    """Assignments: methods of FunctionLowerer (function.py), which inherits them."""

    def expr_Assign(self, e: A.Assign) -> Val:
        if e.op == "=" and isinstance(e.value, A.Binary | A.Unary) and not isinstance(e.value, A.Unary) or (
                e.op != "=" and e.op[:-1] in TENSOR_OPERATORS):
            lowered = self.tensor_operator(e)
            if lowered is not None:
                return lowered
        if isinstance(e.value, A.InitList):
            mark = self._mark()
            current = self.expr(e.target)  # (for its type: what reading it emitted goes again, as in const_eval)
            self._rollback(mark)
            if e.op == "=" and self._assign_member_fields(e.target, current.ctype, e.value, e):
                return current
            value = self.init_list(current.ctype, e.value.items, e)
        else:
            value = self.expr(e.value)
        if e.op != "=":
            current = self.expr(e.target)
            value = self.arith(e.op[:-1], current, value, e)
        self.assign(e.target, value, e)
        return value

    def _assign_member_fields(self, target: A.Node, ctype: object, items: A.InitList, node: A.Node) -> bool:
        """`params.paramsIn = {rows, bytes, 0, 0, 0}`, a catalogued struct member (DataCopyExtParams) of a program
        struct: field by field, as `params.paramsIn.blockCount = rows; ...` (the program struct keeps its nested
        fields by path); fields the list leaves out get their defaults, as the temporary it builds has them."""
        if not isinstance(target, A.Member) or not isinstance(ctype, C.TilingT) or not ctype.path:
            return False
        member = self.tiling_field_type(ctype.name, ctype.path)  # the member's own type, by its path
        if not isinstance(member, C.TilingT) or member.name in self.scope.tiling_structs:
            return False
        ctype = member
        names = list(self.catalog.struct_fields(ctype.name) or [])  # type: ignore[attr-defined]
        values = self.expand_packs(items.items, node)
        if not names or len(values) > len(names) or any(isinstance(i, A.DesignatedInit | A.InitList)
                                                        for i in values):
            return False
        found = self.catalog.catalog.struct(ctype.name)  # type: ignore[attr-defined]
        for i, name in enumerate(names):
            if i < len(values):
                value = self.expr(values[i])
            else:
                field = found.field(name) if found is not None else None
                text = (field.default or "0") if field is not None else "0"
                value = Val(C.U32, const=int(text) if text.isdigit() else 0)
            self.assign(A.Member(node.span, target, name, False), value, node)
        return True

    def tensor_operator(self, e: A.Assign) -> Val | None:
        """`dst = a + b` (and `dst += b`) on LocalTensors: the API the operator stands for, over all of dst;
        `mask = a < b`: Compare over all of a (kernel_operator_symbol_override_impl.h)."""
        if e.op == "=" and isinstance(e.value, A.Binary) and e.value.op in COMPARE_MODES:
            return self._tensor_comparison(e, e.value)
        if e.op == "=":
            if not isinstance(e.value, A.Binary) or e.value.op not in TENSOR_OPERATORS:
                return None
            op, lhs_node, rhs_node = e.value.op, e.value.lhs, e.value.rhs
        else:
            op, lhs_node, rhs_node = e.op[:-1], e.target, e.value
        mark = self._mark()
        dst = self.expr(e.target)
        if not isinstance(dst.ctype, C.LocalTensorT):
            self._rollback(mark)
            return None
        a, b = self.expr(lhs_node), self.expr(rhs_node)
        if not isinstance(a.ctype, C.LocalTensorT) or not isinstance(b.ctype, C.LocalTensorT):
            raise Unsupported(f"operator '{op}' between a tensor and a scalar", e)
        api = self.catalog.operator_api(op)
        size_api = "GetSize"
        size = self.emit(asc.LocalTensorCallOp(size_api, [self.ssa(dst, e)], overload=self.catalog.first_overload(
            size_api, "LocalTensor"), result_type=C.scalar_ir_type(C.U32)), e).results[0]
        count = self.convert(Val(C.U32, size), C.I32, e)
        call = asc.VecBinaryOp(api, [self.ssa(dst, e), self.ssa(a, e), self.ssa(b, e), self.ssa(count, e)],
                               overload="count")
        self.emit(call, e)
        return dst

    def _tensor_comparison(self, e: A.Assign, cmp: A.Binary) -> Val | None:
        mark = self._mark()
        operands = [self.expr(n) for n in (e.target, cmp.lhs, cmp.rhs)]
        self._rollback(mark)
        if not all(isinstance(v.ctype, C.LocalTensorT) for v in operands):
            return None
        from ascendir.lower.calls import lower_call

        def name(*parts: str) -> A.Name:
            return A.Name(e.span, A.QualifiedName(e.span, [A.NamePart(e.span, p) for p in parts]))

        size = A.Call(e.span, A.Member(e.span, cmp.lhs, "GetSize", False), [])
        call = A.Call(e.span, name("AscendC", "Compare"),
                      [e.target, cmp.lhs, cmp.rhs, name("AscendC", "CMPMODE", COMPARE_MODES[cmp.op]), size])
        lower_call(self, call, None)
        return self.expr(e.target)

    def _tensor_member(self, ctype: object, field_name: str) -> bool:
        """True when the catalogued struct `ctype` (`MrgSortSrcList<float>`) declares `field_name` a LocalTensor."""
        found = self.catalog.struct_field_type(str(ctype).split("<", 1)[0], field_name)  # type: ignore[attr-defined]
        return bool(found) and str(found).startswith("LocalTensor")

    def assign(self, target: A.Node, value: Val, node: A.Node) -> None:
        if list_tensor.assign(self, target, value, node):
            return
        if register_api.assign(self, target, value, node):  # `mask = UpdateMask<T>(n)`: into mask's register
            return
        if isinstance(target, A.Name) and (len(target.qname.parts) == 1 or len(
                self.scope.without_namespaces(target.qname.parts)) == 1):
            # (`Ns::procNum = 0`: a namespace's variable, which only a block-local one is here: block_local.py)
            name = target.qname.parts[-1].name
            b = self.lookup(name) if len(target.qname.parts) == 1 else \
                block_local.binding(self, name, [p.name for p in target.qname.parts[:-1]])
            if isinstance(b, Cell):
                self.store(b, value, node)
                return
            if isinstance(b, Instance) and isinstance(value.obj, Instance):
                self._copy_instance(b, value.obj, node)
                return
            if isinstance(b, Instance) and isinstance(value.ctype, C.TilingT) and value.ssa is not None:
                aggregates.assign_struct(self, b, value, node)  # `p = td;`: every field, arrays included
                return
            if isinstance(b, Val) and isinstance(b.obj, unions.UnionObject) and \
                    isinstance(value.obj, unions.UnionObject):
                unions.copy_into(self, b.obj, value.obj, node)  # `b = a;` of unions: the bytes (unions.py)
                return
            if b is not None:
                raise Unsupported(f"assignment to '{name}', which is not a variable", node)
        if isinstance(target, A.Name) and len(target.qname.parts) > 1 and self.frames and self.frame.this is not None:
            # `Base::Base::blockIdx = v` (Base an alias of a base class): the member of this object's base part,
            # whose members are the whole object's
            member = self.frame.this.members.get(target.qname.parts[-1].name)
            if isinstance(member, Cell):
                self.store(member, value, node)
                return
        if isinstance(target, A.Member):
            owner: Instance | None = None
            if isinstance(target.obj, A.This):
                owner = self.frame.this
            else:
                obj = self.expr(target.obj)
                if isinstance(obj.obj, unions.UnionObject):
                    unions.write(self, obj.obj, target.member, value, node)  # `c.f = x`: its bits (unions.py)
                    return
                if isinstance(obj.obj, Instance):
                    owner = obj.obj
                elif code_pointer.is_pointer(obj):  # `ptr->acc = v` with `Kernel *ptr = this`
                    owner = code_pointer.object_at(self, obj, node)
                elif isinstance(obj.obj, Cell) and isinstance(obj.ctype, C.StructT | C.TilingT | C.ObjectT):
                    struct = self.ssa(obj, node)  # the root struct: a nested one's field is named by its path
                    path = f"{obj.ctype.path}.{target.member}" if isinstance(obj.ctype, C.TilingT) and obj.ctype.path \
                        else target.member  # (`p.inParam.blockLen = n` on a struct cell: "inParam.blockLen")
                    ftype = self.tiling_field_type(obj.ctype.name, path) if isinstance(obj.ctype, C.TilingT) else None
                    if ftype is None and isinstance(value.ctype, C.LocalTensorT) and self._tensor_member(obj.ctype, path):
                        v = self.ssa(value, node)  # `srcList.src1 = sorted[i * 64]`: a tensor member takes the tensor
                    else:
                        scalar = ftype if isinstance(ftype, Scalar) else self._struct_field_type(str(obj.ctype),
                                                                                                 target.member)
                        v = self.ssa(self.convert(value, scalar, node), node)
                    op = asc.StructSetOp.create(operands=[struct, v], properties={"field": StringAttr(path)},
                                                result_types=[struct.type])
                    self.emit(memref.StoreOp.create(operands=[self.emit(op, node).results[0], obj.obj.ref],
                                                    location=UNKNOWN_LOC), node)  # as store_element builds it
                    return
            if owner is not None:
                member = owner.member(target.member)
                if isinstance(member, Cell):
                    self.store(member, value, node)
                    return
                if isinstance(member, Instance) and isinstance(value.obj, Instance):
                    self._copy_instance(member, value.obj, node)
                    return
                if isinstance(member, Instance) and isinstance(value.ctype, C.TilingT) and value.ssa is not None:
                    aggregates.assign_struct(self, member, value, node)  # `this->tiling = *tilingPtr;`
                    return
                raise Unsupported(f"assignment to member '{target.member}'", node)
        if isinstance(target, A.Call) and len(target.args) == 1 and isinstance(target.callee, A.Name | A.Member) \
                and not _calls_user_operator(target):
            # `xLocal(i) = v` / `this->reduceRes(0) = v`: a tensor's operator() as SetValue writes it
            tensor = self.expr(target.callee)
            if isinstance(tensor.ctype, C.LocalTensorT | C.GlobalTensorT):
                self.set_tensor_element(tensor, self.expr(target.args[0]), value, node)
                return
        if isinstance(target, A.Unary) and target.op == "*" and array_pointer.is_pointer_operand(
                self.expr(target.operand)):
            target = A.Index(target.span, target.operand, A.IntLit(target.span, "0", 0))  # `*(calNum + i) = n`
        if isinstance(target, A.Index) and code_pointer.assign_element(self, target, value, node):
            return  # `funcList[stageId] = {this, stageId}`: the element the index selects (code_pointer.py)
        if isinstance(target, A.Index) and (viewed := object_layout.reinterpreted_array(self, target.base)):
            # `reinterpret_cast<uint64_t *>(problemShapeList)[i] = word`: the objects' bytes (object_layout.py)
            object_layout.store_word(self, viewed[0], viewed[1], self.expr(target.index), value, node)
            return
        if isinstance(target, A.Index):
            base = self.expr(target.base)
            if isinstance(base.ctype, C.ArrayT):
                found = self.array_element(base, self.expr(target.index), node)
                if found is not None and not isinstance(found[2], C.ArrayT):
                    cell, indices, elem = found
                    v = self.convert(value, elem, node)
                    self.store_element(self.ssa(v, node), cell.ref, indices, node)
                    return
            if ub_pointer.is_ub_pointer(base.ctype):
                ub_pointer.store(self, base, self.expr(target.index), value, node)  # `dst[idx] = v`, `__ubuf__`
                return
            if isinstance(base.ctype, C.Pointer) and base.ctype.gm:
                elem = base.ctype.pointee if isinstance(base.ctype.pointee, Scalar) else C.U8
                v = self.convert(value, elem, node)
                idx = self.expr(target.index)
                self.emit(asc.GmStoreOp.create(operands=[self.ssa(base, node), self.ssa(idx, node), self.ssa(v, node)]), node)
                return
        if isinstance(target, A.Unary) and target.op == "*":
            ptr = self.expr(target.operand)
            if isinstance(ptr.obj, Cell):
                self.store(ptr.obj, value, node)
                return
            if isinstance(ptr.ctype, C.Pointer) and (ptr.ctype.gm or ub_pointer.is_ub_pointer(ptr.ctype)):
                self.assign(A.Index(target.span, target.operand, A.IntLit(target.span, "0", 0)), value, node)
                return
        if _calls_user_operator(target) or _calls_method(target):
            # `shape[1] = v`, `shape.operator[](0) = v`, `shape.m() = v`: a user class's operator or accessor
            # returning a reference to what it holds; its inlined result says which cell or array element that is
            place = self.expr(target)
            if isinstance(place.obj, Cell):
                self.store(place.obj, value, node)
                return
            if isinstance(place.obj, Instance) and isinstance(value.obj, Instance) and place.obj is not value.obj:
                self._copy_instance(place.obj, value.obj, node)  # `list[i] = LayoutA{m, k}`: an element's fields
                return
            if isinstance(place.obj, tuple) and place.obj[0] == "array_elem" and isinstance(place.ctype, Scalar):
                _, cell, indices = place.obj
                self.store_element(self.ssa(self.convert(value, place.ctype, node), node), cell.ref, indices, node)
                return
            raise Unsupported("assignment through the reference a user method or operator returns", node)
        raise Unsupported("assignment to this kind of expression", node)

    def _operator_call(self, inst: Instance, name: str, node: A.Node, args: list[A.Node]) -> Val:
        """`obj[i]`, `obj(args)` on a user-class object: its `operator[]` / `operator()`, inlined."""
        from ascendir.lower.calls import lower_call

        callee = A.Member(node.span, A.Name(node.span, A.QualifiedName(node.span, [A.NamePart(node.span, "<object>")])),
                          name, False)
        self.frame.scopes.append({"<object>": inst})
        try:
            return lower_call(self, A.Call(node.span, callee, args), None)
        finally:
            self.frame.scopes.pop()

    def expr_IncDec(self, e: A.IncDec) -> Val:
        old = self.expr(e.operand)
        one = Val(C.I32, const=1)
        new = self.arith("+" if e.op == "++" else "-", old, one, e)
        if isinstance(old.ctype, Scalar):
            new = self.convert(new, old.ctype, e)
        self.assign(e.operand, new, e)
        return new if e.prefix else old
