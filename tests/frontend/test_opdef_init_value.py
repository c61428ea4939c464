"""frontend.opdef reads an OpDef output's InitValue in its three forms (asc-devkit OpParamDef/InitValue.md) into
the op description's "init_value": the uint64_t clear, one ScalarVar, and one ScalarVar per DataType entry,
paired with the entries (those of the input it follows, for a Follow output); outputs without one have none."""

from __future__ import annotations

from frontend.opdef import opdef_descriptions

OPDEF = """
namespace ops {
class Acc : public OpDef {
public:
    explicit Acc(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
        this->Output("cleared").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).InitValue(0);
        this->Output("one").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .InitValue({ScalarType::INT16, 1});
        this->Output("listed").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .InitValue({{ScalarType::FLOAT16, 2}, {ScalarType::FLOAT32, 3.2}});
        this->Output("follows").ParamType(REQUIRED).Follow("x")
            .InitValue({{ScalarType::FLOAT16, -1}, {ScalarType::FLOAT32, 0.5f}});
        this->Output("plain").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
    }
};
OP_ADD(Acc);
}
"""


def test_each_form_of_init_value_is_read() -> None:
    (op,) = opdef_descriptions([OPDEF])
    outs = {d["name"]: d.get("init_value") for d in op["output_desc"]}
    assert outs["cleared"] == [{"type": None, "value": 0}]
    assert outs["one"] == [{"type": "int16", "value": 1}]
    assert outs["listed"] == [{"type": "float16", "value": 2.0, "dtype": "DT_FLOAT16"},
                              {"type": "float32", "value": 3.2, "dtype": "DT_FLOAT"}]
    assert outs["follows"] == [{"type": "float16", "value": -1.0, "dtype": "DT_FLOAT16"},
                               {"type": "float32", "value": 0.5, "dtype": "DT_FLOAT"}]
    assert outs["plain"] is None
    assert "init_value" not in op["input_desc"][0]
