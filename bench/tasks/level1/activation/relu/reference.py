"""Reference for relu: y = max(x, 0)."""
import numpy as np


def reference(inputs, attrs):
    x = inputs["x"]
    return {"y": np.maximum(x, np.zeros((), dtype=x.dtype))}
