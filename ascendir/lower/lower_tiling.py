"""Tiling data in the function lowering: fields of the host's tiling struct read through the kernel's tiling
pointer (`tilingData.blockLength`, nested structs, `sizeof`), with their types from the struct's layout.

Separate because the tiling struct is the kernel's one input from the host, with its own layout
rules (tiling_layout.py) and its own unknowns.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from xdsl.dialects.builtin import UNKNOWN_LOC, StringAttr
from xdsl.ir import Operation, SSAValue

from ascendir.dialects import ascendc as asc
from ascendir.lower import ctypes as C
from ascendir.lower.ast_queries import type_text
from ascendir.lower.ctypes import CType, Scalar
from ascendir.lower.errors import Unsupported
from ascendir.lower.scope import TilingStruct, holds_tiling_data
from ascendir.lower.values import Cell, Val
from frontend import ast as A


class TilingAccess:
    """Tiling data: methods of FunctionLowerer (function.py), which inherits them."""

    def tiling_from_pointer(self, ptr: Val, t: C.TilingT, node: A.Node) -> Val:
        if isinstance(ptr.obj, Val) and isinstance(ptr.obj.ctype, C.TilingT):
            return ptr.obj  # `&tilingData`
        if isinstance(ptr.obj, Cell) and isinstance(ptr.obj.ctype, C.TilingT):
            whole = self.load(ptr.obj, node)
            if t.path and t.name == ptr.obj.ctype.name and not ptr.obj.ctype.path:
                # `p = &object.member; *p`: the pointer keeps the object's cell, the member is at t.path in it
                return Val(t, whole.ssa, obj=whole.obj)
            return whole
        p = self.ssa(ptr, node)
        if isinstance(p.type, asc.TilingType):
            return Val(C.TilingT(t.name), p)
        hit = self._tiling_values.get(p)
        if hit is None:
            if not isinstance(p.type, asc.GmPtrType):
                raise Unsupported("tiling data read through a non-GM pointer", node)
            hit = self.emit(asc.GetTilingDataOp.create(operands=[p], result_types=[asc.TilingType(t.name)]), node).results[0]
            self._tiling_values[p] = hit
        return Val(C.TilingT(t.name), hit)

    def tiling_field(self, tiling: Val, field_name: str, node: A.Node, index: Val | None = None) -> Val:
        t = tiling.ctype
        assert isinstance(t, C.TilingT)
        info = self.scope.classes.get(t.name) if not t.path and index is None else None
        if info is not None and field_name in info.static_constants and not info.template_params:
            # `constInfo.INVALID_IDX` with `static constexpr int INVALID_IDX = -1;` in the struct (ops-transformer
            # quant_lightning_indexer): the constant, which no instance stores
            return self._constant_decl(info.static_constants[field_name], node, info)
        path = f"{t.path}.{field_name}" if t.path else field_name
        ftype = self.tiling_field_type(t.name, path)
        if index is None and not t.path and tiling.ssa is not None and isinstance(tiling.ssa.owner, asc.StructInitOp):
            given = self._initialised_field(tiling.ssa.owner, field_name, ftype)
            if given is not None:
                return given
        if isinstance(ftype, C.TilingT) and index is None:
            # named by the root struct, as the path is: tiling_field_type walks the path from the root (named by
            # the nested struct, `td->inputParams.scaleValue` looked for inputParams inside InputParams and read
            # the float as the uint32_t of an unknown field)
            return Val(C.TilingT(t.name, path), tiling.ssa, obj=tiling.obj)
        if isinstance(ftype, C.ArrayT) and index is None:
            return Val(ftype, tiling.ssa, obj=("tiling_array", tiling, path))
        if isinstance(ftype, C.ArrayT) and isinstance(ftype.elem, C.ArrayT) and index is not None:
            # `td->strides[s]` of `int64_t strides[2][8]`: a row, indexed again below (tiling_row_element)
            root = Val(C.TilingT(t.name), tiling.ssa)
            return self.tiling_row_element(Val(ftype, tiling.ssa, obj=("tiling_row", root, path, Val(C.I64, const=0))),
                                           index, node)
        scalar = ftype.elem if isinstance(ftype, C.ArrayT) else ftype
        if not isinstance(scalar, Scalar):
            scalar = C.U32
        operands = [self.ssa(tiling, node)]
        if index is not None:
            operands.append(self.ssa(self.convert(index, C.I64, node), node))
        op = asc.TilingFieldOp.create(operands=operands, properties={"field": StringAttr(path)},
                                      result_types=[C.scalar_ir_type(scalar)], location=UNKNOWN_LOC)
        value = Val(scalar, self.emit(op, node).results[0])
        if index is None and not self._knows_tiling(t.name):
            # a field of a struct we have no definition of: it may itself be a struct (`td.cubeTiling.M`)
            value.obj = ("tiling_path", tiling, path)
        return value

    def instantiated_tiling_struct(self, written: A.Node) -> str | None:
        """The tiling struct GET_TILING_DATA_WITH_STRUCT names when it is an instance of a class template of
        numbers (`using TilingData4 = SoftplusV2GradTilingData<4>;`, `int64_t strides[kSlots][kRank];`): a layout
        of its own, 'SoftplusV2GradTilingData<4>', registered once, its array extents evaluated with the template's
        parameters bound ([temp.inst]). None for any other type, whose name is used as written. Before, the
        template was no tiling struct at all: every field read as a uint32_t (a float field's bits as an integer)
        and an array of arrays could not be indexed twice."""
        ref = written.type if isinstance(written, A.TypeArgExpr) else written
        if isinstance(ref, A.Name):
            ref = A.TypeRef(ref.span, ref.qname)
        if not isinstance(ref, A.TypeRef):
            return None
        try:
            t = self.resolve_type(ref)
        except Unsupported:
            return None
        info = self.scope.classes.get(t.name) if isinstance(t, C.ClassT) and t.args else None
        if info is None or not info.template_params or not holds_tiling_data(self.scope, info):
            return None
        key = str(t)
        if key in self.scope.tiling_structs:
            return key
        fields: list[tuple[str, A.TypeRef, A.Expr | None, str]] = []
        with self._class_template_frame(info, t.args):
            for _, decl in info.fields:
                dims = [self.const_eval(d) if d is not None else None for d in decl.type.array_dims]
                if not all(isinstance(n, int) and n > 0 for n in dims):
                    return None
                tref = dataclasses.replace(decl.type, array_dims=[A.IntLit(decl.type.span, str(n), n) for n in dims])
                if isinstance(self.resolve_type(tref), C.UnknownT):
                    return None  # (a field of a template type parameter's type: not a layout known here)
                fields.append((decl.name, tref, None, "scalar"))
        self.scope.tiling_structs[key] = TilingStruct(key, fields, info.decl.span, info.decl.align)
        return key

    def tiling_row_element(self, row: Val, index: Val, node: A.Node) -> Val:
        """Element `index` of `row`, a tiling array field of arrays (`int64_t strides[2][8]`) or one of its rows:
        a further row, or a read of the field at the element's flat position. C lays an array of arrays out row
        by row ([dcl.array]/9: `strides[s][d]` is element s * 8 + d of the field's storage), as the host's
        tiling bytes and the field's values (a flat list) hold it; before, `strides[s]` read one number and
        indexing that number was a gap."""
        assert isinstance(row.obj, tuple) and row.obj[0] == "tiling_row" and isinstance(row.ctype, C.ArrayT)
        _, root, path, start = row.obj
        elem = row.ctype.elem
        stride = Val(C.I64, const=_scalar_count(elem))
        flat = self.arith("+", start, self.arith("*", self.convert(index, C.I64, node), stride, node), node)
        if isinstance(elem, C.ArrayT):
            return Val(elem, root.ssa, obj=("tiling_row", root, path, flat))
        scalar = elem if isinstance(elem, Scalar) else C.U32
        op = asc.TilingFieldOp.create(operands=[self.ssa(root, node), self.ssa(flat, node)],
                                      properties={"field": StringAttr(path)},
                                      result_types=[C.scalar_ir_type(scalar)], location=UNKNOWN_LOC)
        return Val(scalar, self.emit(op, node).results[0])

    @staticmethod
    def _initialised_field(init: asc.StructInitOp, field_name: str, ftype: CType) -> Val | None:
        """A field of a struct built in the kernel (`InitConfig config = {x, &tilingData};`): the value it was
        built from, where that value has the field's type (pointers to GM and to tiling data, scalars)."""
        names = [a.data for a in init.fields.data]
        if field_name not in names:
            return None
        value = init.values[names.index(field_name)]
        if isinstance(ftype, C.Pointer):
            if isinstance(ftype.pointee, C.TilingT) and isinstance(value.type, asc.TilingType):
                return Val(ftype, value)
            if ftype.gm and isinstance(value.type, asc.GmPtrType):
                return Val(ftype, value)
            return None
        if isinstance(ftype, Scalar) and value.type == C.scalar_ir_type(ftype):
            return Val(ftype, value)
        return None

    def tiling_argument(self, v: Val, node: A.Node) -> Val:
        """A nested tiling struct passed to an API (`&td.cubeTiling` to REGIST_MATMUL_OBJ) as a value:
        `tiling_field %td "cubeTiling" -> !ascendc.tiling<"TCubeTiling">`."""
        inner = v
        if isinstance(v.ctype, C.Pointer) and isinstance(v.obj, Val):
            inner = v.obj
        elif isinstance(v.ctype, C.Pointer) and isinstance(v.obj, tuple) and v.obj[0] == "tiling_path":
            inner = Val(v.ctype.pointee, v.ssa, obj=v.obj)  # `&td.field` of a struct we have no layout for
        view = self.tiling_view(inner) if isinstance(inner.ctype, Scalar) else inner
        if view is None or not isinstance(view.ctype, C.TilingT) or not view.ctype.path or view.ssa is None:
            return v
        t = view.ctype
        struct = self.tiling_field_type(t.name, t.path)
        name = struct.name if isinstance(struct, C.TilingT) else "TCubeTiling" if "ube" in t.path else "?"
        op = asc.TilingFieldOp.create(operands=[view.ssa], properties={"field": StringAttr(t.path)},
                                      result_types=[asc.TilingType(name)])
        value = Val(C.TilingT(name), self.emit(op, node).results[0])
        return Val(C.Pointer(value.ctype), value.ssa, obj=value) if inner is not v else value

    def _knows_tiling(self, name: str) -> bool:
        return name in self.scope.tiling_structs or self.catalog_type_kind(name) == "struct"

    def tiling_view(self, v: Val, struct: str = "?") -> Val | None:
        """A field read of an unknown tiling struct, taken back and seen as a nested struct instead."""
        if not (isinstance(v.obj, tuple) and v.obj and v.obj[0] == "tiling_path"):
            return None
        _, root, path = v.obj
        if v.ssa is not None and not v.ssa.uses:
            owner = v.ssa.owner
            if isinstance(owner, Operation) and owner.parent_block() is not None:
                owner.detach()
                owner.erase()
            v.ssa = None
        return Val(C.TilingT(root.ctype.name, path), root.ssa, obj=root.obj)

    def tiling_field_type(self, struct: str, path: str) -> CType:
        """The type of `path` (dotted) in tiling struct `struct`; unknown structs read as uint32."""
        name = struct
        t: CType = C.U32
        for part in path.split("."):
            ts = self.scope.tiling_structs.get(name)
            if ts is None:
                kind = self.catalog_type_kind(name)
                if kind == "struct":
                    ft = self.catalog.struct_field_type(name, part)  # type: ignore[attr-defined]
                    return C.scalar_named(ft) or C.I32 if ft else C.I32
                return C.U32
            match = next((f for f in ts.fields if f[0] == part), None)
            if match is None:
                return C.U32
            _, tref, count, kind = match
            t = self.resolve_type(tref)
            if isinstance(t, C.ClassT):
                t = C.TilingT(t.name)
            if isinstance(t, C.StructT):
                t = C.TilingT(t.name)
            if kind == "array" and count is not None:
                n = self.const_eval(count)
                t = C.ArrayT(t, int(n) if isinstance(n, int) else 0)
            elif kind == "struct":
                t = C.TilingT(type_text(tref))
            if isinstance(t, C.TilingT):
                name = t.name
        return t

    def member_defaults(self, t: C.TilingT, listed: Sequence[str], node: A.Node, zero_rest: bool) -> \
            tuple[list[str], list[SSAValue]]:
        """The scalar fields of plain struct `t` not in `listed`, with the values a declaration gives them: a
        default member initialiser's (`uint64_t addrQSeqOffset = 0;`); with `zero_rest` (a brace list, `S s{};`
        or one shorter than the fields: aggregate initialisation value-initialises the rest) 0 for one without.
        A field declared without an initialiser and without one of its own stays unset, and a read of it is
        reported as one (C++ leaves it indeterminate). Before, every field of a struct declared without one was
        unset, so catlass 19_mla's `AddrOffsets addrOffsets;` (offsets summed from their `= 0`) read 9 unset
        fields."""
        info = self.scope.classes.get(t.name)
        names: list[str] = []
        values: list[SSAValue] = []
        if t.path or info is None or not info.is_plain_struct:
            return names, values
        for _, decl in info.fields:
            if decl.name in listed:
                continue
            ftype = self.tiling_field_type(t.name, decl.name)
            if not isinstance(ftype, Scalar):
                continue
            init = decl.init
            if isinstance(init, A.InitList):
                init = init.items[0] if len(init.items) == 1 else None if init.items else A.IntLit(node.span, "0", 0)
            if init is None and not zero_rest:
                continue
            try:
                value = self.convert(self.expr(init) if init is not None else Val(ftype, const=0), ftype, node)
            except Unsupported:
                continue  # (a default the lowering cannot evaluate: the field stays unset, and a read says so)
            names.append(decl.name)
            values.append(self.ssa(value, node))
        return names, values

    def tiling_size(self, name: str) -> int | None:
        placed = self._size_and_align(name)
        return placed[0] if placed is not None else None

    def _size_and_align(self, name: str, depth: int = 0) -> tuple[int, int] | None:
        """sizeof and alignof the tiling struct `name` (a library struct such as TCubeTiling by the catalog's
        fields), laid out as ascendir.lower.tiling_layout lays it out; None when a field's size is not known."""
        from ascendir.lower.library_structs import LIBRARY_TILING_STRUCTS, library_struct_fields

        ts = self.scope.tiling_structs.get(name)
        if depth > 8:
            return None
        if ts is None:
            if name not in LIBRARY_TILING_STRUCTS:
                return None
            fields: list[tuple[CType, int | None]] = [(t, None) for _, t in library_struct_fields(name)]
        else:
            fields = []
            for _fname, tref, count, kind in ts.fields:
                n = self.const_eval(count) if kind == "array" and count is not None else None
                fields.append((self.resolve_type(tref), int(n) if isinstance(n, int) else 0 if n is not None
                               else None))
        offset = 0
        largest = max(getattr(ts, "align", None) or 1, 1)  # a struct's alignas(N), as tiling_layout places it
        for t, count in fields:
            # a nested struct: the program's, or a library one (the host reads `TCubeTiling` as an unmodelled
            # library type whose name is its detail)
            nested = t.name if isinstance(t, C.TilingT | C.ClassT | C.StructT) else getattr(t, "detail", None)
            if isinstance(t, C.EnumT):
                t = C.I32
            size = C.size_of(t)
            if size is not None:
                # an array field takes its element's alignment, as tiling_layout.py places it (`uint32_t
                # idx[3]` at 4, not 8: sizeof of a struct holding only it is 12)
                align = min(C.size_of(C.array_shape(t)[1]) or size, 8) if isinstance(t, C.ArrayT) else min(size, 8)
            elif isinstance(nested, str) and (inner := self._size_and_align(nested, depth + 1)) is not None:
                size, align = inner
            else:
                return None
            offset = (offset + align - 1) // align * align + size * (count if count is not None else 1)
            largest = max(largest, align)
        return (offset + largest - 1) // largest * largest, largest


def _scalar_count(t: CType) -> int:
    """The scalars an element of type `t` holds: 1, or the product of an array's extents."""
    return t.size * _scalar_count(t.elem) if isinstance(t, C.ArrayT) else 1
