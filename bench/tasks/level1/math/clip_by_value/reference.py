r"""Reference for clip_by_value: y_i = \min(\max(x_i, \mathrm{min\_value}), \mathrm{max\_value})."""
import numpy as np


def reference(inputs, attrs):
    x = inputs["x"].astype(np.float64)
    return {"y": (np.minimum(np.maximum(x, attrs["min_value"]), attrs["max_value"])).astype(inputs["x"].dtype)}
