"""Handles of the host lowering: runtime objects (the context, a StorageShape, the attributes, the platform, a
tiling struct, ...) as Python-side values of type HostT that never live in memory, what each stands for
(TensorRef, AttrRef, TilingRef), the cell a handle variable is (HandleCell), and the gert / platform / ge
types by name.

A module of its own because every part of the host lowering, and the host_* helper modules, read them.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Block, SSAValue

from ascendir.lower import ctypes as C
from ascendir.lower.ctypes import CType
from ascendir.lower.values import Cell, Val


class VectorItems:
    """The elements a `std::vector` of numbers was initialised with (`= {a, b}`), as read there."""

    def __init__(self, values: tuple[Val, ...]) -> None:
        self.values = values


@dataclass(frozen=True)
class HostT:
    """A gert / platform_ascendc runtime object (or a pointer to one) seen by the tiling function.

    `kind` says which; `detail` names an unmodelled library type, or the struct of a tiling handle.
    """

    kind: str
    detail: str = ""

    def __str__(self) -> str:
        return self.detail or _DISPLAY.get(self.kind, self.kind)


_DISPLAY = {
    "context": "gert::TilingContext", "storage_shape": "gert::StorageShape", "tensor": "gert::Tensor",
    "desc": "gert::CompileTimeTensorDesc", "shape": "gert::Shape", "attrs": "gert::RuntimeAttrs",
    "attr_ptr": "attribute pointer", "string": "std::string", "int_list": "gert::TypedContinuousVector<int64_t>",
    "list_data": "const int64_t*", "platform_info": "fe::PlatFormInfos", "platform": "platform_ascendc::PlatformAscendC",
    "raw_tiling": "gert::TilingData", "raw_data": "void*", "workspace": "size_t*", "opaque": "a runtime value",
    "tiling": "tiling struct", "tiling_array": "tiling array field", "unmodelled": "library object",
    "poison": "unmodelled value", "matmul_tiling": "matmul tiling object",
    "infer_context": "gert::InferShapeContext", "shape_buffer": "gert::Shape",
    "parse_context": "gert::TilingParseContext",
    # GetNodeName(): the node's name, which only the framework knows; never null (`name == nullptr ? "nil" : name`)
    "node_name": "the node name",
}  # fmt: skip


@dataclass(frozen=True)
class TensorRef:
    """Which tensor a StorageShape / Tensor / TensorDesc handle stands for."""

    index: int
    output: bool = False
    optional: bool = False
    # a runtime index (`GetInputShape(i)` with `i` a loop variable): the tensor is `index + at`
    at: SSAValue | None = None


@dataclass(frozen=True)
class AttrRef:
    """An attribute pointer: `GetAttrPointer<T>(index)`; `kind` is the `host.attr` kind, `ctype` is T."""

    index: int
    kind: str
    ctype: CType
    # a runtime index (`GetAttrPointer<float>(idx++)`, a counter in a local): the attribute is `index + at`
    at: SSAValue | None = None


@dataclass(frozen=True)
class TilingRef:
    """A tiling struct handle: the root struct, the field path of a nested struct, and whether it is a
    local legacy object (saved with SaveToBuffer) or the context's own buffer (GetTilingData<S>())."""

    struct: str
    path: str = ""
    local: bool = False

    def field_name(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name


@dataclass
class HandleCell(Cell):
    """A variable holding a handle: rebound while lowering, since handles never live in memory.

    `block` is where the variable was declared; a store from any other block (under `if` or in a loop)
    cannot be modelled by rebinding and is reported instead.
    """

    value: Val | None = None
    block: Block | None = None


class HostError(Exception):
    """C++ the vendor compiler would reject; already reported as an error where it was found."""


# Types of the gert / platform / ge headers, by unqualified name.
HANDLE_TYPES: dict[str, CType] = {
    "TilingContext": HostT("context"), "InferShapeContext": HostT("infer_context"),
    "TilingParseContext": HostT("parse_context"),
    "StorageShape": HostT("storage_shape"), "Shape": HostT("shape"),
    "Tensor": HostT("tensor"), "CompileTimeTensorDesc": HostT("desc"), "RuntimeAttrs": HostT("attrs"),
    "PlatformAscendC": HostT("platform"), "PlatformAscendCManager": HostT("platform"),
    "PlatFormInfos": HostT("platform_info"), "TilingData": HostT("raw_tiling"), "string": HostT("string"),
    "TypedContinuousVector": HostT("int_list"), "ContinuousVector": HostT("int_list"),
    "MultiCoreMatmulTiling": HostT("matmul_tiling", "MultiCoreMatmulTiling"),
    "MatmulApiTiling": HostT("matmul_tiling", "MatmulApiTiling"),
    "graphStatus": C.U32, "DataType": C.I32, "Format": C.I32,
    "CoreMemType": C.EnumT("CoreMemType"),
    # platform_ascendc::SocVersion values are the ints of hd.SOC_VERSIONS (GetSocVersion, SocVersion::X), so a
    # variable or member of the type holds one as a number (GeGluGradV2's curShortSocName_)
    "SocVersion": C.I32,
    # `enum class NpuArch : uint32_t` (platform_ascendc.h): DAV_<n> is __NPU_ARCH__ n (host_names), as GetCurNpuArch
    "NpuArch": C.U32,
}  # fmt: skip


def is_host(t: object) -> bool:
    return isinstance(t, HostT)


def handle_kind(v: Val) -> str | None:
    return v.ctype.kind if isinstance(v.ctype, HostT) else None


def getter_pointer(v: Val | None) -> bool:
    """Whether `v` is the `gert::Shape*` an InferShape context getter returned (`GetInputShape(i)`,
    `GetOutputShape(i)`), rather than a shape object (`*p`, a local gert::Shape, a reference)."""
    return v is not None and handle_kind(v) in ("shape", "shape_buffer") and isinstance(v.obj, TensorRef)


def unbound_shape(v: Val) -> bool:
    """A shape handle that stands for nothing the lowering saw made: a class member of type gert::Shape,
    or a pointer assigned where a rebinding cannot follow it."""
    return handle_kind(v) in ("shape", "shape_buffer") and v.ssa is None and not isinstance(v.obj, TensorRef)
