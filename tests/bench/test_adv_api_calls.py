"""bench/perf/adv_api_calls.py's source scan: a source that declares its own function of an adv_api name (NPUKernelBench's
op_host/tensor_util.h: `aclnnStatus BatchNorm(...);`, an aclnn host wrapper) does not call the API; calls still count.
Before, the declaration counted as a BatchNorm call in two NPUKernelBench answers that never call AscendC::BatchNorm."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_PATH = Path(__file__).resolve().parents[2] / "bench" / "perf" / "adv_api_calls.py"
_SPEC = importlib.util.spec_from_file_location("adv_api_calls", _PATH)
assert _SPEC is not None and _SPEC.loader is not None
adv = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(adv)

NAMES = {"BatchNorm", "LayerNorm", "Normalize"}


def test_a_declaration_is_not_a_call() -> None:
    header = """
#include "aclnn/acl_meta.h"
aclnnStatus BatchNorm(const aclTensor *input, const aclTensor *weight, const aclTensor *bias,
                      aclTensor *runningMean, aclTensor *runningVar, bool training, double momentum,
                      double eps, aclTensor *output, aclOpExecutor *executor);
"""
    assert adv.calls(header, NAMES) == {}


def test_calls_still_count() -> None:
    kernel = """
__aicore__ inline void Compute() {
    AscendC::LayerNorm<float, false>(y, mean, var, x, gamma, beta, eps, tiling);
    Normalize<float, float, false>(y, rstd, mean, var, x, gamma, beta, tmp, eps, para);
    if (flag) return BatchNorm(a, b);
    else BatchNorm(c, d);
}
"""
    assert adv.calls(kernel, NAMES) == {"LayerNorm": 1, "Normalize": 1, "BatchNorm": 2}
