"""What the aclnn layer makes of a binding's non-tensor arguments for an op's tensor inputs.

NPUKernelBench bindings hand some of an op's inputs on as other aclnn types, which the generated aclnn API turns
into the tensors the op gets:
- an integer list where the OpDef declares a tensor input (`std::vector<int64_t> &dims` passed on as
  `ConvertType(at::IntArrayRef(dims))`, an aclIntArray, for `Input("dims").DataType({DT_INT64, ...})
  .ValueDepend(REQUIRED)`): a 1-D tensor of the input's integer dtype holding the list, whose values the host
  reads (`GetInputTensor(0)->GetData<int64_t>()`: Fill);
- an integer where the OpDef declares an integer tensor input (`int64_t k` passed on to aclnnTopKV3, whose aclnn
  layer makes it `ConvertToTensor(k, ACL_INT32)` for `Input("k").DataType({DT_INT32})`): a one-element tensor of
  that dtype, whose value the host reads (`GetInputTensor(1)->GetData<int32_t>()`: TopKV3);
- a scalar for an input declared `.Scalar()` (`c10::Scalar(value.item<float>())` for Muls's `value`, drawn as a
  float64 tensor): a one-element tensor of the input's declared dtype.
The reference keeps the arguments as drawn (Inputs.reference).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace

import numpy as np

from bench.suites.model import Inputs, TensorDecl


def as_op_inputs(inputs: Inputs, decls: Sequence[TensorDecl], scalar: Collection[int] = ()) -> Inputs:
    """`inputs` with each integer list drawn for a declared (non-list) tensor input made a 1-D tensor of its
    integer dtype (int64 when it declares several or none), and the value of each `.Scalar()` input (by index in
    `decls`) converted to the one dtype it declares; unchanged when neither applies."""
    declared = {d.name: (i, d) for i, d in enumerate(decls) if not d.is_list}
    values = dict(inputs.values)
    dtypes = dict(inputs.dtypes)
    changed = False
    for name, value in inputs.values.items():
        index, decl = declared.get(name, (None, None))
        if decl is None:
            continue
        kinds = {t for t in decl.dtypes if t}
        single = next(iter(kinds)) if len(kinds) == 1 else None
        if isinstance(value, (list, tuple)) and value and all(
                isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value):
            dtype = single if single is not None and single.startswith(("int", "uint")) else "int64"
            values[name] = np.asarray([int(v) for v in value], dtype=np.dtype(dtype))
        elif isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            dtype = single if single is not None and single.startswith(("int", "uint")) else "int64"
            values[name] = np.asarray([int(value)], dtype=np.dtype(dtype))
        elif (index in scalar and single is not None and isinstance(value, np.ndarray) and value.size == 1
              and single in ("float16", "float32", "int8", "int16", "int32", "int64", "uint8", "bool")
              and str(value.dtype) != single):
            dtype = single
            values[name] = value.astype(np.dtype(dtype))
        else:
            continue
        dtypes[name] = dtype
        changed = True
    if not changed:
        return inputs
    return replace(inputs, values=values, dtypes=dtypes, reference=inputs.reference or inputs)
