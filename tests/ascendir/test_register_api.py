"""The register API of arch35 chips (`AscendC::Reg`, `MicroAPI`, `asc_vf_call`, `GetVecLen`): not modelled,
so its calls and types are opaque; the lowering says so once instead of reporting every name as unknown,
and never resolves a register-API call to the vector API of the same name."""

from __future__ import annotations

from ascendir.dialects import ascendc as asc
from ascendir.lower import LoweringOptions, lower_program
from frontend.pipeline import load_text

KERNEL = '''#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__simd_vf__ inline void ShiftVf(__ubuf__ T* dst, __ubuf__ T* src, uint32_t count)
{
    constexpr uint32_t lanes = AscendC::GetVecLen() / sizeof(T);
    AscendC::Reg::RegTensor<T> value;
    AscendC::Reg::MaskReg all = AscendC::Reg::CreateMask<T, AscendC::Reg::MaskPattern::ALL>();
    for (uint32_t i = 0; i < count / lanes; i++) {
        AscendC::Reg::LoadAlign(value, src + i * lanes);
        AscendC::Reg::Adds(value, value, (T)1, all);
        MicroAPI::StoreAlign(dst + i * lanes, value, all);
    }
}

extern "C" __global__ __aicore__ void shift_custom(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2048);
    LocalTensor<float> local = buf.Get<float>();
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 256);
    DataCopy(local, xGm, 256);
    asc_vf_call<ShiftVf<float>>((__ubuf__ float*)local.GetPhyAddr(), (__ubuf__ float*)local.GetPhyAddr(), 256);
}
'''


def test_register_api_is_opaque_and_reported_once() -> None:
    result = lower_program(load_text(KERNEL, "shift.cpp"))
    result.module.verify()
    assert [(d.severity.value, d.code) for d in result.diagnostics] == [("warning", "ASC103")]
    assert "register API" in result.diagnostics[0].message
    apis = [op.api.data for op in result.module.walk() if isinstance(op, asc.ApiCallOp)]
    assert "Adds" not in apis and "DataCopy" in apis  # Reg::Adds is not the vector Adds


def test_a_kernel_without_the_register_api_gets_no_such_warning() -> None:
    text = KERNEL.split("template <typename T>")[0] + KERNEL.split("}\n\n", 1)[1].replace(
        "    asc_vf_call<ShiftVf<float>>((__ubuf__ float*)local.GetPhyAddr(), (__ubuf__ float*)local.GetPhyAddr(), 256);\n", "")
    result = lower_program(load_text(text, "plain.cpp"))
    assert not result.diagnostics


def test_an_unqualified_call_on_register_operands_is_the_register_api() -> None:
    # arch35 norm kernels write `Compares(cmpReg, var, POS_INF, preg)` with MicroAPI in scope: the operands
    # are registers, so this is MicroAPI::Compares, not the catalogued vector Compares (was ASC101)
    text = KERNEL.replace("MicroAPI::StoreAlign(dst + i * lanes, value, all);",
                          "MicroAPI::StoreAlign(dst + i * lanes, value, all);\n"
                          "        AscendC::Reg::MaskReg cmp;\n        Compares(cmp, value, (T)0, all);")
    result = lower_program(load_text(text, "shift.cpp"))
    assert [d.code for d in result.diagnostics] == ["ASC103"]


def test_bare_register_types_and_an_uncatalogued_register_function() -> None:
    # ops-nn ada_layer_norm (arch35, for the 950) names RegTensor and MaskReg bare after `using namespace
    # AscendC::MicroAPI;` and calls register functions no catalog lists on them (AddCarryOut here, not modelled):
    # a register-API call, not an undeclared identifier (was ASC102)
    text = """#include "kernel_operator.h"
using namespace AscendC;
using namespace AscendC::MicroAPI;

__aicore__ inline void Fma(uint32_t count)
{
    RegTensor<float> value;
    RegTensor<float> scale;
    MaskReg mask;
    AddCarryOut(mask, value, scale, value, mask);
}

extern "C" __global__ __aicore__ void fma_custom(GM_ADDR x)
{
    Fma(256);
}
"""
    on_950 = LoweringOptions(chip="950PR")
    assert [d.code for d in lower_program(load_text(text, "bare.cpp"), on_950).diagnostics] == ["ASC103"]
    scalars = text.replace("AddCarryOut(mask, value, scale, value, mask);", "AddCarryOut(count, count);")
    assert [d.code for d in lower_program(load_text(scalars, "bare.cpp"), on_950).diagnostics] == ["ASC102"]
    # FusedMulDstAdd, the function ada_layer_norm calls, is MulDstAdd (tests/rust_sim/test_register_fused_names.py)
    modelled = text.replace("AddCarryOut(mask, value, scale, value, mask);",
                            "FusedMulDstAdd(value, scale, value, mask);")
    assert [d.code for d in lower_program(load_text(modelled, "bare.cpp"), on_950).diagnostics] == []
    # a 910B has no register API: there RegTensor is an unknown type
    assert "ASC105" in [d.code for d in lower_program(load_text(text, "bare.cpp")).diagnostics]
