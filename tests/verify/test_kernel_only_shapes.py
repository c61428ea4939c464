"""A kernel-only NPUKernelBench answer checked with shapes: launched on all vector cores with its own
TilingDataDef values, so capacity, alignment and output coverage are judged (no ASC602); and an op project
without an op json names its outputs in its OpDef, so `--shape y=...` gives an output's shape."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.check import main as check_main

KERNEL = '''#include "kernel_operator.h"
typedef struct {{
    uint32_t totalLength;
    uint32_t tileNum;
}} TilingDataDef;
constexpr int32_t BUFFER_NUM = 2;
class KernelSqrt {{
public:
    __aicore__ inline KernelSqrt() {{}}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalLength, uint32_t tileNum)
    {{
        blockLength = totalLength / AscendC::GetBlockNum();
        this->tileNum = tileNum;
        tileLength = blockLength / tileNum / BUFFER_NUM;
        xGm.SetGlobalBuffer((__gm__ half *)x + blockLength * AscendC::GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ half *)y + blockLength * AscendC::GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(half));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(half));
    }}
    __aicore__ inline void Process()
    {{
        for (int32_t i = 0; i < tileNum * BUFFER_NUM; i++) {{
            AscendC::LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
            AscendC::DataCopy(xLocal, xGm[i * tileLength], tileLength);
            inQueueX.EnQue(xLocal);
            xLocal = inQueueX.DeQue<half>();
            AscendC::LocalTensor<half> yLocal = outQueueY.AllocTensor<half>();
            AscendC::Sqrt(yLocal, xLocal, tileLength);
            outQueueY.EnQue<half>(yLocal);
            inQueueX.FreeTensor(xLocal);
            yLocal = outQueueY.DeQue<half>();
            AscendC::DataCopy(yGm[i * tileLength], yLocal, tileLength);
            outQueueY.FreeTensor(yLocal);
        }}
    }}
private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::GlobalTensor<half> xGm, yGm;
    uint32_t blockLength, tileNum, tileLength;
}};
extern "C" __global__ __aicore__ void sqrt(GM_ADDR x, GM_ADDR y, GM_ADDR workspace)
{{
    TilingDataDef tiling_data = {{
        .totalLength = {total},
        .tileNum = {tiles},
    }};
    KernelSqrt op;
    op.Init(x, y, tiling_data.totalLength, tiling_data.tileNum);
    op.Process();
}}
'''

HOST = '''#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    context->SetBlockDim(48);
    return ge::GRAPH_SUCCESS;
}
}
namespace ops {
class Sqrt : public OpDef {
public:
    explicit Sqrt(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Sqrt);
}
'''

SHAPE = "48,128,512:float16"  # 3145728 halves: 65536 per core on 48 cores


def answer(tmp_path: Path, total: int, tiles: int) -> str:
    path = tmp_path / "answer.md"
    path.write_text(f"My plan.\n<kernel_impl>\n```cpp\n{KERNEL.format(total=total, tiles=tiles)}```\n</kernel_impl>\n")
    return str(path)


def check(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(check_main, list(args))
    return result.exit_code, result.output


def test_kernel_only_answer_that_covers_the_output_is_clean(tmp_path: Path) -> None:
    code, out = check(answer(tmp_path, 3145728, 8), "--shape", SHAPE, "--shape", f"y={SHAPE}")
    assert code == 0, out
    assert "ASC602" not in out


def test_kernel_only_answer_short_of_the_output_is_flagged(tmp_path: Path) -> None:
    # 3072000 = 48 x 64000: every core's slice is whole, but the last 73728 elements belong to no core
    path = answer(tmp_path, 3072000, 8)
    code, out = check(path, "--shape", f"y={SHAPE}", "--shape", SHAPE)  # named out of order
    assert code == 1
    assert "the last 73728 elements (147456 bytes) of output 'y' are written by no core [ASC607]" in out
    assert "with blockDim 48" in out


def test_kernel_only_answer_over_the_ub_is_flagged(tmp_path: Path) -> None:
    code, out = check(answer(tmp_path, 3145728, 1), "--shape", SHAPE, "--shape", f"y={SHAPE}", "--chip", "910_93")
    assert code == 1
    assert "UB buffers need 262144 bytes; the 910_93 UB holds 196608 [ASC301]" in out


def test_kernel_only_answer_with_an_unaligned_tile_is_flagged(tmp_path: Path) -> None:
    code, out = check(answer(tmp_path, 3000000, 8), "--shape", SHAPE, "--shape", f"y={SHAPE}")
    assert code == 1 and "not a multiple of 32 bytes" in out and "[ASC401]" in out


@pytest.mark.parametrize("named", [True, False])
def test_project_without_op_json_names_its_outputs_in_the_opdef(tmp_path: Path, named: bool) -> None:
    project = tmp_path / "sqrt"
    (project / "op_host").mkdir(parents=True)
    (project / "op_kernel").mkdir()
    (project / "op_host" / "sqrt.cpp").write_text(HOST)
    (project / "op_kernel" / "sqrt.cpp").write_text(KERNEL.format(total=3072000, tiles=8))
    shapes = ["--shape", SHAPE] + (["--shape", f"y={SHAPE}"] if named else [])
    code, out = check(str(project), *shapes)
    if named:
        assert code == 1 and "of output 'y' are written by no core [ASC607]" in out
    else:  # no output shape given, none inferable (no InferShape): coverage is not judged
        assert "ASC607" not in out


def test_a_read_past_a_kernel_only_answers_input_does_not_call_it_an_output(tmp_path: Path) -> None:
    # the answer is written for 3145728 halves; given 1572864, core 47's reads of x run past its end. A kernel-only
    # answer's parameters are all the launch's tensors, not told apart: before, the finding said "of output 'x'"
    code, out = check(answer(tmp_path, 3145728, 8), "--shape", "24,128,512:float16", "--shape", f"y={SHAPE}")
    assert code == 1
    assert "of tensor 'x' through 'xGm'" in out and "[ASC605]" in out
    assert "output 'x'" not in out
