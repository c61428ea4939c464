"""Types and names in the host lowering: the gert / platform / matmul_tiling types as handle types, library
types it knows but does not model, and the ge / platform constants and enumerators (graphStatus,
DataType, Format, SocVersion, TPosition, ...).

Separate because it is the host headers' vocabulary, read by name, apart from what any expression does.
"""

from __future__ import annotations

from dataclasses import replace

from ascendir.dialects import host as hd
from ascendir.lower import ctypes as C
from ascendir.lower import host_json, host_smart_ptr, namespace_lookup
from ascendir.lower.ctypes import CType
from ascendir.lower.function import Unsupported
from ascendir.lower.host_handles import HANDLE_TYPES, HostT, handle_kind, is_host
from ascendir.lower.values import Val
from frontend import ast as A


# Library classes the host lowering knows exist but does not model: declaring one is a warning.
_LIBRARY_TYPES = {
    "vector", "map", "unordered_map", "set", "unordered_set", "array", "unique_ptr", "shared_ptr", "stringstream",
    "ostringstream",
    "BatchMatmulTiling", "TCubeTiling", "SoftMaxTiling",
    "LayerNormTiling", "RmsNormTiling", "TopkTiling", "SortTiling", "LogSoftMaxTiling", "PlatformInfo",
    "TilingDataBase",
}  # fmt: skip

_GRAPH_STATUS = {"GRAPH_SUCCESS": hd.GRAPH_SUCCESS, "GRAPH_FAILED": hd.GRAPH_FAILED, "SUCCESS": 0, "FAILED": hd.GRAPH_FAILED,
                 # graph/ge_error_codes.h: failures other than GRAPH_FAILED (the public CANN header's values;
                 # ops-nn rms_norm_quant returns GRAPH_PARAM_OUT_OF_RANGE for a bad dim)
                 "GRAPH_PARAM_INVALID": 50331649, "GRAPH_NOT_CHANGED": 1343242304,
                 "GRAPH_NODE_WITHOUT_CONST_INPUT": 50331648, "GRAPH_NODE_NEED_REPASS": 50331647,
                 "GRAPH_INVALID_IR_DEF": 50331646, "OP_WITHOUT_IR_DATATYPE_INFER_RULE": 50331645,
                 "GRAPH_PARAM_OUT_OF_RANGE": 50331644, "GRAPH_MEM_OPERATE_FAILED": 50331539,
                 "GRAPH_NULL_PTR": 50331538, "GRAPH_MEMCPY_FAILED": 50331537, "GRAPH_MEMSET_FAILED": 50331536,
                 "GRAPH_MATH_CAL_FAILED": 50331429, "GRAPH_ADD_OVERFLOW": 50331428, "GRAPH_MUL_OVERFLOW": 50331427}

# graph/types.h: the dim of a shape not known before run time, and the dim count of a shape of unknown rank
NPU_ARCH_RESERVED = 0xFFFFFFFF  # NpuArch::DAV_RESV here: a number no modelled chip's __NPU_ARCH__ is
_GE_DIM_CONSTANTS = {"UNKNOWN_DIM": -1, "UNKNOWN_DIM_NUM": -2}

# ge::Format values (graph/types.h); only compared against, since formats are not modelled as inputs.
GE_FORMATS = {"FORMAT_NCHW": 0, "FORMAT_NHWC": 1, "FORMAT_ND": 2, "FORMAT_NC1HWC0": 3, "FORMAT_FRACTAL_Z": 4,
               "FORMAT_FRACTAL_NZ": 29, "FORMAT_NCDHW": 30, "FORMAT_NDHWC": 27}  # fmt: skip


# <type_traits>' transformations a host helper template applies to a deduced handle type (ops-nn
# smooth_l1_loss_v2's AsCStr: `std::remove_cv_t<std::remove_pointer_t<StrAttrPtrT>>` compared with char, to tell
# GetStr's `const char*` from a std::string pointer). The types here carry no cv-qualifiers or references, so
# those are the type itself; remove_pointer_t is the pointee, of an attribute pointer its element type.
_TYPE_TRANSFORMS = frozenset({"remove_cv_t", "remove_const_t", "remove_volatile_t", "remove_reference_t",
                              "remove_cvref_t", "decay_t", "remove_pointer_t"})


def _transformed(name: str, t: CType) -> CType:
    if name != "remove_pointer_t":
        return t
    if isinstance(t, C.Pointer):
        return t.pointee
    if isinstance(t, HostT) and t.kind == "attr_ptr" and t.detail.startswith("const ") and t.detail.endswith("*"):
        elem = C.scalar_named(t.detail[len("const "):-1])  # (the detail _attr_pointer gives: `const T*`)
        if elem is not None:
            return elem
    return t  # a pointer to a handle is the handle (resolve_type)


class HostNames:
    """Types and names: methods of HostLowerer (host.py), which inherits them."""

    def resolve_type(self, t: A.TypeRef | None, node: A.Node | None = None) -> CType:
        resolved = super().resolve_type(t, node)
        # a pointer to a handle is the handle; `auto *p` is `auto`
        while isinstance(resolved, C.Pointer) and (is_host(resolved.pointee) or (
                isinstance(resolved.pointee, C.UnknownT) and resolved.pointee.text == "auto")):
            resolved = resolved.pointee
        return resolved

    def named_type(self, name: str, targs: list[A.TemplateArg] | None, qualifiers: list[str] = ()) -> CType:  # type: ignore[assignment]
        if self.frames and name in self.frame.types:
            bound = self.frame.types[name]
            if isinstance(bound, HostT) and not targs:
                # a template parameter bound to a runtime type (`T` of ops-math's TilingUtils::GetDimNum<T>, a
                # gert::Shape): that type, so `std::is_same_v<T, gert::Shape>` and `sizeof(T)` see it
                return bound
            return super().named_type(name, targs, qualifiers)
        user = name in self.scope.classes or name in self.scope.tiling_structs or name in self.scope.enums
        if not user and name in _TYPE_TRANSFORMS and targs and len(targs) == 1 and \
                isinstance(targs[0].value, A.TypeRef):
            return _transformed(name, self.resolve_type(targs[0].value))
        if not user and name in HANDLE_TYPES:
            return HANDLE_TYPES[name]
        if not user and name == "json" and "nlohmann" in qualifiers:
            return host_json.JSON  # nlohmann::json (host_json: the compile info a TilingParse function parses)
        if not user and name in host_smart_ptr.SMART_POINTERS and host_json.is_json_type(targs, self):
            return host_json.JSON  # `std::unique_ptr<nlohmann::json>`: a pointer to a handle is the handle
        if not user and name in host_smart_ptr.SMART_POINTERS and (
                pointer := host_smart_ptr.pointer_type(self, targs)) is not None:
            return pointer  # `std::unique_ptr<Params>`: a pointer to a struct of the program
        if not user and name == "array" and (fixed := self._std_array(targs)) is not None:
            return fixed
        if not user and (name in _LIBRARY_TYPES or "matmul_tiling" in qualifiers):
            return HostT("unmodelled", name)
        key = name
        if name in self.scope.homonyms:
            # records of one name in two namespaces (ops-nn's optiling::matmul_v3::TilingEnable and
            # optiling::batch_mat_mul_v3::TilingEnable, the latter a member of a class derived from one using the
            # former): the namespace written, else that of the class whose code names it (the lowering's _homonym)
            key = self._homonym(name, qualifiers)
        cls = self.scope.classes.get(key)
        if cls is not None and cls.is_plain_struct and name not in self.tiling_names and not cls.template_params:
            return C.ClassT(key)  # a helper record such as `struct DtypeInfo {...}`, not a tiling struct
        return super().named_type(name, targs, qualifiers)

    def _std_array(self, targs: list[A.TemplateArg] | None) -> CType | None:
        """`std::array<T, N>` as the C array `T[N]` it wraps (an aggregate of N elements, read and written by
        `[]` as one): a struct member of it, a local or a parameter is then what a C array is. None where T or N
        is not known (the type stays an unmodelled library type)."""
        if not targs or len(targs) != 2 or not isinstance(targs[0].value, A.TypeRef):
            return None
        elem = self.resolve_type(targs[0].value)
        count = self.const_eval(targs[1].value) if not isinstance(targs[1].value, A.TypeRef) else None
        if not isinstance(elem, C.Scalar) or not isinstance(count, int) or count <= 0:
            return None
        return C.ArrayT(elem, count)

    def expr_Name(self, e: A.Name) -> Val:
        parts = [p.name for p in e.qname.parts]
        last = parts[-1]
        user = last in self.scope.enumerators or namespace_lookup.declares(self.scope, last)
        if not user and not (len(parts) == 1 and self.lookup(last) is not None):
            const = self._host_constant(parts)
            if const is not None:
                return const
        if len(parts) > 2 and "::".join(parts[-2:]) in self.scope.enumerators:
            e = replace(e, qname=replace(e.qname, parts=e.qname.parts[-2:]))  # `ns::Enum::VALUE`
        v = super().expr_Name(e)
        if handle_kind(v) == "poison":
            raise Unsupported(f"'{last}' comes from a statement the host lowering left out", e)
        return v

    def _host_constant(self, parts: list[str]) -> Val | None:
        last = parts[-1]
        if last in _GRAPH_STATUS and (len(parts) == 1 or parts[-2] == "ge"):
            return Val(C.U32, const=_GRAPH_STATUS[last])
        if last in hd.GE_DATA_TYPES:
            return Val(C.I32, const=hd.GE_DATA_TYPES[last])
        if last in GE_FORMATS:
            return Val(C.I32, const=GE_FORMATS[last])
        if last == "EOK" and len(parts) == 1:
            return Val(C.I32, const=0)  # securec's success code (`#define EOK 0`), what memset_s / memcpy_s return
        if last in _GE_DIM_CONSTANTS and (len(parts) == 1 or parts[-2] == "ge"):
            return Val(C.I64, const=_GE_DIM_CONSTANTS[last])
        if last == "npos" and len(parts) >= 2 and parts[-2] == "string":
            return Val(C.U64, const=2**64 - 1)  # std::string::npos: size_t(-1)
        if len(parts) >= 2 and parts[-2] == "CoreMemType":
            return Val(C.EnumT("CoreMemType"), const=last)
        if len(parts) >= 2 and parts[-2] == "SocVersion" and last in hd.SOC_VERSIONS:
            return Val(C.I32, const=hd.SOC_VERSIONS[last])
        if len(parts) >= 2 and parts[-2] == "NpuArch" and last.startswith("DAV_") and last[4:].isdigit():
            return Val(C.U32, const=int(last[4:]))  # NpuArch::DAV_2201: __NPU_ARCH__ 2201 (GetCurNpuArch)
        if len(parts) >= 2 and parts[-2] == "NpuArch" and last == "DAV_RESV":
            # the reserved architecture (ops-nn's matmul tilings: the chip whose mmad has s8s4): its number is not
            # published, and no chip the simulator models reports it
            return Val(C.U32, const=NPU_ARCH_RESERVED)
        # matmul_tiling::TPosition / CubeFormat / DataType, as SetAType and friends take them
        enums = {"TPosition": hd.MATMUL_POSITIONS, "CubeFormat": hd.MATMUL_FORMATS,
                 "DataType": hd.MATMUL_DATA_TYPES}
        if len(parts) >= 2 and last in enums.get(parts[-2], {}):
            return Val(C.I32, const=enums[parts[-2]][last])
        return None
