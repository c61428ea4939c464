"""The lowering's names: bad calls get the compiler's diagnostics (the closest APIs, the candidate overloads,
undeclared identifiers once), and what the vendor headers, the compiler and the C library declare is not
undeclared (builtins, intrinsics, macros, enums the catalog lists in part, std::numeric_limits, type traits,
the program's own namespace, functions of another translation unit)."""

from __future__ import annotations

from ascendir.dialects import ascendc as asc
from ascendir.lower import lower_program
from frontend.pipeline import load_text
from tests.ascendir.lowering_helpers import HEADER, check_errors, lower, ops_of


def test_unknown_api_names_the_closest_apis() -> None:
    r = lower(HEADER + """
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024);
    LocalTensor<float> t = b.Get<float>();
    AscendC::Addd(t, t, t, 256);
}
""")
    (d,) = r.diagnostics
    assert d.code == "ASC100" and d.message == "unknown AscendC API 'Addd'"
    assert "'Add'" in d.notes[0].message and d.span.line == 9


def test_no_matching_overload_lists_the_candidates() -> None:
    r = lower(HEADER + """
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024);
    LocalTensor<float> t = b.Get<float>();
    ReduceMax(t, t, 256);
}
""")
    (d,) = r.diagnostics
    assert d.code == "ASC101" and d.message == "no matching function for call to 'ReduceMax'"
    assert len(d.notes) >= 2 and all(n.message.startswith("candidate: ReduceMax") for n in d.notes)


def test_undeclared_identifiers_are_reported_once_and_do_not_cascade() -> None:
    r = lower(HEADER + """
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR tiling) {
    float v = expf(1.0f);
    float w = v * 2;
}
""")
    assert [(d.code, d.message) for d in r.diagnostics] == [("ASC102", "use of undeclared identifier 'expf'")]


def test_names_are_not_judged_when_a_local_header_is_missing() -> None:
    """A kernel whose own header was not found uses names we cannot see; reporting them as undeclared
    would be guessing, so only the preprocessor's warning about the header remains."""
    source = HEADER + '#include "my_constants.h"\n' + """
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR tiling) {
    uint32_t n = TILE_LENGTH * 2;
}
"""
    program = load_text(source, "k.cpp")
    assert [d.code for d in program.diagnostics] == ["ASC002"]
    assert lower_program(program).diagnostics == []
    without_include = lower(source.replace('#include "my_constants.h"\n', ""))
    assert [d.code for d in without_include.diagnostics] == ["ASC102"]


def test_a_static_member_of_an_uncatalogued_vendor_struct_is_an_opaque_value() -> None:
    # ops-nn arch35 kernels: `NdDmaConfig::unsetPad` (kernel_struct_data_copy.h); an unknown owner stays ASC102
    r = lower(HEADER + """
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    static constexpr AscendC::NdDmaConfig cfg = {false, AscendC::NdDmaConfig::unsetPad, NdDmaConfig::unsetPad, false};
    int32_t n = NoSuchConfig::unsetPad;
}
""")
    assert [(d.code, d.message) for d in r.diagnostics] == [
        ("ASC102", "use of undeclared identifier 'NoSuchConfig::unsetPad'")]


def test_offsetof_is_the_compilers_builtin() -> None:
    # ops-nn foreach arch35 kernels find an array in the tiling struct by offsetof (<cstddef>)
    r = lower(HEADER + """
struct TD { int32_t n; int64_t e[4]; };
extern "C" __global__ __aicore__ void k(GM_ADDR t) {
    __gm__ int64_t* p = reinterpret_cast<__gm__ int64_t*>(reinterpret_cast<__gm__ char*>(t) + offsetof(TD, e));
    (void)p;
}
""")
    assert [(d.code, d.message) for d in r.diagnostics] == []


def test_builtins_prim_t_and_api_names_as_values() -> None:
    # get_block_idx() (the compiler builtin), PrimT<T>, and an AscendC function passed to a template as a
    # value were "use of undeclared identifier" (ASC102) on vendor kernels
    r = lower(HEADER + """
template <typename T, typename Func>
__aicore__ inline void Apply(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t n, Func func) {}
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(PrimT<float>));
    LocalTensor<float> t = buf.Get<float>();
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + get_block_idx() * 64, 64);
    Apply(t, t, 64, Mul);
}
""")
    assert [(d.code, d.message) for d in r.diagnostics] == []
    (init,) = ops_of(r, asc.InitBufferOp)
    assert any(isinstance(op, asc.SystemOp) and op.api.data == "GetBlockIdx" for op in r.module.walk())


def test_ascendc_type_trait_values_fold() -> None:
    # AscendC's matmul utilities: IsSameTypeV<T, U>, IsTypeOneOfV<T, ...> and IsTypeOneOf<T, ...>::value
    r = lower(HEADER + """
template <typename T>
__aicore__ inline void Pick(LocalTensor<T>& x)
{
    if constexpr (AscendC::IsTypeOneOfV<T, half, float>) {
        Exp(x, x, 64);
    }
    if constexpr (AscendC::IsSameTypeV<T, int32_t> && AscendC::IsTypeOneOf<T, int8_t, int32_t>::value) {
        Adds(x, x, 1, 64);
    }
    if constexpr (AscendC::IsTypeOneOfV<T, int8_t, uint8_t>) {
        Muls(x, x, 2, 64);
    }
}
extern "C" __global__ __aicore__ void k(GM_ADDR g)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<int32_t> x = buf.Get<int32_t>();
    Pick(x);
}
""")
    assert [d.message for d in r.diagnostics] == []
    assert [op.api.data for op in r.module.walk() if isinstance(op, asc.ApiCallOp)] == ["Adds"]


def test_simt_builtins_and_the_c_api_are_not_undeclared() -> None:
    # Ascend 950 SIMT code (asc-devkit's simt examples, ops-nn's arch35 *_simt.h): threadIdx.x, blockDim.x,
    # warpSize, dim3(n), asc_vf_call / asc_shfl were "use of undeclared identifier" (ASC102)
    from passes.verify import check_program

    text = HEADER + """
__simt_vf__ __aicore__ inline void Scale(__gm__ float* x, uint32_t n) {
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float v = x[i];
        v = asc_shfl(v, 0, warpSize);
        x[i] = v;
    }
}
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    asc_vf_call<Scale>(dim3(256), (__gm__ float*)x, 1024);
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)x, 16);
    g.SetValue(0, undeclaredThing);
}
"""
    errors = [d for d in check_program(load_text(text, "k.cpp")) if d.is_error]
    assert [(d.code, d.message) for d in errors] == [("ASC102", "use of undeclared identifier 'undeclaredThing'")]


def test_the_compilers_intrinsics_and_builtins_are_not_undeclared() -> None:
    # ops-transformer distribute_barrier traps on a timeout, asc-devkit's data-copy test switches atomic modes
    # with set_atomic_f16, ops-math angle_v2 returns -__builtin_inff(): all were ASC102; a misspelt
    # intrinsic still is, and so is the C library's expf spelt __builtin_expf (the device links no libm)
    text = HEADER + """
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)x, 16);
    set_atomic_f16();
    float low = -__builtin_inff();
    set_atomic_none();
    if (g.GetValue(0) < low) {
        trap();
    }
    g.SetValue(0, __builtin_nanf(""));
    set_atomic_f17();
    g.SetValue(1, __builtin_expf(low));
}
"""
    assert check_errors(text) == [("ASC102", "use of undeclared identifier 'set_atomic_f17'"),
                             ("ASC102", "use of undeclared identifier '__builtin_expf'")]


def test_the_950s_register_intrinsics_are_not_undeclared() -> None:
    # ops-nn group_norm_v2 (arch35) computes a predicate with the compiler's `plt_b32(sreg, POST_UPDATE)`,
    # which asc-devkit's register API implementation calls too (was ASC102)
    text = HEADER + """
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    uint32_t sreg = 64;
    auto preg = plt_b32(sreg, POST_UPDATE);
    auto other = plt_b33(sreg, POST_UPDATE);
}
"""
    assert check_errors(text) == [("ASC102", "use of undeclared identifier 'plt_b33'")]


def test_the_vendor_macros_assert_msg_and_preload_expand() -> None:
    # kernel_log.h's ASSERT_MSG (cann-ops adaptive_avg_pool3d_grad) and PRELOAD (ops-nn masked_softmax) were
    # undeclared; what ASSERT_MSG asserts is still compiled, so an undeclared name there is still reported
    text = HEADER + """
__aicore__ inline uint32_t Ratio(uint32_t a, uint32_t b) {
    ASSERT_MSG(b != 0, "Division by zero: %u", a);
    return a / b;
}
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    PRELOAD(2);
    GlobalTensor<uint32_t> g;
    g.SetGlobalBuffer((__gm__ uint32_t*)x, 16);
    ASSERT_MSG(g.GetValue(1) != limitValue, "too large");
    g.SetValue(0, Ratio(g.GetValue(0), 4));
}
"""
    assert check_errors(text) == [("ASC102", "use of undeclared identifier 'limitValue'")]


def test_a_member_of_an_enum_the_catalog_lists_in_part_is_not_undeclared() -> None:
    # TransposeType's Ascend 950 layouts (TRANSPOSE_ND2ND_021) are left out of the catalog on purpose
    # (`complete = false`); DeqScale is listed whole (asc-devkit kernel_utils_mode.h), so a misspelt member of
    # it is still undeclared; pad_t::PAD_NONE is the compiler's
    text = HEADER + """
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    GlobalTensor<uint32_t> g;
    g.SetGlobalBuffer((__gm__ uint32_t*)x, 16);
    TransposeType kind = TransposeType::TRANSPOSE_ND2ND_021;
    DataCopyEnhancedParams params;
    params.deqScale = DeqScale::DEQ8;
    params.padMode = pad_t::PAD_NONE;
    params.deqScale = DeqScale::DEQ9;
    g.SetValue(0, 1);
}
"""
    assert check_errors(text) == [("ASC102", "use of undeclared identifier 'DeqScale::DEQ9'")]


def test_a_name_qualified_by_the_programs_own_namespace() -> None:
    # ops-nn apply_keras_momentum: `NsApplyKerasMomentum::SchModeTrait<DTYPE_VAR>::value` picks the kernel's
    # schedule from a trait specialised in that namespace (was ASC102 on the whole name)
    r = lower(HEADER + """
namespace Ns {
template <typename T> struct Trait { static constexpr uint32_t value = 64; };
template <> struct Trait<float> { static constexpr uint32_t value = 128; };
__aicore__ inline uint32_t Twice(uint32_t n) { return 2 * n; }
}
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, Ns::Twice(Ns::Trait<float>::value) + Ns::Trait<half>::value);
}
""")
    assert [(d.code, d.message) for d in r.diagnostics] == []
    (init,) = ops_of(r, asc.InitBufferOp)
    assert init.length.owner.value.value.data == 2 * 128 + 64


def test_std_numeric_limits_are_constants_of_their_type() -> None:
    # ops-math sim_thread_exponential: `constexpr float EPSILON_ = std::numeric_limits<float>::epsilon();`
    # (was ASC102 on 'epsilon')
    r = lower(HEADER + """
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    constexpr float EPSILON_ = std::numeric_limits<float>::epsilon();
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, std::numeric_limits<uint8_t>::max() + 1);
    LocalTensor<float> t = buf.Get<float>();
    Adds(t, t, EPSILON_, 64);
    Maxs(t, t, std::numeric_limits<float>::lowest(), 64);
}
""")
    assert [(d.code, d.message) for d in r.diagnostics] == []
    (init,) = ops_of(r, asc.InitBufferOp)
    assert init.length.owner.value.value.data == 256
    scalars = [op.operands[2].owner for op in ops_of(r, asc.ApiCallOp) if op.api.data in ("Adds", "Maxs")]
    assert [c.value.value.data for c in scalars] == [2.0**-23, -3.4028234663852886e38]


def test_the_matmul_configuration_enums_are_catalogued() -> None:
    # asc-devkit batch_matmul: `MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::BSNGD>`
    # (was ASC102); CubeFormat is now listed whole, so a misspelt member is reported
    text = HEADER + """
#include "lib/matmul_intf.h"
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    using A = matmul::MatmulType<TPosition::GM, CubeFormat::ND_ALIGN, half, false, LayoutMode::BSNGD>;
    constexpr auto order = IterateOrder::ORDER_N;
    constexpr auto batch = BatchMode::BATCH_LESS_THAN_L1;
    constexpr auto schedule = ScheduleType::OUTER_PRODUCT;
    constexpr auto format = CubeFormat::COLUMN_MAJOR;
}
"""
    assert [(d.code, d.message) for d in lower(text).diagnostics] == []
    misspelt = lower(text.replace("CubeFormat::COLUMN_MAJOR", "CubeFormat::NDALIGN")).diagnostics
    assert [(d.code, d.message) for d in misspelt] == [("ASC102", "use of undeclared identifier 'CubeFormat::NDALIGN'")]


def test_constants_of_the_vendor_headers_are_known() -> None:
    # kernels name the headers' constants unqualified: ops-transformer's all_gather_add initialises its Hccl
    # handle with INVALID_HANDLE_ID (was ASC102)
    r = lower(HEADER + """
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    int8_t handle{INVALID_HANDLE_ID};
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, ONE_BLK_SIZE * (handle + 2) + FLOAT_REPEAT_SIZE);
}
""")
    assert [(d.code, d.message) for d in r.diagnostics] == []
    (init,) = ops_of(r, asc.InitBufferOp)
    assert init.length.owner.value.value.data == 32 + 64


def test_a_function_declared_for_another_translation_unit_is_not_undeclared() -> None:
    # asc-devkit's separate-compile SIMT sample declares `extern __aicore__ float gather_element(...)`, defined
    # in another .asc: its call was an undeclared identifier
    text = HEADER + """
extern __aicore__ float Pick(float value, int32_t index);
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)x, 16);
    g.SetValue(0, Pick(g.GetValue(1), 2) + Pikc(1.0f, 2));
}
"""
    assert check_errors(text) == [("ASC102", "use of undeclared identifier 'Pikc'")]
