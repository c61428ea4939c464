"""The binding's non-tensor arguments as the aclnn layer hands them to the op's tensor inputs
(bench/suites/aclnn_arguments.py): NPUKernelBench Fill's `dims` list (an aclIntArray for a value-depend int64
input) and Muls's `value` (a c10::Scalar of a float64 tensor's item, for a `.Scalar()` float32 input; as float64
the output was taken for float64 as well and half of it counted unwritten).
"""

from __future__ import annotations

import numpy as np

from bench.suites.aclnn_arguments import as_op_inputs
from bench.suites.model import Inputs, TensorDecl
from frontend.opdef_inputs import scalar_inputs

DECLS = (TensorDecl("dims", ("int64", "int64")), TensorDecl("value", ("float32", "float32")))


def test_an_integer_list_for_a_declared_tensor_input_becomes_an_int64_tensor() -> None:
    drawn = Inputs({"dims": [512, 3], "value": np.array(1.5, dtype=np.float32)}, {"value": "float32"})
    given = as_op_inputs(drawn, DECLS)
    assert isinstance(given.values["dims"], np.ndarray) and given.values["dims"].dtype == np.int64
    assert given.values["dims"].tolist() == [512, 3] and given.dtypes["dims"] == "int64"
    assert given.reference is drawn  # the reference keeps the list
    # an attribute list (no tensor input of that name) stays a list
    assert as_op_inputs(Inputs({"axes": [0, 1]}, {}), DECLS).values["axes"] == [0, 1]


def test_a_scalar_input_gets_its_declared_dtype() -> None:
    drawn = Inputs({"dims": np.array([4], dtype=np.int64), "value": np.array([1.2])}, {"value": "float64"})
    given = as_op_inputs(drawn, DECLS, scalar={1})
    assert given.values["value"].dtype == np.float32 and given.dtypes["value"] == "float32"
    assert as_op_inputs(drawn, DECLS).values["value"].dtype == np.float64  # not a Scalar(): as drawn


def test_the_opdef_marks_scalar_inputs() -> None:
    host = """
    namespace ops {
    class Muls : public OpDef {
    public:
        explicit Muls(const char* name) : OpDef(name) {
            this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
            this->Input("value").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Scalar();
            this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        }
    };
    OP_ADD(Muls);
    }
    """
    assert scalar_inputs([host]) == {1}


def test_an_integer_for_a_declared_integer_tensor_input_becomes_a_one_element_tensor() -> None:
    # NPUKernelBench TopKV3: the binding passes `int64_t k`; the op declares Input("k") DT_INT32, and its aclnn layer
    # converts the scalar (ConvertToTensor(k, ACL_INT32)); the host reads it with GetData<int32_t>()
    decls = (TensorDecl("x", ("float16",)), TensorDecl("k", ("int32",)))
    drawn = Inputs({"x": np.zeros((2, 8), np.float16), "k": 3}, {"x": "float16"})
    given = as_op_inputs(drawn, decls)
    assert given.values["k"].dtype == np.int32 and given.values["k"].tolist() == [3]
    assert given.dtypes["k"] == "int32" and given.reference is drawn  # the reference keeps the int
    # no tensor input of that name: an attribute, left as it is
    assert as_op_inputs(Inputs({"dim": 1}, {}), decls).values["dim"] == 1
