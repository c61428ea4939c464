"""Reference for matmul_fp16_out: c = a @ b in float64, rounded to float16."""
import numpy as np


def reference(inputs, attrs):
    return {"c": (inputs["a"].astype(np.float64) @ inputs["b"].astype(np.float64)).astype(np.float16)}
