"""`GetInputTensor(i)->GetData<float>()` in a host tiling function, as ops-math lin_space reads its start and stop
tensors (LinSpaceGetConstValue, lin_space_tiling.cpp). Before, GetData of a float T was 'modelled for integer
element types only' (ASC103): the statement was left out and the tiling stopped where the value was stored
(a value the host lowering left out is used). Now the values reach the host as their bit patterns
(host.input_values float_bits) and the element read bitcasts them back.
"""

from __future__ import annotations

import struct

import numpy as np

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling, lower_host_tiling
from frontend.pipeline import load_text

SOURCE = """
namespace optiling {
struct SpaceTilingData { float start; float step; uint32_t startBits; int64_t count; double wide; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    SpaceTilingData *t = context->GetTilingData<SpaceTilingData>();
    const float *start = context->GetInputTensor(0)->GetData<float>();
    const float *stop = context->GetInputTensor(1)->GetData<float>();
    const int32_t *num = context->GetInputTensor(2)->GetData<int32_t>();
    const double *wide = context->GetInputTensor(3)->GetData<double>();
    if (start == nullptr || stop == nullptr) {
        return ge::GRAPH_FAILED;
    }
    float first = *start;
    t->start = first;
    t->step = (stop[0] - first) / static_cast<float>(*num - 1);
    t->startBits = *reinterpret_cast<uint32_t *>(&first);
    t->count = *num;
    t->wide = wide[1];
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def _inputs(start: TensorSpec) -> TilingInputs:
    return TilingInputs([start, TensorSpec((), "float32", values=(5.0,)), TensorSpec((), "int32", values=(41,)),
                         TensorSpec((2,), "float64", values=(0.5, -2.25))], chip="910B2")


def test_the_host_reads_a_float_input_tensors_values() -> None:
    result = evaluate_program_tiling(load_text(SOURCE, "space_tiling.cpp"),
                                     _inputs(TensorSpec((), "float32", values=(-3.0,))))
    assert result.succeeded and not result.gaps, result.diagnostics
    assert result.fields["start"] == -3.0
    assert result.fields["step"] == float(np.float32(8.0) / np.float32(40.0))  # (5 - -3) / 40 in float32
    assert result.fields["startBits"] == struct.unpack("<I", struct.pack("<f", -3.0))[0]
    assert result.fields["count"] == 41
    assert result.fields["wide"] == -2.25


def test_a_float_read_of_a_tensor_of_another_width_stops_with_the_input_named() -> None:
    result = evaluate_program_tiling(load_text(SOURCE, "space_tiling.cpp"),
                                     _inputs(TensorSpec((), "float16", values=(-3.0,))))
    assert not result.succeeded
    assert any("input 0's data as a 32-bit floating-point type" in str(d) and "float16" in str(d)
               for d in result.diagnostics), result.diagnostics


def test_the_op_prints_its_element_width() -> None:
    lowered = lower_host_tiling(load_text(SOURCE, "space_tiling.cpp"))
    text = str(lowered.module)
    assert "float_bits = 32" in text and "float_bits = 64" in text, text
