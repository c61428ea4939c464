"""The tiling struct in the host lowering: the context's buffer or a legacy local struct, its fields (nested
structs and arrays) read and set, value-initialised, `set_x` / `get_x` of BEGIN_TILING_DATA_DEF classes,
and a local struct saved to the context.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import replace
from typing import NoReturn

from xdsl.ir import SSAValue

from ascendir.dialects import host as hd
from ascendir.lower import array_pointer
from ascendir.lower import ctypes as C
from ascendir.lower import host_pair, host_std
from ascendir.lower.ctypes import CType, Scalar
from ascendir.lower.diagnostics import UNKNOWN_API, span_of
from ascendir.lower.function import Unsupported
from ascendir.lower.host_handles import HostError, HostT, TilingRef, handle_kind
from ascendir.lower.library_structs import LIBRARY_TILING_STRUCTS, library_struct_fields
from ascendir.lower.scope import Scope
from ascendir.lower.values import Cell, Instance, Val
from frontend import ast as A
from frontend.diagnostics import Note, error


# library tiling structs a tiling struct may hold, with their typed fields: the catalog's (library_structs.py), the
# same table the kernel lowering reads; GetTiling, GetRmsNormTilingInfo, GetLayerNormNDTilingInfo and TopKTilingFunc
# fill them (host_norm_tiling.py, host_topk_tiling.py), the host reads them through get_<field>(), the kernel through
# the struct
_LIBRARY_STRUCTS: dict[str, tuple[tuple[str, CType], ...]] = {
    name: library_struct_fields(name) for name in LIBRARY_TILING_STRUCTS
}


def nested_tiling_names(scope: Scope, roots: set[str]) -> set[str]:
    """The plain structs that tiling structs `roots` hold as members, at any depth (ops-nn mat_mul_v3's
    MatMulRunInfo and L2cacheTilePara in MatmulTilingData, itself a member of batch_mat_mul_v3's
    BatchMatmulTilingData): host code that names one (`MatmulTilingData& tilingData_` bound to
    `*(&bmmTilingDataSelf_.matmulTiling)`) views part of the tiling struct's bytes, as a nested field does, never a
    record of its own, which the tiling data would not see."""
    found: set[str] = set()
    work = [name for name in roots if name in scope.tiling_structs]
    while work:
        for _, tref, _, _ in scope.tiling_structs[work.pop()].fields:
            base = tref.base
            name = base.parts[-1].name if isinstance(base, A.QualifiedName) and not tref.pointers else None
            if name is not None and name in scope.tiling_structs and name not in found and name not in roots:
                found.add(name)
                work.append(name)
    return found


class HostTilingStructs:
    """The tiling struct: methods of HostLowerer (host.py), which inherits them."""

    def _tiling_local(self, struct: str, node: A.Node) -> Val:
        self._check_struct(struct, node)
        self.structs_used.append((struct, "local"))
        op = self.emit(hd.TilingLocalOp(struct), node)
        return Val(HostT("tiling", struct), op.results[0], obj=TilingRef(struct, local=True))

    def _check_struct(self, struct: str, node: A.Node) -> None:
        if struct not in self.scope.tiling_structs:
            self.report.unknown_type(struct, node)
            raise HostError(struct)

    def _fields(self, ref: TilingRef) -> list[tuple[str, CType]]:
        """The fields of the struct `ref` points into, with their C types, in declaration order."""
        struct = ref.struct
        for part in ref.path.split(".") if ref.path else []:
            t = self._field_type(struct, part)
            struct = t.name if isinstance(t, C.TilingT) else ""
        ts = self.scope.tiling_structs.get(struct)
        if ts is None:
            return list(_LIBRARY_STRUCTS.get(struct, ()))
        return [(name, self._field_type(struct, name)) for name, *_ in ts.fields]

    def _field_type(self, struct: str, name: str) -> CType:
        t = self.tiling_field_type(struct, name)
        if isinstance(t, HostT) and t.kind == "unmodelled" and t.detail in _LIBRARY_STRUCTS:
            # a plain struct's `TCubeTiling matmulTiling;` (ops-nn mat_mul_v3's MatmulTilingData): the library
            # struct, as a BEGIN_TILING_DATA_DEF class's TILING_DATA_FIELD_DEF_STRUCT member is
            return C.TilingT(t.detail)
        return C.TilingT(t.name) if isinstance(t, C.ClassT) else t

    def _field(self, tiling: Val, name: str, node: A.Node) -> tuple[TilingRef, CType]:
        ref = tiling.obj
        assert isinstance(ref, TilingRef)
        fields = dict(self._fields(ref))
        if name not in fields:
            struct = f"{ref.struct}.{ref.path}" if ref.path else ref.struct
            self._no_member(name, struct, list(fields), node, what="field")
        return ref, fields[name]

    def _no_member(self, name: str, owner: str, known: list[str], node: A.Node, what: str = "member") -> NoReturn:
        """C++ the compiler rejects: report it (with the closest names) and leave the statement out."""
        closest = difflib.get_close_matches(name, known, n=3)
        notes = [Note(f"did you mean {', '.join(repr(c) for c in closest)}?", kind="help")] if closest else []
        self.report.add(error(UNKNOWN_API, f"no {what} named '{name}' in '{owner}'", span_of(node), *notes))
        raise HostError(name)

    def _handle_member(self, obj: Val, member: str, node: A.Node) -> Val:
        if host_std.is_model(obj):
            return host_std.member(self, obj, member, node)
        if host_pair.is_pair_value(obj):
            return host_pair.member(obj, member, node)
        if handle_kind(obj) != "tiling":
            raise Unsupported(f"member '{member}' of {obj.ctype} is not modelled", node)
        ref, t = self._field(obj, member, node)
        if isinstance(t, C.ArrayT):
            return Val(HostT("tiling_array", ref.struct), obj.ssa, obj=(ref, ref.field_name(member), t))
        if isinstance(t, C.TilingT):
            if t.name not in self.scope.tiling_structs and t.name not in _LIBRARY_STRUCTS:
                return Val(HostT("unmodelled", f"{t.name} {member}"))  # SoftMaxTiling & co.
            return Val(HostT("tiling", ref.struct), obj.ssa, obj=replace(ref, path=ref.field_name(member)))
        if not isinstance(t, Scalar):
            raise Unsupported(f"field '{member}' of type {t} is not modelled", node)
        op = hd.TilingGetOp(self.ssa(obj, node), ref.field_name(member), C.scalar_ir_type(t))
        return Val(t, self.emit(op, node).results[0])

    def _tiling_get(self, array: Val, index: Val, node: A.Node) -> Val:
        _, path, arr = array.obj  # type: ignore[misc]
        elem = arr.elem if isinstance(arr.elem, Scalar) else C.U32
        pos = self.ssa(self.convert(index, C.I64, node), node)
        op = hd.TilingGetOp(self.ssa(array, node), path, C.scalar_ir_type(elem), pos)
        return Val(elem, self.emit(op, node).results[0])

    def _tiling_set(self, tiling: Val, member: str, value: Val, node: A.Node) -> None:
        ref, t = self._field(tiling, member, node)
        if isinstance(t, C.ArrayT) and isinstance(t.elem, Scalar) and array_pointer.is_pointer_operand(value) \
                and not (isinstance(value.obj, Cell) and value.ctype == t):
            # `tiling.set_start(allMem + k)` or an array of another length: the setter copies the field's
            # length from where the pointer points (no further than the array it points into)
            for k in range(min(t.size, value.ctype.size)):  # type: ignore[union-attr]
                item = array_pointer.load(self, value, Val(C.I64, const=k), node)
                self._set_field(self.ssa(tiling, node), ref, ref.field_name(member), t.elem, item, node,
                                Val(C.I64, const=k))
            return
        if isinstance(t, C.ArrayT) and isinstance(value.ctype, C.ArrayT) and isinstance(value.obj, Cell):
            # `tiling.set_shape(arr)`: the whole C array
            unsigned = isinstance(t.elem, Scalar) and t.elem.kind == "uint"
            self.emit(hd.TilingSetOp(self.ssa(tiling, node), ref.field_name(member), value.obj.ref,
                                     is_unsigned=unsigned), node)
            return
        if not isinstance(t, Scalar):
            raise Unsupported(f"assigning field '{member}' of type {t} is not modelled", node)
        self._set_field(tiling.ssa, ref, ref.field_name(member), t, value, node)

    def _set_field(self, data: SSAValue | None, ref: TilingRef, path: str, t: CType, value: Val, node: A.Node,
                   index: Val | None = None) -> None:
        if not isinstance(t, Scalar):
            raise Unsupported(f"assigning field '{path}' of type {t} is not modelled", node)
        assert data is not None
        v = self.ssa(self.convert(value, t, node), node)
        pos = self.ssa(self.convert(index, C.I64, node), node) if index is not None else None
        self.emit(hd.TilingSetOp(data, path, v, pos, is_unsigned=t.kind == "uint"), node)

    def _tiling_fill(self, tiling: Val, items: Sequence[A.Node], node: A.Node) -> None:
        """Value-initialise the struct `tiling` points to (`S{}`, `memset(p, 0, ...)`), then set the
        listed items in field order (designated items by name)."""
        ref = tiling.obj
        assert isinstance(ref, TilingRef)
        values: dict[str, A.Node] = {}
        fields = self._fields(ref)
        for i, item in enumerate(items):
            if isinstance(item, A.DesignatedInit):
                values[item.field_name] = item.value
            elif i < len(fields):
                values[fields[i][0]] = item
        for name, t in fields:
            path = ref.field_name(name)
            if isinstance(t, Scalar):
                value = self.expr(values[name]) if name in values else Val(t, const=0)
                self._set_field(tiling.ssa, ref, path, t, value, node)
            elif isinstance(t, C.ArrayT) and isinstance(t.elem, Scalar):
                for k in range(t.size):
                    self._set_field(tiling.ssa, ref, path, t.elem, Val(t.elem, const=0), node, Val(C.I64, const=k))
            elif isinstance(t, C.TilingT) and t.name in self.scope.tiling_structs:
                self._tiling_fill(Val(tiling.ctype, tiling.ssa, obj=replace(ref, path=path)), [], node)
            # a library struct member (TCubeTiling): zeroed too, but the host lowering does not model it

    def _tiling_method(self, e: A.Call, name: str, recv: Val) -> Val:
        ref = recv.obj
        assert isinstance(ref, TilingRef)
        methods: list[str] = []
        if ref.struct not in self.scope.classes:  # a BEGIN_TILING_DATA_DEF class, not a plain struct
            methods = [f"{prefix}_{f}" for f, _ in self._fields(ref) for prefix in ("set", "get")]
            methods += ["SaveToBuffer", "GetDataSize", "SetDataPtr"] if ref.local else []
        if name not in methods:
            self._no_member(name, ref.struct, methods, e)
        if name.startswith("set_") and len(e.args) == 1:
            self._tiling_set(recv, name[4:], self.expr(e.args[0]), e)
            return Val(C.VoidT())
        if name.startswith("get_") and not e.args:
            return self._handle_member(recv, name[4:], e)
        if name == "SaveToBuffer":
            for a in e.args:
                self.expr(a)
            self._save(recv, e)
            return Val(C.VoidT())
        if name == "SetDataPtr" and len(e.args) == 1 and not ref.path:
            self.expr(e.args[0])  # (the context's raw tiling data: the only buffer the host model has)
            self.structs_used.append((ref.struct, "saved"))
            self.emit(hd.TilingSaveOp(self.ssa(recv, e), self._context(e), bind=True), e)
            return Val(C.VoidT())
        if name == "GetDataSize":
            return Val(C.U64, const=self.tiling_size(ref.struct) or 0)
        raise Unsupported(f"{ref.struct}::{name} takes {'one argument' if name.startswith('set_') else 'none'}", e)

    def _record_as_tiling(self, record: Instance, node: A.Node) -> Val:
        """A tiling struct holding the scalar members of `record`, an object of a plain struct of the program
        (the bytes a memcpy of it into the raw tiling data writes)."""
        local = self._tiling_local(record.info.name, node)
        ref = local.obj
        assert isinstance(ref, TilingRef)
        for name, t in self._fields(ref):
            member = record.members.get(name)
            if not isinstance(t, Scalar) or not isinstance(member, Cell):
                raise Unsupported(f"copying member '{name}' ({t}) of a {record.info.name} into the tiling data is "
                                  "not modelled", node)
            self._set_field(local.ssa, ref, ref.field_name(name), t, self.load(member, node), node)
        return local

    def _save(self, tiling: Val, node: A.Node) -> None:
        ref = tiling.obj
        assert isinstance(ref, TilingRef)
        self.structs_used.append((ref.struct, "saved"))
        self.emit(hd.TilingSaveOp(self.ssa(tiling, node), self._context(node)), node)
