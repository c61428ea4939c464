"""An integer list passed where the op declares a tensor input: the aclnn layer's aclIntArray.

NPUKernelBench bindings take such an argument as `std::vector<int64_t>` and hand it on as
`ConvertType(at::IntArrayRef(dims))`, an aclIntArray; the op's OpDef declares it as an input tensor
(`Input("dims").DataType({DT_INT64, ...}).ValueDepend(REQUIRED)`), so the op gets a 1-D int64 tensor holding the
list, whose values its host reads (`GetInputTensor(0)->GetData<int64_t>()`). The reference keeps the list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from bench.suites.model import Inputs, TensorDecl


def int_arrays_as_tensors(inputs: Inputs, decls: Sequence[TensorDecl]) -> Inputs:
    """`inputs` with each list or tuple of ints drawn for a declared (non-list) tensor input made a 1-D tensor of
    the input's declared integer dtype (int64 when it lists several or none); unchanged when there is none."""
    declared = {d.name: d for d in decls if not d.is_list}
    values = dict(inputs.values)
    dtypes = dict(inputs.dtypes)
    changed = False
    for name, value in inputs.values.items():
        decl = declared.get(name)
        if decl is None or not isinstance(value, (list, tuple)) or not value:
            continue
        if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value):
            continue
        kinds = {t for t in decl.dtypes if t}
        dtype = kinds.pop() if len(kinds) == 1 and next(iter(kinds)).startswith(("int", "uint")) else "int64"
        values[name] = np.asarray([int(v) for v in value], dtype=np.dtype(dtype))
        dtypes[name] = dtype
        changed = True
    if not changed:
        return inputs
    return replace(inputs, values=values, dtypes=dtypes, reference=inputs.reference or inputs)
