"""DTYPE_<NAME> macros bound from the OpDef of an op project without an op json (frontend.opdef)."""

from __future__ import annotations

from pathlib import Path

from frontend.opdef import opdef_descriptions
from frontend.readers import read_input
from passes.verify import check_program, load_for_check

OPDEF = """
#include "register/op_def_registry.h"
namespace ops {
static const std::vector<ge::DataType> valueTypes = {ge::DT_FLOAT16, ge::DT_FLOAT};
class ScatterMax : public OpDef {
public:
    explicit ScatterMax(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType(valueTypes).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        // this->Input("old").DataType({ge::DT_DOUBLE});
        this->Input("argmax")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32});
        this->Output("y").ParamType(REQUIRED).Follow("x");
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ScatterMax);
}
"""

# The value input is half or float, the index input int32: the kernel reads an index as an offset. With all
# DTYPE macros guessed alike it fails for each guess (a float or half index cast to uint64_t is ASC507, Exp on
# int32_t values has no overload), and was reported as building for none of them.
KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
template <typename T, typename TIdx>
class K {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR argmax, GM_ADDR y) {
        xGm.SetGlobalBuffer((__gm__ T*)x, 256);
        idxGm.SetGlobalBuffer((__gm__ TIdx*)argmax, 256);
        yGm.SetGlobalBuffer((__gm__ T*)y, 4096);
        pipe.InitBuffer(inQueue, 1, 256 * sizeof(T));
        pipe.InitBuffer(idxQueue, 1, 256 * sizeof(TIdx));
    }
    __aicore__ inline void Process() {
        LocalTensor<T> x = inQueue.AllocTensor<T>();
        LocalTensor<TIdx> idx = idxQueue.AllocTensor<TIdx>();
        DataCopy(x, xGm, 256);
        DataCopy(idx, idxGm, 256);
        inQueue.EnQue(x);
        idxQueue.EnQue(idx);
        x = inQueue.DeQue<T>();
        idx = idxQueue.DeQue<TIdx>();
        Exp(x, x, 256);
        uint64_t offset = (uint64_t)idx.GetValue(0);
        yGm.SetValue(offset, x.GetValue(0));
        inQueue.FreeTensor(x);
        idxQueue.FreeTensor(idx);
    }
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue, idxQueue;
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<TIdx> idxGm;
};
extern "C" __global__ __aicore__ void scatter_max(GM_ADDR x, GM_ADDR argmax, GM_ADDR y, GM_ADDR tiling) {
    K<DTYPE_X, DTYPE_ARGMAX> op;
    op.Init(x, argmax, y);
    op.Process();
}
"""


def test_the_opdef_reads_as_an_op_json() -> None:
    (op,) = opdef_descriptions([OPDEF])
    assert op["op"] == "ScatterMax"
    assert op["input_desc"] == [{"name": "x", "type": ["DT_FLOAT16", "DT_FLOAT"]},
                                {"name": "argmax", "type": ["DT_INT32", "DT_INT32"]}]  # one type: every column
    assert op["output_desc"] == [{"name": "y", "type": ["DT_FLOAT16", "DT_FLOAT"]}]


def test_only_integer_typed_names_are_bound_from_an_opdef(tmp_path: Path) -> None:
    # the floating ones stay guessed as float and as half, as without an OpDef
    from frontend.opdef import bound_descriptions

    kernel = tmp_path / "op" / "op_kernel" / "k.cpp"
    kernel.parent.mkdir(parents=True)
    kernel.write_text(KERNEL)
    (tmp_path / "op" / "op_host").mkdir()
    (tmp_path / "op" / "op_host" / "def.cpp").write_text(OPDEF)
    (op,) = bound_descriptions(read_input(str(kernel)))
    assert op == {"op": "ScatterMax", "input_desc": [{"name": "argmax", "type": ["DT_INT32", "DT_INT32"]}],
                  "output_desc": []}


def test_no_single_registered_opdef_reads_as_nothing() -> None:
    assert opdef_descriptions([OPDEF.replace("OP_ADD(ScatterMax);", "")]) == []
    assert opdef_descriptions([OPDEF, OPDEF.replace("ScatterMax", "ScatterMin")]) == []


def _errors(path: Path) -> list[str]:
    program, chip = load_for_check(read_input(str(path)))
    return [d.code for d in check_program(program, chip=chip) if d.is_error]


def test_a_kernel_file_in_an_op_project_is_checked_with_its_opdef_dtypes(tmp_path: Path) -> None:
    kernel = tmp_path / "scatter_max" / "op_kernel" / "scatter_max.cpp"
    kernel.parent.mkdir(parents=True)
    kernel.write_text(KERNEL)
    # alone, every DTYPE guess fails somewhere
    assert "ASC507" in _errors(kernel)
    host = tmp_path / "scatter_max" / "op_host"
    host.mkdir()
    (host / "scatter_max_def.cpp").write_text(OPDEF)
    assert _errors(kernel) == []
    # and the project checked as a whole reads the same OpDef
    assert _errors(tmp_path / "scatter_max") == []


# ops-nn's add_rms_norm_quant_v2: the dtype lists are `#define`s over continued lines, and the zero points are
# int32 or bf16, never float. The kernel copies them by type (`if constexpr`): as int32 straight, otherwise into
# a bf16 buffer. Guessed as float (or half), the else branch pairs a bf16 buffer with a float GlobalTensor:
# ASC101 for an instantiation the build never makes.
QUANT_OPDEF = """
#include "register/op_def_registry.h"
namespace ops {
class QuantScale : public OpDef {
#define DTYPE_SCALE_LIST \\
    { ge::DT_FLOAT, ge::DT_BF16 }
#define DTYPE_OFFSET_LIST \\
    {                     \\
        ge::DT_INT32, ge::DT_BF16 \\
    }
public:
    explicit QuantScale(const char* name) : OpDef(name)
    {
        this->Input("scale").ParamType(REQUIRED).DataType(DTYPE_SCALE_LIST);
        this->Input("offset").ParamType(REQUIRED).DataType(DTYPE_OFFSET_LIST);
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_INT8, ge::DT_INT8});
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(QuantScale);
}
"""

QUANT_KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
template <typename TOffset>
__aicore__ inline void CopyInOffset(TBuf<TPosition::VECCALC>& buf, const GlobalTensor<TOffset>& gm, uint32_t n)
{
    if constexpr (IsSameType<TOffset, int32_t>::value) {
        LocalTensor<int32_t> asInt = buf.Get<int32_t>();
        DataCopy(asInt, gm, n);
    } else {
        LocalTensor<bfloat16_t> asBf16 = buf.Get<bfloat16_t>();
        DataCopy(asBf16, gm, n);
    }
}
extern "C" __global__ __aicore__ void quant_scale(GM_ADDR scale, GM_ADDR offset, GM_ADDR y, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    GlobalTensor<DTYPE_OFFSET> offsetGm;
    offsetGm.SetGlobalBuffer((__gm__ DTYPE_OFFSET*)offset, 256);
    CopyInOffset(buf, offsetGm, 256);
    TBuf<TPosition::VECCALC> scaleBuf;
    pipe.InitBuffer(scaleBuf, 1024);
    GlobalTensor<DTYPE_SCALE> scaleGm;
    scaleGm.SetGlobalBuffer((__gm__ DTYPE_SCALE*)scale, 256);
    LocalTensor<DTYPE_SCALE> s = scaleBuf.Get<DTYPE_SCALE>();
    DataCopy(s, scaleGm, 256);
    PipeBarrier<PIPE_ALL>();
    Exp(s, s, 256);
}
"""


def test_a_dtype_list_macro_over_continued_lines_is_read() -> None:
    (op,) = opdef_descriptions([QUANT_OPDEF])
    assert op["input_desc"] == [{"name": "scale", "type": ["DT_FLOAT", "DT_BF16"]},
                                {"name": "offset", "type": ["DT_INT32", "DT_BF16"]}]


def test_a_guess_the_opdef_does_not_list_takes_the_nearest_listed_type(tmp_path: Path) -> None:
    from ascendir.lower import guessed_dtypes

    kernel = tmp_path / "quant_scale" / "op_kernel" / "quant_scale.cpp"
    kernel.parent.mkdir(parents=True)
    kernel.write_text(QUANT_KERNEL)
    # alone, every guess fails: float and half at the bf16 copy of the offset, int32_t at Exp of the scale
    assert "ASC101" in _errors(kernel)
    (tmp_path / "quant_scale" / "op_host").mkdir()
    (tmp_path / "quant_scale" / "op_host" / "quant_scale_def.cpp").write_text(QUANT_OPDEF)
    program, _ = load_for_check(read_input(str(kernel)))
    assert guessed_dtypes(program.bundle, "float")["DTYPE_OFFSET"] == "bfloat16_t"
    assert guessed_dtypes(program.bundle, "int32_t")["DTYPE_SCALE"] == "float"  # no integer listed: the first type
    assert "DTYPE_OFFSET" not in guessed_dtypes(program.bundle, "int32_t")  # listed: the guess itself
    assert _errors(kernel) == []


def test_a_kernel_that_includes_its_code_per_listed_dtype_is_checked_with_one_of_them(tmp_path: Path) -> None:
    # ops-transformer mla_preprocess: `#if ORIG_DTYPE_INPUT == DT_FLOAT16 / #elif ... DT_BF16` and no #else, with
    # an OpDef that lists fp16 and bf16. Undefined, the macro took neither branch and the kernel's helpers were
    # undeclared; the float guess's stand-in, bf16, picks the second.
    project = tmp_path / "mla"
    (project / "op_kernel").mkdir(parents=True)
    (project / "op_host").mkdir()
    (project / "op_host" / "mla_def.cpp").write_text(QUANT_OPDEF.replace("QuantScale", "Mla").replace(
        '"scale"', '"input"').replace("DTYPE_SCALE_LIST", "DTYPE_INPUT_LIST").replace(
        "{ ge::DT_FLOAT, ge::DT_BF16 }", "{ ge::DT_FLOAT16, ge::DT_BF16 }"))
    (project / "op_kernel" / "mla_bf16.h").write_text(
        "__aicore__ inline void RunMla(GM_ADDR x) { AscendC::PipeBarrier<PIPE_ALL>(); }\n")
    (project / "op_kernel" / "mla.cpp").write_text(
        '#include "kernel_operator.h"\n'
        "#if ORIG_DTYPE_INPUT == DT_FLOAT16\n#include \"mla_fp16.h\"\n"
        "#elif ORIG_DTYPE_INPUT == DT_BF16\n#include \"mla_bf16.h\"\n#endif\n"
        'extern "C" __global__ __aicore__ void mla(GM_ADDR input, GM_ADDR offset, GM_ADDR y, GM_ADDR tiling)\n'
        "{\n    RunMla(input);\n}\n")
    assert _errors(project / "op_kernel" / "mla.cpp") == []
