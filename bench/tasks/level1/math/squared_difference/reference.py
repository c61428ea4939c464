r"""Reference for squared_difference: y_i = (x1_i - x2_i)^2."""
import numpy as np


def reference(inputs, attrs):
    x1 = inputs["x1"].astype(np.float64)
    x2 = inputs["x2"].astype(np.float64)
    return {"y": ((x1 - x2) ** 2).astype(inputs["x1"].dtype)}
