"""Catalog structs built by constructors whose parameters are not the fields in order.

`ShapeInfo(shapeDim, shape[], format)` and `ShapeInfo(shapeDim, shape[], originalShapeDim, originalShape[], format)`
[asc-devkit kernel_tensor.h]: the arguments were matched to the fields by position, so the shape array went to a
uint8_t field (ASC103 'cannot convert uint32_t[2] to uint8_t', five times in NPUKernelBench's large-head-dim flash
attention)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ascendir.catalog import load_catalog
from ascendir.dialects import ascendc as asc
from ascendir.lower import LoweringOptions, lower_program
from frontend.pipeline import load_text

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<float> t = buf.Get<float>();
    uint32_t shape[] = {4, 16};
    uint32_t original[] = {4, 10};
    t.SetShapeInfo(ShapeInfo(2, shape, DataFormat::ND));
    t.SetShapeInfo(ShapeInfo(2, shape, 2, original, DataFormat::ND));
}
"""


def test_shape_info_constructors_set_the_fields_they_name() -> None:
    r = lower_program(load_text(KERNEL, "k.cpp"), LoweringOptions())
    r.module.verify()
    assert [(d.code, d.message) for d in r.diagnostics] == []
    inits = [op for op in r.module.walk() if isinstance(op, asc.StructInitOp)]
    assert [[f.data for f in op.fields.data] for op in inits] == [
        ["shapeDim", "shape", "dataFormat"],
        ["shapeDim", "shape", "originalShapeDim", "originalShape", "dataFormat"]]
    short, full = inits
    assert str(short.values[1].type) == "memref<2xi32>"  # the shape array itself, not a byte
    assert str(full.values[3].type) == "memref<2xi32>"


def test_catalog_constructor_lists_name_fields_and_differ_in_length() -> None:
    shape_info = load_catalog().struct("ShapeInfo")
    assert shape_info is not None
    assert shape_info.constructor_fields(3) == ("shapeDim", "shape", "dataFormat")
    assert shape_info.constructor_fields(4) is None


@pytest.mark.parametrize("ctor, message", [
    ('[["a", "nope"]]', "constructor sets unknown field(s) nope"),
    ('[["a"], ["b"]]', "two constructors take the same number of arguments"),
])
def test_bad_constructor_lists_are_catalog_errors(tmp_path: Path, ctor: str, message: str) -> None:
    import shutil

    from ascendir.catalog.loader import DATA_DIR, CatalogError, build_catalog

    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    with (data / "structs.toml").open("a") as f:
        f.write(f'''
[[struct]]
name = "TestPair"
summary = "two fields"
ref = "test"
constructors = {ctor}
fields = [{{ name = "a", type = "uint32_t" }}, {{ name = "b", type = "uint32_t" }}]
''')
    with pytest.raises(CatalogError, match=message.replace("(", r"\(").replace(")", r"\)")):
        build_catalog(data)
