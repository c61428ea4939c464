"""Catalog API calls in the simulator program: the (API, overload) an ascendc op names, its operands named
after the overload's parameters (`dst=h3`, a struct's fields as `params.name=r4:i32`), its template arguments
bound explicitly or by tensor operands, and a catalogued struct's fields at their defaults.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, IntAttr, IntegerAttr, MemRefType, StringAttr
from xdsl.ir import Attribute, SSAValue, TypeAttribute

from ascendir.catalog.model import Api, Overload, Param
from ascendir.dialects import ascendc as asc
from passes.sim.builder_cells import HandleArray
from passes.sim.constant_bits import float_bits
from passes.sim.registers import Array, NotModelled, Struct, element_type, is_object_type, scalar_type


# C scalar type names of the catalog -> program scalar types (registers hold raw bits of this width)
C_SCALARS = {"bool": "i1", "int8_t": "i8", "uint8_t": "i8", "int16_t": "i16", "uint16_t": "i16",
             "int32_t": "i32", "uint32_t": "i32", "int64_t": "i64", "uint64_t": "i64", "half": "f16",
             "bfloat16_t": "bf16", "float": "f32", "double": "f64", "size_t": "i64"}
_METHOD_RECEIVERS = {asc.TPipeType: "TPipe", asc.TQueType: "TQue", asc.TBufType: "TBuf",
                     asc.GlobalTensorType: "GlobalTensor", asc.LocalTensorType: "LocalTensor"}


class CatalogCallEmission:
    """Catalog API calls: methods of ProgramBuilder (builder.py), which inherits them."""

    def struct_defaults(self, name: str, fresh: bool = True) -> dict[str, tuple[str, str]]:
        """A struct's catalogued fields at their default values (0 where the catalog gives none); `fresh`:
        in registers of their own (a cell's, which stores write), else the constants' registers."""
        found = self.catalog.struct(name)
        fields: dict[str, tuple[str, str]] = {}
        if found is None:
            return fields
        for f in found.fields:
            if "[" in f.c_type or "<" in f.c_type:
                continue  # an array or tensor member: only the value given at construction exists
            ty = C_SCALARS.get(f.c_type.replace("const ", "").strip(), "i64")
            const = self.regs.const(ty, _default_value(f.default, ty))
            if fresh:
                reg = self.regs.scalar()
                self.emit("mov", [const], [reg])
                fields[f.name] = (reg, ty)
            else:
                fields[f.name] = (const, ty)
        return fields

    def api_of(self, op: asc.ApiCallOp) -> tuple[Api, Overload] | None:
        name, ov_id = op.api.data, op.overload.data
        candidates = [a for a in self.catalog.apis if a.name == name and a.family == op.FAMILY]
        if op.args and candidates and any(a.receiver for a in candidates):
            recv = next((r for t, r in _METHOD_RECEIVERS.items() if isinstance(op.args[0].type, t)), None)
            preferred = [a for a in candidates if a.receiver == recv]
            candidates = preferred or candidates
        for api in candidates:
            ov = api.overload(ov_id)
            if ov is not None:
                return api, ov
        return None

    def call_operands(self, op: asc.ApiCallOp, api: Api, ov: Overload) -> list[str]:
        args = list(op.args)
        out: list[str] = []
        if api.receiver is not None and args:
            out.append(f"self={self.operand(args.pop(0))}")
        for param, arg in zip(ov.params, args):
            out += self.param_operands(param, arg)
        return out

    def operand(self, value: SSAValue) -> str:
        if is_object_type(value.type):
            return self.obj(value)
        found = self.loc(value)
        if isinstance(found, Array):
            return found.operand()
        if isinstance(found, Struct):
            raise NotModelled("a struct where one value is expected")
        return self.typed(value)

    def param_operands(self, param: Param, arg: SSAValue) -> list[str]:
        if is_object_type(arg.type):  # a TPipe or Matmul object passed by pointer (REGIST_MATMUL_OBJ)
            return [f"{param.name}={self.obj(arg)}"]
        found = self.loc(arg)
        if isinstance(found, Struct):
            if not found.fields:
                return [f"{param.name}=tiling:{found.type_name}"]  # a tiling struct whose fields are not known here
            return [f"{param.name}.{name}={reg}:{ty}" if ty else f"{param.name}.{name}={reg}"
                    for name, (reg, ty) in found.fields.items()]
        if isinstance(found, Array):
            return [f"{param.name}={found.operand()}"]
        if isinstance(found, HandleArray):
            if param.type_name not in ("LocalTensor", "GlobalTensor") or not param.array_len:
                raise NotModelled(f"an array of tensors passed as {param.type_text}")
            return [f"{param.name}={self.tensor_addresses(found, param.type_text).operand()}"]
        if isinstance(arg.type, MemRefType):  # an output parameter (`T&`): the call stores into the cell
            reg = found
            if not isinstance(reg, str):
                raise NotModelled(f"{type(reg).__name__} given as {param.type_text}")
            ty = scalar_type(arg.type.element_type)
            return [f"{param.name}=&{reg}:{ty}" if ty else f"{param.name}=&{reg}"]
        if isinstance(found, str) and found in self.enum_names:
            return [f"{param.name}={self.enum_names[found]}"]
        return [f"{param.name}={self.typed(arg)}"]

    def template_operands(self, op: asc.ApiCallOp, api: Api, ov: Overload) -> str:
        """`<T=f16,event=MTE2_V>`: explicit template arguments and type variables bound by tensor operands."""
        bound: dict[str, str] = {}
        explicit = op.template_args.data if op.template_args is not None else ()
        for tp, value in zip(ov.type_params, explicit):
            text = _template_value(value)
            if text is not None:
                bound[tp.name] = text
        if api.receiver is not None and op.args and "T" not in bound:
            elem = getattr(op.args[0].type, "element_type", None)  # a method: its object's element type
            if elem is not None:
                try:
                    bound["T"] = element_type(elem)
                except NotModelled:
                    pass
        args = list(op.args)[1 if api.receiver is not None and op.args else 0:]
        for param, arg in zip(ov.params, args):
            if param.elem and ov.type_param(param.elem) is not None and param.elem not in bound:
                elem = getattr(arg.type, "element_type", None)
                if elem is not None:
                    try:
                        bound[param.elem] = element_type(elem)
                    except NotModelled:
                        pass
        for param, arg in zip(ov.params, args):
            # `SetPadValue((T)1)`: a by-value scalar of type T deduces T from its own type when no tensor did
            if param.kind == "scalar" and param.type_text not in bound and ov.type_param(param.type_text) is not None:
                try:
                    bound[param.type_text] = element_type(arg.type)
                except NotModelled:
                    pass
        if not bound:
            return ""
        return "<" + ",".join(f"{k}={v}" for k, v in bound.items()) + ">"


def _default_value(text: str | None, ty: str) -> str:
    if text is None:
        return "0"
    t = text.strip().lower().rstrip("ulf")
    if t in ("true", "false"):
        return "1" if t == "true" else "0"
    try:
        if ty.startswith(("f", "b")):
            return float_bits(float(t), ty)
        return str(int(t, 0))
    except ValueError:
        return "0"


def _template_value(value: Attribute) -> str | None:
    if isinstance(value, StringAttr):
        return value.data.rsplit("::", 1)[-1]
    if isinstance(value, IntegerAttr):
        return str(value.value.data)
    if isinstance(value, IntAttr):  # an integer template argument (CrossCoreSetFlag<2, PIPE_FIX>)
        return str(value.data)
    if isinstance(value, ArrayAttr):
        return None
    if isinstance(value, TypeAttribute):
        try:
            return element_type(value)
        except NotModelled:
            return None
    return None
