"""An attribute read through a getter of another type than the OpDef declares (ops-nn smooth_l1_loss_v2 tells its
Float sigma from an int reduction with `GetInt(0)` and `GetFloat(1)` on its String reduction): GetAttrPointer<T>
reinterprets the attribute's storage, so the run reads its bytes as T (those past the attribute's own taken as zero,
which the lowering says). Before, the run stopped: 'reads attribute 0 as int but was given 1.0' (ASC602)."""

from __future__ import annotations

import struct

from tests.ascendir.host_op import op_def, run_tiling

SRC = r"""
namespace optiling {
struct PTiling { int32_t sigmaBits; int64_t wideBits; int32_t textBits; float textAsFloat; int32_t flagAsInt; float sigma; };
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    auto attrs = context->GetAttrs();
    PTiling* tiling = context->GetTilingData<PTiling>();
    int v = *attrs->GetInt(0);
    tiling->sigmaBits = v;
    tiling->wideBits = *attrs->GetInt(0);
    tiling->textBits = static_cast<int32_t>(*attrs->GetInt(1));
    tiling->textAsFloat = *attrs->GetFloat(1);
    tiling->flagAsInt = static_cast<int32_t>(*attrs->GetInt(2));
    tiling->sigma = *attrs->GetFloat(0);
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def('this->Attr("sigma").AttrType(OPTIONAL).Float(1.0);',
             'this->Attr("reduction").AttrType(OPTIONAL).String("mean");',
             'this->Attr("flag").AttrType(OPTIONAL).Bool(false);')


def test_a_getter_of_another_type_reads_the_attributes_bytes() -> None:
    result = run_tiling(SRC, attrs=[1.5, "mean", True])
    assert result.succeeded, result.diagnostics
    fields = result.fields
    bits = struct.unpack("<i", struct.pack("<f", 1.5))[0]
    assert fields["sigmaBits"] == bits
    assert fields["wideBits"] == bits  # (the 4 bytes past the float's taken as zero)
    assert fields["textBits"] == int.from_bytes(b"mean", "little")
    assert fields["textAsFloat"] == struct.unpack("<f", b"mean")[0]
    assert fields["flagAsInt"] == 1
    assert fields["sigma"] == 1.5
    said = [d.message for d in result.gaps]
    assert any("attribute 0 is declared float in the OpDef and read as int" in m for m in said)
    assert any("attribute 1 is declared str in the OpDef and read as float" in m for m in said)
