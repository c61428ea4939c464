"""Matmul API configurations made by asc-devkit's constexpr builders (adv_api/matmul/tiling.h), resolved where the
kernel builds them.

Vendor kernels instantiate their Matmul objects with configs of their own (ops-nn mat_mul_v3_common.h):

    constexpr MatmulConfig MM_CFG_NO_PRELOAD = GetMDLConfig(false, false, 0, false, false, false, true);
    constexpr MatmulConfig MM_CFG_MULTI_BATCH_OUT_BATCH_BIAS = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(params);
    template <..., const MatmulConfig& MM_CFG = MM_CFG_NO_PRELOAD> class MatmulBaseKernel { ... };
        (a member `MatmulImpl<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB> mm_;`)

A builder call with compile-time arguments is a constant of the catalog's MatmulConfig type whose value is its
text: `MatmulConfig{field=value}...`, naming isNBatch and isBiasBatch always (what the simulator reads: whether
IterateNBatch runs, whether IterateBatch's bias has a batch axis) and every other field that differs from
CFG_NORM's. The fields and defaults are the header's: GetNormalConfig, GetMDLConfig, GetSpecialMDLConfig,
GetBasicConfig and GetIBShareNormConfig set them from their parameters; GetMMConfig<mode>(params...) starts from
the mode's config (CFG_NORM, CFG_MDL, GetSpecialMDLConfig(), CFG_IBSHARE_NORM) and copies in each
MatmulShapeParams / MatmulQuantParams / MatmulBatchParams / MatmulFuncParams / MatmulBiasParams argument's fields
of the same names (a namespace-scope constant written with a braced list, fields in declaration order). A call
whose arguments are not compile-time values is left to the caller (not modelled).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascendir.lower import ctypes as C, namespace_lookup
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

# CFG_NORM (GetNormalConfig()'s defaults), in MatmulConfig's field order
NORMAL: dict[str, object] = {
    "doNorm": True, "doBasicBlock": False, "doMultiDataLoad": False, "basicM": 0, "basicN": 0, "basicK": 0,
    "intrinsicsCheck": False, "isNBatch": False, "enVecND2NZ": False, "doSpecialBasicBlock": False,
    "doMTE2Preload": 0, "singleCoreM": 0, "singleCoreN": 0, "singleCoreK": 0, "stepM": 0, "stepN": 0, "baseMN": 0,
    "singleCoreMN": 0, "enUnitFlag": True, "isPerTensor": False, "hasAntiQuantOffset": False,
    "doIBShareNorm": False, "doSpecialMDL": False, "enableInit": True, "batchMode": "BATCH_LESS_THAN_L1",
    "enableEnd": True, "enableGetTensorC": True, "enableSetOrgShape": True, "enableSetBias": True,
    "enableSetTail": True, "enableQuantVector": True, "enableSetDefineData": True,
    "iterateMode": "ITERATE_MODE_DEFAULT", "enableReuse": True, "enableUBReuse": True, "enableL1CacheUB": False,
    "intraBlockPartSum": False, "iterateOrder": "UNDEF", "scheduleType": "INNER_PRODUCT",
    "enableDoubleCache": False, "isBiasBatch": True, "enableStaticPadZeros": False, "isPartialOutput": False,
    "enableMixDualMaster": False, "isA2B2Shared": False, "isEnableChannelSplit": False,
    "enableKdimReorderLoad": False, "isCO1Shared": False, "bmmOutMode": "SINGLE_BATCH",
    "enableL1BankConflictOptimise": False, "enableRelu": False, "decompMode": "DECOMP_NONE",
}

# per builder: its parameters in order (the field each sets, its default; None: no default), and the fields it
# fixes to other values than CFG_NORM's
_Params = tuple[tuple[str, object], ...]
BUILDERS: dict[str, tuple[_Params, dict[str, object]]] = {
    "GetNormalConfig": ((("intrinsicsCheck", False), ("isNBatch", False), ("enVecND2NZ", False),
                         ("batchMode", "BATCH_LESS_THAN_L1"), ("enableReuse", True), ("iterateOrder", "UNDEF"),
                         ("scheduleType", "INNER_PRODUCT"), ("enUnitFlag", True), ("enableMixDualMaster", False),
                         ("bmmOutMode", "SINGLE_BATCH")), {}),
    "GetMDLConfig": ((("intrinsicsCheck", False), ("isNBatch", False), ("doMTE2Preload", 0), ("enVecND2NZ", False),
                      ("isPerTensor", False), ("hasAntiQuantOffset", False), ("enUnitFlag", False),
                      ("enableReuse", True), ("enableUBReuse", True), ("enableL1CacheUB", False),
                      ("enableMixDualMaster", False), ("enableKdimReorderLoad", False),
                      ("enableL1BankConflictOptimise", False)),
                     {"doNorm": False, "doMultiDataLoad": True, "batchMode": "NONE"}),
    "GetSpecialMDLConfig": ((("intrinsicsCheck", False), ("isNBatch", False), ("doMTE2Preload", 0),
                             ("enVecND2NZ", False), ("isPerTensor", False), ("hasAntiQuantOffset", False)),
                            {"doNorm": False, "doSpecialMDL": True, "enUnitFlag": False, "batchMode": "NONE"}),
    "GetBasicConfig": ((("basicM", None), ("basicN", None), ("basicK", None), ("intrinsicsCheck", False),
                        ("isNBatch", False), ("batchMode", "BATCH_LESS_THAN_L1")),
                       {"doNorm": False, "doBasicBlock": True, "enUnitFlag": False}),
    "GetIBShareNormConfig": ((("intrinsicsCheck", False), ("isNBatch", False), ("enVecND2NZ", False),
                              ("batchMode", "BATCH_LESS_THAN_L1"), ("enableDoubleCache", False),
                              ("enUnitFlag", True)),
                             {"doNorm": False, "doIBShareNorm": True}),
}

# GetMMConfig<mode>: the builder (with its defaults) the mode starts from
MODES = {"CONFIG_NORM": "GetNormalConfig", "CONFIG_MDL": "GetMDLConfig", "CONFIG_SPECIALMDL": "GetSpecialMDLConfig",
         "CONFIG_IBSHARE": "GetIBShareNormConfig"}

# GetMMConfig's parameter structs (matmul_config.h): their fields in declaration order, with defaults
PARAM_STRUCTS: dict[str, _Params] = {
    "MatmulShapeParams": (("singleCoreM", None), ("singleCoreN", None), ("singleCoreK", None), ("basicM", None),
                          ("basicN", None), ("basicK", None)),
    "MatmulQuantParams": (("isPerTensor", None), ("hasAntiQuantOffset", None)),
    "MatmulBatchParams": (("isNBatch", None), ("batchMode", None), ("isBiasBatch", True),
                          ("bmmOutMode", "SINGLE_BATCH")),
    "MatmulFuncParams": (("intrinsicsCheck", None), ("enVecND2NZ", None), ("enableDoubleCache", None),
                         ("enableL1CacheUB", None), ("doMTE2Preload", None), ("iterateOrder", None),
                         ("scheduleType", None), ("enableReuse", True), ("enableUBReuse", None),
                         ("isPartialOutput", False), ("isA2B2Shared", False), ("isEnableChannelSplit", False),
                         ("enableKdimReorderLoad", False), ("enableL1BankConflictOptimise", False),
                         ("enableRelu", False), ("decompMode", "DECOMP_NONE")),
    "MatmulBiasParams": (("enableSetBias", True),),
}

CONFIG_T = C.EnumT("MatmulConfig")
# the fields the config's text always names (the simulator reads them)
_ALWAYS = ("isNBatch", "isBiasBatch")


def text(fields: dict[str, object]) -> str:
    """`MatmulConfig{isNBatch=false}{isBiasBatch=true}{doNorm=false}...`."""
    def shown(v: object) -> str:
        return ("true" if v else "false") if isinstance(v, bool) else str(v)

    named = [f for f in NORMAL if f in _ALWAYS or fields[f] != NORMAL[f]]
    return "MatmulConfig" + "".join(f"{{{f}={shown(fields[f])}}}" for f in named)


def _value(lw: FunctionLowerer, node: A.Node, like: object) -> object | None:
    """A compile-time argument as the field holds it: a bool, a number, or an enumerator's name."""
    v = lw.const_eval(node)
    if isinstance(v, str):
        return v.rsplit("::", 1)[-1]
    if isinstance(like, bool) or like is None and isinstance(node, A.BoolLit):
        return bool(v) if isinstance(v, int) else None
    return v if isinstance(v, int | float) else None


def _set(lw: FunctionLowerer, fields: dict[str, object], params: _Params, args: list[A.Node]) -> bool:
    """The parameters' fields from the arguments, positionally; False when one is not a compile-time value."""
    if len(args) > len(params):
        return False
    for (field, default), arg in zip(params, [*args, *([None] * (len(params) - len(args)))]):
        if arg is None:
            if default is None:
                return False
            fields[field] = default
            continue
        v = _value(lw, arg, NORMAL[field])
        if v is None:
            return False
        fields[field] = v
    return True


def _struct_items(lw: FunctionLowerer, arg: A.Node) -> tuple[str, list[A.Node]] | None:
    """GetMMConfig's argument: the parameter struct's type and its braced items (a namespace-scope constant)."""
    if not isinstance(arg, A.Name):
        return None
    found = namespace_lookup.variable(lw, arg.qname.parts[-1].name, namespace_lookup.qualifier_of(arg.qname), arg)
    if found is None or not isinstance(found[1].init, A.InitList):
        return None
    base = found[1].type.base
    struct = base.parts[-1].name if isinstance(base, A.QualifiedName) and base.parts else None
    if struct not in PARAM_STRUCTS or any(isinstance(i, A.DesignatedInit) for i in found[1].init.items):
        return None
    return struct, list(found[1].init.items)


def evaluate(lw: FunctionLowerer, e: A.Call, name: str, targs: list[A.TemplateArg] | None) -> str | None:
    """The config text a builder call makes, or None when it cannot be known here."""
    if name == "GetMMConfig":
        mode = lw.const_eval(targs[0].value) if targs else None
        start = MODES.get(mode.rsplit("::", 1)[-1]) if isinstance(mode, str) else None
        if start is None:
            return None
        fields = dict(NORMAL)
        fields.update(BUILDERS[start][1])
        _set(lw, fields, BUILDERS[start][0], [])
        for arg in e.args:
            found = _struct_items(lw, arg)
            if found is None or not _set(lw, fields, PARAM_STRUCTS[found[0]], found[1]):
                return None
        return text(fields)
    params, fixed = BUILDERS[name]
    fields = dict(NORMAL)
    fields.update(fixed)
    return text(fields) if _set(lw, fields, params, list(e.args)) else None


def call(lw: FunctionLowerer, e: A.Call, name: str, targs: list[A.TemplateArg] | None) -> Val | None:
    """A builder call: the constant config it makes (see the module's doc), or None."""
    made = evaluate(lw, e, name, targs)
    return Val(CONFIG_T, const=made) if made is not None else None


def of_constant(lw: FunctionLowerer, name: str) -> str | None:
    """The config text of a namespace-scope constant initialised by a builder call (`MM_CFG_MDL`), or None."""
    found = namespace_lookup.variable(lw, name)
    init = found[1].init if found is not None else None
    if not isinstance(init, A.Call) or init.callee_name not in (*BUILDERS, "GetMMConfig"):
        return None
    callee = init.callee
    targs = callee.qname.parts[-1].template_args if isinstance(callee, A.Name) else None
    return evaluate(lw, init, init.callee_name, targs)
